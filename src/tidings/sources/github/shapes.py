"""What GitHub's answers must look like before the sync believes them.

A well-formed HTTP 200 can still carry the wrong content: `{}` where a listing was asked for,
`{"message": "oops"}`, `{"data": {"repository": null}}` with no error, a connection that is
`null`. Read leniently, each of those looks like "nothing there" and a sync would mark good data
deleted or store a cursor past data it never read. So every answer the sync uses goes through a
parser here first; anything that is not the documented shape raises `UnexpectedAnswer`, which
the client retries like a 5xx and, if it persists, turns into a one-line error (client.py).

The parsers convert while they check (REST rows become records), so an answer is either used
whole or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, TypeVar

from pydantic import ValidationError

from tidings.sources.github import normalize as nz
from tidings.sources.github import queries

T = TypeVar("T")

Errors = Sequence[Mapping[str, Any]]
GraphQLCheck = Callable[[Mapping[str, Any], Errors], None]


class UnexpectedAnswer(Exception):
    """An answer that is valid JSON but not the shape GitHub documents for the request."""


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "an object" if value else "an empty object"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _convert(convert: Callable[[Any], T], value: Any, where: str) -> T:
    """Run a normaliser; a missing key or a value of the wrong type is a wrong shape."""
    if not isinstance(value, dict):
        raise UnexpectedAnswer(f"{where} is {_describe(value)}, not an object")
    try:
        return convert(value)
    except ValidationError as exc:
        err = exc.errors(include_url=False, include_input=False)[0]
        field = ".".join(str(p) for p in err["loc"]) or "a field"
        raise UnexpectedAnswer(f"{where} has a bad {field!r} ({err['msg']})") from exc
    except KeyError as exc:
        raise UnexpectedAnswer(f"{where} lacks {exc.args[0]!r}") from exc
    except ValueError as exc:
        raise UnexpectedAnswer(f"{where} has a bad value ({exc})") from exc
    except (TypeError, AttributeError) as exc:
        raise UnexpectedAnswer(f"{where} has a value of the wrong type ({exc})") from exc


# -- REST -----------------------------------------------------------------------------------


def rest_list(convert: Callable[[Any], T]) -> Callable[[Any], list[T]]:
    """A listing page: a JSON array whose every row converts."""

    def parse(body: Any) -> list[T]:
        if not isinstance(body, list):
            raise UnexpectedAnswer(f"the listing is {_describe(body)}, not a list")
        return [_convert(convert, row, f"row {i + 1}") for i, row in enumerate(body)]

    return parse


class Updated(Protocol):
    updated_at: datetime


U = TypeVar("U", bound=Updated)


def since_list(convert: Callable[[Any], U], since: str | None) -> Callable[[Any], list[U]]:
    """A page of a `since` listing: a listing (`rest_list`) none of whose rows was last
    updated before `since`, which GitHub never lists. Such a row means the page is not the
    answer to this request (a cache keyed too loosely served another one, with this
    request's ETag), so the whole page is wrong: keeping it would store that ETag, and
    every later sync would get a 304 for an answer never read."""
    parse = rest_list(convert)
    floor = nz.parse_time(since)

    def check(body: Any) -> list[U]:
        rows = parse(body)
        if floor is not None:
            for i, row in enumerate(rows):
                if row.updated_at < floor:
                    raise UnexpectedAnswer(
                        f"row {i + 1} was last updated at {nz.format_time(row.updated_at)}, "
                        f"before the since={since} asked for (an answer to another request?)"
                    )
        return rows

    return check


def rest_review_ids(row: Mapping[str, Any]) -> Mapping[str, Any]:
    """A row of a PR's REST review listing, read only for its ids (node id -> REST id)."""
    if not isinstance(row["id"], int) or not isinstance(row["node_id"], str):
        raise TypeError("a review's id must be a number and its node_id a string")
    return row


def rest_object(convert: Callable[[Any], T]) -> Callable[[Any], T]:
    def parse(body: Any) -> T:
        return _convert(convert, body, "the answer")

    return parse


# -- GraphQL --------------------------------------------------------------------------------


def _object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise UnexpectedAnswer(f"{where} is {_describe(value)}, not an object")
    return value


def _int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise UnexpectedAnswer(f"{where} is {_describe(value)}, not a count")
    return value


def repository(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """`data.repository`, which a query naming an existing repository always gets (a missing
    one comes with a NOT_FOUND error, which the client reports before any check runs)."""
    return _object(data.get("repository"), "repository")


def page(value: Any, where: str) -> Mapping[str, Any]:
    """A connection page: `nodes` a list, `pageInfo` saying whether more follow, and
    `totalCount` (when asked for) no smaller than the nodes it came with."""
    conn = _object(value, where)
    nodes = conn.get("nodes")
    if not isinstance(nodes, list):
        raise UnexpectedAnswer(f"{where}.nodes is {_describe(nodes)}, not a list")
    info = _object(conn.get("pageInfo"), f"{where}.pageInfo")
    more = info.get("hasNextPage")
    if not isinstance(more, bool):
        raise UnexpectedAnswer(f"{where}.pageInfo.hasNextPage is {_describe(more)}")
    cursor = info.get("endCursor")
    if more and not isinstance(cursor, str):
        raise UnexpectedAnswer(f"{where} has a next page but no endCursor")
    if "totalCount" in conn:
        total = _int(conn["totalCount"], f"{where}.totalCount")
        if total < len(nodes):
            raise UnexpectedAnswer(f"{where} lists {len(nodes)} nodes but counts {total}")
    return conn


def not_found_at(errors: Errors, path: Sequence[str]) -> bool:
    return any(
        e.get("type") == "NOT_FOUND" and list(e.get("path") or []) == list(path) for e in errors
    )


def forbidden_at(errors: Errors, path: Sequence[str | int]) -> str | None:
    """GitHub's message when it refused the token the field at `path` (an organisation
    restricting OAuth apps, say), else None."""
    for e in errors:
        if e.get("type") == "FORBIDDEN" and list(e.get("path") or []) == list(path):
            return str(e.get("message") or "FORBIDDEN")
    return None


def nullable(connection: str, path: Sequence[str | int], errors: Errors) -> bool:
    """May this PR connection be null? `files` may: GitHub answers `files: null` (and
    `changedFiles: 0`) with no error for a very large PR, and the sync lists them by REST
    instead. Any connection may be when a FORBIDDEN error names it: the sync keeps what it
    holds and records the gap. Any other null is a wrong answer."""
    return connection == "files" or forbidden_at(errors, [*path, connection]) is not None


def repo_totals(data: Mapping[str, Any], _errors: Errors) -> None:
    repo = repository(data)
    name = repo.get("nameWithOwner")
    if not isinstance(name, str) or name.count("/") != 1 or len(name.split()) != 1:
        raise UnexpectedAnswer(f"nameWithOwner is {_describe(name)}, not OWNER/NAME")
    for connection in ("issues", "pullRequests"):
        _int(
            _object(repo.get(connection), connection).get("totalCount"), f"{connection}.totalCount"
        )


def totals(data: Mapping[str, Any]) -> dict[str, int]:
    """Issue and PR totals of an answer `repo_totals` accepted."""
    repo = repository(data)
    return {
        "issue": int(repo["issues"]["totalCount"]),
        "pr": int(repo["pullRequests"]["totalCount"]),
    }


def search_counts(count: int) -> GraphQLCheck:
    """Every aliased search of queries.search_counts answered with a count."""

    def check(data: Mapping[str, Any], _errors: Errors) -> None:
        for i in range(count):
            _int(_object(data.get(f"s{i}"), f"search s{i}").get("issueCount"), f"s{i}.issueCount")

    return check


def items_by_number(numbers: Sequence[int]) -> GraphQLCheck:
    """Every alias of queries.items_by_number is the item asked for, or null with GitHub's
    reason: NOT_FOUND (gone) or FORBIDDEN (not shown to this token). A null without one, or
    another number, is a wrong answer, never read as "deleted"."""

    def check(data: Mapping[str, Any], errors: Errors) -> None:
        repo = repository(data)
        for number in numbers:
            alias = f"n{number}"
            if alias not in repo:
                raise UnexpectedAnswer(f"the answer lacks {alias}")
            node = repo[alias]
            if node is None:
                explained = not_found_at(errors, ["repository", alias]) or forbidden_at(
                    errors, ["repository", alias]
                )
                if not explained:
                    raise UnexpectedAnswer(f"{alias} is null without a NOT_FOUND error")
                continue
            if _int(_object(node, alias).get("number"), f"{alias}.number") != number:
                raise UnexpectedAnswer(f"{alias} answered #{node['number']}")

    return check


def item_numbers(connection: str) -> GraphQLCheck:
    def check(data: Mapping[str, Any], _errors: Errors) -> None:
        conn = page(repository(data).get(connection), connection)
        if "totalCount" not in conn:
            raise UnexpectedAnswer(f"{connection} lacks totalCount")
        for i, node in enumerate(conn["nodes"]):
            _int(_object(node, f"{connection} node {i + 1}").get("number"), "number")

    return check


def items_by_update(connection: str) -> GraphQLCheck:
    """A page of queries.items_by_update: every node a number and a time."""

    def check(data: Mapping[str, Any], _errors: Errors) -> None:
        conn = page(repository(data).get(connection), connection)
        for i, node in enumerate(conn["nodes"]):
            where = f"{connection} node {i + 1}"
            _int(_object(node, where).get("number"), f"{where}.number")
            value = node.get("updatedAt")
            try:
                datetime.fromisoformat(str(value).replace("Z", "+00:00"))
            except ValueError:
                raise UnexpectedAnswer(f"{where}.updatedAt is {_describe(value)}") from None
            if not isinstance(value, str):
                raise UnexpectedAnswer(f"{where}.updatedAt is {_describe(value)}")

    return check


def _review(node: Mapping[str, Any], number: int) -> object:
    """A review node converts. Its id field must be there, but may be null: GitHub's schema
    allows it, and the sync then finds the id by the node id (pr_fetch.py `_review_ids`)."""
    if "fullDatabaseId" not in node and "databaseId" not in node:
        raise KeyError("databaseId")
    if nz.review_id(node) is None:
        node = {**node, "databaseId": 0}
    return nz.review_from_graphql(node, number)


def _pr_connections(
    number: int,
    node: Mapping[str, Any],
    connections: Iterable[str],
    where: str,
    errors: Errors = (),
) -> None:
    converters: dict[str, Callable[[Any], object]] = {
        "labels": lambda n: n["name"],
        "reviews": lambda n: _review(n, number),
        "files": lambda n: nz.file_from_graphql(n, number),
        "closingIssuesReferences": lambda n: nz.closing_ref_from_graphql(n, number),
        "reviewThreads": lambda n: (n["id"], nz.thread_from_graphql(n)),
        "commits": nz.commit_from_graphql,
    }
    for connection in connections:
        label = f"{where}.{connection}"
        if node.get(connection, 0) is None and nullable(connection, ["repository", where], errors):
            continue
        conn = page(node.get(connection), label)
        if "totalCount" not in conn:
            raise UnexpectedAnswer(f"{label} lacks totalCount")
        for i, child in enumerate(conn["nodes"]):
            # GitHub types connection nodes as nullable; a null one is counted as missing.
            if child is not None:
                _convert(converters[connection], child, f"{label} node {i + 1}")


def _alias(repo: Mapping[str, Any], alias: str, errors: Errors) -> Mapping[str, Any] | None:
    """One aliased `pullRequest(number:)`: an object, or null explained by a NOT_FOUND."""
    if alias not in repo:
        raise UnexpectedAnswer(f"the answer lacks {alias}")
    node = repo[alias]
    if node is None:
        if not not_found_at(errors, ["repository", alias]):
            raise UnexpectedAnswer(f"{alias} is null without a NOT_FOUND error")
        return None
    return _object(node, alias)


def _same_pr(node: Mapping[str, Any], number: int, alias: str) -> None:
    """The alias asked for PR `number` answers with that PR: one carrying another PR's data
    (a proxy or cache mixing answers up) would be stored under the wrong number."""
    got = node.get("number")
    if got != number:
        raise UnexpectedAnswer(f"{alias} asked for #{number} but answers for #{got}")


def pr_details(numbers: Sequence[int]) -> GraphQLCheck:
    """Every aliased PR is the one asked for and converts, and each of its nested connections
    is a complete-looking page; a `null` connection is never read as "no reviews" (only
    `files`, and a field GitHub says it refused, may be null: see `nullable`)."""

    def check(data: Mapping[str, Any], errors: Errors) -> None:
        repo = repository(data)
        for number in numbers:
            alias = f"p{number}"
            node = _alias(repo, alias, errors)
            if node is None:
                continue
            _same_pr(node, number, alias)
            _convert(nz.pr_details_from_graphql, node, alias)
            _pr_connections(number, node, queries.CONNECTIONS, alias, errors)

    return check


def continuations(parts: Sequence[queries.Continuation]) -> GraphQLCheck:
    def check(data: Mapping[str, Any], errors: Errors) -> None:
        repo = repository(data)
        for i, part in enumerate(parts):
            node = _alias(repo, f"c{i}", errors)
            if node is not None:
                _same_pr(node, part.number, f"c{i}")
                _pr_connections(part.number, node, [part.connection], f"c{i}", errors)

    return check
