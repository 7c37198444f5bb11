"""Which PR a revert undoes, read from its title and body, and from the store's merge commits.

A revert is news: something merged did not hold. The report names and links the PR it
reverts, so the reader does not have to open the revert to learn what went back. Forms read:
GitHub's revert button (`Revert "Title"` with `Reverts owner/repo#N` in the body), a
squash-merged revert's title (`Revert "Title (#N)"`), tools that write `Revert "Title" (#N)`,
`Original PR: #N` / `Revert of PR #N`, and git's `This reverts commit <sha>`, looked up among
the stored PRs' merge commits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.store import schema

_IS_REVERT = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*(?:\[revert\]|revert\b)", re.IGNORECASE)
_QUOTED = re.compile(r"revert\s+[\"“](?P<inner>.*)[\"”]\s*(?:\(#(?P<after>\d+)\))?", re.IGNORECASE)
_INNER_NUMBER = re.compile(r"\(#(\d+)\)\s*$")
_TITLE_NUMBER = re.compile(r"\brevert(?:s|ing)?\s+(?:pr\s+|pull request\s+)?#(\d+)", re.IGNORECASE)
_BODY_NUMBER = re.compile(
    r"(?:^|\n)\s*(?:reverts?|revert of (?:pr|pull request)|original pr\s*:)\s*"
    r"(?:(?:pr|pull request)\s+)?(?:[\w.-]+/[\w.-]+)?#(\d+)",
    re.IGNORECASE,
)
_BODY_SHA = re.compile(r"this reverts commit ([0-9a-f]{7,40})", re.IGNORECASE)


def is_revert(title: str, body: str | None = None) -> bool:
    return bool(_IS_REVERT.match(title)) or bool(body and _BODY_SHA.search(body))


def reverted_number(number: int, title: str, body: str | None) -> int | None:
    """The PR number a revert names in its title or body, or None (not a revert, or it names
    only a commit)."""
    found: list[int] = []
    if _IS_REVERT.match(title):
        quoted = _QUOTED.search(title)
        if quoted:
            inner = _INNER_NUMBER.search(quoted["inner"])
            if inner:
                found.append(int(inner.group(1)))
            if quoted["after"]:
                found.append(int(quoted["after"]))
        found += [int(x) for x in _TITLE_NUMBER.findall(title)]
    if body:
        found += [int(x) for x in _BODY_NUMBER.findall(body)]
    return next((n for n in found if n != number), None)


def reverted_shas(body: str | None) -> list[str]:
    return [s.lower() for s in _BODY_SHA.findall(body or "")]


def resolve_reverts(
    conn: Connection, repo_id: int, prs: Iterable[tuple[int, str, str | None]]
) -> dict[int, int]:
    """Revert PR number -> the PR it reverts, for each (number, title, body) that is a revert
    and names a PR or a stored PR's merge commit."""
    out: dict[int, int] = {}
    by_sha: dict[int, list[str]] = {}
    for number, title, body in prs:
        if not is_revert(title, body):
            continue
        named = reverted_number(number, title, body)
        if named is not None:
            out[number] = named
        elif shas := reverted_shas(body):
            by_sha[number] = shas
    it = schema.items
    for number, shas in by_sha.items():
        for sha in shas:
            row = conn.execute(
                sa.select(it.c.number).where(
                    it.c.repo_id == repo_id,
                    it.c.kind == "pr",
                    it.c.merge_commit_sha.like(f"{sha}%"),
                    it.c.number != number,
                )
            ).first()
            if row is not None:
                out[number] = int(row.number)
                break
    return out


def reverted_titles(conn: Connection, repo_id: int, numbers: Iterable[int]) -> dict[int, str]:
    """The stored titles of reverted PRs (a PR reverted weeks later is outside the week)."""
    wanted = sorted(set(numbers))
    if not wanted:
        return {}
    it = schema.items
    rows = conn.execute(
        sa.select(it.c.number, it.c.title).where(
            it.c.repo_id == repo_id, it.c.number.in_(wanted), ~it.c.deleted
        )
    )
    return {int(r.number): str(r.title) for r in rows}
