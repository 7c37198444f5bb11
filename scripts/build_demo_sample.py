# ruff: noqa: E501
"""Build `sample.jsonl`, the demo snapshot: a fictional LLM inference engine's fortnight on GitHub.

The repository is `tidings-demo/rapidinfer` ("RapidInfer"), followed from 2026-03-02 to
2026-03-13 in Asia/Shanghai with a 09:00 cut-off. Everything below is hand-written: people,
issues, PRs, comments, reviews, diff hunks and files. The script only numbers the items in
creation order, derives ids, SHAs and the bookkeeping fields, checks that the result is
self-consistent, and writes it exactly as `tidings export` would (same header, same record
order), so importing and exporting it again gives the same bytes. src/tidings/demo/README.md,
beside the snapshot, tells the story day by day.

A development script, not shipped: the package carries only its output. From the checkout:

    python scripts/build_demo_sample.py          # rewrite src/tidings/demo/sample.jsonl
    python scripts/build_demo_sample.py --check  # exit 1 if sample.jsonl is stale

Text may refer to another item as `{#key}`; it becomes `#N` once numbers are assigned.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from tidings import records as r
from tidings.snapshot import FORMAT, VERSION

REPO = "tidings-demo/rapidinfer"
WEB = f"https://github.com/{REPO}"
# Asia/Shanghai is UTC+8 all year (no DST), so a fixed offset keeps this script exact.
CST = timezone(timedelta(hours=8))
YEAR = 2026
EXPORTED_AT = datetime(2026, 3, 14, 1, 30, tzinfo=UTC)  # 2026-03-14 09:30 in Shanghai
QUIET = (datetime(2026, 3, 8, 9, 0, tzinfo=CST), datetime(2026, 3, 9, 9, 0, tzinfo=CST))
FIRST_NUMBER = 4213  # the first item opened inside the fortnight; earlier ones carry their own
SAMPLE = Path(__file__).resolve().parents[1] / "src" / "tidings" / "demo" / "sample.jsonl"
TOOL = "tidings demo sample (build_sample.py)"  # in the snapshot header: kept as first written

# -- people ---------------------------------------------------------------------------------
# login -> (GitHub user type, author_association in this repository). All fictional.

LIN = "lin-qiao"  # project lead, scheduler and engine core (林乔)
MARTA = "mvoronina"  # memory, KV cache, startup profiling
CHIDI = "okafor-dev"  # CI, builds, releases
HARUTO = "haruto-s"  # kernels and performance (佐藤 陽翔)
KAVYA = "kavya-rocm"  # AMD/ROCm platform owner (collaborator from the hardware vendor)
RENE = "rdelacroix"  # frontend and OpenAI-compatible server (René Delacroix)

JW = "jwbaker"
TANVIR = "tanvir-h"
ZYH = "zhangyuhan-ai"
ELENA = "elena-mtz"
GFX = "gfx-wizard"
PM = "pmarchetti"
WU = "wu-kernels"
YUSUF = "mm-yusuf"
HANA = "hybrid-hana"
IVAN = "xpu-ivan"
LINT = "lint-lover"

MARIA = "sre-maria"
DAN = "deploy-dan"
CXM = "chenxiaoming88"
LIUWEI = "liuwei-ops"
KIMURA = "kimura-ai"
BUDGET = "budget-gpu"
QFAN = "qmodel-fan"
ANA = "hpc-ana"
ZHOU = "zhou-mi300"
JO = "observability-jo"
NIKOLAI = "ops-nikolai"
WANGF = "wangfang-dev"
ARMLI = "arm-server-li"
OLA = "agent-builder-ola"
PERF = "perf-watcher"
EP = "ep-researcher"
CARL = "cpu-only-carl"
MOB = "mobile-llm-dev"
RADEON = "radeon-hobbyist"
MO = "multinode-mo"
BOB = "bench-bob"

NOOR = "noor-first"
CARLA = "cli-carla"
TWEAK = "readme-tweaker"

DEPENDABOT = "dependabot[bot]"
CI = "rapidinfer-ci[bot]"
ACTIONS = "github-actions[bot]"
MERGIFY = "mergify-helper"  # a plain User account run as a bot; listed under `bots` in tidings.toml
GHOST = None  # a deleted account

PEOPLE: dict[str | None, tuple[str | None, str]] = {
    LIN: ("User", "OWNER"),
    MARTA: ("User", "MEMBER"),
    CHIDI: ("User", "MEMBER"),
    HARUTO: ("User", "MEMBER"),
    KAVYA: ("User", "COLLABORATOR"),
    RENE: ("User", "MEMBER"),
    **{
        login: ("User", "CONTRIBUTOR")
        for login in (JW, TANVIR, ZYH, ELENA, GFX, PM, WU, YUSUF, HANA, IVAN, LINT)
    },
    **{
        login: ("User", "NONE")
        for login in (
            MARIA,
            DAN,
            CXM,
            LIUWEI,
            KIMURA,
            BUDGET,
            QFAN,
            ANA,
            ZHOU,
            JO,
            NIKOLAI,
            WANGF,
            ARMLI,
            OLA,
            PERF,
            EP,
            CARL,
            MOB,
            RADEON,
            MO,
            BOB,
        )
    },
    NOOR: ("User", "FIRST_TIME_CONTRIBUTOR"),
    CARLA: ("User", "FIRST_TIME_CONTRIBUTOR"),
    TWEAK: ("User", "FIRST_TIMER"),
    DEPENDABOT: ("Bot", "CONTRIBUTOR"),
    CI: ("Bot", "NONE"),
    ACTIONS: ("Bot", "NONE"),
    MERGIFY: ("User", "NONE"),
    GHOST: (None, "NONE"),
}
MAINTAINERS = (LIN, MARTA, CHIDI, HARUTO, KAVYA, RENE)

# -- the little language the story is written in ---------------------------------------------


@dataclass
class C:
    """An issue/PR conversation comment. `at` is Shanghai wall time, "MM-DD HH:MM"."""

    at: str
    by: str | None
    body: str
    reactions: dict[str, int] = field(default_factory=dict)
    edited: str | None = None


@dataclass
class RC:
    """A review comment on a diff line; a reply names the `key` of the comment it answers."""

    body: str
    path: str = ""
    line: int | None = None
    hunk: str = ""
    key: str | None = None
    reply_to: str | None = None
    reactions: dict[str, int] = field(default_factory=dict)


@dataclass
class R:
    at: str
    by: str
    state: str  # APPROVED, CHANGES_REQUESTED, COMMENTED
    body: str = ""
    comments: list[RC] = field(default_factory=list)


@dataclass
class F:
    path: str
    add: int
    dele: int
    status: str = "modified"


@dataclass
class Item:
    key: str
    kind: str
    at: str
    by: str | None
    title: str
    labels: list[str]
    body: str | None
    comments: list[C]
    reactions: dict[str, int]
    closed: str | None  # "MM-DD HH:MM", or "@key": when that PR merged
    reason: str | None
    number: int | None = None
    merged: str | None = None
    merged_by: str | None = None
    files: list[F] = field(default_factory=list)
    reviews: list[R] = field(default_factory=list)
    closes: list[str] = field(default_factory=list)  # item keys, or "owner/repo#N"
    draft: bool = False
    commits: int = 1
    head_ref: str | None = None
    locked: bool = False


ITEMS: list[Item] = []


def issue(
    key: str,
    at: str,
    by: str | None,
    title: str,
    labels: list[str],
    body: str,
    comments: list[C] | None = None,
    *,
    closed: str | None = None,
    reason: str = "completed",
    reactions: dict[str, int] | None = None,
    number: int | None = None,
    locked: bool = False,
) -> None:
    ITEMS.append(
        Item(
            key=key,
            kind="issue",
            at=at,
            by=by,
            title=title,
            labels=labels,
            body=body,
            comments=comments or [],
            reactions=reactions or {},
            closed=closed,
            reason=reason if closed else None,
            number=number,
            locked=locked,
        )
    )


def pr(
    key: str,
    at: str,
    by: str,
    title: str,
    labels: list[str],
    body: str,
    files: list[F],
    comments: list[C] | None = None,
    reviews: list[R] | None = None,
    *,
    merged: str | None = None,
    merged_by: str | None = None,
    closed: str | None = None,
    closes: list[str] | None = None,
    reactions: dict[str, int] | None = None,
    draft: bool = False,
    commits: int = 1,
    branch: str | None = None,
    number: int | None = None,
    locked: bool = False,
) -> None:
    if merged and not merged_by:
        raise ValueError(f"{key}: a merged PR needs merged_by")
    ITEMS.append(
        Item(
            key=key,
            kind="pr",
            at=at,
            by=by,
            title=title,
            labels=labels,
            body=body,
            comments=comments or [],
            reactions=reactions or {},
            closed=merged or closed,
            reason=None,
            number=number,
            merged=merged,
            merged_by=merged_by,
            files=files,
            reviews=reviews or [],
            closes=closes or [],
            draft=draft,
            commits=commits,
            head_ref=branch or f"{by.split('[')[0]}/{key.replace('_', '-')}",
            locked=locked,
        )
    )


def body(purpose: str, test_plan: str = "", result: str = "", notes: str = "") -> str:
    """The repository's PR template, filled in."""
    parts = ["## Purpose", purpose.strip()]
    if test_plan:
        parts += ["## Test Plan", test_plan.strip()]
    if result:
        parts += ["## Test Result", result.strip()]
    if notes:
        parts += [notes.strip()]
    return "\n\n".join(parts)


def ci_welcome(at: str) -> C:
    return C(
        at,
        CI,
        "👋 Hi! Thank you for contributing to RapidInfer.\n\n"
        "PRs run only the fast `pre-commit` and `unit-l4-smoke` jobs by default. Once a maintainer "
        "adds the `ready` label, the full suite (L4, H100, MI300X) runs. You can also ask for it "
        "in the #rapidinfer-dev channel.\n\n🚀",
    )


def ci_result(at: str, passed: int, minutes: str, failed: str = "") -> C:
    if failed:
        text = (
            f"❌ **CI failed** — {passed} passed, 1 failed ({minutes}).\n\n"
            f"Failing job: `{failed}`. Logs: https://ci.rapidinfer.example/builds/{passed * 7 + 3}"
        )
    else:
        text = (
            f"✅ **CI passed** — {passed} tests across pre-commit, unit-l4 (×4), gpu-h100 and "
            f"rocm-mi300x ({minutes})."
        )
    return C(at, CI, text)


def conflict(at: str, author: str) -> C:
    return C(
        at,
        MERGIFY,
        "This pull request has merge conflicts that must be resolved before it can be merged. "
        f"Please rebase the PR, @{author}.\n\n"
        "https://docs.github.com/en/pull-requests/collaborating-with-pull-requests/working-with-forks/syncing-a-fork",
    )


def dependabot_body(package: str, url: str, old: str, new: str, notes: str) -> str:
    return (
        f"Bumps [{package}]({url}) from {old} to {new}.\n"
        "<details>\n<summary>Release notes</summary>\n"
        f'<p><em>Sourced from <a href="{url}/releases">{package}\'s releases</a>.</em></p>\n'
        f"<blockquote>\n<h2>{new}</h2>\n{notes}\n</blockquote>\n</details>\n\n"
        "[![Dependabot compatibility score](https://dependabot-badges.githubapp.com/badges/compatibility_score"
        f"?dependency-name={package}&package-manager=pip&previous-version={old}&new-version={new})]"
        "(https://docs.github.com/en/github/managing-security-vulnerabilities/about-dependabot-security-updates#about-compatibility-scores)\n\n"
        "Dependabot will resolve any conflicts with this PR as long as you don't alter it "
        "yourself. You can also trigger a rebase manually by commenting `@dependabot rebase`."
    )


# The story is data: kept compact, one comment per line, so it reads like a thread.
# fmt: off

# =============================================================================================
# Before the fortnight: items opened earlier that are still moving inside it.
# =============================================================================================

issue(
    "hang_issue",
    "01-14 16:22",
    MO,
    "[Bug]: Multi-node tensor parallel hangs after ~6 hours with NCCL watchdog timeout",
    ["bug", "distributed", "help wanted"],
    """### Your current environment
RapidInfer 0.8.2, PyTorch 2.9.0, CUDA 12.8, NCCL 2.27.3, 2 nodes × 8× H100 SXM, InfiniBand NDR.

### 🐛 Describe the bug
Serving `deepseek-ai/DeepSeek-V3` with `--tensor-parallel-size 16` across two nodes works fine for a few hours, then every rank stops making progress and after 30 minutes the NCCL watchdog kills the process:

```
[rank9]:[E114 15:02:41.118] [PG ID 0 PG GUID 0(default_pg) Rank 9] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4812, OpType=ALLREDUCE, NumelIn=14680064, Timeout(ms)=1800000) ran for 1800043 milliseconds before timing out.
```

It always happens between 5 and 7 hours of uptime under steady traffic (~40 req/s). Single-node TP=8 never hangs. Restarting fixes it until the next time.

### Before submitting a new issue...
- [x] I searched the existing issues and the docs.""",
    [
        C("01-15 10:05", CHIDI, "Thanks for the detailed report. Could you run with `NCCL_DEBUG=INFO` and `TORCH_NCCL_TRACE_BUFFER_SIZE=2000` and attach the flight-recorder dump from all ranks when it hangs? That tells us which rank never entered the collective."),
        C("01-19 22:40", MO, "Dumps from all 16 ranks attached: [fr_dumps_0119.tar.gz](https://example.invalid/fr_dumps_0119.tar.gz). 15 ranks are waiting in SeqNum 4812 (all_reduce); rank 9 last completed 4811."),
        C("01-20 09:30", KIMURA, "Same here with 2×8 H100 over RoCE, ~5 h in. We do not see it with TP=8 + PP=2.", {"+1": 4}),
        C("01-27 15:12", HARUTO, "The dumps show rank 9 never entered collective 4812: its Python stack is still inside the scheduler (`Scheduler._schedule_prefills`). So NCCL is a victim, not the cause: one rank's scheduler made a different decision than the others. Something in scheduling is not deterministic across processes.", {"+1": 3, "eyes": 2}),
        C("02-03 11:00", MO, "Any update? We restart the servers every 4 hours as a workaround, which is painful."),
        C("02-24 11:00", ACTIONS, "This issue has been automatically marked as stale because it has not had any activity in the last 21 days. It will be closed in 7 days if no further activity occurs. Thank you for your contributions!"),
        C("02-24 12:15", MO, "Not stale — still happening on 0.8.4."),
        C("03-02 14:30", JW, "I think I found it. `BlockPool.evict_candidates()` iterates over a `set[str]` of request ids when it picks which cached prefix blocks to free, and `str` hashing is salted per process unless `PYTHONHASHSEED` is set. So each rank evicts a *different* block when memory gets tight; their prefix caches diverge, and hours later one rank gets a cache hit the others don't and schedules a different prefill.\n\nWith `PYTHONHASHSEED=0` exported on every node, our 2×8 repro has been running for 20 hours without a hang.", {"+1": 9, "heart": 2, "rocket": 3}),
        C("03-03 10:20", HARUTO, "Great find @jwbaker — that matches the dumps exactly. Could you send a PR that replaces the set with an insertion-ordered dict? Until it lands, the workaround is `export PYTHONHASHSEED=0` on every node.", {"+1": 2}),
        C("03-05 18:02", MO, "Confirmed: with `PYTHONHASHSEED=0` we're at 31 hours without a hang. 🎉", {"hooray": 3}),
        C("03-08 15:40", KIMURA, "Same on our side: 70 hours stable across two nodes with `PYTHONHASHSEED=0`. Looking forward to the proper fix."),
        C("03-12 10:30", JW, "PR is up: {#hash_pr}. It also adds a test that builds two schedulers with different hash seeds and checks that they evict the same blocks."),
    ],
    reactions={"+1": 17, "eyes": 4},
    number=3871,
)

issue(
    "spec_rfc",
    "02-17 11:00",
    TANVIR,
    "[RFC]: Pluggable proposers for speculative decoding",
    ["RFC", "speculative-decoding"],
    """### Motivation
Speculative decoding in RapidInfer supports n-gram and EAGLE drafts, each wired into `rapidinfer/spec_decode/` by hand. Every new method (MTP heads, Medusa, suffix decoding) currently touches the scheduler, the model runner and the sampler.

### Proposed change
1. A `Proposer` protocol: `propose(batch) -> DraftTokens`, `max_draft_len`, `needs_hidden_states`.
2. A registry keyed by `--speculative-method`, so out-of-tree proposers can be loaded via entry points.
3. The rejection sampler stays in core and does not know which proposer ran.

### Feedback period
Two weeks. I'd like to start with MTP for DeepSeek-V3 as the first proposer written against the new API.""",
    [
        C("02-17 15:40", LIN, "+1 on the direction. One constraint: `needs_hidden_states` must not force every model to return hidden states; only request them when a proposer that needs them is active."),
        C("02-18 09:12", HARUTO, "Please keep draft-token buffers preallocated per batch size so CUDA graphs keep working; a protocol that returns Python lists per request would cost us ~3% at batch 256."),
        C("02-25 20:03", WU, "Would the protocol allow a proposer to run on a separate CUDA stream? For MTP that's where most of the win is."),
        C("03-03 11:48", TANVIR, "Thanks all — I folded the feedback into the doc: preallocated `DraftTokens` buffers, hidden states only on request, and an optional `stream` attribute. Starting on MTP for DeepSeek-V3 as the first proposer."),
        C("03-06 14:20", TANVIR, "First proposer written against the new API: {#mtp_pr}."),
        C("03-10 14:25", LIN, "Let's treat {#mtp_pr} as the reference implementation; once it merges I'll mark this RFC as accepted."),
    ],
    reactions={"+1": 11, "rocket": 2},
    number=4090,
)

pr(
    "lora_pr",
    "02-24 15:30",
    TANVIR,
    "[LoRA] Support adapters with different ranks in one batch",
    ["lora", "ready"],
    body(
        "Today every LoRA adapter in a batch is padded to `--max-lora-rank`, which wastes memory and compute when ranks differ (e.g. 8 and 64). This PR keeps each adapter at its own rank and groups the shrink/expand kernels by rank bucket.",
        "`pytest tests/lora/test_mixed_ranks.py`; benchmark with 4 adapters of ranks 8/16/32/64 on Llama-3.1-8B.",
        "Memory for adapters down 41%; decode throughput +6.5% at batch 64 with mixed ranks, unchanged with a single rank.",
    ),
    [
        F("rapidinfer/lora/layers.py", 118, 46),
        F("rapidinfer/lora/punica_wrapper.py", 74, 21),
        F("csrc/punica/bgmv_expand.cu", 96, 38),
        F("tests/lora/test_mixed_ranks.py", 152, 0, "added"),
    ],
    [
        C("03-03 12:40", CI, "✅ **CI passed** — 1,184 tests across pre-commit, unit-l4 (×4), gpu-h100 and rocm-mi300x (47m 10s)."),
    ],
    [
        R("02-26 17:20", MARTA, "CHANGES_REQUESTED", "Nice speed-up. One correctness problem with the bucket boundaries, see inline.", [
            RC("`bisect_right` puts rank 16 into the 32 bucket when the boundaries are `[8, 16, 32, 64]`; that's the padding we wanted to avoid. `bisect_left` should be right here.", "rapidinfer/lora/punica_wrapper.py", 88,
               "@@ -81,6 +81,14 @@ class PunicaWrapper:\n     def _bucket_of(self, rank: int) -> int:\n-        return self.max_lora_rank\n+        idx = bisect.bisect_right(RANK_BUCKETS, rank)\n+        return RANK_BUCKETS[min(idx, len(RANK_BUCKETS) - 1)]", key="lora_bisect"),
        ]),
        R("02-27 10:05", TANVIR, "COMMENTED", "", [RC("Good catch, fixed and added a parametrised test over every boundary.", reply_to="lora_bisect")]),
        R("03-03 13:30", MARTA, "APPROVED", "LGTM now, thanks for the boundary tests."),
    ],
    merged="03-03 14:00",
    merged_by=MARTA,
    commits=4,
    number=4138,
)

