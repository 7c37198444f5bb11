"""Discussions: categories a repository has, and the discussions tidings posts."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from graphql import GraphQLError

from testkit.servers.github.constants import DISCUSSION_BODY_MAX
from testkit.servers.github.core import FakeCore
from testkit.servers.github.encoding import _iso, _node_id, _stable_int
from testkit.servers.github.graphql_values import _not_found
from testkit.servers.github.state import _Repo


class DiscussionsMixin(FakeCore):
    """Discussion categories and the discussions `createDiscussion` makes."""

    def add_discussion_categories(self, repo: str, *names: str) -> None:
        """Give `repo` discussion categories (GitHub makes them in the repository settings)."""
        with self._lock:
            target = self._repos[repo.lower()]
            for name in names:
                target.discussion_categories[name] = _node_id(
                    "DIC", _stable_int(repo.lower(), name)
                )

    def discussions(self, repo: str) -> list[dict[str, Any]]:
        """The discussions created in `repo`, oldest first: title, body, category, number, url."""
        with self._lock:
            return [dict(d) for d in self._repos[repo.lower()].discussions]

    def _create_discussion(self, data: dict[str, Any]) -> dict[str, Any]:
        repo = next(
            (x for x in self._repos.values() if x.record.github_id == data["repositoryId"]), None
        )
        if repo is None:
            raise _not_found(
                f"Could not resolve to a node with the global id of '{data['repositoryId']}'"
            )
        names = {v: k for k, v in repo.discussion_categories.items()}
        if data["categoryId"] not in names:
            raise _not_found(
                f"Could not resolve to a node with the global id of '{data['categoryId']}'"
            )
        if not data["title"].strip() or not data["body"].strip():
            raise GraphQLError("Title can't be blank; Body can't be blank")
        if len(data["body"]) > DISCUSSION_BODY_MAX:
            raise GraphQLError(f"Body is too long (maximum is {DISCUSSION_BODY_MAX} characters)")
        number = 10_000 + len(repo.discussions) + 1
        discussion = {
            "id": _node_id("D", _stable_int(repo.full_name, number)),
            "number": number,
            "title": data["title"],
            "body": data["body"],
            "category": names[data["categoryId"]],
            "url": f"{repo.html_url}/discussions/{number}",
            "createdAt": _iso(datetime.now(UTC)),
        }
        repo.discussions.append(discussion)
        return self._gql_discussion(repo, discussion)

    def _gql_discussion(self, repo: _Repo, d: dict[str, Any]) -> dict[str, Any]:
        category = d["category"]
        return {
            "__typename": "Discussion",
            "id": d["id"],
            "number": d["number"],
            "title": d["title"],
            "url": d["url"],
            "createdAt": d["createdAt"],
            "category": {
                "id": repo.discussion_categories[category],
                "name": category,
                "slug": re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-"),
            },
        }

    def _gql_discussions(self, repo: _Repo, args: dict[str, Any]) -> dict[str, Any]:
        rows = [self._gql_discussion(repo, d) for d in repo.discussions]
        if args.get("categoryId"):
            rows = [d for d in rows if d["category"]["id"] == args["categoryId"]]
        # Oldest first as created; DESC (GitHub's default) is newest first.
        order = args.get("orderBy") or {"direction": "DESC"}
        if order.get("direction", "DESC") == "DESC":
            rows.reverse()
        return {"nodes": rows[: args.get("first") or 100], "totalCount": len(rows)}
