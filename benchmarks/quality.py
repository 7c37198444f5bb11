"""The reading experience, measured: how Chinese a zh report is, how clean its quotes are, whether
its counts agree, and what the model costs per merged PR.

    python benchmarks/quality.py [--weeks 2026-W32,2026-W33] [--no-model] [--json]

On the real vllm-ascend history (../shared/data, rendered into `git log` bytes and ingested
through the git source, as tests/sources/test_vllm_ascend.py does) and on the demo's sample,
for each week:

- **Latin-to-CJK ratio** of the zh weekly (rules; with the fake model from testkit when asked):
  Latin letters over CJK characters in the text a reader sees (Markdown link targets,
  backslash escapes and zero-width spaces removed; everything else counts, titles, paths and
  names included). The seeds are under 1; issue #12's target for the rule-written W33 is 3.
  The zh daily of one day of each is measured the same way (rules only).
- **Junk share of excerpts**: of the characters of every merged PR's rule-written summary
  (the text quoted from its body included; inline code such as `</think>` is quoted on
  purpose and does not count unless it holds a URL), the share inside a URL, an HTML tag, a
  template heading ("What this PR does", "How was this patch tested", `###`), a Markdown link or a
  checklist box; and how many summaries hold any.
- **Count consistency**: the merged-PR count wherever the text states it, each title tag's
  count in the summary, the executive summary and the trends, every tag theme's count
  against the tag's, the risk-tag counts against the tags on the PRs. Each disagreement is
  listed; there should be none.
- **Tokens per merged PR** with the fake model (testkit/servers/openai.py answers every task
  from the facts in the prompt; its tokens are UTF-8 bytes / 4, as tidings estimates them).

No figure is asserted here; tests/benchmarks/test_quality.py asserts issue #12's acceptance
figures on 2026-W33.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from rich import box  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from tidings.common.config import RepoConfig, load_config, parse_config  # noqa: E402
from tidings.facts.prose import INLINE_CODE  # noqa: E402
from tidings.render.weekly_markdown import render_weekly_markdown  # noqa: E402
from tidings.report.weekly import build_weekly  # noqa: E402
from tidings.report.weekly_model import WeeklyReport  # noqa: E402
from tidings.store import Store  # noqa: E402

ASCEND_WEEKS = ("2026-W32", "2026-W33")
DEMO_WEEKS = ("2026-W10", "2026-W11")
# One day of each, for the zh daily's ratio: a busy vllm-ascend day of W33 (27 merges, git
# only) and the demo's day with discussions.
ASCEND_DAY = "2026-08-12"
DEMO_DAY = "2026-03-05"
# The vllm-ascend repository as a maintainer would configure it: its core paths and one topic
# track (Model Runner V2, the week's busiest technical direction).
ASCEND_CONFIG = """
[[repos]]
name = "vllm-project/vllm-ascend"
display_name = "vLLM Ascend"
timezone = "Asia/Shanghai"
language = "zh"
core_paths = ["vllm_ascend/worker/**", "vllm_ascend/core/**"]

