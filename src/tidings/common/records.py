"""Normalised records: the one shape every source produces and the store and snapshots hold.

These models are the snapshot format (see docs/snapshot.md). Sources fill them, the store
persists them column for column, and `tidings export` writes them back out unchanged. One
record is no snapshot record: `PRDetails`, the columns a PR's GraphQL details update. Times are
timezone-aware UTC datetimes with second precision, as GitHub reports them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from datetime import UTC, datetime
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from tidings.common.names import is_repo_name


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    if value.tzinfo is None:
        raise ValueError("timestamp must carry a timezone (e.g. 2026-02-24T03:31:00Z)")
    try:
        return value.astimezone(UTC).replace(microsecond=0)
    except OverflowError:
        # 9999-12-31T23:59:59-01:00 is in year 10000 in UTC: a ValueError lets the caller
        # name the field, where an OverflowError would escape as a traceback.
        raise ValueError(f"timestamp {value.isoformat()} is out of range") from None


UTCTime = Annotated[datetime, AfterValidator(_utc)]
OptUTCTime = Annotated[datetime | None, AfterValidator(_utc)]


def _sorted_keys(value: dict[str, int]) -> dict[str, int]:
    # One canonical order: PostgreSQL's JSONB reorders keys, and snapshots must not depend on
    # which database they came from.
    return dict(sorted(value.items()))


def _repo_name(value: str) -> str:
    # A snapshot is untrusted: its name becomes folder names (`a/..` would climb out).
    if not is_repo_name(value):
        raise ValueError(f"must be a GitHub OWNER/REPO name, got {value!r}")
    return value


Reactions = Annotated[dict[str, int], AfterValidator(_sorted_keys)]


# `author_type` of an author read from a git history: a name anyone can set (free text), not
# a GitHub login, so never a profile link or a mention.
GIT_AUTHOR = "GitAuthor"


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=False)


class RepositoryRecord(Record):
    type: Literal["repository"] = "repository"
    full_name: Annotated[str, AfterValidator(_repo_name)]
    github_id: str | None = None
    url: str | None = None
    description: str | None = None
    default_branch: str | None = None


class ItemRecord(Record):
    """An issue or a pull request (GitHub numbers both from one sequence)."""

    type: Literal["item"] = "item"
    number: int = Field(ge=1)
    kind: Literal["issue", "pr"]
    github_id: str | None = None
    title: str
    body: str | None = None
    author: str | None = None  # None: the account was deleted ("ghost")
    author_type: str | None = None  # GitHub's type: User, Bot, Organization, Mannequin
    author_association: str | None = None
    state: Literal["open", "closed"]
    state_reason: str | None = None
    draft: bool | None = None
    locked: bool = False
    labels: list[str] = Field(default_factory=list)
    # None: not known. A git clone records a PR's merge, never when it was opened.
    created_at: OptUTCTime = None
    updated_at: UTCTime
    closed_at: OptUTCTime = None
    merged_at: OptUTCTime = None
    merged: bool | None = None
    merged_by: str | None = None
    merge_commit_sha: str | None = None
    additions: int | None = None
    deletions: int | None = None
    changed_files: int | None = None
    commits: int | None = None
    base_ref: str | None = None
    head_ref: str | None = None
    head_sha: str | None = None
    review_decision: str | None = None
    reactions: Reactions = Field(default_factory=dict)
    comments_count: int = 0
    review_comments_count: int | None = None
    url: str | None = None
    deleted: bool = False
    # Sync bookkeeping: the item's updated_at when its PR details were last fetched, and when
    # its comment counts were last reconciled. Kept in snapshots so a round trip is exact.
    detail_updated_at: OptUTCTime = None
    checked_updated_at: OptUTCTime = None
    # "git" when read from a local clone rather than the API; None for the API.
    source: str | None = None
    # Review threads left unresolved when the PR was last fetched; None when not known.
    unresolved_threads: int | None = None
    # The commit (merge, else head) GitHub's file listing last gave this merged PR's patches
    # for: a re-sync lists them again only when it changed. Snapshot format 2 on; None in
    # an older snapshot, so the next sync reads those patches again.
    patch_sha: str | None = None


class CommentRecord(Record):
    """A comment in an issue's or PR's conversation."""

    type: Literal["comment"] = "comment"
    id: int
    number: int
    github_id: str | None = None
    author: str | None = None
    author_type: str | None = None
    author_association: str | None = None
    body: str | None = None
    created_at: UTCTime
    updated_at: UTCTime
    reactions: Reactions = Field(default_factory=dict)
    url: str | None = None
    deleted: bool = False


class ReviewRecord(Record):
    type: Literal["review"] = "review"
    id: int
    number: int
    github_id: str | None = None
    author: str | None = None
    author_type: str | None = None
    author_association: str | None = None
    state: str
    body: str | None = None
    submitted_at: OptUTCTime = None
    commit_sha: str | None = None
    comments_count: int = 0
    url: str | None = None
    deleted: bool = False


class ReviewCommentRecord(Record):
    """A comment on a line of a PR's diff."""

    type: Literal["review_comment"] = "review_comment"
    id: int
    number: int
    review_id: int | None = None
    in_reply_to_id: int | None = None
    github_id: str | None = None
    author: str | None = None
    author_type: str | None = None
    author_association: str | None = None
    path: str
    line: int | None = None
    original_line: int | None = None
    side: str | None = None
    diff_hunk: str | None = None
    body: str | None = None
    commit_sha: str | None = None
    created_at: UTCTime
    updated_at: UTCTime
    reactions: Reactions = Field(default_factory=dict)
    url: str | None = None
    deleted: bool = False


