"""The public Python API: the names `tidings` exports, the example in docs/python-api.md run as
it stands, and what the API promises beyond the CLI (warnings, store URLs, the one writer)."""

from __future__ import annotations

import inspect
import json
import os
import pydoc
import re
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import tidings
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "python-api.md"

# The public surface is built from the modules that own the names (api.__all__,
# errors.__all__, the lazily loaded types): these tests pin it by introspection against the
# module, help(tidings) and docs/python-api.md, so the copies cannot disagree.
EXPORTED = list(tidings.__all__)
FUNCTIONS = [name for name in EXPORTED if name[0].islower() and not name.startswith("_")]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p
    )
    return env


# -- the exported names ---------------------------------------------------------------------


def test_the_exported_names_are_the_owning_modules_lists() -> None:
    from tidings import api, errors

    lazy = {"Config", "RepoConfig", "SiteConfig", "Store", "DailyReport", "WeeklyReport"}
    assert set(tidings.__all__) == {*api.__all__, *errors.__all__, *lazy, "__version__"}
    assert len(set(tidings.__all__)) == len(tidings.__all__)
    # Every public function api.py defines is exported: a helper the CLI needs is API too.
    defined = {
        name
        for name, value in vars(api).items()
        if inspect.isfunction(value) and value.__module__ == api.__name__ and name[0] != "_"
    }
    assert defined <= set(api.__all__), defined - set(api.__all__)
    # Every error type errors.py defines is exported.
    types = {
        n
        for n, v in vars(errors).items()
        if isinstance(v, type) and v.__module__ == errors.__name__
    }
    assert types == set(errors.__all__)


# What the CLI may import at run time besides the exported API: itself, the version, and the
# shared helpers that belong to no pipeline layer (thread pools, languages), and the errors.
CLI_MAY_IMPORT = ("tidings.cli", "tidings.common", "tidings.errors", "tidings._version")


