"""What a PR card gives the model, one test per kind of evidence (#21): the description without
its template and ended at a sentence, both sides of the most telling hunks (source before
tests; licence headers, imports and reformatting left out), the files as counts, the author as
a login or a git display name, and completion budgets that hold what a capable model wrote.

The bodies and patches below are written for these tests in the shape of vllm-ascend's; the
checks on real data read ../shared at run time.
"""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

import pytest

from testkit.servers.openai import FakeOpenAI, data_of
from testkit.shared import shared_dir
from tests.factories import Records, seed
from tests.shared import shared_or_skip
from tidings.analysis import budgets as limits
from tidings.analysis.analyst import Analyst
from tidings.analysis.cache import LLMCache
from tidings.analysis.cards import DIFF_CHARS, card_logins
from tidings.analysis.provider import Provider, ProviderSettings, estimate_tokens
from tidings.common.config import parse_config
from tidings.common.records import GIT_AUTHOR
from tidings.facts.description import MORE, describe
from tidings.facts.diff_excerpt import diff_excerpt
from tidings.facts.paths import PathKinds
from tidings.facts.risk import PRFile
from tidings.report.daily import build_daily
from tidings.store import Store

REPO = "acme/widgets"
CONFIG = f"""
[[repos]]
name = "{REPO}"
core_paths = ["widgets/engine/**"]
"""
DAY = date(2026, 2, 24)
Cards = dict[int, dict[str, Any]]
MERGED = "2026-02-24T05:00:00Z"

BODY = """### What this PR does / why we need it?
<!-- Describe your change and why. -->
Replaces the linear scan in the block cache's eviction with an LRU list,
which cuts the eviction step from 412us to 95us on a 64k-block cache.

This fixes several bugs in the old path:
- a block pinned by a running request could be evicted;
- `evict()` returned `None` when the cache was full.

| Cache size | Before | After |
| --- | ---: | ---: |
| 16k | 120us | 40us |
| 64k | 412us | 95us |

### Does this PR introduce _any_ user-facing change?
No.

### How was this patch tested?
- [ ] I added a changelog entry
- [x] Unit tests in tests/test_cache.py

- vLLM version: v0.26.0
- vLLM main:
https://github.com/vllm-project/vllm/commit/0123456789abcdef0123456789abcdef01234567

---------

Signed-off-by: Ada Quill <ada@example.com>
Co-authored-by: Mei Lin <mei@example.com>"""

LICENCE = [
    "#",
    "# Copyright (c) 2026 Acme Widgets. All Rights Reserved.",
    "# Licensed under the Apache License, Version 2.0 (the 'License').",
    "#",
]
CACHE_PY = "\n".join(
    ["@@ -0,0 +1,14 @@"]
    + [f"+{x}" for x in LICENCE]
    + [
        "+import os",
        "+from widgets.engine.blocks import (",
        "+    Block,",
        "+    BlockPool,",
        "+)",
        "+",
        "+class LRUCache:",
        "+    def evict(self) -> Block:",
        "+        return self.order.popleft()",
    ]
)
SCHED_PY = "\n".join(
    [
        "@@ -40 +40,2 @@",
        "-    assert budget > 0",
        "+    if budget <= 0:",
        "+        raise ValueError('budget must be positive')",
        "@@ -88 +89 @@",
        "-        self.moved_helper()",
        "+        self.cache.evict()",
    ]
)
UTIL_PY = "@@ -3,2 +3,2 @@\n-x = f(a,b)\n-y = [1,2]\n+x = f(a, b)\n+y = [1, 2]"
TEST_PY = "\n".join(
    ["@@ -0,0 +1,32 @@"]
    + [f"+import widgets.mod{i}" for i in range(28)]
    + ["+", "+def test_evict_returns_the_oldest_block():", "+    assert cache.evict() is first"]
)
DOC_MD = "@@ -1 +1 @@\n-Eviction scans every block.\n+Eviction pops the oldest block."


