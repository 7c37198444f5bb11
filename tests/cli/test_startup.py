"""Start-up: the command loads the model client, the PDF engine, the site machinery and Alembic
only when a command uses them (issue #14). Each check runs in a fresh interpreter and reads
its sys.modules, since this test process has long imported everything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "src" / "tidings" / "demo"
REPO = "tidings-demo/rapidinfer"

# What a report without a model never needs. `alembic` too: a store already at the newest
# schema opens without it (store/migrate.py HEAD).
NEVER = (
    "openai",
    "weasyprint",
    "feedgen",
    "alembic",
    "tidings.analysis",
    "tidings.site",
    "tidings.render.pdf",
    "tidings.render.html",
    "tidings.sources.github",
)

PROBE = """
import json, sys
sys.argv = ["tidings", *json.loads(sys.argv[1])]
from tidings.cli import main
code = 0
try:
    main()
except SystemExit as exc:
    code = exc.code
loaded = [m for m in {never} if m in sys.modules]
print(json.dumps({{"code": code, "loaded": loaded}}), file=sys.stderr)
"""


def _run(args: list[str], env: dict[str, str]) -> dict[str, object]:
    code = PROBE.format(never=repr(list(NEVER)))
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    last = done.stderr.strip().splitlines()[-1]
    result: dict[str, object] = json.loads(last)
    result["stdout"] = done.stdout
    return result


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    environ = dict(os.environ)
    environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), environ.get("PYTHONPATH", "")) if p
    )
    environ["TIDINGS_DB"] = f"sqlite:///{tmp_path / 'store.db'}"
    environ.pop("OPENAI_API_KEY", None)
    return environ


def test_importing_the_cli_loads_no_heavy_module(env: dict[str, str]) -> None:
    code = f"import sys, tidings.cli; print([m for m in {NEVER!r} if m in sys.modules])"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "[]"


@pytest.mark.slow
def test_a_report_without_a_model_loads_no_heavy_module(env: dict[str, str]) -> None:
    # The store is made and migrated by its own process: the report's process finds it at HEAD.
    made = _run(["import", str(DEMO / "sample.jsonl")], env)
    assert made["code"] in (0, None)
    args = ["--config", str(DEMO / "tidings.toml"), "report", "daily", REPO]
    result = _run([*args, "--date", "2026-03-10", "--no-llm"], env)
    assert result["code"] in (0, None)
    assert "# " in str(result["stdout"])  # a real Markdown report was written
    assert result["loaded"] == []
    weekly = _run([*args[:3], "weekly", REPO, "--week", "2026-W10", "--no-llm"], env)
    assert weekly["code"] in (0, None) and weekly["loaded"] == []


@pytest.mark.slow
def test_the_probe_sees_a_module_that_is_loaded(env: dict[str, str]) -> None:
    """The check can fail: `report --format pdf` does load the PDF engine."""
    _run(["import", str(DEMO / "sample.jsonl")], env)
    out = Path(env["TIDINGS_DB"].removeprefix("sqlite:///")).parent / "r.pdf"
    args = ["--config", str(DEMO / "tidings.toml"), "report", "daily", REPO]
    result = _run(
        [*args, "--date", "2026-03-10", "--no-llm", "--format", "pdf", "--out", str(out)], env
    )
    assert result["code"] in (0, None)
    assert "weasyprint" in result["loaded"]  # type: ignore[operator]