class PRFileRecord(Record):
    type: Literal["pr_file"] = "pr_file"
    number: int
    path: str
    previous_path: str | None = None
    status: str | None = None  # added, modified, removed, renamed, copied, changed
    additions: int | None = None
    deletions: int | None = None
    # The file's diff as unified hunks (`@@` headers, `-` and `+` lines; context lines are
    # ignored), or, as older git syncs stored it, its added lines alone (facts/risk.py
    # reads both). None: not known.
    patch: str | None = None


class ReviewThreadRecord(Record):
    """An inline review thread's state as GitHub's GraphQL gives it, keyed by its first
    comment (the `review_comment` record with that id). Snapshot format 2 on."""

    type: Literal["review_thread"] = "review_thread"
    number: int
    comment_id: int
    resolved: bool | None = None  # None: GitHub did not say
    outdated: bool | None = None  # a later commit changed the lines it is on


class PRCommitRecord(Record):
    """One of a PR's commits with its commit time, so facts can count the commits made after
    a review thread was raised. Snapshot format 2 on."""

    type: Literal["pr_commit"] = "pr_commit"
    number: int
    sha: str
    committed_at: OptUTCTime = None


class ClosingRefRecord(Record):
    """A PR that will close (or closed) an issue, possibly in another repository."""

    type: Literal["closing_ref"] = "closing_ref"
    number: int
    issue_repo: str
    issue_number: int


class SyncStateRecord(Record):
    type: Literal["sync_state"] = "sync_state"
    stream: str
    cursor: str | None = None
    updated_at: OptUTCTime = None


AnyRecord = (
    RepositoryRecord
    | ItemRecord
    | CommentRecord
    | ReviewRecord
    | ReviewCommentRecord
    | PRFileRecord
    | ReviewThreadRecord
    | PRCommitRecord
    | ClosingRefRecord
    | SyncStateRecord
)

RECORD_TYPES: dict[str, type[Record]] = {
    cls.model_fields["type"].default: cls
    for cls in (
        RepositoryRecord,
        ItemRecord,
        CommentRecord,
        ReviewRecord,
        ReviewCommentRecord,
        PRFileRecord,
        ReviewThreadRecord,
        PRCommitRecord,
        ClosingRefRecord,
        SyncStateRecord,
    )
}


class Kept(Enum):
    """A PR details value the read did not give (GitHub refused the field, or the part was not
    read): the store keeps the value it holds."""

    KEPT = "kept"


KEPT = Kept.KEPT


@dataclass(frozen=True, slots=True)
class PRDetails:
    """A PR's item columns as its GraphQL details give them, which the GitHub sync writes over
    the listing's copy (store/items.py write_details). Not a snapshot record: the item it
    updates is (ItemRecord). Each field is an items column; one that is KEPT is not written."""

    number: int
    github_id: str | None
    title: str
    body: str | None
    author: str | Kept | None
    author_type: str | Kept | None
    author_association: str | Kept | None
    state: str  # "open" or "closed" (a merged PR is closed)
    draft: bool | None
    locked: bool
    created_at: datetime | None
    updated_at: datetime
    closed_at: datetime | None
    merged_at: datetime | None
    merged: bool | None
    merged_by: str | Kept | None
    merge_commit_sha: str | Kept | None
    additions: int | None
    deletions: int | None
    changed_files: int | None
    commits: int | Kept | None
    base_ref: str | None
    head_ref: str | None
    head_sha: str | None
    review_decision: str | Kept | None
    reactions: dict[str, int] | Kept
    comments_count: int | Kept
    url: str | None
    # Read from the PR's nested connections, which may be skipped: KEPT until they are read.
    labels: list[str] | Kept = KEPT
    review_comments_count: int | Kept = KEPT
    unresolved_threads: int | Kept = KEPT

    def keeping(self, names: Iterable[str]) -> PRDetails:
        """These fields KEPT (the parts of the answer that give them were refused); a name
        that is no field is a TypeError, never a column silently written."""
        changes: dict[str, Any] = dict.fromkeys(names, KEPT)
        return replace(self, **changes)

    def columns(self) -> dict[str, Any]:
        """The items columns to write (the number is the row's key, not written)."""
        return {
            f.name: value
            for f in fields(self)
            if f.name != "number" and (value := getattr(self, f.name)) is not KEPT
        }


def to_row(record: Record) -> dict[str, Any]:
    """The record as a store row (no `type` discriminator)."""
    row = record.model_dump()
    row.pop("type", None)
    return row


def now_utc() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)
