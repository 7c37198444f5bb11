"""The report excerpts in README.md and docs/reports.md are the demo's reports as they are today:
every line of each excerpt is a line of the golden file it quotes (a page that shows an older
wording, or a hand-shortened quote, tells a reader the tool writes something it does not)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
# Each page's ```markdown blocks, in order, and the golden file each one quotes.
QUOTED = {
    "README.md": ["daily-2026-03-04.zh.md"],
    "docs/reports.md": [
        "daily-2026-03-04.zh.md",
        "daily-2026-03-04.en.md",
        "weekly-2026-W10.zh.md",
        "weekly-2026-W11.en.md",
    ],
}
CASES = [
    (page, index, golden)
    for page, goldens in QUOTED.items()
    for index, golden in enumerate(goldens)
]


def _blocks(page: str) -> list[str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    return re.findall(r"```markdown\n(.*?)```", text, re.DOTALL)


@pytest.mark.parametrize("page", sorted(QUOTED))
def test_each_page_has_the_excerpts_it_is_checked_for(page: str) -> None:
    assert len(_blocks(page)) == len(QUOTED[page])


@pytest.mark.parametrize(("page", "index", "golden"), CASES)
def test_each_excerpt_line_is_a_line_of_its_golden_report(
    page: str, index: int, golden: str
) -> None:
    block = _blocks(page)[index]
    lines = set((GOLDEN / golden).read_text(encoding="utf-8").splitlines())
    quoted = [line for line in block.splitlines() if line.strip()]
    assert len(quoted) >= 2, "the excerpt is the one the page means"
    stale = [line for line in quoted if line not in lines]
    assert not stale, f"{page} lines not in {golden}: {stale}"
