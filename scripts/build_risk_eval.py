"""Build the risk rules' evaluation hunks from a vllm-ascend clone.

tests/data/risk_eval/labels.toml names the merged PRs of the set and holds the judgements made
by reading each diff. What else the rules read about those PRs comes from two places: the
shared vllm-ascend history (../shared/data/vllm-ascend-commits.jsonl: title, body, merge time,
every file's path and added/deleted counts, and the PRs merged around them), read at run time
and never copied here; and what that history lacks, which this script extracts from a clone
into tests/data/risk_eval/hunks.jsonl.gz: per PR (number and merge commit) and per file (its
path) the file's status and its zero-context diff hunks (`@@` headers, `-` and `+` lines),
bounded per file and per PR so the set stays small. CI has no clone, so the hunks are
committed; this script only makes them reproducible. testkit/risk_eval.py joins the two.

A development script, not shipped. From the checkout:

    python scripts/build_risk_eval.py /path/to/vllm-ascend          # rewrite hunks.jsonl.gz
    python scripts/build_risk_eval.py /path/to/vllm-ascend --check  # exit 1 if stale

The clone must hold the squash-merged commits of the labelled PRs (`git log --first-parent`);
a bare mirror works. The shared history must be there too (TIDINGS_SHARED names it where
../shared is not beside the checkout): the clone's file lists are checked against it, since
the evaluation joins the hunks to its files by path.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from testkit.gitlog import ASCEND, load_records, split_rename  # noqa: E402

DATA = ROOT / "tests" / "data" / "risk_eval"
LABELS = DATA / "labels.toml"
OUT = DATA / "hunks.jsonl.gz"

# Hunk text kept per file: what the git source keeps (tidings.sources.git.PATCH_MAX_CHARS), so
# the rules see what a synced store holds; cut at a line end. Per PR, past PR_MAX_CHARS the
# biggest files keep their counts only (a few vendored-kernel PRs), to keep the set small.
FILE_MAX_CHARS = 32_000
PR_MAX_CHARS = 400_000
_SQUASH = re.compile(r"\s*\(#(\d+)\)\s*$")


def git(repo: Path, *args: str) -> bytes:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
    if done.returncode != 0:
        reason = done.stderr.decode(errors="replace").strip().splitlines() or ["git failed"]
        sys.exit(f"error: git {args[0]} failed: {reason[-1]} — pass a vllm-ascend clone")
    return done.stdout


def first_parent_prs(repo: Path) -> dict[int, str]:
    """PR number → its squash commit on the default branch (the newest, if merged twice)."""
    out: dict[int, str] = {}
    log = git(repo, "log", "--first-parent", "--format=%H%x1f%s", "HEAD").decode()
    for line in log.splitlines():
        sha, subject = line.split("\x1f", 1)
        match = _SQUASH.search(subject)
        if match:
            out.setdefault(int(match.group(1)), sha)
    return out


def numstat(repo: Path, sha: str) -> list[dict[str, Any]]:
    raw = git(repo, "diff-tree", "-r", "-M", "--no-commit-id", "--numstat", "-z", f"{sha}^", sha)
    tokens = raw.split(b"\x00")
    files: list[dict[str, Any]] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if not token.strip():
            continue
        adds, dels, path = token.split(b"\t", 2)
        entry: dict[str, Any] = {
            "path": path.decode(),
            "previous_path": None,
            "status": "modified",
            "additions": None if adds == b"-" else int(adds),
            "deletions": None if dels == b"-" else int(dels),
            "patch": None,
        }
        if not path:
            entry["previous_path"], entry["path"] = tokens[i].decode(), tokens[i + 1].decode()
            entry["status"] = "renamed"
            i += 2
        files.append(entry)
    return files


def hunks(repo: Path, sha: str, files: list[dict[str, Any]]) -> None:
    """Fill each file's status and zero-context hunks from `git diff -U0`."""
    by_path = {f["path"]: f for f in files}
    text = git(
        repo, "diff", "-M", "--unified=0", "--no-color", "--no-ext-diff", f"{sha}^", sha
    ).decode("utf-8", errors="replace")
    current: dict[str, Any] | None = None
    lines: list[str] = []
    status, old = "modified", ""

    def flush() -> None:
        if current is not None and lines:
            current["patch"] = bound("\n".join(lines), FILE_MAX_CHARS)

    for line in text.split("\n"):
        if line.startswith("diff --git "):
            flush()
            current, lines, status, old = None, [], "modified", ""
        elif current is None and line.startswith("new file mode"):
            status = "added"
        elif current is None and line.startswith("deleted file mode"):
            status = "removed"
        elif current is None and line.startswith("--- "):
            old = line[4:]
        elif current is None and line.startswith("+++ "):
            new = line[4:]
            current = by_path.get(new[2:] if new.startswith("b/") else old[2:])
            if current is not None and current["status"] != "renamed":
                current["status"] = status
        elif current is not None and line.startswith(("@@", "+", "-")):
            lines.append(line)
    flush()