[[repos.topics]]
title = "Model Runner V2"
title_tags = ["MRV2"]
paths = ["vllm_ascend/worker/v2/**"]
"""

# -- the measures -------------------------------------------------------------------------------

_LINK_TARGET = re.compile(r"\]\((?:[^()\s]|\([^()]*\))*\)")
_LATIN = re.compile(r"[A-Za-z]")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
JUNK = re.compile(
    r"(?:https?://|www\.)\S+|</?[A-Za-z][^<>]*>|\]\(|\[[ xX]\]|^#{1,6}\s|\s#{2,6}\s|"
    r"what this pr does|why we need it|does this pr introduce|how was this patch tested|"
    r"user-facing change|before submitting|come from\s*:",
    re.IGNORECASE | re.MULTILINE,
)


def visible_text(markdown: str) -> str:
    """What a reader sees of a Markdown report: link targets, escapes and ZWSPs gone."""
    text = _LINK_TARGET.sub("]", markdown)
    return re.sub(r"\\(.)", r"\1", text).replace("\u200b", "")


def latin_cjk(markdown: str) -> dict[str, float | int | None]:
    text = visible_text(markdown)
    latin, cjk = len(_LATIN.findall(text)), len(_CJK.findall(text))
    return {"latin": latin, "cjk": cjk, "ratio": round(latin / cjk, 2) if cjk else None}


def _blank_code(text: str) -> str:
    """Inline code is quoted on purpose (`</think>`, `set[str]`); a URL inside it is junk."""
    return INLINE_CODE.sub(lambda m: m[0] if "://" in m[0] else " " * len(m[0]), text)


def junk_share(texts: list[str]) -> dict[str, float | int]:
    """Of `texts` (rule-written summaries and quotes), the share of characters inside junk
    and how many texts hold any."""
    total = sum(len(t) for t in texts)
    junk = 0
    dirty = 0
    for text in texts:
        spans = [m.span() for m in JUNK.finditer(_blank_code(text))]
        junk += sum(b - a for a, b in spans)
        dirty += bool(spans)
    return {
        "texts": len(texts),
        "with_junk": dirty,
        "share": round(junk / total, 4) if total else 0.0,
    }


def rule_summaries(report: WeeklyReport) -> list[str]:
    """Every merged PR's rule-written summary, and the track items' texts."""
    texts = [p.summary.text for p in report.merged if p.summary.by == "rules"]
    texts += [x.text.text for t in report.tracks for x in t.items if x.text.by == "rules"]
    return texts


def _section(markdown: str, heading: str) -> str:
    for part in markdown.split("\n## "):
        if part.startswith(heading):
            return part
    return ""


def inconsistencies(report: WeeklyReport, markdown: str) -> list[str]:
    """Every place two parts of the report give different counts for the same thing."""
    out: list[str] = []
    merged = report.merged_prs
    lang = report.lang
    # 1. The merged-PR count, wherever a sentence states this week's.
    pattern = r"共合并 (\d+) 个 PR|本周合并 (\d+) 个 PR" if lang == "zh" else (
        r"merged (\d+) PRs \(previous|Merged PRs: (\d+) this week"
    )  # fmt: skip
    for m in re.finditer(pattern, visible_text(markdown)):
        said = int(next(g for g in m.groups() if g))
        if said != merged:
            out.append(f"merged PRs: the text says {said}, the week has {merged}")
    if len(report.merged) != merged:
        out.append(f"merged PRs: {len(report.merged)} listed, {merged} counted")
    grouped = sorted(n for g in report.merged_groups for n in g.numbers)
    if report.merged_groups and grouped != sorted(p.item.number for p in report.merged):
        out.append("appendix groups do not hold every merged PR exactly once")
    # 2. Each title tag's count: executive list, trends, and any "[Tag]（N）" in the prose.
    tags = {x.name.lower(): x.count for x in report.executive_summary.by_title_tag}
    for row in report.module_trends.title_tags:
        if row.name.lower() in tags and tags[row.name.lower()] != row.value:
            out.append(
                f"{row.name}: {tags[row.name.lower()]} in the summary, {row.value} in trends"
            )
    prose = " ".join(
        [report.summary.text, report.executive_summary.text.text, report.module_trends.text.text]
    )
    for m in re.finditer(r"(\[[^\[\]]{1,40}\])\s*[（(](\d+)[)）]", prose):
        name, said = m.group(1).lower(), int(m.group(2))
        if name in tags and tags[name] != said:
            out.append(f"{m.group(1)}: the prose says {said}, the count is {tags[name]}")
    # 3. A tag theme holds at most the PRs carrying the tag; when fewer, its text says so.
    all_tags = {x.name.lower(): x.value for x in report.module_trends.title_tags}
    for theme in report.key_changes:
        if theme.kind != "tag":
            continue
        carrying = all_tags.get(theme.name.lower())
        if carrying is None:
            continue
        if theme.count > carrying:
            out.append(f"theme {theme.name}: {theme.count} PRs, but only {carrying} carry the tag")
        elif theme.count < carrying and str(carrying) not in theme.text.text:
            out.append(
                f"theme {theme.name}: {theme.count} PRs against {carrying} tagged, unexplained"
            )
    # 4. Risk-tag counts against the tags on the merged PRs.
    recount: dict[str, int] = {}
    for pr in report.merged:
        for tag in pr.risk_tags:
            recount[tag.tag] = recount.get(tag.tag, 0) + 1
    counted = {x.name: x.count for x in report.executive_summary.by_risk_tag}
    if counted != recount:
        out.append(f"risk tags: summary {counted}, on the PRs {recount}")
    return out


def measure_week(report: WeeklyReport) -> dict[str, Any]:
    markdown = render_weekly_markdown(report)
    return {
        "week": report.week,
        "lang": report.lang,
        "merged_prs": report.merged_prs,
        "latin_cjk": latin_cjk(markdown),
        "junk": junk_share(rule_summaries(report)),
        "inconsistencies": inconsistencies(report, markdown),
    }


# -- the data -----------------------------------------------------------------------------------


def ascend_config() -> RepoConfig:
    return parse_config(ASCEND_CONFIG).repo("vllm-project/vllm-ascend")


def ascend_store(path: Path) -> Store | None:
    """A store of the vllm-ascend history, or None when ../shared is absent."""
    from testkit.gitlog import ASCEND, REPO, load_records, render_log
    from tidings.sources.git import ingest, parse_log

    if not ASCEND.exists():
        return None
    records = load_records(ASCEND)
    store = Store.open(f"sqlite:///{path}")
    ingest(store, REPO, parse_log(render_log(records)), records[0]["sha"])
    return store


def demo_store(path: Path) -> tuple[Store, RepoConfig]:
    from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
    from tidings.sources.snapshot import import_snapshot

    store = Store.open(f"sqlite:///{path}")
    import_snapshot(store, SAMPLE_PATH)
    return store, load_config(CONFIG_PATH).repo(REPO)


def _week(label: str) -> tuple[int, int]:
    year, week = label.split("-W")
    return int(year), int(week)


def with_model(store: Store, repo: RepoConfig, label: str) -> dict[str, Any]:
    """The zh weekly written with the fake model: its ratio and its tokens per merged PR."""
    from testkit.servers.openai import FakeOpenAI
    from tidings.analysis.analyst import Analyst
    from tidings.analysis.cache import LLMCache
    from tidings.analysis.provider import Provider, ProviderSettings

    with FakeOpenAI() as llm:
        provider = Provider(
            ProviderSettings(
                base_url=llm.base_url, model="fake-model", token_budget=10**9, timeout=120.0
            )
        )
        analyst = Analyst(provider, LLMCache(None))
        report = build_weekly(store, repo, *_week(label), "zh", analysis=analyst)
        spent = llm.prompt_tokens + llm.completion_tokens
        calls = llm.calls
    markdown = render_weekly_markdown(report)
    return {
        "latin_cjk": latin_cjk(markdown),
        "calls": calls,
        "tokens": spent,
        "tokens_per_merged_pr": round(spent / report.merged_prs) if report.merged_prs else None,
    }


def measure_day(store: Store, repo: RepoConfig, day: str) -> dict[str, Any]:
    """The rule-written zh daily of `day`: its Latin-to-CJK ratio, measured as the weekly's."""
    from datetime import date

    from tidings.render.markdown import render_daily_markdown
    from tidings.report.daily import build_daily

    report = build_daily(store, repo, date.fromisoformat(day), "zh")
    return {"day": day, "latin_cjk": latin_cjk(render_daily_markdown(report))}


