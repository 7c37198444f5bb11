"""Search bundles on a real site (site/search_page.py): every report page in exactly one bundle
of its language, the search page merging all the others, and a build re-indexing only the
bundles whose pages changed (issue #24)."""

from __future__ import annotations

import gzip
import json
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from tidings.common.config import SiteConfig, load_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.report.daily import build_daily
from tidings.site import search
from tidings.site.build import build_site
from tidings.site.output import BuildResult
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store

NOW = datetime(2026, 3, 20, tzinfo=UTC)
DAYS = [f"2026-03-{d:02d}" for d in range(4, 10)]
OTHER = "other-org/engine"  # a second project: the demo's reports under another name
PAGE_BYTES = 40_000  # the demo's daily pages are 25-40 KB


@pytest.fixture(scope="module")
def report_json(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, str], str]:
    """The demo's daily reports of DAYS in both languages, for the demo's project and OTHER."""
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('bundles') / 'demo.db'}")
    try:
        import_snapshot(store, SAMPLE_PATH)
        settings = load_config(CONFIG_PATH).repo(REPO)
        found = {}
        for day in [*DAYS, "2026-03-10"]:
            for lang in ("en", "zh"):
                report = build_daily(store, settings, date.fromisoformat(day), lang, now=NOW)
                data = json.loads(report.model_dump_json())
                found[(REPO, day, lang)] = json.dumps(data)
                data |= {
                    "repo": OTHER,
                    "project": "Engine",
                    "repo_url": f"https://github.com/{OTHER}",
                }
                found[(OTHER, day, lang)] = json.dumps(data)
        return found
    finally:
        store.close()


def write(src: Path, reports: dict[tuple[str, str, str], str], days: list[str]) -> None:
    for (repo, day, lang), text in reports.items():
        if day in days:
            path = src / repo / "daily" / f"{day}.{lang}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, "utf-8")


def bundles(site: Path) -> dict[str, tuple[set[str], set[str]]]:
    """Each bundle's folder -> (its languages, the pages its fragments hold)."""
    found = {}
    for entry in site.glob("pagefind/**/pagefind-entry.json"):
        folder = entry.parent
        urls = set()
        for fragment in folder.glob("fragment/*.pf_fragment"):
            raw = gzip.decompress(fragment.read_bytes())
            urls.add(json.loads(raw[len(b"pagefind_dcd") :])["url"].lstrip("/"))
        languages = set(json.loads(entry.read_text("utf-8"))["languages"])
        found[folder.relative_to(site).as_posix()] = (languages, urls)
    return found


def indexed(result: BuildResult) -> set[str]:
    """The bundles whose index this build wrote."""
    return {
        rel.rsplit("/pagefind-entry.json", 1)[0]
        for rel in result.written
        if rel.endswith(search.ENTRY)
    }


def test_bundles_cover_every_page_once_and_only_changed_ones_are_indexed_again(
    tmp_path: Path, report_json: dict[tuple[str, str, str], str]
) -> None:
    if search.executable() is None:
        pytest.skip(search.off_reason())  # the site's own rule: no Pagefind, no search
    limit = 3 * PAGE_BYTES
    src, out = tmp_path / "reports", tmp_path / "site"
    write(src, report_json, DAYS)
    first = build_site(src, out, SiteConfig(), pdf=False, search_bundle_bytes=limit)
    found = bundles(out)
    pages = {p.relative_to(out).as_posix() for p in out.glob("*/*/daily/*.html")}
    assert len(pages) == 2 * 2 * len(DAYS)
    # Every page in one bundle of its own language, each bundle within the limit.
    listed = [url for _, urls in found.values() for url in urls]
    assert sorted(listed) == sorted(pages)
    for folder, (languages, urls) in found.items():
        assert languages == ({"en"} if folder == "pagefind" or "/en/" in folder else {"zh-cn"})
        assert all(url.endswith(".en.html" if "en" in languages else ".zh.html") for url in urls)
        assert sum((out / url).stat().st_size for url in urls) <= 3 * PAGE_BYTES or len(urls) == 1
    assert first.search_bundles == len(found) >= 6 and first.search_bundles_indexed == len(found)
    # The search page loads pagefind/ (its own language's first bundle) and merges the rest.
    merged = re.search(r"mergeIndex: (\[.*?\])\.map", (out / "search.html").read_text("utf-8"))
    assert merged is not None
    listed_merges = {(m["path"].rstrip("/"), m["language"]) for m in json.loads(merged.group(1))}
    expected = {(f, next(iter(langs))) for f, (langs, _) in found.items() if f != "pagefind"}
    assert listed_merges == expected
    assert (out / "pagefind" / "pagefind-ui.js").is_file()
    assert not any((out / f / "pagefind.js").exists() for f in found if f != "pagefind")
    assert_pages_map(out)

    # Nothing new: nothing indexed, nothing written.
    again = build_site(src, out, SiteConfig(), pdf=False, search_bundle_bytes=limit)
    assert again.written == [] and again.search_bundles_indexed == 0

    # One report edited (the other project's, in English, mid-archive): its bundle only.
    path = src / OTHER / "daily" / "2026-03-06.en.json"
    data = json.loads(path.read_text("utf-8"))
    data["appendix"]["merged_prs"][0]["title"] += " with an unmistakable zeppelin"
    path.write_text(json.dumps(data), "utf-8")
    edited = build_site(src, out, SiteConfig(), pdf=False, search_bundle_bytes=limit)
    holding = [
        f for f, (_, urls) in bundles(out).items() if f"{OTHER}/daily/2026-03-06.en.html" in urls
    ]
    assert indexed(edited) == set(holding) and edited.search_bundles_indexed == 1
    assert edited.search_pages_indexed <= 3
    assert not any(rel.startswith("pagefind/zh/") for rel in edited.written)
    assert_pages_map(out)

    # A new day: the bundles of the newest days, never the oldest.
    write(src, report_json, ["2026-03-10"])
    newer = build_site(src, out, SiteConfig(), pdf=False, search_bundle_bytes=limit)
    assert "pagefind" not in indexed(newer) and 1 <= newer.search_bundles_indexed <= 4
    for folder in indexed(newer):
        urls = bundles(out)[folder][1]
        assert any("2026-03-09" in url or "2026-03-10" in url for url in urls)
    assert sorted(u for _, urls in bundles(out).values() for u in urls) == sorted(
        p.relative_to(out).as_posix() for p in out.glob("*/*/daily/*.html")
    )
    assert_pages_map(out)


def assert_pages_map(out: Path) -> None:
    """search_ui/pages.json names, for every page of every bundle (its Pagefind fragment), the
    bundle's place in the search page's order: its own bundle 0, then the merged ones."""
    merged = re.search(r"mergeIndex: (\[.*?\])\.map", (out / "search.html").read_text("utf-8"))
    assert merged is not None
    order = ["pagefind", *(m["path"].rstrip("/") for m in json.loads(merged.group(1)))]
    expected = {
        frag.name.removesuffix(".pf_fragment"): k
        for k, folder in enumerate(order)
        for frag in (out / folder / "fragment").glob("*.pf_fragment")
    }
    assert len(expected) == len(list(out.glob("*/*/daily/*.html")))
    assert json.loads((out / "search_ui" / "pages.json").read_text("utf-8")) == expected
    assert (out / "search_ui" / "pagefind.js").read_text("utf-8").startswith("// Pagefind's")
