"""Where each item stands in time: its number, when it opens, merges and closes, its head SHA,
and its text with references to other items resolved."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from demo_sample.model import Item, Story, StoryError
from demo_sample.stamps import at, digest

_REF = re.compile(r"\{(#|n:)(\w+)\}")
# An issue a PR closes closes just after the merge, as GitHub does it.
CLOSED_AFTER_MERGE = timedelta(seconds=2)


class Timeline:
    def __init__(self, story: Story) -> None:
        self.frame = story.frame
        self.by_key = {it.key: it for it in story.items}
        self.created = {it.key: self.at(it.at, it.key) for it in story.items}
        self.numbers = self._numbers(story.items)
        self.merged_at = {
            it.key: self.at(it.merged, it.key + "/merged") for it in story.items if it.merged
        }
        self.head_sha = {
            it.key: digest(self.frame.repository, it.key, "head")
            for it in story.items
            if it.kind == "pr"
        }

    def at(self, stamp: str, salt: str) -> datetime:
        return at(stamp, salt, self.frame)

    def closed_at(self, it: Item) -> datetime | None:
        if it.closed is None:
            return None
        if it.closed.startswith("@"):
            return self.merged_at[it.closed[1:]] + CLOSED_AFTER_MERGE
        if it.merged:
            return self.merged_at[it.key]
        return self.at(it.closed, it.key + "/closed")

    def text(self, value: str, when: datetime, where: str) -> str:
        """`value` with `{#key}` as `#N` and `{n:key}` as N; a key must exist by `when`."""

        def sub(m: re.Match[str]) -> str:
            key = m[2]
            if key not in self.numbers:
                raise StoryError(f"{where}: unknown reference {{{m[1]}{key}}}")
            if self.created[key] > when:
                raise StoryError(f"{where}: refers to {key}, which does not exist yet at {when}")
            return f"#{self.numbers[key]}" if m[1] == "#" else str(self.numbers[key])

        return _REF.sub(sub, value)

    def _numbers(self, items: list[Item]) -> dict[str, int]:
        """Numbers in creation order from the frame's first, or the item's own if it has one."""
        ordered = sorted(items, key=lambda it: self.created[it.key])
        numbers: dict[str, int] = {}
        nxt = self.frame.first_number
        last = 0
        for before, it in zip([None, *ordered], ordered, strict=False):
            if before and self.created[before.key] == self.created[it.key]:
                raise StoryError(f"{before.key} and {it.key} open at the same second")
            if it.number is not None:
                numbers[it.key] = it.number
            else:
                numbers[it.key] = nxt
                nxt += 1
            if numbers[it.key] <= last:
                raise StoryError(f"{it.key}: numbers must grow with creation time")
            last = numbers[it.key]
        return numbers


class Activity:
    """The latest moment anything happened on each item: its `updated_at`."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.latest: dict[str, datetime] = {}

    def touch(self, it: Item, when: datetime) -> None:
        if when < self.timeline.created[it.key]:
            raise StoryError(f"{it.key}: activity at {when} before the item was created")
        self.latest[it.key] = max(self.latest.get(it.key, when), when)
