"""The vllm-ascend records (../shared/data) as the bytes `git log` prints, built at test time.

`render_log` writes, for each record, exactly what `tidings.sources.git.log_command` makes git
print for such a commit: the formatted header, the `-z --numstat` entries (a rename as its
count, then the old and the new path) and the patch headers of each file. The records carry no
diff text, so no hunk is rendered: their files get no added lines (patch None), which is what
the store holds wherever the patch is unknown. tests/sources/test_git_source.py proves the same
parser on a real git repository's output. tests/sources/test_vllm_ascend.py and
benchmarks/weekly.py read it.

The records' text is read from ../shared at run time and never copied into the repository.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from testkit.shared import shared_dir

ASCEND = shared_dir() / "data" / "vllm-ascend-commits.jsonl"
REPO = "vllm-project/vllm-ascend"

_BRACES = re.compile(r"^(?P<pre>.*)\{(?P<old>[^{}]*) => (?P<new>[^{}]*)\}(?P<post>.*)$")


def load_records(path: Path = ASCEND) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def split_rename(path: str) -> tuple[str | None, str]:
    """(previous path, path) from git's `a/{old => new}/b` or `old => new` notation."""
    match = _BRACES.match(path)
    if match:
        pre, old, new, post = match["pre"], match["old"], match["new"], match["post"]

        def join(middle: str) -> str:
            return re.sub(r"/{2,}", "/", f"{pre}{middle}{post}").strip("/")

        return join(old), join(new)
    if " => " in path:
        old, new = path.split(" => ", 1)
        return old, new
    return None, path


def _commit(record: dict[str, Any], parent: str | None) -> bytes:
    message = record["subject"] + ("\n\n" + record["body"] if record.get("body") else "") + "\n"
    header = "\x1f".join(
        [
            "\x1e" + record["sha"],
            record["author"],
            "",  # the records carry no email
            record["authored_at"],
            record["committed_at"],
            parent or "",
            message,
        ]
    )
    out = [(header + "\x1f").encode() + b"\x00"]
    if not record["files"]:
        return b"".join(out)
    numstat: list[bytes] = []
    patch: list[str] = []
    for f in record["files"]:
        old, new = split_rename(f["path"])
        counts = "-\t-\t" if f["additions"] is None else f"{f['additions']}\t{f['deletions']}\t"
        if old is not None:
            numstat.append(f"{counts}\x00{old}\x00{new}\x00".encode())
            patch.append(
                f"diff --git a/{old} b/{new}\nsimilarity index 90%\n"
                f"rename from {old}\nrename to {new}\n"
            )
        else:
            numstat.append(f"{counts}{new}\x00".encode())
            patch.append(f"diff --git a/{new} b/{new}\n")
    out.append(b"\n" + b"".join(numstat) + b"\x00")
    out.append("".join(patch).encode())
    return b"".join(out)


def render_log(records: list[dict[str, Any]]) -> Iterator[bytes]:
    """The records (newest first, as in the file) as `git log` output, one commit at a time."""
    for k, record in enumerate(records):
        parent = records[k + 1]["sha"] if k + 1 < len(records) else None
        yield _commit(record, parent)
