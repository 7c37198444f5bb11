"""The daily report's facts and deterministic prose, on small hand-built windows."""

from __future__ import annotations

from datetime import date

import pytest

from tests.factories import Records, seed
from tidings.common.config import RepoConfig, TopicConfig, parse_config
from tidings.report.daily import build_daily
from tidings.store import Store

REPO = "acme/widgets"
# 2026-02-24 in Asia/Shanghai with a 09:00 cut-off: [2026-02-24T01:00Z, 2026-02-25T01:00Z)
DAY = date(2026, 2, 24)


def _config(**extra: object) -> RepoConfig:
    base = {
        "name": REPO,
        "timezone": "Asia/Shanghai",
        "cutoff": "09:00",
        "core_paths": ["widgets/core/**"],
        "bots": ["helper-robot"],
        "topics": [
            TopicConfig(
                title="AMD/ROCm",
                labels=["rocm"],
                title_tags=["ROCm"],
                keywords=["MI300X"],
                paths=["widgets/platforms/rocm.py"],
            )
        ],
    }
    base.update(extra)
    return RepoConfig(**base)  # type: ignore[arg-type]


@pytest.fixture
def rec() -> Records:
    return Records()


def _numbers(refs: list) -> list[int]:  # type: ignore[type-arg]
    return [r.item.number if hasattr(r, "item") else r.number for r in refs]


def test_topic_track_matches_each_kind_of_rule_and_says_why(sqlite_store: Store, rec: Records):
    seed(
        sqlite_store,
        [
            rec.repo(REPO),
            rec.issue(1, "2026-02-24T02:00:00Z", labels=["rocm"]),
            rec.pr(2, "2026-02-24T03:00:00Z", title="[ROCm] Tune attention"),
            rec.issue(3, "2026-02-24T04:00:00Z", body="Fails on an MI300X box"),
            rec.pr(4, "2026-02-24T05:00:00Z", title="Refactor platform"),
            rec.file(4, "widgets/platforms/rocm.py"),
            # Near misses: a longer word containing the keyword, a tag only mid-word.
            rec.issue(5, "2026-02-24T06:00:00Z", body="runs on MI300XL hardware"),
            rec.issue(6, "2026-02-24T06:30:00Z", title="Unrelated ROCmish thing"),
            # Outside the window: created the day before and untouched since.
            rec.issue(7, "2026-02-23T02:00:00Z", labels=["rocm"]),
        ],
    )
    report = build_daily(sqlite_store, _config(), DAY, "en")
    (track,) = report.topics
    found = {x.item.number: x.reasons for x in track.items}
    assert found == {
        1: ["label:rocm"],
        2: ["tag:[ROCm]"],
        3: ["keyword:MI300X"],
        4: ["path:widgets/platforms/rocm.py"],
    }
    # Most relevant first: named (label, title tag; newest first among them), then a
    # keyword in the body, then a path alone.
    assert [x.item.number for x in track.items] == [2, 1, 3, 4]
    # What happened in the track, not how the matcher found it (#12).
    assert track.analysis.text == (
        "Items related to AMD/ROCm: 4. Merged PRs: 0, opened PRs: 2; "
        "opened issues: 2, closed issues: 0."
    )


def test_hot_discussion_excludes_bots_ranks_by_people_and_quotes_each(
    sqlite_store: Store, rec: Records
):
    seed(
        sqlite_store,
        [
            rec.repo(REPO),
            rec.issue(10, "2026-02-20T00:00:00Z", author="uma", author_association="NONE"),
            rec.comment(
                10,
                "2026-02-24T02:00:00Z",
                author="uma",
                author_association="NONE",
                body="The new default doubled our memory use.",
            ),
            rec.comment(
                10,
                "2026-02-24T03:00:00Z",
                author="mo",
                author_association="MEMBER",
                body="It is intended; set --legacy-mode to keep the old behaviour.",
            ),
            rec.comment(
                10,
                "2026-02-24T04:00:00Z",
                author="cy",
                author_association="CONTRIBUTOR",
                body="Same regression on our cluster.",
            ),
            rec.comment(
                10, "2026-02-24T05:00:00Z", author="mo", author_association="MEMBER", body="ok"
            ),
            # A busy bot thread: many comments, one human, must not rank.
            rec.issue(11, "2026-02-20T00:00:00Z"),
            *[
                rec.comment(
                    11,
                    f"2026-02-24T0{h}:00:00Z",
                    author="ci[bot]",
                    author_type="Bot",
                    body="build failed",
                )
                for h in range(2, 8)
            ],
            *[
                rec.comment(11, f"2026-02-24T0{h}:30:00Z", author="helper-robot", body="retrying")
                for h in range(2, 8)
            ],
        ],
    )
    report = build_daily(sqlite_store, _config(), DAY, "en")
    assert [d.item.number for d in report.hot_discussions] == [10]
    (hot,) = report.hot_discussions
    assert hot.participants == 3 and hot.comments_in_window == 4
    views = {(v.login, v.role, v.comments) for v in hot.viewpoints}
    assert views == {("uma", "user", 1), ("mo", "maintainer", 2), ("cy", "contributor", 1)}
    # The item's author speaks first; a participant is quoted by their most substantive words.
    assert hot.viewpoints[0].login == "uma"
    mo = next(v for v in hot.viewpoints if v.login == "mo")
    assert mo.excerpt.text.startswith("It is intended")
    assert "Maintainers (mo)" in hot.contention.text


