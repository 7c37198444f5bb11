"""A git repository holding a generated week's merged PRs as squash commits, for the sync
benchmark's "diffs from a clone" scenario (benchmarks/sync.py).

`write_origin` writes, with one `git fast-import` run, a bare repository whose `main` has one
commit per merged PR in merge order: subject "TITLE (#N)" (GitHub's squash merge), committed at
the merge time, changing each of the PR's files by its counts (lines added at the end, the
first lines deleted, a removed file deleted; a file the counts would leave as it was, or a
removed file the history never held, gets a line, so every PR has a diff). It returns the
records with each merged PR's `merge_commit_sha` set to its commit, so that the loopback GitHub
and the clone agree on it, as GitHub and a clone of the repository do.
"""

from __future__ import annotations

import subprocess
from collections import defaultdict
from pathlib import Path

from tidings.common.records import ItemRecord, PRFileRecord, Record


def _data(text: str) -> bytes:
    raw = text.encode("utf-8")
    return b"data %d\n" % len(raw) + raw + b"\n"


def _stream(merged: list[ItemRecord], files: dict[int, list[PRFileRecord]]) -> bytes:
    content: dict[str, list[str]] = {}
    out = [b"reset refs/heads/main\n"]
    for mark, item in enumerate(merged, 1):
        assert item.merged_at is not None
        when = int(item.merged_at.timestamp())
        person = f"Author {item.author or 'ghost'} <{item.author or 'ghost'}@example.com>"
        out.append(b"commit refs/heads/main\nmark :%d\n" % mark)
        out.append(f"author {person} {when} +0000\ncommitter {person} {when} +0000\n".encode())
        out.append(_data(f"{item.title} (#{item.number})\n"))
        if mark > 1:
            out.append(b"from :%d\n" % (mark - 1))
        for f in files.get(item.number, []):
            if f.status == "removed" and f.path in content:
                del content[f.path]
                out.append(f"D {f.path}\n".encode())
                continue
            old = content.get(f.path, [])
            lines = old[(f.deletions or 0) :]
            lines += [f"#{item.number} {f.path} line {k}" for k in range(f.additions or 0)]
            if lines == old or not lines:  # every file of a PR changes: it has a diff
                lines.append(f"#{item.number} {f.path}")
            content[f.path] = lines
            out.append(f"M 100644 inline {f.path}\n".encode())
            out.append(_data("".join(line + "\n" for line in lines)))
        out.append(b"\n")
    return b"".join(out)


def write_origin(records: list[Record], path: Path) -> list[Record]:
    """Write the bare repository at `path` (see the module docstring); the records with the
    merged PRs' `merge_commit_sha` set to their commits."""
    merged = sorted(
        (r for r in records if isinstance(r, ItemRecord) and r.merged_at is not None),
        key=lambda r: (r.merged_at, r.number),
    )
    files: dict[int, list[PRFileRecord]] = defaultdict(list)
    for r in records:
        if isinstance(r, PRFileRecord):
            files[r.number].append(r)
    path = path.resolve()  # `git -C` reads a relative --export-marks from inside it
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    marks = path / "marks"
    subprocess.run(
        ["git", "-C", str(path), "fast-import", "--quiet", f"--export-marks={marks}"],
        input=_stream(merged, files),
        check=True,
    )
    sha = {}
    for line in marks.read_text().splitlines():
        mark, commit = line.split()
        sha[merged[int(mark[1:]) - 1].number] = commit
    marks.unlink()
    out: list[Record] = []
    for r in records:
        if isinstance(r, ItemRecord) and r.number in sha:
            r = r.model_copy(update={"merge_commit_sha": sha[r.number]})
        out.append(r)
    return out
