"""Evaluation on real data: the vllm-ascend first-parent history through the git source.

The records in ../shared/data are rendered into the bytes `git log` prints
(testkit/gitlog.py) and fed through the same parser and store writer as a clone. The
oracle reads the records with json and zoneinfo only, not through tidings.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa

from testkit.gitlog import ASCEND, REPO, load_records, render_log, split_rename
from tests.shared import shared_or_skip
from tidings.common.config import parse_config
from tidings.facts.load.stats import item_lists, path_churn
from tidings.facts.windows import weekly_window
from tidings.sources.git import ingest, parse_log
from tidings.store import Store, schema

TZ = ZoneInfo("Asia/Shanghai")
NEEDS = "these tests read the shared vllm-ascend history"
CONFIG = f"""
[[repos]]
name = "{REPO}"
display_name = "vLLM Ascend"
timezone = "Asia/Shanghai"
language = "zh"
core_paths = ["vllm_ascend/worker/**", "vllm_ascend/core/**"]
"""


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return load_records(shared_or_skip(ASCEND, NEEDS))


@pytest.fixture(scope="module")
def ascend(tmp_path_factory: pytest.TempPathFactory, records) -> tuple[Store, Any]:
    path = tmp_path_factory.mktemp("ascend") / "ascend.db"
    store = Store.open(f"sqlite:///{path}")
    report = ingest(store, REPO, parse_log(render_log(records)), records[0]["sha"])
    yield store, report
    store.close()


@pytest.fixture(scope="module")
def repo_config():
    return parse_config(CONFIG).repo(REPO)


def week_of(record: dict[str, Any]) -> tuple[int, int]:
    local = datetime.fromisoformat(record["committed_at"]).astimezone(TZ)
    year, week, _ = local.isocalendar()
    return year, week


def test_every_pr_numbered_record_is_ingested(ascend, records) -> None:
    store, report = ascend
    prs = [r for r in records if r["pr_number"] is not None]
    assert len(prs) == 4732
    assert (report.commits, report.prs, report.skipped) == (4734, 4732, 2)
    with store.engine.connect() as conn:
        numbers = set(conn.execute(sa.select(schema.items.c.number)).scalars())
        files = conn.execute(sa.select(sa.func.count()).select_from(schema.pr_files)).scalar()
    assert numbers == {r["pr_number"] for r in prs}
    assert files == sum(len(r["files"]) for r in prs)


def test_weekly_merged_counts_equal_the_records_for_every_week(ascend, records) -> None:
    store, _ = ascend
    want: dict[tuple[int, int], list[int]] = defaultdict(list)
    for r in records:
        if r["pr_number"] is not None:
            want[week_of(r)].append(r["pr_number"])
    assert len(want[(2026, 32)]) == 111 and len(want[(2026, 33)]) == 104
    with store.engine.connect() as conn:
        for (year, week), numbers in sorted(want.items()):
            window = weekly_window(year, week, TZ)
            got = item_lists(conn, 1, window).merged_prs
            assert got == sorted(numbers), f"{year}-W{week:02d}"


@pytest.mark.parametrize("week", [32, 33])
def test_hot_directories_and_files_equal_the_records(ascend, records, week: int) -> None:
    store, _ = ascend
    dirs: Counter[str] = Counter()
    files: Counter[str] = Counter()
    for r in records:
        if r["pr_number"] is None or week_of(r) != (2026, week):
            continue
        for f in r["files"]:
            _, path = split_rename(f["path"])
            churn = (f["additions"] or 0) + (f["deletions"] or 0)
            files[path] += churn
            parts = path.split("/")[:-1][:2]
            dirs["/".join(parts) or "."] += churn
    with store.engine.connect() as conn:
        top_paths, top_dirs = path_churn(conn, 1, weekly_window(2026, week, TZ), top=10)

    def top(counter: Counter[str]) -> list[tuple[str, int]]:
        return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:10]

    assert [(c.path, c.churn) for c in top_dirs] == top(dirs)
    assert [(c.path, c.churn) for c in top_paths] == top(files)


def test_week_boundaries_use_the_configured_timezone(ascend, records) -> None:
    # The same records counted in UTC weeks differ somewhere from Shanghai weeks; the store
    # agrees with the records in both, so the window, not the data, decides.
    store, _ = ascend
    differ = 0
    with store.engine.connect() as conn:
        for year, week in [(2025, 13), (2025, 14), (2026, 32), (2026, 33)]:
            counts = []
            for tz in (TZ, ZoneInfo("UTC")):
                want = sum(
                    1
                    for r in records
                    if r["pr_number"]
                    and datetime.fromisoformat(r["committed_at"]).astimezone(tz).isocalendar()[:2]
                    == (year, week)
                )
                got = len(item_lists(conn, 1, weekly_window(year, week, tz)).merged_prs)
                assert got == want
                counts.append(got)
            differ += counts[0] != counts[1]
    assert differ == 2  # 2025-W13 and W14: Monday-morning merges in Shanghai


# PRs whose file lists were read by hand in ../shared/data (see the comments) and the tags
# the rules must give them with the CONFIG above (core paths: vllm_ascend/worker/**, core/**;
# defaults otherwise: large = 1,000 lines or 30 files, missing tests from 20 code lines).
SAMPLE = {
    # One file, kv_p2p/mooncake_connector.py +59/−1, no test touched.
    12359: {"missing_tests"},
    # dsa_v1.py −2 with tests/ut/attention/test_dsa_v1.py +62: tested, small, nothing else.
    14248: set(),
    # Deletes tests/e2e/pull_request/one_card/test_batch_invariant.py (−681) for a new
    # 302-line test; 987 lines in 5 files stays under the size thresholds.
    14117: {"tests_removed"},
    # "[Revert] Revert ..." of #14190: removes a 94-line test config and 17 net lines of
    # lws.yaml.jinja2 under tests/.
    14287: {"revert", "tests_removed"},
    # The reverted PR itself: workflow YAML and test configs only added, no code.
    14190: set(),
    # 40 files, 4,809 lines; tests changed alongside (test_bf16.py …). Its CMakeLists.txt files
    # build one kernel inside csrc/ (a component's, not the top-level build): no dependency.
    13987: {"large_change"},
    # 35 files, 2,502 lines, nine Dockerfiles, worker/model_runner_v1.py (core), and
    # test_npu_ipc_weight_transfer.py +23/−49 and test_npu_ipc_engine.py +17/−56 shrink.
    14027: {"dependency_change", "large_change", "core_path", "tests_removed"},
    # worker/model_runner_v1.py +40/−4 with its e2e test.
    13498: {"core_path"},
    # worker/worker.py +14 only: core, but under the 20-line missing-tests threshold.
    13785: {"core_path"},
    # setup.py −28 net, with tests/ut/device tests; device/ is not a core path.
    13672: {"dependency_change"},
}


@pytest.fixture(scope="module")
def week_reports(ascend, repo_config):
    from tidings.report.weekly import build_weekly

    store, _ = ascend
    now = datetime(2026, 8, 24, tzinfo=ZoneInfo("UTC"))
    return {
        (week, lang): build_weekly(store, repo_config, 2026, week, lang, now=now)
        for week in (32, 33)
        for lang in ("zh", "en")
    }


def test_sample_risk_tags_match_the_file_lists(week_reports) -> None:
    tags = {
        pr.item.number: {t.tag for t in pr.risk_tags}
        for week in (32, 33)
        for pr in week_reports[(week, "en")].merged
    }
    for number, expected in SAMPLE.items():
        assert tags[number] == expected, number
    # From a clone, reviews and review threads are unknown: those rules never fire.
    assert not any(t & {"no_approval", "follow_up_promised"} for t in tags.values())


def test_security_path_on_real_history(ascend, repo_config) -> None:
    # #8146 (2026-05-11, W20) adds csrc/cmake/third_party/secure_c.cmake and
    # csrc/cmake/modules/Findsecurec.cmake: security-sensitive names, and build files.
    from tidings.facts.load.merged import load_merged
    from tidings.facts.risk import assess

    store, _ = ascend
    window = weekly_window(2026, 20, TZ)
    with store.engine.connect() as conn:
        [pr] = [p for p in load_merged(conn, 1, window.start, window.end) if p.number == 8146]
    found = {t.tag: t for t in assess(pr, repo_config)}
    paths = {e.path for e in found["security_path"].evidence}
    assert paths == {
        "csrc/cmake/third_party/secure_c.cmake",
        "csrc/cmake/modules/Findsecurec.cmake",
    }
    assert "dependency_change" in found and "large_change" in found


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("week", [32, 33])
def test_weekly_reports_for_w32_w33(week_reports, records, week: int, lang: str) -> None:
    from tests import report_checks
    from tidings.render.weekly_markdown import render_weekly_markdown

    report = week_reports[(week, lang)]
    want = sorted(r["pr_number"] for r in records if r["pr_number"] and week_of(r) == (2026, week))
    assert [p.item.number for p in report.merged] == want
    assert report.executive_summary.previous_merged_prs == sum(
        1 for r in records if r["pr_number"] and week_of(r) == (2026, week - 1)
    )
    assert report.coverage.git_prs == len(want) and report.coverage.text is not None
    assert len(report.risk_observations) == 5 and report.key_prs and report.follow_ups
    # Title tags stand in for labels on a git-only store.
    assert report.executive_summary.by_label == [] and report.executive_summary.by_title_tag
    text = render_weekly_markdown(report)
    h2 = [h for tag, h in report_checks.headings(text) if tag == "h2"]
    assert len(h2) == 8
    first, last = report.window.first_day[5:], report.window.last_day[5:]
    title = {
        "zh": f"vLLM Ascend 周报 2026 第 {week} 周（{first} 至 {last}）",
        "en": f"vLLM Ascend weekly report: 2026 week {week} ({first} to {last})",
    }[lang]
    assert text.startswith(f"# {title}\n")
    if week == 33:
        assert (first, last) == ("08-10", "08-16")
    report_checks.check_structure(
        text, repo=REPO, numbers={r["pr_number"] for r in records if r["pr_number"]}, logins=set()
    )


def _first_merges(records: list[dict[str, Any]], day: str) -> list[tuple[str, int]]:
    """(author, PR) of the authors whose first merged PR in the whole history is on `day`
    (Shanghai): the records' oracle, names compared without case."""
    prs = [r for r in records if r["pr_number"] is not None]
    first: dict[str, dict[str, Any]] = {}
    for r in sorted(prs, key=lambda r: datetime.fromisoformat(r["committed_at"])):
        first.setdefault(r["author"].lower(), r)
    on_day = [
        (r["author"], r["pr_number"])
        for r in first.values()
        if datetime.fromisoformat(r["committed_at"]).astimezone(TZ).date().isoformat() == day
    ]
    return sorted(on_day, key=lambda kv: kv[1])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_git_only_daily_names_the_first_merges_of_the_day(
    ascend, repo_config, records, lang: str
) -> None:
    """2026-08-05: #13337 is MinjieZhang's only PR, and #13484 Zeyu Yang's first (his next,
    #13692, is a week later): both first merges, which the report used to call "none"."""
    from tidings.render.markdown import render_daily_markdown
    from tidings.report.daily import build_daily

    want = [("MinjieZhang", 13337), ("Zeyu Yang", 13484)]
    assert _first_merges(records, "2026-08-05") == want
    store, _ = ascend
    now = datetime(2026, 8, 24, tzinfo=ZoneInfo("UTC"))
    report = build_daily(store, repo_config, date(2026, 8, 5), lang, now=now)
    act = report.activity
    assert [(f.login, f.item.number) for f in act.first_time_contributors] == want
    assert all(f.git_name for f in act.first_time_contributors)
    assert act.first_timers_known and act.first_timers_by_merge
    line = {
        "zh": "- 首次贡献者（按首次合并的 PR 计）：MinjieZhang、Zeyu Yang\n",
        "en": "- First-time contributors (by first merged PR): MinjieZhang, Zeyu Yang\n",
    }[lang]
    assert line in render_daily_markdown(report)


