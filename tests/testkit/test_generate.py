"""The synthetic week the benchmarks serve: deterministic, at scale, and self-consistent."""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

import pytest

from testkit.generate import (
    REPO,
    WEEK,
    generate_week,
    generate_weeks,
    pick_changes,
    quick_week,
)
from testkit.servers.github import FakeGitHub
from tidings.common.config import GitHubConfig
from tidings.common.records import (
    ClosingRefRecord,
    CommentRecord,
    ItemRecord,
    PRCommitRecord,
    PRFileRecord,
    Record,
    RepositoryRecord,
    ReviewCommentRecord,
    ReviewRecord,
    ReviewThreadRecord,
    SyncStateRecord,
)
from tidings.sources.github.sync import sync_repository
from tidings.store import Store
from tidings.store.rows import read_records

START = datetime(2026, 2, 16, tzinfo=UTC)
T = TypeVar("T", bound=Record)


@pytest.fixture(scope="module")
def week() -> list[Record]:
    return generate_week(0)


def _of(records: list[Record], cls: type[T]) -> list[T]:
    return [r for r in records if isinstance(r, cls)]


def test_same_seed_same_records_and_other_seed_differs(week: list[Record]) -> None:
    again = generate_week(0)
    assert [r.model_dump() for r in again] == [r.model_dump() for r in week]
    other = generate_week(1)
    assert [r.model_dump() for r in other] != [r.model_dump() for r in week]


def test_counts_are_near_the_vllm_week_targets(week: list[Record]) -> None:
    assert isinstance(week[0], RepositoryRecord) and week[0].full_name == REPO
    assert sum(isinstance(r, RepositoryRecord) for r in week) == 1
    items = _of(week, ItemRecord)
    prs = [i for i in items if i.kind == "pr"]
    assert len(prs) == 700
    assert len(items) - len(prs) == 200
    merged = [p for p in prs if p.merged]
    assert 270 <= len(merged) <= 330
    assert any(p.state == "closed" and not p.merged for p in prs)
    assert any(p.state == "open" and p.draft for p in prs)
    assert any(p.state == "open" and not p.draft for p in prs)
    threads = (
        len(_of(week, CommentRecord))
        + len(_of(week, ReviewRecord))
        + len(_of(week, ReviewCommentRecord))
    )
    assert 4750 <= threads <= 5250
    assert 2850 <= len(_of(week, PRFileRecord)) <= 3150


def test_fan_out_is_long_tailed(week: list[Record]) -> None:
    items = _of(week, ItemRecord)
    prs = [i for i in items if i.kind == "pr"]
    files = sorted((p.changed_files or 0 for p in prs), reverse=True)
    assert files[0] >= 300 and sum(1 for f in files if f >= 300) <= 5
    assert statistics.median(files) <= 3
    # The few big PRs hold a large share of all file rows.
    assert sum(f for f in files if f >= 300) >= 0.25 * sum(files)
    assert max(i.comments_count for i in items) >= 100
    assert 1 <= sum(1 for i in items if i.comments_count >= 100) <= 5
    reviews = Counter(r.number for r in _of(week, ReviewRecord))
    assert 1 <= sum(1 for n in reviews.values() if n >= 100) <= 5
    # Most PRs have few reviews; many have none.
    assert sum(1 for p in prs if reviews[p.number] == 0) > 100


def test_authors_include_bots_ghosts_and_real_associations(week: list[Record]) -> None:
    items = _of(week, ItemRecord)
    bots = [i for i in items if i.author_type == "Bot"]
    assert bots and all(i.author and i.author.endswith("[bot]") for i in bots)
    assert any(i.author == "dependabot[bot]" and "dependencies" in i.labels for i in bots)
    ghosts = [i for i in items if i.author is None]
    assert ghosts and all(i.author_type is None for i in ghosts)
    comments = _of(week, CommentRecord)
    assert any(c.author is None for c in comments)
    assert any(c.author_type == "Bot" for c in comments)
    assert {"MEMBER", "CONTRIBUTOR"} <= {i.author_association for i in items}
    labels = Counter(label for i in items for label in i.labels)
    assert len(labels) >= 15
    paths = {f.path for f in _of(week, PRFileRecord)}
    assert any(p.startswith("tests/") for p in paths)
    assert any(p.startswith("kernels/rocm/") for p in paths)
    assert "engine/core/scheduler.py" in paths


