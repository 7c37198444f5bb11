"""Compact, typed cards of the window's facts: the only thing the model ever reads.

A card holds an item's facts and bounded excerpts of what people wrote. Cards are JSON-ready
dicts with a stable order, so their hash (the cache key) changes exactly when their content does.
"""

from __future__ import annotations

import re
from typing import Any

from tidings.config import RepoConfig
from tidings.facts.activity_data import Comment, Item, WindowData
from tidings.facts.actors import is_bot
from tidings.facts.discussions import Discussion
from tidings.facts.importance import Scored

BODY_CHARS = 700
REVIEW_CHARS = 240
COMMENT_CHARS = 320
THREAD_BUDGET = 3500  # characters of comments per hot-thread card
MAX_FILES = 20

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def trim(text: str | None, limit: int) -> str:
    """Whitespace collapsed, HTML comments (PR templates) removed, cut at a word."""
    flat = " ".join(_HTML_COMMENT.sub(" ", text or "").split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return (cut if len(cut) > limit // 2 else flat[:limit]) + " …"


def pr_card(data: WindowData, item: Item, scored: Scored | None) -> dict[str, Any]:
    files = sorted(
        data.files.get(item.number, []),
        key=lambda f: (-(f.additions + f.deletions), f.path),
    )
    reviews = [c for c in data.activity_on(item.number) if c.kind in ("review", "review_comment")]
    reviews = [c for c in reviews if c.body.strip() or c.review_state]
    return {
        "number": item.number,
        "title": item.title,
        "state": "draft" if item.draft and item.state == "open" else item.display_state,
        "author": item.author,
        "labels": list(item.labels),
        "size": {
            "additions": item.additions,
            "deletions": item.deletions,
            "changed_files": item.changed_files,
        },
        "files": [
            {"path": f.path, "additions": f.additions, "deletions": f.deletions}
            for f in files[:MAX_FILES]
        ],
        "body": trim(item.body, BODY_CHARS),
        "signals": {
            "importance": scored.score if scored else None,
            "importance_parts": dict(scored.parts) if scored else {},
            "closes_issues": sorted(data.closes.get(item.number, [])),
            "merged_in_window": data.in_window(item.merged_at),
        },
        "reviews": [
            {
                "login": c.author,
                "state": c.review_state,
                "text": trim(c.body, REVIEW_CHARS),
            }
            for c in reviews[-4:]
        ],
    }


def hot_card(data: WindowData, d: Discussion, repo: RepoConfig) -> dict[str, Any]:
    item = data.items[d.number]
    roles = {p.login: p.role for p in d.participants}
    human = [
        c
        for c in data.activity_on(d.number)
        if not is_bot(c.author, c.author_type, repo.bots) and c.body.strip()
    ]
    picked = _thread_excerpt(human)
    return {
        "number": item.number,
        "kind": "pr" if item.kind == "pr" else "issue",
        "title": item.title,
        "state": "draft" if item.draft and item.state == "open" else item.display_state,
        "author": item.author,
        "labels": list(item.labels),
        "body_head": trim(item.body, BODY_CHARS),
        "comments_in_window": d.comments,
        "reactions": d.reactions,
        "linked": sorted(set(data.closes.get(d.number, []) + data.closed_by.get(d.number, []))),
        "participants": [
            {"login": p.login, "role": p.role, "comments": len(p.comments)} for p in d.participants
        ],
        "comments": [
            {
                "login": c.author,
                "role": roles.get(c.author, "user"),
                "reactions": c.reactions,
                "review_state": c.review_state,
                "text": trim(c.body, COMMENT_CHARS),
            }
            for c in picked
        ],
    }


def _thread_excerpt(comments: list[Comment]) -> list[Comment]:
    """The newest and the most-reacted comments, in thread order, within THREAD_BUDGET."""
    if not comments:
        return []
    by_reactions = sorted(comments, key=lambda c: (-c.reactions, c.created_at))
    newest = list(reversed(comments))
    chosen: dict[int, Comment] = {}
    used = 0
    # Alternate: newest first (the state of the argument), then the best-received ones.
    for pair in zip(newest, by_reactions, strict=False):
        for c in pair:
            if c.id in chosen:
                continue
            cost = min(len(c.body), COMMENT_CHARS) + 40
            if used + cost > THREAD_BUDGET:
                break
            chosen[c.id] = c
            used += cost
    return sorted(chosen.values(), key=lambda c: (c.created_at, c.id))


def card_logins(card: dict[str, Any]) -> set[str]:
    logins = {card.get("author")}
    for key in ("reviews", "participants", "comments"):
        logins |= {x.get("login") for x in card.get(key, [])}
    return {x for x in logins if x}
