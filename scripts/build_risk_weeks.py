"""Build the diff hunks of every PR merged in 2026-W04..W06 from a vllm-ascend clone.

The weekly report's risk observations of those weeks (tests/report/test_weekly_sweeps.py) are
tested against what a git sync of the real history gives: the shared history
(../shared/data/vllm-ascend-commits.jsonl) has each PR's files and counts but no diff text,
and the rules need the hunks (a formatting sweep is told from a large change by them). This
script extracts them into tests/data/risk_weeks/hunks.jsonl.gz in the risk evaluation's
compact form and bounds (scripts/build_risk_eval.py: zero-context hunks, 32,000 characters
per file, 400,000 per PR), checking each PR's file list against the shared history.

A development script, not shipped. From the checkout:

    python scripts/build_risk_weeks.py /path/to/vllm-ascend          # rewrite the file
    python scripts/build_risk_weeks.py /path/to/vllm-ascend --check  # exit 1 if stale
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from build_risk_eval import agrees, first_parent_prs, publish, record, shared_prs  # noqa: E402

OUT = ROOT / "tests" / "data" / "risk_weeks" / "hunks.jsonl.gz"
ZONE = ZoneInfo("Asia/Shanghai")
# ISO weeks 2026-W04 to W06, local time, with a day either side: a report's cutoff hour may
# move a merge into the week before or after.
START = datetime(2026, 1, 19, tzinfo=ZONE) - timedelta(days=1)
END = datetime(2026, 2, 9, tzinfo=ZONE) + timedelta(days=1)


def wanted(shared: dict[int, dict[str, Any]]) -> list[int]:
    return sorted(
        n for n, r in shared.items() if START <= datetime.fromisoformat(r["committed_at"]) < END
    )


def build(repo: Path, shared: dict[int, dict[str, Any]]) -> bytes:
    prs = first_parent_prs(repo)
    out = io.StringIO()
    for number in wanted(shared):
        if number not in prs:
            sys.exit(f"error: PR #{number} is not on the clone's first-parent history")
        row, files = record(repo, number, prs[number])
        if problem := agrees(number, prs[number], files, shared[number]):
            sys.exit(f"error: {problem} — use a clone of the same history as the shared one")
        out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return gzip.compress(out.getvalue().encode(), mtime=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("clone", type=Path, help="a vllm-project/vllm-ascend clone (bare is fine)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args()
    publish(OUT, build(args.clone, shared_prs()), check=args.check)


if __name__ == "__main__":
    main()
