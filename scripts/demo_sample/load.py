"""Read the story (story/*.toml) into the model: people, canned texts and one file per day."""

from __future__ import annotations

import string
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any

from demo_sample.model import (
    Comment,
    File,
    Frame,
    Item,
    Person,
    Review,
    ReviewComment,
    Story,
    StoryError,
)
from demo_sample.tables import Table, read

STORY = Path(__file__).resolve().parent / "story"
GHOST = "ghost"  # a deleted account, as GitHub shows it; its API gives no user at all
ACCOUNT_TYPES = ("User", "Bot")
REVIEW_STATES = ("APPROVED", "CHANGES_REQUESTED", "COMMENTED")


def load_story(root: Path = STORY) -> Story:
    """The story in `root`; the day files may come in any order (items sort by creation)."""
    frame = _frame(read(root / "repository.toml"))
    people = _people(read(root / "people.toml"))
    reader = _Reader(people, _canned(read(root / "canned.toml"), people))
    items: list[Item] = []
    for path in sorted((root / "days").glob("*.toml")):
        day = read(path)
        items += [reader.issue(t) for t in day.tables("issue")]
        items += [reader.pr(t) for t in day.tables("pr")]
        day.done()
    _check_keys(items)
    return Story(frame, people, items)


def _frame(t: Table) -> Frame:
    exported_at = t.get("exported_at", datetime)
    if exported_at.tzinfo is None:
        raise StoryError(f"{t.where}: `exported_at` needs its UTC offset")
    frame = Frame(
        repository=t.get("name", str),
        github_id=t.get("github_id", str),
        description=t.get("description", str),
        default_branch=t.get("default_branch", str),
        year=t.get("year", int),
        tz=timezone(timedelta(hours=t.get("utc_offset_hours", int))),
        exported_at=exported_at,
        first_number=t.get("first_number", int),
        quiet_day=t.get("quiet_day", date),
        cutoff=t.get("cutoff", time),
        tool=t.get("tool", str),
    )
    t.done()
    return frame


def _people(t: Table) -> dict[str | None, Person]:
    people: dict[str | None, Person] = {}
    for kind in ACCOUNT_TYPES:
        group = t.table(kind)
        for login, association in (group.rest() if group else {}).items():
            if login in people:
                raise StoryError(f"{t.where}: {login} is listed twice")
            people[login] = Person(kind, _association(association, login, t.where))
    deleted = t.table("deleted")
    if deleted is not None:
        people[None] = Person(None, _association(deleted.get(GHOST, str), GHOST, t.where))
        deleted.done()
    t.done()
    return people


def _association(value: Any, login: str, where: str) -> str:
    if not isinstance(value, str):
        raise StoryError(f"{where}: {login}'s association should be a string")
    return value


@dataclass(frozen=True)
class _Template:
    """A canned text (canned.toml): who says it, and its text with `{field}` blanks."""

    by: str | None
    body: str

    def fill(self, fields: dict[str, Any], where: str, **given: str) -> str:
        """The text with its blanks filled from `fields` (the story's) and `given` (the item's)."""
        wanted = {name for _, name, _, _ in string.Formatter().parse(self.body) if name}
        if unused := [k for k in fields if k not in wanted]:
            raise StoryError(f"{where}: the canned text has no {', '.join(unused)}")
        values = {**given, **fields}
        if missing := sorted(wanted - values.keys()):
            raise StoryError(f"{where}: the canned text needs {', '.join(missing)}")
        return self.body.format(**values)


def _canned(t: Table, people: dict[str | None, Person]) -> dict[str, _Template]:
    canned = {}
    for name, value in t.rest().items():
        if not isinstance(value, dict):
            raise StoryError(f"{t.where}: `{name}` should be a table")
        entry = Table(value, f"{t.where}, {name}")
        by = entry.optional("by", str)
        body = entry.get("body", str)
        canned[name] = _Template(_login(by, people, entry.where) if by else None, body)
        entry.done()
    return canned


def _login(name: str, people: dict[str | None, Person], where: str) -> str | None:
    login = None if name == GHOST else name
    if login not in people:
        raise StoryError(f"{where}: {name} is not in people.toml")
    return login


