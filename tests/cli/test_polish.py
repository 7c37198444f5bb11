"""The CLI as a shell user meets it: `-h`, one-sentence command summaries, completion of
values, and tables that are drawn on a terminal and plain tab-separated rows when piped."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

from tests.cli.test_terminal import Terminal, _env
from tidings.cli import app
from tidings.cli.app import LANGUAGES, REPORT_FORMATS
from tidings.common.config import LANGS, Lang
from tidings.render.files import FORMATS, Format

EXE = Path(sys.executable).with_name("tidings")
SAMPLE = Path(__file__).resolve().parents[2] / "src" / "tidings" / "demo" / "sample.jsonl"
DEMO_REPO = "tidings-demo/rapidinfer"
BOX = set("│─┃━┌┐└┘╭╮╰╯┏┓┗┛")


def tidings(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(EXE), *args],
        cwd=cwd,
        env=env or dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,
    )


def complete(words: str, cwd: Path) -> list[str]:
    """What bash completion offers after `words` (the protocol the installed script speaks)."""
    env = {
        **os.environ,
        "_TIDINGS_COMPLETE": "complete_bash",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
    }
    done = tidings(cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout.split()


@pytest.mark.parametrize("args", [["-h"], ["report", "-h"], ["report", "weekly", "-h"]])
def test_dash_h_is_help_everywhere(args: list[str], tmp_path: Path) -> None:
    done = tidings(*args, cwd=tmp_path)
    assert done.returncode == 0
    assert "Usage: tidings" in done.stdout


def test_a_command_summary_is_one_sentence_not_the_source_lines(tmp_path: Path) -> None:
    env = {**os.environ, "COLUMNS": "200"}
    listing = tidings("report", "--help", cwd=tmp_path, env=env).stdout
    # The weekly's docstring breaks its first paragraph after "(reusing": listed, it is one
    # sentence (wrapped to the terminal, not at the source's line breaks).
    listed = " ".join(listing.split("Commands:")[1].split())
    assert (
        "weekly Write one ISO week's report: merged work, risk tags, trends; prose by a model "
        "(reusing the daily per-PR analyses) or by rules." in listed
    )
    summaries = [c.short_help for c in app.registered_commands]
    assert summaries and all(s and "\n" not in s for s in summaries)


def test_completion_offers_languages_formats_and_the_configured_repositories(
    tmp_path: Path,
) -> None:
    (tmp_path / "tidings.toml").write_text(
        '[[repos]]\nname = "vllm-project/vllm"\n\n[[repos]]\nname = "vllm-project/vllm-ascend"\n'
        '\n[[repos]]\nname = "acme/engine"\n'
    )
    assert complete("tidings report daily --lang ", tmp_path) == ["zh", "en"]
    assert complete("tidings report weekly --format p", tmp_path) == ["pdf"]
    assert complete("tidings report daily vllm", tmp_path) == [
        "vllm-project/vllm",
        "vllm-project/vllm-ascend",
    ]
    assert complete("tidings stats a", tmp_path) == ["acme/engine"]


def test_completion_beside_a_broken_config_offers_nothing_and_prints_no_traceback(
    tmp_path: Path,
) -> None:
    (tmp_path / "tidings.toml").write_text("[[repos]\nname = ")
    assert complete("tidings report daily ", tmp_path) == []


def test_the_completed_values_are_the_ones_the_commands_accept() -> None:
    assert set(LANGUAGES) == set(LANGS) == set(get_args(Lang))
    assert set(REPORT_FORMATS) == set(FORMATS) == set(get_args(Format))


@pytest.fixture
def store_with_demo(tmp_path: Path) -> str:
    db = f"sqlite:///{tmp_path / 's.db'}"
    done = tidings("--db", db, "import", str(SAMPLE), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return db


def test_a_piped_table_is_tab_separated_rows_without_borders(
    store_with_demo: str, tmp_path: Path
) -> None:
    out = tidings("--db", store_with_demo, "repos", cwd=tmp_path).stdout
    rows = [line.split("\t") for line in out.splitlines()]
    assert not BOX & set(out)
    # One row per repository, no title or header: name, issues, PRs, comments, reviews, time.
    assert len(rows) == 1 and rows[0][0] == DEMO_REPO
    assert len(rows[0]) == 6 and all(cell.isdigit() for cell in rows[0][1:5])


def test_piped_stats_rows_say_which_table_they_belong_to(
    store_with_demo: str, tmp_path: Path
) -> None:
    out = tidings(
        "--db", store_with_demo, "stats", DEMO_REPO, "--date", "2026-03-05", cwd=tmp_path
    ).stdout
    rows = [line.split("\t") for line in out.splitlines()]
    assert not BOX & set(out)
    counts = [r for r in rows if r[0].startswith(f"{DEMO_REPO}: ")]
    assert [r[1] for r in counts] == [
        "new issues",
        "closed issues",
        "new PRs",
        "merged PRs",
        "closed unmerged PRs",
    ]
    assert all(r[2].isdigit() for r in counts)
    assert any(r[0] == "top changed paths (merged PRs)" for r in rows)


def test_on_a_terminal_the_table_is_drawn(store_with_demo: str, tmp_path: Path) -> None:
    term = Terminal(["--db", store_with_demo, "repos"], cwd=tmp_path, env=_env())
    assert term.finish(60) == 0
    assert "repositories in the store" in term.output
    assert BOX & set(term.output)


def _commands(group: object, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    import typer.main

    click_group = typer.main.get_command(app) if not path else group
    found: list[tuple[str, ...]] = [path]
    for name, sub in getattr(click_group, "commands", {}).items():
        found += _commands(sub, (*path, name))
    return found


def test_no_help_text_loses_a_config_section_name_to_rich_markup(tmp_path: Path) -> None:
    # Rich reads "[run]" as a style tag and drops it ("default:  concurrency"): every
    # "[section]" a help text names must reach the screen.
    import typer.main

    root = typer.main.get_command(app)
    env = {**os.environ, "COLUMNS": "400"}
    for path in _commands(root):
        command = root
        for name in path:
            command = command.commands[name]  # type: ignore[attr-defined]
        texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
        named = {m for text in texts for m in re.findall(r"\[[a-z_.]+\]", text.replace("\\[", "["))}
        if not named:
            continue
        shown = tidings(*path, "--help", cwd=tmp_path, env=env).stdout
        shown = " ".join(shown.replace("│", " ").split())
        assert [n for n in named if n not in shown] == [], path
