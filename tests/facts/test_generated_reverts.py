"""What the weekly report leaves out of "where the work was" (generated files, bot PRs), which
title tags are topics, and which PR a revert undoes (#12)."""

from __future__ import annotations

import pytest

from tidings.common.config import parse_config
from tidings.facts.generated import is_bot_pr, is_generated
from tidings.facts.reverts import is_revert, reverted_number
from tidings.facts.trends import is_generic, topic_tags

REPO = parse_config(
    '[[repos]]\nname = "o/r"\nbots = ["helper-account"]\ngenerated_paths = ["gen/**"]\n'
).repo("o/r")


@pytest.mark.parametrize(
    ("path", "generated"),
    [
        ("docs/source/locale/zh_CN/LC_MESSAGES/quick_start.po", True),
        ("docs/locale/messages.pot", True),
        ("uv.lock", True),
        ("web/package-lock.json", True),
        ("third_party/cutlass/include/a.h", True),
        ("gen/api.py", True),  # the repository's own glob
        ("vllm_ascend/worker/model_runner_v1.py", False),
        ("tests/e2e/config.yaml", False),
        ("docs/source/index.md", False),
    ],
)
def test_generated_and_vendored_paths(path: str, generated: bool) -> None:
    assert is_generated(path, REPO) is generated


def test_a_bots_pr_is_out_of_the_work_unless_it_is_a_revert() -> None:
    assert is_bot_pr("dependabot[bot]", "Bot", "Bump torch", None, REPO.bots)
    assert not is_bot_pr("dependabot[bot]", "Bot", 'Revert "Bump torch"', None, REPO.bots)
    assert is_bot_pr("vllm-ascend-ci", "GitAuthor", "Sync docs", None, REPO.bots)
    assert not is_bot_pr("Feng Liu", "GitAuthor", "Sync docs", None, REPO.bots)


def test_topic_tags_drop_series_branches_and_versions() -> None:
    assert topic_tags("[Refactor][DSA][3/N] unify prefill") == ["Refactor", "DSA"]
    assert topic_tags("[v0.23.0][Doc][Misc] Sync docs") == ["Doc", "Misc"]
    assert topic_tags("[main][BugFix] x") == ["BugFix"]
    assert topic_tags("[WIP][2/2] y") == []
    assert is_generic("[BugFix]") and is_generic("CI") and not is_generic("[MRV2]")


@pytest.mark.parametrize(
    ("number", "title", "body", "want"),
    [
        # A revert tool's title: the reverted PR follows the quoted title.
        (14287, '[Revert] Revert "[CI] add a5 nightly multi test- #14112" (#14190)', None, 14190),
        # A squash-merged revert: the number is inside the quoted title.
        (20, 'Revert "[Perf] Fuse RMSNorm (#17)"', None, 17),
        # GitHub's revert button.
        (21, 'Revert "Add a thing"', "Reverts octo/repo#9", 9),
        (22, "[Misc] Revert", "Revert of PR #8 (merged onto `main`).", 8),
        (23, "Revert #7 for now", None, 7),
        # Not a revert, or a revert naming only a commit.
        (24, "[BugFix] Fix revert of cache (#3)", None, None),
        (25, "Revert the cache change", "This reverts commit abc1234def.", None),
        (26, "[CI]: revert the cache", "Original PR: #12\n", 12),
        # A reapply reverts a revert: its title names the PR it brings back, not the one it
        # reverts (the store finds that by the commit).
        (27, 'Reapply "[Core] Fuse (#6041)" (#6227)', "This reverts commit 95649344aa.", None),
        # A squash title carrying the revert's own number names nothing.
        (28, 'Revert "[Core] Fuse" (#28)', None, None),
    ],
)
def test_reverted_number(number: int, title: str, body: str | None, want: int | None) -> None:
    assert reverted_number(number, title, body) == want


def test_is_revert() -> None:
    assert is_revert('Revert "x"') and is_revert("[Revert] y") and is_revert("[CI] Revert z")
    assert is_revert("Undo", "This reverts commit 0123456789abcdef.")
    assert not is_revert("[BugFix] Fix the revert path")
    assert is_revert("[CI]: revert csrc cache")
    # Reverting a revert brings the change back: a re-land (facts/relands.py), no revert.
    assert not is_revert("Reapply x", "This reverts commit 0123abc")
    assert not is_revert('Revert "Revert "x (#5)" (#6)"')
    assert not is_revert("[Re-land] x", 'This PR reverts "[Core] Revert x #6"')
