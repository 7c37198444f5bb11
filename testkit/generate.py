"""A seeded, synthetic, vLLM-scale week of one repository's records, for benchmarks and tests.

This is the one generator of synthetic repository data: the fake GitHub serves it, the sync,
store and terminal tests read it back, and the sync, LLM and weekly benchmarks measure on it
(`generate_weeks` strings weeks together for a store with history). Two other makers of data
are different things: tests/factories.py builds the handful of records a unit test names and
asserts on, and benchmarks/site.py invents finished report models (a years-long archive of
them, which building from records would take hours) to time the site alone.

`generate_week()` returns the records a complete sync of `bench/inference-engine` should end up
with for one busy week: about 700 pull requests (about 300 merged), 200 issues, 5,000 comments,
reviews and review comments, and 3,000 changed-file entries, with the long tails a real project
has (a few threads with 100+ comments, a few PRs touching 300+ files, a few with 100+ reviews),
bots, deleted ("ghost") accounts, labels, drafts and closing references.

Every count is consistent with the rows it counts (an item's `comments_count` is its comments, a
PR's `changed_files`/`additions`/`deletions` are the sums of its files, a review's
`comments_count` is its review comments), every time is ordered (children after their parent is
opened, `updated_at` after everything that touched the item), so a loopback GitHub serving these
records and a sync reading it back must reproduce them exactly.

The vocabulary (logins, titles, paths, labels) is made up here; nothing is copied from a real
project. The same seed and arguments always give the same records.
"""

from __future__ import annotations

import math
import random
import string
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Literal, Protocol

from tidings.common.records import (
    ClosingRefRecord,
    CommentRecord,
    ItemRecord,
    PRFileRecord,
    Record,
    RepositoryRecord,
    ReviewCommentRecord,
    ReviewRecord,
)

REPO = "bench/inference-engine"
OTHER_REPO = "bench/inference-ci"
HTML = f"https://github.com/{REPO}"
DEFAULT_START = datetime(2026, 2, 16, tzinfo=UTC)  # a Monday, 00:00 UTC
WEEK = timedelta(days=7)
# Where REST ids start: like a busy repository's in 2026, all but review comments above 2**31.
ID_BASES = {"comment": 2_690_000_000, "review": 2_610_000_000, "review_comment": 2_060_000_000}
INT32_ID_BASES = {
    "comment": 1_690_000_000,
    "review": 1_610_000_000,
    "review_comment": 1_060_000_000,
}

# -- vocabulary ---------------------------------------------------------------------------


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_FIRST = _split(
    "alex ana bo chen dmitri elena farid gao hana hiro ines jun kavya lei lina mika nour omar "
    "priya qiang rafael sora tomas uma viktor wei xin yuki zoe arjun bea carlos dana emre felix "
    "greta ivan jonas kai lucas maya nils olga pavel rui sven tara yusuf"
)
_LAST = _split(
    "zhang li wang patel kim nguyen garcia mueller rossi tanaka smith ivanov liu singh park sato "
    "khan lopez yang huang zhou wu xu sun ma hu guo lin he das reddy costa novak berg silva"
)

_BOT_AUTHOR = "dependabot[bot]"
_BOT_COMMENTERS = ("github-actions[bot]", "mergify[bot]", "ci-status[bot]")
_BOT_REVIEWER = "review-assistant[bot]"

_MODELS = _split(
    "llama qwen2 qwen3 qwen3_moe deepseek_v2 deepseek_v3 mixtral gemma2 gemma3 phi3 phi4 mistral "
    "glm4 internvl llava llava_next minicpm minicpmv granite granitemoe olmo olmo2 falcon "
    "baichuan chatglm bloom jamba mamba mamba2 starcoder2 commandr dbrx arctic exaone nemotron "
    "solar stablelm persimmon fuyu pixtral molmo idefics3 paligemma whisper bert roberta e5 "
    "gritlm jina_clip siglip qwen2_vl qwen2_5_vl aria ovis kimi_vl hunyuan ernie45 bailing"
)
_AREAS: dict[str, tuple[str, ...]] = {
    "engine/core": _split(
        "scheduler block_manager kv_cache_manager kv_cache_utils executor engine sampler "
        "outputs sequence request output_processor prefix_cache encoder_cache_manager "
        "sched_utils interface"
    ),
    "engine/entrypoints/openai": _split(
        "api_server serving_chat serving_completion serving_embedding serving_engine protocol "
        "cli_args run_batch logits_processors serving_models serving_tokenization"
    ),
    "engine/entrypoints/openai/tool_parsers": _split(
        "abstract_tool_parser hermes_tool_parser llama_tool_parser mistral_tool_parser "
        "pythonic_tool_parser granite_tool_parser jamba_tool_parser qwen3_tool_parser"
    ),
    "engine/entrypoints": _split("llm chat_utils logger utils launcher"),
    "engine/model_executor/layers": _split(
        "linear rotary_embedding layernorm activation logits_processor vocab_parallel_embedding "
        "sampler pooler resampler lightning_attn mamba_mixer"
    ),
    "engine/model_executor/layers/fused_moe": _split(
        "fused_moe layer config modular_kernel moe_align_block_size rocm_aiter_fused_moe "
        "deep_gemm_moe cutlass_moe topk_weight_and_reduce"
    ),
    "engine/model_executor/layers/quantization": _split(
        "fp8 awq awq_marlin gptq gptq_marlin compressed_tensors marlin bitsandbytes gguf "
        "modelopt quark torchao base_config kv_cache"
    ),
    "engine/model_executor/model_loader": _split(
        "loader weight_utils tensorizer sharded_state_loader utils"
    ),
    "engine/attention/backends": _split(
        "flash_attn flashinfer rocm_flash_attn rocm_aiter_mla triton_attn xformers "
        "torch_sdpa placeholder_attn pallas mla_common cpu_attn"
    ),
    "engine/attention/ops": _split(
        "paged_attn prefix_prefill triton_decode_attention merge_states"
    ),
    "engine/distributed": _split("parallel_state communication_op utils kv_events"),
    "engine/distributed/device_communicators": _split(
        "pynccl custom_all_reduce shm_broadcast quick_all_reduce cuda_communicator "
        "tpu_communicator all2all"
    ),
    "engine/distributed/kv_transfer": _split("kv_connector_base pipe lookup_buffer nixl_connector"),
    "engine/spec_decode": _split("eagle medusa ngram_proposer metrics utils"),
    "engine/platforms": _split("cuda rocm tpu cpu xpu hpu neuron interface"),
    "engine/multimodal": _split("inputs parse processing registry image video audio utils"),
    "engine/compilation": _split("backends compiler_interface fusion pass_manager decorators"),
    "engine/worker": _split("gpu_worker gpu_model_runner tpu_model_runner cpu_worker worker_base"),
    "engine/transformers_utils": _split("config tokenizer detokenizer processor"),
    "engine/v1/structured_output": _split("backend_xgrammar backend_guidance request utils"),
    "engine/lora": _split("layers models punica_wrapper request worker_manager"),
}
_KERNEL_FILES = {
    "kernels/cuda": _split(
        "cache_kernels.cu activation_kernels.cu layernorm_kernels.cu pos_encoding_kernels.cu "
        "attention/paged_attention_v1.cu attention/paged_attention_v2.cu attention/merge_attn.cu "
        "moe/topk_softmax_kernels.cu moe/moe_align_sum_kernels.cu moe/grouped_topk.cu "
        "quantization/fp8/common.cu quantization/gptq/q_gemm.cu quantization/awq/gemm_kernels.cu "
        "quantization/marlin/marlin.cu cutlass_w8a8/scaled_mm.cu sampler.cu custom_all_reduce.cu "
        "torch_bindings.cpp ops.h"
    ),
    "kernels/rocm": _split(
        "attention.cu skinny_gemms.cu custom_kernels.cu torch_bindings.cpp ops.h "
        "fused_moe_aiter.py paged_attention_rocm.py gemm_tuning.py"
    ),
    "kernels/triton": _split(
        "flash_attention.py decode_attention.py fused_moe.py rms_norm.py rotary.py "
        "scaled_mm.py chunked_prefill.py"
    ),
    "kernels/cpu": _split(
        "attention.cpp cache.cpp layernorm.cpp activation.cpp torch_bindings.cpp"
    ),
}
_OTHER_FILES = _split(
    "docs/models/supported_models.md docs/getting_started/installation/gpu.md "
    "docs/getting_started/installation/rocm.md docs/getting_started/installation/tpu.md "
    "docs/getting_started/installation/cpu.md docs/features/quantization/fp8.md "
    "docs/features/spec_decode.md docs/features/structured_outputs.md "
    "docs/serving/openai_compatible_server.md docs/serving/distributed_serving.md "
    "docs/design/scheduler.md docs/contributing/overview.md docs/usage/troubleshooting.md "
    ".github/workflows/lint.yml .github/workflows/pre-commit.yml .github/workflows/publish.yml "
    ".github/workflows/docker.yml .github/CODEOWNERS .buildkite/test-pipeline.yaml "
    ".buildkite/run-rocm-test.sh requirements/common.txt requirements/cuda.txt "
    "requirements/rocm.txt requirements/tpu.txt requirements/test.txt requirements/build.txt "
    "requirements/docs.txt docker/Dockerfile docker/Dockerfile.rocm docker/Dockerfile.tpu "
    "docker/Dockerfile.cpu benchmarks/benchmark_serving.py benchmarks/benchmark_throughput.py "
    "benchmarks/benchmark_latency.py benchmarks/kernels/benchmark_moe.py "
    "benchmarks/kernels/benchmark_paged_attention.py examples/offline_inference/basic.py "
    "examples/offline_inference/vision_language.py examples/offline_inference/spec_decode.py "
    "examples/online_serving/openai_chat_client.py examples/online_serving/disaggregated.py "
    "setup.py pyproject.toml CMakeLists.txt README.md engine/envs.py engine/config.py "
    "engine/utils.py engine/sampling_params.py engine/outputs.py engine/logger.py"
)
_DEVICES = _split(
    "NVIDIA_H100_80GB_HBM3 NVIDIA_H200 NVIDIA_B200 NVIDIA_A100-SXM4-80GB NVIDIA_L40S "
    "AMD_Instinct_MI300X AMD_Instinct_MI325X AMD_Instinct_MI355X"
)

