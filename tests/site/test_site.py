"""The site builder without a browser: incremental writes, dispatch on `kind`, charts checked
against the reports' own numbers, discussion settings, `tidings run`, `serve` and the CLI."""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from tests.factories import finished_sync
from tests.site_support import parse_page
from tidings.cli import main
from tidings.common.config import SiteConfig, parse_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.errors import TidingsError
from tidings.jobs.runner import run_repositories
from tidings.render.html import render_daily_html
from tidings.render.markdown import render_daily_markdown
from tidings.report.daily import build_daily
from tidings.report.model import DailyReport
from tidings.report.weekly import build_weekly
from tidings.site.activity import risk_counts
from tidings.site.build import build_site
from tidings.site.serve import make_server
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store
from tidings.words.weekly import tag_name

NOW = datetime(2026, 3, 20, tzinfo=UTC)
DAYS = ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12"]
PROJECT = "tidings-demo/rapidinfer"


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('site') / 'demo.db'}")
    import_snapshot(store, SAMPLE_PATH)
    return store


@pytest.fixture(scope="module")
def settings():  # type: ignore[no-untyped-def]
    from tidings.common.config import load_config

    return load_config(CONFIG_PATH).repo(REPO)


@pytest.fixture(scope="module")
def reports(demo_store: Store, settings) -> dict[tuple[str, str], DailyReport]:  # type: ignore[no-untyped-def]
    return {
        (day, lang): build_daily(demo_store, settings, date.fromisoformat(day), lang, now=NOW)
        for day in DAYS
        for lang in ("zh", "en")
    }


def write_reports(folder: Path, reports: dict, keys: list[tuple[str, str]]) -> None:  # type: ignore[type-arg]
    for day, lang in keys:
        path = folder / PROJECT / "daily" / f"{day}.{lang}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(reports[(day, lang)].model_dump_json(indent=2) + "\n", "utf-8")


def weekly_json(week: str, lang: str, risks: dict[str, int]) -> dict:  # type: ignore[type-arg]
    return {
        "schema_version": 1,
        "kind": "weekly",
        "repo": PROJECT,
        "project": "RapidInfer",
        "repo_url": f"https://github.com/{PROJECT}",
        "week": week,
        "lang": lang,
        "title": f"RapidInfer {week} <b>weekly</b>",
        "summary": {"text": "A week of <script>work</script>.", "by": "rules"},
        "risk_tag_counts": risks,
        "key_prs": [
            {"number": 4277, "url": f"https://github.com/{PROJECT}/pull/4277", "title": "x"},
            {"number": 1, "url": "javascript:alert(1)", "title": "evil"},
        ],
    }


def test_one_new_report_touches_only_the_files_that_changed(tmp_path: Path, reports) -> None:  # type: ignore[no-untyped-def]
    src, out = tmp_path / "reports", tmp_path / "site"
    keys = [(d, lang) for d in DAYS[:3] for lang in ("zh", "en")]
    write_reports(src, reports, keys)
    first = build_site(src, out, SiteConfig(), pdf=False)
    assert first.reports == 6 and first.projects == 1
    assert build_site(src, out, SiteConfig(), pdf=False).written == []
    write_reports(src, reports, [(DAYS[3], "en")])
    third = build_site(src, out, SiteConfig(), pdf=False)
    base = f"{PROJECT}/daily/{DAYS[3]}.en"
    pages = [rel for rel in third.written if not rel.startswith("pagefind/")]
    assert sorted(pages) == sorted(
        [
            f"{base}.html",
            f"{base}.md",
            f"{base}.json",
            f"{PROJECT}/daily/{DAYS[2]}.en.html",  # its "next" link now leads to the new day
            f"{PROJECT}/index.html",  # lists it, and its chart has a new day
            f"{PROJECT}/archive/2026-03.html",  # its month's calendar links the day
            f"{PROJECT}/feed.en.xml",  # the English feed, not the Chinese one
            f"{PROJECT}/feed.xml",
            "feed.xml",  # the site's feed
            "index.html",  # the latest date changed
            ".tidings-site.json",  # the build's own record of page and PDF inputs
            "search_ui/pages.json",  # the search page's map of pages to bundles
        ]
    )
    # The search index is made again (Pagefind's files are named by their content: the
    # old ones go), and only because a page changed.
    assert len(third.written) > len(pages) and all(
        rel.startswith("pagefind/") for rel in third.removed
    )
    # Its zh twin arriving also changes the en page, which now links to it.
    write_reports(src, reports, [(DAYS[3], "zh")])
    fourth = build_site(src, out, SiteConfig(), pdf=False)
    assert f"{base}.html" in fourth.written
    assert f"{PROJECT}/daily/{DAYS[2]}.en.html" not in fourth.written


