"""The issues and PRs related to an item, and how an item's thread ended: pure functions over
a window's rows (`WindowData`), which hold the window's items, the items they link to and the
items they name (facts/activity_data.py).

An item is related to another that exists in the store and that it reverts or is reverted
by, closes or is closed by (GitHub's closing references), says it fixes or is said to fix,
names as `#N` in its title or body, or that a later PR of the window names (a follow-up).
A `#N` naming nothing the store holds is no related item: a report cannot say what it is.

Only the window's items are read for the reverse relations (who reverts, fixes or names
this item): a follow-up from a later window is in that window's report.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, get_args

from tidings.facts.activity_data import Item, WindowData

# Most relevant first: a revert or a closing link says more than a name in passing.
Relation = Literal[
    "reverts",
    "reverted_by",
    "closes",
    "closed_by",
    "fixes",
    "fixed_by",
    "follow_up",
    "mentions",
    "mentioned_by",
]
RELATIONS: tuple[Relation, ...] = get_args(Relation)
_RANK = {r: k for k, r in enumerate(RELATIONS)}
MAX_RELATED = 8
TITLE_CHARS = 200
# An issue closed this soon after a closing PR merged was closed by that merge.
CLOSED_BY_MERGE = timedelta(minutes=10)

ShownState = Literal["open", "draft", "closed", "merged"]


def shown_state(item: Item) -> ShownState:
    """An item's state as cards give it: a merged PR is "merged", an open draft "draft"."""
    return "draft" if item.draft and item.state == "open" else item.display_state


@dataclass(frozen=True, slots=True)
class Related:
    number: int
    kind: Literal["pr", "issue"]
    title: str
    state: ShownState
    relation: Relation  # what `number` is to the item asked about


def _entry(item: Item, relation: Relation) -> Related:
    title = item.title if len(item.title) <= TITLE_CHARS else item.title[:TITLE_CHARS] + " …"
    return Related(
        number=item.number,
        kind="pr" if item.kind == "pr" else "issue",
        title=title,
        state=shown_state(item),
        relation=relation,
    )


def related(data: WindowData, number: int, limit: int = MAX_RELATED) -> list[Related]:
    """The items the store holds that are related to item `number`, most relevant relation
    first (then in the order found: the item's own text in order, then the window's items
    by number); each item once, under its most relevant relation; at most `limit`."""
    found: dict[int, Relation] = {}

    def add(other: int, relation: Relation) -> None:
        if other == number or data.known(other) is None:
            return
        held = found.get(other)
        if held is None or _RANK[relation] < _RANK[held]:
            found[other] = relation

    me = data.known(number)
    target = data.reverts.get(number)
    if target is not None:
        add(target, "reverts")
    for revert, undone in sorted(data.reverts.items()):
        if undone == number:
            add(revert, "reverted_by")
    for issue in data.closes.get(number, []):
        add(issue, "closes")
    for pr in data.closed_by.get(number, []):
        add(pr, "closed_by")
    for m in data.mentions.get(number, []):
        add(m.number, "fixes" if m.fixes else "mentions")
    for other, names in sorted(data.mentions.items()):
        for m in names:
            if m.number != number:
                continue
            namer = data.items[other]
            if m.fixes:
                add(other, "fixed_by")
            # GitHub numbers issues and PRs from one sequence as they are opened: a higher
            # number was opened later, which every source knows (a git clone has no open time).
            elif namer.kind == "pr" and me is not None and namer.number > me.number:
                add(other, "follow_up")
            else:
                add(other, "mentioned_by")
    order = {n: k for k, n in enumerate(found)}
    ranked = sorted(found, key=lambda n: (_RANK[found[n]], order[n]))
    return [_entry(known, found[n]) for n in ranked[:limit] if (known := data.known(n))]


@dataclass(frozen=True, slots=True)
class Ending:
    """Where an item's thread stands: its state and, once closed, when, by whom and through
    which PR, as far as the store knows."""

    state: ShownState
    at: datetime | None  # when it was merged or closed
    # Who merged the PR. The store keeps no closer of an issue or of an unmerged PR.
    by: str | None
    reason: str | None  # an issue's state reason as GitHub gives it ("completed", "not_planned")
    closed_by_pr: Related | None  # the closing PR whose merge closed the issue


def ending(data: WindowData, number: int) -> Ending:
    item = data.known(number)
    if item is None:
        raise KeyError(number)
    state = shown_state(item)
    if state in ("open", "draft"):
        return Ending(state, None, None, None, None)
    if state == "merged":
        return Ending(state, item.merged_at or item.closed_at, item.merged_by, None, None)
    return Ending(
        state,
        item.closed_at,
        None,
        item.state_reason if item.kind != "pr" else None,
        _closing_pr(data, item),
    )


def _closing_pr(data: WindowData, issue: Item) -> Related | None:
    """The merged closing PR whose merge closed the issue: one merged within CLOSED_BY_MERGE
    of the issue's closing (the last, if several). None when no closing PR merged, or the
    issue was closed apart from any such merge (by hand, days later)."""
    if issue.closed_at is None:
        return None
    merged = [
        pr
        for n in data.closed_by.get(issue.number, [])
        if (pr := data.known(n)) is not None
        and pr.merged_at is not None
        and issue.closed_at - CLOSED_BY_MERGE <= pr.merged_at <= issue.closed_at + CLOSED_BY_MERGE
    ]
    if not merged:
        return None
    last = max(merged, key=lambda pr: (pr.merged_at, pr.number))
    return _entry(last, "closed_by")