pr(
    "preempt_pr",
    "02-26 10:00",
    JW,
    "[Core] Make the scheduler's preemption policy configurable (`--preemption-mode`)",
    ["v1", "ready"],
    body(
        "Adds `--preemption-mode {recompute,swap,auto}`. `recompute` stays the default; `swap` offloads the victim's KV blocks to CPU, which helps long-prompt workloads where recomputing the prefill costs more than the PCIe copy. `auto` picks per request by prompt length.",
        "`pytest tests/core/test_preemption_mode.py`; 2k-prompt/256-output load test on A100 with 90% memory pressure.",
        "`swap` cuts p99 latency of preempted requests by 38% on long prompts; `recompute` unchanged.",
    ),
    [
        F("rapidinfer/core/scheduler.py", 142, 37),
        F("rapidinfer/core/kv_cache_manager.py", 58, 6),
        F("rapidinfer/engine/arg_utils.py", 19, 2),
        F("rapidinfer/config.py", 27, 3),
        F("tests/core/test_preemption_mode.py", 188, 0, "added"),
    ],
    [
        C("02-27 09:30", LIN, "Thanks! I'd like to keep `auto` out of this PR — the length threshold needs its own benchmark. Can you split it off?"),
        C("02-27 14:12", JW, "Done, `auto` is removed; I'll follow up once I have numbers for the threshold."),
        ci_result("03-02 15:55", 1191, "44m 02s"),
    ],
    [
        R("03-02 16:40", LIN, "APPROVED", "Looks good. Please document the flag in the scheduling guide in a follow-up.", [
            RC("Nit: log the chosen mode once at startup so bug reports show it.", "rapidinfer/core/scheduler.py", 214,
               "@@ -205,9 +205,18 @@ class Scheduler:\n         self.policy = SchedulingPolicy(self.scheduler_config.policy)\n+        self.preemption_mode = PreemptionMode(\n+            self.scheduler_config.preemption_mode\n+        )"),
        ]),
    ],
    merged="03-02 17:05",
    merged_by=LIN,
    commits=5,
    number=4171,
)

pr(
    "dep_pyasync_old",
    "02-27 16:03",
    DEPENDABOT,
    "Bump pytest-asyncio from 0.25.3 to 0.26.0 in /requirements",
    ["dependencies", "python"],
    dependabot_body("pytest-asyncio", "https://github.com/pytest-dev/pytest-asyncio", "0.25.3", "0.26.0", "<ul>\n<li>Adds <code>loop_scope</code> to <code>pytest_asyncio.fixture</code></li>\n</ul>"),
    [F("requirements/test.txt", 1, 1)],
    [
        C("02-27 16:40", CI, "❌ **CI failed** — 1,183 passed, 1 failed (38m 51s).\n\nFailing job: `unit-l4 (3/4)`: `tests/entrypoints/test_async_server.py::test_shutdown_drains` — `ScopeMismatch` with the session-scoped event loop."),
        C("03-10 09:06", DEPENDABOT, "Superseded by {#dep_pyasync_new}."),
    ],
    closed="03-10 09:06",
    branch="dependabot/pip/requirements/pytest-asyncio-0.26.0",
    number=4182,
)

issue(
    "seed_issue",
    "02-28 20:30",
    BOB,
    "[Bug]: `rapidinfer bench serve --seed 42` samples different prompts on every run",
    ["bug", "benchmarks"],
    "`rapidinfer bench serve --dataset-name sharegpt --num-prompts 500 --seed 42` gives a different prompt set each time, so A/B comparisons between builds are noisy. `--seed` seems to only reach the request-rate generator, not the dataset sampler.",
    [
        C("03-01 10:14", PM, "I can take this — the seed isn't passed to `SampleRequestDataset.sample()`."),
    ],
    closed="@bench_seed_fix",
    number=4195,
)


# =============================================================================================
# Mon 2026-03-02  (window 03-02 09:00 ~ 03-03 09:00)
# =============================================================================================

pr(
    "legacy_sampler",
    "03-02 09:40",
    LIN,
    "[Misc] Remove the unused `legacy_sampler.py`",
    ["v1", "ready"],
    body("The V0 sampler has had no callers since the V1 engine became the only engine in 0.9.0. Removes the file and its test.", "CI."),
    [F("rapidinfer/model_executor/legacy_sampler.py", 0, 412, "removed"), F("tests/samplers/test_legacy_sampler.py", 0, 186, "removed")],
    [],
    [R("03-02 12:30", HARUTO, "APPROVED", "🔥 Happy to see it go.")],
    merged="03-02 13:00",
    merged_by=LIN,
)

issue(
    "ghost_issue",
    "03-02 10:14",
    GHOST,
    "[Usage]: How do I serve two LoRA adapters with different ranks?",
    ["usage"],
    "I have two adapters for the same base model, one with r=8 and one with r=64. When I pass both with `--lora-modules a=./lora8 b=./lora64 --max-lora-rank 64` the memory use is much higher than I expected. Is there a way to avoid padding the small one?",
    [
        C("03-02 11:35", MARTA, "Padding to `--max-lora-rank` is how it works in 0.9.0. {#lora_pr} removes it (adapters keep their own rank) and should land this week; you'll get it in 0.9.1."),
        C("03-03 18:20", MARTA, "{#lora_pr} is merged; try a nightly build and let us know."),
        C("03-04 10:50", GHOST, "Works, memory dropped from 7.1 GiB to 4.3 GiB. Thanks!"),
    ],
    closed="03-04 11:00",
)

pr(
    "rocm_aiter_default",
    "03-02 11:00",
    KAVYA,
    "[ROCm] Enable AITER paged attention by default on gfx942 (MI300X/MI325X)",
    ["rocm", "performance", "ready"],
    body(
        "AITER's paged-attention decode kernel has been opt-in (`RAPIDINFER_ROCM_USE_AITER_PAGED_ATTN=1`) since 0.8.0 and is now the faster path for every model we test on gfx942. This PR makes it the default on MI300X/MI325X, keeps the env var as an opt-out, and falls back to the ROCm Triton backend on other archs.",
        "`pytest tests/rocm/test_aiter_attention.py` on MI300X; `rapidinfer bench serve` with Llama-3.1-70B-Instruct (TP=8) and Qwen3-32B (TP=2).",
        """| model | backend | decode tok/s | TTFT p50 |
|---|---|---|---|
| Llama-3.1-70B, TP=8 | ROCm Triton | 3,912 | 182 ms |
| Llama-3.1-70B, TP=8 | AITER | 4,633 | 171 ms |
| Qwen3-32B, TP=2 | ROCm Triton | 2,480 | 96 ms |
| Qwen3-32B, TP=2 | AITER | 2,951 | 90 ms |""",
    ),
    [
        F("rapidinfer/platforms/rocm.py", 46, 11),
        F("rapidinfer/attention/backends/rocm_aiter.py", 23, 4),
        F("rapidinfer/envs.py", 6, 3),
        F("tests/rocm/test_aiter_attention.py", 97, 0, "added"),
        F("docs/platforms/amd.md", 18, 5),
    ],
    [
        ci_result("03-02 12:10", 1188, "51m 33s"),
        C("03-03 16:20", GFX, "Tested on MI325X (gfx942, 256 GB) with DeepSeek-V3 in FP8: +14% decode throughput vs. Triton. 👍"),
        C("03-04 09:55", KAVYA, "@haruto-s addressed your comment in 3f1c2e0, and the new test forces `gcn_arch=gfx90a` to check the fallback."),
    ],
    [
        R("03-03 11:45", HARUTO, "CHANGES_REQUESTED", "", [
            RC("This returns the AITER backend whenever `use_aiter_paged_attention()` is true, but that helper only reads the env var default, not the arch. On gfx90a (MI250) AITER has no paged-attention kernel, so we'd fail at the first forward. Can we gate on `gcn_arch() in (\"gfx942\", \"gfx950\")` here?", "rapidinfer/platforms/rocm.py", 219,
               "@@ -212,9 +212,17 @@ def get_attn_backend_cls(cls, selected_backend, head_size, dtype,\n         if selected_backend == _Backend.TRITON_ATTN:\n             return \"rapidinfer.attention.backends.triton_attn.TritonAttentionBackend\"\n-        if envs.RAPIDINFER_ROCM_USE_AITER_PAGED_ATTN:\n+        if cls.use_aiter_paged_attention():\n             logger.info_once(\"Using AITER paged attention on %s.\", cls.gcn_arch())", key="aiter_arch"),
            RC("Nit: `docs/platforms/amd.md` still says the variable defaults to 0.", "docs/platforms/amd.md", 41,
               "@@ -38,7 +38,9 @@ ## Environment variables\n-| `RAPIDINFER_ROCM_USE_AITER_PAGED_ATTN` | `0` | Use AITER paged attention |\n+| `RAPIDINFER_ROCM_USE_AITER_PAGED_ATTN` | `1` on gfx942 | Use AITER paged attention |"),
        ]),
        R("03-04 09:50", KAVYA, "COMMENTED", "", [RC("Good catch — gated on the arch now, and the doc row is fixed.", reply_to="aiter_arch")]),
        R("03-04 13:40", HARUTO, "APPROVED", "Thanks, LGTM."),
    ],
    merged="03-04 14:10",
    merged_by=LIN,
    commits=3,
)

pr(
    "bench_seed_fix",
    "03-02 11:40",
    PM,
    "[Bugfix] Pass `--seed` through to the dataset sampler in `bench serve`",
    ["bug", "benchmarks", "ready"],
    body("Fixes {#seed_issue}. The seed now reaches `SampleRequestDataset.sample()` as well as the arrival-time generator, so two runs with the same seed send the same prompts in the same order.", "New test runs the sampler twice with seed 42 and compares prompt ids.", "`pytest tests/benchmarks/test_dataset_seed.py` passes."),
    [F("rapidinfer/benchmarks/datasets.py", 14, 6), F("rapidinfer/benchmarks/serve.py", 3, 1), F("tests/benchmarks/test_dataset_seed.py", 38, 0, "added")],
    [C("03-02 19:50", BOB, "Thanks, verified on my side: identical prompt sets across three runs.")],
    [R("03-02 19:40", CHIDI, "APPROVED", "LGTM")],
    merged="03-02 20:15",
    merged_by=CHIDI,
    closes=["seed_issue"],
    commits=2,
)

pr(
    "rmsnorm_pr",
    "03-02 15:00",
    HARUTO,
    "[Perf] Fuse RMSNorm and FP8 quantization into one kernel",
    ["performance", "quantization", "ready"],
    body(
        """For FP8 models every decoder layer runs `rms_norm` and then `scaled_fp8_quant` on the same activations, reading and writing the hidden states twice. This PR adds `fused_add_rms_norm_fp8_quant`, which does the residual add, the norm and the per-tensor quantization in one pass, and a compiler fusion pass that swaps the pair for the fused op when the model is FP8.

On H100 with Llama-3.1-70B-Instruct-FP8 (TP=4) the two kernels take 7.9% of decode time today.""",
        "`pytest tests/kernels/test_fused_rmsnorm_quant.py` (numerics against the unfused pair, hidden sizes 2048–16384); `rapidinfer bench serve` on Llama-3.1-70B-FP8 and Llama-3.1-8B-FP8.",
        "TTFT −6.1%, decode tok/s +4.8% on 70B; +3.2% on 8B. Max abs diff vs. unfused: 0 in BF16 accumulation, ≤1 ULP in FP8.",
    ),
    [
        F("csrc/layernorm_quant_kernels.cu", 212, 0, "added"),
        F("csrc/ops.h", 6, 0),
        F("csrc/torch_bindings.cpp", 9, 0),
        F("rapidinfer/model_executor/layers/layernorm.py", 48, 12),
        F("rapidinfer/compilation/fusion.py", 61, 3),
        F("tests/kernels/test_fused_rmsnorm_quant.py", 140, 0, "added"),
    ],
    [
        C("03-02 15:45", CI, "📈 **Benchmark** (`bench serve`, Llama-3.1-70B-Instruct-FP8, TP=4, H100): TTFT p50 412 → 387 ms, ITL p50 21.4 → 20.4 ms, output tok/s 5,930 → 6,214."),
        ci_result("03-05 10:30", 1203, "49m 40s"),
    ],
    [
        R("03-03 17:30", MARTA, "COMMENTED", "The fusion pass looks right. One question on the kernel.", [
            RC("What happens when `hidden_size` isn't a multiple of the vector width times the block size? The tail loop uses `scale` from the previous iteration.", "csrc/layernorm_quant_kernels.cu", 131,
               "@@ -0,0 +1,212 @@\n+template <typename scalar_t, int VEC>\n+__global__ void fused_add_rms_norm_fp8_quant_kernel(\n+    fp8_type* __restrict__ out, scalar_t* __restrict__ residual,\n+    const scalar_t* __restrict__ weight, const float* __restrict__ scale,", key="rms_tail"),
        ]),
        R("03-04 11:20", HARUTO, "COMMENTED", "", [RC("The tail is handled by the scalar loop below and reads `*scale` directly; added hidden sizes 5120 and 6144 to the test to cover it.", reply_to="rms_tail")]),
        R("03-05 10:55", LIN, "APPROVED", "Nice win. Merging after the 70B numbers were reproduced on the nightly box."),
    ],
    merged="03-05 11:20",
    merged_by=LIN,
    commits=6,
    branch="haruto-s/fused-rmsnorm-fp8",
)

pr(
    "dep_actions",
    "03-02 16:02",
    DEPENDABOT,
    "Bump actions/upload-artifact from 4 to 5",
    ["dependencies", "github_actions"],
    "Bumps [actions/upload-artifact](https://github.com/actions/upload-artifact) from 4 to 5.\n<details>\n<summary>Release notes</summary>\n<blockquote>\n<h2>v5.0.0</h2>\n<ul>\n<li>Node 24 runtime</li>\n</ul>\n</blockquote>\n</details>\n\nDependabot will resolve any conflicts with this PR as long as you don't alter it yourself.",
    [F(".github/workflows/docs.yml", 1, 1), F(".github/workflows/wheels.yml", 2, 2)],
    [],
    [R("03-03 09:50", CHIDI, "APPROVED")],
    merged="03-03 10:00",
    merged_by=CHIDI,
    branch="dependabot/github_actions/actions/upload-artifact-5",
)

issue(
    "zh_doc_issue",
    "03-02 17:30",
    LIUWEI,
    "[Doc]: 中文文档中 `--max-model-len` 的说明与实际行为不一致",
    ["documentation"],
    """中文文档 `docs/zh/serving/engine_args.md` 里写的是：

> `--max-model-len`：单个请求的最大输出长度。

但实际上这个参数限制的是 **prompt + 输出** 的总长度（英文文档是对的）。我们按中文文档配置后，长 prompt 的请求全部被拒绝，排查了半天。建议修正，顺便把默认值（从模型配置读取）也写清楚。""",
    [
        C("03-02 18:05", ZYH, "确认是翻译错误，我来提 PR 修一下。"),
    ],
    closed="@zh_doc_fix",
)

pr(
    "detok_pool",
    "03-02 19:20",
    RENE,
    "[Frontend] Move detokenization to a process pool for streaming responses",
    ["frontend", "performance"],
    body(
        """With 500+ concurrent streaming requests the API server's event loop spends ~35% of its time in incremental detokenization, which delays SSE chunks for everyone. This moves detokenization into a small process pool (`--detokenizer-workers`, default 2) and streams results back over shared memory.

Still a draft of the design: the pool currently restarts a worker if a tokenizer raises, but loses that request's state.""",
        "Load test with 800 concurrent streams of Qwen3-8B on H100.",
        "Inter-chunk latency p99 210 ms → 64 ms; CPU usage of the API process −41%.",
    ),
    [
        F("rapidinfer/entrypoints/openai/serving_chat.py", 64, 28),
        F("rapidinfer/engine/detokenizer_pool.py", 231, 0, "added"),
        F("rapidinfer/engine/output_processor.py", 57, 19),
        F("tests/entrypoints/test_detokenizer_pool.py", 119, 0, "added"),
    ],
    [
        conflict("03-06 18:10", RENE),
        C("03-09 16:40", LIN, "Let's land {#sched_refactor} first and then rebase this; the output processor changed a lot there."),
    ],
    [
        R("03-04 15:30", LIN, "COMMENTED", "Direction is good. Before review in depth: what happens to an in-flight request when a worker dies? We need a story for that before this can be the default."),
    ],
    commits=7,
)

pr(
    "ci_cache",
    "03-02 21:05",
    CHIDI,
    "[CI] Cache Hugging Face models between jobs on the L4 runners",
    ["ci/build", "ready"],
    body("Every L4 job downloads ~38 GB of test models. This mounts a shared read-only HF cache on the runners and sets `HF_HUB_OFFLINE=1` for the test step, falling back to download if a model is missing.", "Two full CI runs.", "L4 job time 31m → 19m; no network fetches in the test step."),
    [F(".buildkite/test-pipeline.yaml", 22, 6), F(".buildkite/scripts/hf_cache.sh", 41, 0, "added"), F("tests/conftest.py", 8, 1)],
    [],
    [R("03-03 10:50", LIN, "APPROVED", "Great, 12 minutes per job adds up.")],
    merged="03-03 11:30",
    merged_by=LIN,
    commits=2,
)

pr(
    "broken_links",
    "03-02 23:40",
    ELENA,
    "[Doc] Fix broken links in docs/serving/openai_compat.md",
    ["documentation", "ready"],
    "Four links in the OpenAI-compatible server guide pointed to pages renamed in 0.9.0 (`/serving/sampling_params` → `/api/sampling_params`, etc.).",
    [F("docs/serving/openai_compat.md", 4, 4)],
    [],
    [R("03-03 09:20", RENE, "APPROVED", "Thanks!")],
    merged="03-03 09:30",
    merged_by=RENE,
)


# =============================================================================================
# Tue 2026-03-03  (window 03-03 09:00 ~ 03-04 09:00) — the heated issue starts
# =============================================================================================

