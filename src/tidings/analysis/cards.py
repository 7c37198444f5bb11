"""Compact, typed cards of the window's facts: the only thing the model ever reads.

A card holds an item's facts and bounded excerpts of what people wrote. Cards are JSON-ready
dicts with a stable order, so their hash (the cache key) changes exactly when their content does.

A PR card gives the model what a reviewer reads: the PR's description without its template,
ended at a sentence (facts/description.py); its most telling hunks, removed and added lines,
source before tests (facts/diff_excerpt.py); its biggest files with the counts of all, of those
not listed and of tests; and its author as a GitHub login (`author`, null when the store only
has a git display name, then given as `author_name`), so a login is never made of a name.
"""

from __future__ import annotations

import re
from typing import Any

from tidings.analysis.related_fields import (
    ending_entry,
    ending_logins,
    pick_review_notes,
    related_entries,
    review_entry,
)
from tidings.common.config import RepoConfig
from tidings.facts.activity_data import Comment, Item, WindowData
from tidings.facts.actors import is_bot, is_git_name
from tidings.facts.description import describe
from tidings.facts.diff_excerpt import CODE_LINE, diff_excerpt
from tidings.facts.discussions import Discussion
from tidings.facts.evidence import PREvidence
from tidings.facts.importance import Scored
from tidings.facts.patch import parse_patch
from tidings.facts.paths import PathKinds
from tidings.facts.risk import PRFile

