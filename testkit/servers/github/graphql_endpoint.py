"""The GraphQL endpoint: a query parsed, validated against the schema, charged and run."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from graphql import GraphQLError, GraphQLResolveInfo, execute, parse, validate

from testkit.servers.github.constants import (
    GRAPHQL_DOCS,
    GRAPHQL_TIMEOUT_MESSAGE,
    RESOURCE_LIMITS_MESSAGE,
)
from testkit.servers.github.encoding import _iso, _json
from testkit.servers.github.faults import FaultsMixin
from testkit.servers.github.graphql_connections import _Context
from testkit.servers.github.graphql_cost import _count_fields, _query_cost
from testkit.servers.github.graphql_nodes import GraphQLNodesMixin
from testkit.servers.github.graphql_schema import _schema
from testkit.servers.github.graphql_values import _format_error, _gql_actor, _not_found
from testkit.servers.github.search import SearchMixin
from testkit.servers.github.wire import Request, _Response


class GraphQLMixin(GraphQLNodesMixin, SearchMixin, FaultsMixin):
    """POST /graphql: parse, validate, charge, execute, and GitHub's partial answers."""

    def _graphql_request(self, request: Request) -> _Response:
        headers = {"Content-Type": "application/json; charset=utf-8"}
        try:
            payload = json.loads(request.body or b"null")
        except ValueError:
            body = {"message": "Problems parsing JSON", "documentation_url": GRAPHQL_DOCS}
            return _Response(400, _json(body), headers)
        query = payload.get("query") if isinstance(payload, dict) else None
        if not isinstance(query, str):
            body = {
                "errors": [{"message": "A query attribute must be specified and must be a string."}]
            }
            return _Response(200, _json(body), headers)
        variables = payload.get("variables") or {}
        if not isinstance(variables, dict):
            variables = {}
        operation = payload.get("operationName")
        try:
            document = parse(query)
        except GraphQLError as error:
            return _Response(200, _json({"errors": [_format_error(error)]}), headers)
        errors = validate(_schema(), document)
        if errors:
            return _Response(200, _json({"errors": [_format_error(e) for e in errors]}), headers)
        if self._too_heavy(request, _count_fields(document, "pullRequest")):
            body = {"data": None, "errors": [{"message": GRAPHQL_TIMEOUT_MESSAGE}]}
            return _Response(502, _json(body), headers, fault="graphql_heavy")
        cost, nodes = _query_cost(document, variables)
        limited = self._resource_limited(request, _count_fields(document, "pullRequest"), nodes)
        context = _Context(self, cost=cost, node_count=nodes)
        with self._lock:
            self._graphql.charge(cost)
            self.graphql_points += cost
            result = execute(
                _schema(),
                document,
                root_value=self._gql_root(context),
                context_value=context,
                variable_values=variables,
                operation_name=operation,
            )
        if context.pagination_errors:
            # GitHub checks connection limits before running anything: the whole query fails.
            return _Response(200, _json({"errors": context.pagination_errors}), headers)
        out: dict[str, Any] = {}
        if result.data is not None or not result.errors:
            out["data"] = result.data
        if result.errors:
            out["errors"] = [_format_error(e) for e in result.errors]
        if limited:
            # GitHub stops a query over its resource limits part-way: what it got to stays,
            # the rest is null, and one error says why (no path).
            repo = (out.get("data") or {}).get("repository")
            if isinstance(repo, dict):
                aliases = [k for k, v in repo.items() if isinstance(v, dict)]
                for alias in aliases[len(aliases) // 2 :]:
                    repo[alias] = None
            out.setdefault("errors", []).append(
                {"type": "RESOURCE_LIMITS_EXCEEDED", "message": RESOURCE_LIMITS_MESSAGE}
            )
            return _Response(200, _json(out), headers, fault="resource_limits")
        return _Response(200, _json(out), headers)

    def _gql_root(self, ctx: _Context) -> dict[str, Any]:
        def repository(
            info: GraphQLResolveInfo, owner: str, name: str, followRenames: bool = True
        ) -> dict[str, Any]:
            repo = self._repos.get(f"{owner}/{name}".lower())
            if repo is None:
                raise _not_found(
                    f"Could not resolve to a Repository with the name '{owner}/{name}'."
                )
            return self._gql_repo(ctx, repo)

        def rate_limit(info: GraphQLResolveInfo, dryRun: bool = False) -> dict[str, Any]:
            budget = self._graphql
            return {
                "cost": ctx.cost,
                "limit": budget.limit,
                "nodeCount": ctx.node_count,
                "remaining": budget.remaining,
                "resetAt": _iso(datetime.fromtimestamp(budget.reset, UTC)),
                "used": budget.used,
            }

        def node(info: GraphQLResolveInfo, id: str) -> dict[str, Any] | None:
            return self._gql_node(ctx, id)

        def nodes(info: GraphQLResolveInfo, ids: list[str]) -> list[dict[str, Any] | None]:
            return [self._gql_node(ctx, x) for x in ids]

        def search(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any]:
            return self._gql_search(info, args)

        def create_discussion(info: GraphQLResolveInfo, input: dict[str, Any]) -> dict[str, Any]:
            return {
                "clientMutationId": input.get("clientMutationId"),
                "discussion": self._create_discussion(input),
            }

        return {
            "repository": repository,
            "rateLimit": rate_limit,
            "viewer": _gql_actor("tidings-test", "User"),
            "node": node,
            "nodes": nodes,
            "search": search,
            "createDiscussion": create_discussion,  # the Mutation root shares this value
        }
