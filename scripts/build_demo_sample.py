"""Build `sample.jsonl`, the demo snapshot: a fictional LLM inference engine's fortnight on GitHub.

The repository is `tidings-demo/rapidinfer` ("RapidInfer"), followed from 2026-03-02 to
2026-03-13 in Asia/Shanghai with a 09:00 cut-off. Its story is hand-written data in
scripts/demo_sample/story/ (people, issues, PRs, comments, reviews, diff hunks and files; one
TOML file a day, described in scripts/demo_sample/README.md). The builder only numbers the
items in creation order, derives ids, SHAs and the bookkeeping fields, checks that the result is
self-consistent, and writes it exactly as `tidings export` would (same header, same record
order), so importing and exporting it again gives the same bytes. src/tidings/demo/README.md,
beside the snapshot, tells the story day by day.

A development script, not shipped: the package carries only its output. From the checkout:

    python scripts/build_demo_sample.py          # rewrite src/tidings/demo/sample.jsonl
    python scripts/build_demo_sample.py --check  # exit 1 if sample.jsonl is stale
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from demo_sample.load import load_story
from demo_sample.model import StoryError
from demo_sample.snapshot import SAMPLE, render


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--check"]):
        print("usage: python scripts/build_demo_sample.py [--check]", file=sys.stderr)
        return 2
    try:
        content = render(load_story())
    except StoryError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args == ["--check"]:
        current = SAMPLE.read_text(encoding="utf-8") if SAMPLE.exists() else ""
        if current != content:
            print(f"{SAMPLE} is stale: run python scripts/build_demo_sample.py", file=sys.stderr)
            return 1
        return 0
    SAMPLE.write_text(content, encoding="utf-8")
    print(f"wrote {SAMPLE} ({content.count(chr(10)) - 1} records)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
