"""GitHub's patches (unified hunks with context) become the zero-context hunks a git sync
stores, line for line as `git diff --unified=0` prints them, and the risk rules read either
form alike."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tidings.common.config import RepoConfig
from tidings.facts.patch import parse_patch
from tidings.facts.risk import MergedPR, PRFile, assess
from tidings.sources.github.patches import PR_PATCH_MAX_CHARS, select
from tidings.sources.hunks import PATCH_MAX_CHARS, zero_context

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def _hunks(diff: str) -> str:
    """A `git diff` of one file as the store keeps it: from the first `@@` on, headers
    without git's function context after the second `@@`."""
    lines = diff.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("@@"))
    kept = [re.sub(r"^(@@ [^@]* @@).*$", r"\1", line) for line in lines[start:] if line]
    return "\n".join(kept)


def _edit(rng: random.Random, lines: list[str]) -> list[str]:
    out = list(lines)
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(out) + 1)
        kind = rng.choice("+-~")
        if kind == "+":
            out[at:at] = [f"    assert n{rng.randrange(99)} > 0"] * rng.randint(1, 3)
        elif out and kind == "-":
            del out[at : at + rng.randint(1, 3)]
        elif out:
            out[min(at, len(out) - 1)] = f"changed = {rng.randrange(999)}"
    return out


def test_github_patches_become_the_hunks_git_prints(tmp_path: Path) -> None:
    """On random edits of a file (insertions, deletions, rewrites, at its start and end): the
    converted 3-line-context diff equals git's own zero-context diff, headers included."""
    rng = random.Random(12)
    repo = tmp_path / "r"
    _git(tmp_path, "init", "-q", str(repo))
    path = repo / "f.py"
    compared = 0
    for round_ in range(40):
        before = [f"line {i} of {round_}" for i in range(rng.randint(0, 30))]
        path.write_text("".join(x + "\n" for x in before))
        _git(repo, "add", "f.py")
        _git(repo, "commit", "-qm", f"r{round_}", "--allow-empty")
        after = _edit(rng, before)
        path.write_text("".join(x + "\n" for x in after))
        context = _git(repo, "diff", "-U3", "--no-color", "--", "f.py")
        if not context:
            continue
        bare = _git(repo, "diff", "-U0", "--no-color", "--", "f.py")
        assert zero_context(_hunks(context)) == _hunks(bare), (before, after)
        compared += 1
    assert compared >= 30


GITHUB_PATCH = """@@ -10,7 +10,9 @@ def pack(weights):
     n = weights.shape[0]
-    scale = 1.0
+    scale = 2.0
+    assert n % 8 == 0, "n must be a multiple of 8"
     out = []
     for w in weights:
         out.append(w)
\\ No newline at end of file
@@ -40,3 +42,2 @@ def unpack(x):
     y = x
-    del y
     return x"""

# The same change as `git log -p --unified=0` stores it.
GIT_HUNKS = """@@ -11 +11,2 @@
-    scale = 1.0
+    scale = 2.0
+    assert n % 8 == 0, "n must be a multiple of 8"
@@ -41 +42,0 @@
-    del y"""


def test_a_github_patch_converts_to_the_git_form() -> None:
    assert zero_context(GITHUB_PATCH) == GIT_HUNKS
    assert zero_context(GIT_HUNKS) == GIT_HUNKS  # already zero-context: unchanged
    assert zero_context("@@ -0,0 +1,2 @@\n+a\n+b") == "@@ -0,0 +1,2 @@\n+a\n+b"  # a new file
    assert zero_context("") is None  # GitHub's empty patch of a mode-only change


def _pr(patch: str) -> MergedPR:
    return MergedPR(
        number=1,
        title="Pack weights",
        body=None,
        author="a",
        labels=(),
        merged_at=datetime(2026, 3, 2, tzinfo=UTC),
        source=None,
        reviews_known=True,
        approvers=("b",),
        reviews=1,
        unresolved_threads=0,
        files=(
            PRFile("pkg/quant/pack.py", status="modified", additions=2, deletions=2, patch=patch),
        ),
    )


def test_the_rules_read_a_patch_with_context_as_its_zero_context_form() -> None:
    with_context, bare = parse_patch(GITHUB_PATCH), parse_patch(GIT_HUNKS)
    assert with_context == bare
    assert bare is not None and [len(h.added) for h in bare.hunks] == [2, 0]
    repo = RepoConfig(name="o/r")
    tags = assess(_pr(GITHUB_PATCH), repo)
    assert tags == assess(_pr(GIT_HUNKS), repo)
    fired = {t.tag: t for t in tags}
    assert "assert_validation" in fired
    assert fired["assert_validation"].evidence[0].line == (
        'assert n % 8 == 0, "n must be a multiple of 8"'
    )


def test_patches_are_bounded_per_file_and_per_pr() -> None:
    huge = "@@ -0,0 +1,4000 @@\n" + "\n".join(f"+x = {i:>10}" for i in range(4000))
    many = [(f"gen/{i}.py", huge) for i in range(20)]
    kept, without, cut = select([("a.py", GITHUB_PATCH), ("logo.png", None), *many])
    assert all(len(text) <= PATCH_MAX_CHARS for text in kept.values())
    assert sum(len(text) for text in kept.values()) <= PR_PATCH_MAX_CHARS
    assert kept["a.py"] == GIT_HUNKS  # the small file kept whole; the biggest give way
    assert without == ["logo.png"]
    assert cut and set(cut) | (set(kept) - {"a.py"}) == {p for p, _ in many}
    last = kept[next(p for p in kept if p.startswith("gen/"))].rsplit("\n", 1)[1]
    assert re.fullmatch(r"\+x = +\d+", last)  # cut at a line's end
