"""What reviewers said on a PR over its whole life up to a window's end: reviews with a body
or a verdict, and inline review comments with their file and line.

A hot PR thread is often argued in review before the window (changes requested the day
before, answered today): the window's own activity shows only the answer. People only: bots'
reviews are left out, as from the hot discussion itself. facts/load/reviews.py reads the
record.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from tidings.facts.activity_data import Comment
from tidings.facts.actors import is_bot
from tidings.facts.roles import Role, Roles
from tidings.facts.threads import InlineComment

# Review states that are a verdict worth listing without a body.
VERDICTS = frozenset({"APPROVED", "CHANGES_REQUESTED"})


@dataclass(frozen=True, slots=True)
class ReviewNote:
    id: int
    number: int  # the PR
    kind: Literal["review", "inline"]
    login: str | None
    role: Role
    created_at: datetime
    body: str  # untrusted
    state: str | None = None  # a review's verdict ("APPROVED", "CHANGES_REQUESTED", ...)
    path: str | None = None  # an inline comment's file
    line: int | None = None  # its line (the original one once outdated)
    reply: bool = False  # an inline comment answering another

    @property
    def source(self) -> tuple[str, int]:
        """The row it came from, as (the activity kind of facts/activity_data.py, id)."""
        return ("review" if self.kind == "review" else "review_comment", self.id)


def review_notes(
    reviews: Iterable[Comment],
    comments: Iterable[InlineComment],
    roles: Roles,
    bots: Iterable[str] = (),
) -> dict[int, list[ReviewNote]]:
    """Each PR's review notes among its reviews and inline review comments, oldest first (PRs
    with none are absent)."""
    bots = list(bots)
    out: dict[int, list[ReviewNote]] = {}
    for review in reviews:
        if is_bot(review.author, review.author_type, bots):
            continue
        if not review.body.strip() and review.review_state not in VERDICTS:
            continue  # a bare "commented" review is the envelope of inline comments
        said = roles.of(review.author, review.author_type, review.author_association)
        out.setdefault(review.number, []).append(
            ReviewNote(
                id=review.id,
                number=review.number,
                kind="review",
                login=review.author,
                role=said.role,
                created_at=review.created_at,
                body=review.body,
                state=review.review_state,
            )
        )
    for comment in comments:
        body = comment.body or ""
        if not body.strip() or is_bot(comment.author, comment.author_type, bots):
            continue
        said = roles.of(comment.author, comment.author_type, comment.author_association)
        out.setdefault(comment.number, []).append(
            ReviewNote(
                id=comment.id,
                number=comment.number,
                kind="inline",
                login=comment.author,
                role=said.role,
                created_at=comment.created_at,
                body=body,
                path=comment.path,
                line=comment.line if comment.line is not None else comment.original_line,
                reply=comment.in_reply_to_id is not None,
            )
        )
    for notes in out.values():
        notes.sort(key=lambda n: (n.created_at, n.kind, n.id))
    return out