@pytest.mark.slow
def test_pdfs_are_made_once_and_remade_only_when_their_page_changes(
    tmp_path: Path, reports
) -> None:  # type: ignore[no-untyped-def]
    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, reports, [(DAYS[0], "en")])
    assert build_site(src, out, SiteConfig()).pdfs_made == 1
    pdf = out / PROJECT / "daily" / f"{DAYS[0]}.en.pdf"
    assert pdf.read_bytes().startswith(b"%PDF")
    assert build_site(src, out, SiteConfig()).pdfs_made == 0
    # Rebuilding elsewhere gives the same bytes: nothing in the PDF depends on the build.
    other = tmp_path / "other"
    build_site(src, other, SiteConfig())
    assert (other / PROJECT / "daily" / f"{DAYS[0]}.en.pdf").read_bytes() == pdf.read_bytes()


def test_markdown_and_json_downloads_are_the_reports_own(tmp_path: Path, reports) -> None:  # type: ignore[no-untyped-def]
    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, reports, [(DAYS[1], "zh")])
    build_site(src, out, SiteConfig(), pdf=False)
    folder = out / PROJECT / "daily"
    source = src / PROJECT / "daily" / f"{DAYS[1]}.zh.json"
    assert (folder / f"{DAYS[1]}.zh.json").read_bytes() == source.read_bytes()
    md = (folder / f"{DAYS[1]}.zh.md").read_text("utf-8")
    assert md == render_daily_markdown(reports[(DAYS[1], "zh")])


def test_activity_and_label_charts_match_the_reports(tmp_path: Path, reports) -> None:  # type: ignore[no-untyped-def]
    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, reports, [(d, "en") for d in DAYS])
    build_site(src, out, SiteConfig(), pdf=False)
    whole = (out / PROJECT / "index.html").read_text("utf-8")
    # Each chart is drawn wide and narrow (CSS shows one): the wide drawings are checked.
    page = "".join(re.findall(r'<svg class="chart chart-wide".*?</svg>', whole, re.S))
    assert whole.count("chart chart-narrow") == whole.count("chart chart-wide") == 2
    # One point per series per day with a report; the point's tooltip is "DAY VALUE".
    for day in DAYS:
        s = reports[(day, "en")].stats
        new = s.new_issues + s.new_prs
        assert '<circle class="s-new"' in page
        assert f"<title>{day} {new}</title>" in page
        assert f"<title>{day} {s.merged_prs}</title>" in page
    circles = re.findall(r'<circle class="s-(new|merged|closed)"', page)
    assert Counter(circles) == {"new": 4, "merged": 4, "closed": 4}
    # Merged PRs per label, counted here from the reports' appendices.
    expected: Counter[str] = Counter()
    for day in DAYS:
        for ref in reports[(day, "en")].appendix.merged_prs:
            expected.update(ref.labels)
    bars = dict(re.findall(r"<rect class=\"bar\"[^>]*><title>([^<]+) (\d+)</title>", page))
    top = sorted(expected.items(), key=lambda kv: (-kv[1], kv[0]))[:15]
    assert {k: int(v) for k, v in bars.items()} == dict(top)


