"""How report pages are split into search bundles (site/search_bundles.py): bounded in bytes,
in time order, and stable from one build to the next, so a change re-indexes what it touches."""

from __future__ import annotations

from pathlib import Path

from tidings.common.config import Lang, SiteConfig
from tidings.site.context import SiteContext
from tidings.site.output import BuildResult, Output
from tidings.site.search_bundles import Bundle, Page, page_key, plan
from tidings.site.search_page import Placed, place

LIMIT = 7  # bytes a bundle holds: pages of 3 bytes, two a bundle


def day(n: int, size: int = 3, repo: str = "o/r") -> Page:
    stem = f"{repo}/daily/2026-03-{n:02d}.en"
    return Page(page_key(stem), stem, size)


def stems(bundles: list[Bundle]) -> list[list[str]]:
    return [[p.stem[-13:-3] for p in b.pages] for b in bundles]


def test_keys_follow_time_then_repository_and_a_week_sorts_with_its_sunday() -> None:
    week = page_key("o/r/weekly/2026-W11.en")  # 2026-03-09 .. 2026-03-15
    assert week == "2026-03-15 o/r weekly"
    assert page_key("o/r/daily/2026-03-15.en") < week < page_key("o/r/daily/2026-03-16.en")
    assert page_key("a/z/daily/2026-03-10.zh") < page_key("b/a/daily/2026-03-10.zh")
    assert page_key("z/z/daily/2026-03-09.en") < page_key("a/a/daily/2026-03-10.en")


def test_a_first_build_fills_bundles_in_time_order() -> None:
    bundles = plan([day(n) for n in (5, 1, 3, 2, 4)], [], LIMIT)
    assert stems(bundles) == [
        ["2026-03-01", "2026-03-02"],
        ["2026-03-03", "2026-03-04"],
        ["2026-03-05"],
    ]
    assert [b.low for b in bundles] == ["", day(3).key, day(5).key]
    assert all(b.size <= LIMIT for b in bundles)


def test_new_days_go_to_the_last_bundle_and_the_others_keep_their_pages() -> None:
    first = plan([day(n) for n in range(1, 6)], [], LIMIT)
    bounds = [b.low for b in first]
    grown = plan([day(n) for n in range(1, 7)], bounds, LIMIT)
    assert stems(grown)[:2] == stems(first)[:2]
    assert stems(grown)[2] == ["2026-03-05", "2026-03-06"]
    # Past the limit, the last one is cut: full first, the newest day in a new bundle.
    again = plan([day(n) for n in range(1, 8)], [b.low for b in grown], LIMIT)
    assert stems(again) == [*stems(grown), ["2026-03-07"]]
    assert again[-1].low == day(7).key


def test_an_edited_page_stays_in_its_bundle_and_a_grown_bundle_is_cut() -> None:
    bounds = [b.low for b in plan([day(n) for n in range(1, 7)], [], LIMIT)]
    edited = plan([day(n, size=4 if n == 3 else 3) for n in range(1, 7)], bounds, LIMIT)
    assert stems(edited) == [
        ["2026-03-01", "2026-03-02"],
        ["2026-03-03", "2026-03-04"],
        ["2026-03-05", "2026-03-06"],
    ]
    grown = plan([day(n, size=6 if n == 3 else 3) for n in range(1, 7)], bounds, LIMIT)
    assert stems(grown)[0] == ["2026-03-01", "2026-03-02"]
    assert stems(grown)[1:3] == [["2026-03-03"], ["2026-03-04"]]
    assert stems(grown)[3] == ["2026-03-05", "2026-03-06"]


def test_a_page_bigger_than_the_limit_is_a_bundle_of_its_own() -> None:
    bundles = plan([day(1), day(2, size=20), day(3)], [], LIMIT)
    assert stems(bundles) == [["2026-03-01"], ["2026-03-02"], ["2026-03-03"]]


def test_emptied_bundles_go_and_the_first_is_always_named_empty() -> None:
    bounds = [b.low for b in plan([day(n) for n in range(1, 7)], [], LIMIT)]
    assert len(bounds) == 3
    # The middle bundle's days removed: its range joins the first.
    middle_gone = plan([day(n) for n in (1, 2, 5, 6)], bounds, LIMIT)
    assert [b.low for b in middle_gone] == ["", day(5).key]
    # The oldest days removed: the next bundle becomes the first.
    oldest_gone = plan([day(n) for n in (3, 4, 5, 6)], bounds, LIMIT)
    assert [b.low for b in oldest_gone] == ["", day(5).key]
    assert stems(oldest_gone)[0] == ["2026-03-03", "2026-03-04"]


def test_small_neighbours_are_joined() -> None:
    bounds = [b.low for b in plan([day(n) for n in range(1, 7)], [], LIMIT)]
    shrunk = plan([day(n, size=1) for n in range(1, 7)], bounds, LIMIT)
    # 2 + 2 bytes are over half the limit (3): joined only while together at most that.
    assert [b.size for b in shrunk] == [2, 2, 2]
    tiny = plan([day(n, size=1) for n in (1, 3, 5)], bounds, LIMIT)
    assert stems(tiny) == [["2026-03-01", "2026-03-03", "2026-03-05"]]


def test_bounds_from_an_edited_manifest_are_only_names() -> None:
    bundles = plan([day(n) for n in range(1, 4)], [7, None, "../../x"], LIMIT)
    assert bundles[0].low == "" and sum(len(b.pages) for b in bundles) == 3
    assert all(isinstance(b.low, str) for b in bundles)


def _placed(tmp_path: Path, stems: list[str], language: Lang) -> list[tuple[str, str, bool]]:
    output = Output(tmp_path, BuildResult(out=tmp_path))
    ctx = SiteContext(SiteConfig(language=language), output, search=True)
    return [(p.lang, p.folder, p.primary) for p in place(ctx, stems, {})]


def test_the_search_pages_own_bundle_is_the_first_of_its_language(tmp_path: Path) -> None:
    stems = ["o/r/daily/2026-03-01.zh", "o/r/daily/2026-03-01.en"]
    assert _placed(tmp_path, stems, "en") == [
        ("en", "pagefind", True),
        ("zh", "pagefind/zh/start", False),
    ]
    assert _placed(tmp_path, stems, "zh") == [
        ("zh", "pagefind", True),
        ("en", "pagefind/en/start", False),
    ]
    # No page in the site's language: the other language's first bundle is the page's own.
    assert _placed(tmp_path, stems[:1], "en") == [("zh", "pagefind", True)]


def test_a_bundle_owns_the_files_of_its_folder_only() -> None:
    own = Placed("en", Bundle(""), "pagefind", primary=True)
    other = Placed("zh", Bundle(""), "pagefind/zh/start", primary=False)
    assert own.owns("pagefind/pagefind.js") and own.owns("pagefind/index/en_1.pf_index")
    assert not own.owns("pagefind/zh/start/pagefind-entry.json") and not own.owns("search.html")
    assert other.owns("pagefind/zh/start/fragment/zh-cn_1.pf_fragment")
    assert not other.owns("pagefind/zh/start2/pagefind-entry.json")