_PR_TAGS: tuple[tuple[str, float, tuple[str, ...], tuple[str, ...]], ...] = (
    # (title tag, weight, labels it usually carries, path areas it usually touches)
    ("[Bugfix]", 16, ("bug",), ("engine/core", "engine/entrypoints/openai", "engine/worker")),
    ("[Kernel]", 8, ("kernel",), ("kernels/cuda", "kernels/triton", "engine/attention/ops")),
    ("[Core]", 7, ("core",), ("engine/core", "engine/worker", "engine/compilation")),
    ("[V1]", 7, ("v1",), ("engine/core", "engine/v1/structured_output", "engine/worker")),
    ("[Model]", 9, ("new-model",), ("models",)),
    ("[Doc]", 6, ("documentation",), ("docs",)),
    ("[CI/Build]", 6, ("ci/build",), (".github", "requirements", "docker")),
    ("[Misc]", 7, (), ("engine/transformers_utils", "engine/entrypoints")),
    ("[Frontend]", 6, ("frontend",), ("engine/entrypoints/openai", "engine/entrypoints")),
    ("[ROCm]", 6, ("rocm",), ("kernels/rocm", "engine/platforms", "engine/attention/backends")),
    ("[Hardware][TPU]", 3, ("tpu",), ("engine/platforms", "engine/attention/backends")),
    (
        "[Perf]",
        5,
        ("performance",),
        ("engine/core", "kernels/cuda", "engine/model_executor/layers"),
    ),
    ("[Spec Decode]", 4, ("speculative-decoding",), ("engine/spec_decode",)),
    ("[Quantization]", 5, ("quantization",), ("engine/model_executor/layers/quantization",)),
    (
        "[Distributed]",
        4,
        ("distributed",),
        ("engine/distributed", "engine/distributed/kv_transfer"),
    ),
    ("[Multimodal]", 4, ("multi-modality",), ("engine/multimodal", "models")),
    ("[Test]", 3, ("ci/build",), ("tests",)),
    ("[LoRA]", 2, ("lora",), ("engine/lora",)),
)
_ISSUE_TAGS: tuple[tuple[str, float, tuple[str, ...]], ...] = (
    ("[Bug]:", 45, ("bug",)),
    ("[Feature]:", 18, ("feature request",)),
    ("[Usage]:", 14, ("usage",)),
    ("[Performance]:", 7, ("performance",)),
    ("[Installation]:", 6, ("installation",)),
    ("[RFC]:", 4, ("RFC",)),
    ("[Doc]:", 4, ("documentation",)),
    ("[New Model]:", 2, ("new-model",)),
)
_EXTRA_PR_LABELS = ("ready", "needs-rebase", "ci-failure", "unstale", "structured-output")
_EXTRA_ISSUE_LABELS = ("stale", "rocm", "tpu", "good first issue", "help wanted", "v1")

_VERBS = (
    "Fix",
    "Add",
    "Support",
    "Refactor",
    "Remove",
    "Optimize",
    "Enable",
    "Update",
    "Clean up",
    "Avoid",
)
_THINGS = (
    "prefix caching",
    "chunked prefill",
    "the block allocator",
    "KV cache offloading",
    "tool call parsing",
    "logprobs output",
    "the detokenizer",
    "FP8 scaled matmul",
    "the MoE router",
    "rotary embeddings",
    "pipeline parallelism",
    "the OpenAI server",
    "request cancellation",
    "structured output",
    "CUDA graph capture",
    "sliding-window attention",
    "async output processing",
    "the sampler",
    "speculative decoding metrics",
    "LoRA adapters",
    "the image processor",
    "expert parallelism",
    "the prometheus metrics",
    "tokenizer caching",
    "multi-step scheduling",
)
_CONDITIONS = (
    "when max_num_seqs is 1",
    "with tensor parallel size 8",
    "on ROCm",
    "on TPU",
    "for long prompts",
    "under high concurrency",
    "with prefix caching enabled",
    "after a preemption",
    "with FP8 KV cache",
    "for multimodal inputs",
    "in the V1 engine",
    "with CUDA graphs",
    "",
    "",
    "",
)
_ISSUE_PHRASES = (
    "crashes",
    "hangs",
    "returns wrong logprobs",
    "leaks memory",
    "is much slower than the previous release",
    "raises an assertion error",
    "produces garbage output",
    "ignores stop tokens",
    "OOMs",
    "fails to start",
)
_WORDS = _split(
    "the scheduler now keeps track of the remaining budget so that long prompts are split "
    "into chunks before the decode batch is filled this avoids a corner case where a request "
    "is admitted twice after preemption we measured throughput on a single node and saw no "
    "regression the kernel reads the block table once per warp and reuses it which reduces "
    "global memory traffic tests cover the new path and the fallback please review the "
    "changes to the config because the default changes for small models the previous "
    "behaviour can be restored with a flag see the linked issue for the reproduction steps "
    "and the traceback it happens only when the cache is nearly full and the batch contains "
    "both prefill and decode requests"
)
_COMMENT_OPENERS = (
    "Thanks for the fix!",
    "LGTM.",
    "Could you add a test for this?",
    "I can reproduce this on main.",
    "Any update on this?",
    "This looks good to me, but please rebase.",
    "Can you share the full traceback?",
    "Which version are you on?",
    "Closing as fixed by the linked PR.",
    "We saw the same issue on our cluster.",
    "Benchmarks look good.",
    "cc the maintainers of this area.",
    "Nice catch.",
    "Does this also affect the V1 engine?",
    "/ready",
)
_BOT_COMMENTS = (
    "This pull request has merge conflicts that must be resolved before it can be merged.",
    "This issue has been automatically marked as stale because it has not had any activity.",
    "CI finished: all checks passed.",
    "Documentation preview is ready.",
    "This pull request was queued for merge.",
)
_REVIEW_COMMENTS = (
    "nit: this can be simplified.",
    "Should this be guarded by the platform check?",
    "This allocates on every step; can we hoist it out of the loop?",
    "Please add a type hint here.",
    "Why is this change needed?",
    "This breaks the TP > 1 case, I think.",
    "Can we keep the old name as an alias for backward compatibility?",
    "Let's add a comment explaining the magic number.",
    "Done.",
    "Good point, fixed.",
)
_REACTIONS = ("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes")
_REACTION_WEIGHTS = (50, 2, 3, 6, 2, 10, 8, 6)


