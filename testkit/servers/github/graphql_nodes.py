"""GraphQL resolvers: the objects a query walks, rendered from records as it asks for them."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from graphql import GraphQLResolveInfo

from testkit.servers.github.constants import WEB
from testkit.servers.github.discussions import DiscussionsMixin
from testkit.servers.github.encoding import _epoch, _iso, _node_id, _parse_time, _stable_int
from testkit.servers.github.graphql_connections import _connection, _Context
from testkit.servers.github.graphql_values import (
    _gql_actor,
    _gql_commit,
    _gql_file,
    _gql_label,
    _gql_reaction_groups,
    _gql_state,
    _not_found,
)
from testkit.servers.github.normalise import _normal_item
from testkit.servers.github.rest_json import RestJsonMixin
from testkit.servers.github.state import _Repo
from tidings.common import records as r


class GraphQLNodesMixin(DiscussionsMixin, RestJsonMixin):
    """GraphQL objects over records: repositories, issues, PRs, comments, reviews, threads."""

    def _gql_node(self, ctx: _Context, node_id: str) -> dict[str, Any] | None:
        for repo in self._repos.values():
            if repo.record.github_id == node_id:
                return self._gql_repo(ctx, repo)
            for item in repo.items.values():
                if item.github_id == node_id and not item.deleted:
                    return self._gql_item(ctx, repo, item)
            for c in repo.comments.values():
                if c.github_id == node_id and not c.deleted:
                    return self._gql_comment(ctx, repo, c)
            for rv in repo.reviews.values():
                if rv.github_id == node_id and not rv.deleted:
                    return self._gql_review(ctx, repo, rv)
        raise _not_found(f"Could not resolve to a node with the global id of '{node_id}'")

    def _gql_repo(self, ctx: _Context, repo: _Repo) -> dict[str, Any]:
        record = repo.record
        owner, _, name = record.full_name.partition("/")

        def find(number: int, kind: str | None) -> r.ItemRecord | None:
            item = repo.items.get(number)
            if item is None or item.deleted or (kind is not None and item.kind != kind):
                return None
            return item

        def pull_request(info: GraphQLResolveInfo, number: int) -> dict[str, Any]:
            item = find(number, "pr")
            if item is None:
                raise _not_found(f"Could not resolve to a PullRequest with the number of {number}.")
            return self._gql_pr(ctx, repo, item)

        def issue(info: GraphQLResolveInfo, number: int) -> dict[str, Any]:
            item = find(number, "issue")
            if item is None:
                raise _not_found(f"Could not resolve to an Issue with the number of {number}.")
            return self._gql_issue(ctx, repo, item)

        def issue_or_pr(info: GraphQLResolveInfo, number: int) -> dict[str, Any]:
            item = find(number, None)
            if item is None:
                raise _not_found(
                    f"Could not resolve to an issue or pull request with the number of {number}."
                )
            return self._gql_item(ctx, repo, item)

        def items(kind: str) -> Callable[..., dict[str, Any] | None]:
            def resolve(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
                return self._gql_item_connection(ctx, info, repo, kind, args)

            return resolve

        return {
            "__typename": "Repository",
            "id": record.github_id,
            "databaseId": repo.rest_id,
            "name": name,
            "nameWithOwner": record.full_name,
            "owner": _gql_actor(owner, "Organization"),
            "url": record.url,
            "resourcePath": f"/{record.full_name}",
            "description": record.description,
            "isPrivate": False,
            "defaultBranchRef": (
                {
                    "id": _node_id("REF", _stable_int(record.full_name, record.default_branch)),
                    "name": record.default_branch,
                    "prefix": "refs/heads/",
                }
                if record.default_branch
                else None
            ),
            "pullRequest": pull_request,
            "issue": issue,
            "issueOrPullRequest": issue_or_pr,
            "discussionCategories": lambda info, **args: {
                "nodes": [
                    {
                        "id": node_id,
                        "name": name,
                        "slug": re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-"),
                    }
                    for name, node_id in repo.discussion_categories.items()
                ][: args.get("first") or 100],
                "totalCount": len(repo.discussion_categories),
            },
            "discussions": lambda info, **args: self._gql_discussions(repo, args),
            "issues": items("issue"),
            "pullRequests": items("pr"),
        }

    def _gql_item_connection(
        self,
        ctx: _Context,
        info: GraphQLResolveInfo,
        repo: _Repo,
        kind: str,
        args: dict[str, Any],
    ) -> dict[str, Any] | None:
        rows = [i for i in repo.items.values() if i.kind == kind and not i.deleted]
        filters = args.get("filterBy") or {}
        states = args.get("states") or filters.get("states")
        if states:
            rows = [i for i in rows if _gql_state(i) in states]
        labels = args.get("labels") or filters.get("labels")
        if labels:
            wanted = {x.lower() for x in labels}
            rows = [i for i in rows if wanted & {x.lower() for x in i.labels}]
        if filters.get("since"):
            since = _parse_time(str(filters["since"]))
            rows = [i for i in rows if i.updated_at >= since]
        if filters.get("createdBy"):
            rows = [i for i in rows if (i.author or "").lower() == filters["createdBy"].lower()]
        for name, ref in (("baseRefName", "base_ref"), ("headRefName", "head_ref")):
            if args.get(name):
                rows = [i for i in rows if getattr(i, ref) == args[name]]
        order = args.get("orderBy") or {"field": "CREATED_AT", "direction": "ASC"}
        sign = -1 if order.get("direction") == "DESC" else 1

        def key(i: r.ItemRecord) -> tuple[int, ...]:
            value = {
                "CREATED_AT": _epoch(i.created_at),
                "UPDATED_AT": _epoch(i.updated_at),
                "COMMENTS": i.comments_count,
            }[order.get("field", "CREATED_AT")]
            return (sign * value, sign * i.number)

        keyed = sorted(((key(i), i) for i in rows), key=lambda pair: pair[0])
        return _connection(ctx, info, args, keyed, lambda i: self._gql_item(ctx, repo, i))

    def _gql_item(self, ctx: _Context, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        if item.kind == "pr":
            return self._gql_pr(ctx, repo, item)
        return self._gql_issue(ctx, repo, item)

    def _gql_item_common(self, ctx: _Context, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        def comments(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            rows = sorted(
                (c for c in repo.comments.values() if c.number == item.number and not c.deleted),
                key=lambda c: c.id,
            )
            keyed = [((c.id,), c) for c in rows]
            return _connection(
                ctx,
                info,
                args,
                keyed,
                lambda c: self._gql_comment(ctx, repo, c),
                total=item.comments_count,
            )

        def labels(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            keyed = [((n,), name) for n, name in enumerate(item.labels)]
            return _connection(
                ctx, info, args, keyed, lambda name: _gql_label(repo, self._labels(repo, [name])[0])
            )

        return {
            "id": item.github_id,
            "number": item.number,
            "title": item.title,
            "body": item.body or "",
            "bodyText": item.body or "",
            "url": item.url,
            "resourcePath": urlsplit(item.url or "").path,
            "author": _gql_actor(item.author, item.author_type),
            "authorAssociation": item.author_association or "NONE",
            "repository": lambda info: self._gql_repo(ctx, repo),
            "locked": item.locked,
            "closed": item.state == "closed",
            "createdAt": _iso(item.created_at),
            "updatedAt": _iso(item.updated_at),
            "closedAt": _iso(item.closed_at),
            "comments": comments,
            "labels": labels,
            "reactionGroups": _gql_reaction_groups(ctx, item.reactions),
        }

    def _gql_issue(self, ctx: _Context, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        reason = (item.state_reason or "").upper()
        return {
            **self._gql_item_common(ctx, repo, item),
            "__typename": "Issue",
            "databaseId": _stable_int(repo.full_name.lower(), "issue", item.number),
            "fullDatabaseId": str(_stable_int(repo.full_name.lower(), "issue", item.number)),
            "state": item.state.upper(),
            "stateReason": reason
            if reason in ("COMPLETED", "NOT_PLANNED", "REOPENED", "DUPLICATE")
            else None,
        }

    def _gql_pr(self, ctx: _Context, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        number = item.number

        def commits(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            keyed = [((n,), c) for n, c in enumerate(repo.pr_commits(number))]
            return _connection(
                ctx,
                info,
                args,
                keyed,
                lambda c: {
                    "id": _node_id("PURC", _stable_int(c[0])),
                    "url": f"{item.url}/commits/{c[0]}",
                    "resourcePath": f"/{repo.full_name}/pull/{number}/commits/{c[0]}",
                    "commit": {**_gql_commit(c[0]), "committedDate": _iso(c[1])},
                },
            )

        def thread_comments(root: r.ReviewCommentRecord) -> Callable[..., Any]:
            def resolve(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
                rows = [
                    rc
                    for rc in repo.review_comments.values()
                    if not rc.deleted and (rc.id == root.id or rc.in_reply_to_id == root.id)
                ]
                keyed = sorted(((rc.id,), rc) for rc in rows)
                return _connection(
                    ctx, info, args, keyed, lambda rc: self._gql_review_comment(ctx, repo, rc)
                )

            return resolve

        def reviews(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            rows = [rv for rv in repo.reviews.values() if rv.number == number and not rv.deleted]
            if args.get("author"):
                rows = [rv for rv in rows if (rv.author or "").lower() == args["author"].lower()]
            if args.get("states"):
                rows = [rv for rv in rows if rv.state in args["states"]]
            keyed = sorted(((rv.id,), rv) for rv in rows)
            return _connection(ctx, info, args, keyed, lambda rv: self._gql_review(ctx, repo, rv))

        huge = (
            self.graphql_files_limit is not None
            and len(repo.files.get(number, {})) > self.graphql_files_limit
        )

        def files(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            if huge:
                return None  # GitHub gives up on a very large PR's files, with no error
            rows = repo.pr_files(number)
            keyed = [((n,), f) for n, f in enumerate(rows)]
            return _connection(ctx, info, args, keyed, _gql_file)

        def closing(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            refs = repo.closing_refs.get(number, [])
            keyed = [((n,), ref) for n, ref in enumerate(refs)]
            return _connection(ctx, info, args, keyed, lambda ref: self._gql_closing(ctx, ref))

        def review_threads(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            keyed = [((rc.id,), rc) for rc in repo.threads(number)]
            return _connection(
                ctx,
                info,
                args,
                keyed,
                lambda rc: {
                    "id": _node_id("PRRT", rc.id),
                    "isResolved": rc.id not in repo.unresolved,
                    # As GitHub: a later commit changed the lines (REST then clears `line`).
                    "isOutdated": rc.line is None and rc.original_line is not None,
                    "path": rc.path,
                    "line": rc.line,
                    "originalLine": rc.original_line,
                    "comments": thread_comments(rc),
                },
            )

        merged_by = _gql_actor(item.merged_by, None) if item.merged_by else None
        sha = item.merge_commit_sha
        review_comments = sum(
            1 for rc in repo.review_comments.values() if rc.number == number and not rc.deleted
        )
        return {
            **self._gql_item_common(ctx, repo, item),
            "__typename": "PullRequest",
            "databaseId": _stable_int(repo.full_name.lower(), "pull", number),
            "fullDatabaseId": str(_stable_int(repo.full_name.lower(), "pull", number)),
            "state": _gql_state(item),
            "isDraft": bool(item.draft),
            "activeLockReason": None,
            "mergedAt": _iso(item.merged_at),
            "merged": bool(item.merged),
            "mergedBy": merged_by,
            "mergeCommit": _gql_commit(sha) if sha else None,
            "updatedAt": _iso(repo.pull_updated.get(number, item.updated_at)),
            "additions": item.additions or 0,
            "deletions": item.deletions or 0,
            "changedFiles": 0 if huge else item.changed_files or 0,
            "commits": commits,
            "baseRefName": item.base_ref or "",
            "headRefName": item.head_ref or "",
            "headRefOid": item.head_sha or "",
            "baseRepository": lambda info: self._gql_repo(ctx, repo),
            "headRepository": lambda info: self._gql_repo(ctx, repo),
            "reviewDecision": item.review_decision,
            "reviews": reviews,
            "files": files,
            "closingIssuesReferences": closing,
            "reviewThreads": review_threads,
            "totalCommentsCount": item.comments_count + review_comments,
        }

    def _gql_closing(self, ctx: _Context, ref: r.ClosingRefRecord) -> dict[str, Any]:
        repo = self._repos.get(ref.issue_repo.lower())
        item = repo.items.get(ref.issue_number) if repo else None
        if repo is not None and item is not None and not item.deleted:
            return self._gql_issue(ctx, repo, item)
        # An issue in a repository the fake does not hold: a minimal stand-in.
        stub_repo = _Repo(r.RepositoryRecord(full_name=ref.issue_repo))
        stub_repo.record.github_id = _node_id("R", _stable_int("repo", ref.issue_repo.lower()))
        stub_repo.record.url = f"{WEB}/{ref.issue_repo}"
        stub = r.ItemRecord(
            number=ref.issue_number,
            kind="issue",
            title="",
            state="open",
            created_at=self.clock,
            updated_at=self.clock,
        )
        return self._gql_issue(ctx, stub_repo, _normal_item(stub_repo, stub))

    def _gql_comment(self, ctx: _Context, repo: _Repo, c: r.CommentRecord) -> dict[str, Any]:
        item = repo.items.get(c.number)
        return {
            "__typename": "IssueComment",
            "id": c.github_id,
            "databaseId": c.id,
            "fullDatabaseId": str(c.id),
            "author": _gql_actor(c.author, c.author_type),
            "authorAssociation": c.author_association or "NONE",
            "body": c.body or "",
            "bodyText": c.body or "",
            "createdAt": _iso(c.created_at),
            "updatedAt": _iso(c.updated_at),
            "url": c.url,
            "reactionGroups": _gql_reaction_groups(ctx, c.reactions),
            "issue": (lambda info: self._gql_issue(ctx, repo, item)) if item else None,
            "pullRequest": (
                (lambda info: self._gql_pr(ctx, repo, item))
                if item is not None and item.kind == "pr"
                else None
            ),
        }

    def _gql_review(self, ctx: _Context, repo: _Repo, rv: r.ReviewRecord) -> dict[str, Any]:
        def comments(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            rows = sorted(
                (
                    rc
                    for rc in repo.review_comments.values()
                    if rc.review_id == rv.id and not rc.deleted
                ),
                key=lambda rc: rc.id,
            )
            keyed = [((rc.id,), rc) for rc in rows]
            return _connection(
                ctx,
                info,
                args,
                keyed,
                lambda rc: self._gql_review_comment(ctx, repo, rc),
                total=rv.comments_count,
            )

        item = repo.items.get(rv.number)
        when = _iso(rv.submitted_at or (item.created_at if item else self.clock))
        return {
            "__typename": "PullRequestReview",
            "id": rv.github_id,
            "databaseId": None if rv.id in self.null_review_ids else rv.id,
            "fullDatabaseId": None if rv.id in self.null_review_ids else str(rv.id),
            "author": _gql_actor(rv.author, rv.author_type),
            "authorAssociation": rv.author_association or "NONE",
            "state": rv.state,
            "body": rv.body or "",
            "bodyText": rv.body or "",
            "submittedAt": _iso(rv.submitted_at),
            "createdAt": when,
            "updatedAt": when,
            "commit": _gql_commit(rv.commit_sha) if rv.commit_sha else None,
            "comments": comments,
            "url": rv.url,
            "reactionGroups": _gql_reaction_groups(ctx, {}),
            "pullRequest": (lambda info: self._gql_pr(ctx, repo, item)) if item else None,
        }

    def _gql_review_comment(
        self, ctx: _Context, repo: _Repo, rc: r.ReviewCommentRecord
    ) -> dict[str, Any]:
        item = repo.items.get(rc.number)
        review = repo.reviews.get(rc.review_id or -1)
        reply_to = repo.review_comments.get(rc.in_reply_to_id or -1)
        return {
            "__typename": "PullRequestReviewComment",
            "id": rc.github_id,
            "databaseId": rc.id,
            "fullDatabaseId": str(rc.id),
            "author": _gql_actor(rc.author, rc.author_type),
            "authorAssociation": rc.author_association or "NONE",
            "body": rc.body or "",
            "bodyText": rc.body or "",
            "path": rc.path,
            "line": rc.line,
            "originalLine": rc.original_line,
            "diffHunk": rc.diff_hunk or "",
            "createdAt": _iso(rc.created_at),
            "updatedAt": _iso(rc.updated_at),
            "url": rc.url,
            "commit": _gql_commit(rc.commit_sha) if rc.commit_sha else None,
            "reactionGroups": _gql_reaction_groups(ctx, rc.reactions),
            "pullRequest": (lambda info: self._gql_pr(ctx, repo, item)) if item else None,
            "pullRequestReview": (
                (lambda info: self._gql_review(ctx, repo, review)) if review else None
            ),
            "replyTo": (
                (lambda info: self._gql_review_comment(ctx, repo, reply_to)) if reply_to else None
            ),
        }
