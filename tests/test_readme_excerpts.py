"""The report excerpts in README are the demo's reports as they are today: every line of each
excerpt is a line of the golden file it quotes (a README that shows an older wording, or a
hand-shortened quote, tells a reader the tool writes something it does not)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
# The README's ```markdown blocks, in order, and the golden file each one quotes.
QUOTED = ["daily-2026-03-04.zh.md", "daily-2026-03-04.en.md", "weekly-2026-W10.zh.md"]


def _blocks() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```markdown\n(.*?)```", readme, re.DOTALL)


@pytest.mark.parametrize(("index", "golden"), list(enumerate(QUOTED)))
def test_each_readme_excerpt_line_is_a_line_of_its_golden_report(index: int, golden: str) -> None:
    block = _blocks()[index]
    lines = set((GOLDEN / golden).read_text(encoding="utf-8").splitlines())
    quoted = [line for line in block.splitlines() if line.strip()]
    assert len(quoted) >= 4, "the excerpt is the one README means"
    stale = [line for line in quoted if line not in lines]
    assert not stale, f"README lines not in {golden}: {stale}"
