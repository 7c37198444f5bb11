"""Card fields for an item's related items, its review record and how its thread ended, from
facts/related.py and facts/review_notes.py.

Every related entry is an item the store holds, with a `number` the guard lets the model cite
(analyst.py `_numbers_in` reads it); a `#N` that only someone's text names stays theirs.
"""

from __future__ import annotations

from typing import Any

from tidings.facts.activity_data import WindowData
from tidings.facts.related import MAX_RELATED, Related, ending, related
from tidings.facts.review_notes import ReviewNote

LITE_RELATED = 4  # on the week's lite cards
MAX_REVIEW_NOTES = 8  # per hot PR thread: the first points raised and the latest word


def related_entries(data: WindowData, number: int, *, lite: bool = False) -> list[dict[str, Any]]:
    """The `related` field: number, kind, title, state and relation of each related item."""
    return [_entry(r) for r in related(data, number, LITE_RELATED if lite else MAX_RELATED)]


def _entry(r: Related) -> dict[str, Any]:
    return {
        "number": r.number,
        "kind": r.kind,
        "title": r.title,
        "state": r.state,
        "relation": r.relation,
    }


def ending_entry(data: WindowData, number: int) -> dict[str, Any]:
    """The `ending` field: the thread's state and, once closed, when, who merged it (a PR) or
    the merged PR that closed it and who merged that (an issue) and GitHub's reason, where the
    store knows them."""
    end = ending(data, number)
    out: dict[str, Any] = {"state": end.state}
    if end.at is not None:
        out["at"] = end.at.strftime("%Y-%m-%dT%H:%MZ")
    if end.by:
        out["merged_by"] = end.by
    if end.reason:
        out["reason"] = end.reason
    if end.closed_by_pr is not None:
        pr = _entry(end.closed_by_pr)
        del pr["relation"]
        merger = data.known(end.closed_by_pr.number)
        if merger is not None and merger.merged_by:
            pr["merged_by"] = merger.merged_by  # whose merge closed the issue
        out["closed_by_pr"] = pr
    return out


def ending_logins(card: dict[str, Any]) -> set[str]:
    """The logins a card's `ending` names (who merged the PR, or the PR that closed it)."""
    end = card.get("ending") or {}
    found = {end.get("merged_by"), (end.get("closed_by_pr") or {}).get("merged_by")}
    return {x for x in found if isinstance(x, str) and x}


def pick_review_notes(notes: list[ReviewNote], shown: set[tuple[str, int]]) -> list[ReviewNote]:
    """The notes a card does not already carry among its comments, at most MAX_REVIEW_NOTES:
    the first ones (the points raised) and the last ones (where review stands), in order."""
    left = [n for n in notes if n.source not in shown]
    if len(left) <= MAX_REVIEW_NOTES:
        return left
    head = MAX_REVIEW_NOTES // 2
    return left[:head] + left[len(left) - (MAX_REVIEW_NOTES - head) :]


def review_entry(note: ReviewNote, text: str) -> dict[str, Any]:
    """A `review_comments` entry: who (login and role), what kind, when, a review's verdict or
    an inline comment's file and line, and `text` (the note's body as the card cuts it)."""
    out: dict[str, Any] = {
        "login": note.login,
        "role": note.role,
        "kind": note.kind,
        "at": note.created_at.strftime("%Y-%m-%d"),
    }
    if note.kind == "review":
        out["state"] = note.state
    else:
        out |= {"path": note.path, "line": note.line, "reply": note.reply}
    return out | {"text": text}
