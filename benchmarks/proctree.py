"""Peak memory and lifetime of a process and of every process it starts, read from /proc.

A sampler thread walks the tree from a root process (its children through
/proc/PID/task/TID/children, recursively) every `interval` seconds and reads each process's
VmHWM (the high-water mark of its own resident memory) and VmRSS.

Why not `resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`: on Linux a child's ru_maxrss starts
from the high-water mark of the process it was forked from (kept across exec), so a 35 MB
Pagefind run started by a 300 MB build reads 300 MB. RUSAGE_CHILDREN is exact for CPU time,
and the benchmarks use it for that. The sampler's limits: a process that lives shorter than
the interval may be missed, growth in its last interval is not seen, and a child caught
between fork and exec (its parent's name and memory) counts as its parent's until it runs its
own program; the benchmarks sample every 20 ms, and Pagefind runs last a third of a second
and more.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def _read(path: str) -> str:
    """A /proc file's text; empty once the process is gone."""
    try:
        return Path(path).read_text()
    except OSError:
        return ""


@dataclass
class Seen:
    name: str
    first: float
    last: float
    peak_kb: int = 0  # VmHWM: its own peak


@dataclass
class TreeSampler:
    root: int
    interval: float = 0.02
    seen: dict[int, Seen] = field(default_factory=dict)
    tree_peak_kb: int = 0  # the most the whole tree held at once (sum of VmRSS at a sample)

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(self.interval)
        self.sample()

    def _tree(self) -> list[int]:
        found, todo = [], [self.root]
        while todo:
            pid = todo.pop()
            found.append(pid)
            try:
                tasks = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tasks:
                todo += [int(c) for c in _read(f"/proc/{pid}/task/{tid}/children").split()]
        return found

    def sample(self) -> None:
        now = time.perf_counter()
        total = 0
        for pid in self._tree():
            status = _read(f"/proc/{pid}/status")
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            if "VmHWM" not in fields:  # exiting: its memory is gone
                continue
            hwm = int(fields["VmHWM"].split()[0])
            total += int(fields.get("VmRSS", "0 kB").split()[0])
            name = fields["Name"].strip()
            known = self.seen.get(pid)
            # A child seen between fork and exec still has its parent's name and memory: once
            # it runs its own program (another name), it is that program from then on.
            if known is None or known.name != name:
                known = self.seen[pid] = Seen(name, now, now)
            known.last, known.peak_kb = now, max(known.peak_kb, hwm)
        self.tree_peak_kb = max(self.tree_peak_kb, total)

    def children(self, name_prefix: str = "") -> dict[str, Any]:
        """The processes below the root (whose name starts with `name_prefix`): how many,
        the largest one's own peak (MB) and their summed lifetimes (s)."""
        root = self.seen.get(self.root)
        kids = [
            s
            for pid, s in self.seen.items()
            if pid != self.root
            and s.name.startswith(name_prefix)
            # one glimpse of a child under its parent's name: caught between fork and exec
            and not (root and s.name == root.name and s.first == s.last)
        ]
        return {
            "count": len(kids),
            "peak_rss_mb": round(max((s.peak_kb for s in kids), default=0) / 1024, 1),
            "wall_s": round(sum(s.last - s.first + self.interval for s in kids), 2),
        }

    def root_peak_mb(self) -> float:
        found = self.seen.get(self.root)
        return round(found.peak_kb / 1024, 1) if found else 0.0
