"""GraphQL connections: cursors, `first`/`last` limits, pages, and the per-query context."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graphql import (
    FieldNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLResolveInfo,
    InlineFragmentNode,
    SelectionSetNode,
)

from testkit.servers.github.constants import CONNECTION_LIMIT

if TYPE_CHECKING:
    from testkit.servers.github.core import FakeCore

    pass


@dataclass
class _Context:
    fake: FakeCore
    cost: int = 1
    node_count: int = 0
    pagination_errors: list[dict[str, Any]] = field(default_factory=list)


def _encode_cursor(key: tuple[int, ...]) -> str:
    packed = json.dumps(list(key), separators=(",", ":"))
    return base64.b64encode(f"cursor:v2:{packed}".encode()).decode()


def _decode_cursor(cursor: str) -> tuple[int, ...]:
    try:
        text = base64.b64decode(cursor.encode(), validate=True).decode()
        if not text.startswith("cursor:v2:"):
            raise ValueError(cursor)
        key = json.loads(text.removeprefix("cursor:v2:"))
        if not isinstance(key, list) or not all(isinstance(x, int) for x in key):
            raise ValueError(cursor)
        return tuple(key)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise GraphQLError(
            f"`{cursor}` does not appear to be a valid cursor.",
            extensions={"type": "INVALID_CURSOR_ARGUMENTS"},
        ) from None


def _selects(info: GraphQLResolveInfo, names: set[str]) -> bool:
    """Does the query select any of `names` directly under this field?"""

    def walk(selection_set: SelectionSetNode | None) -> bool:
        if selection_set is None:
            return False
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode) and selection.name.value in names:
                return True
            if isinstance(selection, InlineFragmentNode) and walk(selection.selection_set):
                return True
            if isinstance(selection, FragmentSpreadNode):
                fragment = info.fragments.get(selection.name.value)
                if fragment is not None and walk(fragment.selection_set):
                    return True
        return False

    return any(walk(node.selection_set) for node in info.field_nodes)


def _connection(
    ctx: _Context,
    info: GraphQLResolveInfo,
    args: dict[str, Any],
    keyed: list[tuple[tuple[int, ...], Any]],
    to_node: Callable[[Any], Any],
    *,
    total: int | None = None,
) -> dict[str, Any] | None:
    """A Relay connection over rows already sorted by their cursor key, GitHub's limits applied."""
    name = info.field_name
    first, last = args.get("first"), args.get("last")
    problem: tuple[str, str] | None = None
    for arg, value in (("first", first), ("last", last)):
        if value is not None and value > CONNECTION_LIMIT:
            problem = (
                "EXCESSIVE_PAGINATION",
                f"Requesting {value} records on the `{name}` connection exceeds the "
                f"`{arg}` limit of {CONNECTION_LIMIT} records.",
            )
        elif value is not None and value < 0:
            problem = (
                "INVALID_PAGINATION",
                f"`{arg}` on the `{name}` connection cannot be negative.",
            )
    if problem is None and first is None and last is None and _selects(info, {"nodes", "edges"}):
        problem = (
            "MISSING_PAGINATION_BOUNDARIES",
            f"You must provide a `first` or `last` value to properly paginate the `{name}` "
            "connection.",
        )
    if problem is not None:
        error = GraphQLError(problem[1], info.field_nodes, path=info.path.as_list())
        ctx.pagination_errors.append({"type": problem[0], **error.formatted})
        return None
    window = keyed
    if args.get("after"):
        after = _decode_cursor(args["after"])
        window = [pair for pair in window if pair[0] > after]
    if args.get("before"):
        before = _decode_cursor(args["before"])
        window = [pair for pair in window if pair[0] < before]
    page = window
    has_next = has_prev = False
    if first is not None:
        page = window[:first]
        has_next = len(window) > first
        has_prev = bool(args.get("after")) and len(window) < len(keyed)
    if last is not None:
        has_prev = len(page) > last
        page = page[-last:] if last else []
        has_next = has_next or (bool(args.get("before")) and len(window) < len(keyed))
    cursors = [_encode_cursor(k) for k, _ in page]
    return {
        "totalCount": len(keyed) if total is None else total,
        "pageInfo": {
            "hasNextPage": has_next,
            "hasPreviousPage": has_prev,
            "startCursor": cursors[0] if cursors else None,
            "endCursor": cursors[-1] if cursors else None,
        },
        "nodes": lambda info: [to_node(obj) for _, obj in page],
        "edges": lambda info: [
            {"cursor": cursor, "node": to_node(obj)}
            for cursor, (_, obj) in zip(cursors, page, strict=True)
        ],
    }
