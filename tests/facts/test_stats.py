"""Window statistics on both backends: GitHub-search counting rules and their corner cases."""

from __future__ import annotations

import json
from datetime import date, time
from zoneinfo import ZoneInfo

import pytest

from tests.factories import Records, seed
from tidings.facts.actors import is_bot
from tidings.facts.load.stats import window_stats
from tidings.facts.stats import SCHEMA_VERSION, WindowStats, directory_of
from tidings.facts.windows import Window, daily_window
from tidings.store import Store

# The example report's window: 2026-02-24 11:31 (UTC+8) ~ 2026-02-25 11:31 (UTC+8).
W = daily_window(date(2026, 2, 24), ZoneInfo("Asia/Shanghai"), time(11, 31))
START, END = "2026-02-24T03:31:00Z", "2026-02-25T03:31:00Z"
BEFORE, INSIDE, AFTER = "2026-02-23T12:00:00Z", "2026-02-24T12:00:00Z", "2026-02-25T12:00:00Z"


def _stats(store: Store, window: Window = W, bots: tuple[str, ...] = ()) -> WindowStats:
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, "acme/widgets")
        return window_stats(conn, repo_id, window, repository="acme/widgets", bots=bots)


def test_boundaries_start_inclusive_end_exclusive(store: Store, rec: Records) -> None:
    seed(
        store,
        [
            rec.repo(),
            rec.issue(1, START),
            rec.issue(2, END),
            rec.issue(3, "2026-02-24T03:30:59Z"),
            rec.issue(4, "2026-02-25T03:30:59Z"),
            rec.pr(5, BEFORE, merged_at=START),
            rec.pr(6, BEFORE, merged_at=END),
            rec.issue(7, BEFORE, closed_at=START),
            rec.issue(8, BEFORE, closed_at=END),
        ],
    )
    s = _stats(store)
    assert s.items.new_issues == [1, 4]
    assert s.items.merged_prs == [5]
    assert s.items.closed_issues == [7]


def test_counts_follow_github_search(store: Store, rec: Records) -> None:
    seed(
        store,
        [
            rec.repo(),
            rec.issue(1, INSIDE),  # new
            rec.issue(2, BEFORE, closed_at=INSIDE),  # closed
            rec.issue(3, INSIDE, closed_at=INSIDE),  # new and closed
            # Closed in the window, reopened, closed again after it: counts once, later.
            rec.issue(4, BEFORE, closed_at=AFTER),
            # Closed in the window, then reopened: GitHub search no longer finds it closed.
            rec.issue(5, BEFORE, state="open", closed_at=INSIDE),
            # Closed before, reopened and closed again in the window: counts here, once.
            rec.issue(6, BEFORE, closed_at=INSIDE, state_reason="completed"),
            rec.pr(10, INSIDE),  # new, open
            rec.pr(11, INSIDE, draft=True),  # drafts are PRs too
            rec.pr(12, BEFORE, merged_at=INSIDE),
            # Closed without merging because the change landed through #14.
            rec.pr(13, BEFORE, closed_at=INSIDE, merged=False),
            rec.pr(14, INSIDE, merged_at=INSIDE, body="supersedes #13"),
            rec.pr(15, BEFORE, closed_at=BEFORE),  # closed earlier: not counted
            rec.issue(16, INSIDE, deleted=True),  # deleted rows never count
            rec.pr(17, INSIDE, merged_at=INSIDE, deleted=True),
        ],
    )
    s = _stats(store)
    assert s.items.new_issues == [1, 3]
    assert s.items.closed_issues == [2, 3, 6]
    assert s.items.new_prs == [10, 11, 14]
    assert s.items.merged_prs == [12, 14]
    assert s.items.closed_unmerged_prs == [13]
    assert s.counts.model_dump() == {
        "new_issues": 2,
        "closed_issues": 3,
        "new_prs": 3,
        "merged_prs": 2,
        "closed_unmerged_prs": 1,
    }
    # The reopened-and-reclosed issue counts in the window of its last close.
    later = daily_window(date(2026, 2, 25), ZoneInfo("Asia/Shanghai"), time(11, 31))
    assert _stats(store, later).items.closed_issues == [4]


def test_labels_paths_and_directories(store: Store, rec: Records) -> None:
    seed(
        store,
        [
            rec.repo(),
            rec.pr(1, BEFORE, merged_at=INSIDE, labels=["rocm", "bug"]),
            rec.pr(2, BEFORE, merged_at=INSIDE, labels=["rocm"]),
            rec.pr(3, INSIDE, labels=["rocm"]),  # open: not merged, not counted
            rec.file(1, "vllm/platforms/rocm.py", 10, 5),
            rec.file(1, "csrc/rocm/attention.cu", 100, 0),
            rec.file(2, "vllm/platforms/rocm.py", 1, 1),
            rec.file(2, "vllm/v1/core/sched/scheduler.py", 3, 3),
            rec.file(2, "setup.py", 2, 0),
            rec.file(2, "logo.png", None, None, status="added"),
            rec.file(3, "vllm/platforms/rocm.py", 1000, 0),
        ],
    )
    s = _stats(store)
    assert [(x.label, x.count) for x in s.merged_by_label] == [("rocm", 2), ("bug", 1)]
    assert [(p.path, p.churn, p.prs) for p in s.top_paths[:3]] == [
        ("csrc/rocm/attention.cu", 100, 1),
        ("vllm/platforms/rocm.py", 17, 2),
        ("vllm/v1/core/sched/scheduler.py", 6, 1),
    ]
    dirs = {d.path: (d.churn, d.prs) for d in s.top_directories}
    assert dirs == {
        "csrc/rocm": (100, 1),
        "vllm/platforms": (17, 2),
        "vllm/v1": (6, 1),
        ".": (2, 1),
    }
    assert directory_of("a/b/c/d.py", 1) == "a"
    assert directory_of("a/b/c/d.py", 3) == "a/b/c"
    assert directory_of("README.md", 2) == "."