def check_consistent(records: list[Record], start: datetime = START) -> None:
    """Every count matches its rows, every reference resolves, every time is in order."""
    end = start + WEEK
    items = {i.number: i for i in _of(records, ItemRecord)}
    assert len(items) == len(_of(records, ItemRecord))
    comments = _of(records, CommentRecord)
    reviews = _of(records, ReviewRecord)
    inline = _of(records, ReviewCommentRecord)
    files = _of(records, PRFileRecord)
    refs = _of(records, ClosingRefRecord)
    for rows in (comments, reviews, inline):
        ids = [r.id for r in rows]
        assert ids == sorted(set(ids)), "ids unique and in export order"
    assert [(f.number, f.path) for f in files] == sorted({(f.number, f.path) for f in files})

    by_item: dict[int, list[datetime]] = defaultdict(list)
    comment_counts = Counter(c.number for c in comments)
    for c in comments:
        item = items[c.number]
        assert item.created_at <= c.created_at <= c.updated_at < end
        assert c.url and c.url.startswith(item.url or "")
        by_item[c.number].append(c.updated_at)
    review_by_id = {r.id: r for r in reviews}
    for r in reviews:
        item = items[r.number]
        assert item.kind == "pr"
        assert r.submitted_at is not None and item.created_at <= r.submitted_at < end
        if item.closed_at:
            assert r.submitted_at <= item.closed_at
        assert r.state in {"APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED"}
        by_item[r.number].append(r.submitted_at)
    inline_by_id = {c.id: c for c in inline}
    inline_counts = Counter(c.number for c in inline)
    per_review = Counter(c.review_id for c in inline)
    pr_paths = defaultdict(set)
    for f in files:
        pr_paths[f.number].add(f.path)
    for c in inline:
        item = items[c.number]
        assert item.kind == "pr"
        assert c.review_id in review_by_id and review_by_id[c.review_id].number == c.number
        review = review_by_id[c.review_id]
        assert c.author == review.author and c.commit_sha == review.commit_sha
        assert review.submitted_at and c.created_at <= review.submitted_at
        assert item.created_at <= c.created_at <= c.updated_at < end
        assert c.path in pr_paths[c.number]
        if c.in_reply_to_id is not None:
            parent = inline_by_id[c.in_reply_to_id]
            assert parent.number == c.number and parent.path == c.path
            assert parent.id < c.id and parent.in_reply_to_id is None
        by_item[c.number].append(c.updated_at)
    for r in reviews:
        assert r.comments_count == per_review[r.id]

    pr_files: dict[int, list[PRFileRecord]] = defaultdict(list)
    for f in files:
        pr_files[f.number].append(f)
        assert items[f.number].kind == "pr"
        if f.status == "added":
            assert f.deletions == 0
        if f.status == "removed":
            assert f.additions == 0
    for ref in refs:
        assert items[ref.number].kind == "pr"
        if ref.issue_repo == REPO:
            assert items[ref.issue_number].kind == "issue"

    for item in items.values():
        assert item.created_at <= item.updated_at < end
        assert item.updated_at >= start, "every item was touched this week"
        assert all(t <= item.updated_at for t in by_item[item.number])
        assert item.comments_count == comment_counts[item.number]
        assert (item.state == "closed") == (item.closed_at is not None)
        if item.closed_at:
            assert item.created_at < item.closed_at <= item.updated_at
        assert len(set(item.labels)) == len(item.labels)
        kind_path = "pull" if item.kind == "pr" else "issues"
        assert item.url == f"https://github.com/{REPO}/{kind_path}/{item.number}"
        if item.kind == "issue":
            assert item.merged is None and item.draft is None and item.changed_files is None
            assert item.review_comments_count is None and item.merged_by is None
            continue
        rows = pr_files[item.number]
        assert rows, "every PR changes at least one file"
        assert item.changed_files == len(rows)
        assert item.additions == sum(f.additions or 0 for f in rows)
        assert item.deletions == sum(f.deletions or 0 for f in rows)
        assert item.review_comments_count == inline_counts[item.number]
        assert item.review_comments_count == sum(
            r.comments_count for r in reviews if r.number == item.number
        )
        if item.merged:
            assert item.state == "closed" and item.merged_at == item.closed_at
            assert item.merged_by and item.merge_commit_sha and len(item.merge_commit_sha) == 40
        else:
            assert item.merged is False
            assert item.merged_at is None and item.merged_by is None
            assert item.merge_commit_sha is None
        assert item.head_sha and item.base_ref == "main" and item.commits and item.commits >= 1
        assert item.detail_updated_at == item.updated_at


def test_week_is_internally_consistent(week: list[Record]) -> None:
    check_consistent(week)


def test_quick_week_is_a_consistent_fifth() -> None:
    records = quick_week(3)
    check_consistent(records)
    items = _of(records, ItemRecord)
    assert sum(1 for i in items if i.kind == "pr") == 140
    assert 550 <= len(_of(records, PRFileRecord)) <= 650
    assert max(i.changed_files or 0 for i in items) >= 300


