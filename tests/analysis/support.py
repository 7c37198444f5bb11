"""What the weekly model tests share, kept apart from the test modules: test_weekly_sections
imports test_weekly_llm's helpers, so a list the two share living in either would make them
import each other."""

from __future__ import annotations

# The week's own model tasks, one per section (the per-PR cards, `pr_cards`, are the daily's).
WEEKLY_TASKS = (
    "weekly_highlights",
    "weekly_risks",
    "weekly_exec",
    "weekly_themes",
    "weekly_trends",
    "weekly_follow_ups",
    "weekly_tracks",
    "weekly_summary",
)
