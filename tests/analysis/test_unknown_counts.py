"""What a git clone cannot know reaches the model as unknown (null), never as 0 (#22).

A git history records merges, not when a PR was opened: the report prints "—" for new PRs
on such a day, and the model's summary facts carry null there, so it cannot write "0 new PRs"
(and the guard drops it if it does)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from testkit.servers.openai import FakeOpenAI, data_of
from tests.analysis.test_analysis import make_analyst
from tests.sources.test_git_source import synced_git_day
from tidings.common.config import RepoConfig
from tidings.report.daily import build_daily

NOW = datetime(2026, 9, 20, tzinfo=UTC)


def test_a_git_only_day_gives_the_model_null_for_what_git_cannot_know(tmp_path: Path) -> None:
    store = synced_git_day(tmp_path)
    try:
        repo = RepoConfig(name="acme/engine")
        with FakeOpenAI() as llm:

            def zero(body: dict, answer: dict) -> dict:
                if "text" in answer:  # a model that trusts a 0 it was given
                    answer["text"] += " 0 new PRs were opened."
                return answer

            llm.transform = zero
            report = build_daily(
                store, repo, date(2026, 8, 6), "en", now=NOW, analysis=make_analyst(llm, store)
            )
            summaries = [
                data_of(r.body)["facts"]
                for r in llm.requests
                if (data_of(r.body) or {}).get("task") == "summary"
            ]
            activity = [
                data_of(r.body)["facts"]
                for r in llm.requests
                if (data_of(r.body) or {}).get("task") == "activity"
            ]
    finally:
        store.close()
    assert report.coverage is not None and "new_prs" in report.coverage.unknown
    facts = summaries[0]  # the first ask (the guard objected once, so asked again)
    assert len(summaries) == 2
    assert facts["stats"]["new_prs"] is None and facts["stats"]["merged_prs"] == 2
    assert "new_prs" not in facts["mean_of_previous_7_windows"]
    assert report.summary.text.by == "llm"
    assert "0 new PRs" not in report.summary.text.text
    # Who reviewed or commented is unknown on a clone, not nobody; authors rank by merges.
    [people] = activity
    assert people["top_reviewers"] is None and people["top_commenters"] is None
    assert people["human_participants"] is None and people["human_authors_of_merged_prs"] == 1
    assert people["top_authors_ranked_by"] == "prs_merged"
