"""Search page benchmark: what the reader's browser pays for each search bundle it merges.

    python benchmarks/search_page.py [--reports 400] [--bundles 1,4,16,64] [--json]

The site's search is split into bundles (site/search_bundles.py) so that a change re-indexes a
bounded part of the archive; the search page merges every bundle in the browser (Pagefind's
`mergeIndex`), fetching each one's entry, metadata, filters and the index chunks a query needs.
This builds one synthetic archive of a busy repository (benchmarks/site.py's reports) into
sites with about 1, 4, 16 and 64 bundles (the bundle size set to the pages' bytes over the
count), serves each on the loopback interface, and opens its search page in headless Chromium
with a query: the time until the first result shows, and the requests until the network is
idle. Chromium is Debian's (/usr/bin/chromium, as the site's browser tests use). The figure
the site's design rests on: the cost grows with the number of bundles, so bundles follow time
(one day of every project in one bundle) rather than one bundle per project.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from benchmarks.site import split, write_archive  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
QUERY = "scheduler"  # a word of the synthetic titles, on most pages


def build(src: Path, out: Path, bundles: int, total: int) -> dict[str, Any]:
    from tidings.common.config import SiteConfig
    from tidings.site.build import build_site

    limit = max(1, total // bundles + 1)
    t0 = time.perf_counter()
    result = build_site(src, out, SiteConfig(title="bench"), pdf=False, search_bundle_bytes=limit)
    return {"bundles": result.search_bundles, "build_s": round(time.perf_counter() - t0, 1)}


def page_bytes(site: Path) -> int:
    return sum(p.stat().st_size for p in site.glob("*/*/*/*.html"))


def visit(browser: Any, url: str) -> dict[str, Any]:
    """Open the search page with QUERY: seconds to the first result, requests until idle."""
    context = browser.new_context()
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    t0 = time.perf_counter()
    page.goto(f"{url}search.html?q={QUERY}", wait_until="load")
    page.wait_for_selector(".pagefind-ui__result", timeout=600_000)
    first = time.perf_counter() - t0
    page.wait_for_load_state("networkidle")
    idle = time.perf_counter() - t0
    context.close()
    return {"first_result_s": round(first, 2), "idle_s": round(idle, 2), "requests": len(requests)}


def run(reports: int, counts: list[int]) -> list[dict[str, Any]]:
    from playwright.sync_api import sync_playwright

    from tidings.site.serve import make_server

    rows = []
    with tempfile.TemporaryDirectory(prefix="tidings-search-bench-") as tmp:
        src = Path(tmp) / "reports"
        write_archive(src, *split(reports))
        total = 0
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            for count in counts:
                out = Path(tmp) / f"site-{count}"
                if not total:  # the pages' bytes, from a first build
                    build(src, out, 1, 10**12)
                    total = page_bytes(out)
                row = {"reports": reports, **build(src, out, count, total)}
                server = make_server(out, "127.0.0.1", 0)
                threading.Thread(target=server.serve_forever, daemon=True).start()
                try:
                    host, port = server.server_address[:2]
                    row |= visit(browser, f"http://{host!s}:{port}/")
                finally:
                    server.shutdown()
                    server.server_close()
                rows.append(row)
            browser.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reports", type=int, default=400, help="reports in the archive")
    parser.add_argument("--bundles", default="1,4,16,64", help="bundle counts to measure")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    rows = run(args.reports, [int(n) for n in args.bundles.split(",")])
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(
        f"search page, {args.reports} busy reports, query {QUERY!r}, headless Chromium on the "
        "loopback interface:"
    )
    for row in rows:
        print(
            f"  {row['bundles']:>4} bundles: first result {row['first_result_s']:>6.2f} s, "
            f"network idle {row['idle_s']:>6.2f} s, {row['requests']:>5} requests"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