issue(
    "heated",
    "03-03 10:12",
    MARIA,
    "[Bug]: v0.9.0 OOMs at startup on shared GPUs after the new gpu_memory_utilization=0.95 default",
    ["bug", "memory", "v1"],
    """After upgrading from v0.8.4 to v0.9.0, every one of our 24 GB L4 replicas fails at startup with `torch.OutOfMemoryError` during CUDA graph capture. Nothing changed in our launch command.

The 0.9.0 release notes say that `gpu_memory_utilization` now defaults to **0.95** (was 0.90) and that the default `max_num_seqs` went from 256 to 512. On our nodes a sidecar (metrics exporter plus a small embedding model) holds about 1.1 GiB on the same GPU, so 0.95 leaves nothing.

### Reproduction
```
rapidinfer serve Qwen/Qwen3-8B --tensor-parallel-size 1
```
with any other process holding more than ~800 MiB on the same GPU.

```
INFO 03-03 01:58:12 gpu_worker.py:241 Available KV cache memory: 6.02 GiB
INFO 03-03 01:58:14 gpu_model_runner.py:1893 Capturing CUDA graphs (67 sizes)...
torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 258.00 MiB. GPU 0 has a total capacity of 22.03 GiB of which 143.06 MiB is free.
```

### Expected
A default that does not crash on hardware that worked with 0.8.x, or at least an error that tells me which flag to change.

### Environment
RapidInfer 0.9.0, CUDA 12.8, driver 570.124, 1× NVIDIA L4 (24 GB), Kubernetes with GPU time-slicing.""",
    [
        C("03-03 10:58", DAN, "+1, same on A10G with two replicas per GPU via MPS. Pinned back to 0.8.4 for now. Passing `--gpu-memory-utilization 0.9` works, but we have ~60 deployment manifests to touch.", {"+1": 12}),
        C("03-03 11:30", LIN, "This is an intentional change, documented in the v0.9.0 release notes under *Default changes*. On dedicated GPUs — most of our users, going by the opt-in usage stats — 0.95 gives ~9% more KV cache blocks, which translates directly into throughput. Sharing a GPU with other processes has always required tuning `--gpu-memory-utilization`; that was true on 0.8 as well, you just had more headroom by accident. I'm not inclined to revert the default.", {"-1": 9, "+1": 4}, edited="03-03 11:41"),
        C("03-03 12:05", MARIA, "\"By accident\" is doing a lot of work there. 0.90 was the default for two years and every deployment guide, including your own `docs/deployment/k8s.md`, was written against it. A default change that turns a working deployment into a crash loop is a breaking change, and it shipped in a minor release without a deprecation warning.\n\nI'm not asking you to give up the throughput on dedicated GPUs. I'm asking for it not to crash everyone else.", {"+1": 18}),
        C("03-03 14:20", CXM, "我们这边也遇到了同样的问题。4 张 RTX 4090（24G），每张卡上还跑着一个 bge-m3 的 embedding 服务，升级到 0.9.0 之后全部启动失败，报错在 capture CUDA graph 阶段。回退到 0.8.4 一切正常。\n\n希望至少在启动时检测一下当前显存占用，给一个明确的提示，而不是直接 OOM。", {"+1": 5}),
        C("03-03 15:02", MARTA, "Some context on what actually happens, because I think both sides are partly right.\n\n`gpu_memory_utilization` is a fraction of *total* device memory, not of *free* memory. At startup we profile one forward pass, compute `total × util − (weights + activation peak)` and give the rest to the KV cache. If another process already holds memory, that budget is simply wrong, and the failure only shows up later, during graph capture — which is why the error is so confusing.\n\nThe 0.95 default made this more likely, but the underlying bug is that we never look at free memory. I'd rather fix that than argue about 0.90 vs 0.95.", {"+1": 22, "heart": 3}),
        C("03-03 16:40", LIN, "Agreed that the error is bad and that we should check free memory at startup. But I want to be careful about silently shrinking the budget: if we size from free memory, a neighbour's transient allocation at startup permanently reduces the KV cache for the lifetime of the server, and then we get \"why is throughput 20% lower on Tuesdays\" issues instead. Failing loudly beats degrading silently.", {"+1": 3, "-1": 2}),
        C("03-03 18:15", KIMURA, "Data point from the other side (8× H100, dedicated, no sharing): 0.95 gave us +7.8% throughput on our chat workload, so I'd be sad to see it reverted. But a crash on upgrade is clearly not OK. Could the default be 0.95 only when the GPU is otherwise empty at startup?", {"+1": 7}),
        C("03-04 09:20", JW, "I've opened {#revert_default_pr} to restore 0.90 as the default and keep 0.95 as a documented recommendation for dedicated GPUs. It's a two-line change that unblocks people today; the smarter free-memory logic can land later without time pressure.", {"+1": 14, "-1": 3}),
        C("03-04 10:05", CHIDI, "Procedural note: RELEASING.md promises that default changes affecting memory get a one-release deprecation warning. That didn't happen here, and that's on us — on me specifically, I cut 0.9.0. Whatever we decide, I'll add a checklist item so it doesn't happen again.", {"heart": 7, "+1": 5}),
        C("03-04 11:48", LIN, "@jwbaker thanks, but I'd rather not flip-flop the default across two patch releases: people who already tuned for 0.95 would silently lose 5% of their KV cache. Let's give @mvoronina's approach a couple of days.", {"-1": 6, "+1": 1}),
        C("03-04 12:30", DAN, "With respect, \"people who already tuned for 0.95\" is a much smaller group than \"people whose pods are crash-looping\". We can't stay on 0.8.4 either — it doesn't have the Qwen3 tool-call parser fix. A patch release with 0.90 would take you ten minutes.", {"+1": 15}),
        C("03-04 14:55", LIUWEI, "补充一个场景：我们用的是 K8s + GPU time-slicing，同一张 A100 80G 上跑两个 rapidinfer 实例，各自设置 `--gpu-memory-utilization 0.45`。升级 0.9.0 之后第二个实例启动时直接 OOM，因为第一个实例 graph capture 时的峰值比 0.8.x 高了大约 1.3 GiB（`max_num_seqs` 默认值改成 512，capture 的 batch size 变多了）。\n\n所以不只是 0.95 的问题，`max_num_seqs` 默认值的变化也有影响。", {"+1": 8, "eyes": 2}),
        C("03-04 16:10", MARTA, "@liuwei-ops that's a really useful observation, thank you — I can reproduce it: with `max_num_seqs=512` we capture 67 graph sizes instead of 35, and the capture pool peaks ~1.2 GiB higher on Qwen3-8B. So there are two regressions here, not one.", {"+1": 6}),
        C("03-04 19:30", HARUTO, "On the graph-capture part: we don't need to capture every size up to `max_num_seqs`. Capturing `[1, 2, 4, 8, 16, 24, 32, …, 256]` and padding larger batches costs under 1% decode throughput in my measurements on H100:\n\n| batch | all sizes | capped at 256 |\n|---|---|---|\n| 64 | 5,812 tok/s | 5,809 tok/s |\n| 384 | 11,240 tok/s | 11,170 tok/s |\n| 512 | 12,905 tok/s | 12,811 tok/s |\n\nI'll put up a PR that caps the default capture sizes at 256 regardless of `max_num_seqs`.", {"+1": 10, "rocket": 2}),
        C("03-05 08:50", MARIA, "Two days in and the official answer is still \"tune it yourself\". I'd appreciate an explicit decision on whether 0.9.1 will crash on our hardware, because I have to decide today whether we fork.", {"+1": 11, "confused": 1}),
        C("03-05 10:40", LIN, "Fair. Here's the decision for 0.9.1:\n\n1. A startup check that compares the budget with free memory and fails with an actionable message naming the flag.\n2. `--gpu-memory-utilization auto` as the new default: 0.95 on an otherwise-empty GPU, `free/total − 0.02` otherwise, logged clearly at startup. No silent shrinking later in the server's life.\n3. @haruto-s's capture-size cap.\n\n@mvoronina is doing (1) and (2) in {#auto_mem_pr}. I still don't want to go back to a hard 0.90.", {"+1": 20, "hooray": 4, "-1": 2}),
        C("03-05 11:22", JW, "That works for me as long as it lands in 0.9.1. I'll keep {#revert_default_pr} open as a fallback until {#auto_mem_pr} is reviewed."),
        C("03-05 13:03", KIMURA, "`auto` sounds like the best of both worlds. One request: print the resolved value at startup and expose it in `/metrics`, so we can alert when a replica came up with a smaller budget than expected. ありがとうございます！", {"+1": 6}),
        C("03-05 15:30", CXM, "auto 的方案我们可以接受 👍 不过 0.9.1 大概什么时候发布？我们线上还卡在 0.8.4。"),
        C("03-05 16:02", CHIDI, "@chenxiaoming88 the target is Wednesday 2026-03-11, assuming {#auto_mem_pr} and {#capture_cap_pr} are merged by Tuesday. 目标是 3 月 11 日（周三）发布。", {"heart": 3}),
        C("03-06 10:15", DAN, "Tested {#auto_mem_pr} on our staging A10G cluster with MPS (two replicas per GPU): both replicas come up, resolved utilization 0.43 and 0.41, no OOM. Throughput per replica is within 2% of 0.8.4. 👍", {"+1": 9, "rocket": 3}),
        C("03-06 14:40", MARIA, "Confirmed on L4 with our sidecar: the startup log shows `gpu_memory_utilization=auto -> 0.902 (free 22.1 GiB of 23.6 GiB)`. Thank you @mvoronina. I still think the original change needed a deprecation cycle, but this resolves the crash.", {"+1": 8, "heart": 2}),
        C("03-09 11:10", MARTA, "{#auto_mem_pr} is approved. Merging once the MI300X job has run on it too — the free-memory query goes through `hipMemGetInfo` on ROCm and I want that path covered."),
        C("03-10 16:45", CHIDI, "Fixed by {#auto_mem_pr} and {#capture_cap_pr}; both are in 0.9.1. I've also added a \"default changes need a deprecation cycle\" item to the release checklist in {#releasing_pr}.", {"hooray": 6}),
        C("03-11 09:40", LIUWEI, "已验证 main 分支：time-slicing 下两个实例都能正常启动，第二个实例日志显示 `auto -> 0.431`。感谢！", {"+1": 2}),
        C("03-11 13:15", BUDGET, "Still seeing an OOM on 0.9.1rc1 on a 12 GB RTX 3060 with Llama-3.1-8B in BF16 — is that the same issue?"),
        C("03-11 14:02", MARTA, "@budget-gpu probably not: 8B parameters in BF16 are 16 GB of weights, which can't fit in 12 GB at all. Please open a new issue with the full log if you see it with a model that fits."),
        C("03-11 14:30", MARIA, "Thanks everyone. For the record, what would have helped us most on day one was the error message, not the default. Glad both are fixed.", {"+1": 13}),
    ],
    closed="@auto_mem_pr",
    reactions={"+1": 41, "-1": 3, "eyes": 6, "heart": 2},
)

pr(
    "zh_doc_fix",
    "03-03 11:10",
    ZYH,
    "[Doc] 修正中文文档中 --max-model-len 的说明 / Fix zh docs for --max-model-len",
    ["documentation", "ready"],
    "Fixes {#zh_doc_issue}.\n\n`--max-model-len` 限制的是 prompt 与输出的总 token 数，并补充默认值的来源（模型配置中的 `max_position_embeddings`）。\n\nThe Chinese engine-args page described `--max-model-len` as the maximum *output* length; it is the total context length.",
    [F("docs/zh/serving/engine_args.md", 6, 2)],
    [C("03-03 12:02", LIUWEI, "👍 描述准确了，谢谢！")],
    [R("03-03 17:40", ELENA, "COMMENTED", "English summary reads fine to me."), R("03-03 17:48", LIN, "APPROVED", "准确，谢谢。")],
    merged="03-03 18:00",
    merged_by=LIN,
    closes=["zh_doc_issue"],
)

issue(
    "logprobs_issue",
    "03-03 12:30",
    PM,
    "[Bug]: /v1/completions returns 500 when `logprobs=0`",
    ["bug", "frontend"],
    """`logprobs=0` is valid in the OpenAI completions API (return the sampled token's logprob only) but RapidInfer answers with a 500:

```
curl localhost:8000/v1/completions -d '{"model": "Qwen/Qwen3-8B", "prompt": "Hello", "max_tokens": 4, "logprobs": 0}'
{"object":"error","message":"list index out of range","type":"InternalServerError","code":500}
```

`logprobs=1` works. Found while running the `lm-eval` harness, which sends `logprobs=0` for loglikelihood tasks.""",
    [
        C("03-03 13:10", RENE, "Confirmed. `_create_logprobs` assumes at least one top-logprob entry. PR welcome — you seem to have found the line already 🙂"),
        C("03-04 10:36", RENE, "Fixed by {#logprobs_fix1}, thanks @pmarchetti!"),
        C("03-06 14:00", PM, "Reopening: the non-streaming path is fixed, but with `\"stream\": true` the same request still returns a 500 (the streaming generator has its own copy of the logic). Traceback:\n\n```\nFile \"rapidinfer/entrypoints/openai/serving_completion.py\", line 388, in completion_stream_generator\n    top = step_top_logprobs[0]\nIndexError: list index out of range\n```"),
        C("03-06 15:20", RENE, "Ugh, duplicated logic. Thanks for checking the streaming path — could you do the same fix there, ideally by sharing one helper?"),
        C("03-10 11:02", PM, "Fixed for both paths by {#logprobs_fix2}; the test now covers `stream` true and false."),
    ],
    closed="@logprobs_fix2",
)

pr(
    "logprobs_fix1",
    "03-03 14:00",
    PM,
    "[Bugfix] Treat `logprobs=0` as 'sampled token only' in /v1/completions",
    ["bug", "frontend", "ready"],
    body("Fixes {#logprobs_issue}. With `logprobs=0` we now return the sampled token's logprob and an empty `top_logprobs` entry, as the OpenAI API does.", "Added cases to `tests/entrypoints/openai/test_completion_logprobs.py`.", "Passes locally and on CI."),
    [F("rapidinfer/entrypoints/openai/serving_completion.py", 9, 3), F("tests/entrypoints/openai/test_completion_logprobs.py", 34, 0)],
    [],
    [R("03-04 10:10", RENE, "APPROVED", "Thanks! LGTM.")],
    merged="03-04 10:30",
    merged_by=RENE,
    closes=["logprobs_issue"],
)

pr(
    "gemma",
    "03-03 15:20",
    TANVIR,
    "[Model] Add Gemma-3n text-only support",
    ["new-model", "ready"],
    body(
        "Adds `Gemma3nForCausalLM` (text-only): per-layer embeddings, AltUp and the Laurel block. Audio/vision towers are skipped at load time for now.",
        "`pytest tests/models/language/test_gemma3n.py` against HF transformers outputs (greedy, 3 prompts × 64 tokens) for E2B and E4B.",
        "Exact match on all prompts for E2B; E4B matches for 63/64 tokens on one prompt (logprob gap 0.002, expected with BF16).",
    ),
    [
        F("rapidinfer/model_executor/models/gemma3n.py", 612, 0, "added"),
        F("rapidinfer/model_executor/models/registry.py", 2, 0),
        F("tests/models/language/test_gemma3n.py", 88, 0, "added"),
        F("docs/models/supported_models.md", 1, 0),
    ],
    [
        ci_welcome("03-03 15:21"),
        C("03-05 09:40", TANVIR, "Rebased; the failure was the unrelated flaky prefix-caching test."),
        conflict("03-09 12:02", TANVIR),
        ci_result("03-10 16:50", 1244, "50m 21s"),
    ],
    [
        R("03-06 16:10", LIN, "CHANGES_REQUESTED", "", [
            RC("Per-layer embeddings are looked up on the CPU here (`.cpu()` on the ids). That's a device sync in every decode step — can they stay on the GPU?", "rapidinfer/model_executor/models/gemma3n.py", 214,
               "@@ -0,0 +1,612 @@\n+    def get_per_layer_inputs(self, input_ids: torch.Tensor) -> torch.Tensor:\n+        ids = input_ids.cpu()\n+        return self.embed_tokens_per_layer(ids).to(input_ids.device)", key="gemma_cpu"),
        ]),
        R("03-09 11:30", TANVIR, "COMMENTED", "", [RC("Moved to the GPU; the table is 2.1 GB in BF16 which is fine for E4B.", reply_to="gemma_cpu")]),
        R("03-10 17:10", LIN, "APPROVED", "LGTM."),
    ],
    merged="03-10 17:30",
    merged_by=LIN,
    commits=5,
)

pr(
    "sched_refactor",
    "03-03 16:45",
    LIN,
    "[Core][V1] Split `Scheduler.schedule()` into prefill and decode passes",
    ["v1", "refactor", "ready"],
    body(
        """`Scheduler.schedule()` is 460 lines with prefill admission, chunked prefill, decode and preemption interleaved in one loop. This splits it into `_schedule_running()` (decodes and partial prefills of running requests) and `_schedule_waiting()` (admission), with one explicit token budget passed between them.

No behaviour change intended: the scheduling decisions for the 1,200 recorded traces in `tests/core/traces/` are identical before and after.""",
        "`pytest tests/core` including the trace-replay test; `bench serve` on Llama-3.1-8B at 16/64/256 concurrency.",
        "Identical decisions on all traces. Throughput within ±0.3% (noise).",
    ),
    [
        F("rapidinfer/core/scheduler.py", 388, 341),
        F("rapidinfer/core/sched/budget.py", 96, 0, "added"),
        F("rapidinfer/core/sched/output.py", 22, 9),
        F("rapidinfer/engine/core.py", 14, 11),
        F("tests/core/test_scheduler.py", 71, 18),
        F("tests/core/test_trace_replay.py", 64, 0, "added"),
    ],
    [
        C("03-04 08:30", JW, "This will conflict with the preemption follow-up I had planned; happy to rebase on top of it, the split makes that change much easier."),
        ci_result("03-06 16:55", 1236, "48m 05s"),
    ],
    [
        R("03-05 14:30", MARTA, "COMMENTED", "Read through it with the trace-replay test open next to it; two questions.", [
            RC("Is the budget shared with the encoder cache budget on purpose? Before, multimodal encoder tokens were counted separately.", "rapidinfer/core/sched/budget.py", 41,
               "@@ -0,0 +1,96 @@\n+@dataclass\n+class TokenBudget:\n+    remaining: int\n+    encoder_remaining: int", key="budget_enc"),
            RC("This reorders running requests by arrival before preempting — same as before? The old loop preempted from the back of `self.running`.", "rapidinfer/core/scheduler.py", 305,
               "@@ -290,40 +290,22 @@ class Scheduler:\n-        while self.running and token_budget > 0:\n+        for request in self._running_by_priority():"),
        ]),
        R("03-05 18:05", LIN, "COMMENTED", "", [RC("Separate on purpose, `encoder_remaining` keeps the old accounting; added a comment.", reply_to="budget_enc")]),
        R("03-06 17:20", MARTA, "APPROVED", "Thanks for the trace-replay test, that made this reviewable."),
    ],
    merged="03-06 17:40",
    merged_by=LIN,
    commits=9,
)

pr(
    "ruff_pin",
    "03-03 18:20",
    CHIDI,
    "[CI] Pin ruff to 0.11.x in pre-commit",
    ["ci/build", "ready"],
    "ruff 0.12 changed the default of `lint.preview`-gated rules and the pre-commit job started failing on unrelated PRs. Pin until we migrate the config.",
    [F(".pre-commit-config.yaml", 1, 1), F("requirements/lint.txt", 1, 1)],
    [],
    [R("03-04 09:30", HARUTO, "APPROVED")],
    merged="03-04 09:40",
    merged_by=CHIDI,
)

issue(
    "awq_crash",
    "03-03 20:30",
    ZYH,
    "[Bug]: AWQ 量化模型在 batch > 32 时 crash（CUDA error: an illegal memory access was encountered）",
    ["bug", "quantization"],
    """### 环境
RapidInfer 0.9.0，A100 80G × 1，CUDA 12.8，模型 `Qwen/Qwen3-14B-AWQ`。

### 问题描述
并发请求数超过 32 时进程直接崩溃：

```
RuntimeError: CUDA error: an illegal memory access was encountered
  File "rapidinfer/model_executor/layers/quantization/awq.py", line 203, in apply
    out = ops.awq_gemm(x, qweight, scales, qzeros, pack_factor)
```

并发 ≤ 32 一切正常；`--max-num-seqs 32` 可以规避，但吞吐下降很多。用 `compute-sanitizer` 看是 `awq_gemm` 的 workspace 越界写。

### English summary
AWQ models crash with an illegal memory access once the batch exceeds 32; `compute-sanitizer` points at an out-of-bounds write to the `awq_gemm` workspace.""",
    [
        C("03-04 10:40", HARUTO, "Thanks for the sanitizer output, that narrows it down a lot. The workspace is sized for `max_m = 32` at init; since 0.9.0 the batch can be up to 512 tokens per split. Are you interested in sending the fix? Otherwise I'll take it."),
        C("03-04 11:15", ZYH, "我来修吧 / I'll send a PR today, workspace should be sized from `max_num_batched_tokens`."),
        C("03-06 15:02", ZYH, "Fixed by {#awq_fix}; 256 并发压测 2 小时无异常。"),
    ],
    closed="@awq_fix",
)

