"""Site benchmark: a 1-year archive of a busy repository built and rebuilt; RSS at 1 and 2 years.

    python benchmarks/site.py [--quick] [--backfill-pdfs] [--pdf-sample N] [--sizes N,N] [--json]

The archive is synthesised from the demo's report model: 365 daily reports at vLLM scale
(about 18 new issues, 75 new PRs and 30 merged PRs a day, each listed in the appendix with
labels and authors) and 52 weekly reports (the demo's busiest week built by report/weekly.py,
moved to each week of the year with its own risk-tag counts). These are finished report
models, not records: the site reads only reports, and building 417 of them from a year of
generated records (testkit/generate.py, which the sync, LLM and weekly benchmarks use) would
time the report step for hours before the site step began.

A report's PDF is made when the report is written (`tidings run`: one day's reports a day), so
the archive a site is built from already carries its PDFs. Rendering 417 busy reports takes
minutes on two cores, so by default real PDFs are rendered for a sample of the archive
(`--pdf-sample`, spread over the year, dailies and weeklies; timed: a report's PDF is its cost in
`tidings run`), and every other report gets one of the sample's real PDFs of its own kind,
round-robin, keyed to that report exactly as the site checks it — so the PDFs the site
publishes have the sizes real ones have, not one PDF's. --backfill-pdfs renders every report's
real PDF instead, in a separate, timed phase. Figures, measured in one run:

1. the report-time PDFs of the sample, per report and projected to the archive (or the
   backfill of the whole archive);
2. the first site build of the archive with its PDFs — the target is under 60 s — and, for
   comparison, the same build with --no-pdf;
3. a rebuild with nothing new: files written (should be 0);
4. one new daily report: its PDF made at report time (timed apart), then the rebuild: files
   written, listed (the report's own files with its PDF, the day before it (its "next" link),
   the project and month pages, the feeds, the home page, the build manifest and the search
   index), PDFs the site rendered (should be 0);
5. the fallback: a sample of bare reports (JSON only) whose PDFs the site renders itself, in
   parallel, and the projection for the whole archive built that way (the old cost);
6. memory and search: archives of 100 and 800 reports (`--sizes 100,800,4000` adds 4,000;
   each with its Markdown beside its JSON as `tidings run` files them; a weekly report for
   every seven dailies), each built, rebuilt with nothing new, and rebuilt after one report
   changed (three times, one report each, a third, half and two thirds into the archive: the
   median is shown), every build in a fresh process (`--child-build`) without PDFs. For
   each: the build process's own peak RSS and wall time, and every process it started
   (Pagefind, one run per search bundle it indexes): how many, the largest one's own peak
   RSS, their summed wall time, read from /proc every 20 ms (benchmarks/proctree.py says why
   not ru_maxrss), with their CPU time from RUSAGE_CHILDREN. Targets: the build
   process and Pagefind flat in archive size (the largest within 1.2x and 1.3x of the
   smallest), one changed report re-indexing one bundle at every size, a quiet rebuild parsing
   no report and running no Pagefind, and every report's Markdown published as written.

--quick: 20 days and 3 weeks, one sampled PDF; the test suite runs it (no timing asserts).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from tidings.common.config import SiteConfig  # noqa: E402
from tidings.facts.risk import RISK_TAGS  # noqa: E402
from tidings.report import model as m  # noqa: E402

REPO = "bench-org/busy-engine"
DEFAULT_SIZES = [100, 800]  # reports; --sizes 100,800,4000 for the documented figures
QUICK_BUNDLE_BYTES = 1_000_000
# The search index's folders: Pagefind's bundles, and the search page's map of their pages.
SEARCH_FOLDERS = ("pagefind/", "search_ui/")
LABELS = [
    "bug",
    "performance",
    "ci/build",
    "rocm",
    "v1",
    "frontend",
    "documentation",
    "quantization",
    "multi-modality",
    "speculative-decoding",
    "ready",
    "structured-output",
]
RISKS = list(RISK_TAGS)  # the rules' own names (facts/risk.py)
WORDS = [
    "fix",
    "add",
    "support",
    "refactor",
    "kernel",
    "scheduler",
    "cache",
    "attention",
    "MoE",
    "FP8",
    "LoRA",
    "tokenizer",
    "sampler",
    "CUDA graph",
    "spec decode",
    "ROCm",
]


def _ref(rng: random.Random, number: int, kind: str, state: str) -> m.ItemRef:
    url_kind = "pull" if kind == "pr" else "issues"
    return m.ItemRef(
        number=number,
        kind=kind,  # type: ignore[arg-type]
        title=" ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 10))),
        url=f"https://github.com/{REPO}/{url_kind}/{number}",
        state=state,  # type: ignore[arg-type]
        author=f"dev-{rng.randint(1, 400)}",
        labels=rng.sample(LABELS, rng.randint(0, 3)),
    )


def daily_report(day: date, rng: random.Random) -> m.DailyReport:
    """One busy day, every list filled the way build_daily fills it."""
    start = datetime.combine(day, datetime.min.time(), tzinfo=UTC)
    counts = {
        "new_issues": rng.randint(10, 26),
        "closed_issues": rng.randint(8, 24),
        "new_prs": rng.randint(55, 95),
        "merged_prs": rng.randint(20, 42),
        "closed_unmerged_prs": rng.randint(10, 30),
    }
    base = 40000 + (day - date(2025, 1, 1)).days * 150
    lists: dict[str, list[m.ItemRef]] = {}
    n = base
    for key, kind, state in [
        ("new_issues", "issue", "open"),
        ("closed_issues", "issue", "closed"),
        ("new_prs", "pr", "open"),
        ("merged_prs", "pr", "merged"),
        ("closed_unmerged_prs", "pr", "closed"),
    ]:
        lists[key] = [_ref(rng, n + k, kind, state) for k in range(counts[key])]
        n += counts[key]
    prose = m.Prose(
        text=f"Issues: {counts['new_issues']} new. Pull requests: "
        f"{counts['new_prs']} new, {counts['merged_prs']} merged."
    )
    merged = lists["merged_prs"]
    return m.DailyReport(
        repo=REPO,
        project="BusyEngine",
        repo_url=f"https://github.com/{REPO}",
        date=day.isoformat(),
        lang="en",
        window=m.WindowInfo(
            start=start,
            end=start + timedelta(days=1),
            timezone="UTC",
            display=f"{day} 00:00 (UTC+0) ~ {day + timedelta(days=1)} 00:00 (UTC+0)",
        ),
        stats=m.Stats(**counts),
        quiet=False,
        summary=m.Summary(
            level="normal", previous_windows=7, trends=[], dominant_areas=[], text=prose
        ),
        topics=[
            m.TopicTrack(
                title="AMD/ROCm",
                analysis=prose,
                items=[
                    m.TopicItem(item=ref, reasons=["label:rocm"], note=prose) for ref in merged[:4]
                ],
            )
        ],
        hot_discussions=[
            m.HotDiscussion(
                item=ref,
                score=12.5,
                comments_in_window=9,
                participants=5,
                reactions=4,
                core_topic=prose,
                contention=prose,
                status=prose,
                last_activity_at=start + timedelta(hours=20),
                linked_prs=merged[:2],
                viewpoints=[
                    m.Viewpoint(login=f"dev-{k}", role="contributor", comments=2, excerpt=prose)
                    for k in range(4)
                ],
            )
            for ref in lists["new_issues"][:5]
        ],
        trends=[
            m.Cluster(kind="label", name=label, count=3, members=merged[:3]) for label in LABELS[:5]
        ],
        key_changes=[
            m.KeyChange(
                item=ref,
                score=9.0,
                score_parts={"size": 6.0, "discussion": 3.0},
                additions=420,
                deletions=80,
                changed_files=12,
                top_dirs=["engine/core", "kernels"],
                linked_issues=[ref.number - 7],
                what_changed=prose,
            )
            for ref in merged[:5]
        ],
        activity=m.Activity(
            top_authors=[m.Count(login=f"dev-{k}", count=9 - k) for k in range(5)],
            top_reviewers=[m.Count(login=f"rev-{k}", count=7 - k) for k in range(5)],
            top_commenters=[m.Count(login=f"dev-{k}", count=12 - k) for k in range(5)],
            first_time_contributors=[],
            review_latency_hours_median=5.5,
            review_latency_sample=len(merged),
            text=prose,
        ),
        watchlist=[
            m.WatchItem(item=ref, reasons=["unanswered"], detail=prose)
            for ref in lists["new_issues"][:3]
        ],
        appendix=m.Appendix(**lists),
        provenance=m.Provenance(
            tool_version="bench",
            generated_at=start + timedelta(days=1, hours=1),
            data_as_of=start + timedelta(days=1),
            window_utc=f"{day}",
            writer="rules",
            list_counts={k: len(v) for k, v in lists.items()},
        ),
    )


def weekly_template() -> Any:
    """A real weekly report (the demo's busiest week) to copy into every week of the year."""
    from tidings.common.config import load_config
    from tidings.demo import CONFIG_PATH, SAMPLE_PATH
    from tidings.demo import REPO as DEMO_REPO
    from tidings.report.weekly import build_weekly
    from tidings.sources.snapshot import import_snapshot
    from tidings.store import Store

    with tempfile.TemporaryDirectory(prefix="tidings-site-bench-store-") as tmp:
        store = Store.open(f"sqlite:///{Path(tmp) / 'demo.db'}")
        try:
            import_snapshot(store, SAMPLE_PATH)
            settings = load_config(CONFIG_PATH).repo(DEMO_REPO)
            return build_weekly(
                store, settings, 2026, 11, "en", now=datetime(2026, 4, 1, tzinfo=UTC)
            )
        finally:
            store.close()


def weekly_report(template: Any, year: int, week: int, rng: random.Random) -> Any:
    """The template moved to another week, with its own risk-tag counts."""
    monday = date.fromisocalendar(year, week, 1)
    start = datetime.combine(monday, datetime.min.time(), tzinfo=UTC)
    window = template.window.model_copy(
        update={
            "week": f"{year}-W{week:02d}",
            "year": year,
            "number": week,
            "first_day": monday.isoformat(),
            "last_day": (monday + timedelta(days=6)).isoformat(),
            "start": start,
            "end": start + timedelta(days=7),
        }
    )
    summary = template.executive_summary.model_copy(
        update={
            "by_risk_tag": [
                row.model_copy(update={"count": rng.randint(1, 12)})
                for row in template.executive_summary.by_risk_tag
            ]
        }
    )
    return template.model_copy(
        update={
            "repo": REPO,
            "project": "BusyEngine",
            "repo_url": f"https://github.com/{REPO}",
            "week": f"{year}-W{week:02d}",
            "window": window,
            "executive_summary": summary,
            "generated_at": start + timedelta(days=7, hours=1),
        }
    )


def save(report: Any, path: Path) -> None:
    """The report's JSON and, beside it, its Markdown, as `tidings run` files them."""
    from tidings.render.files import render_report

    path.parent.mkdir(parents=True, exist_ok=True)
    path.with_suffix(".md").write_text(render_report(report, "md"), "utf-8")
    path.write_text(report.model_dump_json(indent=2) + "\n", "utf-8")


def write_archive(folder: Path, days: int, weeks: int, seed: int = 0) -> int:
    """`days` daily reports from 2025-01-01 and `weeks` weekly ones from 2025-W01 on."""
    rng = random.Random(seed)
    first = date(2025, 1, 1)
    for k in range(days):
        day = first + timedelta(days=k)
        save(daily_report(day, rng), folder / REPO / "daily" / f"{day}.en.json")
    template = weekly_template() if weeks else None
    monday = date.fromisocalendar(2025, 1, 1)
    for k in range(weeks):
        year, week, _ = (monday + timedelta(weeks=k)).isocalendar()
        path = folder / REPO / "weekly" / f"{year}-W{week:02d}.en.json"
        save(weekly_report(template, year, week, rng), path)
    return days + weeks


def _peak_rss_kib() -> int:
    """This process's peak RSS in KiB. Linux carries ru_maxrss over fork and exec, so a child
    started by a big parent would report the parent's peak: VmHWM is the high-water mark of
    this process's own address space. ru_maxrss where /proc is missing."""
    import resource

    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def child_build(src: Path, out: Path, bundle_bytes: int | None = None) -> dict[str, Any]:
    """Build the site in this process (a fresh one: `--child-build`) and measure it."""
    import resource

    from tidings.site import search_bundles
    from tidings.site.build import build_site

    t0 = time.perf_counter()
    # --quick: archives too small for the real size to split them get a smaller one.
    limit = bundle_bytes or search_bundles.BUNDLE_BYTES
    result = build_site(src, out, SiteConfig(title="bench"), pdf=False, search_bundle_bytes=limit)
    wall = time.perf_counter() - t0
    own = _peak_rss_kib()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "rss_mb": round(own / 1024, 1),
        "wall_s": round(wall, 2),
        "children_cpu_s": round(kids.ru_utime + kids.ru_stime, 2),
        "reports": result.reports,
        "reports_parsed": result.reports_parsed,
        "markdown_reused": result.markdown_reused,
        "markdown_rendered": result.markdown_rendered,
        "written": len(result.written),
        "search_bundles": result.search_bundles,
        "search_bundles_indexed": result.search_bundles_indexed,
        "search_pages_indexed": result.search_pages_indexed,
    }


