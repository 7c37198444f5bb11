"""The GraphQL documents the sync sends.

PR details go out as one query per batch with an alias per PR (`p<N>: pullRequest(number: N)`),
so ~25 PRs cost one request. Nested connections ask for their `totalCount` and `pageInfo`; when
a PR has more than one page, continuation queries fetch the rest, several PRs' continuations
aliased into one request (`c<i>: pullRequest(number: N) { files(first: 100, after: "…") }`).
Every query asks for `rateLimit` so the client can pace itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

RATE_LIMIT = "rateLimit { remaining resetAt cost }"

ACTOR = "login __typename"

# Review ids passed 2^31 in 2024, beyond GraphQL's `Int`: GitHub deprecated
# `PullRequestReview.databaseId` for `fullDatabaseId` (a BigInt sent as a string). Servers
# without it (older GitHub Enterprise) get `databaseId` instead.
REVIEW_ID_FIELDS = ("fullDatabaseId", "databaseId")


def _review_node(id_field: str) -> str:
    return f"""
  id {id_field} author {{ {ACTOR} }} authorAssociation state body submittedAt
  commit {{ oid }} comments {{ totalCount }} url
"""


FILE_NODE = "path additions deletions changeType"
CLOSING_NODE = "number repository { nameWithOwner }"
LABEL_NODE = "name"


# Resolution and whether GitHub calls the thread outdated, and its first comment's id, which
# ties it to the root row of the REST review-comment listing (which gives the comments
# themselves); `id` tells nodes apart across continuation pages.
def _thread_node(id_field: str) -> str:
    return f"id isResolved isOutdated comments(first: 1) {{ nodes {{ {id_field} }} }}"


# A PR's commits with their commit times: which review a later commit followed (facts/threads.py).
COMMIT_NODE = "commit { oid committedDate }"

PAGE_INFO = "pageInfo { hasNextPage endCursor }"

# connection name -> page size (GitHub's limit is 100 a page). GitHub prices a query by the
# connections it could open: each thread's `comments(first: 1)` counts once per thread the
# page could hold, so 100 threads a page made a 25-PR batch cost 27 points instead of 1. Most
# PRs have a handful of threads; the few with more than ten are read on by continuation pages.
CONNECTIONS: dict[str, int] = {
    "labels": 100,
    "reviews": 100,
    "files": 100,
    "closingIssuesReferences": 50,
    "reviewThreads": 10,
    "commits": 100,
}


# The smallest page a query too heavy for GitHub is cut down to (RESOURCE_LIMITS_EXCEEDED,
# timeouts): below it, continuation requests would cost more than the weight they save.
MIN_PAGE = 25


def _connection(
    name: str,
    after: str | None = None,
    review_id: str = REVIEW_ID_FIELDS[0],
    page: int | None = None,
) -> str:
    node = {
        "labels": LABEL_NODE,
        "reviews": _review_node(review_id),
        "files": FILE_NODE,
        "closingIssuesReferences": CLOSING_NODE,
        "reviewThreads": _thread_node(review_id),
        "commits": COMMIT_NODE,
    }[name]
    first = min(CONNECTIONS[name], page) if page else CONNECTIONS[name]
    args = f"first: {first}" + (f", after: {json.dumps(after)}" if after else "")
    return f"{name}({args}) {{ totalCount {PAGE_INFO} nodes {{ {node} }} }}"


def _pr_fields(review_id: str, page: int | None) -> str:
    return f"""
  id number title body url author {{ {ACTOR} }} authorAssociation state isDraft locked
  createdAt updatedAt closedAt mergedAt merged mergedBy {{ {ACTOR} }} mergeCommit {{ oid }}
  additions deletions changedFiles
  baseRefName headRefName headRefOid reviewDecision
  reactionGroups {{ content reactors {{ totalCount }} }}
  comments {{ totalCount }}
  {_connection("labels", page=page)}
  {_connection("reviews", review_id=review_id, page=page)}
  {_connection("files", page=page)}
  {_connection("closingIssuesReferences", page=page)}
  {_connection("reviewThreads", review_id=review_id, page=page)}
  {_connection("commits", page=page)}