pr(
    "readme_spam",
    "03-03 21:15",
    TWEAK,
    "Update README.md",
    [],
    "added a badge",
    [F("README.md", 2, 0)],
    [
        ci_welcome("03-03 21:16"),
        C("03-04 09:48", CHIDI, "Thanks for the interest, but we don't add third-party badges to the README. Closing."),
    ],
    closed="03-04 09:50",
    branch="patch-1",
    locked=True,
)

pr(
    "topp",
    "03-03 22:10",
    WU,
    "[Perf] Avoid a host sync in top-p sampling",
    ["performance", "sampling", "ready"],
    body("`_apply_top_p` called `.item()` on the max probability to decide whether any row needs filtering, forcing a device sync every step. The branch is now computed on the device with `torch.where`.", "`pytest tests/samplers`; nsys trace of 200 decode steps.", "One fewer `cudaStreamSynchronize` per step; ITL p50 −0.6 ms at batch 128 on H100."),
    [F("rapidinfer/sample/ops/topk_topp.py", 17, 11), F("tests/samplers/test_topk_topp.py", 22, 0)],
    [],
    [R("03-05 15:40", HARUTO, "APPROVED", "Nice catch.")],
    merged="03-05 16:30",
    merged_by=HARUTO,
    commits=2,
)


# =============================================================================================
# Wed 2026-03-04  (window 03-04 09:00 ~ 03-05 09:00)
# =============================================================================================

pr(
    "revert_default_pr",
    "03-04 09:10",
    JW,
    "[Core] Restore the default gpu_memory_utilization to 0.90",
    ["v1"],
    body(
        "Fixes {#heated}. Restores the pre-0.9.0 default of `gpu_memory_utilization=0.90` so that deployments sharing a GPU start again without changes. The docs keep 0.95 as the recommended value for dedicated GPUs.",
        "`pytest tests/engine/test_arg_utils.py`; started Qwen3-8B on an L4 with a 1.1 GiB neighbour process.",
        "Starts cleanly with 0.90; OOMs with 0.95 as reported.",
    ),
    [F("rapidinfer/config.py", 1, 1), F("rapidinfer/engine/arg_utils.py", 1, 1), F("docs/serving/memory.md", 7, 2)],
    [
        C("03-04 09:40", DAN, "+1, this is the fastest way to unbreak everyone.", {"+1": 6}),
        C("03-04 11:52", LIN, "See my reply in {#heated} — I'd prefer a fix that keeps 0.95 on dedicated GPUs. Leaving this open while we look at alternatives."),
        C("03-09 10:30", LIN, "Closing in favour of {#auto_mem_pr}, which keeps 0.95 on empty GPUs and sizes from free memory otherwise. Thanks @jwbaker for pushing on this — it made sure the fix landed before 0.9.1.", {"+1": 4, "heart": 2}),
    ],
    [R("03-04 12:10", MARTA, "COMMENTED", "The change itself is fine; holding off approving until we've decided between this and the free-memory approach in the issue.")],
    closed="03-09 10:30",
    closes=["heated"],
    branch="jwbaker/restore-gpu-mem-default",
)

pr(
    "phi4",
    "03-04 10:20",
    TANVIR,
    "[Model] Fix RoPE scaling for Phi-4-mini long-context checkpoints",
    ["bug", "ready"],
    body("Phi-4-mini-instruct uses `longrope` with separate short/long factors and switches at `original_max_position_embeddings`. We applied the long factors from position 0, which degraded quality on short prompts (MMLU −2.3 points).", "MMLU (5-shot) and a 32k needle-in-a-haystack run.", "MMLU back to 68.9 (HF: 69.0); needle retrieval unchanged at 100%."),
    [F("rapidinfer/model_executor/layers/rotary_embedding.py", 31, 9), F("tests/kernels/test_rotary_embedding.py", 27, 0)],
    [],
    [R("03-04 17:05", HARUTO, "APPROVED", "Good find.")],
    merged="03-04 17:30",
    merged_by=HARUTO,
    commits=2,
)

pr(
    "kv_bytes",
    "03-04 11:30",
    MARTA,
    "[Core] Add `--kv-cache-memory-bytes` to set the KV cache size explicitly",
    ["v1", "memory", "ready"],
    body(
        "For operators who want a fixed, reproducible KV cache size regardless of what else is on the GPU (see the discussion in {#heated}). When set, `--gpu-memory-utilization` is ignored and the profiler only checks that weights + activations + the requested cache fit.",
        "`pytest tests/engine/test_kv_cache_bytes.py`.",
        "Requesting more than fits fails at startup with `KV cache of 40.0 GiB requested but only 31.2 GiB is free after loading weights; lower --kv-cache-memory-bytes`.",
    ),
    [F("rapidinfer/engine/arg_utils.py", 21, 3), F("rapidinfer/worker/gpu_worker.py", 44, 12), F("rapidinfer/config.py", 18, 1), F("tests/engine/test_kv_cache_bytes.py", 73, 0, "added")],
    [C("03-05 09:10", KIMURA, "Very welcome — this is exactly what we want for capacity planning."), ci_result("03-12 11:40", 1262, "52m 12s")],
    [R("03-12 12:10", LIN, "APPROVED", "")],
    merged="03-12 12:30",
    merged_by=LIN,
    commits=3,
)

pr(
    "rocm_ci",
    "03-04 13:00",
    CHIDI,
    "[ROCm][CI] Add a nightly MI300X job for kernel and model tests",
    ["rocm", "ci/build", "ready"],
    body("Adds `rocm-nightly` on the two donated MI300X nodes: `tests/kernels`, `tests/rocm` and the small-model correctness suite, with results posted to #rapidinfer-ci. Per-PR ROCm coverage stays at the smoke subset.", "Manually triggered the pipeline three times.", "Runtime 1h 52m; found one real failure (memory access fault with the FP8 KV cache on long prompts)."),
    [F(".buildkite/rocm-nightly.yaml", 96, 0, "added"), F("tests/rocm/conftest.py", 31, 4), F("requirements/rocm-test.txt", 4, 1)],
    [C("03-04 19:20", KAVYA, "Thanks! Could we pin the nodes to ROCm 6.4 until the 6.4.1 base image lands? The 6.3 image has the hipBLASLt bug that makes `test_fp8_gemm` flaky.")],
    [R("03-06 11:50", KAVYA, "APPROVED", "Pinned to 6.4 now — LGTM.")],
    merged="03-06 12:10",
    merged_by=LIN,
    commits=3,
)

pr(
    "json_schema",
    "03-04 14:40",
    RENE,
    "[Frontend] Support `response_format` json_schema with `strict: true`",
    ["frontend", "structured-output", "ready"],
    body("Accepts `response_format={\"type\": \"json_schema\", \"json_schema\": {..., \"strict\": true}}` as in the OpenAI API. Strict schemas are checked against the supported subset up front (no `patternProperties`, every property required) and rejected with a 400 naming the unsupported keyword instead of failing during generation.", "New tests for 31 schemas from the OpenAI cookbook.", "All supported schemas produce valid JSON; unsupported ones get a 400."),
    [F("rapidinfer/entrypoints/openai/protocol.py", 38, 6), F("rapidinfer/entrypoints/openai/serving_chat.py", 12, 3), F("rapidinfer/structured_output/schema_check.py", 144, 0, "added"), F("tests/entrypoints/openai/test_strict_json_schema.py", 211, 0, "added")],
    [C("03-05 10:15", OLA, "This will help agent frameworks a lot. Does it cover `anyOf` at the top level? Some SDKs generate that for unions.")],
    [
        R("03-06 10:40", PM, "COMMENTED", "", [
            RC("`anyOf` at the top level is valid in strict mode per the OpenAI docs; this rejects it.", "rapidinfer/structured_output/schema_check.py", 57,
               "@@ -0,0 +1,144 @@\n+UNSUPPORTED = {\"patternProperties\", \"anyOf\", \"if\", \"then\", \"else\"}", key="anyof"),
        ]),
        R("03-09 17:20", RENE, "COMMENTED", "", [RC("Right — allowed `anyOf`, added the SDK union case as a test.", reply_to="anyof")]),
        R("03-11 11:30", LIN, "APPROVED", ""),
    ],
    merged="03-11 12:00",
    merged_by=LIN,
    commits=4,
)

issue(
    "metrics_issue",
    "03-04 15:30",
    JO,
    "[Feature]: Expose per-request queue time in Prometheus metrics",
    ["feature request", "observability"],
    "We autoscale on queueing delay, but `/metrics` only has `rapidinfer:time_to_first_token_seconds`, which mixes queue time with prefill time. A histogram `rapidinfer:request_queue_time_seconds` (arrival → first scheduled) would let us scale before TTFT degrades.",
    [
        C("03-04 17:02", RENE, "Makes sense, and the scheduler already records `scheduled_time`. Would you like to send a PR? Happy to review."),
        C("03-05 09:12", JO, "Sure, I'll give it a try next week."),
    ],
)

pr(
    "swa_fix",
    "03-04 16:00",
    JW,
    "[Bugfix] Fix off-by-one in the sliding-window block table for Mistral",
    ["bug", "ready"],
    body("With `sliding_window=4096` and block size 16, the first block still inside the window was freed one step early, so tokens at exactly `pos − 4096` attended to a recycled block. Shows up as rare garbage tokens after ~4k tokens of context.", "New unit test over window boundaries; 8k-token generation with Mistral-7B-Instruct-v0.3.", "No divergence from HF over 200 × 8k generations (was 3/200 before)."),
    [F("rapidinfer/core/kv_cache_manager.py", 4, 3), F("tests/core/test_sliding_window.py", 46, 0)],
    [],
    [R("03-05 09:40", MARTA, "APPROVED", "Good find, and thanks for the reproducer.")],
    merged="03-05 10:00",
    merged_by=MARTA,
)

issue(
    "mi300_fault",
    "03-04 18:00",
    ANA,
    "[Bug][ROCm]: Memory access fault on MI300X with `--kv-cache-dtype fp8` and AITER paged attention",
    ["bug", "rocm"],
    """Since the AITER default changed on main, serving Llama-3.1-70B-Instruct with `--kv-cache-dtype fp8` on 8× MI300X crashes on the first long request:

```
Memory access fault by GPU node-2 (Agent handle: 0x5d1e8a0) on address 0x7f1c2a400000. Reason: Unknown.
Fatal Python error: Aborted
```

Prompts shorter than ~2,000 tokens work. `RAPIDINFER_ROCM_USE_AITER_PAGED_ATTN=0` avoids it. ROCm 6.4.0, gfx942.""",
    [
        C("03-04 19:05", KAVYA, "Thanks — reproduced on our MI300X box. The FP8 path passes the K/V scales with the wrong stride once a sequence spans more than 128 blocks. Working on a fix with @gfx-wizard."),
        C("03-05 14:40", GFX, "Fix is in {#fp8_kv_fix}."),
        C("03-09 14:05", ANA, "Confirmed fixed on main with 32k prompts, thanks both! 🙏"),
    ],
    closed="@fp8_kv_fix",
    reactions={"+1": 3},
)

pr(
    "typehints",
    "03-04 20:00",
    PM,
    "[Misc] Add type hints to `rapidinfer/engine/arg_utils.py`",
    ["ready"],
    "Part of the typing push. `mypy --strict` now passes on `arg_utils.py`; no behaviour change.",
    [F("rapidinfer/engine/arg_utils.py", 96, 88), F("pyproject.toml", 1, 0)],
    [],
    [R("03-05 14:30", CHIDI, "APPROVED", "")],
    merged="03-05 15:00",
    merged_by=CHIDI,
    commits=2,
)

pr(
    "awq_fix",
    "03-04 21:10",
    ZYH,
    "[Bugfix][Quantization] Size the AWQ GEMM workspace from max_num_batched_tokens",
    ["bug", "quantization", "ready"],
    body("Fixes {#awq_crash}. The `awq_gemm` workspace was allocated for 32 rows at init; since 0.9.0 a step can carry up to `max_num_batched_tokens` rows. Sizing it from the scheduler config fixes the out-of-bounds write.", "`compute-sanitizer` run of `tests/quantization/test_awq.py` with batch 1–512; 2 h load test at 256 concurrent requests.", "Sanitizer clean; no crash in the load test."),
    [F("rapidinfer/model_executor/layers/quantization/awq.py", 12, 4), F("csrc/quantization/awq/gemm_kernels.cu", 9, 5), F("tests/quantization/test_awq.py", 31, 2)],
    [C("03-05 10:02", HARUTO, "Thanks! Could you add batch sizes 33 and 511 to the test? Those are the boundaries that matter.")],
    [R("03-06 14:30", HARUTO, "APPROVED", "Thanks for the sanitizer run.")],
    merged="03-06 15:00",
    merged_by=HARUTO,
    closes=["awq_crash"],
    commits=2,
)

issue(
    "ds3_usage",
    "03-04 22:30",
    WANGF,
    "[Usage]: 如何在两台 8 卡 H800 上部署 DeepSeek-V3？",
    ["usage"],
    "文档里只有单机 8 卡的例子。两台 H800（每台 8 卡，IB 互联）应该用 TP=16 还是 TP=8 + PP=2？`--distributed-executor-backend` 需要设置成 ray 吗？",
    [
        C("03-05 09:30", HARUTO, "For two H800 nodes we recommend TP=8 within a node and PP=2 across nodes (`--tensor-parallel-size 8 --pipeline-parallel-size 2`); TP=16 across IB is slower for DeepSeek-V3. You don't need Ray: use `--distributed-executor-backend mp` with `--nnodes 2 --node-rank N --master-addr …` (docs/serving/multi_node.md)."),
        C("03-05 21:10", WANGF, "按照这个配置已经跑起来了，吞吐比 TP=16 高 30% 左右。谢谢！"),
        C("03-06 10:20", HARUTO, "Great, closing. 不客气！"),
    ],
    closed="03-06 10:20",
)


# =============================================================================================
# Thu 2026-03-05  (window 03-05 09:00 ~ 03-06 09:00) — the RMSNorm fusion merges, then breaks FP8
# =============================================================================================

pr(
    "auto_mem_pr",
    "03-05 10:20",
    MARTA,
    "[Core] Add `gpu_memory_utilization=auto` and fail fast when free memory is below the budget",
    ["v1", "memory", "ready"],
    body(
        """Fixes {#heated}.

1. `--gpu-memory-utilization auto` (the new default): resolves to 0.95 when no other process holds device memory at startup, otherwise to `free / total − 0.02`. The resolved value and the free/total numbers are logged once and exported as the gauge `rapidinfer:gpu_memory_utilization_resolved`.
2. With an explicit value, startup now checks the budget against free memory and fails before loading weights with: `gpu_memory_utilization=0.95 needs 21.0 GiB but only 19.9 GiB is free (another process holds 1.1 GiB). Lower --gpu-memory-utilization or use auto.`
3. The budget is never changed after startup.

Works on CUDA (`cudaMemGetInfo`) and ROCm (`hipMemGetInfo`).""",
        "`pytest tests/engine/test_gpu_memory_auto.py` (fake device with neighbours), manual runs on L4 + sidecar, A10G + MPS, MI300X.",
        "L4 with a 1.1 GiB sidecar: `auto -> 0.902`, starts. Empty H100: `auto -> 0.95`, throughput identical to 0.9.0.",
    ),
    [
        F("rapidinfer/worker/gpu_worker.py", 88, 21),
        F("rapidinfer/engine/arg_utils.py", 23, 6),
        F("rapidinfer/config.py", 31, 5),
        F("rapidinfer/platforms/cuda.py", 12, 0),
        F("rapidinfer/platforms/rocm.py", 14, 0),
        F("rapidinfer/metrics/prometheus.py", 9, 0),
        F("tests/engine/test_gpu_memory_auto.py", 164, 0, "added"),
        F("docs/serving/memory.md", 41, 12),
    ],
    [
        ci_result("03-05 11:30", 1205, "49m 58s", "unit-l4 (2/4)"),
        C("03-05 11:45", MARTA, "The failure is the old flaky prefix-caching test, unrelated. Retriggered."),
        ci_result("03-05 12:50", 1206, "48m 31s"),
        C("03-06 10:15", DAN, "Tested on staging (A10G + MPS, two replicas per GPU), details in {#heated}. Works great."),
        C("03-10 15:40", KAVYA, "MI300X nightly ran on this branch: `hipMemGetInfo` path is fine, resolved 0.95 on empty GPUs and 0.47 with two servers per GPU. 👍"),
    ],
    [
        R("03-06 11:30", LIN, "CHANGES_REQUESTED", "Logic is right. Two things before this can merge.", [
            RC("`free / total − 0.02` can go negative or tiny if a neighbour holds almost everything. Please fail with the same actionable message when the result is below, say, 0.3, instead of starting a server with no KV cache.", "rapidinfer/worker/gpu_worker.py", 262,
               "@@ -251,11 +251,34 @@ class GPUWorker:\n+        if self.cache_config.gpu_memory_utilization == \"auto\":\n+            free, total = current_platform.mem_get_info()\n+            util = 0.95 if free >= 0.98 * total else free / total - 0.02", key="auto_floor"),
            RC("Please also log which processes hold memory when we can get them (NVML `nvmlDeviceGetComputeRunningProcesses`); it'll save a round trip on every bug report.", "rapidinfer/worker/gpu_worker.py", 270,
               "@@ -251,11 +251,34 @@ class GPUWorker:\n+            logger.info(\"gpu_memory_utilization=auto -> %.3f (free %.1f GiB of %.1f GiB)\",\n+                        util, free / GiB, total / GiB)"),
        ]),
        R("03-06 16:20", MARTA, "COMMENTED", "", [RC("Added a floor of 0.3 with the same error message, and a test for it.", reply_to="auto_floor")]),
        R("03-09 10:50", LIN, "APPROVED", "Thanks, this is the right fix. Let's wait for the MI300X run before merging."),
        R("03-09 11:40", HARUTO, "APPROVED", ""),
    ],
    merged="03-10 16:05",
    merged_by=LIN,
    closes=["heated"],
    reactions={"+1": 12, "hooray": 5},
    commits=6,
    branch="mvoronina/gpu-mem-auto",
)

issue(
    "nginx_issue",
    "03-05 11:50",
    NIKOLAI,
    "[Bug]: Streaming responses stop after the first chunk behind nginx with HTTP/2",
    ["bug", "frontend"],
    "Behind nginx 1.27 (HTTP/2 to the client, HTTP/1.1 upstream), `stream: true` chat completions deliver the first chunk and then nothing until the response completes. Direct connections stream fine.",
    [
        C("03-05 13:20", RENE, "This is nginx buffering the upstream response. Set `proxy_buffering off;` (or send `X-Accel-Buffering: no`, which we do since 0.9.0 — are you on an older version?) for the streaming location. Nothing RapidInfer can change on its side, I'm afraid."),
        C("03-06 22:10", NIKOLAI, "We had a `proxy_buffering on;` override in an included snippet. Removing it fixed it, sorry for the noise."),
        C("03-07 12:00", RENE, "No worries — closing as it's a proxy configuration issue. I'll add a note to the deployment docs."),
    ],
    closed="03-07 12:00",
    reason="not_planned",
)

