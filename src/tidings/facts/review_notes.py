"""What reviewers said on a PR over its whole life up to a window's end: reviews with a body
or a verdict, and inline review comments with their file and line.

A hot PR thread is often argued in review before the window (changes requested the day
before, answered today): the window's own activity shows only the answer. People only: bots'
reviews are left out, as from the hot discussion itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from sqlalchemy.engine import Connection

from tidings.facts.actors import is_bot
from tidings.facts.roles import Role, Roles
from tidings.store.comments import review_record

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


def load_review_notes(
    conn: Connection,
    repo_id: int,
    numbers: Iterable[int],
    before: datetime,
    roles: Roles,
    bots: Iterable[str] = (),
) -> dict[int, list[ReviewNote]]:
    """Each PR's review notes made before `before`, oldest first (PRs with none are absent)."""
    bots = list(bots)
    reviews, comments = review_record(conn, repo_id, numbers, before)
    out: dict[int, list[ReviewNote]] = {}
    for row in reviews:
        body = row["body"] or ""
        if is_bot(row["author"], row["author_type"], bots):
            continue
        if not body.strip() and row["state"] not in VERDICTS:
            continue  # a bare "commented" review is the envelope of inline comments
        said = roles.of(row["author"], row["author_type"], row["author_association"])
        out.setdefault(row["number"], []).append(
            ReviewNote(
                id=row["id"],
                number=row["number"],
                kind="review",
                login=row["author"],
                role=said.role,
                created_at=row["submitted_at"],
                body=body,
                state=row["state"],
            )
        )
    for row in comments:
        body = row["body"] or ""
        if not body.strip() or is_bot(row["author"], row["author_type"], bots):
            continue
        said = roles.of(row["author"], row["author_type"], row["author_association"])
        out.setdefault(row["number"], []).append(
            ReviewNote(
                id=row["id"],
                number=row["number"],
                kind="inline",
                login=row["author"],
                role=said.role,
                created_at=row["created_at"],
                body=body,
                path=row["path"],
                line=row["line"] if row["line"] is not None else row["original_line"],
                reply=row["in_reply_to_id"] is not None,
            )
        )
    for notes in out.values():
        notes.sort(key=lambda n: (n.created_at, n.kind, n.id))
    return out
