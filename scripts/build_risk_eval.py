"""Build the risk rules' evaluation evidence from a vllm-ascend clone.

tests/data/risk_eval/labels.toml names the merged PRs of the set and holds the judgements made
by reading each diff; this script writes what the rules read about those PRs into
tests/data/risk_eval/prs.jsonl.gz: title, body, merge time, and per file its path, previous path,
status, added/deleted line counts and the zero-context diff hunks (`@@` headers, `-` and `+`
lines), bounded per file and per PR so the set stays small. CI has no clone, so the output is
committed; this script only makes it reproducible.

A development script, not shipped. From the checkout:

    python scripts/build_risk_eval.py /path/to/vllm-ascend          # rewrite prs.jsonl.gz
    python scripts/build_risk_eval.py /path/to/vllm-ascend --check  # exit 1 if stale

The clone must hold the squash-merged commits of the labelled PRs (`git log --first-parent`);
a bare mirror works.
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
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "risk_eval"
LABELS = DATA / "labels.toml"
OUT = DATA / "prs.jsonl.gz"
# Every PR merged from 60 days before the first labelled one to the last: number, merge commit,
# title and time, what a store holds to link a revert to the PR it reverts.
HISTORY = DATA / "history.jsonl.gz"
HISTORY_DAYS = 60

# Hunk text kept per file: what the git source keeps (tidings.sources.git.PATCH_MAX_CHARS), so
# the rules see what a synced store holds; cut at a line end. Per PR, past PR_MAX_CHARS the
# biggest files keep their counts only (a few vendored-kernel PRs), to keep the set small.
FILE_MAX_CHARS = 32_000
PR_MAX_CHARS = 400_000
BODY_MAX_CHARS = 2_000
_SQUASH = re.compile(r"\s*\(#(\d+)\)\s*$")


def git(repo: Path, *args: str) -> bytes:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=False)
    if done.returncode != 0:
        reason = done.stderr.decode(errors="replace").strip().splitlines() or ["git failed"]
        sys.exit(f"error: git {args[0]} failed: {reason[-1]} — pass a vllm-ascend clone")
    return done.stdout


def first_parent_prs(repo: Path) -> dict[int, tuple[str, str, str]]:
    """PR number → (squash commit, title, commit time) on the default branch."""
    out: dict[int, tuple[str, str, str]] = {}
    log = git(repo, "log", "--first-parent", "--format=%H%x1f%cI%x1f%s", "HEAD").decode()
    for line in log.splitlines():
        sha, when, subject = line.split("\x1f", 2)
        match = _SQUASH.search(subject)
        if match:
            out.setdefault(int(match.group(1)), (sha, _SQUASH.sub("", subject).strip(), when))
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


def record(repo: Path, number: int, sha: str) -> dict[str, Any]:
    message = git(repo, "show", "-s", "--format=%B", sha).decode()
    merged = git(repo, "show", "-s", "--format=%cI", sha).decode().strip()
    subject, _, body = message.strip("\n").partition("\n")
    files = numstat(repo, sha)
    hunks(repo, sha, files)
    total = 0
    # Past the PR's budget, the largest files lose their hunks first: counts stay exact.
    for f in sorted(files, key=lambda f: len(f["patch"] or "")):
        size = len(f["patch"] or "")
        if total + size > PR_MAX_CHARS:
            f["patch"] = None
        total += size if f["patch"] else 0
    return {
        "number": number,
        "sha": sha,
        "title": _SQUASH.sub("", subject).strip(),
        "body": bound(body.strip(), BODY_MAX_CHARS) or None,
        "merged_at": merged,
        "files": files,
    }


def build(repo: Path) -> tuple[bytes, bytes]:
    labels = tomllib.loads(LABELS.read_text(encoding="utf-8"))
    prs = first_parent_prs(repo)
    out = io.StringIO()
    for entry in sorted(labels["pr"], key=lambda e: e["number"]):
        number = entry["number"]
        if number not in prs:
            sys.exit(f"error: PR #{number} is not on the clone's first-parent history — update it")
        out.write(json.dumps(record(repo, number, prs[number][0]), ensure_ascii=False) + "\n")
    times = [datetime.fromisoformat(prs[e["number"]][2]) for e in labels["pr"]]
    start, end = min(times) - timedelta(days=HISTORY_DAYS), max(times)
    history = io.StringIO()
    for number, (sha, title, when) in sorted(prs.items()):
        if start <= datetime.fromisoformat(when) <= end:
            row = {"number": number, "sha": sha, "title": title, "merged_at": when}
            history.write(json.dumps(row, ensure_ascii=False) + "\n")
    # mtime=0: the same evidence gives the same bytes, so --check can compare them.
    return (
        gzip.compress(out.getvalue().encode(), mtime=0),
        gzip.compress(history.getvalue().encode(), mtime=0),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("clone", type=Path, help="a vllm-project/vllm-ascend clone (bare is fine)")
    parser.add_argument("--check", action="store_true", help="exit 1 if prs.jsonl.gz is stale")
    args = parser.parse_args()
    data, history = build(args.clone)
    if args.check:
        fresh = all(
            p.exists() and p.read_bytes() == b for p, b in ((OUT, data), (HISTORY, history))
        )
        sys.exit(0 if fresh else 1)
    for path, blob in ((OUT, data), (HISTORY, history)):
        path.write_bytes(blob)
        print(f"{path}: {len(blob):,} bytes")


if __name__ == "__main__":
    main()