def test_weekly_reports_dispatch_on_kind_with_risk_chart(
    tmp_path: Path, reports, demo_store: Store, settings
) -> None:  # type: ignore[no-untyped-def]
    from tidings.report.weekly import build_weekly

    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, reports, [(DAYS[0], "en")])
    weeklies = {}
    for week in (10, 11):
        weekly = build_weekly(demo_store, settings, 2026, week, "en", now=NOW)
        weeklies[week] = weekly
        path = src / PROJECT / "weekly" / f"2026-W{week}.en.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(weekly.model_dump_json(indent=2), "utf-8")
    result = build_site(src, out, SiteConfig(), pdf=False)
    assert result.reports == 3
    project = (out / PROJECT / "index.html").read_text("utf-8")
    weekly_part = project.split('id="weekly"')[1].split('id="daily"')[0]
    assert weekly_part.index("2026 week 11") < weekly_part.index("2026 week 10")  # newest first
    # The risk chart's bars are the weekly reports' own risk-tag counts.
    for week, weekly in weeklies.items():
        for row in weekly.executive_summary.by_risk_tag:
            name = tag_name("en", row.name)  # the reader's words, not core_path
            assert f"<title>2026-W{week} {name} {row.count}</title>" in project
    assert "No weekly report with risk tags yet." not in project
    page = (out / PROJECT / "weekly" / "2026-W11.en.html").read_text("utf-8")
    parsed = parse_page(page)
    for anchor in ("highlights", "risks", "summary", "changes", "trends", "key-prs", "appendix"):
        assert anchor in parsed.ids
    for pr in weeklies[11].merged:
        assert f"https://github.com/{PROJECT}/pull/{pr.item.number}" in parsed.hrefs
    md = (out / PROJECT / "weekly" / "2026-W11.en.md").read_text("utf-8")
    assert md.startswith("# RapidInfer weekly report: 2026 week 11")
    feed = (out / PROJECT / "feed.en.xml").read_text("utf-8")
    assert feed.count("<entry>") == 3 and "tidings-weekly-2026-W10-en" in feed


def test_a_report_that_does_not_fit_its_kind_is_a_one_line_error(tmp_path: Path) -> None:
    # A weekly report of an unknown shape (an edited or foreign file) is not published as
    # whatever its JSON holds: the site reads typed reports only, and names the file.
    path = tmp_path / "r" / "x.json"
    path.parent.mkdir()
    path.write_text(json.dumps(weekly_json("2026-W10", "en", {"missing_tests": 3})), "utf-8")
    with pytest.raises(TidingsError, match=r"x\.json: not a valid weekly report") as caught:
        build_site(tmp_path / "r", tmp_path / "s", SiteConfig(), pdf=False)
    assert caught.value.fix == "regenerate it with this version of tidings"
    assert not (tmp_path / "s").exists()
    # JSON of another kind is not a report at all: left alone, as any other JSON file.
    path.write_text(json.dumps({"kind": "monthly", "repo": PROJECT, "lang": "en"}), "utf-8")
    with pytest.raises(TidingsError, match="no reports found"):
        build_site(tmp_path / "r", tmp_path / "s", SiteConfig(), pdf=False)


def test_risk_counts_come_from_the_typed_weekly_report(demo_store: Store, settings) -> None:  # type: ignore[no-untyped-def]
    weekly = build_weekly(demo_store, settings, 2026, 10, "en", now=NOW)
    counts = risk_counts(weekly)
    assert counts and all(n > 0 for n in counts.values())
    fired = Counter(t.tag for pr in weekly.merged for t in pr.risk_tags)
    assert counts == dict(fired)


