"""The fact functions over records built by hand, with no store: what facts/load/ hands them is
all they read (the loaders' own tests go through a store: test_stats.py, test_risk.py...)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from tidings.facts.activity_data import Comment
from tidings.facts.review_notes import review_notes
from tidings.facts.roles import Roles
from tidings.facts.stats import (
    Act,
    ChangedLines,
    ItemDates,
    churn_of,
    count_people,
    label_counts,
    lists_of,
)
from tidings.facts.threads import MAX_THREADS, InlineComment, ThreadStatus, review_threads
from tidings.facts.windows import daily_window

DAY = daily_window(date(2026, 3, 10), ZoneInfo("UTC"))
IN = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
BEFORE = IN - timedelta(days=3)
AFTER = IN + timedelta(days=3)


def _item(
    number: int,
    kind: str,
    state: str,
    *,
    created_at: datetime | None = None,
    closed_at: datetime | None = None,
    merged_at: datetime | None = None,
    source: str | None = None,
) -> ItemDates:
    return ItemDates(number, kind, state, created_at, closed_at, merged_at, source)


def test_lists_count_as_github_search_does() -> None:
    rows = [
        _item(1, "issue", "closed", created_at=IN, closed_at=IN),
        _item(2, "issue", "open", created_at=BEFORE, closed_at=IN),  # reopened: not closed
        _item(3, "pr", "closed", created_at=BEFORE, closed_at=IN, merged_at=IN),
        _item(4, "pr", "closed", created_at=IN, closed_at=IN),  # closed unmerged
        _item(5, "pr", "closed", created_at=IN, merged_at=IN, source="git"),  # opening unknown
        _item(6, "pr", "open", created_at=AFTER),
    ]
    lists = lists_of(rows, DAY)
    assert lists.new_issues == [1]
    assert lists.closed_issues == [1]
    assert lists.new_prs == [4]
    assert lists.merged_prs == [3, 5]
    assert lists.closed_unmerged_prs == [4]


def test_labels_count_each_pr_once_most_common_first() -> None:
    counts = label_counts([["bug", "bug", "ci"], ["ci"], None, ["a"]])
    assert [(c.label, c.count) for c in counts] == [("ci", 2), ("a", 1), ("bug", 1)]


def test_churn_ranks_paths_and_directories_by_lines() -> None:
    files = [
        ChangedLines(1, "src/a/x.py", 10, 5),
        ChangedLines(2, "src/a/y.py", 1, None),  # binary counts nothing, still a PR there
        ChangedLines(2, "README.md", 3, 3),
    ]
    paths, dirs = churn_of(files, depth=2, top=2)
    assert [(c.path, c.churn, c.prs) for c in paths] == [("src/a/x.py", 15, 1), ("README.md", 6, 1)]
    assert [(c.path, c.churn, c.prs) for c in dirs] == [("src/a", 16, 2), (".", 6, 1)]


def test_people_leave_out_drafts_bots_and_deleted_accounts() -> None:
    acts = [
        Act("ann", "User", "prs", 1),
        Act("ann", "User", "reviews", 2, "APPROVED"),
        Act("ann", "User", "reviews", 3, "PENDING"),  # a draft nobody else sees
        Act("bob", "User", "reviews", 2, "CHANGES_REQUESTED"),
        Act("bob", "User", "comments", 2),
        Act("ci-bot", "Bot", "comments", 2),
        Act(None, None, "comments", 2),
    ]
    who = count_people(acts)
    assert [(c.login, c.total, c.prs, c.reviews, c.comments) for c in who.contributors] == [
        ("ann", 2, 1, 1, 0),
        ("bob", 2, 0, 1, 1),
    ]
    assert [(r.login, r.states, r.prs) for r in who.reviewers] == [
        ("ann", {"APPROVED": 1}, [2]),
        ("bob", {"CHANGES_REQUESTED": 1}, [2]),
    ]
    assert [(b.login, b.total) for b in who.bots] == [("ci-bot", 1)]


def _inline(id: int, author: str | None, **changes: Any) -> InlineComment:
    """Inline comment `id` on PR 7, made `id` minutes into the window; `changes` as replace's."""
    comment = InlineComment(
        id=id,
        number=7,
        in_reply_to_id=None,
        author=author,
        author_type="User",
        author_association="MEMBER",
        path="engine/core.py",
        line=12,
        original_line=12,
        diff_hunk="@@ -1,2 +1,2 @@\n-old\n+new",
        body=f"comment {id}",
        created_at=IN + timedelta(minutes=id),
    )
    return replace(comment, **changes)


def test_threads_are_raised_by_others_with_the_authors_replies() -> None:
    comments = [
        _inline(1, "rev"),
        _inline(2, "author", in_reply_to_id=1),
        _inline(3, "rev", in_reply_to_id=1),
        _inline(4, "author"),  # the author annotating their own diff raises nothing
        _inline(5, "rev2", line=None),  # outdated: its lines changed after it
    ]
    commits = {7: [IN, IN + timedelta(minutes=30)]}
    states = {5: ThreadStatus(resolved=True, outdated=False)}  # GraphQL's word wins
    threads = review_threads(comments, states, commits, {7: "author"})[7]
    assert [t.login for t in threads] == ["rev", "rev2"]
    first, second = threads
    assert (first.replies, first.author_replied, first.commits_after) == (2, True, 1)
    assert first.hunk_tail == ("-old", "+new") and first.resolved is None
    assert (second.outdated, second.resolved, second.line) == (False, True, None)


def test_a_pr_lists_at_most_max_threads() -> None:
    comments = [_inline(i, f"rev{i}") for i in range(1, MAX_THREADS + 3)]
    threads = review_threads(comments, {}, {}, {7: "author"})[7]
    assert len(threads) == MAX_THREADS
    assert threads[0].commits_after is None  # no commit times stored: not known


def _review(id: int, author: str, state: str, body: str, kind: str = "User") -> Comment:
    when = IN + timedelta(minutes=id)
    return Comment(id, 7, author, kind, "MEMBER", body, when, 0, "review", state)


def test_review_notes_keep_verdicts_and_words_not_envelopes_or_bots() -> None:
    reviews = [
        _review(1, "ann", "CHANGES_REQUESTED", ""),  # a verdict without words still counts
        _review(2, "ann", "COMMENTED", " "),  # the envelope of inline comments
        _review(3, "ci-bot", "COMMENTED", "lint passed", kind="Bot"),
    ]
    comments = [_inline(4, "bob", line=None, original_line=9), _inline(5, "ann", body="")]
    notes = review_notes(reviews, comments, Roles())[7]
    assert [(n.kind, n.login, n.state, n.line) for n in notes] == [
        ("review", "ann", "CHANGES_REQUESTED", None),
        ("inline", "bob", None, 9),
    ]
    assert notes[0].role == "maintainer"  # MEMBER, by the association alone