def _files(r: Records) -> list[Any]:
    files = [
        r.file(10, "widgets/engine/cache.py", status="added", additions=14, deletions=0),
        r.file(10, "widgets/engine/sched.py", additions=3, deletions=2),
        r.file(10, "widgets/util.py", additions=2, deletions=2),
        r.file(10, "tests/test_cache.py", status="added", additions=32, deletions=0),
        r.file(10, "docs/cache.md", additions=1, deletions=1),
    ]
    patches = [CACHE_PY, SCHED_PY, UTIL_PY, TEST_PY, DOC_MD]
    files = [f.model_copy(update={"patch": p}) for f, p in zip(files, patches, strict=True)]
    files += [
        r.file(10, f"widgets/plugins/p{i:02}.py", additions=1, deletions=0) for i in range(20)
    ]
    files += [r.file(10, f"tests/test_p{i}.py", additions=1, deletions=0) for i in range(2)]
    return files


@pytest.fixture(scope="module")
def cards(tmp_path_factory: pytest.TempPathFactory) -> Cards:
    """The PR cards the model is sent for a day with a git-synced PR (a display name for its
    author, 27 files, hunks in every kind of file) and an API-synced one (a login)."""
    r = Records()
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('cards') / 'cards.db'}")
    files = _files(r)
    seed(
        store,
        [
            r.repo(REPO),
            r.pr(
                10,
                "2026-02-23T20:00:00Z",
                title="[Perf] LRU eviction for the block cache",
                body=BODY,
                author="Ada Quill",
                author_type=GIT_AUTHOR,
                source="git",
                merged_at=MERGED,
                additions=sum(f.additions for f in files),
                deletions=sum(f.deletions for f in files),
                changed_files=len(files),
            ),
            r.pr(11, "2026-02-23T21:00:00Z", author="alice", merged_at=MERGED, changed_files=1),
            r.file(11, "widgets/engine/other.py", additions=1, deletions=0),
            *files,
        ],
    )
    repo = parse_config(CONFIG).repo(REPO)
    with FakeOpenAI() as llm:
        provider = Provider(ProviderSettings(base_url=llm.base_url, model="fake-model"))
        build_daily(store, repo, DAY, "en", analysis=Analyst(provider, LLMCache(store)))
        sent = [
            card
            for q in llm.requests
            if q.task == "pr_cards"
            for card in (data_of(q.body) or {})["items"]
        ]
    store.close()
    return {c["number"]: c for c in sent}


# -- the description --------------------------------------------------------------------------


def test_the_description_loses_its_template_and_keeps_the_stated_effect() -> None:
    assert describe(BODY, 2000) == "\n".join(
        [
            "Replaces the linear scan in the block cache's eviction with an LRU list, which "
            "cuts the eviction step from 412us to 95us on a 64k-block cache.",
            "This fixes several bugs in the old path:",
            "- a block pinned by a running request could be evicted",
            "- `evict()` returned `None` when the cache was full.",
            "| Cache size | Before | After |",
            "| 16k | 120us | 40us |",
            "| 64k | 412us | 95us |",
            "- Unit tests in tests/test_cache.py",
        ]
    )


def test_a_description_over_its_budget_ends_at_a_whole_sentence_and_says_so() -> None:
    # The list the label introduces does not fit: the label goes with it, the effect stays.
    assert describe(BODY, 200) == (
        "Replaces the linear scan in the block cache's eviction with an LRU list, which cuts "
        f"the eviction step from 412us to 95us on a 64k-block cache.\n{MORE}"
    )
    para = "The pool was leaking. It now frees blocks on abort. A test covers the abort path."
    assert describe(para, 60) == f"The pool was leaking. It now frees blocks on abort.\n{MORE}"
    # A table row is a unit: whole or not at all.
    table = "Results:\n| size | before | after |\n| 16k | 120us | 40us |"
    assert describe(table, 45) == f"Results:\n| size | before | after |\n{MORE}"