pr(
    "capture_cap_pr",
    "03-05 12:00",
    HARUTO,
    "[Perf] Cap the default CUDA graph capture sizes at 256",
    ["performance", "memory", "ready"],
    body("Part of the fix for {#heated}. Since `max_num_seqs` defaults to 512, we captured 67 graph sizes; the extra sizes above 256 cost ~1.2 GiB of capture pool on Qwen3-8B and under 1% decode throughput when padded instead. Default capture sizes now stop at 256; `--cuda-graph-sizes` still overrides.", "`bench serve` at batch 64/384/512 on H100; memory snapshot during capture.", "Capture pool −1.18 GiB; throughput −0.6% at batch 384, −0.7% at 512, unchanged below 256."),
    [F("rapidinfer/config.py", 14, 6), F("rapidinfer/worker/gpu_model_runner.py", 8, 3), F("tests/worker/test_cudagraph_sizes.py", 39, 0, "added")],
    [ci_result("03-05 13:10", 1205, "47m 44s")],
    [R("03-09 15:10", MARTA, "APPROVED", "Confirmed the 1.2 GiB on my L4 box.")],
    merged="03-09 15:30",
    merged_by=MARTA,
    commits=2,
)

pr(
    "fp8_kv_fix",
    "03-05 14:30",
    GFX,
    "[ROCm][Bugfix] Fix the FP8 KV cache scale stride in AITER paged attention",
    ["rocm", "bug", "ready"],
    body("Fixes {#mi300_fault}. The wrapper passed the per-block K/V scale tensor with a stride of `num_heads` instead of `num_kv_heads`, so sequences longer than 128 blocks read scales past the end of the tensor on MI300X (gfx942). Also adds an assert on the scale shape in debug builds.", "`pytest tests/rocm/test_fp8_kv.py` on MI300X with 2k–32k token prompts.", "No faults; outputs match the BF16 KV cache within FP8 tolerance."),
    [F("csrc/rocm/attention.cu", 18, 7), F("rapidinfer/platforms/rocm.py", 6, 2), F("rapidinfer/attention/backends/rocm_aiter.py", 9, 3), F("tests/rocm/test_fp8_kv.py", 88, 0, "added")],
    [ci_result("03-05 15:50", 1207, "55m 06s"), C("03-06 09:40", ANA, "Tested this branch on our node with 32k prompts, no more faults. 👍")],
    [
        R("03-06 17:40", KAVYA, "CHANGES_REQUESTED", "", [
            RC("`kv_scale_stride` should come from the tensor (`k_scale.stride(0)`) rather than be recomputed here, otherwise the next layout change breaks it again.", "csrc/rocm/attention.cu", 1462,
               "@@ -1455,8 +1455,9 @@ void paged_attention_aiter(\n   const int num_kv_heads = key_cache.size(1);\n-  const int kv_scale_stride = num_heads;\n+  const int kv_scale_stride = num_kv_heads;", key="stride"),
        ]),
        R("03-07 10:30", GFX, "COMMENTED", "", [RC("Done, now taken from `k_scale.stride(0)` with a `TORCH_CHECK` that both scales agree.", reply_to="stride")]),
        R("03-09 13:40", KAVYA, "APPROVED", "Thanks!"),
    ],
    merged="03-09 14:00",
    merged_by=KAVYA,
    closes=["mi300_fault"],
    commits=3,
)

pr(
    "dep_transformers",
    "03-05 16:05",
    DEPENDABOT,
    "Bump transformers from 4.57.1 to 4.57.3 in /requirements",
    ["dependencies", "python"],
    dependabot_body("transformers", "https://github.com/huggingface/transformers", "4.57.1", "4.57.3", "<ul>\n<li>Fix Gemma-3n processor loading</li>\n<li>Fix tokenizer <code>chat_template</code> kwargs</li>\n</ul>"),
    [F("requirements/common.txt", 1, 1)],
    [ci_result("03-05 17:02", 1207, "46m 37s")],
    [R("03-11 09:40", CHIDI, "APPROVED", "")],
    merged="03-11 09:50",
    merged_by=CHIDI,
    branch="dependabot/pip/requirements/transformers-4.57.3",
)

pr(
    "oom_doc",
    "03-05 17:10",
    ELENA,
    "[Doc] Add a troubleshooting section for OOM at startup",
    ["documentation", "ready"],
    "Explains the three startup OOMs we see most (weights don't fit, KV cache budget above free memory, CUDA graph capture) with the log line for each and the flag to change. Written from the reports in {#heated}.",
    [F("docs/serving/troubleshooting.md", 64, 3)],
    [],
    [R("03-06 12:40", MARTA, "APPROVED", "Very clear, thanks. I'll update it again once `auto` lands.")],
    merged="03-06 13:00",
    merged_by=MARTA,
)

pr(
    "abort_race",
    "03-05 18:30",
    JW,
    "[Core] Fix a race in the async output processor when a request is aborted",
    ["bug", "v1", "ready"],
    body("If a client disconnects while its final output is being processed, `OutputProcessor` could call `put_nowait` on a queue that `abort_request` had already removed, raising `KeyError` in the engine loop and killing the server. Aborts are now processed in the same loop iteration as outputs.", "Stress test: 2,000 streaming requests with random client disconnects.", "0 engine crashes (was 1–3 per run)."),
    [F("rapidinfer/engine/output_processor.py", 27, 14), F("rapidinfer/engine/async_llm.py", 11, 6), F("tests/engine/test_abort_race.py", 92, 0, "added")],
    [],
    [R("03-09 11:40", LIN, "APPROVED", "Nice stress test.")],
    merged="03-09 12:00",
    merged_by=LIN,
    commits=2,
)

issue(
    "lora_quota",
    "03-05 19:00",
    KIMURA,
    "[Feature]: Per-tenant memory quota for LoRA adapters",
    ["feature request", "lora"],
    "We serve ~300 customer adapters on one base model. One tenant uploading many large adapters evicts everyone else's from the GPU LoRA cache. A per-tenant (or per-adapter-prefix) quota on the LoRA cache would make this predictable.",
    [
        C("03-06 11:15", MARTA, "Interesting use case. Today the LoRA cache is a single LRU. A quota keyed on a tenant id from the request would need an API change — could you describe how you'd pass the tenant (header? model name prefix?)"),
        C("03-06 13:40", KIMURA, "Model name prefix would be easiest for us (`tenantA/adapter-1`), no API change needed."),
    ],
)

pr(
    "softmax",
    "03-05 20:00",
    WU,
    "[Kernel] Use wave-level reduction in the paged-attention softmax",
    ["performance", "ready"],
    body("Replaces the shared-memory tree reduction in the paged-attention softmax with warp/wave shuffles (`__shfl_xor` on CUDA, `__builtin_amdgcn_ds_swizzle` on the HIP build), saving two `__syncthreads()` per partition.", "`pytest tests/kernels/test_attention.py` on the CUDA and HIP runners.", "Decode attention kernel time −4% on H100 and −7% on the HIP build at context 8k."),
    [F("csrc/attention/attention_kernels.cuh", 41, 29), F("csrc/rocm/attention.cu", 36, 22), F("tests/kernels/test_attention.py", 12, 2)],
    [ci_result("03-05 21:20", 1207, "53m 10s")],
    [R("03-11 13:50", HARUTO, "APPROVED", "Verified on both. Nice."), R("03-11 14:05", KAVYA, "APPROVED", "The HIP path looks good.")],
    merged="03-11 14:20",
    merged_by=HARUTO,
    commits=3,
)

issue(
    "garbage_issue",
    "03-05 21:40",
    QFAN,
    "[Bug]: FP8 Llama-3.1-8B outputs gibberish on main since {#rmsnorm_pr}",
    ["bug", "quantization"],
    """Nightly wheel from today (after {#rmsnorm_pr} merged) produces garbage for `neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8`:

```
Prompt: 'The capital of France is'
Output: ' Paris Paris theParis the the of capital Paris ofParis'
```

Yesterday's nightly is fine. BF16 models are fine. Reproduces on H100 and L40S. `--compilation-config '{"level": 0}'` (no fusion pass) also fixes it.""",
    [
        C("03-05 22:30", HARUTO, "Reproduced, sorry about that. Llama-3.1-8B has `hidden_size=4096` and the fused kernel reads the residual-add input scale from the previous layer when the model uses `fused_add_rms_norm` with a static activation scale — the 70B checkpoint I benchmarked uses dynamic scales, so the test never hit it."),
        C("03-05 22:41", LIN, "Let's revert tonight and reland with a test that covers static-scale checkpoints. Correctness first.", {"+1": 5}),
        C("03-06 11:32", HARUTO, "Reverted in {#revert_pr}; tomorrow's nightly will have it. I'll reland with the fix and a static-scale test."),
        C("03-06 13:05", QFAN, "Thanks for the fast turnaround!"),
    ],
    closed="@revert_pr",
    reactions={"+1": 4, "eyes": 2},
)


# =============================================================================================
# Fri 2026-03-06  (window 03-06 09:00 ~ 03-07 09:00) — the revert
# =============================================================================================

pr(
    "revert_pr",
    "03-06 10:05",
    HARUTO,
    'Revert "[Perf] Fuse RMSNorm and FP8 quantization into one kernel" ({#rmsnorm_pr})',
    ["ready"],
    "Reverts tidings-demo/rapidinfer{#rmsnorm_pr}\n\nThe fused kernel produces wrong results for checkpoints with static activation scales (e.g. Llama-3.1-8B-Instruct-FP8), see {#garbage_issue}. Reverting to unblock the nightly; I'll reland with a fix and a test that covers static scales.",
    [
        F("csrc/layernorm_quant_kernels.cu", 0, 212, "removed"),
        F("csrc/ops.h", 0, 6),
        F("csrc/torch_bindings.cpp", 0, 9),
        F("rapidinfer/model_executor/layers/layernorm.py", 12, 48),
        F("rapidinfer/compilation/fusion.py", 3, 61),
        F("tests/kernels/test_fused_rmsnorm_quant.py", 0, 140, "removed"),
    ],
    [ci_result("03-06 11:10", 1198, "46m 15s")],
    [R("03-06 11:20", LIN, "APPROVED", "Approving the revert. Thanks for the quick turnaround.")],
    merged="03-06 11:30",
    merged_by=LIN,
    closes=["garbage_issue"],
    branch="revert-{n:rmsnorm_pr}-haruto-s/fused-rmsnorm-fp8",
)

pr(
    "ci_shard",
    "03-06 11:00",
    CHIDI,
    "[CI] Shard the V1 test suite across four L4 runners",
    ["ci/build", "ready"],
    "`tests/v1` takes 42 minutes on one runner and is now the long pole. Split it with `pytest-shard` by recorded durations into four shards of ~11 minutes each.",
    [F(".buildkite/test-pipeline.yaml", 34, 9), F(".buildkite/test_durations.json", 412, 0, "added"), F("requirements/test.txt", 1, 0)],
    [ci_result("03-06 12:20", 1198, "29m 02s")],
    [R("03-09 15:40", LIN, "APPROVED", "")],
    merged="03-09 16:00",
    merged_by=LIN,
    commits=2,
)

issue(
    "arm_issue",
    "03-06 12:40",
    ARMLI,
    "[Installation]: pip install fails on aarch64 (GH200): no wheel for rapidinfer-kernels",
    ["installation"],
    "`pip install rapidinfer==0.9.0` on a GH200 node (aarch64, CUDA 12.8) tries to build `rapidinfer-kernels` from source and fails after 40 minutes with `nvcc fatal: Unsupported gpu architecture 'compute_90a'` (we have CUDA 12.8, so probably a wrong nvcc on PATH). Are aarch64 wheels planned?",
    [
        C("03-06 14:15", CHIDI, "aarch64 wheels are built since 0.9.0 but only uploaded for Python 3.12 — are you on 3.11? As a workaround: `pip install rapidinfer --extra-index-url https://wheels.rapidinfer.example/cu128`. We'll add 3.11 and 3.13 in 0.9.1."),
        C("03-06 19:02", ARMLI, "Yes, 3.11. The extra index works, thanks. 期待 0.9.1。"),
    ],
)

pr(
    "mtp_pr",
    "03-06 14:00",
    TANVIR,
    "[Model][Spec Decode] DeepSeek-V3 MTP draft head via the new Proposer API",
    ["speculative-decoding", "new-model"],
    body(
        "First proposer written against the API from {#spec_rfc}: runs DeepSeek-V3's multi-token-prediction layer as the draft model (k=1..3), sharing the target model's embedding and LM head. Draft buffers are preallocated per CUDA graph size.",
        "`pytest tests/spec_decode/test_mtp.py`; acceptance-rate and throughput runs on 8× H200 with ShareGPT.",
        "Mean acceptance length 2.41 at k=3; output tok/s +38% at batch 16, +9% at batch 128. Greedy outputs identical to no speculation.",
    ),
    [
        F("rapidinfer/spec_decode/proposers/mtp.py", 286, 0, "added"),
        F("rapidinfer/spec_decode/proposer.py", 112, 0, "added"),
        F("rapidinfer/spec_decode/registry.py", 48, 0, "added"),
        F("rapidinfer/model_executor/models/deepseek_mtp.py", 204, 0, "added"),
        F("rapidinfer/worker/gpu_model_runner.py", 66, 21),
        F("tests/spec_decode/test_mtp.py", 158, 0, "added"),
    ],
    [
        ci_result("03-06 15:30", 1201, "52m 18s"),
        C("03-09 10:05", WU, "Ran it on 8× H100 with our traffic mix: acceptance length 2.2 at k=3, +31% throughput at low concurrency. Nice!"),
        C("03-12 09:20", TANVIR, "Addressed the review; the proposer now runs on its own stream when `--speculative-stream` is set."),
    ],
    [
        R("03-10 14:40", LIN, "CHANGES_REQUESTED", "Great results. The API surface needs a bit more thought before other proposers copy it.", [
            RC("`propose()` returns a new tensor each step; please write into the preallocated `DraftTokens` buffer instead, as agreed in the RFC, or CUDA graphs will re-capture.", "rapidinfer/spec_decode/proposer.py", 58,
               "@@ -0,0 +1,112 @@\n+class Proposer(Protocol):\n+    max_draft_len: int\n+    needs_hidden_states: bool\n+\n+    def propose(self, batch: ProposerBatch) -> torch.Tensor: ...", key="mtp_buf"),
        ]),
        R("03-12 09:15", TANVIR, "COMMENTED", "", [RC("Switched to `propose(batch, out: DraftTokens) -> None`.", reply_to="mtp_buf")]),
    ],
    commits=8,
)

pr(
    "tool_choice",
    "03-06 15:10",
    RENE,
    "[Frontend] Return 400 instead of 500 for an invalid `tool_choice`",
    ["frontend", "ready"],
    "`tool_choice={\"type\": \"function\", \"function\": {\"name\": \"missing\"}}` naming a tool that isn't in `tools` raised a `KeyError` → 500. Now a 400 with `tool_choice names function 'missing', which is not in tools`.",
    [F("rapidinfer/entrypoints/openai/serving_chat.py", 11, 2), F("tests/entrypoints/openai/test_tool_choice.py", 29, 0)],
    [],
    [R("03-09 10:20", PM, "APPROVED", "")],
    merged="03-09 10:40",
    merged_by=LIN,
)

pr(
    "logprobs_fix2",
    "03-06 16:30",
    PM,
    "[Bugfix] Handle `logprobs=0` in the streaming completions path too",
    ["bug", "frontend", "ready"],
    body("Fixes {#logprobs_issue} for `stream: true`, which {#logprobs_fix1} missed. Both paths now go through one `_format_logprobs()` helper so they can't drift apart again.", "Test parametrised over `stream` true/false and `logprobs` 0/1/5.", "All 6 cases pass."),
    [F("rapidinfer/entrypoints/openai/serving_completion.py", 24, 31), F("tests/entrypoints/openai/test_completion_logprobs.py", 18, 6)],
    [],
    [R("03-10 10:40", RENE, "APPROVED", "Thanks for deduplicating it.")],
    merged="03-10 11:00",
    merged_by=RENE,
    closes=["logprobs_issue"],
    commits=2,
)

pr(
    "graph_prealloc",
    "03-06 18:00",
    HARUTO,
    "[Perf] Pre-allocate block tables on the GPU for CUDA graph replays",
    ["performance"],
    body("Keeps a persistent device copy of the block table and updates only changed rows instead of copying the whole table each step.", "`bench serve` Llama-3.1-8B, batch 256.", "ITL p50 −0.3 ms on H100."),
    [F("rapidinfer/worker/block_table.py", 54, 17), F("rapidinfer/worker/gpu_model_runner.py", 19, 8)],
    [
        C("03-09 14:20", MARTA, "I couldn't reproduce the gain on L4 or A100 (±0.5% between runs). Is this worth the extra state?"),
        C("03-12 17:00", HARUTO, "Re-measured with 10 runs each: the difference is within noise on every GPU except H100 at batch 256. Not worth the complexity; closing."),
    ],
    closed="03-12 17:00",
    commits=2,
)

issue(
    "preempt_metric",
    "03-06 19:30",
    JO,
    "[Bug]: `rapidinfer:num_preemptions_total` goes down after requests are aborted",
    ["bug", "observability", "needs-info"],
    "Our dashboard shows `rapidinfer:num_preemptions_total` decreasing (it's a counter) after a burst of client aborts. Seen on 0.9.0 with `--preemption-mode swap`.",
    [
        C("03-09 10:15", MARTA, "Counters can only go down if the process restarted — did the server restart, or is Prometheus scraping two replicas under one label set? Could you share the raw `/metrics` output before and after?"),
    ],
)


# =============================================================================================
# Sat 2026-03-07  (window 03-07 09:00 ~ 03-08 09:00) — a light weekend day
# =============================================================================================

pr(
    "lora_typo",
    "03-07 10:30",
    ELENA,
    "[Doc] Fix typos in docs/features/lora.md",
    ["documentation"],
    "`--max-loras` was spelled `--max-lora` twice, and the example used a removed `--lora-dtype auto16` value.",
    [F("docs/features/lora.md", 3, 3)],
    [],
    [R("03-07 11:00", CHIDI, "APPROVED", "")],
    merged="03-07 11:05",
    merged_by=CHIDI,
)

issue(
    "help_slow",
    "03-07 15:20",
    CARLA,
    "[Bug]: `rapidinfer serve --help` takes 9 seconds to print",
    ["bug", "good first issue"],
    "`time rapidinfer serve --help` → 9.2 s on a laptop without a GPU. `python -X importtime` shows most of it is importing torch, triton and the model registry just to build the argument parser.",
    [
        C("03-07 18:40", CHIDI, "Known pain point. The parser only needs the config dataclasses; importing the model registry lazily would fix most of it. Marked as a good first issue."),
    ],
)

pr(
    "first_pr",
    "03-07 20:45",
    NOOR,
    "[Bugfix] Honour `--served-model-name` in the /v1/models response",
    ["bug", "frontend", "ready"],
    "With `--served-model-name my-model`, `GET /v1/models` still listed the Hugging Face path, so OpenAI clients that validate the model name against the list failed. Now the served name is listed (and the HF path is kept as `root`).\n\nThis is my first contribution — happy to adjust anything!",
    [F("rapidinfer/entrypoints/openai/serving_models.py", 6, 2), F("tests/entrypoints/openai/test_models_endpoint.py", 24, 0, "added")],
    [
        ci_welcome("03-07 20:46"),
        C("03-09 09:50", RENE, "Welcome, and thanks for the fix! 🎉 Clean change with a test — exactly what we like to see."),
    ],
    [R("03-10 10:00", RENE, "APPROVED", "LGTM.")],
    merged="03-10 10:15",
    merged_by=RENE,
    branch="fix-served-model-name",
)