def run_benchmark(weeks: tuple[str, ...] = ASCEND_WEEKS, *, model: bool = True) -> dict[str, Any]:
    results: dict[str, Any] = {"ascend": [], "ascend_note": None, "demo": [], "daily": []}
    with tempfile.TemporaryDirectory() as tmp:
        store = ascend_store(Path(tmp) / "ascend.db")
        if store is None:
            results["ascend_note"] = "../shared/data/vllm-ascend-commits.jsonl is absent"
        else:
            try:
                repo = ascend_config()
                for label in weeks:
                    for lang in ("zh", "en"):
                        report = build_weekly(store, repo, *_week(label), lang)  # type: ignore[arg-type]
                        row = measure_week(report)
                        if model and lang == "zh":
                            row["model"] = with_model(store, repo, label)
                        results["ascend"].append(row)
                results["daily"].append(
                    {"data": "vllm-ascend", **measure_day(store, repo, ASCEND_DAY)}
                )
            finally:
                store.close()
        demo, repo = demo_store(Path(tmp) / "demo.db")
        try:
            for label in DEMO_WEEKS:
                for lang in ("zh", "en"):
                    report = build_weekly(demo, repo, *_week(label), lang)  # type: ignore[arg-type]
                    row = measure_week(report)
                    if model and lang == "zh":
                        row["model"] = with_model(demo, repo, label)
                    results["demo"].append(row)
            results["daily"].append({"data": "demo", **measure_day(demo, repo, DEMO_DAY)})
        finally:
            demo.close()
    return results


