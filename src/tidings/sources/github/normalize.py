"""Pure functions from GitHub's REST and GraphQL JSON to records (docs/github-mapping.md).

Nothing here talks to the network or the store, so every mapping rule is unit-testable with a
literal dict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tidings.common.records import (
    ClosingRefRecord,
    CommentRecord,
    ItemRecord,
    PRDetails,
    PRFileRecord,
    RepositoryRecord,
    ReviewCommentRecord,
    ReviewRecord,
)

JSON = Mapping[str, Any]

REACTION_KEYS = ("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes")
GRAPHQL_REACTIONS = {
    "THUMBS_UP": "+1",
    "THUMBS_DOWN": "-1",
    "LAUGH": "laugh",
    "HOORAY": "hooray",
    "CONFUSED": "confused",
    "HEART": "heart",
    "ROCKET": "rocket",
    "EYES": "eyes",
}
CHANGE_TYPES = {
    "ADDED": "added",
    "DELETED": "removed",
    "MODIFIED": "modified",
    "RENAMED": "renamed",
    "COPIED": "copied",
    "CHANGED": "changed",
}
GHOST = "ghost"


def parse_time(value: str | None) -> datetime | None:
    if not value:
        return None
    return (
        datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC).replace(microsecond=0)
    )


def required_time(value: str | None, name: str) -> datetime:
    """A time GitHub always sends; a null one is a wrong answer, not a missing value."""
    parsed = parse_time(value)
    if parsed is None:
        raise ValueError(f"{name} is missing")
    return parsed


def format_time(value: datetime) -> str:
    """GitHub's own spelling, used for `since` so request URLs (and their ETags) are stable."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def rest_actor(user: JSON | None) -> tuple[str | None, str | None]:
    """(login, type) of a REST user; the deleted-account placeholder becomes (None, None)."""
    if not user:
        return None, None
    login = user.get("login")
    if not login or login == GHOST:
        return None, None
    return login, user.get("type")


def graphql_actor(actor: JSON | None) -> tuple[str | None, str | None]:
    """(login, type) of a GraphQL Actor in REST's spelling (Bot logins gain `[bot]`)."""
    if not actor:
        return None, None
    login = actor.get("login")
    kind = actor.get("__typename")
    if not login:
        return None, None
    if kind == "Bot" and not login.endswith("[bot]"):
        login = f"{login}[bot]"
    return login, kind


def label_name(label: JSON | str) -> str:
    """A REST label: an object with `name`, or (GitHub's description allows both) the bare
    name as a string."""
    return label if isinstance(label, str) else label["name"]


def rest_reactions(obj: JSON | None) -> dict[str, int]:
    if not obj:
        return {}
    return {key: int(obj[key]) for key in REACTION_KEYS if obj.get(key)}


def graphql_reactions(groups: list[JSON] | None) -> dict[str, int]:
    counts: dict[str, int] = {}
    for group in groups or []:
        key = GRAPHQL_REACTIONS.get(group.get("content", ""))
        total = ((group.get("reactors") or {}).get("totalCount")) or 0
        if key and total:
            counts[key] = int(total)
    # Keep REST's key order so equal reactions serialise identically whatever the source.
    return {key: counts[key] for key in REACTION_KEYS if key in counts}


def number_from_url(url: str | None) -> int:
    if not url:
        raise ValueError("GitHub answer lacks the parent URL")
    return int(url.rstrip("/").rsplit("/", 1)[1])


def repository_from_rest(repo: JSON) -> RepositoryRecord:
    return RepositoryRecord(
        full_name=repo["full_name"],
        github_id=repo.get("node_id"),
        url=repo.get("html_url"),
        description=repo.get("description"),
        default_branch=repo.get("default_branch"),
    )


def item_from_rest(issue: JSON) -> ItemRecord:
    pr = issue.get("pull_request")
    is_pr = pr is not None
    author, author_type = rest_actor(issue.get("user"))
    return ItemRecord(
        number=issue["number"],
        kind="pr" if is_pr else "issue",
        github_id=issue.get("node_id"),
        title=issue.get("title") or "",
        body=issue.get("body"),
        author=author,
        author_type=author_type,
        author_association=issue.get("author_association"),
        state=issue["state"],
        state_reason=issue.get("state_reason"),
        draft=bool(issue.get("draft")) if is_pr else None,
        locked=bool(issue.get("locked")),
        labels=[label_name(label) for label in issue.get("labels") or []],
        created_at=required_time(issue["created_at"], "created_at"),
        updated_at=required_time(issue["updated_at"], "updated_at"),
        closed_at=parse_time(issue.get("closed_at")),
        merged_at=parse_time((pr or {}).get("merged_at")),
        reactions=rest_reactions(issue.get("reactions")),
        comments_count=int(issue.get("comments") or 0),
        url=issue.get("html_url"),
    )