# -- helpers ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _User:
    login: str
    type: str
    association: str


_GHOST = _User(login="", type="", association="NONE")  # login "" marks a deleted account


def _secs(value: datetime) -> datetime:
    return value.replace(microsecond=0)


def _sha(rng: random.Random) -> str:
    return f"{rng.getrandbits(160):040x}"


_B64 = string.ascii_letters + string.digits + "-_"


def _node_id(prefix: str, value: int) -> str:
    """A node id shaped like GitHub's (`PR_kwDO…`), stable for a given value."""
    chars = []
    n = value * 2654435761 % (1 << 64) + value
    for _ in range(10):
        n, rem = divmod(n, 64)
        chars.append(_B64[rem])
    return f"{prefix}_kwDOBNCH{''.join(chars)}"


def _activity(moment: datetime) -> float:
    """Relative activity at a UTC moment: two daily peaks (Asia and America), quieter weekends."""
    hour = moment.hour + moment.minute / 60

    def bump(centre: float) -> float:
        distance = min(abs(hour - centre), 24 - abs(hour - centre))
        return math.exp(-(distance**2) / 18)

    level = 0.15 + 0.85 * max(bump(6), bump(18))
    return level * (0.45 if moment.weekday() >= 5 else 1.0)


def _when(rng: random.Random, lo: datetime, hi: datetime) -> datetime:
    """A moment in [lo, hi], more likely in working hours."""
    if hi <= lo:
        return _secs(lo)
    span = (hi - lo).total_seconds()
    for _ in range(30):
        moment = lo + timedelta(seconds=rng.random() * span)
        if rng.random() < _activity(moment):
            return _secs(moment)
    return _secs(lo + timedelta(seconds=rng.random() * span))


def _after(rng: random.Random, start: datetime, hi: datetime, scale: float) -> datetime:
    """`start` plus an exponential delay of mean `scale` seconds, capped at `hi`."""
    return _secs(min(hi, start + timedelta(seconds=rng.expovariate(1 / scale))))


def _text(rng: random.Random, lo: int, hi: int) -> str:
    count = rng.randint(lo, hi)
    start = rng.randrange(len(_WORDS))
    words = [_WORDS[(start + i) % len(_WORDS)] for i in range(count)]
    sentence = " ".join(words)
    return sentence[:1].upper() + sentence[1:] + "."


def _reactions(rng: random.Random, chance: float, scale: float = 3.0) -> dict[str, int]:
    if rng.random() >= chance:
        return {}
    counts: dict[str, int] = {}
    for _ in range(rng.randint(1, 3)):
        key = rng.choices(_REACTIONS, _REACTION_WEIGHTS)[0]
        counts[key] = counts.get(key, 0) + 1 + int(rng.expovariate(1 / scale))
    return {key: counts[key] for key in _REACTIONS if key in counts}


def _allocate(
    rng: random.Random, total: int, weights: Sequence[float], heavy: dict[int, int], cap: int
) -> list[int]:
    """Split `total` over len(weights) slots: the `heavy` slots get their pinned counts, the rest
    share what is left in proportion to their (long-tailed) weights, none above `cap`."""
    counts = [0] * len(weights)
    for index, value in heavy.items():
        counts[index] = value
    left = max(0, total - sum(heavy.values()))
    free = [i for i in range(len(weights)) if i not in heavy and weights[i] > 0]
    weight_sum = sum(weights[i] for i in free)
    if not free or weight_sum <= 0:
        return counts
    shares = {i: left * weights[i] / weight_sum for i in free}
    for i in free:
        counts[i] = min(cap, int(shares[i]))
    # Hand out the remainder one by one, favouring the biggest fractional parts.
    remainder = left - sum(counts[i] for i in free)
    order = sorted(free, key=lambda i: (shares[i] - int(shares[i]), rng.random()), reverse=True)
    pos = 0
    while remainder > 0 and order:
        i = order[pos % len(order)]
        if counts[i] < cap:
            counts[i] += 1
            remainder -= 1
        pos += 1
        if pos > len(order) * (cap + 1):
            break
    return counts


def _heavy_count(total: int, share: float, size: int) -> int:
    """How many outliers of about `size` fit in `share` of `total` (one if at least half could)."""
    count = round(total * share / size)
    if count == 0 and total >= 2 * size:
        count = 1
    return count


# -- plan ---------------------------------------------------------------------------------


class _HasId(Protocol):
    id: int


@dataclass
class _Comment:
    number: int
    author: _User
    body: str
    created: datetime
    updated: datetime
    reactions: dict[str, int]
    id: int = 0


@dataclass
class _Review:
    number: int
    author: _User
    state: str
    body: str
    submitted: datetime
    commit: str
    comments: list[_ReviewComment] = field(default_factory=list)
    id: int = 0


@dataclass
class _ReviewComment:
    number: int
    review: _Review
    author: _User
    path: str
    line: int | None
    original_line: int
    side: str
    diff_hunk: str
    body: str
    commit: str
    created: datetime
    updated: datetime
    reactions: dict[str, int]
    reply_to: _ReviewComment | None = None
    id: int = 0


@dataclass
class _File:
    path: str
    status: str
    additions: int
    deletions: int


@dataclass
class _Item:
    kind: Literal["issue", "pr"]
    created: datetime
    author: _User
    state: Literal["open", "closed"] = "open"
    merged: bool = False
    draft: bool = False
    closed: datetime | None = None
    touched: datetime | None = None  # the last activity not recorded as a child row
    number: int = 0
    tag: str = ""
    title: str = ""
    body: str | None = None
    labels: list[str] = field(default_factory=list)
    areas: tuple[str, ...] = ()
    files: list[_File] = field(default_factory=list)
    comments: list[_Comment] = field(default_factory=list)
    reviews: list[_Review] = field(default_factory=list)
    closes: list[_Item] = field(default_factory=list)  # issues of this repository
    closes_elsewhere: list[int] = field(default_factory=list)  # issues of OTHER_REPO
    commits: int = 1
    head_sha: str = ""
    merge_sha: str | None = None
    merged_by: _User | None = None
    head_ref: str = ""
    state_reason: str | None = None
    reactions: dict[str, int] = field(default_factory=dict)
    big: str = ""  # "configs", "sweep", "thread", "reviews": why this item is an outlier

    @property
    def is_bot(self) -> bool:
        return self.author.type == "Bot"


