"""Bad input gets one line (issue 9, section 5): each case runs the real command line and
checks the exit code (2 usage, 1 runtime), that stderr is exactly one `error: cause — fix`
line with no traceback, and that nothing was written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa

import tidings
from tests.cli.test_cli import Result, Runner, _export_all, run  # noqa: F401  (run: the fixture)
from tests.factories import Records, seed
from tests.sources.test_git_source import Clone
from tidings.facts.coverage import Coverage, uncovered
from tidings.facts.load.coverage import coverage
from tidings.facts.windows import daily_window, weekly_window
from tidings.store import Store, schema

REPO = "acme/widgets"
INSIDE = "2026-02-24T12:00:00Z"
SYNCED = "2026-03-10T00:00:00Z"  # the last sync; the windows after it are not covered
SHANGHAI = f'[[repos]]\nname = "{REPO}"\ntimezone = "Asia/Shanghai"\ncutoff = "11:31"\n'


@pytest.fixture(autouse=True)
def _private_user_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # A command run without --db opens the default store in the user data folder: keep it
    # inside the test's folder (platformdirs reads XDG_DATA_HOME on Linux).
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user-data"))


def one_line_error(r: Result, code: int, *needles: str) -> str:
    """The single stderr line of a failed command, after checking its shape."""
    assert r.code == code, (r.code, r.err)
    assert "Traceback" not in r.out + r.err
    lines = r.err.splitlines()
    assert len(lines) == 1, r.err
    line = lines[0]
    assert line.startswith("error: ") and " — " in line, line
    for needle in needles:
        assert needle in line, (needle, line)
    return line


def _seed(url: str, rec: Records, *, synced: str | None = SYNCED) -> None:
    store = Store.open(url)
    records = [
        rec.repo(REPO),
        rec.issue(1, INSIDE, labels=["bug"]),
        rec.pr(2, "2026-02-20T00:00:00Z", merged_at=INSIDE),
        rec.comment(1, INSIDE, author="bob"),
    ]
    if synced is not None:
        records.append(rec.sync_state("synced", updated=synced))
    try:
        seed(store, records)
    finally:
        store.close()


@pytest.fixture
def db(tmp_path: Path, rec: Records) -> str:
    """A store synced on 2026-03-10 (00:00 UTC), and ./tidings.toml in Asia/Shanghai."""
    url = f"sqlite:///{tmp_path / 'store.db'}"
    _seed(url, rec)
    (tmp_path / "tidings.toml").write_text(SHANGHAI, encoding="utf-8")
    return url


# -- the config file ------------------------------------------------------------------------

DEEP = 2000  # levels: far past the recursion limit tomllib runs into

BAD_CONFIGS: dict[str, tuple[str, tuple[str, ...]]] = {
    "nested arrays": ("a = " + "[" * DEEP + "]" * DEEP + "\n", ("nested too deeply",)),
    "nested tables": ("a = " + "{b = " * DEEP + "1" + "}" * DEEP + "\n", ("nested too deeply",)),
    "nested under a known key": (
        f'[[repos]]\nname = "{REPO}"\ntopics = ' + "[" * DEEP + "]" * DEEP + "\n",
        ("nested too deeply",),
    ),
    "duplicate repos": (
        f'[[repos]]\nname = "{REPO}"\n\n[[repos]]\nname = "{REPO}"\ntimezone = "UTC"\n',
        ("acme/widgets is listed twice", "repos[0] and repos[1]", "merge"),
    ),
    "duplicate repos differing in case": (
        f'[[repos]]\nname = "{REPO}"\n\n[[repos]]\nname = "ACME/Widgets"\n',
        ("ACME/Widgets is listed twice", "repos[0] and repos[1]"),
    ),
    "wrong type in the first entry": ("[[repos]]\nname = 5\n", ("repos[0].name", "string")),
    "wrong type in the second entry": (
        f'[[repos]]\nname = "{REPO}"\n\n[[repos]]\nname = 7\n',
        ("repos[1].name", "string"),
    ),
    "wrong type beside a good name": (
        f'[[repos]]\nname = "{REPO}"\ncutoff = 9\n',
        ("repos[acme/widgets].cutoff", "string"),
    ),
    "negative timeout": ("[github]\ntimeout = -5\n", ("github.timeout", "greater than 0")),
    "zero timeout": ("[github]\ntimeout = 0\n", ("github.timeout", "greater than 0")),
    "nan timeout": ("[github]\ntimeout = nan\n", ("github.timeout", "finite")),
    "infinite timeout": ("[github]\ntimeout = inf\n", ("github.timeout", "finite")),
    "negative infinite timeout": ("[github]\ntimeout = -inf\n", ("github.timeout", "finite")),
    "zero model timeout": ("[llm]\ntimeout = 0\n", ("llm.timeout", "greater than 0")),
    "nan weight": (
        f'[[repos]]\nname = "{REPO}"\n[repos.importance]\nsize = nan\n',
        ("repos[acme/widgets].importance.size", "finite"),
    ),
}


@pytest.mark.parametrize("case", list(BAD_CONFIGS))
def test_bad_config_is_one_line_and_touches_nothing(
    run: Runner,  # noqa: F811
    tmp_path: Path,
    case: str,
) -> None:
    text, needles = BAD_CONFIGS[case]
    config = tmp_path / "bad.toml"
    config.write_text(text, encoding="utf-8")
    db_path = tmp_path / "never.db"
    r = run(
        "--config", str(config), "--db", f"sqlite:///{db_path}",
        "stats", REPO, "--date", "2026-02-24",
    )  # fmt: skip
    line = one_line_error(r, 2, "bad.toml", *needles)
    assert "repos[5]" not in line and "repos[7]" not in line  # the value is not an index
    assert not db_path.exists()  # the config is read before the store is opened


def test_config_with_a_byte_order_mark_is_accepted(
    run: Runner,  # noqa: F811
    db: str,
    tmp_path: Path,
) -> None:
    (tmp_path / "tidings.toml").write_bytes(b"\xef\xbb\xbf" + SHANGHAI.encode())
    r = run("--db", db, "stats", REPO, "--date", "2026-02-24", "--json")
    assert r.code == 0, r.err
    # The repository's settings were read: its timezone and cut-off shape the window.
    assert json.loads(r.out)["window"]["display"] == (
        "2026-02-24 11:31 (UTC+8) ~ 2026-02-25 11:31 (UTC+8)"
    )


# -- dates and weeks ------------------------------------------------------------------------

OUT_OF_RANGE = {
    "stats on the last day of year 9999": (["stats", REPO, "--date", "9999-12-31"], "day"),
    "stats on a week of year 9999": (["stats", REPO, "--week", "9999-W52"], "week"),
    "a daily report on 0001-01-01 east of UTC": (
        ["report", "daily", REPO, "--date", "0001-01-01"],
        "day",
    ),
    "a weekly report on 0001-W01 east of UTC": (
        ["report", "weekly", REPO, "--week", "0001-W01"],
        "week",
    ),
    "a stats day before 1970": (["stats", REPO, "--date", "1969-12-31"], "day"),
    "a sync since year 1": (["sync", REPO, "--since", "0001-01-01"], "day"),
}


@pytest.mark.parametrize("case", list(OUT_OF_RANGE))
def test_out_of_range_dates_name_the_valid_range(
    run: Runner,  # noqa: F811
    db: str,
    tmp_path: Path,
    case: str,
) -> None:
    args, kind = OUT_OF_RANGE[case]
    before = _export_all(db, tmp_path / "before.jsonl")
    r = run("--db", db, *args)
    wanted = "1970-01-01 to 9998-12-31" if kind == "day" else "1970-W01 to 9998-W53"
    one_line_error(r, 2, "out of range", wanted)
    assert _export_all(db, tmp_path / "after.jsonl") == before


def test_the_ends_of_the_range_are_windows(run: Runner, db: str) -> None:  # noqa: F811
    # The first day is an ordinary (empty, covered) window, east of UTC with 7 days of
    # history before it; the last is merely in the future: not a range error.
    r = run("--db", db, "report", "daily", REPO, "--date", "1970-01-01", "--format", "json")
    assert r.code == 0, r.err
    assert json.loads(r.out)["date"] == "1970-01-01"
    r = run("--db", db, "stats", REPO, "--week", "1970-W01", "--json")
    assert r.code == 0, r.err
    one_line_error(run("--db", db, "stats", REPO, "--date", "9998-12-31"), 1, "not ended")
    one_line_error(run("--db", db, "stats", REPO, "--week", "9998-W53"), 1, "not ended")


# -- the GitHub token -----------------------------------------------------------------------

BAD_TOKENS = {
    "non-ASCII": ("ghp_Zürich0123456789", "a non-ASCII character"),
    "a line break inside": ("ghp_first0123\nghp_second456", "a line break"),
    "a space inside": ("ghp_first0123 second456", "a space"),
    "a control character": ("ghp_abc\x01def0123456", "a control character"),
}


@pytest.mark.parametrize("case", list(BAD_TOKENS))
def test_unusable_token_is_one_line_and_never_echoed(
    run: Runner,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
) -> None:
    token, problem = BAD_TOKENS[case]
    monkeypatch.setenv("GITHUB_TOKEN", token)
    db_path = tmp_path / "never.db"
    r = run("--db", f"sqlite:///{db_path}", "sync", REPO)
    one_line_error(r, 1, "GITHUB_TOKEN", problem)
    for piece in ("ghp_", "Zürich", "first0123", "second456", "def0123456"):
        assert piece not in r.out + r.err
    assert not db_path.exists()  # checked before the store is opened: no request, no write


# -- windows the store does not hold --------------------------------------------------------


def _future_day() -> str:
    return (datetime.now(UTC).date() + timedelta(days=2)).isoformat()


UNCOVERED = {
    "a day that has not ended": (
        ["report", "daily", REPO, "--date", "<future>"],
        ("has not ended yet",),
    ),
    "the issue's 2030-01-01": (
        ["report", "daily", REPO, "--date", "2030-01-01"],
        ("2030-01-01",),
    ),
    "a day past the last sync": (
        ["report", "daily", REPO, "--date", "2026-03-20"],
        ("no data for 2026-03-20", "2026-03-10 08:00 (UTC+8)", "tidings sync acme/widgets"),
    ),
    "a day the last sync cut through": (
        ["report", "daily", REPO, "--date", "2026-03-09"],
        ("stops inside 2026-03-09", "2026-03-10 11:31 (UTC+8)"),
    ),
    "a week the last sync cut through": (
        ["report", "weekly", REPO, "--week", "2026-W11"],
        ("stops inside 2026-W11",),
    ),
    "stats for a day past the last sync": (
        ["stats", REPO, "--date", "2026-03-20", "--json"],
        ("no data for 2026-03-20",),
    ),
    "stats for a week that has not ended": (
        ["stats", REPO, "--week", "<this week>"],
        ("has not ended yet",),
    ),
}


def _fill(args: list[str]) -> list[str]:
    year, week, _ = datetime.now(UTC).date().isocalendar()
    return [
        _future_day() if a == "<future>" else f"{year}-W{week:02d}" if a == "<this week>" else a
        for a in args
    ]


@pytest.mark.parametrize("case", list(UNCOVERED))
def test_uncovered_window_is_refused(
    run: Runner,  # noqa: F811
    db: str,
    tmp_path: Path,
    case: str,
) -> None:
    args, needles = UNCOVERED[case]
    out = tmp_path / "report.md"
    full = [*_fill(args), *(["--out", str(out)] if args[0] == "report" else [])]
    r = run("--db", db, *full)
    one_line_error(r, 1, "--allow-partial", *needles)
    assert r.out == ""
    assert not out.exists()


def test_allow_partial_reports_with_a_warning(run: Runner, db: str) -> None:  # noqa: F811
    r = run("--db", db, "report", "daily", REPO, "--date", "2026-03-20", "--allow-partial")
    assert r.code == 0, r.err
    assert r.out.startswith("# ")
    [warning] = r.err.splitlines()
    assert warning.startswith("warning: the store has no data for 2026-03-20")
    for args in (
        ["report", "weekly", REPO, "--week", "2026-W11", "--allow-partial"],
        ["stats", REPO, "--date", _future_day(), "--allow-partial", "--json"],
    ):
        r = run("--db", db, *args)
        assert r.code == 0, r.err
        assert r.err.startswith("warning: ") and r.err.count("\n") == 1


def test_covered_windows_need_no_flag(run: Runner, db: str) -> None:  # noqa: F811
    # 2026-03-08 (Shanghai, 11:31 cut-off) closes 2026-03-09 03:31 UTC, before the sync.
    for args in (
        ["report", "daily", REPO, "--date", "2026-03-08"],
        ["report", "weekly", REPO, "--week", "2026-W09"],
        ["stats", REPO, "--date", "2026-02-24"],
    ):
        r = run("--db", db, *args)
        assert r.code == 0 and r.err == "", r.err


def test_without_sync_state_the_newest_update_bounds_the_data(
    run: Runner,  # noqa: F811
    tmp_path: Path,
    rec: Records,
) -> None:
    """An imported snapshot with no sync state (the demo's sample) reaches its newest update."""
    url = f"sqlite:///{tmp_path / 'snap.db'}"
    _seed(url, rec, synced=None)
    # In UTC, 2026-02-23 closes 02-24 00:00, before the newest update (02-24 12:00) ...
    assert run("--db", url, "report", "daily", REPO, "--date", "2026-02-23").code == 0
    # ... while 2026-02-24 closes after it: the store cannot vouch for its last twelve hours.
    r = run("--db", url, "report", "daily", REPO, "--date", "2026-02-24")
    one_line_error(r, 1, "stops inside 2026-02-24", "2026-02-24 12:00 (UTC)")


def _cause(problem: Exception | None) -> str:
    assert problem is not None
    return str(problem)


def test_uncovered_rules() -> None:
    utc = ZoneInfo("UTC")
    day = daily_window(date(2026, 3, 1), utc)  # [03-01, 03-02)
    now = datetime(2026, 3, 5, tzinfo=UTC)
    end = datetime(2026, 3, 2, tzinfo=UTC)
    early = end - timedelta(seconds=1)
    # Covered when either time reaches the window's end; the later of the two counts.
    assert uncovered(day, Coverage(end, None), REPO, now) is None
    assert uncovered(day, Coverage(None, end), REPO, now) is None
    assert uncovered(day, Coverage(early, end), REPO, now) is None
    assert "stops inside 2026-03-01" in _cause(uncovered(day, Coverage(early, None), REPO, now))
    assert "no data for 2026-03-01" in _cause(uncovered(day, Coverage(day.start, None), REPO, now))
    assert "holds no data for acme/widgets" in _cause(
        uncovered(day, Coverage(None, None), REPO, now)
    )
    # Not ended comes first, however fresh the data.
    assert "has not ended" in _cause(uncovered(day, Coverage(now, now), REPO, early))
    week = weekly_window(2026, 10, utc)  # [03-02, 03-09)
    later = datetime(2026, 4, 1, tzinfo=UTC)
    assert "stops inside 2026-W10" in _cause(uncovered(week, Coverage(now, None), REPO, later))
    assert uncovered(week, Coverage(week.end, None), REPO, week.end) is None


def test_coverage_reads_both_times_on_each_backend(store: Store, rec: Records) -> None:
    seed(
        store,
        [
            rec.repo(REPO),
            rec.issue(1, INSIDE),
            rec.pr(2, "2026-02-20T00:00:00Z", updated_at="2026-02-25T06:00:00Z"),
            rec.sync_state("issues", cursor="x", updated="2026-03-01T00:00:00Z"),
            rec.sync_state("synced", updated=SYNCED),
        ],
    )
    with store.engine.connect() as conn:
        got = coverage(conn, store.require_repo(conn, REPO))
    assert got.last_synced == datetime(2026, 3, 10, tzinfo=UTC)
    assert got.latest_update == datetime(2026, 2, 25, 6, tzinfo=UTC)
    assert got.reaches == got.last_synced


def test_a_sync_with_nothing_changed_still_moves_the_coverage(sqlite_store: Store) -> None:
    from testkit.generate import REPO as FAKE_REPO
    from testkit.generate import generate_week
    from testkit.servers import github as fake
    from tests.sources.github.test_github_sync import TOKEN, sync

    week = generate_week(0, prs=20, issues=10, comments_and_reviews=80, pr_files=40)
    with fake.FakeGitHub(week, token=TOKEN) as gh:
        sync(sqlite_store, gh)
        old = datetime(2020, 1, 1, tzinfo=UTC)
        with sqlite_store.begin() as conn:
            conn.execute(schema.sync_state.update().values(updated_at=old))
        again = sync(sqlite_store, gh)
        assert again.requests == again.not_modified  # every listing answered 304
    with sqlite_store.engine.connect() as conn:
        got = coverage(conn, sqlite_store.require_repo(conn, FAKE_REPO))
    assert got.last_synced is not None and got.last_synced > old


# -- sync --git of a history with no PR merges ----------------------------------------------


def test_git_history_without_pr_merges_is_an_error(
    run: Runner,  # noqa: F811
    db: str,
    tmp_path: Path,
) -> None:
    clone = Clone(tmp_path / "clone")
    for n in range(3):
        clone.write(f"f{n}.py", f"x = {n}\n")
        clone.commit(f"Direct push {n}")  # rebase-merged or pushed: no (#N) anywhere
    before = _export_all(db, tmp_path / "before.jsonl")
    r = run("--db", db, "sync", "acme/rebased", "--git", str(clone.path))
    one_line_error(r, 1, "no merged PRs", "3 commits read", "(#N)", "tidings sync OWNER/REPO")
    assert _export_all(db, tmp_path / "after.jsonl") == before
    assert [row["full_name"] for row in json.loads(run("--db", db, "repos", "--json").out)] == [
        REPO
    ]


def test_git_sync_of_new_direct_commits_only_is_fine(
    run: Runner,  # noqa: F811
    tmp_path: Path,
) -> None:
    clone = Clone(tmp_path / "clone")
    clone.write("a.py", "a = 1\n")
    clone.commit("Add a (#1)")
    url = f"sqlite:///{tmp_path / 'git.db'}"
    assert run("--db", url, "sync", "acme/engine", "--git", str(clone.path)).code == 0
    clone.write("b.py", "b = 1\n")
    clone.commit("Bump the version")  # a later direct push: normal, not an error
    r = run("--db", url, "sync", "acme/engine", "--git", str(clone.path), "--json")
    assert r.code == 0, r.err
    assert (json.loads(r.out)["commits"], json.loads(r.out)["prs"]) == (1, 0)


# -- the store's folder ---------------------------------------------------------------------


def test_missing_store_folder_is_not_created(run: Runner, tmp_path: Path) -> None:  # noqa: F811
    missing = tmp_path / "no" / "such" / "dir"
    r = run("--db", f"sqlite:///{missing / 'x.db'}", "repos")
    one_line_error(r, 1, f"folder {missing}", "does not exist", "--db")
    assert not (tmp_path / "no").exists()


def test_default_store_folder_is_created(run: Runner, tmp_path: Path) -> None:  # noqa: F811
    if sys.platform != "linux":
        pytest.skip("XDG_DATA_HOME places the user data folder only on Linux")
    assert not (tmp_path / "user-data").exists()
    r = run("repos", "--json")
    assert r.code == 0, r.err
    assert (tmp_path / "user-data" / "tidings" / "tidings.db").is_file()


# -- exit codes: 2 for usage, 1 for runtime -------------------------------------------------


def _invocations(tmp_path: Path, db: str) -> dict[str, tuple[list[str], int, tuple[str, ...]]]:
    bad_snapshot = tmp_path / "bad.jsonl"
    bad_snapshot.write_text('{"type": "header"\n', encoding="utf-8")
    no_repos = tmp_path / "no-repos.toml"
    no_repos.write_text('[github]\ntoken_env = "GITHUB_TOKEN"\n', encoding="utf-8")
    return {
        # usage: the command line or the config file is wrong as written
        "unknown option": (["repos", "--colour"], 2, ("--colour", "--help")),
        "missing argument": (["export"], 2, ("Missing argument",)),
        "option below its minimum": (
            ["stats", REPO, "--date", "2026-02-24", "--depth", "0"],
            2,
            ("--depth",),
        ),
        "bad repository name": (["stats", "widgets", "--date", "2026-02-24"], 2, ("OWNER/REPO",)),
        "malformed date": (["stats", REPO, "--date", "24.02.2026"], 2, ("YYYY-MM-DD",)),
        "impossible date": (["stats", REPO, "--date", "2026-02-30"], 2, ("does not exist",)),
        "malformed week": (["report", "weekly", REPO, "--week", "2026-9"], 2, ("YYYY-Www",)),
        "no such ISO week": (["stats", REPO, "--week", "2025-W53"], 2, ("not an ISO week",)),
        "both --date and --week": (
            ["stats", REPO, "--date", "2026-02-24", "--week", "2026-W09"],
            2,
            ("exactly one",),
        ),
        "bad --lang": (
            ["report", "daily", REPO, "--date", "2026-02-24", "--lang", "fr"],
            2,
            ("--lang",),
        ),
        "bad --format": (
            ["report", "daily", REPO, "--date", "2026-02-24", "--format", "docx"],
            2,
            ("--format",),
        ),
        "pdf without --out": (
            ["report", "daily", REPO, "--date", "2026-02-24", "--format", "pdf"],
            2,
            ("--out",),
        ),
        "--since with --git": (
            ["sync", REPO, "--git", str(tmp_path), "--since", "2026-01-01"],
            2,
            ("--since",),
        ),
        "config file not found": (
            ["--config", str(tmp_path / "nope.toml"), "stats", REPO, "--date", "2026-02-24"],
            2,
            ("nope.toml",),
        ),
        "not a database URL": (["--db", "nonsense", "repos"], 2, ("invalid database URL",)),
        "run with no [[repos]]": (
            ["--config", str(no_repos), "run"],
            2,
            ("no repositories to run",),
        ),
        # runtime: a well-formed command that could not be carried out
        "repository not in the store": (
            ["stats", "nobody/here", "--date", "2026-02-24"],
            1,
            ("not in the store",),
        ),
        "snapshot not found": (["import", str(tmp_path / "nope.jsonl")], 1, ("not found",)),
        "damaged snapshot": (["import", str(bad_snapshot)], 1, ("bad.jsonl", "line 1")),
        "git clone not found": (
            ["sync", REPO, "--git", str(tmp_path / "nowhere")],
            1,
            ("not found",),
        ),
        "window past the data": (["stats", REPO, "--date", "2026-03-20"], 1, ("no data",)),
    }


CASES = [
    "unknown option",
    "missing argument",
    "option below its minimum",
    "bad repository name",
    "malformed date",
    "impossible date",
    "malformed week",
    "no such ISO week",
    "both --date and --week",
    "bad --lang",
    "bad --format",
    "pdf without --out",
    "--since with --git",
    "config file not found",
    "not a database URL",
    "run with no [[repos]]",
    "repository not in the store",
    "snapshot not found",
    "damaged snapshot",
    "git clone not found",
    "window past the data",
]


@pytest.mark.parametrize("case", CASES)
def test_exit_codes(run: Runner, db: str, tmp_path: Path, case: str) -> None:  # noqa: F811
    args, code, needles = _invocations(tmp_path, db)[case]
    before = _export_all(db, tmp_path / "before.jsonl")
    full = args if args[0] == "--db" else ["--db", db, *args]
    one_line_error(run(*full), code, *needles)
    assert _export_all(db, tmp_path / "after.jsonl") == before


@pytest.mark.slow
def test_console_script_exit_codes(db: str, tmp_path: Path) -> None:
    """The installed `tidings` script, as a shell sees it."""
    exe = Path(sys.executable).with_name("tidings")
    env = {k: v for k, v in os.environ.items() if k not in ("TIDINGS_DB", "GITHUB_TOKEN")}
    # The code under test, wherever the script was installed from.
    env["PYTHONPATH"] = str(Path(tidings.__file__).parents[1])
    nested = tmp_path / "nested.toml"
    nested.write_text("a = " + "[" * DEEP + "]" * DEEP + "\n", encoding="utf-8")
    for args, code in (
        (["stats", REPO, "--date", "9999-12-31"], 2),
        (["--config", str(nested), "stats", REPO, "--date", "2026-02-24"], 2),
        (["report", "daily", REPO, "--date", "2030-01-01"], 1),
    ):
        done = subprocess.run(
            [str(exe), "--db", db, *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            cwd=tmp_path,
            env=env,
        )
        assert done.returncode == code, done.stderr
        assert done.stdout == "" and "Traceback" not in done.stderr
        assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1


def test_store_file_untouched_by_refusals(run: Runner, db: str, tmp_path: Path) -> None:  # noqa: F811
    """A refused report does not even open a write transaction: the file's bytes stay."""
    path = Path(sa.make_url(db).database or "")
    before = path.read_bytes()
    for args in (
        ["report", "daily", REPO, "--date", "2026-03-20"],
        ["stats", REPO, "--date", "9999-12-31"],
    ):
        assert run("--db", db, *args).code != 0
    assert path.read_bytes() == before


# -- hostile input, round two (#25): each a one-line error, never a traceback or a hang ---------


@pytest.mark.parametrize(
    ("toml", "needles"),
    [
        # Retries wait longer each time: 10**26 of them retried forever.
        ("[github]\nmax_retries = 100000000000000000000000000\n", ("max_retries", "20")),
        # A character class the regex engine refuses was a traceback (exit 70).
        ('[[repos]]\nname = "a/b"\ncore_paths = ["[z-a]"]\n', ("core_paths", "[z-a]", "range")),
        ('[[repos]]\nname = "a/b"\ngenerated_paths = ["x/[9-0].py"]\n', ("generated_paths",)),
        (
            '[[repos]]\nname = "a/b"\n[[repos.topics]]\ntitle = "t"\npaths = ["[z-a]/**"]\n',
            ("paths",),
        ),
    ],
)
def test_a_config_value_no_run_can_use_is_one_line(
    run: Runner,  # noqa: F811
    tmp_path: Path,
    toml: str,
    needles: tuple[str, ...],
) -> None:
    config = tmp_path / "tidings.toml"
    config.write_text(toml)
    r = run("--config", str(config), "stats", "a/b", "--date", "2026-01-01")
    one_line_error(r, 2, *needles)


@pytest.mark.parametrize("what", ["device", "huge"])
def test_a_config_that_is_no_config_file_is_refused_unread(
    run: Runner,  # noqa: F811
    tmp_path: Path,
    what: str,
) -> None:
    # `--config /dev/zero` read until memory ran out (5 GB).
    if what == "device":
        path, needle = "/dev/zero", "not a regular file"
    else:
        big = tmp_path / "big.toml"
        big.write_bytes(b"#" * (2 << 20))
        path, needle = str(big), "larger than"
    r = run("--config", path, "stats", "a/b", "--date", "2026-01-01")
    one_line_error(r, 2, needle)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_an_in_memory_store_is_refused(run: Runner, url: str) -> None:  # noqa: F811
    # It synced into memory and threw it away with exit 0.
    r = run("--db", url, "repos")
    one_line_error(r, 2, "names no file", "sqlite:///PATH")