def test_people_humans_only_and_ghosts(store: Store, rec: Records) -> None:
    seed(
        store,
        [
            rec.repo(),
            rec.issue(1, INSIDE, author="alice"),
            rec.issue(2, INSIDE, author=None, author_type=None),  # deleted account
            rec.pr(3, INSIDE, author="dependabot[bot]", author_type="Bot"),
            rec.pr(4, INSIDE, author="release-helper"),  # a bot only by configuration
            rec.pr(5, BEFORE, author="bob", merged_at=INSIDE),  # created before: not credited
            rec.comment(1, INSIDE, author="bob"),
            rec.comment(1, INSIDE, author=None, author_type=None),
            rec.comment(1, INSIDE, author="github-actions[bot]", author_type="Bot"),
            rec.comment(1, BEFORE, author="zed"),  # outside the window
            rec.comment(1, INSIDE, author="yan", deleted=True),  # deleted comment
            rec.review(5, INSIDE, author="carol", state="APPROVED"),
            rec.review(5, INSIDE, author="carol", state="COMMENTED"),
            rec.review(3, INSIDE, author="Alice", state="CHANGES_REQUESTED"),
            rec.review(5, INSIDE, author="dave", state="PENDING"),  # not submitted
            rec.review(5, INSIDE, author=None, author_type=None, state="APPROVED"),
            rec.review(3, INSIDE, author="copilot-pull-request-reviewer", author_type="Bot"),
            rec.review_comment(5, INSIDE, author="carol"),
        ],
    )
    s = _stats(store, bots=("Release-Helper",))
    assert s.counts.new_issues == 2  # the ghost's issue still counts
    assert s.counts.new_prs == 2
    people = {c.login: c for c in s.contributors}
    assert set(people) == {"alice", "Alice", "bob", "carol"}
    assert people["carol"].model_dump() == {
        "login": "carol",
        "total": 3,
        "issues": 0,
        "prs": 0,
        "comments": 0,
        "review_comments": 1,
        "reviews": 2,
        "merged_unknown_opened": 0,
    }
    assert people["bob"].comments == 1 and people["bob"].prs == 0
    assert s.contributors[0].login == "carol"
    reviewers = {r.login: r for r in s.reviewers}
    assert reviewers["carol"].states == {"APPROVED": 1, "COMMENTED": 1}
    assert reviewers["carol"].prs == [5]
    assert reviewers["Alice"].states == {"CHANGES_REQUESTED": 1}
    assert "dave" not in reviewers
    assert {b.login for b in s.bots} == {
        "dependabot[bot]",
        "release-helper",
        "github-actions[bot]",
        "copilot-pull-request-reviewer",
    }


def test_is_bot() -> None:
    assert is_bot("dependabot[bot]", "User", [])
    assert is_bot("copilot", "Bot", [])
    assert is_bot("Vllm-Bot", "User", ["vllm-bot"])
    assert not is_bot("alice", "User", ["vllm-bot"])
    assert not is_bot(None, None, ["ghost"])
    assert is_bot(None, "Bot", [])


def test_json_shape_and_empty_window(store: Store, rec: Records) -> None:
    seed(store, [rec.repo()])
    data = json.loads(_stats(store).model_dump_json())
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["window"] == {
        "kind": "day",
        "label": "2026-02-24",
        "timezone": "Asia/Shanghai",
        "cutoff": "11:31",
        "start": START,
        "end": END,
        "display": "2026-02-24 11:31 (UTC+8) ~ 2026-02-25 11:31 (UTC+8)",
    }
    assert set(data) == {
        "schema_version",
        "repository",
        "window",
        "data_as_of",
        "counts",
        "items",
        "merged_by_label",
        "directory_depth",
        "top_paths",
        "top_directories",
        "contributors",
        "reviewers",
        "bots",
        "unknown",
    }
    assert data["counts"] == dict.fromkeys(data["items"], 0)
    assert data["unknown"] == []  # an empty store is no git-only one: its zeros are known
    assert data["data_as_of"] is None


@pytest.mark.parametrize("depth", [1, 3])
def test_directory_depth_option(store: Store, rec: Records, depth: int) -> None:
    seed(store, [rec.repo(), rec.pr(1, BEFORE, merged_at=INSIDE), rec.file(1, "a/b/c/d/e.py")])
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, "acme/widgets")
        s = window_stats(conn, repo_id, W, repository="acme/widgets", directory_depth=depth)
    assert [d.path for d in s.top_directories] == ["/".join("abcd"[:depth])]