class _Week:
    def __init__(
        self,
        seed: int,
        *,
        prs: int,
        issues: int,
        comments_and_reviews: int,
        pr_files: int,
        start: datetime,
        int32_ids: bool = False,
        numbers_after: int | None = None,
        ids_after: dict[str, int] | None = None,
    ) -> None:
        if start.tzinfo is None:
            raise ValueError("start must be timezone-aware")
        self.rng = random.Random(seed)
        self.start = _secs(start.astimezone(UTC))
        self.end = self.start + WEEK - timedelta(seconds=1)
        self.n_prs = prs
        self.n_issues = issues
        self.n_threads = comments_and_reviews
        self.n_files = pr_files
        self.int32_ids = int32_ids
        self.numbers_after = numbers_after
        self.ids_after = ids_after or {}
        self._users()
        self._paths()

    # people ------------------------------------------------------------------------------

    def _users(self) -> None:
        rng = self.rng
        logins: list[str] = []
        seen: set[str] = set()
        while len(logins) < 260:
            first, last = rng.choice(_FIRST), rng.choice(_LAST)
            login = rng.choice(
                (
                    f"{first}{last}",
                    f"{first[0]}{last}",
                    f"{first}-{last}",
                    f"{last}{first}{rng.randint(1, 99)}",
                    f"{first}_{last[:3]}",
                    f"{first}{rng.randint(10, 2099)}",
                )
            )
            if login not in seen:
                seen.add(login)
                logins.append(login)
        self.maintainers = [_User(x, "User", "MEMBER") for x in logins[:14]]
        self.collaborators = [_User(x, "User", "COLLABORATOR") for x in logins[14:40]]
        self.contributors = [_User(x, "User", "CONTRIBUTOR") for x in logins[40:170]]
        self.newcomers = [
            _User(x, "User", rng.choice(("NONE", "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER")))
            for x in logins[170:]
        ]
        self.people = self.maintainers + self.collaborators + self.contributors + self.newcomers
        # Zipf-like activity: a few people do most of the talking.
        self.weights = [1 / (rank + 3) ** 0.9 for rank in range(len(self.people))]
        self.reviewer_pool = self.maintainers + self.collaborators + self.contributors[:30]
        self.reviewer_weights = [1 / (rank + 2) ** 0.8 for rank in range(len(self.reviewer_pool))]
        self.bot_author = _User(_BOT_AUTHOR, "Bot", "CONTRIBUTOR")
        self.bot_commenters = [_User(x, "Bot", "NONE") for x in _BOT_COMMENTERS]
        self.bot_reviewer = _User(_BOT_REVIEWER, "Bot", "NONE")

    def person(self, *, ghost: float = 0.012) -> _User:
        if self.rng.random() < ghost:
            return _GHOST
        return self.rng.choices(self.people, self.weights)[0]

    def reviewer(self) -> _User:
        roll = self.rng.random()
        if roll < 0.01:
            return _GHOST
        if roll < 0.07:
            return self.bot_reviewer
        return self.rng.choices(self.reviewer_pool, self.reviewer_weights)[0]

    # paths -------------------------------------------------------------------------------

    def _paths(self) -> None:
        by_area: dict[str, list[str]] = {}
        for area, stems in _AREAS.items():
            by_area[area] = [f"{area}/{stem}.py" for stem in stems]
            tests_area = area.replace("engine/", "tests/", 1)
            by_area.setdefault("tests", []).extend(f"{tests_area}/test_{s}.py" for s in stems)
        by_area["models"] = [f"engine/model_executor/models/{m}.py" for m in _MODELS]
        by_area["tests"].extend(f"tests/models/test_{m}.py" for m in _MODELS)
        for area, names in _KERNEL_FILES.items():
            by_area[area] = [f"{area}/{name}" for name in names]
            by_area["tests"].extend(
                f"tests/kernels/test_{name.rsplit('/', 1)[-1].split('.')[0]}.py" for name in names
            )
        for path in _OTHER_FILES:
            top = path.split("/", 1)[0] if "/" in path else "top"
            by_area.setdefault(top, []).append(path)
        by_area = {area: sorted(set(paths)) for area, paths in by_area.items()}
        self.by_area = by_area
        self.all_py = sorted({p for paths in by_area.values() for p in paths if p.endswith(".py")})

    def pick_paths(self, item: _Item, count: int) -> list[str]:
        rng = self.rng
        areas = list(item.areas) or ["engine/core"]
        chosen: list[str] = []
        seen: set[str] = set()
        attempts = 0
        while len(chosen) < count and attempts < count * 20:
            attempts += 1
            roll = rng.random()
            if roll < 0.7:
                area = rng.choice(areas)
            elif roll < 0.85:
                area = "tests"
            else:
                area = rng.choice(list(self.by_area))
            pool = self.by_area.get(area) or self.by_area.get(
                next((a for a in self.by_area if a.startswith(area)), "tests"), []
            )
            if area == "docs":
                pool = self.by_area["docs"]
            path = rng.choice(pool)
            if path not in seen:
                seen.add(path)
                chosen.append(path)
        while len(chosen) < count:  # tiny vocabularies: fall back to anything unused
            path = rng.choice(self.all_py)
            if path not in seen:
                seen.add(path)
                chosen.append(path)
        return chosen

    # build -------------------------------------------------------------------------------

    def build(self) -> list[Record]:
        items = self._items()
        self._outliers(items)
        for item in items:
            self._describe(item)
        prs = [i for i in items if i.kind == "pr"]
        self._files(prs)
        self._reviews(prs)
        self._comments(items)
        self._closing_refs(items)
        self._finish(items)
        self._number(items)
        self._ids(items)
        return self._records(items)

    def _items(self) -> list[_Item]:
        rng = self.rng
        items: list[_Item] = []
        kinds: list[Literal["issue", "pr"]] = ["pr"] * self.n_prs + ["issue"] * self.n_issues
        for kind in kinds:
            # Most items of the week are new; some older ones were still being worked on.
            if rng.random() < 0.82:
                created = _when(rng, self.start, self.end - timedelta(minutes=30))
            else:
                created = _when(rng, self.start - timedelta(days=45), self.start)
            author = self.person()
            if kind == "pr" and rng.random() < 0.035:
                author = self.bot_author
            items.append(_Item(kind=kind, created=created, author=author))
        # States: about 3/7 of PRs merged, some closed unmerged, the rest open (a quarter drafts).
        prs = [i for i in items if i.kind == "pr"]
        rng.shuffle(prs)
        merged = round(self.n_prs * 3 / 7)
        closed = round(self.n_prs * 0.17)
        for index, pr in enumerate(prs):
            if index < merged:
                pr.state, pr.merged = "closed", True
            elif index < merged + closed:
                pr.state = "closed"
                pr.draft = rng.random() < 0.08
            else:
                pr.draft = rng.random() < 0.25
        for issue in (i for i in items if i.kind == "issue"):
            if rng.random() < 0.35:
                issue.state = "closed"
                issue.state_reason = rng.choices(("completed", "not_planned"), (3, 1))[0]
        for item in items:
            if item.state == "closed":
                lo = max(item.created + timedelta(minutes=10), self.start)
                soon = _after(rng, item.created, self.end, 86400 * 1.5)
                if soon < lo:  # an older item closed this week, mostly early in it
                    soon = _when(rng, lo, min(self.end, lo + timedelta(days=3)))
                item.closed = soon if soon < self.end else _when(rng, lo, self.end)
        return items

    def _outliers(self, items: list[_Item]) -> None:
        """Pin the long tail: huge file lists, huge threads, huge review counts."""
        rng = self.rng
        humans = [i for i in items if i.kind == "pr" and not i.is_bot]
        issues = [i for i in items if i.kind == "issue"]
        comment_budget = round(self.n_threads * 0.55)
        review_budget = round(self.n_threads * 0.25)
        self.heavy_files: dict[int, int] = {}
        self.heavy_reviews: dict[int, int] = {}
        self.heavy_comments: dict[int, int] = {}
        index_of = {id(item): n for n, item in enumerate(items)}
        taken: set[int] = set()

        def pick(pool: list[_Item]) -> _Item | None:
            free = [i for i in pool if id(i) not in taken]
            if not free:
                return None
            choice = rng.choice(free)
            taken.add(id(choice))
            return choice

        for n in range(_heavy_count(self.n_files, 0.37, 350)):
            pr = pick(humans)
            if pr is None:
                break
            pr.big = "configs" if n % 2 == 0 else "sweep"
            self.heavy_files[index_of[id(pr)]] = rng.randint(300, 420)
        for _ in range(_heavy_count(review_budget, 0.2, 115)):
            pr = pick(humans)
            if pr is None:
                break
            pr.big = "reviews"
            self.heavy_reviews[index_of[id(pr)]] = rng.randint(100, 135)
        for n in range(_heavy_count(comment_budget, 0.12, 120)):
            item = pick(issues if n % 3 != 2 else humans)
            if item is None:
                break
            item.big = "thread"
            self.heavy_comments[index_of[id(item)]] = rng.randint(100, 170)
        self.index_of = index_of

    def _describe(self, item: _Item) -> None:
        rng = self.rng
        if item.kind == "issue":
            tag, _, labels = rng.choices(_ISSUE_TAGS, [w for _, w, _ in _ISSUE_TAGS])[0]
            if item.big == "thread":
                tag, labels = rng.choice((("[RFC]:", ("RFC",)), ("[Bug]:", ("bug",))))
            thing = rng.choice(_THINGS)
            cond = rng.choice(_CONDITIONS)
            if tag == "[Bug]:":
                title = f"{tag} {thing[:1].upper()}{thing[1:]} {rng.choice(_ISSUE_PHRASES)} {cond}"
            elif tag == "[Usage]:":
                title = f"{tag} How to configure {thing} {cond}?"
            elif tag == "[RFC]:":
                title = f"{tag} Redesign {thing} for the next release"
            else:
                title = f"{tag} {rng.choice(_VERBS)} {thing} {cond}"
            item.tag = tag
            item.title = title.strip().replace("  ", " ")
            item.labels = list(labels)
            if rng.random() < 0.2:
                item.labels.append(rng.choice(_EXTRA_ISSUE_LABELS))
            if item.state == "open" and item.created < self.start and rng.random() < 0.3:
                item.labels.append("stale")
            item.labels = list(dict.fromkeys(item.labels))
            item.body = None if rng.random() < 0.03 else _issue_body(rng)
            item.reactions = _reactions(rng, 0.3 if item.big != "thread" else 1.0, 4.0)
            return
        if item.is_bot:
            package = rng.choice(("torch", "transformers", "xgrammar", "ray", "pydantic", "triton"))
            old = f"{rng.randint(1, 4)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"
            new = f"{old.rsplit('.', 1)[0]}.{int(old.rsplit('.', 1)[1]) + rng.randint(1, 3)}"
            item.tag = "bump"
            item.title = f"Bump {package} from {old} to {new}"
            item.labels = ["dependencies", "python"]
            item.areas = ("requirements",)
            item.head_ref = f"dependabot/pip/{package}-{new}"
            item.body = f"Bumps {package} from {old} to {new}."
            item.commits = 1
            item.head_sha = _sha(rng)
            return
        tag, _, labels, areas = rng.choices(_PR_TAGS, [w for _, w, _, _ in _PR_TAGS])[0]
        thing = rng.choice(_THINGS)
        if item.big == "configs":
            tag, labels, areas = "[Kernel]", ("kernel", "performance"), ("kernels/triton",)
            device = rng.choice(_DEVICES)
            title = f"{tag} Add tuned fused MoE configs for {device.replace('_', ' ')}"
        elif item.big == "sweep":
            tag, labels, areas = "[Misc]", ("ci/build",), ("engine",)
            title = f"{tag} Enable stricter lint rules across the code base"
        elif item.big == "reviews":
            tag, labels, areas = "[V1]", ("v1", "core"), ("engine/core", "engine/worker")
            title = f"{tag} Rework {thing} in the engine core"
        elif tag == "[Model]":
            title = f"{tag} Support {rng.choice(_MODELS).replace('_', '-')} models"
        else:
            cond = rng.choice(_CONDITIONS)
            title = f"{tag} {rng.choice(_VERBS)} {thing} {cond}"
        item.tag = tag
        item.title = title.strip()
        item.areas = areas
        item.labels = list(labels)
        if rng.random() < 0.25:
            item.labels.append(rng.choice(_EXTRA_PR_LABELS))
        if item.merged and rng.random() < 0.6:
            item.labels.append("ready")
        item.labels = list(dict.fromkeys(item.labels))
        login = item.author.login or "user"
        slug = "-".join(title.lower().split("] ", 1)[-1].split()[:4])
        item.head_ref = (
            f"{login.split('[')[0]}/{''.join(c for c in slug if c.isalnum() or c == '-')}"
        )
        item.body = None if rng.random() < 0.02 else _pr_body(rng)
        item.commits = 1 + int(rng.expovariate(1 / 2.5))
        item.head_sha = _sha(rng)
        item.reactions = _reactions(rng, 0.12)

    def _files(self, prs: list[_Item]) -> None:
        rng = self.rng
        index = {id(pr): n for n, pr in enumerate(prs)}
        heavy = {
            index[id(item)]: count
            for item in prs
            if (count := self.heavy_files.get(self.index_of[id(item)], 0))
        }
        weights = []
        for pr in prs:
            if pr.is_bot:
                weights.append(0.0)
            else:
                weights.append(min(60.0, rng.paretovariate(1.15) - 1))
        free_budget = max(0, self.n_files - sum(heavy.values()) - len(prs))
        extra = _allocate(rng, free_budget, weights, {k: 0 for k in heavy}, cap=120)
        for n, pr in enumerate(prs):
            count = heavy.get(n) or 1 + extra[n]
            if pr.is_bot:
                count = min(count, 2)
            if pr.big == "configs":
                device = rng.choice(_DEVICES)
                paths = [
                    "engine/model_executor/layers/fused_moe/configs/"
                    f"E={e},N={nn},device_name={device}{dtype}.json"
                    for e in (8, 16, 64, 128, 256, 384, 512)
                    for nn in (128, 192, 256, 320, 512, 640, 768, 1024, 1280, 1536, 2048, 3072)
                    for dtype in (
                        "",
                        ",dtype=fp8_w8a8",
                        ",dtype=int8_w8a16",
                        ",dtype=fp8_w8a8,block_shape=[128,128]",
                        ",dtype=int4_w4a16",
                    )
                ]
                rng.shuffle(paths)
                pr.files = [_File(p, "added", rng.randint(120, 160), 0) for p in paths[:count]]
                continue
            if pr.big == "sweep":
                paths = rng.sample(self.all_py, min(count, len(self.all_py)))
                pr.files = [
                    _File(p, "modified", rng.randint(1, 12), rng.randint(1, 12)) for p in paths
                ]
                continue
            files = []
            for path in self.pick_paths(pr, count):
                status = rng.choices(("modified", "added", "removed", "renamed"), (80, 14, 3, 3))[0]
                if pr.is_bot:
                    status = "modified"
                size = max(1, int(rng.lognormvariate(2.4, 1.3)))
                if status == "added":
                    add, delete = size + rng.randint(5, 40), 0
                elif status == "removed":
                    add, delete = 0, size + rng.randint(5, 40)
                elif status == "renamed":
                    add = delete = rng.choice((0, 0, 1, 2))
                else:
                    add, delete = size, int(size * rng.random() * 0.8)
                files.append(_File(path, status, add, delete))
            pr.files = files

    def _reviews(self, prs: list[_Item]) -> None:
        rng = self.rng
        budget = round(self.n_threads * 0.25)
        inline_budget = round(self.n_threads * 0.20)
        index = {id(pr): n for n, pr in enumerate(prs)}
        heavy = {
            index[id(pr)]: count
            for pr in prs
            if (count := self.heavy_reviews.get(self.index_of[id(pr)], 0))
        }
        weights = []
        for pr in prs:
            base = min(12.0, rng.paretovariate(1.5))
            if pr.merged:
                base *= 2.2
            if pr.is_bot:
                base *= 0.15
            if pr.draft:
                base *= 0.3
            weights.append(base)
        counts = _allocate(rng, budget, weights, heavy, cap=40)
        for pr, count in zip(prs, counts, strict=True):
            if count == 0:
                continue
            # Reviews happen between opening and closing (or the week's end).
            lo = pr.created + timedelta(minutes=5)
            hi = pr.closed if pr.closed else self.end
            if hi <= lo:
                hi = lo
            times = sorted(
                _when(rng, max(lo, self.start - timedelta(days=2)), hi) for _ in range(count)
            )
            times = [max(t, _secs(lo)) for t in times]
            shas = [_sha(rng) for _ in range(max(1, pr.commits - 1))] + [pr.head_sha]
            for k, moment in enumerate(times):
                author = self.reviewer()
                while author.login and author.login == pr.author.login:
                    author = rng.choice(self.maintainers)
                late = k >= count - 2
                if pr.merged and late and author.type != "Bot":
                    state = "APPROVED"
                else:
                    state = rng.choices(
                        ("COMMENTED", "APPROVED", "CHANGES_REQUESTED", "DISMISSED"),
                        (62, 22, 12, 4),
                    )[0]
                if author.type == "Bot":
                    state = "COMMENTED"
                commit = shas[min(len(shas) - 1, int(k * len(shas) / count))]
                body = ""
                if state != "COMMENTED" or rng.random() < 0.35:
                    body = rng.choice(_COMMENT_OPENERS) if rng.random() < 0.8 else ""
                pr.reviews.append(_Review(pr.number, author, state, body, moment, commit))
        # Inline comments belong to reviews (GitHub files even a lone one under a review).
        reviewed = [pr for pr in prs if pr.reviews]
        inline_weights = [len(pr.reviews) ** 0.9 * rng.paretovariate(2.0) for pr in reviewed]
        inline = _allocate(rng, inline_budget, inline_weights, {}, cap=60)
        for pr, count in zip(reviewed, inline, strict=True):
            threads: list[_ReviewComment] = []
            for _ in range(count):
                review = rng.choice(pr.reviews)
                earlier = [c for c in threads if c.created < review.submitted]
                created = _secs(review.submitted - timedelta(seconds=rng.randint(0, 900)))
                created = max(created, _secs(pr.created))
                parent = rng.choice(earlier) if earlier and rng.random() < 0.35 else None
                if parent is not None:
                    created = max(created, parent.created)
                    path, line, side, hunk = (
                        parent.path,
                        parent.original_line,
                        parent.side,
                        parent.diff_hunk,
                    )
                    body = rng.choice(_REVIEW_COMMENTS[-4:])
                else:
                    path = rng.choice(pr.files).path
                    line = rng.randint(1, 400)
                    side = "RIGHT" if rng.random() < 0.9 else "LEFT"
                    hunk = _hunk(rng, line)
                    body = rng.choice(_REVIEW_COMMENTS)
                outdated = review.commit != pr.head_sha and rng.random() < 0.5
                updated = created
                if rng.random() < 0.1:
                    updated = _after(rng, created, self.end, 3600)
                comment = _ReviewComment(
                    number=pr.number,
                    review=review,
                    author=review.author,
                    path=path,
                    line=None if outdated else line,
                    original_line=line,
                    side=side,
                    diff_hunk=hunk,
                    body=body,
                    commit=review.commit,
                    created=created,
                    updated=updated,
                    reactions=_reactions(rng, 0.05, 1.0),
                    reply_to=parent.reply_to or parent if parent else None,
                )
                review.comments.append(comment)
                threads.append(comment)

    def _comments(self, items: list[_Item]) -> None:
        rng = self.rng
        budget = self.n_threads - round(self.n_threads * 0.25) - round(self.n_threads * 0.20)
        heavy = self.heavy_comments
        weights = []
        for item in items:
            base = min(25 + 25 * rng.random(), rng.paretovariate(1.2)) - 0.7
            if item.kind == "issue":
                base *= 1.4
            if item.is_bot:
                base *= 0.3
            weights.append(max(0.0, base))
        counts = _allocate(rng, budget, weights, heavy, cap=80)
        for item, count in zip(items, counts, strict=True):
            lo = item.created + timedelta(minutes=1)
            hi = self.end
            if item.closed and rng.random() < 0.85:
                hi = item.closed
            if hi <= lo:
                hi = lo
            lo = max(lo, self.start - timedelta(days=3))
            for _ in range(count):
                roll = rng.random()
                if roll < 0.07:
                    author = rng.choice(self.bot_commenters)
                    body = rng.choice(_BOT_COMMENTS)
                else:
                    author = item.author if roll < 0.3 and item.author.login else self.person()
                    if author.type == "Bot":
                        author = self.person()
                    body = rng.choice(_COMMENT_OPENERS)
                    if rng.random() < 0.6:
                        body += " " + _text(rng, 8, 70)
                created = _when(rng, lo, hi)
                updated = created
                if rng.random() < 0.12:
                    updated = _after(rng, created, self.end, 5400)
                reactions = _reactions(rng, 0.15 if item.big != "thread" else 0.4, 2.0)
                item.comments.append(
                    _Comment(item.number, author, body, created, updated, reactions)
                )

    def _closing_refs(self, items: list[_Item]) -> None:
        rng = self.rng
        issues = [i for i in items if i.kind == "issue"]
        for pr in items:
            if pr.kind != "pr" or pr.is_bot or rng.random() > 0.16:
                continue
            candidates = [i for i in issues if i.created < pr.created]
            for _ in range(1 if rng.random() < 0.85 else 2):
                if rng.random() < 0.08 or not candidates:
                    number = rng.randint(100, 900)
                    if number not in pr.closes_elsewhere:
                        pr.closes_elsewhere.append(number)
                else:
                    issue = rng.choice(candidates)
                    if issue not in pr.closes:
                        pr.closes.append(issue)

    def _finish(self, items: list[_Item]) -> None:
        rng = self.rng
        for item in items:
            if item.merged:
                item.merged_by = rng.choice(self.maintainers)
                item.merge_sha = _sha(rng)
            # Something visible happened in the week (a push, a label, an edit) even if no child
            # row records it.
            lo = max(item.created, self.start)
            item.touched = _when(rng, lo, self.end)

    def _number(self, items: list[_Item]) -> None:
        rng = self.rng
        items.sort(key=lambda i: (i.created, i.kind))
        old = [i for i in items if i.created < self.start]
        new = [i for i in items if i.created >= self.start]
        # Older items are sparse (most of their neighbours were not touched this week).
        spacing = 40
        first = 31000
        if self.numbers_after is not None:  # a later week of several: above every number so far
            first = self.numbers_after + 1 + spacing * (len(old) + 1)
        number = first - spacing * (len(old) + 1)
        for item in old:
            number += rng.randint(1, 2 * spacing - 1)
            item.number = number
        number = max(number, first)
        for item in new:
            number += 1 if rng.random() < 0.93 else rng.randint(2, 4)
            item.number = number
        for item in items:
            for comment in item.comments:
                comment.number = item.number
            for review in item.reviews:
                review.number = item.number
                for rc in review.comments:
                    rc.number = item.number

    def _ids(self, items: list[_Item]) -> None:
        """REST ids grow with creation time, as GitHub's do."""
        comments = sorted(
            (c for i in items for c in i.comments), key=lambda c: (c.created, c.number)
        )
        reviews = sorted(
            (r for i in items for r in i.reviews), key=lambda r: (r.submitted, r.number)
        )
        # At equal times a thread's first comment precedes its replies.
        inline = sorted(
            (c for r in reviews for c in r.comments),
            key=lambda c: (c.created, c.number, c.reply_to is not None),
        )
        # GitHub's ids passed 2**31 in 2024 (reviews, comments); GraphQL `databaseId` is an
        # Int, so clients must read `fullDatabaseId`. `int32_ids` keeps them below, as before.
        bases = dict(INT32_ID_BASES if self.int32_ids else ID_BASES)
        for kind, last in self.ids_after.items():  # a later week of several: ids keep growing
            bases[kind] = max(bases[kind], last)
        self._assign(comments, bases["comment"])
        self._assign(reviews, bases["review"])
        self._assign(inline, bases["review_comment"])

    def _assign(self, rows: Sequence[_HasId], base: int) -> None:
        value = base
        for row in rows:
            value += self.rng.randint(1, 60)
            row.id = value

    def _records(self, items: list[_Item]) -> list[Record]:
        out: list[Record] = [
            RepositoryRecord(
                full_name=REPO,
                github_id="R_kgDOBNCHbench",
                url=HTML,
                description="A fast and easy-to-use inference engine (synthetic benchmark data)",
                default_branch="main",
            )
        ]
        items.sort(key=lambda i: i.number)
        comment_rows: list[CommentRecord] = []
        review_rows: list[ReviewRecord] = []
        inline_rows: list[ReviewCommentRecord] = []
        file_rows: list[PRFileRecord] = []
        ref_rows: list[ClosingRefRecord] = []
        for item in items:
            inline = [c for r in item.reviews for c in r.comments]
            moments = [item.created, item.touched or item.created]
            moments += [c.updated for c in item.comments]
            moments += [r.submitted for r in item.reviews]
            moments += [c.updated for c in inline]
            if item.closed:
                moments.append(item.closed)
            updated = min(self.end, max(moments))
            is_pr = item.kind == "pr"
            path = "pull" if is_pr else "issues"
            decision = _decision(item) if is_pr else None
            # Thread resolution is not drawn from the RNG (the rest of the week stays as it
            # was): a fixed quarter of the PRs leave up to two of their threads unresolved.
            threads = sum(1 for c in inline if c.reply_to is None)
            unresolved = min(threads, item.number % 3) if item.number % 4 == 0 else 0
            out.append(
                ItemRecord(
                    number=item.number,
                    kind=item.kind,
                    github_id=_node_id("PR" if is_pr else "I", item.number),
                    title=item.title,
                    body=item.body,
                    author=item.author.login or None,
                    author_type=item.author.type or None,
                    author_association=item.author.association,
                    state=item.state,
                    state_reason=item.state_reason,
                    draft=item.draft if is_pr else None,
                    locked=item.big == "thread" and item.state == "closed",
                    labels=item.labels,
                    created_at=item.created,
                    updated_at=updated,
                    closed_at=item.closed,
                    merged_at=item.closed if item.merged else None,
                    merged=item.merged if is_pr else None,
                    merged_by=item.merged_by.login if item.merged_by else None,
                    merge_commit_sha=item.merge_sha,
                    additions=sum(f.additions for f in item.files) if is_pr else None,
                    deletions=sum(f.deletions for f in item.files) if is_pr else None,
                    changed_files=len(item.files) if is_pr else None,
                    commits=item.commits if is_pr else None,
                    base_ref="main" if is_pr else None,
                    head_ref=item.head_ref if is_pr else None,
                    head_sha=item.head_sha if is_pr else None,
                    review_decision=decision,
                    reactions=item.reactions,
                    comments_count=len(item.comments),
                    review_comments_count=len(inline) if is_pr else None,
                    unresolved_threads=unresolved if is_pr else None,
                    url=f"{HTML}/{path}/{item.number}",
                    detail_updated_at=updated if is_pr else None,
                    checked_updated_at=updated,
                )
            )
            for c in item.comments:
                comment_rows.append(
                    CommentRecord(
                        id=c.id,
                        number=item.number,
                        github_id=_node_id("IC", c.id),
                        author=c.author.login or None,
                        author_type=c.author.type or None,
                        author_association=c.author.association,
                        body=c.body,
                        created_at=c.created,
                        updated_at=c.updated,
                        reactions=c.reactions,
                        url=f"{HTML}/{path}/{item.number}#issuecomment-{c.id}",
                    )
                )
            for r in item.reviews:
                review_rows.append(
                    ReviewRecord(
                        id=r.id,
                        number=item.number,
                        github_id=_node_id("PRR", r.id),
                        author=r.author.login or None,
                        author_type=r.author.type or None,
                        author_association=r.author.association,
                        state=r.state,
                        body=r.body,
                        submitted_at=r.submitted,
                        commit_sha=r.commit,
                        comments_count=len(r.comments),
                        url=f"{HTML}/pull/{item.number}#pullrequestreview-{r.id}",
                    )
                )
            for c in inline:
                inline_rows.append(
                    ReviewCommentRecord(
                        id=c.id,
                        number=item.number,
                        review_id=c.review.id,
                        in_reply_to_id=c.reply_to.id if c.reply_to else None,
                        github_id=_node_id("PRRC", c.id),
                        author=c.author.login or None,
                        author_type=c.author.type or None,
                        author_association=c.author.association,
                        path=c.path,
                        line=c.line,
                        original_line=c.original_line,
                        side=c.side,
                        diff_hunk=c.diff_hunk,
                        body=c.body,
                        commit_sha=c.commit,
                        created_at=c.created,
                        updated_at=c.updated,
                        reactions=c.reactions,
                        url=f"{HTML}/pull/{item.number}#discussion_r{c.id}",
                    )
                )
            for f in item.files:
                file_rows.append(
                    PRFileRecord(
                        number=item.number,
                        path=f.path,
                        status=f.status,
                        additions=f.additions,
                        deletions=f.deletions,
                    )
                )
            refs = [(REPO, issue.number) for issue in item.closes]
            refs += [(OTHER_REPO, number) for number in item.closes_elsewhere]
            for repo, number in refs:
                ref_rows.append(
                    ClosingRefRecord(number=item.number, issue_repo=repo, issue_number=number)
                )
        comment_rows.sort(key=lambda c: c.id)
        review_rows.sort(key=lambda c: c.id)
        inline_rows.sort(key=lambda c: c.id)
        file_rows.sort(key=lambda f: (f.number, f.path))
        ref_rows.sort(key=lambda f: (f.number, f.issue_repo, f.issue_number))
        out.extend(comment_rows)
        out.extend(review_rows)
        out.extend(inline_rows)
        out.extend(file_rows)
        out.extend(ref_rows)
        return out


