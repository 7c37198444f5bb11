"""The story as the builder reads it: the repository's frame, its people and its items.

Times are Shanghai wall time written "MM-DD HH:MM" (seconds optional); `stamps.py` makes them
datetimes. Text may refer to another item as `{#key}` (becomes `#N`) or `{n:key}` (becomes N).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone


class StoryError(ValueError):
    """The story says something the builder cannot use; the message says where."""


@dataclass(frozen=True)
class Frame:
    """The repository and the fortnight the story covers (story/repository.toml)."""

    repository: str
    github_id: str
    description: str
    default_branch: str
    year: int
    tz: timezone
    exported_at: datetime
    first_number: int
    quiet_day: date  # the local day whose daily window holds one comment and nothing else
    cutoff: time
    tool: str

    @property
    def web(self) -> str:
        return f"https://github.com/{self.repository}"

    @property
    def quiet(self) -> tuple[datetime, datetime]:
        """The quiet day's daily window: cut-off to cut-off."""
        start = datetime.combine(self.quiet_day, self.cutoff, self.tz)
        return start, start + timedelta(days=1)


@dataclass(frozen=True)
class Person:
    """A GitHub account as one repository sees it; a deleted account has no type."""

    type: str | None
    association: str


@dataclass
class Comment:
    """An issue/PR conversation comment."""

    at: str
    by: str | None
    body: str
    reactions: dict[str, int] = field(default_factory=dict)
    edited: str | None = None


@dataclass
class ReviewComment:
    """A review comment on a diff line; a reply names the `key` of the comment it answers."""

    body: str
    path: str = ""
    line: int | None = None
    hunk: str = ""
    key: str | None = None
    reply_to: str | None = None
    reactions: dict[str, int] = field(default_factory=dict)


@dataclass
class Review:
    at: str
    by: str | None
    state: str  # APPROVED, CHANGES_REQUESTED, COMMENTED
    body: str = ""
    comments: list[ReviewComment] = field(default_factory=list)


@dataclass
class File:
    path: str
    add: int
    dele: int
    status: str = "modified"


@dataclass
class Item:
    """An issue or a PR with everything that happens on it."""

    key: str
    kind: str  # "issue" or "pr"
    at: str
    by: str | None
    title: str
    labels: list[str]
    body: str
    comments: list[Comment] = field(default_factory=list)
    reactions: dict[str, int] = field(default_factory=dict)
    closed: str | None = None  # a time, or "@key": two seconds after that PR merged
    reason: str | None = None  # an issue's state_reason once closed
    number: int | None = None  # items opened before the fortnight carry their own
    merged: str | None = None
    merged_by: str | None = None
    files: list[File] = field(default_factory=list)
    reviews: list[Review] = field(default_factory=list)
    closes: list[str] = field(default_factory=list)  # item keys, or "owner/repo#N"
    draft: bool = False
    commits: int = 1
    head_ref: str = ""
    locked: bool = False


@dataclass(frozen=True)
class Story:
    frame: Frame
    people: dict[str | None, Person]  # a deleted account's login is None
    items: list[Item]
