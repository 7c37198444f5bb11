"""The search page benchmark (benchmarks/search_page.py) end to end on a small archive: the
bundle counts it asks for, and the browser's requests growing with them (no timing asserts)."""

from __future__ import annotations

import pytest

from benchmarks.search_page import CHROMIUM, run
from tests.site_support import require_tool
from tidings.site import search, search_bundles


@pytest.mark.slow
def test_more_bundles_cost_the_browser_more_requests() -> None:
    require_tool(CHROMIUM, "the search page benchmark")
    if search.executable() is None:
        pytest.skip(search.off_reason())
    one, several = run(20, [1, 4])
    assert one["bundles"] == 1 and several["bundles"] >= 4
    assert one["reports"] == several["reports"] == 20
    # Each merged bundle: its entry, metadata, filters and index chunks.
    assert several["requests"] >= one["requests"] + 4 * (several["bundles"] - 1)
    assert 0 < one["first_result_s"] <= one["idle_s"]
    # It sized the bundles through build_site, leaving the module's limit to later builds
    # in this process (CI's worker went on to build the demo site with the wrong one).
    assert search_bundles.BUNDLE_BYTES == 8_000_000