def _decision(item: _Item) -> str | None:
    """GitHub's review decision from each reviewer's latest approving/blocking review."""
    latest: dict[str, str] = {}
    for review in sorted(item.reviews, key=lambda r: r.submitted):
        if review.state in ("APPROVED", "CHANGES_REQUESTED", "DISMISSED") and review.author.login:
            latest[review.author.login] = review.state
    states = set(latest.values())
    if "CHANGES_REQUESTED" in states:
        return "CHANGES_REQUESTED"
    if "APPROVED" in states:
        return "APPROVED"
    return "REVIEW_REQUIRED"


def _hunk(rng: random.Random, line: int) -> str:
    start = max(1, line - 3)
    body = [f" {w}" for w in rng.sample(_WORDS, 3)] + [
        f"+{w} = {w}()" for w in rng.sample(_WORDS, 1)
    ]
    return f"@@ -{start},6 +{start},7 @@\n" + "\n".join(body)


def _issue_body(rng: random.Random) -> str:
    return (
        "### Your current environment\n\n"
        f"GPU type: {rng.choice(_DEVICES).replace('_', ' ')}\n"
        f"Engine version: 0.{rng.randint(8, 11)}.{rng.randint(0, 5)}\n\n"
        f"### Describe the problem\n\n{_text(rng, 20, 140)}\n"
    )