def test_key_changes_rank_by_explained_score_and_weights_are_configurable(
    sqlite_store: Store, rec: Records
):
    seed(
        sqlite_store,
        [
            rec.repo(REPO),
            rec.pr(
                20,
                "2026-02-23T00:00:00Z",
                merged_at="2026-02-24T02:00:00Z",
                additions=1000,
                deletions=200,
                changed_files=1,
                labels=["docs"],
            ),
            rec.file(20, "docs/guide.md", 1000, 200),
            rec.pr(
                21,
                "2026-02-23T00:00:00Z",
                merged_at="2026-02-24T03:00:00Z",
                additions=30,
                deletions=2,
                changed_files=1,
                labels=["breaking"],
            ),
            rec.file(21, "widgets/core/scheduler.py", 30, 2),
            rec.issue(5, "2026-02-20T00:00:00Z"),
            rec.closing_ref(21, 5),
        ],
    )
    report = build_daily(sqlite_store, _config(), DAY, "en")
    by_number = {k.item.number: k for k in report.key_changes}
    assert by_number[21].score_parts == {"size": 5.04, "core_path": 3.0, "linked_issues": 1.0}
    assert by_number[20].score_parts == {"size": 10.23}
    assert [k.item.number for k in report.key_changes] == [20, 21]

    heavier = _config(importance={"labels": {"breaking": 5}})
    report = build_daily(sqlite_store, heavier, DAY, "en")
    assert [k.item.number for k in report.key_changes] == [21, 20]
    assert report.key_changes[0].score_parts["label:breaking"] == 5


def test_watchlist_rules(sqlite_store: Store, rec: Records):
    seed(
        sqlite_store,
        [
            rec.repo(REPO),
            rec.issue(30, "2026-02-24T02:00:00Z", title="Segfault in the sampler"),
            rec.issue(31, "2026-02-24T02:00:00Z", title="Throughput regression in 0.9"),
            # Engaged, no maintainer anywhere in the thread.
            rec.issue(32, "2026-02-24T02:00:00Z", title="Feature idea"),
            *[rec.comment(32, "2026-02-24T03:00:00Z", author=u) for u in ("a1", "a2", "a3")],
            # Engaged, but a maintainer answered earlier (before the window): not unanswered.
            rec.issue(33, "2026-01-01T00:00:00Z", title="Old question"),
            rec.comment(33, "2026-01-02T00:00:00Z", author="mo", author_association="MEMBER"),
            *[rec.comment(33, "2026-02-24T03:00:00Z", author=u) for u in ("b1", "b2", "b3")],
            # A closed crash is not on the watch list.
            rec.issue(
                34, "2026-02-24T02:00:00Z", title="crash on start", closed_at="2026-02-24T05:00:00Z"
            ),
        ],
    )
    report = build_daily(sqlite_store, _config(), DAY, "en")
    reasons = {w.item.number: w.reasons for w in report.watchlist}
    assert reasons == {
        30: ["crash"],
        31: ["regression"],
        32: ["unanswered"],
        33: ["long_open_active"],
    }


def test_quiet_window_is_one_line(sqlite_store: Store, rec: Records):
    from tidings.render.markdown import render_daily_markdown

    seed(
        sqlite_store,
        [
            rec.repo(REPO),
            rec.issue(40, "2026-02-20T00:00:00Z"),
            rec.comment(40, "2026-02-24T03:00:00Z"),
        ],
    )
    report = build_daily(sqlite_store, _config(), DAY, "en")
    assert report.quiet
    assert report.summary.text.text == (
        "A quiet window: no issues or PRs were opened, closed or merged "
        "(comments and reviews in the window: 1)."
    )
    text = render_daily_markdown(report)
    assert "Hot discussions" not in text and "AMD/ROCm" not in text
    assert "Appendix" not in text and "Activity" not in text
    assert text.count("\n## ") == 1  # the summary heading only