def bound(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: text.rfind("\n", 0, limit)]


def record(repo: Path, number: int, sha: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The PR's hunks as committed, and its files as the clone lists them (for the check)."""
    files = numstat(repo, sha)
    hunks(repo, sha, files)
    total = 0
    # Past the PR's budget, the largest files lose their hunks first: counts stay exact.
    for f in sorted(files, key=lambda f: len(f["patch"] or "")):
        size = len(f["patch"] or "")
        if total + size > PR_MAX_CHARS:
            f["patch"] = None
        total += size if f["patch"] else 0
    kept = {f["path"]: {"status": f["status"], "patch": f["patch"]} for f in files}
    return {"number": number, "sha": sha, "files": kept}, files


def agrees(number: int, sha: str, files: list[dict[str, Any]], shared: dict[str, Any]) -> str:
    """Why the shared record of the PR disagrees with the clone, or "" when it agrees: the
    evaluation joins the hunks to the shared files by path, so both must list the same."""
    if shared["sha"] != sha:
        return f"PR #{number} is {shared['sha'][:12]} in the shared history, {sha[:12]} here"
    theirs = [(*split_rename(f["path"]), f["additions"], f["deletions"]) for f in shared["files"]]
    ours = [(f["previous_path"], f["path"], f["additions"], f["deletions"]) for f in files]
    if sorted(theirs, key=repr) != sorted(ours, key=repr):
        return f"PR #{number}'s files differ between the clone and the shared history"
    return ""


def build(repo: Path, shared: dict[int, dict[str, Any]]) -> bytes:
    labels = tomllib.loads(LABELS.read_text(encoding="utf-8"))
    prs = first_parent_prs(repo)
    out = io.StringIO()
    for entry in sorted(labels["pr"], key=lambda e: e["number"]):
        number = entry["number"]
        if number not in prs:
            sys.exit(f"error: PR #{number} is not on the clone's first-parent history — update it")
        if number not in shared:
            sys.exit(f"error: PR #{number} is not in {ASCEND} — use the shared history it names")
        row, files = record(repo, number, prs[number])
        if problem := agrees(number, prs[number], files, shared[number]):
            sys.exit(f"error: {problem} — use a clone of the same history as {ASCEND}")
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
    # mtime=0: the same evidence gives the same bytes, so --check can compare them.
    return gzip.compress(out.getvalue().encode(), mtime=0)


def shared_prs() -> dict[int, dict[str, Any]]:
    """The shared history's records by PR number (newest first, so a re-merge keeps the last)."""
    if not ASCEND.exists():
        sys.exit(f"error: {ASCEND} is absent — set TIDINGS_SHARED to the shared folder")
    out: dict[int, dict[str, Any]] = {}
    for r in load_records(ASCEND):
        if r["pr_number"] is not None:
            out.setdefault(r["pr_number"], r)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("clone", type=Path, help="a vllm-project/vllm-ascend clone (bare is fine)")
    parser.add_argument("--check", action="store_true", help="exit 1 if hunks.jsonl.gz is stale")
    args = parser.parse_args()
    publish(OUT, build(args.clone, shared_prs()), check=args.check)


def publish(out: Path, blob: bytes, *, check: bool) -> None:
    """Write `blob` to `out`; with `check`, only say whether `out` already holds it (exit 1
    when it is stale)."""
    if check:
        fresh = out.exists() and out.read_bytes() == blob
        if not fresh:
            print(f"{out} is stale — run without --check to rewrite it", file=sys.stderr)
        sys.exit(0 if fresh else 1)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(blob)
    print(f"{out}: {len(blob):,} bytes")


if __name__ == "__main__":
    main()
