"""When may a sync believe that something it holds is gone from GitHub?

GitHub never says "deleted"; the sync infers it from absence — a stored row no longer in a
listing. Absence is the weakest evidence there is: a short or corrupted answer looks exactly like
a mass deletion. So a listing only proves rows gone when it is

1. **complete** — every page read, each one well-formed (shapes.py saw to that);
2. **consistent** — it holds exactly as many rows as GitHub's own count for it (`totalCount`,
   an item's `comments`), so a listing cut short by a glitch or a race is not trusted;
3. **plausible** — it does not make more than half of what we hold vanish at once (beyond a
   handful): a repository losing every issue, or a thread losing 150 comments in one sync, is
   far more likely a broken answer than a real event. Such a verdict is refused with a note;
   the rows stay and the next sync looks again.

Rows are only ever *marked* deleted, never removed, so even a wrong verdict can be undone by a
later sync that sees them again.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

# Losing up to this many rows at once is never suspicious on its own (spam clean-ups are real).
SMALL_LOSS = 10
# Beyond SMALL_LOSS, losing more than this share of what we hold is refused.
SUSPICIOUS_SHARE = 0.5


@dataclass
class Verdict(Generic[K]):
    gone: list[K] = field(default_factory=list)  # rows the listing proves deleted
    refused: str | None = None  # why rows missing from the listing were kept, for the notes


def proven_gone(
    stored: Iterable[K],
    listed: Collection[K],
    *,
    what: str,
    complete: bool = True,
    expected: int | None = None,
) -> Verdict[K]:
    """Which `stored` keys the `listed` keys prove deleted (see the module docstring).

    `expected` is GitHub's own count for the listing (None when it gives none); `what` names
    the rows for the note, e.g. "comments of #12".
    """
    held = list(stored)
    missing = [key for key in held if key not in listed]
    if not missing:
        return Verdict()
    keep = f"kept {len(missing)} {what} missing from GitHub's answer"
    if not complete:
        return Verdict(refused=f"{keep}: the listing was incomplete")
    if expected is not None and len(listed) != expected:
        return Verdict(
            refused=f"{keep}: it listed {len(listed)} but GitHub counts {expected}; "
            "the next sync checks again"
        )
    if len(missing) > SMALL_LOSS and len(missing) > SUSPICIOUS_SHARE * len(held):
        return Verdict(
            refused=f"{keep}: {len(missing)} of {len(held)} vanishing at once looks like a "
            "broken answer, not deletions; the next sync checks again"
        )
    return Verdict(gone=missing)
