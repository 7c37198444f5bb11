"""The 2026-W04..W06 weeklies of vllm-ascend, as a git sync of the real history gives them:
their risk observations hold no formatting sweep, and a re-land says what it brings back.

In those weeks 12 "[Lint]Style: Convert `vllm-ascend/` to ruff format" PRs were merged; before
the rules netted formatting out (facts/formatting.py) they took 8 of the 15 risk-observation
slots. The shared history has every PR's files and counts but no diff text, so the hunks of
the PRs merged in those weeks are committed (tests/data/risk_weeks, built from a clone by
scripts/build_risk_weeks.py) and written into a store rendered from the shared records, as a
git sync would have stored them.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from testkit.gitlog import ASCEND, REPO, load_records, render_log
from tests.shared import shared_or_skip
from tidings.common.config import RepoConfig, parse_config
from tidings.report.weekly import build_weekly
from tidings.report.weekly_model import WeeklyReport
from tidings.sources.git import ingest, parse_log
from tidings.store import Store, schema

HUNKS = Path(__file__).resolve().parents[1] / "data" / "risk_weeks" / "hunks.jsonl.gz"
NEEDS = "the W04-W06 weeklies are built from the shared vllm-ascend history"
NOW = datetime.fromisoformat("2026-02-20T00:00:00+00:00")
CONFIG = f"""
[[repos]]
name = "{REPO}"
display_name = "vLLM Ascend"
timezone = "Asia/Shanghai"
core_paths = ["vllm_ascend/worker/**", "vllm_ascend/core/**"]
"""
# The history the weeks read: from two months before (reverts and re-lands are linked to
# what they undo) to a week after.
FIRST, LAST = "2025-11-20", "2026-02-16"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    records = [
        r
        for r in load_records(shared_or_skip(ASCEND, NEEDS))
        if FIRST <= r["committed_at"][:10] <= LAST
    ]
    opened = Store.open(f"sqlite:///{tmp_path_factory.mktemp('weeks') / 's.db'}")
    ingest(opened, REPO, parse_log(render_log(records)), records[0]["sha"])
    pf = schema.pr_files
    with gzip.open(HUNKS, "rt", encoding="utf-8") as handle, opened.begin() as conn:
        for row in map(json.loads, handle):
            for path, got in row["files"].items():
                done = conn.execute(
                    pf.update()
                    .where(pf.c.number == row["number"], pf.c.path == path)
                    .values(patch=got["patch"], status=got["status"])
                )
                assert done.rowcount == 1, f"#{row['number']} has no file {path}"
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def repo() -> RepoConfig:
    return parse_config(CONFIG).repo(REPO)


@pytest.fixture(scope="module")
def weeks(store: Store, repo: RepoConfig) -> dict[tuple[int, str], WeeklyReport]:
    return {
        (week, lang): build_weekly(store, repo, 2026, week, lang, now=NOW)  # type: ignore[arg-type]
        for week in (4, 5, 6)
        for lang in ("zh", "en")
    }


def sweep_title(title: str) -> bool:
    return "ruff format" in title


def test_the_risk_observations_hold_no_formatting_sweep(
    weeks: dict[tuple[int, str], WeeklyReport],
) -> None:
    for (week, lang), report in weeks.items():
        observed = [o.item for o in report.risk_observations]
        assert len(observed) == 5, (week, lang)
        assert not [i.number for i in observed if sweep_title(i.title)], (week, lang)
    # Not for want of sweeps: the weeks merged 12 (and #5982 re-formatted a file), each read
    # as a formatting change.
    swept = [p for w in (4, 5, 6) for p in weeks[(w, "en")].merged if sweep_title(p.item.title)]
    assert len([p for p in swept if "vllm-ascend/" in p.item.title]) == 12
    assert {p.kind for p in swept if "vllm-ascend/" in p.item.title} == {"format"}


def test_a_sweep_is_no_highlight_and_no_key_pr(
    weeks: dict[tuple[int, str], WeeklyReport],
) -> None:
    # Lines that only re-format weigh nothing in importance: W05's #6135 (1,845 lines, 98% of
    # them re-wrapped) was a highlight and the top key PR of vllm_ascend/worker.
    for (week, lang), report in weeks.items():
        shown = [h.item for h in report.highlights] + [p.item for p in report.key_prs]
        assert not [i.number for i in shown if sweep_title(i.title)], (week, lang)


def test_a_sweep_s_line_says_it_only_re_formats(
    weeks: dict[tuple[int, str], WeeklyReport],
) -> None:
    words = {"zh": "只是格式调整", "en": "only re-format code"}
    for (week, lang), report in weeks.items():
        for p in report.merged:
            if p.kind == "format":
                assert words[lang] in p.summary.text, (week, lang, p.item.number)
    # A PR with real changes beside re-formatted tests is no formatting change, but its line
    # says how much of it only re-formats.
    [mixed] = [p for p in weeks[(4, "en")].merged if p.item.number == 6005]
    assert mixed.kind == "fix" and "only re-format code" in mixed.summary.text


def test_a_re_land_names_what_it_brings_back_and_the_revert(
    weeks: dict[tuple[int, str], WeeklyReport],
) -> None:
    en, zh = weeks[(6, "en")], weeks[(6, "zh")]
    [observed] = [o for o in en.risk_observations if o.item.number == 6475]
    assert observed.relands is not None
    assert observed.relands.text == "#6357 (reverted by #6459)"
    assert observed.relands.refs == [6357, 6459]
    assert "revert" not in {t.tag for t in observed.tags}
    assert "#6475 re-lands #6357 (reverted by #6459)" in en.summary.text
    assert "#6475 重新合入 #6357（曾被 #6459 回滚）" in zh.summary.text
    [pr] = [p for p in en.merged if p.item.number == 6475]
    assert [r.number for r in pr.relands] == [6357, 6459]
    # #6231 (W05) says "Reapply"; its body is git's "This reverts commit" of the revert.
    [reapply] = [p for p in weeks[(5, "en")].merged if p.item.number == 6231]
    assert reapply.kind != "revert" and reapply.summary.text.startswith(
        "re-lands #6041 (reverted by #6227)"
    )


def record_numbers(report: WeeklyReport) -> set[int]:
    return {p.item.number for p in report.merged}


def test_the_committed_hunks_cover_every_pr_of_the_weeks(
    weeks: dict[tuple[int, str], WeeklyReport],
) -> None:
    with gzip.open(HUNKS, "rt", encoding="utf-8") as handle:
        committed = {json.loads(line)["number"] for line in handle}
    for week in (4, 5, 6):
        assert record_numbers(weeks[(week, "en")]) <= committed, week
