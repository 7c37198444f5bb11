"""Related items and thread endings (facts/mentions.py, facts/related.py) on hand-built
windows: which names count, both directions of each relation, the order and the bound."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from tests.factories import Records, seed
from tidings.facts.activity_data import WindowData
from tidings.facts.load.window import load_window
from tidings.facts.mentions import Mention, mentions
from tidings.facts.related import ending, related
from tidings.store import Store

REPO = "acme/widgets"
START = datetime(2026, 2, 24, tzinfo=UTC)
END = datetime(2026, 2, 25, tzinfo=UTC)


@pytest.fixture
def rec() -> Records:
    return Records()


def window(store: Store, records: list[Any]) -> WindowData:
    repo_id = seed(store, records)
    with store.engine.connect() as conn:
        return load_window(conn, repo_id, REPO, START, END)


def test_mentions_read_this_repositorys_names_outside_code() -> None:
    body = (
        "Closes: #14\n"
        "See acme/widgets#15, other/repo#16, https://github.com/acme/widgets/pull/17 and "
        "https://github.com/other/repo/issues/18.\n"
        "`#19` in code, and\n```\n#20\n```\n<!-- #21 (a template) -->\n"
        "colour #fff, an entity &#22;, a line anchor #L23, #12 again."
    )
    found = mentions("Fix #12 (#13)", body, REPO, own=13)
    assert found == [
        Mention(12, fixes=True),  # "Fix #12": the text says it fixes it (once is enough)
        Mention(14, fixes=True),
        Mention(15, fixes=False),
        Mention(17, fixes=False),
    ]
    assert mentions("Nothing here", None, REPO) == []


def test_related_reads_each_relation_in_both_directions(sqlite_store: Store, rec: Records) -> None:
    data = window(
        sqlite_store,
        [
            rec.repo(REPO),
            rec.issue(1, "2026-01-01T00:00:00Z", title="Old bug"),
            rec.pr(2, "2026-02-24T01:00:00Z", title="Fix the old bug", body="Fixes #1",
                   merged_at="2026-02-24T02:00:00Z"),
            rec.pr(3, "2026-02-24T03:00:00Z", title="Polish", body="Follow-up to #2"),
            rec.pr(4, "2026-02-24T04:00:00Z", title='Revert "Fix the old bug"',
                   body="Reverts acme/widgets#2", merged_at="2026-02-24T05:00:00Z"),
            rec.issue(5, "2026-02-24T06:00:00Z", title="Broken since #2"),
            rec.issue(6, "2026-02-24T07:00:00Z", title="Another", body="#2 closes this"),
            # Names #2 but is older: no follow-up of it.
            rec.issue(7, "2026-02-23T00:00:00Z", title="Tracking", body="- [ ] #2"),
            rec.comment(7, "2026-02-24T08:00:00Z"),
        ],
    )  # fmt: skip
    assert data.reverts == {4: 2}
    assert set(data.named) == {1}  # outside the window, named by #2: loaded for its title
    got = [(r.number, r.relation) for r in related(data, 2)]
    assert got == [
        (4, "reverted_by"),
        (1, "fixes"),
        (3, "follow_up"),
        (5, "mentioned_by"),
        (6, "mentioned_by"),
        (7, "mentioned_by"),
    ]
    assert [(r.number, r.relation) for r in related(data, 4)] == [(2, "reverts")]
    (old,) = related(data, 1)
    assert (old.number, old.kind, old.title, old.state, old.relation) == (
        2,
        "pr",
        "Fix the old bug",
        "merged",
        "fixed_by",
    )
    assert [r.number for r in related(data, 2, limit=2)] == [4, 1]


def test_a_closing_pr_closed_the_issue_only_when_its_merge_did(
    sqlite_store: Store, rec: Records
) -> None:
    data = window(
        sqlite_store,
        [
            rec.repo(REPO),
            rec.pr(8, "2026-02-20T00:00:00Z", merged_at="2026-02-21T00:00:00Z", merged_by="dave"),
            rec.issue(9, "2026-02-19T00:00:00Z", closed_at="2026-02-24T09:00:00Z",
                      state_reason="completed"),
            rec.issue(10, "2026-02-24T01:00:00Z"),
            rec.closing_ref(8, 9),
        ],
    )  # fmt: skip
    # Closed by hand three days after #8 merged: no PR closed it, though #8 closes it.
    end = ending(data, 9)
    assert (end.state, end.at, end.reason, end.closed_by_pr) == (
        "closed",
        datetime(2026, 2, 24, 9, tzinfo=UTC),
        "completed",
        None,
    )
    assert [(r.number, r.relation) for r in related(data, 9)] == [(8, "closed_by")]
    assert (ending(data, 10).state, ending(data, 10).at) == ("open", None)
    merged = ending(data, 8)
    assert (merged.state, merged.by) == ("merged", "dave")
