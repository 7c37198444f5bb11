"""GraphQL values built from records alone: actors, commits, labels, files, reactions, errors."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from graphql import GraphQLError, GraphQLResolveInfo

from testkit.servers.github.constants import CHANGE_TYPES, REACTION_CONTENTS, WEB
from testkit.servers.github.encoding import _actor_node_id, _actor_type, _node_id, _stable_int
from testkit.servers.github.graphql_connections import _connection, _Context
from testkit.servers.github.state import _Repo
from tidings.common import records as r


def _not_found(message: str) -> GraphQLError:
    return GraphQLError(message, extensions={"type": "NOT_FOUND"})


def _format_error(error: GraphQLError) -> dict[str, Any]:
    formatted = dict(error.formatted)
    extensions = dict(formatted.pop("extensions", None) or {})
    out: dict[str, Any] = {}
    if "type" in extensions:
        out["type"] = extensions.pop("type")
    out.update(formatted)
    if extensions:
        out["extensions"] = extensions
    return out


def _gql_state(item: r.ItemRecord) -> str:
    if item.kind == "pr" and item.merged:
        return "MERGED"
    return item.state.upper()


def _gql_actor(login: str | None, kind: str | None) -> dict[str, Any] | None:
    if login is None:
        return None  # a deleted account ("ghost") is a null author in GraphQL
    typename = _actor_type(login, kind) or "User"
    shown = login.removesuffix("[bot]") if typename == "Bot" else login
    url = f"{WEB}/apps/{shown}" if typename == "Bot" else f"{WEB}/{shown}"
    uid = _stable_int("user", login.lower())
    return {
        "__typename": typename,
        "id": _actor_node_id(login, typename),
        "databaseId": uid,
        "login": shown,
        "name": None,
        "email": None,
        "url": url,
        "resourcePath": urlsplit(url).path,
        "avatarUrl": lambda info, size=None: (
            f"https://avatars.githubusercontent.com/u/{uid}?v=4" + (f"&s={size}" if size else "")
        ),
    }


def _gql_commit(sha: str) -> dict[str, Any]:
    return {"id": _node_id("C", int(sha[:10], 16) if _is_hex(sha) else 1), "oid": sha,
            "abbreviatedOid": sha[:7]}  # fmt: skip


def _is_hex(value: str) -> bool:
    try:
        int(value[:10], 16)
    except ValueError:
        return False
    return bool(value)


def _gql_label(repo: _Repo, label: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": label["node_id"],
        "name": label["name"],
        "color": label["color"],
        "description": label["description"],
        "isDefault": False,
        "url": f"{repo.html_url}/labels/{label['name']}",
    }


def _gql_file(f: r.PRFileRecord) -> dict[str, Any]:
    return {
        "path": f.path,
        "additions": f.additions or 0,
        "deletions": f.deletions or 0,
        "changeType": CHANGE_TYPES.get((f.status or "modified").lower(), "MODIFIED"),
    }


def _gql_reaction_groups(ctx: _Context, reactions: dict[str, int]) -> list[dict[str, Any]]:
    groups = []
    for content, key in REACTION_CONTENTS:
        count = int(reactions.get(key, 0))

        def reactors(info: GraphQLResolveInfo, _count: int = count, **args: Any) -> Any:
            return _connection(ctx, info, args, [], lambda x: x, total=_count)

        groups.append(
            {
                "content": content,
                "createdAt": None,
                "reactors": reactors,
                "users": reactors,
                "viewerHasReacted": False,
            }
        )
    return groups
