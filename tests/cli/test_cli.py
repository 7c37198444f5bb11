"""The command line: output shapes, and every expected failure as one line with no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.factories import Records, seed
from tests.test_snapshot import _body
from tidings.cli import main
from tidings.errors import register_secret
from tidings.sources.snapshot import export_snapshot
from tidings.store import Store

INSIDE = "2026-02-24T12:00:00Z"
SYNCED = "2026-03-10T00:00:00Z"
CONFIG = """
[[repos]]
name = "acme/widgets"
timezone = "Asia/Shanghai"
cutoff = "11:31"
bots = ["release-helper"]
"""


@dataclass
class Result:
    code: int
    out: str
    err: str


Runner = Callable[..., Result]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Runner:
    def invoke(*args: str) -> Result:
        with pytest.raises(SystemExit) as done:
            main(list(args))
        captured = capsys.readouterr()
        code = done.value.code
        return Result(code if isinstance(code, int) else 1, captured.out, captured.err)

    return invoke


@pytest.fixture
def db(tmp_path: Path, rec: Records) -> str:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    store = Store.open(url)
    seed(
        store,
        [
            rec.repo(),
            rec.issue(1, INSIDE, labels=["bug"]),
            rec.pr(2, "2026-02-20T00:00:00Z", merged_at=INSIDE, labels=["rocm"]),
            rec.pr(3, INSIDE, author="release-helper"),
            rec.file(2, "vllm/platforms/rocm.py", 7, 3),
            rec.comment(1, INSIDE, author="bob"),
            rec.review(2, INSIDE, author="carol"),
            # Synced after the windows the tests report on, as a real sync leaves the store:
            # without it they would be refused as not covered (facts/coverage.py).
            rec.sync_state("synced", updated=SYNCED),
        ],
    )
    store.close()
    (tmp_path / "tidings.toml").write_text(CONFIG, encoding="utf-8")
    return url


def _export_all(url: str, path: Path) -> list[str]:
    store = Store.open(url)
    try:
        export_snapshot(store, None, path)
    finally:
        store.close()
    return _body(path)


def test_help_and_version(run: Runner) -> None:
    r = run("--help")
    assert r.code == 0
    for command in ("sync", "export", "import", "stats", "repos"):
        assert command in r.out
    r = run("--version")
    assert r.code == 0 and r.out.startswith("tidings ")


def test_console_script_help() -> None:
    exe = Path(sys.executable).with_name("tidings")
    done = subprocess.run(
        [str(exe), "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "stats" in done.stdout and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [["--help"], ["stats", "--help"], ["demo", "--help"]])
def test_help_shows_no_value_after_a_flag(command: list[str]) -> None:
    """`--json` and `--help` take no value, so the help shows none (Typer 0.29 printed
    "--help <bool>"), while options that take one name it."""
    exe = Path(sys.executable).with_name("tidings")
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
    done = subprocess.run(
        [str(exe), *command], capture_output=True, text=True, timeout=60, check=False, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "--help" in done.stdout and "<bool>" not in done.stdout
    if command[0] == "stats":
        assert "--json" in done.stdout and "<str>" in done.stdout


def test_stats_json(run: Runner, db: str) -> None:
    r = run("--db", db, "stats", "acme/widgets", "--date", "2026-02-24", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["schema_version"] == 1
    assert data["repository"] == "acme/widgets"
    assert data["window"]["display"] == "2026-02-24 11:31 (UTC+8) ~ 2026-02-25 11:31 (UTC+8)"
    assert data["counts"] == {
        "new_issues": 1,
        "closed_issues": 0,
        "new_prs": 1,
        "merged_prs": 1,
        "closed_unmerged_prs": 0,
    }
    assert data["items"]["merged_prs"] == [2]
    assert data["merged_by_label"] == [{"label": "rocm", "count": 1}]
    assert data["top_directories"][0]["path"] == "vllm/platforms"
    # release-helper is a bot by configuration.
    assert {c["login"] for c in data["contributors"]} == {"alice", "bob", "carol"}
    assert data["reviewers"] == [
        {"login": "carol", "total": 1, "states": {"APPROVED": 1}, "prs": [2]}
    ]

    deep = run(
        "--db", db, "stats", "acme/widgets", "--date", "2026-02-24", "--depth", "1", "--json"
    )
    assert json.loads(deep.out)["top_directories"][0]["path"] == "vllm"

    week = run("--db", db, "stats", "acme/widgets", "--week", "2026-W09", "--json")
    assert week.code == 0 and json.loads(week.out)["window"]["label"] == "2026-W09"


def test_stats_tables(run: Runner, db: str) -> None:
    r = run("--db", db, "stats", "acme/widgets", "--date", "2026-02-24")
    assert r.code == 0, r.err
    assert "merged PRs" in r.out and "#2" in r.out and "carol" in r.out


def test_repos(run: Runner, db: str) -> None:
    r = run("--db", db, "repos", "--json")
    assert r.code == 0
    [row] = json.loads(r.out)
    assert (row["full_name"], row["issues"], row["prs"], row["comments"]) == (
        "acme/widgets",
        1,
        2,
        1,
    )
    assert "acme/widgets" in run("--db", db, "repos").out


def test_export_import_round_trip(run: Runner, db: str, tmp_path: Path) -> None:
    snap = tmp_path / "snap.jsonl"
    assert run("--db", db, "export", "acme/widgets", str(snap)).code == 0
    other = f"sqlite:///{tmp_path / 'other.db'}"
    r = run("--db", other, "import", str(snap))
    assert r.code == 0 and "acme/widgets" in r.err
    assert "1 repository, " in r.err and " items" in r.err  # counts agree with their nouns
    again = tmp_path / "again.jsonl"
    assert run("--db", other, "export", "acme/widgets", str(again)).code == 0
    assert _body(again) == _body(snap)


def test_env_db(run: Runner, db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TIDINGS_DB", db)
    assert json.loads(run("repos", "--json").out)[0]["full_name"] == "acme/widgets"


BAD_CONFIGS = {
    "unknown key": ('[[repos]]\nname = "acme/widgets"\ncolour = "red"\n', "unknown key"),
    "bad timezone": ('[[repos]]\nname = "acme/widgets"\ntimezone = "Mars/Olympus"\n', "Mars"),
    "bad glob": ('[[repos]]\nname = "acme/widgets"\ncore_paths = ["/abs/**"]\n', "glob"),
    "bad TOML": ("[[repos]\n", "not valid TOML"),
    "bad retry wait": (
        '[queue]\nretry_wait = "5 minutes"\n',
        "queue.retry_wait: must be a duration",
    ),
    "retry cap below the wait": (
        '[queue]\nretry_wait = "2h"\nretry_max_wait = "1h"\n',
        "retry_max_wait must be at least retry_wait",
    ),
    "too many retries": ("[queue]\nretries = 50\n", "queue.retries"),
}


def _assert_one_line_failure(r: Result, *needles: str) -> None:
    assert r.code != 0
    assert "Traceback" not in r.out + r.err
    lines = r.err.strip().splitlines()
    assert len(lines) == 1, r.err
    assert lines[0].startswith("error: ")
    assert " — " in lines[0]  # names a fix
    for needle in needles:
        assert needle in lines[0]


@pytest.mark.parametrize("case", list(BAD_CONFIGS))
def test_malformed_config(run: Runner, db: str, tmp_path: Path, case: str) -> None:
    text, needle = BAD_CONFIGS[case]
    before = _export_all(db, tmp_path / "before.jsonl")
    (tmp_path / "tidings.toml").write_text(text, encoding="utf-8")
    r = run("--db", db, "stats", "acme/widgets", "--date", "2026-02-24")
    _assert_one_line_failure(r, needle, "tidings.toml")
    assert r.code == 2
    assert _export_all(db, tmp_path / "after.jsonl") == before


def _failures(tmp_path: Path, db: str) -> dict[str, tuple[list[str], tuple[str, ...]]]:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "header", "format": "tidings-snapshot", "version": 1,\n')
    missing_header = tmp_path / "nohead.jsonl"
    missing_header.write_text('{"type": "repository", "full_name": "acme/widgets"}\n')
    return {
        "malformed snapshot": (["import", str(bad)], ("bad.jsonl", "line 1", "not valid JSON")),
        "snapshot without header": (["import", str(missing_header)], ("line 1", "header")),
        "missing snapshot": (["import", str(tmp_path / "nope.jsonl")], ("not found",)),
        "missing token": (["sync", "acme/widgets"], ("GITHUB_TOKEN", "gh auth login")),
        "unknown repo for stats": (
            ["stats", "nobody/here", "--date", "2026-02-24"],
            ("nobody/here", "not in the store", "tidings sync"),
        ),
        "unknown repo for export": (
            ["export", "nobody/here", str(tmp_path / "x.jsonl")],
            ("nobody/here", "not in the store"),
        ),
        "bad date": (["stats", "acme/widgets", "--date", "24.02.2026"], ("YYYY-MM-DD",)),
        "bad week": (["stats", "acme/widgets", "--week", "2025-W53"], ("not an ISO week",)),
        "no window": (["stats", "acme/widgets"], ("--date", "--week")),
        "bad repo name": (["stats", "widgets", "--date", "2026-02-24"], ("OWNER/REPO",)),
        "missing argument": (["export"], ("Missing argument", "--help")),
        "unknown option": (["repos", "--colour"], ("--colour", "--help")),
        "unknown repo for report": (
            ["report", "daily", "nobody/here", "--date", "2026-02-24"],
            ("nobody/here", "not in the store"),
        ),
        "bad report language": (
            ["report", "daily", "acme/widgets", "--date", "2026-02-24", "--lang", "fr"],
            ("--lang", "zh, en"),
        ),
        "bad report format": (
            ["report", "daily", "acme/widgets", "--date", "2026-02-24", "--format", "docx"],
            ("--format", "md, json, pdf"),
        ),
        "pdf report without --out": (
            ["report", "daily", "acme/widgets", "--date", "2026-02-24", "--format", "pdf"],
            ("--format pdf", "--out"),
        ),
        "unreachable database": (
            ["--db", "postgresql+psycopg://u:hunter2pass@127.0.0.1:9/x", "repos"],
            ("cannot open database", "***"),
        ),
    }


CASES = [
    "malformed snapshot",
    "snapshot without header",
    "missing snapshot",
    "missing token",
    "unknown repo for stats",
    "unknown repo for export",
    "bad date",
    "bad week",
    "no window",
    "bad repo name",
    "missing argument",
    "unknown option",
    "unknown repo for report",
    "bad report language",
    "bad report format",
    "pdf report without --out",
    "unreachable database",
]


@pytest.mark.parametrize("case", CASES)
def test_expected_failures_are_one_line(
    run: Runner,
    db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
) -> None:
    if case == "missing token":
        pytest.importorskip("tidings.sources.github.auth", reason="the GitHub source is absent")
        # No token in the environment and no `gh` on PATH to ask.
        monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    args, needles = _failures(tmp_path, db)[case]
    before = _export_all(db, tmp_path / "before.jsonl")
    full = args if args[0].startswith("--") else ["--db", db, *args]
    r = run(*full)
    _assert_one_line_failure(r, *needles)
    assert "hunter2pass" not in r.err
    assert _export_all(db, tmp_path / "after.jsonl") == before
    assert not (tmp_path / "x.jsonl").exists()


def test_output_is_redacted(run: Runner, db: str, tmp_path: Path) -> None:
    secret = "ghp_secretvalue123"
    register_secret(secret)
    r = run("--db", db, "import", str(tmp_path / f"{secret}.jsonl"))
    assert r.code != 0
    assert secret not in r.err and "***" in r.err


def test_keyboard_interrupt(run: Runner, db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(_conn: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("tidings.facts.load.inventory.repository_summaries", interrupted)
    r = run("--db", db, "repos")
    assert r.code == 130
    assert r.err.strip() == "error: interrupted"
    assert "Traceback" not in r.err


def test_subprocess_failure_has_no_traceback(db: str, tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("tidings")
    env = {k: v for k, v in os.environ.items() if k not in ("TIDINGS_DB", "GITHUB_TOKEN")}
    done = subprocess.run(
        [str(exe), "--db", db, "stats", "nobody/here", "--date", "2026-02-24"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("error: repository nobody/here is not in the store")
    assert "Traceback" not in done.stderr


def test_sync_then_stats_against_fake_github(
    run: Runner, tmp_path: Path, rec: Records, monkeypatch: pytest.MonkeyPatch
) -> None:
    from testkit.servers import github as fake

    records = [
        rec.repo(),
        rec.issue(1, INSIDE, labels=["bug"]),
        rec.pr(2, "2026-02-20T00:00:00Z", merged_at=INSIDE, labels=["rocm"]),
        rec.file(2, "vllm/platforms/rocm.py", 7, 3),
        rec.comment(1, INSIDE, author="bob"),
    ]
    token = "ghp_clitesttoken0123456789"
    monkeypatch.setenv("GITHUB_TOKEN", token)
    db = f"sqlite:///{tmp_path / 'synced.db'}"
    with fake.FakeGitHub(records, token=token) as server:
        (tmp_path / "tidings.toml").write_text(
            CONFIG + f'\n[github]\napi_url = "{server.api_url}"\n', encoding="utf-8"
        )
        r = run("--db", db, "sync", "acme/widgets", "--json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["repository"] == "acme/widgets"
    assert token not in r.out + r.err
    r = run("--db", db, "stats", "acme/widgets", "--date", "2026-02-24", "--json")
    data = json.loads(r.out)
    assert data["items"]["new_issues"] == [1] and data["items"]["merged_prs"] == [2]
    assert data["top_paths"][0]["path"] == "vllm/platforms/rocm.py"


def test_report_daily_markdown_json_and_out(run: Runner, db: str, tmp_path: Path) -> None:
    r = run("--db", db, "report", "daily", "acme/widgets", "--date", "2026-02-24", "--lang", "en")
    assert r.code == 0, r.err
    assert r.out.startswith("# widgets development report - 2026-02-24\n")
    # The config's 11:31 Shanghai cut-off shapes the window.
    assert "2026-02-24 11:31 (UTC+8) ~ 2026-02-25 11:31 (UTC+8)" in r.out

    r = run(
        "--db", db, "report", "daily", "acme/widgets", "--date", "2026-02-24", "--format", "json"
    )
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["lang"] == "en" and data["kind"] == "daily"  # the config sets no language
    assert data["stats"]["merged_prs"] == 1
    assert [ref["number"] for ref in data["appendix"]["merged_prs"]] == [2]

    target = tmp_path / "out" / "day.md"
    r = run(
        "--db",
        db,
        "report",
        "daily",
        "acme/widgets",
        "--date",
        "2026-02-24",
        "--lang",
        "zh",
        "--out",
        str(target),
    )
    assert r.code == 0, r.err
    assert target.read_text(encoding="utf-8").startswith("# widgets 开发动态报告 - 2026-02-24")
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".tmp")]


# With PDFs (28 of them, and the site) the demo takes a minute or more on two cores: the fast
# loop writes the reports alone; PDFs also have their own quick tests (test_site_pdfs.py).
@pytest.mark.parametrize(
    "pdf", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["no-pdf", "pdf"]
)
def test_demo_writes_both_languages_offline(run: Runner, tmp_path: Path, pdf: bool) -> None:
    out = tmp_path / "demo"
    args = (
        ("demo", "--out", str(out)) if pdf else ("demo", "--out", str(out), "--no-pdf", "--no-site")
    )
    r = run(*args)
    assert r.code == 0, r.err
    files = sorted(p.name for p in (out / "daily").iterdir())
    # Markdown and JSON, and with PDFs each report's PDF and its key
    assert len(files) == 12 * 2 * (4 if pdf else 2)
    assert "2026-03-08.zh.md" in files and "2026-03-13.en.json" in files
    if pdf:
        assert (out / "daily" / "2026-03-13.en.pdf").read_bytes().startswith(b"%PDF")
    else:
        assert not (out / "site").exists()
    assert str(out / "daily") in r.out  # it says where the reports are, on stdout
    quiet = (out / "daily" / "2026-03-08.en.md").read_text(encoding="utf-8")
    assert "A quiet window" in quiet
    # Running it again on the same data writes nothing: no report, PDF or site file.
    written = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file() and p.suffix != ".db"}
    again = run(*args)
    assert again.code == 0 and "wrote 0 files" in again.out and "already up to date" in again.out
    if pdf:
        assert "0 files written" in again.out  # the site's
    touched = [p for p, t in written.items() if p.stat().st_mtime_ns != t]
    assert touched == []


@pytest.mark.parametrize("case", ["unknown repo", "bad token", "unreachable host"])
def test_sync_failures_are_one_line_and_leave_the_store_alone(
    run: Runner,
    db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
) -> None:
    """The store already holds acme/widgets; a failed sync must not change a byte of it."""
    from testkit.servers.github import FakeGitHub

    token = "ghp_clifailuretoken0123456"
    served = [
        Records().repo("acme/other"),
        Records().issue(9, INSIDE),
    ]
    before = _export_all(db, tmp_path / "before.jsonl")
    with FakeGitHub(served, token=token) as server:
        api_url = server.api_url
        if case == "unreachable host":
            api_url = "http://127.0.0.1:9"  # nothing listens on the discard port
        (tmp_path / "tidings.toml").write_text(
            CONFIG + f'\n[github]\napi_url = "{api_url}"\nmax_retries = 1\ntimeout = 2\n',
            encoding="utf-8",
        )
        monkeypatch.setenv(
            "GITHUB_TOKEN", "ghp_wrongtoken0123456789" if case == "bad token" else token
        )
        target = "acme/widgets" if case != "bad token" else "acme/other"
        r = run("--db", db, "sync", target)
    needles = {
        "unknown repo": ("acme/widgets", "not found"),
        "bad token": ("401", "GITHUB_TOKEN"),
        "unreachable host": ("cannot reach", "127.0.0.1"),
    }[case]
    _assert_one_line_failure(r, *needles)
    assert token not in r.err and "ghp_wrongtoken" not in r.err
    assert _export_all(db, tmp_path / "after.jsonl") == before