def test_a_store_whose_history_starts_late_says_first_timers_are_unknown(
    tmp_path, repo_config, records
) -> None:
    """The history from 2026-08-01 on, as a shallow clone gives it: MinjieZhang's and Zeyu
    Yang's merges are the first this store holds, but it cannot know that they are theirs."""
    from tidings.render.markdown import render_daily_markdown
    from tidings.report.daily import build_daily

    late = [r for r in records if r["committed_at"] >= "2026-08-01"]
    store = Store.open(f"sqlite:///{tmp_path / 'late.db'}")
    try:
        ingest(store, REPO, parse_log(render_log(late)), late[0]["sha"], shallow=True)
        now = datetime(2026, 8, 24, tzinfo=ZoneInfo("UTC"))
        reports = {
            lang: build_daily(store, repo_config, date(2026, 8, 5), lang, now=now)
            for lang in ("zh", "en")
        }
    finally:
        store.close()
    for lang, line in {
        "zh": "- 首次贡献者：未知（",
        "en": "- First-time contributors: unknown (",
    }.items():
        act = reports[lang].activity
        assert act.first_time_contributors == [] and not act.first_timers_known
        text = render_daily_markdown(reports[lang])
        assert line in text
        assert "首次贡献者：无" not in text and "First-time contributors: none" not in text


def test_missing_shared_data_skips_with_a_reason_but_fails_under_ci(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    absent = tmp_path / "nowhere.jsonl"
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"nowhere\.jsonl is absent"):
        shared_or_skip(absent, NEEDS)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true requires it"):
        shared_or_skip(absent, NEEDS)
