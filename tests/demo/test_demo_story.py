"""The demo story's files (scripts/demo_sample/story/): how they read, and the mistakes the
builder reports instead of writing a wrong snapshot."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path
from textwrap import dedent

import pytest
from demo_sample.build import build
from demo_sample.load import STORY, load_story
from demo_sample.model import Item, StoryError

from tidings.common import records as r

ISSUE = """
[[issue]]
key = "bug"
at = "03-02 10:00"
by = "sre-maria"
title = "[Bug]: it crashes"
labels = ["bug"]
body = '''
First line.

Second paragraph.
'''
"""

FIX = """
[[pr]]
key = "fix"
at = "03-02 11:00:05"
by = "jwbaker"
title = "[Bugfix] Stop the crash"
labels = []
merged = "03-02 15:00"
merged_by = "lin-qiao"
closes = ["bug"]
files = [{ path = "rapidinfer/core.py", add = 3, del = 1 }]
purpose = "Fixes {#bug}."
result = "No crash."

[[pr.reviews]]
at = "03-02 14:00"
by = "lin-qiao"
state = "APPROVED"
"""


@pytest.fixture
def story(tmp_path: Path) -> Path:
    """A story folder with the demo's repository, people and canned texts, and no days yet."""
    root = tmp_path / "story"
    (root / "days").mkdir(parents=True)
    for name in ("repository.toml", "people.toml", "canned.toml"):
        shutil.copy(STORY / name, root / name)
    return root


def _day(root: Path, *parts: str, name: str = "03-02-mon.toml") -> None:
    (root / "days" / name).write_text(dedent("".join(parts)), encoding="utf-8")


def _items(root: Path) -> dict[str, Item]:
    return {it.key: it for it in load_story(root).items}


def test_a_text_is_what_lies_between_its_quote_lines(story: Path) -> None:
    _day(story, ISSUE)
    bug = _items(story)["bug"]
    assert bug.body == "First line.\n\nSecond paragraph."
    assert bug.title == "[Bug]: it crashes"


def test_a_pr_written_as_template_sections_gets_those_sections(story: Path) -> None:
    _day(story, ISSUE, FIX)
    assert _items(story)["fix"].body == "## Purpose\n\nFixes {#bug}.\n\n## Test Result\n\nNo crash."


def test_numbers_references_and_closing_follow_the_story(story: Path) -> None:
    _day(story, FIX.replace('closes = ["bug"]', 'closes = ["bug"]\nbranch = "fix-{n:bug}"'))
    _day(
        story, ISSUE.replace('labels = ["bug"]', 'labels = ["bug"]\nclosed = "@fix"'), name="a.toml"
    )
    records = build(load_story(story))
    items = {i.title: i for i in records if isinstance(i, r.ItemRecord)}
    bug, fix = items["[Bug]: it crashes"], items["[Bugfix] Stop the crash"]
    # repository.toml: the first item opened in the fortnight is #4213.
    assert (bug.number, fix.number) == (4213, 4214)
    assert fix.body is not None and fix.body.startswith("## Purpose\n\nFixes #4213.")
    assert fix.head_ref == "fix-4213"
    assert fix.created_at.second == 5  # written; 03-02 11:00:05 in UTC+8
    assert fix.merged and fix.review_decision == "APPROVED"
    assert bug.state == "closed" and bug.state_reason == "completed"
    assert bug.closed_at == fix.merged_at + timedelta(seconds=2)  # type: ignore[operator]
    [ref] = [x for x in records if isinstance(x, r.ClosingRefRecord)]
    assert (ref.number, ref.issue_number) == (4214, 4213)


def test_a_reference_to_an_item_not_yet_opened_is_an_error(story: Path) -> None:
    _day(story, ISSUE.replace("First line.", "See {#fix}."), FIX)
    with pytest.raises(StoryError, match="bug body: refers to fix, which does not exist yet"):
        build(load_story(story))


def test_a_misspelt_field_is_an_error_that_says_where(story: Path) -> None:
    comment = """
    [[issue.comments]]
    at = "03-02 12:00"
    by = "lin-qiao"
    reactons = { "+1" = 2 }
    body = "Thanks."
    """
    _day(story, ISSUE, comment)
    with pytest.raises(
        StoryError, match=r"03-02-mon\.toml, issue 1 \(bug\), comments 1: unknown field `reactons`"
    ):
        load_story(story)


def test_everyone_who_acts_is_in_people_toml(story: Path) -> None:
    _day(story, ISSUE.replace('by = "sre-maria"', 'by = "sre-mario"'))
    with pytest.raises(StoryError, match=r"sre-mario is not in people\.toml"):
        load_story(story)


def test_ghost_is_the_deleted_account(story: Path) -> None:
    _day(story, ISSUE.replace('by = "sre-maria"', 'by = "ghost"'))
    story_ = load_story(story)
    [item] = [i for i in build(story_) if isinstance(i, r.ItemRecord)]
    assert item.author is None and item.author_type is None
    assert item.author_association == "NONE"


def test_a_canned_comment_is_said_by_its_bot_and_names_the_authors(story: Path) -> None:
    canned = """
    [[pr.comments]]
    at = "03-02 12:00"
    canned = "conflict"

    [[pr.comments]]
    at = "03-02 13:00"
    canned = "ci-passed"
    passed = 1234
    took = "40m 00s"
    """
    _day(story, ISSUE, FIX, canned)
    conflict, ci = _items(story)["fix"].comments
    assert conflict.by == "mergify-helper" and "Please rebase the PR, @jwbaker." in conflict.body
    assert ci.by == "rapidinfer-ci[bot]"
    assert ci.body.startswith("✅ **CI passed** — 1234 tests across") and "(40m 00s)" in ci.body


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ("passed = 3", "the canned text needs took"),
        ('passed = 3\ntook = "1m"\nflaky = 1', "the canned text has no flaky"),
    ],
)
def test_a_canned_comment_gets_exactly_its_blanks(story: Path, fields: str, error: str) -> None:
    canned = f'\n[[pr.comments]]\nat = "03-02 13:00"\ncanned = "ci-passed"\n{fields}\n'
    _day(story, ISSUE, FIX, canned)
    with pytest.raises(StoryError, match=error):
        load_story(story)


def test_a_pr_has_exactly_one_kind_of_body(story: Path) -> None:
    _day(story, ISSUE, FIX.replace('result = "No crash."', 'body = "Also this."'))
    with pytest.raises(StoryError, match="exactly one of `body`, `purpose`, `bump`"):
        load_story(story)


def test_a_key_names_one_item_across_all_days(story: Path) -> None:
    _day(story, ISSUE)
    _day(story, ISSUE.replace("10:00", "11:00"), name="03-03-tue.toml")
    with pytest.raises(StoryError, match="the key 'bug' is used twice"):
        load_story(story)
