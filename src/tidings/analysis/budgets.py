"""How much the model is asked at once and may write back: cards per map call, completion
tokens per answer, items per section's facts."""

from __future__ import annotations

BATCH_CHARS = 14_000  # card characters per map call: ~4k tokens in, well inside 32k contexts
MAX_PER_BATCH = 12
LITE_BATCH = 20  # lite cards (the week's other merged PRs) per map call
# Completion tokens allowed per answer, sized to what a capable model wrote for these prompts
# in zh (../shared/data/model-eval: the vllm-ascend 2026-W33 weekly and the demo's 2026-03-04
# daily, first and rewritten answers; tokens as UTF-8 bytes / 4 of each answer's JSON, as the
# provider estimates them): at least 1.5 times the longest, since Chinese with English
# identifiers costs a real tokenizer up to a third more than that estimate and a card with more
# evidence draws a longer answer. A batch adds 100 for its wrapper (6 measured).
ITEM_TOKENS = 380  # per PR card answer: longest 253 (was 220, which cut real answers short)
HOT_TOKENS = 1080  # per hot-thread card answer: longest 719 (was 600)
SECTION_TOKENS = 400  # a section's text: longest 214 (the daily summary)
WEEKLY_TOKENS = {  # completion tokens of a weekly section answer (lists are longer)
    "weekly_highlights": 1400,  # the whole answer: longest 795
    "weekly_risks": 290,  # per PR: longest 187
    "weekly_themes": 210,  # per theme: longest 140
    "weekly_follow_ups": 190,  # per group: longest 124
    "weekly_tracks": 210,  # per track or listed item: none recorded; a theme's length
}
BATCH_WRAPPER_TOKENS = 100  # a batch answer's wrapper around its items
MAX_SECTION_ITEMS = 25  # items listed in one section's facts (a week's topic can hold hundreds)