def _runtime_imports(path: Path) -> Iterator[tuple[int, str, list[str]]]:
    """(line, module, names) of every import outside `if TYPE_CHECKING:` blocks."""
    import ast

    tree = ast.parse(path.read_text("utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for stmt in block.body
        for node in ast.walk(stmt)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, []


def test_the_cli_uses_only_the_exported_api() -> None:
    """The CLI parses arguments and prints; everything it does goes through `tidings`'s
    exported names, so the API can do whatever the CLI can."""
    # tidings.errors is public whole: its error types and the redaction every output uses.
    public_modules = {"tidings.api"}
    wrong = []
    for path in sorted((ROOT / "src" / "tidings" / "cli").glob("*.py")):
        for line, module, names in _runtime_imports(path):
            where = f"{path.name}:{line}"
            if not module.startswith("tidings") or module.startswith(CLI_MAY_IMPORT):
                continue
            if module == "tidings":
                allowed = {*tidings.__all__, "api", "errors", "console"}
                wrong += [f"{where} {n}" for n in names if n not in allowed]
                wrong += [] if names else [f"{where} import tidings"]
                continue
            if module in public_modules:
                wrong += [f"{where} {module}.{n}" for n in names if n not in tidings.__all__]
                continue
            wrong.append(f"{where} {module}")
    assert wrong == [], f"the CLI reaches past the exported API: {wrong}"


def test_the_cli_import_check_catches_an_internal_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "from tidings.facts.windows import parse_date\n"
        "if TYPE_CHECKING:\n    from tidings.jobs.runner import RepoOutcome\n"
    )
    found = [module for _, module, _ in _runtime_imports(probe)]
    assert found == ["typing", "tidings.facts.windows"]


def test_every_exported_function_is_documented_and_every_documented_one_exported() -> None:
    doc = DOC.read_text("utf-8")
    documented = set(re.findall(r"^\| `(\w+)\(", doc, re.M))
    documented |= {
        m for pair in re.findall(r"^\| `(\w+)\(.*?` / `(\w+)\(", doc, re.M) for m in pair
    }
    functions = {n for n in FUNCTIONS if n != "__version__"}
    assert functions - documented == set(), "exported but not in docs/python-api.md"
    assert documented - functions == set(), "in docs/python-api.md but not exported"
    types = [n for n in EXPORTED if n[0].isupper()]
    assert [n for n in types if not re.search(rf"\b{n}\b", doc)] == []


def test_a_database_failure_leaves_the_api_as_a_store_error(tmp_path: Path) -> None:
    import sqlite3

    from sqlalchemy.exc import SQLAlchemyError

    store = tidings.open_store(f"sqlite:///{tmp_path / 'store.db'}")
    # A store damaged behind tidings' back while open: the query fails inside SQLAlchemy.
    with sqlite3.connect(tmp_path / "store.db") as conn:
        conn.execute("DROP TABLE items")
    with pytest.raises(tidings.StoreError) as caught:
        tidings.repositories(store)
    store.close()
    assert isinstance(caught.value.__cause__, SQLAlchemyError)
    assert caught.value.one_line().startswith("database error: ")
    assert "TIDINGS_DB" in caught.value.fix


def test_every_exported_name_resolves_and_no_subpackage_shadows_one() -> None:
    """`tidings.render` and `tidings.demo` are subpackages: a function by such a name would be
    replaced by the module the moment anything imported it. Import them all, then look."""
    import tidings.demo
    import tidings.render.markdown
    import tidings.report.daily
    import tidings.site.build

    for name in EXPORTED:
        value = getattr(tidings, name)
        assert not isinstance(value, type(sys)), f"tidings.{name} is a module"
    for name in FUNCTIONS:
        if name != "__version__":
            assert callable(getattr(tidings, name)), name
    assert issubclass(tidings.UncoveredWindowError, tidings.TidingsError)
    assert issubclass(tidings.ConfigError, tidings.InvocationError)
    assert issubclass(tidings.TidingsWarning, UserWarning)


def test_help_shows_the_api() -> None:
    text = pydoc.plain(pydoc.render_doc(tidings))
    for name in FUNCTIONS:
        if name != "__version__":
            assert re.search(rf"\b{name}\(", text), f"help(tidings) does not show {name}()"
    assert "docs/python-api.md" in text


def test_import_tidings_loads_no_heavy_module() -> None:
    """The CLI and every `from tidings import records` pay for `import tidings`: it must not
    pull in the database layer, the models, the HTTP clients or the PDF engine."""
    heavy = ("sqlalchemy", "pydantic", "httpx", "openai", "weasyprint", "jinja2", "rich")
    code = (
        "import sys, tidings\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r})))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=_env(), check=True
    )
    assert out.stdout.strip() == "[]"


def test_the_package_is_typed() -> None:
    assert (Path(tidings.__file__).parent / "py.typed").is_file()


# -- the documented example -----------------------------------------------------------------


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```$", DOC.read_text("utf-8"), re.S | re.M)


def test_the_documented_example_runs_and_prints_what_the_doc_says(tmp_path: Path) -> None:
    code, printed = _blocks("python")[0], _blocks("text")[0]
    script = tmp_path / "example.py"
    script.write_text(code, "utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, env=_env()
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == printed
    assert not done.stderr  # no warning: both windows are covered by the sample
    saved = json.loads((tmp_path / "reports/daily/2026-03-05.en.json").read_text("utf-8"))
    assert (saved["kind"], saved["repo"], saved["date"]) == ("daily", REPO, "2026-03-05")


# -- what the API promises -------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('api') / 'demo.db'}"
    tidings.import_snapshot(url, SAMPLE_PATH)  # a URL: opened for the call, closed after
    return url


@pytest.fixture
def config() -> tidings.Config:
    return tidings.load_config(CONFIG_PATH)


@pytest.fixture
def loud() -> Iterator[list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught


def test_a_window_the_store_does_not_reach_is_an_error(
    demo_db: str, config: tidings.Config
) -> None:
    with pytest.raises(tidings.UncoveredWindowError) as caught:
        tidings.build_weekly(demo_db, REPO, "2026-W11", "en", config=config)
    assert "stops inside 2026-W11" in caught.value.cause
    assert caught.value.exit_code == 1


def test_allow_partial_reports_it_with_a_warning(
    demo_db: str, config: tidings.Config, loud: list[warnings.WarningMessage]
) -> None:
    report = tidings.build_weekly(
        demo_db, REPO, (2026, 11), "en", config=config, allow_partial=True
    )
    assert report.week == "2026-W11"
    (warning,) = [w for w in loud if issubclass(w.category, tidings.TidingsWarning)]
    assert "stops inside 2026-W11" in str(warning.message)
    assert "the numbers cover only what the store holds" in str(warning.message)
    assert warning.filename == __file__  # points at the caller's line, not the API's


def test_bad_arguments_are_invocation_errors(demo_db: str, config: tidings.Config) -> None:
    with pytest.raises(tidings.InvocationError, match="OWNER/REPO"):
        tidings.build_daily(demo_db, "not a repo", "2026-03-05", config=config)
    with pytest.raises(tidings.InvocationError, match="zh or en"):
        tidings.build_daily(demo_db, REPO, "2026-03-05", "fr", config=config)  # type: ignore[arg-type]
    with pytest.raises(tidings.InvocationError):
        tidings.build_daily(demo_db, REPO, "2026-02-30", config=config)
    with pytest.raises(tidings.InvocationError, match="exactly one"):
        tidings.stats(demo_db, REPO, config=config)


def test_write_report_takes_the_format_from_the_extension(
    demo_db: str, config: tidings.Config, tmp_path: Path
) -> None:
    report = tidings.build_daily(demo_db, REPO, "2026-03-05", "zh", config=config)
    md = tidings.write_report(report, tmp_path / "day.md")
    js = tidings.write_report(report, tmp_path / "day.json")
    assert md.read_text("utf-8") == tidings.render_report(report)
    assert json.loads(js.read_text("utf-8")) == json.loads(report.model_dump_json())
    with pytest.raises(tidings.InvocationError, match=r"day\.txt") as caught:
        tidings.write_report(report, tmp_path / "day.txt")
    assert ".md, .json or .pdf" in caught.value.fix
    assert not (tmp_path / "day.txt").exists()


def test_save_report_skips_an_unchanged_report(
    demo_db: str, config: tidings.Config, tmp_path: Path
) -> None:
    first = tidings.build_daily(demo_db, REPO, "2026-03-06", "en", config=config)
    saved = tidings.save_report(first, tmp_path, if_changed=True)
    assert saved.written and saved.json_path == tmp_path / "daily" / "2026-03-06.en.json"
    assert saved.markdown_path.read_text("utf-8") == tidings.render_report(first)
    # Built again later: a new generation time, the same content — nothing rewritten.
    again = tidings.build_daily(demo_db, REPO, "2026-03-06", "en", config=config)
    before = saved.json_path.stat().st_mtime_ns
    assert not tidings.save_report(again, tmp_path, if_changed=True).written
    assert saved.json_path.stat().st_mtime_ns == before
    # Without if_changed it is written whatever is there.
    assert tidings.save_report(again, tmp_path).written


def test_run_without_repositories_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(tidings.ConfigError, match=r"no \[\[repos\]\]"):
        tidings.run(f"sqlite:///{tmp_path / 'x.db'}", tidings.Config())
    assert not (tmp_path / "x.db").exists()  # refused before the store was touched


def test_the_store_url_form_leaves_no_store_open(demo_db: str) -> None:
    (summary,) = tidings.repositories(demo_db)
    assert summary.full_name == REPO
    store = tidings.open_store(demo_db)
    try:
        assert [s.full_name for s in tidings.repositories(store)] == [REPO]
        with store.engine.connect():  # still open: the API closes only what it opened
            pass
    finally:
        store.close()