class _Reader:
    """Turns the day files' tables into items, filling in canned texts and templates."""

    def __init__(self, people: dict[str | None, Person], canned: dict[str, _Template]) -> None:
        self.people = people
        self.canned = canned

    def issue(self, t: Table) -> Item:
        key = t.get("key", str)
        t.where = f"{t.where} ({key})"
        closed = t.optional("closed", str)
        reason = t.optional("reason", str)
        if reason and not closed:
            raise StoryError(f"{t.where}: a `reason` without `closed`")
        by = t.get("by", str)
        item = Item(
            key=key,
            kind="issue",
            at=t.get("at", str),
            by=self.login(by, t),
            number=t.optional("number", int),
            title=t.get("title", str),
            labels=t.texts("labels"),
            closed=closed,
            reason=(reason or "completed") if closed else None,
            locked=bool(t.optional("locked", bool)),
            reactions=t.counts("reactions"),
            body=t.get("body", str),
        )
        item.comments = [self.comment(c, by) for c in t.tables("comments")]
        t.done()
        return item

    def pr(self, t: Table) -> Item:
        key = t.get("key", str)
        t.where = f"{t.where} ({key})"
        by = t.get("by", str)
        merged = t.optional("merged", str)
        merged_by = t.optional("merged_by", str)
        closed = t.optional("closed", str)
        if bool(merged) != bool(merged_by):
            raise StoryError(f"{t.where}: `merged` and `merged_by` go together")
        if merged and closed:
            raise StoryError(f"{t.where}: a merged PR closes when it merges; drop `closed`")
        item = Item(
            key=key,
            kind="pr",
            at=t.get("at", str),
            by=self.login(by, t),
            number=t.optional("number", int),
            title=t.get("title", str),
            labels=t.texts("labels"),
            merged=merged,
            merged_by=self.login(merged_by, t) if merged_by else None,
            closed=merged or closed,
            closes=t.texts("closes"),
            draft=bool(t.optional("draft", bool)),
            commits=t.optional("commits", int) or 1,
            head_ref=t.optional("branch", str) or f"{by.split('[')[0]}/{key.replace('_', '-')}",
            locked=bool(t.optional("locked", bool)),
            reactions=t.counts("reactions"),
            files=[self.file(f) for f in t.tables("files")],
            body=self.pr_body(t),
        )
        item.comments = [self.comment(c, by) for c in t.tables("comments")]
        item.reviews = [self.review(r) for r in t.tables("reviews")]
        t.done()
        return item

    def pr_body(self, t: Table) -> str:
        """The body as written, the PR template's sections, or a dependency bump's."""
        given = [k for k in ("body", "purpose", "bump") if k in t]
        if len(given) != 1:
            raise StoryError(f"{t.where}: a PR needs exactly one of `body`, `purpose`, `bump`")
        if "body" in t:
            return t.get("body", str)
        if "purpose" in t:
            sections = [("Purpose", t.get("purpose", str))]
            for title, key in (("Test Plan", "test_plan"), ("Test Result", "result")):
                if text := t.optional(key, str):
                    sections.append((title, text))
            parts = [part for title, text in sections for part in (f"## {title}", text.strip())]
            if notes := t.optional("notes", str):
                parts.append(notes.strip())
            return "\n\n".join(parts)
        bump = t.table("bump")
        assert bump is not None
        return self.template("dependabot", bump).body

    def comment(self, t: Table, author: str) -> Comment:
        at = t.get("at", str)
        if "canned" in t:
            # The canned texts may name the item's author (`{author}`), as a bot pinging them.
            filled = self.template(t.get("canned", str), t, author=author)
            if filled.by is None:
                raise StoryError(f"{t.where}: that canned text has no `by`, so it is no comment")
            return Comment(at, filled.by, filled.body)
        comment = Comment(
            at=at,
            by=self.login(t.get("by", str), t),
            edited=t.optional("edited", str),
            reactions=t.counts("reactions"),
            body=t.get("body", str),
        )
        t.done()
        return comment

    def template(self, name: str, t: Table, **given: str) -> _Template:
        """The canned text `name`, filled in from the rest of `t`'s fields."""
        if name not in self.canned:
            raise StoryError(f"{t.where}: no canned text {name!r} in canned.toml")
        template = self.canned[name]
        return _Template(template.by, template.fill(t.rest(), t.where, **given))

    def review(self, t: Table) -> Review:
        state = t.get("state", str)
        if state not in REVIEW_STATES:
            raise StoryError(f"{t.where}: `state` is one of {', '.join(REVIEW_STATES)}")
        review = Review(
            at=t.get("at", str),
            by=self.login(t.get("by", str), t),
            state=state,
            body=t.optional("body", str) or "",
            comments=[self.review_comment(c) for c in t.tables("comments")],
        )
        t.done()
        return review

    def review_comment(self, t: Table) -> ReviewComment:
        comment = ReviewComment(
            key=t.optional("key", str),
            reply_to=t.optional("reply_to", str),
            path=t.optional("path", str) or "",
            line=t.optional("line", int),
            reactions=t.counts("reactions"),
            body=t.get("body", str),
            hunk=t.optional("hunk", str) or "",
        )
        t.done()
        return comment

    def file(self, t: Table) -> File:
        file = File(
            path=t.get("path", str),
            add=t.get("add", int),
            dele=t.get("del", int),
            status=t.optional("status", str) or "modified",
        )
        t.done()
        return file

    def login(self, name: str, t: Table) -> str | None:
        return _login(name, self.people, t.where)


def _check_keys(items: list[Item]) -> None:
    """An item's key, and a review comment's, name it across every file: each is used once."""
    review_comments = [rc.key for it in items for rv in it.reviews for rc in rv.comments]
    for keys in ([it.key for it in items], [k for k in review_comments if k]):
        seen: set[str] = set()
        for key in keys:
            if key in seen:
                raise StoryError(f"the key {key!r} is used twice")
            seen.add(key)
