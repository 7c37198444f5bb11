"""Set-up on the first try (#13): `tidings init`, the workflow it writes (checked by
actionlint), the defaults that spare typing (the last complete window, `yesterday`,
`last-week`, the only configured repository), config discovery, and the help texts."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.factories import Records, seed
from tidings import api
from tidings.cli import main
from tidings.common.config import Config, RepoConfig, load_config, parse_config
from tidings.errors import TidingsError
from tidings.jobs.starter import WORKFLOW_PATH, cron_for, install_source
from tidings.store import Store

Run = Callable[..., tuple[int, str, str]]
INSTALL = "tidings @ git+https://github.com/example/tidings@0123456789abcdef"


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def invoke(*args: str) -> tuple[int, str, str]:
        with pytest.raises(SystemExit) as done:
            main(list(args))
        out = capsys.readouterr()
        code = done.value.code
        return (code if isinstance(code, int) else 1), out.out, out.err

    return invoke


def actionlint(folder: Path) -> subprocess.CompletedProcess[str]:
    """actionlint over the repository at `folder` (a git repository: actionlint finds the
    workflows from its root). The dev extra installs it; a missing one fails under CI."""
    exe = shutil.which("actionlint") or str(Path(sys.executable).with_name("actionlint"))
    if not Path(exe).is_file():
        reason = "actionlint is not installed (pip install -e '.[dev]' installs it)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    if not (folder / ".git").exists():
        subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return subprocess.run(
        [exe, "-oneline", "-no-color"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# -- tidings init --------------------------------------------------------------------------------


def test_init_writes_a_config_that_loads_and_a_workflow_actionlint_accepts(
    run: Run, tmp_path: Path
) -> None:
    code, _, err = run(
        "init",
        "acme/widgets",
        "acme/gadgets",
        "--timezone",
        "Asia/Shanghai",
        "--cutoff",
        "09:00",
        "--lang",
        "zh",
        "--github-actions",
        "--install-from",
        INSTALL,
    )
    assert code == 0, err
    assert "wrote tidings.toml and .github/workflows/tidings.yml" in err
    cfg = load_config(tmp_path / "tidings.toml")
    assert [r.name for r in cfg.repos] == ["acme/widgets", "acme/gadgets"]
    assert {(r.timezone, r.cutoff, r.language) for r in cfg.repos} == {
        ("Asia/Shanghai", "09:00", "zh")
    }
    text = (tmp_path / "tidings.toml").read_text("utf-8")
    for commented in ("# [[repos.topics]]", "# base_url", "# urls = [", "[notify]", "[site]"):
        assert commented in text
    # Folders in the file are relative to it, wherever the command runs.
    assert cfg.site.reports_dir == str(tmp_path / "reports")
    lint = actionlint(tmp_path)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    flow = yaml.safe_load((tmp_path / WORKFLOW_PATH).read_text("utf-8"))
    assert flow["permissions"] == {}  # nothing by default ...
    report, deploy = flow["jobs"]["report"], flow["jobs"]["deploy"]
    assert report["permissions"] == {"contents": "write"}  # ... each job its own
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    steps = {s.get("name", s.get("uses")): s for s in report["steps"]}
    assert steps["Install tidings"]["run"] == f'python -m pip install "{INSTALL}"'
    assert (
        "tidings run --lookback 30"
        in steps["Sync, write the due reports, build the site, announce"]["run"]
    )
    # 09:00 in Shanghai is 01:00 UTC: the job runs half an hour after the cut-off.
    assert flow[True]["schedule"] == [{"cron": "30 1 * * *"}]  # YAML 1.1 reads `on` as True


def test_the_workflow_commits_reports_but_not_pdfs(run: Run, tmp_path: Path) -> None:
    """The commit step's own `git add` line, run in a repository holding a report, its PDF
    and the PDF's key: only the Markdown and JSON are staged."""
    assert run("init", "acme/widgets", "--github-actions", "--install-from", INSTALL)[0] == 0
    flow = yaml.safe_load((tmp_path / WORKFLOW_PATH).read_text("utf-8"))
    script = next(
        s["run"] for s in flow["jobs"]["report"]["steps"] if "git add" in s.get("run", "")
    )
    add = next(line for line in script.splitlines() if line.startswith("git add"))
    subprocess.run(["git", "init", "-q"], check=True)
    day = tmp_path / "reports" / "acme" / "widgets" / "daily"
    day.mkdir(parents=True)
    for suffix in (".md", ".json", ".pdf", ".pdf.key"):
        (day / f"2026-03-04.en{suffix}").write_text("x", "utf-8")
    subprocess.run(["bash", "-c", add], check=True)
    staged = subprocess.run(
        ["git", "diff", "--cached", "--name-only"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert sorted(staged) == [
        "reports/acme/widgets/daily/2026-03-04.en.json",
        "reports/acme/widgets/daily/2026-03-04.en.md",
    ]


def test_init_refuses_to_overwrite_and_checks_its_values(run: Run, tmp_path: Path) -> None:
    (tmp_path / "tidings.toml").write_text("# mine\n", "utf-8")
    code, _, err = run("init", "acme/widgets")
    assert code == 1 and err.count("\n") == 1 and "--force" in err
    assert (tmp_path / "tidings.toml").read_text("utf-8") == "# mine\n"
    code, _, err = run("init", "acme/widgets", "--force")
    assert code == 0 and "acme/widgets" in (tmp_path / "tidings.toml").read_text("utf-8")
    for args, needle in [
        (["--timezone", "Mars/Olympus"], "--timezone: unknown timezone"),
        (["--cutoff", "25:00"], "--cutoff"),
        (["--lang", "fr"], "--lang"),
    ]:
        code, _, err = run("init", "acme/other", "--force", *args)
        assert code == 2 and err.count("\n") == 1 and needle in err, err
    code, _, err = run("init", "not-a-repo", "--force")
    assert code == 2 and "OWNER/REPO" in err


def test_install_source_names_what_exists(monkeypatch: pytest.MonkeyPatch) -> None:
    class Dist:
        version = "9.9.9"

        def __init__(self, direct: dict[str, Any] | None) -> None:
            self.direct = direct

        def read_text(self, name: str) -> str | None:
            return json.dumps(self.direct) if self.direct else None

    from tidings.jobs import starter

    monkeypatch.setattr(starter.metadata, "distribution", lambda _: Dist(None))
    assert install_source() == "tidings==9.9.9"  # from an index
    vcs = {"url": "https://github.com/o/tidings", "vcs_info": {"vcs": "git", "commit_id": "abc"}}
    monkeypatch.setattr(starter.metadata, "distribution", lambda _: Dist(vcs))
    assert install_source() == "tidings @ git+https://github.com/o/tidings@abc"
    local = {"url": "file:///nowhere/at/all", "dir_info": {"editable": True}}
    monkeypatch.setattr(starter.metadata, "distribution", lambda _: Dist(local))
    monkeypatch.setattr(starter, "_git", lambda folder, *args: None)  # no remote
    with pytest.raises(TidingsError) as failed:
        install_source()
    assert "--install-from" in failed.value.one_line()


def test_cron_follows_the_cutoff() -> None:
    winter = datetime(2026, 1, 15, tzinfo=UTC)
    assert cron_for("UTC", "00:00", winter)[0] == "30 0 * * *"
    assert cron_for("Asia/Shanghai", "11:31", winter)[0] == "1 4 * * *"
    assert cron_for("America/New_York", "23:45", winter)[0] == "15 5 * * *"


# -- defaults ------------------------------------------------------------------------------------


def test_the_default_day_and_week_are_the_last_complete_ones() -> None:
    repo = RepoConfig(name="a/b", timezone="Asia/Shanghai", cutoff="09:00")
    before = datetime(2026, 3, 14, 0, 30, tzinfo=UTC)  # Sat 08:30 local: 03-13 still open
    after = datetime(2026, 3, 14, 1, 30, tzinfo=UTC)
    assert api.resolve_day(None, repo, before) == date(2026, 3, 12)
    assert api.resolve_day(None, repo, after) == date(2026, 3, 13)
    assert api.resolve_day("yesterday", repo, before) == date(2026, 3, 13)  # the calendar's
    assert api.resolve_day("today", repo, before) == date(2026, 3, 14)
    assert api.resolve_day("2026-01-02", repo, before) == date(2026, 1, 2)
    # Week 11 (03-09..03-15) is open on Saturday; week 10 is the last complete one.
    assert api.resolve_week(None, repo, after) == (2026, 10)
    monday = datetime(2026, 3, 16, 1, 30, tzinfo=UTC)  # Mon 09:30 local: week 11 closed 30 min ago
    assert api.resolve_week(None, repo, monday) == (2026, 11)
    assert api.resolve_week("last-week", repo, after) == (2026, 10)
    assert api.resolve_week("this-week", repo, after) == (2026, 11)
    assert api.resolve_week(None, repo, datetime(2026, 1, 3, tzinfo=UTC)) == (2025, 52)


def _store(tmp_path: Path, rec: Records, updated: str) -> str:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    store = Store.open(url)
    seed(store, [rec.repo(), rec.issue(1, updated), rec.sync_state("synced", updated=updated)])
    store.close()
    return url


def test_report_without_repo_or_date_uses_the_only_repository_and_the_last_window(
    run: Run, tmp_path: Path, rec: Records
) -> None:
    now = datetime.now(UTC)
    url = _store(tmp_path, rec, now.strftime("%Y-%m-%dT%H:%M:%SZ"))
    (tmp_path / "tidings.toml").write_text('[[repos]]\nname = "acme/widgets"\n', "utf-8")
    code, out, err = run("--db", url, "report", "daily", "--format", "json")
    assert code == 0, err
    expected = api.resolve_day(None, RepoConfig(name="acme/widgets"))
    assert json.loads(out)["date"] == expected.isoformat()
    assert err == ""  # configured: no note
    code, out, err = run("--db", url, "report", "weekly", "--week", "last-week", "--format", "json")
    assert code == 0, err
    year, week = api.resolve_week("last-week", RepoConfig(name="acme/widgets"))
    assert json.loads(out)["week"] == f"{year}-W{week:02d}"
    code, _, err = run("--db", url, "stats", "--date", "yesterday", "--allow-partial", "--json")
    assert code == 0, err


def test_a_repository_not_in_the_config_says_which_defaults_it_got(
    run: Run, tmp_path: Path, rec: Records
) -> None:
    url = _store(tmp_path, rec, datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    code, _, err = run("--db", url, "report", "daily", "acme/widgets", "--format", "json")
    assert code == 0, err
    assert err.splitlines() == [
        "note: acme/widgets is not configured (no tidings.toml found): used timezone UTC, "
        "cut-off 00:00, language en — add a [[repos]] entry (tidings init acme/widgets) to "
        "change them"
    ]
    # A failure stays one line: the note is said only when the command succeeds.
    code, _, err = run("--db", url, "report", "daily", "acme/widgets", "--date", "today")
    assert code == 1 and err.count("\n") == 1 and err.startswith("error: ")


def test_which_repository_when_the_config_has_several(run: Run, tmp_path: Path) -> None:
    (tmp_path / "tidings.toml").write_text(
        '[[repos]]\nname = "acme/a"\n\n[[repos]]\nname = "acme/b"\n', "utf-8"
    )
    code, _, err = run("report", "daily")
    assert code == 2 and err.count("\n") == 1
    assert "which repository?" in err and "acme/a, acme/b" in err
    code, _, err = run("report", "daily", "--date", "2026-02-30")  # the usage error comes first
    assert code == 2 and "2026-02-30" in err


# -- config discovery ----------------------------------------------------------------------------


def test_config_is_found_in_parent_folders_and_by_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    deep = project / "docs" / "notes"
    deep.mkdir(parents=True)
    (project / "tidings.toml").write_text(
        '[[repos]]\nname = "acme/widgets"\n\n[site]\nout_dir = "public"\n', "utf-8"
    )
    monkeypatch.chdir(deep)
    cfg = load_config(None)
    assert cfg.path == project / "tidings.toml"
    assert cfg.site.out_dir == str(project / "public")  # relative to the file, not to cwd
    assert cfg.site.reports_dir == str(project / "reports")
    other = tmp_path / "elsewhere.toml"
    other.write_text('[[repos]]\nname = "acme/other"\n', "utf-8")
    monkeypatch.setenv("TIDINGS_CONFIG", str(other))
    assert [r.name for r in load_config(None).repos] == ["acme/other"]
    monkeypatch.setenv("TIDINGS_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(Exception, match="TIDINGS_CONFIG"):
        load_config(None)
    monkeypatch.delenv("TIDINGS_CONFIG")
    monkeypatch.chdir(tmp_path)
    assert load_config(None) == Config()  # none here or above: the defaults
    # A config parsed from text (the API's) keeps its folders as written.
    assert parse_config('[site]\nout_dir = "x"\n').site.out_dir == "x"


# -- help and completion -------------------------------------------------------------------------


COMMANDS = [
    [],
    ["sync"],
    ["stats"],
    ["report", "daily"],
    ["report", "weekly"],
    ["site", "build"],
    ["run"],
    ["notify"],
    ["init"],
    ["demo"],
]


def test_help_keeps_every_bracketed_word(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich reads `[site]` as markup and drops it; every help text must come through whole."""
    monkeypatch.setenv("COLUMNS", "200")  # one line per option, so words are not wrapped
    seen = set()
    for command in COMMANDS:
        code, out, err = run(*command, "--help")
        assert code == 0, err
        assert "\\[" not in out, command
        seen |= set(re.findall(r"\[(site|llm|notify)\]", out))
    assert seen == {"site", "llm", "notify"}
    code, out, _ = run("--help")
    from tidings.store.db import default_db_url

    assert default_db_url().removeprefix("sqlite:///") in out  # the store's default, stated
    assert "TIDINGS_CONFIG" in out


def test_shell_completion_is_offered(run: Run) -> None:
    code, out, err = run("--show-completion", "bash")
    assert code == 0, err
    assert "_TIDINGS_COMPLETE" in out and "complete " in out