def _pr_body(rng: random.Random) -> str:
    return (
        f"## Purpose\n\n{_text(rng, 15, 90)}\n\n"
        f"## Test plan\n\n{_text(rng, 5, 40)}\n\n"
        f"## Test result\n\n{_text(rng, 5, 30)}\n"
    )


def generate_week(
    seed: int = 0,
    *,
    prs: int = 700,
    issues: int = 200,
    comments_and_reviews: int = 5000,
    pr_files: int = 3000,
    start: datetime = DEFAULT_START,
    int32_ids: bool = False,
) -> list[Record]:
    """One busy week of `bench/inference-engine`, repository record first, then items by
    number, comments, reviews and review comments by id, PR files by (number, path) and closing
    references — the order `tidings export` writes.

    Ids are realistic (review and comment ids above 2**31) unless `int32_ids`."""
    week = _Week(
        seed,
        prs=prs,
        issues=issues,
        comments_and_reviews=comments_and_reviews,
        pr_files=pr_files,
        start=start,
        int32_ids=int32_ids,
    )
    return week.build()


def quick_week(
    seed: int = 0, *, start: datetime = DEFAULT_START, int32_ids: bool = False
) -> list[Record]:
    """A fifth of the default week: same shape, for smoke runs."""
    return generate_week(
        seed,
        prs=140,
        issues=40,
        comments_and_reviews=1000,
        pr_files=600,
        start=start,
        int32_ids=int32_ids,
    )