TEMPLATE_LINE = re.compile(
    r"(?:signed-off-by|co-authored-by):|- vllm (?:version|main):|- \\[ \\]|#+ |"
    r"(?:what this pr does|does this pr introduce|how was this patch tested)",
    re.IGNORECASE,
)


@pytest.mark.slow  # every body of the history, twice: about 7 s
def test_real_descriptions_end_at_a_unit_and_carry_no_template() -> None:
    path = shared_or_skip(
        shared_dir() / "data" / "vllm-ascend-commits.jsonl", "it reads real PR bodies"
    )
    bodies = [json.loads(line)["body"] for line in path.open(encoding="utf-8")]
    bodies = [b for b in bodies if b]
    word_cuts = 0
    for body in bodies:
        got = describe(body, 1200)
        assert len(got) <= 1200
        assert not re.search(r"https?://|<!--", got)
        prose = re.sub(r"```.*?(?:```|\Z)", "", got, flags=re.DOTALL).split("\n")
        assert not [x for x in prose if TEMPLATE_LINE.match(x)], got
        whole = describe(body, 10**6).split("\n")
        lines = got.split("\n")
        if lines == [""] or lines == whole:
            continue
        assert lines[-1] == MORE
        kept = lines[:-1]
        # Every line but the last is a whole unit of the uncut description; the last is
        # whole, or its first sentences (never a sentence cut short).
        assert kept[:-1] == whole[: len(kept) - 1]
        last, full = kept[-1], whole[len(kept) - 1]
        if last != full:
            if len(kept) == 1 and last.endswith("…"):
                word_cuts += 1  # one sentence longer than the whole budget: cut at a word
                continue
            assert full.startswith(last) and last.endswith((".", "!", "?", "。", "！", "？"))
    assert word_cuts <= len(bodies) // 200


# -- the diff ---------------------------------------------------------------------------------


def test_removed_lines_reach_the_model_beside_the_added_ones(cards: Cards) -> None:
    sched = [h for h in cards[10]["diff"] if h["path"] == "widgets/engine/sched.py"]
    assert sched[0] == {
        "path": "widgets/engine/sched.py",
        "removed": ["assert budget > 0"],
        "added": ["if budget <= 0:", "    raise ValueError('budget must be positive')"],
    }
    assert sched[1]["removed"] == ["self.moved_helper()"]


def test_the_diff_reads_source_before_tests_and_skips_licences_imports_and_reformatting(
    cards: Cards,
) -> None:
    diff = cards[10]["diff"]
    order = [h["path"] for h in diff]
    # Core code, then other code, then tests, then docs; the reformatted util.py not at all.
    assert order[:3] == [
        "widgets/engine/cache.py",
        "widgets/engine/sched.py",
        "widgets/engine/sched.py",
    ]
    assert order.index("tests/test_cache.py") > max(
        i for i, p in enumerate(order) if p.startswith("widgets/")
    )
    assert order[-1] == "docs/cache.md"
    assert "widgets/util.py" not in order
    lines = [x for h in diff for x in h["removed"] + h["added"]]
    assert not [x for x in lines if re.search(r"Copyright|License|import|Block,|^\)$", x)]
    cache = next(h for h in diff if h["path"] == "widgets/engine/cache.py")
    assert cache["added"][0] == "class LRUCache:"
    # 28 imports of a test file are not what the model sees of it: its test is.
    test = next(h for h in diff if h["path"] == "tests/test_cache.py")
    assert test["added"][0] == "def test_evict_returns_the_oldest_block():"
    assert len(json.dumps(diff)) <= DIFF_CHARS