# Sun 2026-03-08 (window 03-08 09:00 ~ 03-09 09:00) is the quiet day: nothing opens, closes or
# merges; the only activity is one comment on the long-open hang issue (see hang_issue above).


# =============================================================================================
# Mon 2026-03-09  (window 03-09 09:00 ~ 03-10 09:00)
# =============================================================================================

pr(
    "rocm_superseded",
    "03-09 09:30",
    GFX,
    "[AMD] Add hipBLASLt tuned GEMM configs for MI325X",
    ["rocm", "performance"],
    body("Adds tuned hipBLASLt solutions for the GEMM shapes of Llama-3.1-70B and Qwen3-32B on MI325X (gfx942, 256 GB).", "`rapidinfer bench latency` before/after.", "Prefill −5% for Llama-3.1-70B at 4k tokens."),
    [F("rapidinfer/platforms/rocm_tuned/mi325x_hipblaslt.csv", 310, 0, "added"), F("rapidinfer/platforms/rocm.py", 11, 1)],
    [
        C("03-09 16:30", KAVYA, "Thanks @gfx-wizard! We have AITER GEMM tunings for the same shapes in flight; I'd like to ship both in one file format so the loader doesn't grow two paths. Mind if I fold your configs into a combined PR?"),
        C("03-09 18:02", GFX, "Sure, go ahead."),
        C("03-12 15:00", KAVYA, "Folded into {#rocm_merged_elsewhere} (your configs are in there with you as co-author). Closing this one."),
    ],
    closed="03-12 15:00",
)

pr(
    "xpu_fix",
    "03-09 10:10",
    IVAN,
    "[Hardware][Intel] Fix XPU import error after the scheduler refactor",
    ["bug", "ready"],
    "{#sched_refactor} moved `SchedulerOutput` to `rapidinfer.core.sched.output`; the XPU worker still imported it from the old location and failed at startup.",
    [F("rapidinfer/worker/xpu_worker.py", 2, 2)],
    [],
    [R("03-10 12:50", LIN, "APPROVED", "Sorry for the breakage, thanks.")],
    merged="03-10 13:00",
    merged_by=LIN,
)

issue(
    "rocm_perf_cn",
    "03-09 10:50",
    ZHOU,
    "[Performance][AMD]: MI300X 上 Qwen3-32B 的 decode 吞吐只有 H100 的 60%",
    ["performance", "rocm"],
    """### 环境
RapidInfer main（2026-03-08），ROCm 6.4.0，8× MI300X；对比机器 8× H100 SXM。模型 `Qwen/Qwen3-32B`，TP=2，BF16。

### 现象
`rapidinfer bench serve --dataset-name random --random-input-len 1024 --random-output-len 512 --max-concurrency 128`：

| 平台 | output tok/s | TPOT p50 |
|---|---|---|
| H100 ×2 | 4,870 | 24.1 ms |
| MI300X ×2 | 2,930 | 40.3 ms |

按算力和带宽 MI300X 不应该差这么多。日志显示已经在用 AITER paged attention。请问还有哪些参数需要调？""",
    [
        C("03-09 12:30", KAVYA, "Thanks for the numbers! Two things to try: (1) `RAPIDINFER_ROCM_USE_AITER_MOE=1` doesn't matter for a dense model, but `RAPIDINFER_ROCM_USE_AITER_LINEAR=1` does — the default hipBLASLt GEMMs aren't tuned for TP=2 shapes of Qwen3-32B; (2) please set `--cuda-graph-sizes` up to 128 explicitly, the capture on ROCm currently stops at 64 unless set. Could you re-run with both?"),
        C("03-10 09:40", ZHOU, "试了一下：\n\n- `RAPIDINFER_ROCM_USE_AITER_LINEAR=1`：2,930 → 3,610 tok/s\n- 再加 `--cuda-graph-sizes 1 2 4 8 16 32 64 128`：→ 4,020 tok/s\n\n现在是 H100 的 83%。English: with AITER linear and graph sizes up to 128 we're at 4,020 tok/s, 83% of H100."),
        C("03-10 11:20", KAVYA, "Great, that's in the expected range for TP=2. Tuned GEMM configs for these shapes are coming in a follow-up PR, and we should make the ROCm graph-size default consistent with CUDA. Keeping this open to track both."),
        C("03-12 13:30", KAVYA, "Opened {#rocm_merged_elsewhere} with tuned GEMMs for Qwen3-32B TP=2; I measured 4,310 tok/s on our node with it."),
        C("03-12 20:15", ZHOU, "用 {#rocm_merged_elsewhere} 的分支测到 4,280 tok/s，和你的结果一致 👍"),
    ],
    reactions={"+1": 6, "eyes": 3},
)

pr(
    "mm_video",
    "03-09 11:20",
    YUSUF,
    "[Model] Support Qwen3-VL video inputs with variable FPS",
    ["multimodal", "new-model"],
    body("Adds `video` inputs with per-request `fps` to Qwen3-VL, including timestamp tokens and the `max_frames` limit. Frames are sampled in the processor so the encoder cache keys stay stable across requests that share a video.", "`pytest tests/models/multimodal/test_qwen3_vl_video.py` against HF outputs for three clips.", "Matches HF for 2, 4 and 8 FPS."),
    [F("rapidinfer/model_executor/models/qwen3_vl.py", 148, 37), F("rapidinfer/multimodal/video.py", 96, 12), F("tests/models/multimodal/test_qwen3_vl_video.py", 131, 0, "added")],
    [ci_result("03-09 12:40", 1219, "50m 44s", "gpu-h100 (multimodal)")],
    [R("03-11 16:30", RENE, "COMMENTED", "Please add a test for a request that sets neither `fps` nor `max_frames` — what's the default?")],
    commits=4,
)

issue(
    "lora_reload",
    "03-09 13:30",
    KIMURA,
    "[Bug]: Prefix cache hit rate drops to 0 after a LoRA adapter is hot-reloaded",
    ["bug", "lora"],
    "After `POST /v1/load_lora_adapter` replaces an adapter with the same name, the prefix cache hit rate for *all* adapters (not just the reloaded one) goes to 0% and stays there until restart. Before the reload it's ~62%.",
    [
        C("03-09 15:00", MARTA, "The cache key includes the adapter's integer id, and a reload assigns a new id — but it shouldn't affect other adapters. Can you share `--lora-modules` and the reload request? I suspect the reload path calls `reset_prefix_cache()` globally."),
        C("03-09 16:20", KIMURA, "Yes, I see `Resetting prefix cache` in the log right after the reload. Request: `{\"lora_name\": \"tenantA/support\", \"lora_path\": \"/adapters/tenantA/support-v7\"}`."),
        C("03-10 10:05", MARTA, "Confirmed: `load_lora_adapter` resets the whole prefix cache. It only needs to drop blocks hashed with the old adapter id. I'll fix this after 0.9.1."),
    ],
)

pr(
    "deadlock",
    "03-09 14:50",
    JW,
    "[Bugfix] Fix a deadlock in AsyncLLM shutdown when a request is in flight",
    ["bug", "v1", "ready"],
    "`AsyncLLM.shutdown()` joined the output handler task while that task was awaiting a queue `get()` that nobody would fill. Cancel the handler before joining.",
    [F("rapidinfer/engine/async_llm.py", 9, 4), F("tests/engine/test_async_shutdown.py", 41, 0, "added")],
    [],
    [R("03-10 14:40", MARTA, "APPROVED", "")],
    merged="03-10 15:00",
    merged_by=MARTA,
)

pr(
    "pinned",
    "03-09 15:40",
    WU,
    "[Perf] Use pinned host buffers for sampled token ids",
    ["performance", "ready"],
    "The D2H copy of sampled token ids went to pageable memory, which makes it synchronous. Reuse a pinned buffer sized for `max_num_seqs` and copy with `non_blocking=True`.",
    [F("rapidinfer/worker/gpu_model_runner.py", 21, 7), F("rapidinfer/sample/sampler.py", 6, 2)],
    [ci_result("03-09 16:50", 1220, "47m 59s")],
    [
        R("03-10 18:30", HARUTO, "COMMENTED", "", [
            RC("This buffer is reused every step; what guarantees the previous step's copy finished before we overwrite it? An event per step would make it safe.", "rapidinfer/worker/gpu_model_runner.py", 1488,
               "@@ -1480,7 +1480,12 @@ class GPUModelRunner:\n-        sampled = sampled_token_ids.cpu()\n+        self._sampled_pinned[:n].copy_(sampled_token_ids, non_blocking=True)\n+        sampled = self._sampled_pinned[:n]", key="pin_event"),
        ]),
        R("03-11 10:15", WU, "COMMENTED", "", [RC("Added a `torch.cuda.Event` recorded after the copy and synchronised before the buffer is read.", reply_to="pin_event")]),
        R("03-11 14:50", HARUTO, "APPROVED", ""),
    ],
    merged="03-11 15:10",
    merged_by=HARUTO,
    commits=2,
)

issue(
    "flaky_issue",
    "03-09 17:00",
    CHIDI,
    "[CI] `test_chunked_prefill_accuracy` is flaky on the L4 runners (fails ~1 in 15)",
    ["ci/build", "flaky-test"],
    "Fails with a one-token mismatch at position 37–41 on `Qwen3-0.6B`. Seen 9 times in the last 140 runs, only on L4, both on main and on PRs.",
    [
        C("03-09 18:30", MARTA, "It's sampling with `temperature=0.8` and a per-process seed; when chunked prefill splits the prompt differently the RNG offsets differ. Needs a per-request seed."),
    ],
    closed="@deflake",
)

pr(
    "doc_preempt",
    "03-09 18:10",
    PM,
    "[Doc] Document `--preemption-mode` in the scheduling guide",
    ["documentation", "ready"],
    "Follow-up to {#preempt_pr}: describes `recompute` and `swap`, when each wins, and the related metrics.",
    [F("docs/serving/scheduling.md", 38, 2)],
    [],
    [R("03-10 09:20", LIN, "APPROVED", "")],
    merged="03-10 09:30",
    merged_by=LIN,
)

pr(
    "responses",
    "03-09 20:00",
    RENE,
    "[Frontend] Add an experimental /v1/responses endpoint",
    ["frontend"],
    "Draft. Implements the non-streaming subset of the Responses API (text input, `instructions`, `previous_response_id` stored in memory with a TTL). Streaming and tools come next.",
    [F("rapidinfer/entrypoints/openai/serving_responses.py", 318, 0, "added"), F("rapidinfer/entrypoints/openai/api_server.py", 14, 1), F("rapidinfer/entrypoints/openai/protocol.py", 96, 0)],
    [C("03-10 09:15", OLA, "Very interested in this for agent workloads. Will `previous_response_id` survive a restart, or only in memory?"), C("03-10 10:40", RENE, "Only in memory for now; a pluggable store is on the list.")],
    [],
    draft=True,
    commits=3,
)

pr(
    "tiny_fixture",
    "03-09 21:30",
    MARTA,
    "[Test] Speed up tests/engine by sharing a tiny model fixture",
    ["ready"],
    "`tests/engine` loaded `Qwen3-0.6B` 31 times. A session-scoped fixture with a 2-layer random-weight model cuts the directory from 9m40s to 2m05s on L4.",
    [F("tests/engine/conftest.py", 52, 3), F("tests/engine/test_async_llm.py", 14, 22), F("tests/engine/test_llm_generate.py", 9, 17)],
    [],
    [R("03-11 15:40", CHIDI, "APPROVED", "🙏")],
    merged="03-11 16:00",
    merged_by=CHIDI,
    commits=2,
)


# =============================================================================================
# Tue 2026-03-10  (window 03-10 09:00 ~ 03-11 09:00) — release prep; the heated issue closes
# =============================================================================================

pr(
    "dep_pyasync_new",
    "03-10 09:04",
    DEPENDABOT,
    "Bump pytest-asyncio from 0.25.3 to 0.26.1 in /requirements",
    ["dependencies", "python"],
    dependabot_body("pytest-asyncio", "https://github.com/pytest-dev/pytest-asyncio", "0.25.3", "0.26.1", "<ul>\n<li>Fixes <code>ScopeMismatch</code> for session-scoped loops used from function-scoped fixtures</li>\n</ul>"),
    [F("requirements/test.txt", 1, 1)],
    [ci_result("03-10 10:01", 1231, "45m 12s")],
    [R("03-12 09:30", CHIDI, "APPROVED", "")],
    merged="03-12 09:40",
    merged_by=CHIDI,
    branch="dependabot/pip/requirements/pytest-asyncio-0.26.1",
)

pr(
    "rocm_bump",
    "03-10 10:00",
    KAVYA,
    "[ROCm] Bump the ROCm base image to 6.4.1 and AITER to 0.1.5",
    ["rocm", "ci/build", "ready"],
    body("ROCm 6.4.1 fixes the hipBLASLt workspace race behind the flaky `test_fp8_gemm`; AITER 0.1.5 adds the MI325X MoE tunings and fixes a NaN in the fused MoE kernel when all tokens of a block go to one expert.", "Full MI300X nightly on the new image.", "All green, `test_fp8_gemm` passed 50/50 reruns (was ~46/50)."),
    [F("requirements/rocm.txt", 3, 3), F("docker/Dockerfile.rocm", 6, 6), F(".buildkite/rocm-nightly.yaml", 1, 1)],
    [ci_result("03-10 11:30", 1232, "58m 40s")],
    [R("03-12 10:40", CHIDI, "APPROVED", "")],
    merged="03-12 11:00",
    merged_by=CHIDI,
    commits=2,
)

issue(
    "kimi_issue",
    "03-10 11:00",
    OLA,
    "[Bug]: Kimi-K2 tool calls return `arguments` as an object instead of a JSON string",
    ["bug", "tool-calling"],
    """With `--tool-call-parser kimi_k2`, the `arguments` field of a tool call is a JSON object:

```json
"tool_calls": [{"id": "functions.get_weather:0", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Zürich"}}}]
```

The OpenAI spec (and every SDK) expects a string: `"arguments": "{\\"city\\": \\"Zürich\\"}"`. The Python SDK raises a validation error.""",
    [
        C("03-10 13:45", RENE, "Confirmed, the Kimi parser forgets to `json.dumps` the arguments when the model emits them in the structured section. Also need to keep `ensure_ascii=False` so `Zürich` survives."),
        C("03-10 14:10", OLA, "Thanks! Happy to test a fix."),
    ],
)

pr(
    "html_pr",
    "03-10 11:30",
    ELENA,
    "[Frontend] Escape <script>alert(1)</script> in **chat template** [docs](http://evil.example) @everyone #1",
    ["frontend", "security"],
    """The chat-template preview in the `/playground` page renders the template output with `innerHTML`, so a template, a tool name or a message containing markup runs in the operator's browser. Reproducer: register a tool named `<img src=x onerror=alert(1)>` and open the preview.

<img src=x onerror=alert(1)>

This PR:
- escapes the preview with `markupsafe.escape` before it reaches the page,
- adds a `Content-Security-Policy: default-src 'self'` header on the playground routes,
- adds `tests/entrypoints/test_playground_escaping.py` with 14 payloads (`<script>`, `javascript:` links, `**bold**`, `[text](http://evil.example)`, `@everyone`, `#1`).

The title deliberately contains some of the test payloads so the PR is easy to find when someone searches for them.""",
    [
        F("rapidinfer/entrypoints/playground/static/preview.js", 9, 4),
        F("rapidinfer/entrypoints/playground/routes.py", 17, 2),
        F("tests/entrypoints/test_playground_escaping.py", 96, 0, "added"),
    ],
    [
        C("03-10 14:05", RENE, "Thanks for catching this! Please don't put live payloads in PR titles next time though — our chat integration rendered this one 🙃 Could you also cover `/docs/redirect`? It has the same `innerHTML` pattern."),
        C("03-10 16:20", ELENA, "Sorry about the chat integration! Covered `/docs/redirect` too. Results:\n\n| payload | before | after |\n|---|---|---|\n| `<script>alert(1)</script>` | executed | shown as text |\n| `<img src=x onerror=alert(1)>` | executed | shown as text |\n| `[docs](javascript:alert(1))` | clickable | shown as text |\n\nOne remaining case I'm unsure about:\n\n```html\n<svg><animate onbegin=alert(1) attributeName=x dur=1s>"),
        C("03-11 10:05", RENE, "@elena-mtz the CSP blocks that one even if escaping missed it; please add it to the test list anyway. cc @lin-qiao for a second look since this touches security headers."),
    ],
    [
        R("03-10 15:00", RENE, "CHANGES_REQUESTED", "", [
            RC("`textContent` would be simpler and safer than escaping and then assigning `innerHTML`.", "rapidinfer/entrypoints/playground/static/preview.js", 22,
               "@@ -18,7 +18,8 @@ function renderPreview(text) {\n-  preview.innerHTML = text;\n+  preview.innerHTML = escapeHtml(text);", key="textcontent"),
        ]),
        R("03-10 16:25", ELENA, "COMMENTED", "", [RC("Switched to `textContent`; kept `escapeHtml` only for the title attribute.", reply_to="textcontent")]),
    ],
    reactions={"+1": 3, "eyes": 1},
    commits=3,
    branch="playground-escape",
)

pr(
    "deflake",
    "03-10 13:40",
    CHIDI,
    "[CI] Deflake `test_chunked_prefill_accuracy` with per-request seeds",
    ["ci/build", "ready"],
    "Fixes {#flaky_issue}: sample with `SamplingParams(seed=…)` per request so RNG offsets don't depend on how chunked prefill splits the batch.",
    [F("tests/v1/test_chunked_prefill_accuracy.py", 7, 3)],
    [C("03-10 21:00", CHIDI, "200 reruns on L4 overnight: 200/200 passed.")],
    [R("03-11 11:10", MARTA, "APPROVED", "")],
    merged="03-11 11:30",
    merged_by=MARTA,
    closes=["flaky_issue"],
)

pr(
    "clamp",
    "03-10 14:20",
    PM,
    "[Bugfix] Clamp `max_tokens` to the remaining context instead of rejecting the request",
    ["frontend"],
    body("When `prompt_tokens + max_tokens > max_model_len` we return a 400. Other servers clamp `max_tokens` to what's left; several client libraries send `max_tokens=4096` by default and break on long prompts. This clamps and adds a `warning` field in the response.", "New tests in `tests/entrypoints/openai/test_max_tokens.py`.", "Long-prompt requests now succeed with a clamped length."),
    [F("rapidinfer/entrypoints/openai/serving_engine.py", 19, 8), F("tests/entrypoints/openai/test_max_tokens.py", 44, 0, "added")],
    [
        C("03-11 09:20", OLA, "+1, LangChain's default `max_tokens` hits this constantly."),
        C("03-11 11:05", PM, "@lin-qiao what about making it opt-in with `--clamp-max-tokens`? That keeps the current behaviour for people who rely on the 400."),
    ],
    [R("03-10 19:10", LIN, "CHANGES_REQUESTED", "I'm not comfortable silently changing what the user asked for. A client that asks for 4096 tokens and gets 300 may not notice. If we do this, it must be opt-in and visible in the response.")],
    commits=2,
)

pr(
    "releasing_pr",
    "03-10 16:30",
    CHIDI,
    "[Doc] RELEASING.md: default changes need a deprecation cycle",
    ["documentation", "ready"],
    "After {#heated}: adds a release checklist item — any change to a default that affects memory, scheduling or the API gets a warning for one release before it flips, and a line under *Default changes* at the top of the release notes.",
    [F("RELEASING.md", 16, 1)],
    [],
    [R("03-11 09:45", LIN, "APPROVED", "Agreed, and sorry again to everyone affected.")],
    merged="03-11 10:00",
    merged_by=LIN,
)