def comment_from_rest(comment: JSON) -> CommentRecord:
    author, author_type = rest_actor(comment.get("user"))
    return CommentRecord(
        id=comment["id"],
        number=number_from_url(comment.get("issue_url")),
        github_id=comment.get("node_id"),
        author=author,
        author_type=author_type,
        author_association=comment.get("author_association"),
        body=comment.get("body"),
        created_at=required_time(comment["created_at"], "created_at"),
        updated_at=required_time(comment["updated_at"], "updated_at"),
        reactions=rest_reactions(comment.get("reactions")),
        url=comment.get("html_url"),
    )


def review_comment_from_rest(comment: JSON) -> ReviewCommentRecord:
    author, author_type = rest_actor(comment.get("user"))
    return ReviewCommentRecord(
        id=comment["id"],
        number=number_from_url(comment.get("pull_request_url")),
        review_id=comment.get("pull_request_review_id"),
        in_reply_to_id=comment.get("in_reply_to_id"),
        github_id=comment.get("node_id"),
        author=author,
        author_type=author_type,
        author_association=comment.get("author_association"),
        path=comment.get("path") or "",
        line=comment.get("line"),
        original_line=comment.get("original_line"),
        side=comment.get("side"),
        diff_hunk=comment.get("diff_hunk"),
        body=comment.get("body"),
        commit_sha=comment.get("commit_id"),
        created_at=required_time(comment["created_at"], "created_at"),
        updated_at=required_time(comment["updated_at"], "updated_at"),
        reactions=rest_reactions(comment.get("reactions")),
        url=comment.get("html_url"),
    )


def pr_details_from_graphql(pr: JSON) -> PRDetails:
    """The item columns a GraphQL PullRequest fills (labels, review_comments_count and
    unresolved_threads KEPT: they need its nested connections, which may take continuation
    pages)."""
    author, author_type = graphql_actor(pr.get("author"))
    merged_by, _ = graphql_actor(pr.get("mergedBy"))
    state = str(pr["state"]).lower()
    return PRDetails(
        number=pr["number"],
        github_id=pr.get("id"),
        title=pr.get("title") or "",
        # GraphQL's `body: String!` gives "" where REST gives null; records follow REST.
        body=pr.get("body") or None,
        author=author,
        author_type=author_type,
        author_association=pr.get("authorAssociation"),
        state="closed" if state == "merged" else state,
        draft=pr.get("isDraft"),
        locked=bool(pr.get("locked")),
        created_at=parse_time(pr["createdAt"]),
        updated_at=required_time(pr["updatedAt"], "updatedAt"),
        closed_at=parse_time(pr.get("closedAt")),
        merged_at=parse_time(pr.get("mergedAt")),
        merged=pr.get("merged"),
        merged_by=merged_by if pr.get("merged") else None,
        merge_commit_sha=(pr.get("mergeCommit") or {}).get("oid") if pr.get("merged") else None,
        additions=pr.get("additions"),
        deletions=pr.get("deletions"),
        changed_files=pr.get("changedFiles"),
        commits=(pr.get("commits") or {}).get("totalCount"),
        base_ref=pr.get("baseRefName"),
        head_ref=pr.get("headRefName"),
        head_sha=pr.get("headRefOid"),
        review_decision=pr.get("reviewDecision"),
        reactions=graphql_reactions(pr.get("reactionGroups")),
        comments_count=int((pr.get("comments") or {}).get("totalCount") or 0),
        url=pr.get("url"),
    )


def review_id(node: JSON) -> int | None:
    """A review's REST id: `fullDatabaseId` (a BigInt, sent as a string) or `databaseId`.

    Both are nullable in GitHub's schema and only one is asked for; None when neither came
    (the sync then looks the id up by the review's node id in the REST listing).
    """
    for key in ("fullDatabaseId", "databaseId"):
        value = node.get(key)
        if value is not None:
            return int(value)
    return None