def test_a_big_pr_spends_its_diff_budget_on_source_first() -> None:
    paths = PathKinds(parse_config(CONFIG).repo(REPO))
    body = "\n".join(f"+    step_{i} = plan.apply({i})" for i in range(400))
    gone = body.replace("+", "-")
    files = [
        PRFile("tests/test_lb.py", additions=400, deletions=0, patch="@@ -0,0 +1,400 @@\n" + body),
        # A deleted module: the file list says it went; its old lines say little more.
        PRFile(
            "widgets/old_lb.py", status="removed", deletions=900, patch="@@ -1,400 +0,0 @@\n" + gone
        ),
        PRFile("widgets/lb.py", additions=400, deletions=0, patch="@@ -0,0 +1,400 @@\n" + body),
        PRFile("widgets/engine/plan.py", additions=2, deletions=1, patch=SCHED_PY),
    ]
    got = diff_excerpt(files, paths, 1400)
    assert [h.path for h in got] == [
        "widgets/engine/plan.py",
        "widgets/engine/plan.py",
        "widgets/lb.py",
        "widgets/old_lb.py",
        "tests/test_lb.py",
    ]
    assert sum(len(x) for h in got for x in h.removed + h.added) < 1400
    # With less room, the deleted module's lines are the first to go, then the tests'.
    assert [h.path for h in diff_excerpt(files, paths, 900)][-2:] == [
        "widgets/lb.py",
        "tests/test_lb.py",
    ]
    assert [h.path for h in diff_excerpt(files, paths, 600)][-1] == "widgets/lb.py"


# -- the files --------------------------------------------------------------------------------


def test_the_files_come_with_the_counts_of_all_the_unlisted_and_the_tests(cards: Cards) -> None:
    card = cards[10]
    assert len(card["files"]) == 20
    assert card["size"]["changed_files"] == 27
    assert card["size"]["files_listed"] == 20
    assert card["size"]["files_not_listed"] == 7
    assert card["size"]["test_files"] == 3
    assert card["files"][0]["path"] == "tests/test_cache.py"  # the biggest first


# -- people -----------------------------------------------------------------------------------


def test_a_git_display_name_is_never_offered_as_a_login(cards: Cards) -> None:
    git, api = cards[10], cards[11]
    assert git["author"] is None and git["author_name"] == "Ada Quill"
    assert api["author"] == "alice" and "author_name" not in api
    # Only logins are citable as @login; the display name is not one.
    assert card_logins(git) == set()
    assert card_logins(api) == {"alice"}


# -- budgets ----------------------------------------------------------------------------------

# Each budget holds the longest answer recorded for its task with this much to spare: the
# provider's estimate (UTF-8 bytes / 4) undercounts Chinese for some tokenizers by up to a
# third, and richer cards draw longer answers.
MARGIN = 1.5


def _longest(rows: list[dict[str, Any]]) -> dict[str, int]:
    """The longest recorded answer per budget: per item for the batched tasks, whole for the
    others, first and rewritten answers alike."""
    out: dict[str, int] = {}
    for row in rows:
        for answer in (row["answer"], row["rewritten_after_objections"]):
            if not answer:
                continue
            parts = answer.get("items") if row["task"] != "weekly_highlights" else None
            for part in parts if parts is not None else [answer]:
                tokens = estimate_tokens(json.dumps(part, ensure_ascii=False))
                out[row["task"]] = max(out.get(row["task"], 0), tokens)
    return out


def test_completion_budgets_hold_the_longest_recorded_answers() -> None:
    folder = shared_dir() / "data" / "model-eval"
    rows = []
    for name in ("vllm-ascend-2026-W33-zh.jsonl", "demo-2026-03-04-zh.jsonl"):
        path = shared_or_skip(folder / name, "it measures a capable model's answers")
        rows += [json.loads(line) for line in path.open(encoding="utf-8")]
    longest = _longest(rows)
    budgets = {
        "pr_cards": limits.ITEM_TOKENS,
        "hot_cards": limits.HOT_TOKENS,
        **limits.WEEKLY_TOKENS,
    }
    sections = {"summary", "topic", "trends", "activity", "watch", "weekly_summary"}
    sections |= {"weekly_exec", "weekly_trends"}
    for task, tokens in longest.items():
        budget = limits.SECTION_TOKENS if task in sections else budgets[task]
        assert budget >= MARGIN * tokens, f"{task}: {budget} tokens for an answer of {tokens}"
    # The old per-card budget was too tight: real answers reached it.
    assert longest["pr_cards"] > 220