def generate_weeks(
    weeks: int,
    *,
    merged: int = 300,
    start: datetime = DEFAULT_START,
    seed: int = 0,
) -> Iterator[list[Record]]:
    """`weeks` consecutive busy weeks from `start`, one list of records per week (each with the
    repository record first), for a store that holds months of history.

    Each week is `generate_week`'s, scaled so that exactly `merged` PRs are merged in it (the
    default 300 gives the default week: 700 PRs, 200 issues, 5,000 comments and reviews, 3,000
    changed files). Every merge and close falls inside its own week (some of a week's items
    were opened earlier, as in `generate_week`); numbers and ids keep growing from week to
    week, so no two weeks share an item, comment or review. The same arguments always give the
    same records."""
    numbers_after: int | None = None
    ids_after: dict[str, int] = {}
    for k in range(weeks):
        # round(prs * 3/7) PRs of a week are merged: this many PRs give back exactly `merged`.
        prs = round(merged * 7 / 3)
        week = _Week(
            seed * 1000 + k,
            prs=prs,
            issues=round(merged * 2 / 3),
            comments_and_reviews=round(merged * 50 / 3),
            pr_files=merged * 10,
            start=start + k * WEEK,
            numbers_after=numbers_after,
            ids_after=ids_after,
        )
        records = week.build()
        numbers_after = max(x.number for x in records if isinstance(x, ItemRecord))
        for kind, cls in (
            ("comment", CommentRecord),
            ("review", ReviewRecord),
            ("review_comment", ReviewCommentRecord),
        ):
            ids = [x.id for x in records if isinstance(x, cls)]
            if ids:
                ids_after[kind] = max(ids)
        yield records