def review_ids_from_rest(reviews: Iterable[JSON]) -> dict[str, int]:
    """node id -> REST id, from a PR's REST review listing."""
    return {
        str(review["node_id"]): int(review["id"])
        for review in reviews
        if review.get("node_id") and review.get("id") is not None
    }


def review_from_graphql(node: JSON, number: int) -> ReviewRecord:
    author, author_type = graphql_actor(node.get("author"))
    rid = review_id(node)
    if rid is None:
        raise ValueError(f"review {node.get('id')} of #{number} has no database id")
    return ReviewRecord(
        id=rid,
        number=number,
        github_id=node.get("id"),
        author=author,
        author_type=author_type,
        author_association=node.get("authorAssociation"),
        state=node["state"],
        body=node.get("body"),
        submitted_at=parse_time(node.get("submittedAt")),
        commit_sha=(node.get("commit") or {}).get("oid"),
        comments_count=int((node.get("comments") or {}).get("totalCount") or 0),
        url=node.get("url"),
    )


def file_from_graphql(node: JSON, number: int) -> PRFileRecord:
    change = node.get("changeType")
    return PRFileRecord(
        number=number,
        path=node["path"],
        previous_path=None,
        status=CHANGE_TYPES.get(change, change.lower()) if change else None,
        additions=node.get("additions"),
        deletions=node.get("deletions"),
    )


def file_from_rest(row: JSON, number: int) -> PRFileRecord:
    """A row of REST `GET /pulls/{n}/files` (the fallback when GraphQL answers `files: null`
    for a very large PR)."""
    path = row["filename"]
    if not isinstance(path, str):
        raise TypeError("a file's filename must be a string")
    return PRFileRecord(
        number=number,
        path=path,
        previous_path=row.get("previous_filename"),
        status=row.get("status"),
        additions=row.get("additions"),
        deletions=row.get("deletions"),
    )


def patch_from_rest(row: JSON) -> tuple[str, str | None]:
    """A row of REST `GET /pulls/{n}/files` read for its diff: the path and GitHub's `patch`
    (unified hunks with context), which GitHub leaves out for binary files and for diffs too
    large for it to show."""
    path, patch = row["filename"], row.get("patch")
    if not isinstance(path, str) or not isinstance(patch, str | None):
        raise TypeError("a file's filename and patch must be strings")
    return path, patch


@dataclass(frozen=True, slots=True)
class PullSizes:
    """REST `GET /pulls/{n}`'s own counts: `changed_files` is the true number of changed files
    even where GitHub lists only 3,000 of them (or GraphQL answers `changedFiles: 0`)."""

    changed_files: int
    additions: int
    deletions: int


def pull_sizes_from_rest(pull: JSON) -> PullSizes:
    counts: dict[str, int] = {}
    for key in ("changed_files", "additions", "deletions"):
        value = pull[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{key} is not a count")
        counts[key] = value
    return PullSizes(**counts)


def unresolved_threads(nodes: Iterable[JSON]) -> int:
    """How many review threads are unresolved (`isResolved: false`).

    GitHub gives the current state, not the state at merge; for a merged PR the two are
    usually the same, since threads are rarely resolved or reopened after merging.
    """
    return sum(1 for node in nodes if node.get("isResolved") is False)


def thread_from_graphql(node: JSON) -> tuple[int | None, bool, bool]:
    """A review thread: its first comment's REST id (None when GitHub gives none), whether it
    is resolved and whether GitHub calls it outdated."""
    resolved, outdated = node["isResolved"], node.get("isOutdated", False)
    if not isinstance(resolved, bool) or not isinstance(outdated, bool):
        raise TypeError("a thread's isResolved and isOutdated must be true or false")
    first = [c for c in (node.get("comments") or {}).get("nodes") or [] if c is not None]
    root = review_id(first[0]) if first else None
    return root, resolved, outdated


def commit_from_graphql(node: JSON) -> tuple[str, datetime]:
    """A PR commit: its sha and commit time."""
    commit = node["commit"]
    sha = commit["oid"]
    if not isinstance(sha, str):
        raise TypeError("a commit's oid must be a string")
    return sha, required_time(commit["committedDate"], "committedDate")


def closing_ref_from_graphql(node: JSON, number: int) -> ClosingRefRecord:
    return ClosingRefRecord(
        number=number,
        issue_repo=node["repository"]["nameWithOwner"],
        issue_number=node["number"],
    )
