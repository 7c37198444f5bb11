"""Issue 21, part 2: the related items a model may cite, how a thread ended, a PR thread's
review record and last week's figures, each checked in what the model was sent (the loopback
OpenAI server's requests) and in what the guard then kept of its answer."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from testkit.servers.openai import FakeOpenAI, data_of
from tests.analysis.test_analysis import make_analyst
from tests.factories import Records, seed
from tidings.analysis.guard import Facts
from tidings.common.config import RepoConfig
from tidings.report import model as m
from tidings.report.daily import build_daily
from tidings.report.weekly import build_weekly
from tidings.store import Store

REPO = "acme/widgets"
DAY = date(2026, 2, 24)  # a UTC day: [2026-02-24T00:00Z, 2026-02-25T00:00Z)
CONFIG = RepoConfig(name=REPO, timezone="UTC")


@pytest.fixture
def rec() -> Records:
    return Records()


@pytest.fixture
def llm():  # type: ignore[no-untyped-def]
    with FakeOpenAI() as fake:
        yield fake


def sent(llm: FakeOpenAI, task: str) -> list[dict[str, Any]]:
    """The cards (map tasks) or the facts (sections) the model was sent for `task`."""
    out = []
    for q in llm.requests:
        data = data_of(q.body)
        if data is not None and data.get("task") == task:
            out += data["items"] if "items" in data else [data["facts"]]
    return out


def card(llm: FakeOpenAI, task: str, number: int) -> dict[str, Any]:
    return next(c for c in sent(llm, task) if c["number"] == number)


def answering(**texts: dict[int, str]) -> Callable[[dict[str, Any], dict[str, Any]], Any]:
    """A model transform that sets answer fields per item: answering(summary={20: "..."})."""

    def transform(body: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        for item in answer.get("items", []):
            for name, by_number in texts.items():
                if item.get("number") in by_number and name in item:
                    item[name] = by_number[item["number"]]
        return answer

    return transform


def daily(store: Store, llm: FakeOpenAI) -> m.DailyReport:
    return build_daily(store, CONFIG, DAY, "en", analysis=make_analyst(llm, store))


def key_change(report: m.DailyReport, number: int) -> m.KeyChange:
    return next(k for k in report.key_changes if k.item.number == number)


# -- related items on PR cards -----------------------------------------------------------------


def _reverts(rec: Records) -> list[Any]:
    return [
        rec.repo(REPO),
        # Merged weeks before the window: outside it, in the store.
        rec.pr(10, "2026-01-05T00:00:00Z", title="Speed up the scheduler",
               merged_at="2026-01-10T00:00:00Z", merge_commit_sha="abc1234" + "0" * 33),
        rec.pr(11, "2026-01-06T00:00:00Z", title="Cache the tokenizer",
               merged_at="2026-01-11T00:00:00Z", merge_commit_sha="fedcba98" + "1" * 32),
        # Reverts of the day: one names its target, one quotes only the reverted commit.
        rec.pr(20, "2026-02-24T02:00:00Z", title='Revert "Speed up the scheduler"',
               body="Reverts acme/widgets#10", merged_at="2026-02-24T05:00:00Z"),
        rec.pr(21, "2026-02-24T03:00:00Z", title="Undo the tokenizer cache",
               body="This reverts commit fedcba98.", merged_at="2026-02-24T06:00:00Z"),
        rec.file(20, "widgets/scheduler.py", 3, 40),
        rec.file(21, "widgets/tokenizer.py", 2, 30),
    ]  # fmt: skip


def test_a_reverts_card_names_its_target_with_title_and_state(
    sqlite_store: Store, rec: Records, llm: FakeOpenAI
) -> None:
    seed(sqlite_store, _reverts(rec))
    llm.transform = answering(
        summary={20: "Model: reverts #10.", 21: "Model: undoes #11 by @alice."},
        why={20: "Model: the speed-up did not hold.", 21: "Model: the cache did not hold."},
    )
    report = daily(sqlite_store, llm)
    # The target, outside the window, reaches the card with its title and state, whether the
    # revert names it (#20) or the store links it by the reverted commit (#21).
    assert card(llm, "pr_cards", 20)["related"] == [
        {
            "number": 10,
            "kind": "pr",
            "title": "Speed up the scheduler",
            "state": "merged",
            "relation": "reverts",
        }
    ]
    assert [
        (r["number"], r["relation"], r["title"]) for r in card(llm, "pr_cards", 21)["related"]
    ] == [(11, "reverts", "Cache the tokenizer")]
    # The model may cite it: the guard keeps the sentence.
    assert key_change(report, 20).what_changed.text == (
        "Model: reverts #10. Model: the speed-up did not hold."
    )
    assert key_change(report, 21).what_changed.text == (
        "Model: undoes #11 by @alice. Model: the cache did not hold."
    )
    assert report.provenance.llm is not None and report.provenance.llm.dropped_sentences == 0


def test_a_number_the_body_names_is_related_and_citable_only_if_the_store_holds_it(
    sqlite_store: Store, rec: Records, llm: FakeOpenAI
) -> None:
    body = (
        "Follow-up to #5; see also #999 and other/repo#6.\n\n"
        "```\nfor i in range(3):  # 7 retries, #7\n```"
    )
    seed(
        sqlite_store,
        [
            rec.repo(REPO),
            rec.issue(5, "2026-01-01T00:00:00Z", title="Scheduler stalls under load"),
            rec.issue(6, "2026-01-01T00:00:00Z", title="Not this repository's #6"),
            rec.issue(7, "2026-01-01T00:00:00Z", title="Named only inside code"),
            rec.pr(30, "2026-02-24T04:00:00Z", title="Tidy the scheduler loop", body=body,
                   merged_at="2026-02-24T07:00:00Z"),
            rec.file(30, "widgets/scheduler.py", 12, 4),
        ],
    )  # fmt: skip
    llm.transform = answering(
        summary={30: "Model: follows up #5. Model: also fixes #999."},
        why={30: "Model: #6 and #7 gain from it."},
    )
    report = daily(sqlite_store, llm)
    # #5 is an issue the store holds: related, with its title and state. #999 names nothing
    # the store holds; #6 is another repository's, #7 sits in code: none of them is related.
    assert card(llm, "pr_cards", 30)["related"] == [
        {
            "number": 5,
            "kind": "issue",
            "title": "Scheduler stalls under load",
            "state": "open",
            "relation": "mentions",
        }
    ]
    change = key_change(report, 30)
    assert change.what_changed.text == "Model: follows up #5."  # #999 stays uncitable
    assert change.what_changed.by == "llm"
    # Neither is #6 nor #7: the why-it-matters sentence citing them was dropped whole.
    assert report.provenance.llm is not None and report.provenance.llm.dropped_sentences >= 2


# -- hot cards: how the thread ended, the review record ------------------------------------------


def _argued(rec: Records, number: int, people: tuple[str, ...]) -> list[Any]:
    """Comments enough to make `number` a hot discussion of the day."""
    return [
        rec.comment(number, f"2026-02-24T0{k + 1}:00:00Z", author=who, body=f"{who} disagrees.")
        for k, who in enumerate(people)
    ]


def test_a_hot_issue_card_says_which_pr_closed_it(
    sqlite_store: Store, rec: Records, llm: FakeOpenAI
) -> None:
    seed(
        sqlite_store,
        [
            rec.repo(REPO),
            rec.issue(40, "2026-02-20T00:00:00Z", title="Crash on empty prompt",
                      closed_at="2026-02-24T12:00:30Z", state_reason="completed"),
            rec.pr(41, "2026-02-23T00:00:00Z", title="Guard the empty prompt", body="Fixes #40",
                   merged_at="2026-02-24T12:00:00Z", merged_by="dave"),
            # Closed long before any merge: by hand, no PR closed it.
            rec.pr(42, "2026-02-10T00:00:00Z", title="Reject empty prompts early",
                   closed_at="2026-02-11T00:00:00Z"),
            rec.closing_ref(41, 40),
            rec.closing_ref(42, 40),
            *_argued(rec, 40, ("bob", "carol", "erin")),
        ],
    )  # fmt: skip
    llm.transform = answering(status={40: "Model: #41 by @dave closed it"})
    report = daily(sqlite_store, llm)
    hot = card(llm, "hot_cards", 40)
    assert "linked" not in hot  # its bare numbers gave way to entries with title and state
    assert {(r["number"], r["relation"], r["state"], r["title"]) for r in hot["related"]} == {
        (41, "closed_by", "merged", "Guard the empty prompt"),
        (42, "closed_by", "closed", "Reject empty prompts early"),
    }
    assert hot["ending"] == {
        "state": "closed",
        "at": "2026-02-24T12:00Z",
        "reason": "completed",
        "closed_by_pr": {
            "number": 41,
            "kind": "pr",
            "title": "Guard the empty prompt",
            "state": "merged",
            "merged_by": "dave",
        },
    }
    # The closing PR and whoever merged it are the card's facts: the model may cite both.
    assert hot["review_comments"] == []  # an issue has no review record
    thread = next(d for d in report.hot_discussions if d.item.number == 40)
    assert thread.status.by == "llm" and thread.status.text == "Model: #41 by @dave closed it"


def test_a_hot_pr_card_carries_its_review_record(
    sqlite_store: Store, rec: Records, llm: FakeOpenAI
) -> None:
    seed(
        sqlite_store,
        [
            rec.repo(REPO),
            rec.pr(50, "2026-02-22T00:00:00Z", title="Lock-free queue", author="alice",
                   merged_at="2026-02-24T20:00:00Z", merged_by="dave"),
            # The day before the window: changes requested, with an inline comment.
            rec.review(50, "2026-02-23T10:00:00Z", id=7001, author="carol",
                       author_association="MEMBER", state="CHANGES_REQUESTED", body=""),
            rec.review_comment(50, "2026-02-23T09:59:00Z", id=7002, author="carol",
                               author_association="MEMBER", review_id=7001,
                               path="widgets/queue.py", line=42, original_line=42,
                               body="This drops the lock before the pop."),
            rec.review(50, "2026-02-23T11:00:00Z", id=7003, author="lint[bot]",
                       author_type="Bot", state="COMMENTED", body="Style: 3 warnings."),
            rec.review(50, "2026-02-23T12:00:00Z", id=7004, author="frank", state="COMMENTED",
                       body=""),  # an empty envelope: nothing to show
            *_argued(rec, 50, ("alice", "bob", "erin")),
        ],
    )  # fmt: skip
    llm.transform = answering(
        status={50: "Model: @carol requested changes on widgets/queue.py and @dave merged it"}
    )
    report = daily(sqlite_store, llm)
    hot = card(llm, "hot_cards", 50)
    assert hot["review_comments"] == [
        {
            "login": "carol",
            "role": "maintainer",
            "kind": "inline",
            "at": "2026-02-23",
            "path": "widgets/queue.py",
            "line": 42,
            "reply": False,
            "text": "This drops the lock before the pop.",
        },
        {
            "login": "carol",
            "role": "maintainer",
            "kind": "review",
            "at": "2026-02-23",
            "state": "CHANGES_REQUESTED",
            "text": "",
        },
    ]
    assert hot["ending"] == {"state": "merged", "at": "2026-02-24T20:00Z", "merged_by": "dave"}
    # carol took no part in the day's comments, yet her review is the card's: citable.
    assert "carol" not in {p["login"] for p in hot["participants"]}
    thread = next(d for d in report.hot_discussions if d.item.number == 50)
    assert thread.status.by == "llm"
    assert thread.status.text == (
        "Model: @carol requested changes on widgets/queue.py and @dave merged it"
    )


# -- the weekly: last week's risk counts and themes ------------------------------------------


def _weeks(rec: Records) -> list[Any]:
    """2026-W08 (last week): two rocm PRs and two reverts; W09: three rocm PRs, one revert."""
    return [
        rec.repo(REPO),
        rec.pr(101, "2026-02-16T00:00:00Z", labels=["rocm"], merged_at="2026-02-17T00:00:00Z"),
        rec.pr(102, "2026-02-16T00:00:00Z", labels=["rocm"], merged_at="2026-02-18T00:00:00Z"),
        rec.pr(103, "2026-02-16T00:00:00Z", title='Revert "Tune A"',
               merged_at="2026-02-19T00:00:00Z"),
        rec.pr(104, "2026-02-16T00:00:00Z", title='Revert "Tune B"',
               merged_at="2026-02-20T00:00:00Z"),
        rec.pr(201, "2026-02-23T00:00:00Z", labels=["rocm"], merged_at="2026-02-24T00:00:00Z"),
        rec.pr(202, "2026-02-23T00:00:00Z", labels=["rocm"], merged_at="2026-02-25T00:00:00Z"),
        rec.pr(203, "2026-02-23T00:00:00Z", labels=["rocm"], merged_at="2026-02-26T00:00:00Z"),
        rec.pr(204, "2026-02-23T00:00:00Z", title='Revert "Tune C"',
               merged_at="2026-02-26T00:00:00Z"),
        *[rec.file(n, "widgets/rocm/attn.py", 5, 1) for n in (101, 102, 201, 202, 203)],
    ]  # fmt: skip


def test_weekly_sections_carry_last_weeks_risk_counts_and_themes(
    sqlite_store: Store, rec: Records, llm: FakeOpenAI
) -> None:
    seed(sqlite_store, _weeks(rec))
    build_weekly(sqlite_store, CONFIG, 2026, 9, "en", analysis=make_analyst(llm, sqlite_store))
    (exec_facts,) = sent(llm, "weekly_exec")
    assert exec_facts["risk_tags_fired"] == {"revert": 1}
    assert exec_facts["previous_week_risk_tags_fired"] == {"revert": 2}
    last_week = [
        {"kind": "label", "name": "rocm", "merged_prs": 2},
        {"kind": "path", "name": ".", "merged_prs": 2},
    ]
    (themes,) = sent(llm, "weekly_themes")
    assert themes["previous_week_themes"] == last_week
    rocm = next(t for t in themes["themes"] if t["name"] == "rocm")
    assert (rocm["merged_prs"], rocm["previous_week_merged_prs"]) == (3, 2)
    (highlights,) = sent(llm, "weekly_highlights")
    assert highlights["previous_week_themes"] == last_week
    # Under `previous_week_` keys, last week's counts are earlier figures to the guard, this
    # week's are its own.
    facts = Facts.of(themes, numbers=set(), logins=set())
    assert 2.0 in facts.references["merged_prs"] and 3.0 in facts.quantities["merged_prs"]
    assert 2.0 not in facts.quantities["merged_prs"]