# A PR's description: 1,200 characters hold 85% of vllm-ascend's 2,830 PR bodies of 2026 whole
# once the template is gone (the median is 355), and end the rest at a sentence; a lite card
# (the week's PRs no daily report carried) gets 500, which holds 61% whole.
BODY_CHARS = 1200
LITE_BODY_CHARS = 500
HOT_BODY_CHARS = 700  # the head of a hot thread's opening post
REVIEW_CHARS = 240
COMMENT_CHARS = 320
THREAD_BUDGET = 3500  # characters of comments per hot-thread card
MAX_FILES = 20
LITE_FILES = 8
# Diff evidence per PR card, bounded so a 9,000-line PR costs what a 90-line one does.
MAX_TAG_EVIDENCE = 3  # evidence entries per risk tag
HUNK_CONTEXT = 3  # added lines shown either side of a tag's evidence line
# The most telling hunks (removed and added lines): 2,000 characters are about 60 lines of
# code, the first hunk of four or five files at up to 12 lines a side; a lite card gets the
# first hunks of its one or two main files.
DIFF_CHARS = 2000
LITE_DIFF_CHARS = 600
THREAD_TEXT = 280
MAX_CARD_THREADS = 4

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def trim(text: str | None, limit: int) -> str:
    """Whitespace collapsed, HTML comments (PR templates) removed, cut at a word."""
    flat = " ".join(_HTML_COMMENT.sub(" ", text or "").split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return (cut if len(cut) > limit // 2 else flat[:limit]) + " …"


def pr_card(
    data: WindowData,
    item: Item,
    scored: Scored | None,
    evidence: PREvidence | None = None,
    *,
    paths: PathKinds,
    lite: bool = False,
) -> dict[str, Any]:
    """A PR's card. `lite`: the week's other merged PRs (no daily report carries them), which
    get a one-line summary each from a shorter card, so a 300-PR week stays cheap. `paths`
    tells the repository's tests and core code from the rest (the diff's order, the counts)."""
    files = sorted(
        data.files.get(item.number, []),
        key=lambda f: (-(f.additions + f.deletions), f.path),
    )
    listed = files[: LITE_FILES if lite else MAX_FILES]
    reviews = [c for c in data.activity_on(item.number) if c.kind in ("review", "review_comment")]
    reviews = [c for c in reviews if c.body.strip() or c.review_state]
    return {
        "number": item.number,
        "title": item.title,
        "state": "draft" if item.draft and item.state == "open" else item.display_state,
        **author_fields(item),
        "labels": list(item.labels),
        "size": {
            "additions": item.additions,
            "deletions": item.deletions,
            "changed_files": item.changed_files,
            # `files` lists the biggest; these say what the list leaves out.
            "files_listed": len(listed),
            "files_not_listed": max(item.changed_files, len(files)) - len(listed),
            "test_files": sum(1 for f in files if paths.is_test(f.path)),
        },
        "files": [
            {"path": f.path, "additions": f.additions, "deletions": f.deletions} for f in listed
        ],
        "body": describe(item.body, LITE_BODY_CHARS if lite else BODY_CHARS),
        "signals": {
            "importance": scored.score if scored else None,
            "importance_parts": dict(scored.parts) if scored else {},
            "closes_issues": sorted(data.closes.get(item.number, [])),
            "merged_in_window": data.in_window(item.merged_at),
        },
        "related": related_entries(data, item.number, lite=lite),
        "reviews": [
            {
                "login": c.author,
                "state": c.review_state,
                "text": trim(c.body, REVIEW_CHARS),
            }
            for c in reviews[-2 if lite else -4 :]
        ],
        **evidence_fields(evidence, paths, diff_chars=LITE_DIFF_CHARS if lite else DIFF_CHARS),
    }


def author_fields(item: Item) -> dict[str, Any]:
    """Who opened the item: `author`, a GitHub login (null when unknown), and, for an item
    read from a git history, `author_name`: the commit's display name, which is no login."""
    if is_git_name(item.author_type):
        return {"author": None, "author_name": item.author}
    return {"author": item.author}


def evidence_fields(
    evidence: PREvidence | None, paths: PathKinds | None = None, *, diff_chars: int = DIFF_CHARS
) -> dict[str, Any]:
    """The card's evidence: risk tags with the added lines around each flagged line, the
    PR's most telling hunks (`diff`, given `paths` and room) and its inline review threads.
    Code and thread text are untrusted (the guard treats `code`, `hunk`, `removed`, `added`
    and `text` as quotes)."""
    if evidence is None:
        return {"risk_tags": [], "diff": [], "review_threads": []}
    files = list(evidence.merged.files) if evidence.merged is not None else []
    patches = {f.path: _added(f) for f in files if f.patch}
    tags = []
    for tag in evidence.tags:
        entries: list[dict[str, Any]] = []
        for e in tag.evidence[:MAX_TAG_EVIDENCE]:
            entry: dict[str, Any] = {"path": e.path} if e.path else {}
            if e.numbers:
                entry["numbers"] = dict(e.numbers)
            if e.line:
                entry["code"] = _code(e.line)
                hunk = _around(patches.get(e.path or "", []), e.line)
                if hunk:
                    entry["hunk"] = hunk
            entries.append(entry)
        tags.append({"tag": tag.tag, "evidence": entries})
    threads = [
        {
            "login": t.login,
            "bot": t.bot,
            "path": t.path,
            "line": t.line if t.line is not None else t.original_line,
            # False: no later commit changed the lines the comment is on (see facts/threads.py)
            "outdated": t.outdated,
            "replies": t.replies,
            "author_replied": t.author_replied,
            # From the GitHub sync's details; None where not known (a git-only store).
            "resolved": t.resolved,
            "commits_after": t.commits_after,
            "hunk": [_code(x) for x in t.hunk_tail],
            "text": trim(t.body, THREAD_TEXT),
        }
        for t in evidence.threads[:MAX_CARD_THREADS]
    ]
    hunks = diff_excerpt(files, paths, diff_chars) if paths is not None else []
    return {
        "risk_tags": tags,
        "diff": [
            {"path": h.path, "removed": list(h.removed), "added": list(h.added)} for h in hunks
        ],
        "review_threads": threads,
    }


def _added(f: PRFile) -> list[str]:
    """The file's added lines: its hunks' `+` lines without the sign (headers and removed
    lines are no code the PR brings), or, in rows an older git sync wrote, the lines as kept."""
    diff = parse_patch(f.patch)
    return list(diff.added) if diff is not None else []


def _code(line: str) -> str:
    flat = line.rstrip()
    return flat if len(flat) <= CODE_LINE else flat[:CODE_LINE] + " …"


def _around(lines: list[str], wanted: str) -> list[str]:
    """The added lines around the first one that reads `wanted` (stripped)."""
    target = wanted.strip()
    for k, line in enumerate(lines):
        if line.strip() == target:
            lo, hi = max(0, k - HUNK_CONTEXT), k + HUNK_CONTEXT + 1
            return [_code(x) for x in lines[lo:hi] if x.strip()]
    return []


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
        **author_fields(item),
        "labels": list(item.labels),
        "body_head": trim(item.body, HOT_BODY_CHARS),
        "comments_in_window": d.comments,
        "reactions": d.reactions,
        # Linked and named items the store holds, with title and state (analysis/related_fields).
        "related": related_entries(data, d.number),
        "ending": ending_entry(data, d.number),
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
        # A PR's review record, before the window too, less what `comments` already shows.
        "review_comments": [
            review_entry(n, trim(n.body, REVIEW_CHARS))
            for n in pick_review_notes(d.review_notes, {(c.kind, c.id) for c in picked})
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
    for key in ("reviews", "participants", "comments", "review_threads", "review_comments"):
        logins |= {x.get("login") for x in card.get(key, [])}
    logins |= ending_logins(card)
    return {x for x in logins if x}


def pr_source(item: Item, evidence: PREvidence | None) -> dict[str, Any]:
    """What a PR's card was cut from: its whole description and every removed and added line
    the store holds. Never sent to the model; the guard reads it to tell a true quote or
    figure of the PR (a line the card left out) from an invented one."""
    code: list[str] = []
    files = list(evidence.merged.files) if evidence is not None and evidence.merged else []
    for f in files:
        diff = parse_patch(f.patch)
        if diff is not None:
            code += [x for x in (*diff.removed, *diff.added) if x.strip()]
    return {"body": item.body or "", "code": code}