def test_other_start_and_tiny_sizes() -> None:
    start = datetime(2025, 12, 29, 12, 30, tzinfo=UTC)
    records = generate_week(7, prs=5, issues=3, comments_and_reviews=20, pr_files=9, start=start)
    check_consistent(records, start)
    assert sum(isinstance(r, ItemRecord) for r in records) == 8
    with pytest.raises(ValueError):
        generate_week(start=datetime(2026, 1, 1))  # naive


def test_times_follow_working_hours(week: list[Record]) -> None:
    hours = Counter(c.created_at.hour for c in _of(week, CommentRecord))
    quiet = sum(hours[h] for h in (11, 12, 13))
    busy = sum(hours[h] for h in (5, 6, 7))
    assert busy > 1.5 * quiet
    assert all(START - timedelta(days=60) <= i.created_at for i in _of(week, ItemRecord))


def test_pick_changes_is_a_deterministic_mix_of_distinct_items(week: list[Record]) -> None:
    changes = pick_changes(week, 10, seed=0)
    assert changes == pick_changes(week, 10, seed=0)
    assert changes != pick_changes(week, 10, seed=1)
    assert len(changes) == 10 and len({c.number for c in changes}) == 10
    items = {i.number: i for i in _of(week, ItemRecord)}
    actions = Counter(c.action for c in changes)
    assert actions["comment"] >= 4 and actions["label"] and actions["retitle"] and actions["close"]
    for change in changes:
        item = items[change.number]
        assert change.kind == item.kind
        if change.action == "comment":
            assert change.comment and change.author and not change.fields
        if change.action == "close":
            assert item.state == "open" and change.fields["state"] == "closed"
        if change.action == "label":
            assert change.fields["labels"] != item.labels
        if change.action == "retitle":
            assert change.fields["title"] != item.title


def test_ids_are_realistic_by_default_and_can_stay_below_2_31(week: list[Record]) -> None:
    assert min(r.id for r in _of(week, ReviewRecord)) > 2**31
    assert min(c.id for c in _of(week, CommentRecord)) > 2**31
    small = generate_week(0, int32_ids=True)
    for cls in (CommentRecord, ReviewRecord, ReviewCommentRecord):
        assert max(r.id for r in _of(small, cls)) < 2**31  # type: ignore[attr-defined]
    check_consistent(small)


def test_a_sync_of_a_generated_week_reproduces_it(tmp_path: Path) -> None:
    # Review ids above 2**31 only fit GraphQL's `fullDatabaseId`: this also checks that path.
    records = generate_week(5, prs=30, issues=10, comments_and_reviews=400, pr_files=200)
    with FakeGitHub(records, token="t") as gh:
        store = Store.open(f"sqlite:///{tmp_path / 'week.db'}")
        github = GitHubConfig(api_url=gh.api_url, graphql_url=gh.graphql_url)
        sync_repository(store, REPO, github=github, token="t")
        with store.engine.connect() as conn:
            got = list(read_records(conn, store.require_repo(conn, REPO)))
        store.engine.dispose()
    # The threads' state and commits the PR details add are not in the generated records.
    got = [
        r for r in got if not isinstance(r, SyncStateRecord | ReviewThreadRecord | PRCommitRecord)
    ]
    assert [_plain(r) for r in got] == [_plain(r) for r in records]


def test_weeks_follow_each_other_without_sharing_a_number_or_an_id() -> None:
    start = datetime(2026, 2, 22, 16, tzinfo=UTC)  # Monday 00:00 in Asia/Shanghai
    weeks = list(generate_weeks(3, merged=12, start=start))
    assert len(weeks) == 3
    seen: dict[type, set[int]] = defaultdict(set)
    last_number = 0
    for k, records in enumerate(weeks):
        check_consistent(records, start + k * WEEK)
        items = _of(records, ItemRecord)
        merged = [i for i in items if i.merged]
        assert len(merged) == 12  # exactly the asked number, all merged inside week k
        assert all(start + k * WEEK <= i.merged_at < start + (k + 1) * WEEK for i in merged)  # type: ignore[operator]
        assert min(i.number for i in items) > last_number
        last_number = max(i.number for i in items)
        for cls in (CommentRecord, ReviewRecord, ReviewCommentRecord):
            ids = {r.id for r in _of(records, cls)}  # type: ignore[attr-defined]
            assert not ids & seen[cls]
            seen[cls] |= ids
    assert [r.model_dump() for r in weeks[1]] == [
        r.model_dump() for r in list(generate_weeks(3, merged=12, start=start))[1]
    ]


def test_the_default_of_many_weeks_is_the_default_week(week: list[Record]) -> None:
    [first] = list(generate_weeks(1))
    assert [r.model_dump() for r in first] == [r.model_dump() for r in week]


def _plain(record: Record) -> dict[str, object]:
    data = record.model_dump()
    for name in ("detail_updated_at", "checked_updated_at", "patch_sha"):
        data.pop(name, None)
    return data
