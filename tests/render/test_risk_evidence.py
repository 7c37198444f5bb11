"""Risk evidence that carries a line (a skip that switched tests off, a pin that moved, a
revert's title) shows that line in the weekly Markdown and HTML, escaped, in both languages."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.factories import Records, seed
from tidings.common.config import LANGS, RepoConfig
from tidings.render.html import render_weekly_html
from tidings.render.weekly_markdown import render_weekly_markdown
from tidings.report.weekly import build_weekly

NOW = datetime(2026, 8, 24, tzinfo=UTC)
SKIP = '@pytest.mark.skip(reason="<b>broken</b>, fix me")'
PIN = "cdc4824a21eaa986d4d1fee90a7e6465c9f706e6"


@pytest.mark.parametrize("db", ["sqlite"])
def test_skip_and_pin_evidence_render_with_their_lines(sqlite_store, rec: Records, db: str) -> None:
    merged = "2026-08-19T10:00:00Z"
    seed(
        sqlite_store,
        [
            rec.repo("acme/engine"),
            rec.pr(1, merged_at=merged, title="[CI] Skip the flaky test"),
            rec.file(1, "tests/test_flaky.py", 1, 0, patch=f"@@ -9,0 +10 @@\n+{SKIP}"),
            rec.pr(2, merged_at=merged, title="[CI] main2main"),
            rec.file(
                2,
                ".github/vllm-main-verified.commit",
                1,
                1,
                patch=f"@@ -1 +1 @@\n-58d3918e3ea0a544ffedadad2ba84559e9c51d8f\n+{PIN}",
            ),
        ],
    )
    repo = RepoConfig(name="acme/engine")
    for lang in LANGS:
        report = build_weekly(sqlite_store, repo, 2026, 34, lang, now=NOW)
        tags = {p.item.number: {t.tag: t for t in p.risk_tags} for p in report.merged}
        assert tags[1]["tests_removed"].evidence[0].numbers == {"disabled": 1}
        assert tags[2]["dependency_change"].evidence[0].line == PIN
        md = render_weekly_markdown(report)
        html = render_weekly_html(report)
        assert PIN in md and PIN in html
        assert "pytest.mark.skip" in md and "&lt;b&gt;broken&lt;/b&gt;" in html
        assert "<b>broken</b>" not in html