def measured_build(src: Path, out: Path, bundle_bytes: int | None = None) -> dict[str, Any]:
    """A site build in a child process: its own peak RSS (VmHWM) and that of every process
    it starts (Pagefind), sampled from /proc."""
    from benchmarks.proctree import TreeSampler

    child = subprocess.Popen(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--child-build",
            str(src),
            str(out),
            *(["--bundle-bytes", str(bundle_bytes)] if bundle_bytes else []),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    with TreeSampler(child.pid) as tree:
        stdout, stderr = child.communicate()
    if child.returncode != 0:
        raise RuntimeError(f"child build failed: {stderr.strip()[-500:]}")
    found: dict[str, Any] = json.loads(stdout)
    found["pagefind"] = tree.children("pagefind")
    found["children"] = tree.children()
    found["tree_peak_mb"] = round(tree.tree_peak_kb / 1024, 1)
    return found


def change_one_report(src: Path, index: int) -> Path:
    """Edit the `index`th daily report (a merged PR's title), as a re-run of an old day
    would; its Markdown beside it changes too."""
    day = date(2025, 1, 1) + timedelta(days=index)
    path = src / REPO / "daily" / f"{day}.en.json"
    data = json.loads(path.read_text("utf-8"))
    data["appendix"]["merged_prs"][0]["title"] += " (edited)"
    path.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    markdown = path.with_suffix(".md")
    markdown.write_text(markdown.read_text("utf-8") + "\n<!-- edited -->\n", "utf-8")
    return path


def split(reports: int) -> tuple[int, int]:
    """An archive of `reports`: a weekly report for every seven dailies."""
    weeks = reports // 8
    return reports - weeks, weeks


def memory_phase(
    tmp: Path, sizes: list[tuple[int, int]], seed: int, bundle_bytes: int | None = None
) -> dict[str, Any]:
    """Peak RSS and wall time of a first build, a rebuild with nothing new and a rebuild with
    one changed report, each in a fresh process with every process it starts, for archives of
    several sizes, without PDFs."""
    rows = []
    for days, weeks in sizes:
        src, out = tmp / f"memory-{days}" / "reports", tmp / f"memory-{days}" / "site"
        reports = write_archive(src, days, weeks, seed)
        first = measured_build(src, out, bundle_bytes)
        again = measured_build(src, out, bundle_bytes)
        # One report changed, three times (a third, half and two thirds into the archive),
        # each rebuilt on its own: the median, as a loaded machine's one slow run would mislead.
        changes = []
        for index in (days // 3, days // 2, 2 * days // 3):
            change_one_report(src, index)
            changes.append(measured_build(src, out, bundle_bytes))
        changes.sort(key=lambda b: b["wall_s"])
        changed = changes[1] | {"walls_s": [b["wall_s"] for b in changes]}
        rows.append(
            {
                "days": days,
                "weeks": weeks,
                "reports": reports,
                "first": first,
                "rebuild": again,
                "changed": changed,
            }
        )
        shutil.rmtree(tmp / f"memory-{days}")  # 4,000 busy reports fill a gigabyte
    small, large = rows[0], rows[-1]

    def ratio(a: float, b: float) -> float:
        return round(a / b, 2) if b else 0.0

    return {
        "sizes": rows,
        "first_ratio": ratio(large["first"]["rss_mb"], small["first"]["rss_mb"]),
        "rebuild_ratio": ratio(large["rebuild"]["rss_mb"], small["rebuild"]["rss_mb"]),
        "pagefind_first_ratio": ratio(
            large["first"]["pagefind"]["peak_rss_mb"], small["first"]["pagefind"]["peak_rss_mb"]
        ),
        "pagefind_changed_ratio": ratio(
            large["changed"]["pagefind"]["peak_rss_mb"],
            small["changed"]["pagefind"]["peak_rss_mb"],
        ),
    }


def pdf_sample_of(archive: list[Path], n: int) -> list[Path]:
    """`n` reports spread evenly over the archive, dailies and weeklies alike (at least one
    of each kind the archive has)."""
    kinds = [[p for p in archive if f"/{kind}/" in p.as_posix()] for kind in ("daily", "weekly")]
    picked: list[Path] = []
    for paths in kinds:
        share = max(1, round(n * len(paths) / max(len(archive), 1))) if paths else 0
        step = len(paths) / share if share else 1
        picked += [paths[int(k * step)] for k in range(share)]
    return sorted(set(picked))


def stand_in_pdfs(src: Path, paths: list[Path], sample: list[Path]) -> None:
    """Give every other report a real PDF of the sample, of its own kind, round-robin, keyed by
    that report's own print page: the site then treats it as current, as it would each
    report's own PDF made by `tidings run`."""
    from tidings.render.pdf import pdf_key, pdf_path, print_html, store_pdf
    from tidings.report.kinds import load_report

    real = {
        kind: [pdf_path(p).read_bytes() for p in sample if f"/{kind}/" in p.as_posix()]
        for kind in ("daily", "weekly")
    }
    for k, path in enumerate(paths):
        report = load_report(path.read_bytes(), path)
        assert report is not None
        pool = real[report.kind] or real["daily"] or real["weekly"]
        store_pdf(path, pdf_key(print_html(report)), pool[k % len(pool)])


def run_benchmark(
    *,
    quick: bool,
    pdf_sample: int,
    backfill_pdfs: bool = False,
    seed: int = 0,
    sizes: list[int] | None = None,
) -> dict[str, Any]:
    from tidings.render.pdf import make_report_pdfs, pdf_path
    from tidings.site.build import build_site

    days, weeks = (20, 3) if quick else (365, 52)
    archives = [(20, 3), (40, 6)] if quick else [split(n) for n in sizes or DEFAULT_SIZES]
    results: dict[str, Any] = {
        "quick": quick,
        "cpus": os.cpu_count(),
        "days": days,
        "weeks": weeks,
        "pdfs": "real" if backfill_pdfs else "stand-in",
    }
    with tempfile.TemporaryDirectory(prefix="tidings-site-bench-") as tmp:
        src, out = Path(tmp) / "reports", Path(tmp) / "site"
        results["reports"] = write_archive(src, days, weeks, seed)
        cfg = SiteConfig(title="bench")
        archive = sorted(src.rglob("*.json"))

        # 1. PDFs at report time: the whole archive (backfill) or one, copied as stand-ins.
        if backfill_pdfs:
            t0 = time.perf_counter()
            made = make_report_pdfs(archive)
            results["backfill_s"] = round(time.perf_counter() - t0, 2)
            results["backfill_made"] = len(made)
        else:
            chosen = pdf_sample_of(archive, pdf_sample)
            t0 = time.perf_counter()
            make_report_pdfs(chosen)
            elapsed = time.perf_counter() - t0
            results["sample_pdfs"] = len(chosen)
            results["sample_pdf_s"] = round(elapsed, 2)
            # Rendered several at once (one per CPU), as `tidings run` renders a day's reports.
            results["report_pdf_s"] = round(elapsed / len(chosen), 2)
            results["sample_pdf_bytes"] = sorted(pdf_path(p).stat().st_size for p in chosen)
            results["archive_pdfs_projected_s"] = round(elapsed / len(chosen) * len(archive), 1)
            t0 = time.perf_counter()
            others = [p for p in archive if p not in set(chosen)]
            stand_in_pdfs(src, others, chosen)
            results["stand_in_setup_s"] = round(time.perf_counter() - t0, 2)

        # 2. The first build of the archive with its PDFs, and without PDFs for comparison.
        t0 = time.perf_counter()
        first = build_site(src, out, cfg)
        results["build_s"] = round(time.perf_counter() - t0, 2)
        results["files"] = len(first.written)
        results["build_pdfs_made"] = first.pdfs_made
        results["build_pdfs_copied"] = first.pdfs_copied
        t0 = time.perf_counter()
        build_site(src, Path(tmp) / "site-no-pdf", cfg, pdf=False)
        results["build_no_pdf_s"] = round(time.perf_counter() - t0, 2)

        # 3. Nothing new.
        t0 = time.perf_counter()
        same = build_site(src, out, cfg)
        results["rebuild_unchanged_s"] = round(time.perf_counter() - t0, 2)
        results["rebuild_unchanged_written"] = len(same.written)

        # 4. One new daily report, its PDF made when it is written, then the rebuild.
        new_day = date(2025, 1, 1) + timedelta(days=days)
        rng = random.Random(seed + 1)
        path = src / REPO / "daily" / f"{new_day}.en.json"
        path.write_text(daily_report(new_day, rng).model_dump_json(indent=2) + "\n", "utf-8")
        t0 = time.perf_counter()
        results["new_report_pdfs_made"] = len(make_report_pdfs([path]))
        results["new_report_pdf_s"] = round(time.perf_counter() - t0, 2)
        t0 = time.perf_counter()
        one_new = build_site(src, out, cfg)
        results["rebuild_one_new_s"] = round(time.perf_counter() - t0, 2)
        results["rebuild_one_new_written"] = sorted(one_new.written)
        results["rebuild_one_new_pdfs_made"] = one_new.pdfs_made

        # 5. The fallback: bare JSON, PDFs rendered by the site (a sample, projected).
        sample = Path(tmp) / "sample"
        for file in sorted((src / REPO / "daily").glob("*.json"))[-pdf_sample - 1 : -1]:
            target = sample / file.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(file.read_bytes())
        t0 = time.perf_counter()
        made = build_site(sample, Path(tmp) / "sample-site", cfg)
        elapsed = time.perf_counter() - t0
        results["fallback_pdfs_made"] = made.pdfs_made
        results["fallback_wall_s"] = round(elapsed, 2)
        per_pdf = elapsed / max(made.pdfs_made, 1)
        results["fallback_per_report_s"] = round(per_pdf, 2)
        results["fallback_archive_projected_s"] = round(per_pdf * results["reports"], 1)

        # 6. Memory and search: archives of several sizes, each build in a fresh process.
        # --quick: search bundles of about 15 busy pages, so its small archives split too.
        bundle_bytes = QUICK_BUNDLE_BYTES if quick else None
        results["memory"] = memory_phase(Path(tmp), archives, seed, bundle_bytes)
    memory = results["memory"]
    small, large = memory["sizes"][0], memory["sizes"][-1]
    expected = [f"{new_day}.en.{x}" for x in ("html", "json", "md", "pdf")]
    expected += [f"{new_day - timedelta(days=1)}.en.html"]  # its "next" link
    expected += [f"{new_day:%Y-%m}.html"]  # the month's calendar
    before = new_day - timedelta(days=1)
    if before.month != new_day.month:  # a new month: the month before links to it ("newer")
        expected += [f"{before:%Y-%m}.html"]
    expected += ["feed.en.xml", "feed.xml", "feed.xml", "index.html", "index.html"]
    expected += [".tidings-site.json"]
    results["targets"] = {
        f"peak RSS of a first build of {large['reports']} reports within 1.2x of "
        f"{small['reports']}": memory["first_ratio"] <= 1.2,
        f"peak RSS of a rebuild of {large['reports']} reports within 1.2x of "
        f"{small['reports']}": memory["rebuild_ratio"] <= 1.2,
        f"Pagefind's peak in a first build of {large['reports']} reports within 1.3x of "
        f"{small['reports']}": memory["pagefind_first_ratio"] <= 1.3,
        f"one changed report: Pagefind's peak at {large['reports']} reports within 1.3x of "
        f"{small['reports']}": memory["pagefind_changed_ratio"] <= 1.3,
        "one changed report re-indexes one search bundle, at every size": all(
            row["changed"]["search_bundles_indexed"] == 1 for row in memory["sizes"]
        ),
        "a rebuild with nothing new parses no report and runs no Pagefind": all(
            row["rebuild"]["reports_parsed"] == 0 and row["rebuild"]["pagefind"]["count"] == 0
            for row in memory["sizes"]
        ),
        "the Markdown beside each report is published, not rendered again": all(
            row["first"]["markdown_rendered"] == 0
            and row["first"]["markdown_reused"] == row["reports"]
            for row in memory["sizes"]
        ),
        "archive build with its PDFs under 60 s": results["build_s"] < 60,
        "the site rendered no PDF of a report that carried its own": results["build_pdfs_made"]
        == 0,
        "rebuild with nothing new writes no file": results["rebuild_unchanged_written"] == 0,
        "one new report touches only its files (PDF too), the day before, project and month "
        "pages, feeds, home, manifest and the search index": (
            sorted(
                p.rsplit("/", 1)[-1]
                for p in results["rebuild_one_new_written"]
                if not p.startswith(SEARCH_FOLDERS)
            )
            == sorted(expected)
        ),
        "one new report: its PDF made at report time, none by the site": (
            results["new_report_pdfs_made"] == 1 and results["rebuild_one_new_pdfs_made"] == 0
        ),
    }
    return results


def _build_line(label: str, b: dict[str, Any]) -> str:
    pf = b["pagefind"]
    others = b["children"]["count"] - pf["count"]
    return (
        f"      {label:<20} build {b['rss_mb']:>6.1f} MB {b['wall_s']:>7.2f} s, "
        f"{b['reports_parsed']:>4} parsed · Pagefind "
        f"{pf['count']:>3} runs, {b['search_pages_indexed']:>5} pages, peak "
        f"{pf['peak_rss_mb']:>6.1f} MB, {pf['wall_s']:>7.2f} s wall, "
        f"{b['children_cpu_s']:>6.2f} s CPU · tree {b['tree_peak_mb']:>6.1f} MB"
        + (f" · {others} other children" if others else "")
    )


def _memory_lines(row: dict[str, Any]) -> list[str]:
    first = row["first"]
    return [
        f"    {row['reports']:>5} reports ({row['days']} days + {row['weeks']} weeks), "
        f"{first['search_bundles']} search bundles, {first['markdown_reused']} Markdown reused:",
        _build_line("first build", first),
        _build_line("rebuild, nothing new", row["rebuild"]),
        _build_line("one changed report", row["changed"])
        + " (the median of 3: "
        + ", ".join(f"{w:.2f}" for w in row["changed"]["walls_s"])
        + " s)",
    ]


def render(results: dict[str, Any]) -> str:
    r = results
    if r["pdfs"] == "real":
        pdf_lines = [
            f"  PDFs at report time: backfilled all {r['backfill_made']} real PDFs in "
            f"{r['backfill_s']:.2f} s wall (a separate phase; `tidings run` pays one day's)",
        ]
    else:
        sizes = r["sample_pdf_bytes"]
        pdf_lines = [
            f"  real PDFs at report time, a sample of {r['sample_pdfs']}   "
            f"{r['sample_pdf_s']:>8.2f} s   ({r['report_pdf_s']:.2f} s a report; "
            f"{sizes[0] // 1024}–{sizes[-1] // 1024} KB; the whole archive ≈ "
            f"{r['archive_pdfs_projected_s']} s)",
            f"  the other {r['reports'] - r['sample_pdfs']} reports carry one of the sample's real "
            f"PDFs of their kind, keyed to their own report ({r['stand_in_setup_s']:.2f} s "
            "setup, untimed); --backfill-pdfs renders them all",
        ]
    lines = [
        f"site benchmark: {r['days']} daily + {r['weeks']} weekly reports of one busy repository "
        f"({r['cpus']} CPUs){' [quick]' if r['quick'] else ''}",
        *pdf_lines,
        f"  first build with PDFs (pages, feeds, charts) {r['build_s']:>7.2f} s   "
        f"{r['files']} files, {r['build_pdfs_copied']} PDFs published, "
        f"{r['build_pdfs_made']} rendered",
        f"  first build, --no-pdf                       {r['build_no_pdf_s']:>8.2f} s",
        f"  rebuild, nothing new                        {r['rebuild_unchanged_s']:>8.2f} s   "
        f"{r['rebuild_unchanged_written']} files written",
        f"  one new daily report: its PDF at report time {r['new_report_pdf_s']:>7.2f} s",
        f"  rebuild, one new daily report               {r['rebuild_one_new_s']:>8.2f} s   "
        f"{len(r['rebuild_one_new_written'])} files written, "
        f"{r['rebuild_one_new_pdfs_made']} PDFs rendered by the site:",
        *[f"      {p}" for p in r["rebuild_one_new_written"]],
        f"  fallback, bare JSON: the site rendered {r['fallback_pdfs_made']} PDFs in "
        f"{r['fallback_wall_s']:.2f} s wall ({r['fallback_per_report_s']:.2f} s per report); "
        f"a whole bare archive ≈ {r['fallback_archive_projected_s']} s, once",
        "  memory and search, each build in a fresh process without PDFs: the build process's",
        "  own peak RSS (VmHWM) and wall time; Pagefind, one run per search bundle indexed: runs,",
        "  the largest run's own peak RSS, summed wall time (sampled from /proc every 20 ms), CPU",
        *[line for row in r["memory"]["sizes"] for line in _memory_lines(row)],
        f"    ratio largest/smallest: build process first build {r['memory']['first_ratio']:.2f}x,"
        f" rebuild {r['memory']['rebuild_ratio']:.2f}x; Pagefind first build "
        f"{r['memory']['pagefind_first_ratio']:.2f}x, one changed report "
        f"{r['memory']['pagefind_changed_ratio']:.2f}x",
        "  targets:",
        *[f"    [{'x' if ok else ' '}] {name}" for name, ok in r["targets"].items()],
    ]
    met = sum(r["targets"].values())
    verdict = "PASS" if met == len(r["targets"]) else "FAIL"
    lines.append(
        f"  {verdict}: {met} of {len(r['targets'])} targets met; the first build with PDFs "
        f"{r['build_s']:.2f} s against the 60 s target"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 days, 3 weeks, 1 PDF")
    parser.add_argument(
        "--pdf-sample",
        type=int,
        default=None,
        help="reports whose real PDFs are rendered, and bare reports for the fallback (8)",
    )
    parser.add_argument(
        "--backfill-pdfs",
        action="store_true",
        help="render every report's real PDF first (slow: minutes) instead of stand-ins",
    )
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, DEFAULT_SIZES)),
        help="archive sizes (reports) of the memory and search phase, e.g. 100,800,4000",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--child-build", nargs=2, metavar=("SRC", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--bundle-bytes", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_build:
        src, out = Path(args.child_build[0]), Path(args.child_build[1])
        print(json.dumps(child_build(src, out, args.bundle_bytes)))
        return 0
    sample = max(1, args.pdf_sample or (2 if args.quick else 8))
    sizes = [int(n) for n in args.sizes.split(",")]
    results = run_benchmark(
        quick=args.quick, pdf_sample=sample, backfill_pdfs=args.backfill_pdfs, sizes=sizes
    )
    print(json.dumps(results, indent=2) if args.json else render(results))
    return 0 if all(results["targets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
