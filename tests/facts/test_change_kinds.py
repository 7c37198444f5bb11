"""A merged PR's kind of change and the part of the code it works in (facts/change_kinds.py),
from its title tags, labels and files."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tidings.common.config import RepoConfig
from tidings.facts.change_kinds import Area, change_area, change_kind
from tidings.facts.risk import MergedPR, PRFile

REPO = RepoConfig(name="vllm-project/vllm-ascend")
TESTS = REPO.test_paths


def pr(title: str, *paths: str, labels: tuple[str, ...] = (), body: str | None = None) -> MergedPR:
    return MergedPR(
        number=1,
        title=title,
        body=body,
        author="alice",
        labels=labels,
        merged_at=datetime(2026, 3, 2, tzinfo=UTC),
        source=None,
        reviews_known=True,
        approvers=(),
        reviews=0,
        unresolved_threads=None,
        files=tuple(PRFile(path=p, additions=10, deletions=2) for p in paths),
    )


@pytest.mark.parametrize(
    ("change", "kind"),
    [
        (pr('Revert "[Feature] add x"', "vllm_ascend/x.py"), "revert"),
        (pr("[BugFix] crash on start", "vllm_ascend/worker/a.py"), "fix"),
        (pr("[Perf] faster decode", "vllm_ascend/ops/a.py"), "perf"),
        (pr("add a page", "vllm_ascend/a.py", labels=("documentation",)), "doc"),
        # A tag names the kind before the files do.
        (pr("[CI] pin torch", "vllm_ascend/a.py"), "ci"),
        # Without a tag or label: the files.
        (pr("update the guide", "docs/source/a.md", "doc/b.md"), "doc"),
        (pr("cover the sampler", "tests/ut/test_a.py", "csrc/op/tests/t.cpp"), "test"),
        (pr("bump the action", ".github/workflows/ci.yml"), "ci"),
        (pr("move the sampler", "vllm_ascend/sample/a.py", "tests/ut/test_a.py"), "code"),
        # `[2/N]` names no kind.
        (pr("[2/N] split the runner", "vllm_ascend/worker/a.py"), "code"),
    ],
)
def test_the_kind_of_change(change: MergedPR, kind: str) -> None:
    assert change_kind(change, TESTS) == kind


def test_what_the_week_knows_comes_first() -> None:
    tagged = pr("[Feature] new op", "vllm_ascend/ops/a.py")
    assert change_kind(tagged, TESTS, reverts=True) == "revert"  # the store linked a revert
    assert change_kind(tagged, TESTS, sweep=True) == "format"  # its lines only re-format
    assert change_kind(tagged, TESTS) == "feature"


@pytest.mark.parametrize(
    ("change", "area"),
    [
        # The package's own folder says nothing: vllm_ascend/attention reads as attention.
        (pr("x", "vllm_ascend/attention/a.py"), Area("dir", "attention")),
        (pr("x", "csrc/kernels/a.cpp"), Area("dir", "csrc/kernels")),
        # A product directory wins over tests, whichever changed more lines.
        (pr("x", "tests/ut/a.py", "tests/ut/b.py", "vllm_ascend/ops/a.py"), Area("dir", "ops")),
        (pr("x", "tests/e2e/a.py"), Area("tests")),
        (pr("x", "docs/source/a.md"), Area("docs")),
        (pr("x", ".github/workflows/a.yml"), Area("ci")),
        (pr("x", "setup.py"), None),  # the root says nothing
        (pr("x"), None),
    ],
)
def test_the_area_of_a_change(change: MergedPR, area: Area | None) -> None:
    assert change_area(change, REPO) == area
