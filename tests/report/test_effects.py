"""The effect a PR states, quoted for the rule-written reports. Bodies shaped like real
vllm-ascend and vLLM ones."""

from __future__ import annotations

import pytest

from tidings.report.effects import stated_effect


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            "### What this PR does / why we need it?\nRemove a host sync.\n\n"
            "### How was this patch tested?\nPerformance: 878 tps -> 899 tps",
            "Performance: 878 tps -> 899 tps",
        ),
        (
            "Merge the Q/K split. In our runs TPOT has been reduced by 6.22% on DeepSeek-V3.",
            "In our runs TPOT has been reduced by 6.22% on DeepSeek-V3.",
        ),
        (
            "Testing on 800I A2, bubble is reduced from 3.8ms to 2.8ms.",
            "Testing on 800I A2, bubble is reduced from 3.8ms to 2.8ms.",
        ),
        ("Fuse the kernels, which gives a 1.5x speedup on decode.", None),
        ("升级后，TTFT p50 从 1.9 s 降到 0.9 s，吞吐基本不变。", None),
        ("这个 PR 让 decode 吞吐提升 30%。", None),
    ],
)
def test_a_stated_measured_change_is_found(body: str, expected: str | None) -> None:
    """The sentence is quoted whole, as written (`None`: the body is that one sentence)."""
    assert stated_effect(body, 200) == (expected or body)


@pytest.mark.parametrize(
    "body",
    [
        "Tested on a dataset with prompts ranging from 4k to 64k tokens.",
        "Bump the version 0.9.0 -> 0.9.1 in the docs.",
        "Increase the doctest timeout to 300s and print the time taken.",
        "Because `remainder = 512 % 128 = 0`, the length was wrong.",
        "| model | before | after |\n|---|---|---|\n| a | 10 ms | 8 ms |",
        "Method | TTFT | TPOT | Δ -- | -- | -- | 10 ms → 8 ms | 2 | 3",
        "Refactor the scheduler into two passes; no behaviour change.",
    ],
)
def test_ranges_versions_code_and_tables_are_no_effect(body: str) -> None:
    assert stated_effect(body, 200) == ""


def test_an_effect_already_quoted_beside_it_is_not_repeated() -> None:
    body = "Cuts p99 latency of preempted requests by 38% on long prompts."
    assert stated_effect(body, 200) == body
    assert stated_effect(body, 200, already=f"It says: {body}") == ""


def test_a_cut_that_loses_the_number_is_no_effect() -> None:
    body = (
        "Based on the actual test of the Qwen2.5 7B model in graph mode with a long list of "
        "settings that goes on and on, the TTFT, TPOT and throughput have increased by 20%."
    )
    assert stated_effect(body, 200).endswith("increased by 20%.")
    assert stated_effect(body, 80) == ""