def test_summary_compares_with_the_previous_seven_windows(sqlite_store: Store, rec: Records):
    records = [rec.repo(REPO)]
    # One new issue on each of the 7 previous days, four today.
    for k in range(1, 8):
        records.append(rec.issue(100 + k, f"2026-02-{24 - k:02d}T02:00:00Z"))
    for k in range(4):
        records.append(rec.issue(200 + k, "2026-02-24T02:00:00Z"))
    seed(sqlite_store, records)
    report = build_daily(sqlite_store, _config(), DAY, "en")
    trend = next(x for x in report.summary.trends if x.metric == "new_issues")
    assert (trend.value, trend.baseline, trend.change) == (4, 1.0, 3.0)
    assert report.summary.level == "very_high"
    assert "far above the mean of the previous 7 windows" in report.summary.text.text


def test_config_round_trip_of_topics():
    cfg = parse_config(
        '[[repos]]\nname = "acme/widgets"\n[[repos.topics]]\ntitle = "AMD/ROCm"\n'
        'title_tags = ["ROCm", "[AMD]"]\n'
    )
    assert cfg.repos[0].topics[0].title_tags == ["ROCm", "[AMD]"]


HOSTILE = (
    "# Heading\n- list [x](javascript:alert(1)) ![img](http://evil.example/p.png) "
    "<script>alert(1)</script> <img src=x onerror=alert(1)> | a | b |\n|---|---|\n"
    "@everyone #123 www.evil.example http://evil.example ```fence``` <!-- c --> **bold**"
)


def test_hostile_text_cannot_change_structure_in_any_section(sqlite_store: Store, rec: Records):
    """Hostile titles, bodies, comments and labels in every section stay inert text."""
    from tests import report_checks
    from tidings.render.markdown import render_daily_markdown

    seed(
        sqlite_store,
        [
            rec.repo(REPO),
            # A crash issue on the ROCm track (topic + watch list + hot discussion + appendix).
            rec.issue(
                1,
                "2026-02-24T02:00:00Z",
                title=f"[ROCm] crash {HOSTILE}",
                body=HOSTILE,
                labels=["rocm", "<b>x</b>"],
            ),
            *[
                rec.comment(1, "2026-02-24T03:00:00Z", author=u, body=HOSTILE)
                for u in ("u1", "u2", "u3")
            ],
            # A merged PR (key change + trends), closing the issue.
            rec.pr(
                2,
                "2026-02-24T02:00:00Z",
                merged_at="2026-02-24T05:00:00Z",
                title=f"[ROCm] {HOSTILE}",
                body=HOSTILE,
                additions=5,
                deletions=1,
                changed_files=1,
                labels=["rocm"],
            ),
            rec.file(2, "widgets/platforms/rocm.py", 5, 1),
            rec.closing_ref(2, 1),
        ],
    )
    for lang in ("zh", "en"):
        report = build_daily(sqlite_store, _config(), DAY, lang)  # type: ignore[arg-type]
        assert report.topics[0].items and report.hot_discussions and report.key_changes
        assert report.watchlist and report.trends
        text = render_daily_markdown(report)
        expected = [h for h in report_checks.headings(text) if h[0] in ("h1", "h2")]
        assert len(expected) == 9  # title + 8 sections, none injected
        report_checks.check_structure(
            text, repo=REPO, numbers={1, 2}, logins={"alice", "u1", "u2", "u3"}
        )


def test_the_words_on_an_item_found_deleted_leave_the_facts(store: Store, rec: Records):
    """Comments and reviews of a deleted issue or PR count nowhere: not as a discussion, not
    for commenters or reviewers, not in the repository's totals (issue #10)."""
    from tidings.facts.load.inventory import repository_summaries

    live = [
        rec.issue(10, "2026-02-20T00:00:00Z", author="uma"),
        rec.comment(10, "2026-02-24T02:00:00Z", author="uma", body="Still broken for me."),
        rec.comment(10, "2026-02-24T03:00:00Z", author="mo", body="Fixed on main."),
    ]
    gone = [
        rec.comment(20, f"2026-02-24T0{h}:00:00Z", author=who, body="spam?")
        for h, who in ((2, "sam"), (3, "sue"), (4, "sam"), (5, "sue"))
    ]
    seed(
        store,
        [
            rec.repo(REPO),
            *live,
            rec.issue(20, "2026-02-20T00:00:00Z", author="sam", deleted=True),
            *gone,
            rec.pr(21, "2026-02-20T00:00:00Z", deleted=True),
            rec.review(21, "2026-02-24T06:00:00Z", author="rev"),
        ],
    )
    report = build_daily(store, _config(), DAY, "en")
    assert [d.item.number for d in report.hot_discussions] == [10]
    commenters = {c.login for c in report.activity.top_commenters}
    assert commenters == {"uma", "mo"}
    assert report.activity.top_reviewers == []
    with store.begin() as conn:
        (summary,) = repository_summaries(conn)
    assert (summary.issues, summary.prs, summary.comments, summary.reviews) == (1, 0, 2, 0)