# -- changes for incremental runs ---------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One edit to one item, as a maintainer's day would make it: a comment, a relabel, a
    retitle or a close. `fields` are ItemRecord fields to set; `comment` is a new comment."""

    number: int
    kind: Literal["issue", "pr"]
    action: Literal["comment", "label", "retitle", "close"]
    fields: dict[str, object] = field(default_factory=dict)
    comment: str | None = None
    author: str | None = None


# Ten changes of a typical hour: comments dominate, then relabels, a retitle, a close.
_CHANGE_PATTERN: tuple[tuple[Literal["comment", "label", "retitle", "close"], str], ...] = (
    ("comment", "pr"),
    ("comment", "issue"),
    ("label", "pr"),
    ("comment", "pr"),
    ("retitle", "pr"),
    ("comment", "pr"),
    ("close", "issue"),
    ("label", "pr"),
    ("comment", "issue"),
    ("comment", "pr"),
)


def pick_changes(records: Sequence[Record], n: int = 10, seed: int = 0) -> list[Change]:
    """`n` distinct items to change, chosen deterministically, in the mix of `_CHANGE_PATTERN`
    (an issue to close is always an open one)."""
    rng = random.Random(f"changes-{seed}")
    items = [r for r in records if isinstance(r, ItemRecord)]
    commenters = sorted({i.author for i in items if i.author and i.author_type == "User"})
    changes: list[Change] = []
    used: set[int] = set()
    for index in range(n):
        action, kind = _CHANGE_PATTERN[index % len(_CHANGE_PATTERN)]
        pool = [
            i
            for i in items
            if i.kind == kind and i.number not in used and (action != "close" or i.state == "open")
        ]
        if not pool:
            pool = [i for i in items if i.number not in used]
            action = "comment"
        if not pool:
            break
        item = rng.choice(pool)
        used.add(item.number)
        if action == "comment":
            author = rng.choice(commenters) if commenters else None
            comment = rng.choice(_COMMENT_OPENERS)
            changes.append(Change(item.number, item.kind, action, comment=comment, author=author))
        elif action == "label":
            extra = next((x for x in _EXTRA_PR_LABELS if x not in item.labels), None)
            labels = [*item.labels, extra] if extra else item.labels[:-1]
            changes.append(Change(item.number, item.kind, action, {"labels": labels}))
        elif action == "retitle":
            title = f"{item.title} (v2)"
            changes.append(Change(item.number, item.kind, action, {"title": title}))
        else:
            fields: dict[str, object] = {"state": "closed", "state_reason": "completed"}
            changes.append(Change(item.number, item.kind, action, fields))
    return changes
