"""GraphQL `search(type: ISSUE)`: counts of issues and PRs, for the qualifiers it understands.

GitHub's search understands far more than this. The fake answers only what it can answer
truthfully, `issueCount`, for a query made of these qualifiers, and refuses anything else with
an error that says so (never a made-up count):

- `repo:OWNER/NAME` (any case);
- `is:issue`, `is:pr` (`is:pull-request`), `type:issue`, `type:pr`; `is:open`, `is:closed`,
  `is:merged`, `is:unmerged`;
- `created:` a date (`2026-03-01`: that whole day, UTC) or a time to the second
  (`2026-03-01T10:00:00Z`, or with an offset `+07:00`), as `A..B` (both ends included, `*` for
  an open end), `>A`, `>=A`, `<A`, `<=A`, or `A` alone.

Deleted items are not counted. `search_lag` (seconds, on the fake) makes the index trail the
clock as GitHub's does: items created within it are not counted yet, items deleted within it
still are. Results (`nodes`, `edges`, `pageInfo`) are not served: a query selecting them gets
an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from graphql import GraphQLError, GraphQLResolveInfo

from testkit.servers.github.core import FakeCore
from testkit.servers.github.encoding import _parse_time
from testkit.servers.github.graphql_connections import _selects
from testkit.servers.github.state import _Repo
from tidings.common import records as r

Match = Callable[[_Repo, r.ItemRecord], bool]
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_COUNTS = ("codeCount", "discussionCount", "repositoryCount", "userCount", "wikiCount")
_IS = {
    "issue": lambda _repo, i: i.kind == "issue",
    "pr": lambda _repo, i: i.kind == "pr",
    "pull-request": lambda _repo, i: i.kind == "pr",
    "open": lambda _repo, i: i.state == "open",
    "closed": lambda _repo, i: i.state == "closed",
    "merged": lambda _repo, i: i.kind == "pr" and bool(i.merged),
    "unmerged": lambda _repo, i: i.kind == "pr" and not i.merged,
}
_TYPE = {"issue": _IS["issue"], "pr": _IS["pr"]}


class SearchMixin(FakeCore):
    """The root `search` field."""

    def _gql_search(self, info: GraphQLResolveInfo, args: dict[str, Any]) -> dict[str, Any]:
        if args.get("type") != "ISSUE":
            raise _refused(f"type {args.get('type')}: it searches issues and PRs only")
        if _selects(info, {"nodes", "edges", "pageInfo"}):
            raise _refused("results: it serves counts only (issueCount)")
        matches = [_qualifier(token) for token in str(args.get("query") or "").split()]
        lag = timedelta(seconds=self.search_lag)
        indexed_by = self.clock - lag
        count = 0
        for repo in self._repos.values():
            for item in repo.items.values():
                if item.created_at is not None and item.created_at > indexed_by:
                    continue  # not indexed yet
                gone_at = repo.deleted_at.get(item.number)
                if item.deleted and (gone_at is None or gone_at <= indexed_by):
                    continue
                if all(match(repo, item) for match in matches):
                    count += 1
        return {"issueCount": count, **dict.fromkeys(_COUNTS, 0)}


def _refused(what: str) -> GraphQLError:
    return GraphQLError(f"the fake GitHub cannot search by {what}")


def _qualifier(token: str) -> Match:
    key, sep, value = token.partition(":")
    key, value = key.lower(), value.lower()
    if not sep or not value:
        raise _refused(f"{token!r}: free text is not implemented")
    if key == "repo":
        return lambda repo, _item: repo.full_name.lower() == value
    if key == "is" and value in _IS:
        return _IS[value]
    if key == "type" and value in _TYPE:
        return _TYPE[value]
    if key == "created":
        return _created(value)
    raise _refused(f"{token!r}: not a qualifier it implements")


def _created(value: str) -> Match:
    """`created:` as GitHub reads it; a date stands for its whole day."""
    low: datetime | None
    high: datetime | None
    if ".." in value:
        a, _, b = value.partition("..")
        low = None if a == "*" else _bounds(a)[0]
        high = None if b == "*" else _bounds(b)[1]
    else:
        for op in (">=", "<=", ">", "<"):
            if value.startswith(op):
                lo, hi = _bounds(value[len(op) :])
                low, high = {
                    ">=": (lo, None),
                    "<=": (None, hi),
                    ">": (hi + timedelta(seconds=1), None),
                    "<": (None, lo - timedelta(seconds=1)),
                }[op]
                break
        else:
            low, high = _bounds(value)

    def match(_repo: _Repo, item: r.ItemRecord) -> bool:
        if item.created_at is None:
            return False
        at = item.created_at.astimezone(UTC).replace(microsecond=0)
        return (low is None or at >= low) and (high is None or at <= high)

    return match


def _bounds(text: str) -> tuple[datetime, datetime]:
    """The first and last second a date or time names."""
    if _DATE.fullmatch(text):
        day = date.fromisoformat(text)
        start = datetime.combine(day, time(), tzinfo=UTC)
        return start, start + timedelta(days=1, seconds=-1)
    try:
        at = _parse_time(text.upper()).replace(microsecond=0)
    except ValueError:
        raise _refused(f"created:{text}: not a date or time") from None
    return at, at