def test_discussion_link_and_giscus_are_configurable(reports) -> None:  # type: ignore[no-untyped-def]
    from tidings.render.html import Giscus, PageChrome

    report = reports[(DAYS[0], "en")]
    url = "https://github.com/o/r/discussions/categories/reports"
    cfg = parse_config(f'[site]\ndiscussion = "{url}"\n').site
    assert cfg.discussion == url
    chrome = PageChrome(site_title="t", home_href="/", footer="", discussion_href=url)
    page = parse_page(render_daily_html(report, chrome))
    assert url in page.hrefs and not [t for t, _ in page.tags if t == "script"]
    giscus = parse_config(
        '[site.discussion]\nrepo = "o/r"\nrepo_id = "R_1"\ncategory = "Reports"\n'
        'category_id = "DIC_1"\n'
    ).site.discussion
    assert giscus is not None and not isinstance(giscus, str)
    chrome = PageChrome(
        site_title="t",
        home_href="/",
        footer="",
        discussion_href="https://github.com/o/r/discussions",
        giscus=Giscus(giscus.repo, giscus.repo_id, giscus.category, giscus.category_id),
    )
    page = parse_page(render_daily_html(report, chrome))
    scripts = [a for t, a in page.tags if t == "script"]
    assert len(scripts) == 1 and scripts[0]["data-repo"] == "o/r"
    with pytest.raises(TidingsError, match="http"):
        parse_config('[site]\ndiscussion = "javascript:alert(1)"\n')


def test_a_hostile_repo_url_makes_no_links(reports) -> None:  # type: ignore[no-untyped-def]
    report = reports[(DAYS[1], "en")].model_copy(update={"repo_url": "javascript:alert(1)//"})
    page = parse_page(render_daily_html(report))
    assert not [h for h in page.hrefs if "javascript" in h]
    assert not [h for h in page.hrefs if "/pull/" in h or "/issues/" in h]


def test_run_writes_due_reports_and_survives_a_failing_repository(
    tmp_path: Path, demo_store: Store
) -> None:
    cfg = parse_config(
        CONFIG_PATH.read_text("utf-8")
        + '\n[[repos]]\nname = "acme/broken"\n\n[site]\nlanguages = ["en", "zh"]\n'
    )

    def sync(store: Store, repo) -> dict[str, int]:  # type: ignore[no-untyped-def]
        if repo.name == "acme/broken":
            raise TidingsError("GitHub says 404 for acme/broken", "check the name")
        return finished_sync(store, repo)

    now = datetime(2026, 3, 14, 3, 0, tzinfo=UTC)  # 11:00 in Shanghai: 03-13's window closed
    outcomes = run_repositories(cfg, demo_store, sync=sync, reports_dir=tmp_path, days=2, now=now)
    ok, broken = outcomes
    assert ok.ok and not broken.ok and "404" in (broken.error or "")
    days = [
        f"{PROJECT}/daily/{d}.{lang}.json"
        for d in ("2026-03-12", "2026-03-13")
        for lang in ("en", "zh")
    ]
    # The last ISO week that has closed by Saturday 03-14 is W10 (03-02 to 03-08).
    weeks = [f"{PROJECT}/weekly/2026-W10.{lang}.json" for lang in ("en", "zh")]
    assert sorted(ok.written) == sorted(days + weeks)
    weekly_md = tmp_path / PROJECT / "weekly" / "2026-W10.en.md"
    assert weekly_md.read_text("utf-8").startswith("# RapidInfer weekly report: 2026 week 10")
    md = tmp_path / PROJECT / "daily" / "2026-03-13.zh.md"
    assert md.read_text("utf-8").startswith("# RapidInfer 开发动态报告 - 2026-03-13")
    again = run_repositories(cfg, demo_store, sync=sync, reports_dir=tmp_path, days=2, now=now)
    assert again[0].written == [] and again[0].unchanged == 6


def test_serve_previews_the_site(tmp_path: Path, reports) -> None:  # type: ignore[no-untyped-def]
    write_reports(tmp_path / "r", reports, [(DAYS[0], "zh")])
    build_site(tmp_path / "r", tmp_path / "s", SiteConfig(), pdf=False)
    server = make_server(tmp_path / "s", "127.0.0.1", 0)
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    try:
        host, port = server.server_address[:2]
        url = f"http://{host}:{port}/{PROJECT}/daily/{DAYS[0]}.zh.html"
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.headers["Content-Type"] == "text/html; charset=utf-8"
            assert "开发动态报告" in response.read().decode("utf-8")
    finally:
        server.shutdown()
        server.server_close()
    with pytest.raises(TidingsError, match=r"no index\.html"):
        make_server(tmp_path / "r")


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