pr(
    "bump_version",
    "03-10 17:00",
    CHIDI,
    "[Misc] Bump version to 0.9.1rc1",
    ["release"],
    "Release candidate for 0.9.1 with `gpu_memory_utilization=auto`, the capture-size cap, the AWQ and FP8 KV cache fixes and the RMSNorm fusion revert.",
    [F("rapidinfer/version.py", 1, 1)],
    [],
    [R("03-10 17:45", LIN, "APPROVED", "")],
    merged="03-10 18:00",
    merged_by=LIN,
)

issue(
    "deploy_doc_issue",
    "03-10 17:10",
    DAN,
    "[Doc]: The k8s deployment guide still recommends gpu_memory_utilization=0.95 for shared GPUs",
    ["documentation"],
    "`docs/deployment/k8s.md` says \"set `--gpu-memory-utilization 0.95` for best throughput\" right below the section on GPU time-slicing. With `auto` landing in 0.9.1, the guide should say to leave it on `auto` when GPUs are shared.",
    [C("03-11 13:05", ELENA, "I'll update it together with the troubleshooting page.")],
    closed="@k8s_doc",
)

pr(
    "flashinfer",
    "03-10 18:30",
    HARUTO,
    "[Perf] Enable FlashInfer top-k/top-p sampling by default on Hopper",
    ["performance", "sampling"],
    body("FlashInfer's rejection-based top-k/top-p sampler avoids the full sort. Enable it by default on SM90 when FlashInfer is installed; fall back to the PyTorch path otherwise.", "`pytest tests/samplers`; `bench serve` with top_p=0.9 at batch 256.", "Sampling time −71%, ITL p50 −1.1 ms on H100."),
    [F("rapidinfer/sample/ops/topk_topp.py", 28, 6), F("rapidinfer/envs.py", 4, 1)],
    [C("03-11 16:40", WU, "Note that FlashInfer's sampler is non-deterministic across batch compositions even with a seed; we should document that or keep it off when `seed` is set.")],
    [R("03-12 10:00", LIN, "COMMENTED", "Agree with @wu-kernels: keep the PyTorch path whenever any request in the batch sets `seed`.")],
    commits=2,
)

issue(
    "lora_metrics_cn",
    "03-10 21:00",
    ZYH,
    "[Feature]: 希望在 /metrics 中按 LoRA adapter 统计 prompt/generation token 数",
    ["feature request", "lora", "observability"],
    "我们按 adapter 给客户计费，目前只能从 access log 里自己统计 token 数。希望 `rapidinfer:prompt_tokens_total` 和 `rapidinfer:generation_tokens_total` 增加 `lora_name` 标签（可以用参数控制，避免 adapter 很多时标签基数过大）。",
    [
        C("03-11 10:30", JO, "+1 from the observability side; a flag like `--lora-metrics-labels` with a cap on distinct adapters would keep the cardinality sane."),
    ],
)


# =============================================================================================
# Wed 2026-03-11  (window 03-11 09:00 ~ 03-12 09:00)
# =============================================================================================

issue(
    "mixtral_regr",
    "03-11 10:30",
    PERF,
    "[Performance]: ~18% decode throughput regression on Mixtral-8x7B between v0.8.4 and v0.9.0",
    ["performance"],
    """Same hardware (8× A100 80G), same command, only the version changed:

```
rapidinfer bench serve --model mistralai/Mixtral-8x7B-Instruct-v0.1 -tp 8 --dataset-name random --random-input-len 512 --random-output-len 256 --max-concurrency 64
```

| version | output tok/s | TPOT p50 |
|---|---|---|
| 0.8.4 | 3,402 | 17.9 ms |
| 0.9.0 | 2,781 | 21.8 ms |

Setting `--gpu-memory-utilization 0.9` and `--max-num-seqs 256` (the old defaults) doesn't change it, so it's not the memory default. Profiles attached: [nsys_084.qdrep](https://example.invalid/nsys_084.qdrep), [nsys_090.qdrep](https://example.invalid/nsys_090.qdrep). The fused MoE kernel takes 31% longer in 0.9.0.""",
    [
        C("03-11 15:20", BUDGET, "Seeing something similar on 4× RTX 6000 Ada with Mixtral-8x7B-AWQ, about −12%."),
        C("03-12 09:45", PERF, "Bisected between the two tags: the slowdown starts with the commit that switched the default MoE config lookup to the new tuning-file format. With the 0.8.4 `E=8,N=14336,device_name=NVIDIA_A100-SXM4-80GB.json` copied back in, throughput is back to 3,390 tok/s."),
    ],
    reactions={"+1": 5, "eyes": 3},
)

pr(
    "reland_pr",
    "03-11 11:00",
    HARUTO,
    "[Perf] Reland fused RMSNorm + FP8 quantization with static-scale support",
    ["performance", "quantization"],
    body(
        "Relands {#rmsnorm_pr} (reverted in {#revert_pr} for {#garbage_issue}). The kernel now takes the activation scale as an argument instead of reading it from the residual path, so static and dynamic scales both work, and the test matrix covers Llama-3.1-8B-FP8 (static) and 70B-FP8 (dynamic) end to end.",
        "Kernel tests plus greedy-output equality against the unfused path for 4 FP8 checkpoints.",
        "Identical greedy outputs on all 4; same speed-up as the original (+4.7% decode tok/s on 70B).",
    ),
    [
        F("csrc/layernorm_quant_kernels.cu", 231, 0, "added"),
        F("csrc/ops.h", 6, 0),
        F("csrc/torch_bindings.cpp", 9, 0),
        F("rapidinfer/model_executor/layers/layernorm.py", 52, 12),
        F("rapidinfer/compilation/fusion.py", 68, 3),
        F("tests/kernels/test_fused_rmsnorm_quant.py", 171, 0, "added"),
        F("tests/models/quantization/test_fp8_e2e.py", 58, 0, "added"),
    ],
    [
        C("03-11 12:30", QFAN, "Tested this branch with the Llama-3.1-8B FP8 checkpoint from {#garbage_issue}: outputs are correct now."),
        ci_result("03-11 12:40", 1262, "50m 02s"),
    ],
    [
        R("03-12 15:20", MARTA, "CHANGES_REQUESTED", "Much better test coverage. One blocker.", [
            RC("The fusion pass now matches `rms_norm` followed by *any* `scaled_fp8_quant`, including per-token dynamic quant, which this kernel doesn't implement. Please restrict the pattern to per-tensor scales.", "rapidinfer/compilation/fusion.py", 144,
               "@@ -131,6 +131,21 @@ class RMSNormQuantFusionPass(InductorPass):\n+    def _match(self, node: fx.Node) -> bool:\n+        return node.target in (ops.rms_norm, ops.fused_add_rms_norm) and any(\n+            u.target == ops.scaled_fp8_quant for u in node.users)"),
        ]),
    ],
    commits=5,
    branch="haruto-s/fused-rmsnorm-fp8-v2",
)

pr(
    "k8s_doc",
    "03-11 13:00",
    ELENA,
    "[Doc] Update the k8s guide and troubleshooting page for `gpu_memory_utilization=auto`",
    ["documentation", "ready"],
    "Fixes {#deploy_doc_issue}. Also fixes tidings-demo/rapidinfer-website#88 (the website copy of the guide).\n\nShared GPUs: leave the default `auto`. Dedicated GPUs: `auto` resolves to 0.95. Fixed sizing: `--kv-cache-memory-bytes`.",
    [F("docs/deployment/k8s.md", 29, 11), F("docs/serving/troubleshooting.md", 14, 6), F("docs/serving/memory.md", 8, 3)],
    [],
    [R("03-12 13:40", MARTA, "APPROVED", "Accurate, thank you!")],
    merged="03-12 14:00",
    merged_by=MARTA,
    closes=["deploy_doc_issue", "tidings-demo/rapidinfer-website#88"],
)

issue(
    "aiter_moe_nan",
    "03-11 14:00",
    EP,
    "[Bug]: NaNs from AITER fused MoE with expert parallel size 8",
    ["bug"],
    "Qwen3-235B-A22B with `--enable-expert-parallel` (EP=8) on MI300X produces NaN logits after a few hundred requests. The AITER fused MoE path is on by default. Without expert parallelism, or with `RAPIDINFER_ROCM_USE_AITER_MOE=0`, everything is fine. It only happens with CUDA graphs enabled (`--enforce-eager` fixes it).",
    [
        C("03-11 16:05", KAVYA, "Thanks for the clear reproducer. With EP the per-rank token count can be 0 for an expert, and the captured graph replays a zero-sized workspace from the capture batch. Fix coming shortly."),
    ],
    closed="@hip_graph_aiter",
)

pr(
    "mm_limit",
    "03-11 15:30",
    YUSUF,
    "[Core] Reject prompts longer than max_model_len before running the image processor",
    ["multimodal", "v1"],
    "A 200-image request with a 32k context limit ran the vision processor for 40 s before being rejected for length. Estimate placeholder tokens from image sizes first and reject early.",
    [F("rapidinfer/multimodal/processing.py", 33, 4), F("rapidinfer/engine/input_processor.py", 12, 2), F("tests/multimodal/test_early_length_check.py", 58, 0, "added")],
    [],
    [],
)

pr(
    "reasoning",
    "03-11 18:00",
    RENE,
    "[Frontend] Stream `reasoning_content` separately for Qwen3 thinking mode",
    ["frontend", "ready"],
    "With `--reasoning-parser qwen3`, streamed chunks now carry `delta.reasoning_content` until `</think>` and `delta.content` afterwards, matching the non-streaming response.",
    [F("rapidinfer/reasoning/qwen3_reasoning_parser.py", 41, 12), F("rapidinfer/entrypoints/openai/serving_chat.py", 18, 5), F("tests/reasoning/test_qwen3_streaming.py", 77, 0, "added")],
    [C("03-12 08:40", CXM, "流式下终于能把思考过程和回答分开显示了，赞 👍")],
    [R("03-12 15:50", PM, "APPROVED", "")],
    merged="03-12 16:10",
    merged_by=RENE,
)

issue(
    "libnuma",
    "03-11 19:20",
    CARL,
    "[Bug]: Docker image 0.9.1rc1 is missing libnuma, CPU backend fails to start",
    ["bug", "installation"],
    "`docker run rapidinfer/rapidinfer:0.9.1rc1-cpu` → `OSError: libnuma.so.1: cannot open shared object file`. The 0.9.0 CPU image works.",
    [
        C("03-12 09:50", CHIDI, "The slimmed base image dropped `libnuma1`. Fixed in the Dockerfile and the `0.9.1rc2-cpu` image has it."),
        C("03-12 10:00", CHIDI, "Closing, please reopen if rc2 still fails."),
    ],
    closed="03-12 10:00",
)

pr(
    "hip_graph_aiter",
    "03-11 21:00",
    KAVYA,
    "[ROCm] Fix hipGraph capture of AITER fused MoE under expert parallelism",
    ["rocm", "bug", "ready"],
    body("Fixes {#aiter_moe_nan}. With EP, an expert can receive zero tokens on a rank; the AITER MoE workspace was sized from the capture batch and a zero-sized slice was baked into the hipGraph. Workspaces are now allocated for `max_num_batched_tokens` before capture and sliced at replay.", "Qwen3-235B-A22B, EP=8, 5,000 requests on MI300X with graphs on.", "No NaNs (was NaN after ~300 requests)."),
    [F("rapidinfer/model_executor/layers/fused_moe/rocm_aiter_fused_moe.py", 37, 14), F("rapidinfer/platforms/rocm.py", 4, 1), F("tests/rocm/test_aiter_moe_ep.py", 66, 0, "added")],
    [C("03-12 18:30", EP, "Ran 8,000 requests on the branch, no NaNs. Thanks!")],
    [R("03-13 11:00", HARUTO, "APPROVED", "")],
    merged="03-13 11:20",
    merged_by=HARUTO,
    closes=["aiter_moe_nan"],
    commits=2,
)


# =============================================================================================
# Thu 2026-03-12  (window 03-12 09:00 ~ 03-13 09:00)
# =============================================================================================

pr(
    "hash_pr",
    "03-12 10:10",
    JW,
    "[Core][Distributed] Make prefix-cache eviction order deterministic across ranks",
    ["distributed", "v1", "ready"],
    body("Fixes {#hang_issue}. `BlockPool.evict_candidates()` iterated over a `set[str]`, whose order depends on the per-process hash seed, so TP ranks evicted different blocks and eventually scheduled different prefills (→ NCCL hang). Use an insertion-ordered dict instead.", "New test builds two block pools under different `PYTHONHASHSEED`s (subprocesses) and compares eviction sequences over 10k random operations.", "Identical sequences; the 2×8 multi-node repro ran 48 h without `PYTHONHASHSEED`."),
    [F("rapidinfer/core/block_pool.py", 14, 9), F("tests/core/test_eviction_determinism.py", 84, 0, "added")],
    [C("03-12 14:30", MO, "Running this on our cluster without PYTHONHASHSEED now, will report back in two days.")],
    [R("03-12 16:45", HARUTO, "APPROVED", "Lovely test. Let's merge after @multinode-mo's soak run.")],
    closes=["hang_issue"],
    commits=2,
)

pr(
    "fp8_ci",
    "03-12 10:20",
    CHIDI,
    "[CI] Nightly end-to-end accuracy check for FP8 checkpoints",
    ["ci/build", "quantization"],
    "Adds a nightly GSM8K (250 questions) run for four FP8 checkpoints with thresholds, so an issue like {#garbage_issue} is caught the night it lands instead of by users.",
    [F(".buildkite/nightly-accuracy.yaml", 58, 0, "added"), F("tests/accuracy/fp8_thresholds.yaml", 21, 0, "added")],
    [],
    [],
)

pr(
    "amp",
    "03-12 10:50",
    LINT,
    "[Misc] Replace deprecated `torch.cuda.amp` calls",
    ["ready"],
    "`torch.cuda.amp.autocast(...)` → `torch.autocast(\"cuda\", ...)`; silences 14 deprecation warnings in the test log.",
    [F("rapidinfer/model_executor/models/whisper.py", 2, 2), F("rapidinfer/lora/layers.py", 2, 2), F("tests/conftest.py", 1, 1)],
    [],
    [R("03-12 17:40", CHIDI, "APPROVED", "")],
    merged="03-12 18:00",
    merged_by=CHIDI,
)

issue(
    "ttft_cn",
    "03-12 11:30",
    LIUWEI,
    "[Bug]: 开启 --enable-chunked-prefill 后 Qwen3-235B 的首 token 延迟（TTFT）翻倍",
    ["performance"],
    """升级到 main（03-11）后，同样的压测配置下 TTFT p50 从 0.9 s 变成 1.9 s，吞吐基本不变。关闭 chunked prefill 后 TTFT 恢复正常。

配置：8× H200，TP=8，`--max-num-batched-tokens 8192`，输入 4k / 输出 512，并发 64。

怀疑和最近调度器拆分（prefill / decode 两个 pass）有关？""",
    [
        C("03-12 13:10", ZYH, "我这边 Qwen3-32B 也能复现，TTFT 大约 +60%。看起来新的 `_schedule_running()` 先把 budget 给了 running 请求里的 partial prefill，新请求要多等一轮。"),
        C("03-12 16:45", LIUWEI, "补充：`--max-num-batched-tokens 16384` 时差距缩小到 +20%，应该是 budget 分配顺序的问题。"),
    ],
    reactions={"+1": 3},
)

pr(
    "rocm_merged_elsewhere",
    "03-12 13:20",
    KAVYA,
    "[ROCm] Tuned hipBLASLt and AITER GEMM configs for MI325X and MI300X (gfx942)",
    ["rocm", "performance", "ready"],
    body(
        "Combines @gfx-wizard's hipBLASLt tunings from {#rocm_superseded} with AITER GEMM tunings for the same shapes in one CSV format and one loader. Covers Llama-3.1-8B/70B and Qwen3-8B/32B at TP 1/2/4/8 on MI300X and MI325X.",
        "`bench latency` and `bench serve` for every covered shape.",
        "Prefill −4 to −9%, decode +3 to +11% depending on shape. Qwen3-32B TP=2 on MI300X: 4,020 → 4,310 tok/s (see {#rocm_perf_cn}).",
        "Thanks to Zoë Lefèvre on the hardware vendor's performance team for the AITER tuning runs.\n\nCo-authored-by: gfx-wizard",
    ),
    [
        F("rapidinfer/platforms/rocm_tuned/gemm_configs.csv", 1184, 0, "added"),
        F("rapidinfer/platforms/rocm_tuned/loader.py", 88, 0, "added"),
        F("rapidinfer/platforms/rocm.py", 19, 4),
        F("tests/rocm/test_tuned_gemm_loader.py", 54, 0, "added"),
    ],
    [ci_result("03-12 14:40", 1270, "57m 51s")],
    [R("03-13 14:40", HARUTO, "APPROVED", "Loader looks good; numbers reproduced on the MI300X box.")],
    merged="03-13 15:00",
    merged_by=HARUTO,
    commits=3,
)

pr(
    "mm_leak",
    "03-12 16:00",
    YUSUF,
    "[Bugfix] Fix a memory leak in the multimodal processor cache when requests are aborted",
    ["bug", "multimodal"],
    "Aborted requests left their preprocessed images in `ProcessorCache._pending` forever; under client timeouts the API server grew ~2 GB/hour. Remove the entry on abort.",
    [F("rapidinfer/multimodal/cache.py", 12, 3), F("tests/multimodal/test_processor_cache.py", 35, 0)],
    [conflict("03-13 09:30", YUSUF)],
    [],
)

issue(
    "segv_issue",
    "03-12 20:10",
    MOB,
    "[Bug]: Segfault in the detokenizer when a stop string contains an emoji 🧨",
    ["bug"],
    """Server crashes (no Python traceback) when a request has `"stop": ["🧨"]` and the model emits that emoji split across two tokens:

```
Fatal Python error: Segmentation fault

Thread 0x00007f3a (most recent call first):
  File "rapidinfer/engine/detokenizer.py", line 214 in _check_stop_strings
  File "rapidinfer/engine/output_processor.py", line 402 in process_outputs
```

Model: `Qwen/Qwen3-8B`, tokenizer with byte-fallback. ASCII stop strings work fine.""",
    [
        C("03-13 08:55", KIMURA, "Can reproduce with `\"stop\": [\"✅\"]` on Llama-3.1-8B too; looks like the incremental detokenizer's Rust fast path indexes into a partial UTF-8 sequence."),
    ],
)

pr(
    "determ",
    "03-12 21:30",
    LIN,
    "[Core] Deterministic scheduling mode for reproducible benchmarks",
    ["v1"],
    "Draft of `--deterministic-scheduling`: fixed arrival ordering, no time-based chunking decisions, seeded preemption victim selection. Meant for benchmarking and bisecting, not production.",
    [F("rapidinfer/core/scheduler.py", 47, 9), F("rapidinfer/config.py", 12, 0)],
    [],
    [],
    draft=True,
    commits=2,
)


# =============================================================================================
# Fri 2026-03-13  (window 03-13 09:00 ~ 03-14 09:00)
# =============================================================================================

pr(
    "amd_gfx950",
    "03-13 10:00",
    KAVYA,
    "[AMD] Detect gfx950 (MI355X) and gate the MXFP4 MoE path on it",
    ["rocm"],
    "Draft. MXFP4 MoE kernels exist only for gfx950; enabling them on gfx942 (MI300X) raises an illegal-instruction fault. Adds arch detection and a clear error when MXFP4 is requested on older GPUs.",
    [F("rapidinfer/platforms/rocm.py", 28, 3), F("csrc/rocm/mxfp4_moe.cu", 6, 1), F("tests/rocm/test_arch_gating.py", 41, 0, "added")],
    [],
    [],
    draft=True,
)

