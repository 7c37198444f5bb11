"""Which issues and PRs of the same repository an item names in its title or body.

Read: `#N`, `owner/repo#N` and links to `…/owner/repo/pull/N` or `…/issues/N` of this
repository. Not read: another repository's `other/repo#N` or links, anything inside code
(fenced blocks, inline code) or HTML comments (PR templates), and a colour or anchor such as
`#fff` or `#L12`. A name right after a closing word ("Fixes #12", "closes: #12") is marked,
because the text says the item fixes that one; whether GitHub linked them is the store's
closing references, read elsewhere.

Pure text functions: the store decides which of the names are real items (facts/related.py
keeps only those).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_MENTIONS = 40  # per item: a changelog PR can name hundreds; the first ones are the point

_HIDDEN = re.compile(r"<!--.*?-->|```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)|`[^`\n]*`", re.DOTALL)
_HASH = re.compile(r"(?<![\w/#&.-])#(\d{1,9})(?![\w-])")
_FIX_WORD = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Mention:
    number: int
    fixes: bool  # named after a closing word: the text says this item fixes it


def _same_repo(repo: str) -> re.Pattern[str]:
    owner_repo = re.escape(repo)
    return re.compile(
        rf"(?<![\w/.-]){owner_repo}#(\d{{1,9}})(?![\w-])"
        rf"|https?://[^\s/]+/{owner_repo}/(?:pull|issues)/(\d{{1,9}})(?![\w-])",
        re.IGNORECASE,
    )


def mentions(title: str, body: str | None, repo: str, own: int | None = None) -> list[Mention]:
    """The items `title` and `body` name, in the order they first appear (title first),
    without the item's own number `own`; at most MAX_MENTIONS."""
    found: dict[int, bool] = {}
    same = _same_repo(repo)
    for text in (title, body or ""):
        visible = _HIDDEN.sub(" ", text)
        hits = [(m.start(), int(m.group(1))) for m in _HASH.finditer(visible)]
        hits += [(m.start(), int(m.group(1) or m.group(2))) for m in same.finditer(visible)]
        for start, number in sorted(hits):
            if number == own or number == 0:
                continue
            fixes = _FIX_WORD.search(visible[max(0, start - 24) : start]) is not None
            if number not in found and len(found) >= MAX_MENTIONS:
                continue
            found[number] = found.get(number, False) or fixes
    return [Mention(n, fixes) for n, fixes in found.items()]