def test_cli_site_build_and_its_errors(
    tmp_path: Path, reports, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    write_reports(tmp_path / "reports", reports, [(DAYS[0], "en")])
    code, out, _ = _cli(capsys, "site", "build", "--no-pdf", "--json")
    assert code == 0 and json.loads(out)["reports"] == 1
    assert (tmp_path / "site" / "index.html").is_file()
    code, _, err = _cli(capsys, "site", "build", "--from", "nowhere")
    assert code == 1 and err.count("\n") == 1 and "nowhere" in err
    code, _, err = _cli(capsys, "run")
    assert code != 0 and "no repositories" in err and err.count("\n") == 1


def test_cli_run_against_fake_github_one_repo_failing(
    tmp_path: Path,
    rec,  # type: ignore[no-untyped-def]
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from testkit.servers.github import FakeGitHub

    records = [
        rec.repo(),
        rec.issue(1, "2026-02-24T12:00:00Z", labels=["bug"]),
        rec.pr(2, "2026-02-20T00:00:00Z", merged_at="2026-02-24T12:00:00Z", labels=["rocm"]),
    ]
    token = "ghp_runtesttoken0123456789"
    monkeypatch.setenv("GITHUB_TOKEN", token)
    monkeypatch.chdir(tmp_path)
    db = f"sqlite:///{tmp_path / 'run.db'}"
    with FakeGitHub(records, token=token) as server:
        (tmp_path / "tidings.toml").write_text(
            '[[repos]]\nname = "acme/widgets"\n\n[[repos]]\nname = "acme/missing"\n\n'
            f'[github]\napi_url = "{server.api_url}"\nmax_retries = 1\ntimeout = 5\n',
            encoding="utf-8",
        )
        # The data is from February: a first sync bounded to the last 14 days would see none.
        args = ("--db", db, "run", "--days", "2", "--no-pdf", "--json")
        code, out, err = _cli(capsys, *args, "--full-history")
        assert code == 1, err  # acme/missing failed ...
        data = json.loads(out)
        widgets, missing = data["repositories"]
        assert widgets["ok"] and not missing["ok"] and "acme/missing" in missing["error"]
        # Objects, not preformatted strings: the sync's counts by name.
        assert widgets["synced"]["items"] >= 2 and widgets["synced"]["requests"] > 0
        assert sorted(widgets["new"]) == sorted(widgets["written"]) and not data["ok"]
        daily = [p for p in widgets["written"] if "/daily/" in p]
        assert len(daily) == 2  # ... and acme/widgets still got its reports
        assert data["site"]["reports"] == len(widgets["written"])
        assert (tmp_path / "site" / "acme" / "widgets" / "index.html").is_file()
        assert token not in out + err
        # Nothing new: nothing written, the site untouched.
        code, out, _ = _cli(capsys, "--db", db, "run", "--days", "2", "--no-pdf", "--json")
        again = json.loads(out)
        assert code == 1 and again["repositories"][0]["written"] == []
        assert again["site"]["files_written"] == 0


def test_a_hostile_repo_url_never_becomes_a_site_link(tmp_path: Path, reports) -> None:  # type: ignore[no-untyped-def]
    report = reports[(DAYS[0], "en")].model_copy(update={"repo_url": "javascript:alert(1)//"})
    path = tmp_path / "r" / "x.json"
    path.parent.mkdir()
    path.write_text(report.model_dump_json(), "utf-8")
    build_site(tmp_path / "r", tmp_path / "s", SiteConfig(), pdf=False)
    for page in (tmp_path / "s").rglob("*.html"):
        hrefs = parse_page(page.read_text("utf-8")).hrefs
        assert not [h for h in hrefs if "javascript" in h], page
    report_page = parse_page(
        (tmp_path / "s" / PROJECT / "daily" / f"{DAYS[0]}.en.html").read_text("utf-8")
    )
    # "This window on GitHub" still works, from the repository's name.
    assert [h for h in report_page.hrefs if h.startswith(f"https://github.com/{PROJECT}/pulls?q=")]