"""


def pr_details(
    numbers: Iterable[int], review_id: str = REVIEW_ID_FIELDS[0], page: int | None = None
) -> str:
    """One query for several PRs; `page` caps every nested connection's page size (a query
    GitHub found too heavy even for one PR is retried with smaller pages)."""
    aliases = "\n".join(f"    p{n}: pullRequest(number: {n}) {{ ...PR }}" for n in numbers)
    return (
        "query($owner: String!, $name: String!) {\n"
        f"  {RATE_LIMIT}\n"
        "  repository(owner: $owner, name: $name) {\n"
        f"{aliases}\n"
        "  }\n"
        "}\n"
        f"fragment PR on PullRequest {{{_pr_fields(review_id, page)}}}\n"
    )


@dataclass(frozen=True)
class Continuation:
    """The rest of one PR's nested connection, from `after` on."""

    number: int
    connection: str
    after: str


def continuations(
    parts: Sequence[Continuation], review_id: str = REVIEW_ID_FIELDS[0], page: int | None = None
) -> str:
    aliases = "\n".join(
        f"    c{i}: pullRequest(number: {part.number}) "
        f"{{ number {_connection(part.connection, part.after, review_id, page)} }}"
        for i, part in enumerate(parts)
    )
    return (
        "query($owner: String!, $name: String!) {\n"
        f"  {RATE_LIMIT}\n"
        "  repository(owner: $owner, name: $name) {\n"
        f"{aliases}\n"
        "  }\n"
        "}\n"
    )


# `nameWithOwner` is the repository's name as GitHub spells it now (after a rename too): what
# a search for its items must name (`repo:`).
REPO_TOTALS = f"""
query($owner: String!, $name: String!) {{
  {RATE_LIMIT}
  repository(owner: $owner, name: $name) {{
    nameWithOwner
    issues {{ totalCount }}
    pullRequests {{ totalCount }}
  }}
}}
"""


def search_counts(count: int) -> str:
    """How many issues or PRs each of `count` searches matches (`$q0`, `$q1`…), aliased
    `s0`, `s1`… into one query. Counts only: no result is read, so no `first` is needed."""
    params = ", ".join(f"$q{i}: String!" for i in range(count))
    aliases = "\n".join(
        f"  s{i}: search(query: $q{i}, type: ISSUE) {{ issueCount }}" for i in range(count)
    )
    return f"query({params}) {{\n  {RATE_LIMIT}\n{aliases}\n}}\n"


def items_by_number(numbers: Iterable[int]) -> str:
    """Whether each issue or PR number still resolves in the repository, aliased
    `n<N>: issueOrPullRequest(number: N)`: a deleted or transferred one is null with a
    NOT_FOUND error."""
    aliases = "\n".join(
        f"    n{n}: issueOrPullRequest(number: {n}) {{ ...Numbered }}" for n in numbers
    )
    return (
        "query($owner: String!, $name: String!) {\n"
        f"  {RATE_LIMIT}\n"
        "  repository(owner: $owner, name: $name) {\n"
        f"{aliases}\n"
        "  }\n"
        "}\n"
        "fragment Numbered on IssueOrPullRequest {\n"
        "  ... on Issue { number }\n"
        "  ... on PullRequest { number }\n"
        "}\n"
    )


def item_numbers(connection: str) -> str:
    """Numbers only, 100 a page: the cheapest complete list of a repository's issues or PRs.
    `totalCount` on every page lets the sync check the listing against GitHub's own count."""
    if connection not in ("issues", "pullRequests"):
        raise ValueError(connection)
    return f"""
query($owner: String!, $name: String!, $after: String) {{
  {RATE_LIMIT}
  repository(owner: $owner, name: $name) {{
    {connection}(first: 100, after: $after) {{ totalCount {PAGE_INFO} nodes {{ number }} }}
  }}
}}
"""


def items_by_update(connection: str) -> str:
    """Issue or PR numbers with their update times, 100 a page by cursor, in update order:
    issues from `$since` on, oldest first (GitHub filters issues by time), PRs newest first
    (it filters PRs by nothing, so the caller stops once they are older than it needs)."""
    if connection == "issues":
        args = "filterBy: { since: $since }, orderBy: { field: UPDATED_AT, direction: ASC }"
    elif connection == "pullRequests":
        args = "orderBy: { field: UPDATED_AT, direction: DESC }"
    else:
        raise ValueError(connection)
    since = ", $since: DateTime" if connection == "issues" else ""
    return f"""
query($owner: String!, $name: String!, $after: String{since}) {{
  {RATE_LIMIT}
  repository(owner: $owner, name: $name) {{
    {connection}(first: 100, after: $after, {args}) {{
      {PAGE_INFO} nodes {{ number updatedAt }}
    }}
  }}
}}
"""
