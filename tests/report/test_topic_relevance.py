"""A topic track lists what is about the topic first: a title or label match, then a keyword
in the body, then a path alone; a PR that matches only by sweeping through the topic's paths
(a vLLM main-to-main sync) comes last and is never the track's lead. A cut list says how many
more matched, in every format.

The PRs are real vllm-ascend merges (../shared/data/vllm-ascend-commits.jsonl: titles, bodies
and per-file counts), all placed on one day, with a "MoE" track.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from testkit.gitlog import ASCEND, load_records
from tests.factories import Records, seed
from tests.shared import shared_or_skip
from tidings.common.config import RepoConfig, TopicConfig
from tidings.render.files import render_report
from tidings.render.html import render_html
from tidings.render.markdown import render_markdown
from tidings.report.daily import build_daily
from tidings.report.weekly import build_weekly
from tidings.store import Store

REPO = "vllm-project/vllm-ascend"
DAY = date(2026, 2, 24)  # 09:00 Shanghai cut-off: [2026-02-24T01:00Z, 2026-02-25T01:00Z)
MOE_PATHS = "vllm_ascend/ops/fused_moe/"
# By reading each record: "MoE" as a word in its title ...
NAMED = [13675, 13994, 13789, 14019, 14334]
# ... only in its body (and one of 4 files under fused_moe/) ...
DESCRIBED = [13882]
# ... neither, one file under fused_moe/ ...
TOUCHED = [12936, 13149]
# ... and the main-to-main syncs: 21, 35 and 20 files, one or two under fused_moe/.
SYNCS = [14131, 14027, 13477]
TRACK_ITEMS = 8  # a weekly track's list


@pytest.fixture(scope="module")
def records() -> dict[int, dict[str, Any]]:
    shared_or_skip(ASCEND, "the topic relevance tests read real vllm-ascend titles")
    wanted = set(NAMED + DESCRIBED + TOUCHED + SYNCS)
    return {r["pr_number"]: r for r in load_records() if r["pr_number"] in wanted}


def _word(text: str) -> bool:
    return re.search(r"(?<![\w-])MoE(?![\w-])", text, re.IGNORECASE) is not None


def test_the_records_are_what_the_lists_say(records: dict[int, dict[str, Any]]) -> None:
    def under(r: dict[str, Any]) -> int:
        return sum(f["path"].startswith(MOE_PATHS) for f in r["files"])

    assert all(_word(records[n]["subject"]) for n in NAMED)
    for n in DESCRIBED + TOUCHED + SYNCS:
        assert not _word(records[n]["subject"]), n
    assert all(_word(records[n]["body"][:3000]) and under(records[n]) for n in DESCRIBED)
    assert all(not _word(records[n]["body"][:3000]) and under(records[n]) for n in TOUCHED)
    for n in SYNCS:
        assert "main2main" in records[n]["subject"].lower().replace(" ", "")
        assert len(records[n]["files"]) >= 20 and 1 <= under(records[n]) <= 2


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, records: dict[int, dict[str, Any]]) -> Store:
    opened = Store.open(f"sqlite:///{tmp_path_factory.mktemp('topics') / 's.db'}")
    rec = Records()
    rows: list[Any] = [rec.repo(REPO)]
    for k, (number, r) in enumerate(sorted(records.items())):
        files = r["files"]
        adds = sum(f["additions"] or 0 for f in files)
        dels = sum(f["deletions"] or 0 for f in files)
        at = f"2026-02-24T{2 + k % 20:02d}:00:00Z"
        title = re.sub(r"\s*\(#\d+\)$", "", r["subject"])
        rows.append(
            rec.pr(
                number,
                at,
                title=title,
                body=r["body"],
                merged_at=at,
                merged=True,
                additions=adds,
                deletions=dels,
                changed_files=len(files),
            )
        )
        rows += [
            rec.file(number, f["path"], f["additions"] or 0, f["deletions"] or 0) for f in files
        ]
    seed(opened, rows)
    return opened


def _config() -> RepoConfig:
    return RepoConfig(
        name=REPO,
        timezone="Asia/Shanghai",
        cutoff="09:00",
        topics=[TopicConfig(title="MoE", keywords=["MoE"], paths=[MOE_PATHS + "**"])],
    )


def _in_order(numbers: list[int]) -> None:
    """Named first, then described, then touched, then the syncs; any order within each."""
    groups = [NAMED, DESCRIBED, TOUCHED, SYNCS]
    tiers = [next(k for k, g in enumerate(groups) if n in g) for n in numbers]
    assert tiers == sorted(tiers), numbers


def test_a_daily_track_lists_by_relevance_and_leads_with_a_named_pr(store: Store) -> None:
    report = build_daily(store, _config(), DAY, "en")
    (track,) = report.topics
    numbers = [x.item.number for x in track.items]
    assert sorted(numbers) == sorted(NAMED + DESCRIBED + TOUCHED + SYNCS)
    _in_order(numbers)
    assert set(numbers[-len(SYNCS) :]) == set(SYNCS)
    # The syncs are the largest merges of the day, yet the lead is a named PR.
    assert track.analysis.refs and track.analysis.refs[0] in NAMED


def test_a_weekly_track_is_cut_with_and_n_more_in_every_format(store: Store) -> None:
    total = len(NAMED + DESCRIBED + TOUCHED + SYNCS)
    cut = total - TRACK_ITEMS
    for lang, more in (("en", f"… and {cut} more"), ("zh", f"等另外 {cut} 个")):
        report = build_weekly(store, _config(), 2026, 9, lang)  # type: ignore[arg-type]
        (track,) = report.tracks
        numbers = [x.item.number for x in track.items]
        assert len(numbers) == TRACK_ITEMS and track.unlisted == cut
        _in_order(numbers)
        assert not set(numbers) & set(SYNCS)  # the syncs are the cut ones
        assert numbers[:5] == [n for n in numbers if n in NAMED]
        assert track.text.refs and track.text.refs[0] in NAMED
        assert more in render_markdown(report)
        page = render_html(report, None)
        section = page.split('id="track-1"', 1)[1].split("</section>", 1)[0]
        assert more in section
        assert f'"unlisted": {total - TRACK_ITEMS}' in render_report(report, "json")


def test_the_demo_track_leads_with_its_title_match(tmp_path: Path) -> None:
    """The demo's AMD/ROCm week 11: #4244 (a keyword in its body and one ROCm path) led it
    before; #4299, "[ROCm] Tuned hipBLASLt and AITER GEMM configs…", leads it now."""
    from tidings.common.config import load_config
    from tidings.demo import CONFIG_PATH, SAMPLE_PATH
    from tidings.sources.snapshot import import_snapshot

    demo = Store.open(f"sqlite:///{tmp_path / 'demo.db'}")
    import_snapshot(demo, SAMPLE_PATH)
    report = build_weekly(
        demo, load_config(CONFIG_PATH).repo("tidings-demo/rapidinfer"), 2026, 11, "en"
    )
    (track,) = report.tracks
    assert track.text.refs == [4299]
    listed = [x.item.number for x in track.items]
    assert 4244 not in listed and 4252 not in listed  # body keyword, path: the cut ones
    assert track.unlisted == track.merged_prs + track.other_items - len(listed) > 0
