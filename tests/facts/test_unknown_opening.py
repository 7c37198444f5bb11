"""When a PR was opened is unknown for a PR read from a git clone (created_at NULL): the facts
treat it as unknown, never as a time (issue #22)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from tests.factories import Records, seed
from tests.sources.test_git_source import synced_git_day
from tidings.common.config import RepoConfig
from tidings.facts.activity import activity_facts
from tidings.facts.coverage import unknown_counts
from tidings.facts.load.day import load_day
from tidings.facts.load.stats import item_lists, window_stats
from tidings.facts.load.window import load_window
from tidings.facts.related import related
from tidings.facts.stats import GIT_ONLY_UNKNOWN, GIT_UNKNOWN
from tidings.facts.windows import daily_window
from tidings.report.daily import build_daily
from tidings.store import Store

START, END = datetime(2026, 2, 24, tzinfo=UTC), datetime(2026, 2, 25, tzinfo=UTC)
NOW = datetime(2026, 9, 20, tzinfo=UTC)


def _mixed(store: Store, rec: Records) -> int:
    """An API issue and PR opened in the window, and two git PRs merged in it."""
    seed(
        store,
        [
            rec.repo(),
            rec.issue(1, "2026-02-24T01:00:00Z", author="ann"),
            rec.pr(2, "2026-02-24T02:00:00Z", author="ann", merged_at="2026-02-24T03:00:00Z"),
            rec.git_pr(3, merged="2026-02-24T04:00:00Z", author="Gil", body="Follows up #2."),
            rec.git_pr(4, merged="2026-02-24T05:00:00Z", author="Gil"),
            rec.git_pr(5, merged="2026-02-24T06:00:00Z", author="Hu"),
        ],
    )
    with store.engine.connect() as conn:
        return store.require_repo(conn, "acme/widgets")


def test_a_git_pr_is_merged_in_its_window_and_opened_in_none(store: Store, rec: Records) -> None:
    repo_id = _mixed(store, rec)
    window = daily_window(date(2026, 2, 24), RepoConfig(name="acme/widgets").tz)
    with store.engine.connect() as conn:
        lists = item_lists(conn, repo_id, window)
        data = load_window(conn, repo_id, "acme/widgets", window.start, window.end)
    assert lists.new_prs == [2] and lists.merged_prs == [2, 3, 4, 5]
    assert data.items[3].created_at is None and data.items[3].merged_at is not None
    # Some merged PRs came from git beside API data: only new PRs are unknown.
    assert unknown_counts(data, lists.merged_prs, api_data=True) == GIT_UNKNOWN


def test_authors_are_ranked_by_merges_when_openings_are_unknown(store: Store, rec: Records) -> None:
    repo_id = _mixed(store, rec)
    with store.engine.connect() as conn:
        data = load_window(conn, repo_id, "acme/widgets", START, END)
    # Opened in the window: ann's issue and PR; the git PRs opened nowhere known.
    assert activity_facts(data, []).top_authors == [("ann", 2)]
    by_merges = activity_facts(data, [], by_merged=True)
    assert by_merges.authors_by == "merged"
    assert by_merges.top_authors == [("Gil", 2), ("ann", 1), ("Hu", 1)]  # ties by name


def test_a_later_pr_naming_an_earlier_one_is_a_follow_up_without_open_times(
    store: Store, rec: Records
) -> None:
    """#3 (git, no open time) names #2: its higher number says it came later."""
    repo_id = _mixed(store, rec)
    with store.engine.connect() as conn:
        data = load_window(conn, repo_id, "acme/widgets", START, END)
    assert [(x.number, x.relation) for x in related(data, 2)] == [(3, "follow_up")]


def test_a_git_only_store_knows_nothing_but_merges_even_on_a_day_without_one(
    tmp_path: Path,
) -> None:
    store = synced_git_day(tmp_path)  # two merges on 2026-08-06
    try:
        repo = RepoConfig(name="acme/engine")
        with store.engine.connect() as conn:
            repo_id = store.require_repo(conn, repo.name)
            busy = load_day(conn, repo_id, repo, daily_window(date(2026, 8, 6), repo.tz))
            empty = load_day(conn, repo_id, repo, daily_window(date(2026, 8, 9), repo.tz))
        assert busy.unknown == empty.unknown == GIT_ONLY_UNKNOWN
        assert busy.participants == 1  # the clone's author, who merged both
        # The quiet day is not "nothing was opened": it says what git cannot know.
        for lang, says in (("zh", "无从得知"), ("en", "unknown")):
            report = build_daily(store, repo, date(2026, 8, 9), lang, now=NOW)
            assert report.quiet and says in report.summary.text.text
            assert report.stats.new_issues is None and report.stats.merged_prs == 0
            assert report.appendix.new_prs is None and report.appendix.merged_prs == []
    finally:
        store.close()


def test_stats_on_a_git_only_store_give_null_for_what_git_cannot_know(tmp_path: Path) -> None:
    store = synced_git_day(tmp_path)  # two merges on 2026-08-06 by one author
    try:
        repo = RepoConfig(name="acme/engine")
        with store.engine.connect() as conn:
            repo_id = store.require_repo(conn, repo.name)
            got = window_stats(conn, repo_id, daily_window(date(2026, 8, 6), repo.tz))
        assert got.unknown == list(GIT_ONLY_UNKNOWN)
        assert got.counts.model_dump() == {
            "new_issues": None,
            "closed_issues": None,
            "new_prs": None,
            "merged_prs": 2,
            "closed_unmerged_prs": None,
        }
        assert got.items.new_prs is None and got.items.merged_prs == [11, 12]
        # The clone's author merged both: active, not absent.
        [author] = got.contributors
        assert (author.merged_unknown_opened, author.prs, author.total) == (2, 0, 2)
    finally:
        store.close()


def test_stats_beside_api_data_give_null_only_for_new_prs(store: Store, rec: Records) -> None:
    repo_id = _mixed(store, rec)
    window = daily_window(date(2026, 2, 24), RepoConfig(name="acme/widgets").tz)
    with store.engine.connect() as conn:
        got = window_stats(conn, repo_id, window)
    assert got.unknown == ["new_prs"]
    assert got.counts.new_prs is None and got.counts.new_issues == 1
    assert got.items.new_issues == [1] and got.counts.merged_prs == 4