def render(results: dict[str, Any], console: Console) -> None:
    table = Table(title="reading experience of the weekly report", box=box.SIMPLE_HEAD)
    for column in (
        "data",
        "week",
        "lang",
        "merged",
        "Latin/CJK (rules)",
        "junk share",
        "dirty excerpts",
        "count conflicts",
        "Latin/CJK (model)",
        "tokens/merged PR",
    ):
        table.add_column(column, justify="left" if column in ("data", "week") else "right")
    for data in ("ascend", "demo"):
        for row in results[data]:
            model = row.get("model") or {}
            ratio = row["latin_cjk"]["ratio"]
            table.add_row(
                "vllm-ascend" if data == "ascend" else "demo",
                row["week"],
                row["lang"],
                str(row["merged_prs"]),
                "-" if ratio is None or row["lang"] != "zh" else f"{ratio:.2f}",
                f"{row['junk']['share'] * 100:.1f}%",
                f"{row['junk']['with_junk']}/{row['junk']['texts']}",
                str(len(row["inconsistencies"])),
                f"{model['latin_cjk']['ratio']:.2f}" if model.get("latin_cjk") else "-",
                str(model.get("tokens_per_merged_pr", "-")),
            )
    console.print(table)
    days = Table(title="the zh daily report (rules)", box=box.SIMPLE_HEAD)
    for column in ("data", "day", "Latin", "CJK", "Latin/CJK"):
        days.add_column(column, justify="left" if column in ("data", "day") else "right")
    for row in results["daily"]:
        ratio = row["latin_cjk"]
        days.add_row(
            row["data"],
            row["day"],
            str(ratio["latin"]),
            str(ratio["cjk"]),
            "-" if ratio["ratio"] is None else f"{ratio['ratio']:.2f}",
        )
    console.print(days)
    if results["ascend_note"]:
        console.print(f"vllm-ascend: skipped ({results['ascend_note']})", markup=False)
    for data in ("ascend", "demo"):
        for row in results[data]:
            for problem in row["inconsistencies"]:
                console.print(f"{row['week']} {row['lang']}: {problem}", markup=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--weeks", default=",".join(ASCEND_WEEKS), help="vllm-ascend weeks")
    parser.add_argument("--no-model", action="store_true", help="skip the fake-model runs")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    weeks = tuple(w.strip() for w in args.weeks.split(",") if w.strip())
    for w in weeks:
        if not re.fullmatch(r"\d{4}-W\d{2}", w):
            print(
                f"error: --weeks takes YYYY-Www labels, got {w!r} — e.g. 2026-W33", file=sys.stderr
            )
            return 2
    results = run_benchmark(weeks, model=not args.no_model)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        render(results, Console())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