issue(
    "dtype_issue",
    "03-13 10:40",
    CARLA,
    "[Bug]: `--dtype bf16|fp16` style values are accepted and silently fall back to auto",
    ["bug"],
    "`rapidinfer serve … --dtype bf16` starts fine but loads the model in the checkpoint dtype (FP32 for some older checkpoints), doubling memory. Only `bfloat16`, `float16`, `half`, `float32` and `auto` are handled; anything else falls through to `auto` without a warning.",
    [],
)

pr(
    "rocm_nightly_325",
    "03-13 13:10",
    CHIDI,
    "[ROCm][CI] Run the ROCm nightly on the new 256 GB node as well",
    ["ci/build", "ready"],
    "Adds the second donated node (256 GB HBM3E) to `rocm-nightly` so the tuned configs for it are exercised every night.",
    [F(".buildkite/rocm-nightly.yaml", 18, 2)],
    [],
    [R("03-13 18:10", KAVYA, "APPROVED", "🙌")],
    merged="03-13 18:30",
    merged_by=KAVYA,
)

pr(
    "dtype_pr",
    "03-13 14:00",
    CARLA,
    "[Bugfix] Reject unknown `--dtype` values and accept bf16/fp16/fp32 aliases",
    ["bug"],
    "Fixes {#dtype_issue}. `--dtype` is now parsed with explicit choices plus the aliases `bf16`, `fp16`, `fp32`; anything else is an argparse error listing the valid values.",
    [F("rapidinfer/engine/arg_utils.py", 14, 3), F("tests/engine/test_dtype_arg.py", 33, 0, "added")],
    [ci_welcome("03-13 14:01")],
    [],
    closes=["dtype_issue"],
    branch="dtype-aliases",
)

pr(
    "dep_setup_python",
    "03-13 16:01",
    DEPENDABOT,
    "Bump actions/setup-python from 5 to 6",
    ["dependencies", "github_actions"],
    "Bumps [actions/setup-python](https://github.com/actions/setup-python) from 5 to 6.\n<details>\n<summary>Release notes</summary>\n<blockquote>\n<h2>v6.0.0</h2>\n<ul>\n<li>Node 24 runtime; <code>pip-version</code> input</li>\n</ul>\n</blockquote>\n</details>",
    [F(".github/workflows/docs.yml", 1, 1), F(".github/workflows/wheels.yml", 1, 1), F(".github/workflows/lint.yml", 1, 1)],
    [],
    [],
    branch="dependabot/github_actions/actions/setup-python-6",
)

issue(
    "radeon_wheels",
    "03-13 16:20",
    RADEON,
    "[Feature]: Publish ROCm wheels for the Radeon RX 7900 XTX",
    ["feature request", "rocm"],
    "Building from source for gfx1100 works (`PYTORCH_ROCM_ARCH=gfx1100`), takes 50 minutes, and Qwen3-8B runs at a respectable 61 tok/s. Could the release wheels include gfx1100 so hobbyists don't have to build? Happy to test.",
    [
        C("03-13 18:00", KAVYA, "We'd like to, but AITER doesn't support RDNA3, so the wheel would need to fall back to the Triton backend everywhere. Let me check the wheel size impact of adding the arch."),
        C("03-13 19:30", RADEON, "Triton-only would be fine for us. Merci beaucoup ! 🙂"),
    ],
    reactions={"+1": 9, "heart": 2},
)

pr(
    "chat_kwargs",
    "03-13 17:00",
    RENE,
    "[Frontend] Add a `--default-chat-template-kwargs` CLI flag",
    ["frontend"],
    "Lets operators set server-wide chat template kwargs (e.g. `{\"enable_thinking\": false}`) that requests can still override.",
    [F("rapidinfer/entrypoints/openai/cli_args.py", 9, 0), F("rapidinfer/entrypoints/openai/serving_chat.py", 7, 2), F("tests/entrypoints/openai/test_chat_template_kwargs.py", 38, 0, "added")],
    [],
    [],
)

pr(
    "cpu_offload",
    "03-13 19:45",
    JW,
    "[Bugfix] Fix CPU weight offload for models with tied embeddings",
    ["bug"],
    "With `--cpu-offload-gb`, models that tie `lm_head` to `embed_tokens` offloaded the shared tensor twice and failed on the second `pin_memory()`.",
    [F("rapidinfer/model_executor/model_loader/offload.py", 16, 5), F("tests/model_executor/test_cpu_offload.py", 27, 0)],
    [],
    [],
)

issue(
    "budget_issue",
    "03-13 22:00",
    BUDGET,
    "[Usage]: Can RapidInfer run Qwen3-32B-AWQ on 2× RTX 3090 with NVLink?",
    ["usage"],
    "2× 3090 (24 GB each) with an NVLink bridge. Qwen3-32B-AWQ should fit with TP=2 (~19 GB of weights total). What `--max-model-len` and `--gpu-memory-utilization` should I start with? Last time (see the OOM discussion) I used a model that was too big, so asking first this time 😅",
    [],
)


# fmt: on


# =============================================================================================
# From the story to records
# =============================================================================================

_STAMP = re.compile(r"^(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$")
_REF = re.compile(r"\{(#|n:)(\w+)\}")


def _digest(*parts: object) -> str:
    return hashlib.sha1(":".join(map(str, parts)).encode()).hexdigest()


def at(stamp: str, salt: str) -> datetime:
    """Shanghai wall time "MM-DD HH:MM[:SS]" as UTC; missing seconds come from the salt."""
    m = _STAMP.match(stamp)
    if not m:
        raise ValueError(f"bad time {stamp!r}")
    month, day, hour, minute = (int(g) for g in m.groups()[:4])
    second = int(m[5]) if m[5] else int(_digest(stamp, salt)[:8], 16) % 60
    return datetime(YEAR, month, day, hour, minute, second, tzinfo=CST).astimezone(UTC)


def _ids(base: int, salt: str, n: int) -> list[int]:
    """n increasing ids with irregular gaps, as GitHub's global sequences look from one repo."""
    out, current = [], base
    for i in range(n):
        current += 1 + int(_digest(salt, i)[:6], 16) % 4000
        out.append(current)
    return out


def _node(prefix: str, value: int) -> str:
    return prefix + _digest(prefix, value)[:16]


@dataclass
class _Event:
    """A comment, review or review comment with its resolved times, before ids are given."""

    item: Item
    when: datetime
    data: object
    extra: dict = field(default_factory=dict)


def _numbers() -> dict[str, int]:
    ordered = sorted(ITEMS, key=lambda it: at(it.at, it.key))
    numbers: dict[str, int] = {}
    nxt = FIRST_NUMBER
    last = 0
    for it in ordered:
        if it.key in numbers:
            raise ValueError(f"duplicate item key {it.key}")
        if it.number is not None:
            numbers[it.key] = it.number
        else:
            numbers[it.key] = nxt
            nxt += 1
        if numbers[it.key] <= last:
            raise ValueError(f"{it.key}: numbers must grow with creation time")
        last = numbers[it.key]
    return numbers


def build() -> list[r.Record]:
    """Every record of the sample, in the order `tidings export` writes them."""
    numbers = _numbers()
    by_key = {it.key: it for it in ITEMS}
    created = {it.key: at(it.at, it.key) for it in ITEMS}

    def text(value: str, when: datetime, where: str) -> str:
        def sub(m: re.Match[str]) -> str:
            key = m[2]
            if key not in numbers:
                raise KeyError(f"{where}: unknown reference {{{m[1]}{key}}}")
            if created[key] > when:
                raise ValueError(f"{where}: refers to {key}, which does not exist yet at {when}")
            return f"#{numbers[key]}" if m[1] == "#" else str(numbers[key])

        return _REF.sub(sub, value)

    merged_at = {it.key: at(it.merged, it.key + "/merged") for it in ITEMS if it.merged}

    def closed_at(it: Item) -> datetime | None:
        if it.closed is None:
            return None
        if it.closed.startswith("@"):
            return merged_at[it.closed[1:]] + timedelta(seconds=2)
        if it.merged:
            return merged_at[it.key]
        return at(it.closed, it.key + "/closed")

    comments: list[_Event] = []
    reviews: list[_Event] = []
    review_comments: list[_Event] = []
    for it in ITEMS:
        for i, c in enumerate(it.comments):
            comments.append(_Event(it, at(c.at, f"{it.key}/c{i}"), c))
        revs = list(it.reviews)
        if it.merged and not any(rv.state == "APPROVED" for rv in revs):
            raise ValueError(f"{it.key}: a merged PR needs an approving review")
        for j, rv in enumerate(revs):
            submitted = at(rv.at, f"{it.key}/r{j}")
            reviews.append(_Event(it, submitted, rv))
            for k, rc in enumerate(rv.comments):
                # Pending review comments are written before the review is submitted.
                when = submitted - timedelta(seconds=40 * (len(rv.comments) - k))
                review_comments.append(_Event(it, when, rc, {"review": rv}))

    for kind, events, base in (
        ("comment", comments, 4_012_000_000),
        ("review", reviews, 3_310_000_000),
        ("review_comment", review_comments, 2_905_000_000),
    ):
        events.sort(key=lambda e: (e.when, numbers[e.item.key]))
        for e, ident in zip(events, _ids(base, kind, len(events)), strict=True):
            e.extra["id"] = ident
    review_id = {id(e.data): e.extra["id"] for e in reviews}
    rc_by_key = {e.data.key: e for e in review_comments if e.data.key}  # type: ignore[attr-defined]

    out_items: list[r.ItemRecord] = []
    out_comments: list[r.CommentRecord] = []
    out_reviews: list[r.ReviewRecord] = []
    out_rcs: list[r.ReviewCommentRecord] = []
    out_files: list[r.PRFileRecord] = []
    out_refs: list[r.ClosingRefRecord] = []
    latest: dict[str, datetime] = {}

    def touch(it: Item, when: datetime) -> None:
        if when < created[it.key]:
            raise ValueError(f"{it.key}: activity at {when} before the item was created")
        latest[it.key] = max(latest.get(it.key, when), when)

    for e in comments:
        c: C = e.data  # type: ignore[assignment]
        n = numbers[e.item.key]
        kind_path = "pull" if e.item.kind == "pr" else "issues"
        updated = at(c.edited, f"{e.item.key}/edit") if c.edited else e.when
        touch(e.item, updated)
        user_type, assoc = PEOPLE[c.by]
        out_comments.append(
            r.CommentRecord(
                id=e.extra["id"],
                number=n,
                github_id=_node("IC_kwDOQdm", e.extra["id"]),
                author=c.by,
                author_type=user_type,
                author_association=assoc,
                body=text(c.body, e.when, f"{e.item.key} comment"),
                created_at=e.when,
                updated_at=updated,
                reactions=dict(c.reactions),
                url=f"{WEB}/{kind_path}/{n}#issuecomment-{e.extra['id']}",
            )
        )

    head_sha = {it.key: _digest(REPO, it.key, "head") for it in ITEMS if it.kind == "pr"}
    rc_count: dict[int, int] = {}
    for e in review_comments:
        rc: RC = e.data  # type: ignore[assignment]
        rv: R = e.extra["review"]
        n = numbers[e.item.key]
        parent = rc_by_key[rc.reply_to] if rc.reply_to else None
        source: RC = parent.data if parent else rc  # type: ignore[assignment]
        if not source.path or source.path not in {f.path for f in e.item.files}:
            raise ValueError(f"{e.item.key}: review comment on a path the PR does not change")
        rid = review_id[id(rv)]
        rc_count[rid] = rc_count.get(rid, 0) + 1
        touch(e.item, e.when)
        user_type, assoc = PEOPLE[rv.by]
        out_rcs.append(
            r.ReviewCommentRecord(
                id=e.extra["id"],
                number=n,
                review_id=rid,
                in_reply_to_id=parent.extra["id"] if parent else None,
                github_id=_node("PRRC_kwDOQdm", e.extra["id"]),
                author=rv.by,
                author_type=user_type,
                author_association=assoc,
                path=source.path,
                line=source.line,
                original_line=source.line,
                side="RIGHT",
                diff_hunk=source.hunk,
                body=text(rc.body, e.when, f"{e.item.key} review comment"),
                commit_sha=head_sha[e.item.key],
                created_at=e.when,
                updated_at=e.when,
                reactions=dict(rc.reactions),
                url=f"{WEB}/pull/{n}#discussion_r{e.extra['id']}",
            )
        )

    for e in reviews:
        rv = e.data  # type: ignore[assignment]
        n = numbers[e.item.key]
        touch(e.item, e.when)
        user_type, assoc = PEOPLE[rv.by]
        out_reviews.append(
            r.ReviewRecord(
                id=e.extra["id"],
                number=n,
                github_id=_node("PRR_kwDOQdm", e.extra["id"]),
                author=rv.by,
                author_type=user_type,
                author_association=assoc,
                state=rv.state,
                body=text(rv.body, e.when, f"{e.item.key} review"),
                submitted_at=e.when,
                commit_sha=head_sha[e.item.key],
                comments_count=rc_count.get(e.extra["id"], 0),
                url=f"{WEB}/pull/{n}#pullrequestreview-{e.extra['id']}",
            )
        )

    for it in ITEMS:
        n = numbers[it.key]
        made = created[it.key]
        closed = closed_at(it)
        merged = merged_at.get(it.key)
        for moment in (closed, merged):
            if moment is not None:
                touch(it, moment)
        touch(it, made)
        if closed and it.closed and it.closed.startswith("@"):
            closer = by_key[it.closed[1:]]
            if it.key not in closer.closes:
                raise ValueError(f"{it.key}: closed by {closer.key}, which does not close it")
        updated = latest[it.key]
        if updated > EXPORTED_AT:
            raise ValueError(f"{it.key}: activity after the snapshot's as-of time")
        user_type, assoc = PEOPLE[it.by]
        common = {
            "number": n,
            "kind": it.kind,
            "title": text(it.title, made, f"{it.key} title"),
            "body": text(it.body, made, f"{it.key} body") if it.body is not None else None,
            "author": it.by,
            "author_type": user_type,
            "author_association": assoc,
            "state": "closed" if closed else "open",
            "locked": it.locked,
            "labels": list(it.labels),
            "created_at": made,
            "updated_at": updated,
            "closed_at": closed,
            "reactions": dict(it.reactions),
            "comments_count": len(it.comments),
            "detail_updated_at": updated,
            "checked_updated_at": updated,
        }
        if it.kind == "issue":
            out_items.append(
                r.ItemRecord(
                    **common,
                    github_id=_node("I_kwDOQdm", n),
                    state_reason=it.reason,
                    url=f"{WEB}/issues/{n}",
                )
            )
            continue
        pr_reviews = [e for e in reviews if e.item is it]
        out_items.append(
            r.ItemRecord(
                **common,
                github_id=_node("PR_kwDOQdm", n),
                draft=it.draft,
                merged_at=merged,
                merged=merged is not None,
                merged_by=it.merged_by if merged else None,
                merge_commit_sha=_digest(REPO, it.key, "merge") if merged else None,
                additions=sum(f.add for f in it.files),
                deletions=sum(f.dele for f in it.files),
                changed_files=len(it.files),
                commits=it.commits,
                base_ref="main",
                head_ref=text(it.head_ref or "", made, f"{it.key} branch").replace("#", ""),
                head_sha=head_sha[it.key],
                review_decision=_decision(pr_reviews),
                review_comments_count=sum(rc_count.get(e.extra["id"], 0) for e in pr_reviews),
                url=f"{WEB}/pull/{n}",
            )
        )
        paths = [f.path for f in it.files]
        if len(set(paths)) != len(paths):
            raise ValueError(f"{it.key}: a file is listed twice")
        out_files += [
            r.PRFileRecord(
                number=n, path=f.path, status=f.status, additions=f.add, deletions=f.dele
            )
            for f in it.files
        ]
        for ref in it.closes:
            if "#" in ref:
                repo, _, num = ref.partition("#")
                out_refs.append(
                    r.ClosingRefRecord(number=n, issue_repo=repo, issue_number=int(num))
                )
            else:
                if by_key[ref].kind != "issue":
                    raise ValueError(f"{it.key}: closes {ref}, which is not an issue")
                out_refs.append(
                    r.ClosingRefRecord(number=n, issue_repo=REPO, issue_number=numbers[ref])
                )

    _check_quiet(out_items, out_comments, out_reviews, out_rcs)
    repo = r.RepositoryRecord(
        full_name=REPO,
        github_id="R_kgDOQdmRpI",
        url=WEB,
        description="RapidInfer: a fast, memory-efficient inference and serving engine for LLMs (fictional demo repository for tidings)",
        default_branch="main",
    )
    return [
        repo,
        *sorted(out_items, key=lambda x: x.number),
        *sorted(out_comments, key=lambda x: x.id),
        *sorted(out_reviews, key=lambda x: x.id),
        *sorted(out_rcs, key=lambda x: x.id),
        *sorted(out_files, key=lambda x: (x.number, x.path)),
        *sorted(out_refs, key=lambda x: (x.number, x.issue_repo, x.issue_number)),
    ]


def _decision(reviews: list[_Event]) -> str:
    """GitHub's reviewDecision from each reviewer's latest approving/blocking review."""
    last: dict[str, str] = {}
    for e in sorted(reviews, key=lambda e: e.when):
        rv: R = e.data  # type: ignore[assignment]
        if rv.state in ("APPROVED", "CHANGES_REQUESTED"):
            last[rv.by] = rv.state
    if "CHANGES_REQUESTED" in last.values():
        return "CHANGES_REQUESTED"
    if "APPROVED" in last.values():
        return "APPROVED"
    return "REVIEW_REQUIRED"


def _check_quiet(items, comments, reviews, review_comments) -> None:  # type: ignore[no-untyped-def]
    start, end = (moment.astimezone(UTC) for moment in QUIET)

    def inside(moment: datetime | None) -> bool:
        return moment is not None and start <= moment < end

    for item in items:
        if inside(item.created_at) or inside(item.closed_at) or inside(item.merged_at):
            raise ValueError(f"#{item.number} opens, closes or merges on the quiet day")
    activity = [c.created_at for c in comments] + [v.submitted_at for v in reviews]
    activity += [c.created_at for c in review_comments]
    if sum(inside(moment) for moment in activity) > 1:
        raise ValueError("the quiet day has more than one comment or review")


def render() -> str:
    """The snapshot file's text, byte for byte."""
    records = build()
    counts = dict.fromkeys(r.RECORD_TYPES, 0)
    for record in records:
        counts[record.type] += 1  # type: ignore[attr-defined]
    header = {
        "type": "header",
        "format": FORMAT,
        # The format `tidings export` writes: the demo has no review threads' state or PR
        # commits (it has no GraphQL details to come from), so they count zero.
        "version": VERSION,
        "tool": TOOL,
        "exported_at": EXPORTED_AT.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "repositories": [{"full_name": REPO, "records": counts}],
    }
    lines = [json.dumps(header, ensure_ascii=False, separators=(",", ":"))]
    lines += [record.model_dump_json() for record in records]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    content = render()
    if args == ["--check"]:
        current = SAMPLE.read_text(encoding="utf-8") if SAMPLE.exists() else ""
        if current != content:
            print(f"{SAMPLE} is stale: run python scripts/build_demo_sample.py", file=sys.stderr)
            return 1
        return 0
    if args:
        print("usage: python scripts/build_demo_sample.py [--check]", file=sys.stderr)
        return 2
    SAMPLE.write_text(content, encoding="utf-8")
    print(f"wrote {SAMPLE} ({content.count(chr(10)) - 1} records)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
