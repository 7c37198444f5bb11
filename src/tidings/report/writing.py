"""What the daily and the weekly writer share: a slot's text, the model's where it passed
validation and the rules' otherwise, and an item cited the way every report cites it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from tidings.facts.activity_data import Item
from tidings.facts.actors import is_bot, is_git_name
from tidings.facts.slots import Slot
from tidings.report.model import ItemRef, Prose

if TYPE_CHECKING:  # the analysis package loads the model client: only type checkers import it
    from tidings.analysis.result import Analysis


class SlotText:
    """A writer's access to the model's validated texts (None: no model ran)."""

    texts: Analysis | None

    def prose(self, slot: Slot, fallback: str, refs: Iterable[int] = ()) -> Prose:
        """The model's validated text for a slot when there is one, else the rules' text;
        `refs`, the items the rules' text cites by number of its own accord (not in a quote)."""
        text = self.texts.text(slot) if self.texts is not None else None
        if text:
            return Prose(text=text, by="llm")
        return Prose(text=fallback, refs=sorted(set(refs)))

    def llm_only(self, slot: Slot) -> Prose | None:
        text = self.texts.text(slot) if self.texts is not None else None
        return Prose(text=text, by="llm") if text else None


def item_ref(item: Item, repo: str, web_url: str, bots: Iterable[str]) -> ItemRef:
    """An issue or PR of the window's data as a link; a git author's name stays plain text."""
    path = "pull" if item.kind == "pr" else "issues"
    git = is_git_name(item.author_type)
    return ItemRef(
        number=item.number,
        kind="pr" if item.kind == "pr" else "issue",
        title=item.title,
        url=f"{web_url}/{repo}/{path}/{item.number}",
        state=item.display_state,
        draft=item.draft,
        author=None if git else item.author,
        author_is_bot=is_bot(item.author, item.author_type, bots),
        labels=list(item.labels),
        author_name=item.author if git else None,
    )
