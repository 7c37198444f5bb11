"""One PR's GraphQL details as they are read: the node, its nested connections filled in
across continuation pages, and what of it could not be read (and why)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tidings.common.records import PRFileRecord
from tidings.sources.github import normalize as nz

FILES_CAP = 3000  # GitHub lists at most this many files of a PR, in GraphQL and REST alike

# Said of a file list that stopped at GitHub's cap: a gap no later read can fill.
FILES_CAP_NOTE = "GitHub lists at most"
# A GraphQL field GitHub may refuse (FORBIDDEN) -> the PRDetails fields (item columns) it
# fills, kept as stored.
FIELD_COLUMNS: dict[str, tuple[str, ...]] = {
    "author": ("author", "author_type"),
    "authorAssociation": ("author_association",),
    "mergedBy": ("merged_by",),
    "mergeCommit": ("merge_commit_sha",),
    "commits": ("commits",),
    "comments": ("comments_count",),
    "reactionGroups": ("reactions",),
    "reviewDecision": ("review_decision",),
}

# How nodes of each nested connection are told apart when pages overlap.
NODE_KEYS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "labels": lambda n: n["name"],
    # The node id, present on every review: `fullDatabaseId` may be null (see pr_fetch.review_ids).
    "reviews": lambda n: n.get("id") or nz.review_id(n),
    "files": lambda n: n["path"],
    "closingIssuesReferences": lambda n: (n["repository"]["nameWithOwner"], n["number"]),
    "reviewThreads": lambda n: n["id"],
    "commits": lambda n: n["commit"]["oid"],
}


@dataclass
class PRAnswer:
    """One PR's GraphQL answer, its nested connections filled in across continuation pages."""

    node: dict[str, Any]
    nodes: dict[str, dict[Any, dict[str, Any]]] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    incomplete: dict[str, str] = field(default_factory=dict)  # connection -> endCursor
    lost: set[str] = field(default_factory=set)  # continuation found the PR gone mid-way
    # Parts GitHub refused (FORBIDDEN): connection or field -> its message. Kept as stored.
    refused: dict[str, str] = field(default_factory=dict)
    # Parts not read for another reason: part -> why. Kept as stored too.
    unread: dict[str, str] = field(default_factory=dict)
    # GraphQL answered `files: null` (a very large PR): listed by REST instead.
    rest_files: bool = False
    # REST's own counts of a PR whose files came from REST.
    rest_sizes: nz.PullSizes | None = None
    file_records: list[PRFileRecord] = field(default_factory=list)  # the REST-listed files
    noted: set[str] = field(default_factory=set)  # parts whose shortfall has its own note

    def files(self) -> list[PRFileRecord]:
        if self.rest_files:
            return self.file_records
        return [nz.file_from_graphql(n, self.number) for n in self.nodes.get("files", {}).values()]

    def read(self, connection: str) -> int:
        if connection == "files" and self.rest_files:
            return len(self.file_records)
        return len(self.nodes.get(connection, {}))

    @property
    def number(self) -> int:
        return int(self.node["number"])

    @property
    def changed_files(self) -> int:
        """How many files the PR changes: REST's count when it was asked, else the larger of
        GraphQL's `changedFiles` (0 for some very large PRs) and the files it counts."""
        if self.rest_sizes is not None:
            return self.rest_sizes.changed_files
        return max(int(self.node.get("changedFiles") or 0), self.totals.get("files", 0))

    def add(
        self, connection: str, page: Mapping[str, Any] | None, refused: str | None = None
    ) -> None:
        if page is None:
            # Not read at all: REST lists the files; anything else GitHub refused is kept.
            if refused is not None:
                self.refused[connection] = refused
            elif connection == "files":
                self.rest_files = True
            else:  # shapes.py lets no other null through; should one come, keep the rows
                self.unread[connection] = "GitHub answered none"
            self.incomplete.pop(connection, None)
            return
        key = NODE_KEYS[connection]
        bucket = self.nodes.setdefault(connection, {})
        for node in page.get("nodes") or []:
            if node is not None:
                bucket.setdefault(key(node), node)
        self.totals[connection] = int(page.get("totalCount") or 0)
        info = page.get("pageInfo") or {}
        if info.get("hasNextPage") and info.get("endCursor"):
            self.incomplete[connection] = info["endCursor"]
        else:
            self.incomplete.pop(connection, None)

    def complete(self, connection: str) -> bool:
        """Every node GitHub counts for this connection was read: only then may rows absent
        from it be taken as deleted. (Files also against the PR's changed-file count: GitHub
        stops both the list and its `totalCount` at 3,000.)"""
        got = self.read(connection)
        return (
            connection not in self.incomplete
            and connection not in self.lost
            and not self.skipped(connection)
            and got >= self.totals.get(connection, 0)
            and (connection != "files" or got >= self.changed_files)
        )

    def skipped(self, part: str) -> bool:
        """Was this part not read at all (so the store's copy stands)?"""
        return part in self.refused or part in self.unread

    def gaps(self) -> dict[str, str]:
        """What of this PR was not read, part -> a phrase, for the sync summary and the
        item's record (store/gaps.py)."""
        out = {name: f"{name} not readable (FORBIDDEN)" for name in self.refused}
        out.update({name: f"{name} not read: {why}" for name, why in self.unread.items()})
        for connection in sorted(set(self.totals) | ({"files"} if self.rest_files else set())):
            if connection in out:
                continue
            got = self.read(connection)
            total = self.totals.get(connection, 0)
            if connection == "files":
                total = max(total, self.changed_files)
            if got < total:
                # The cap is the reason only where the list reached it (65 files are not).
                capped = connection == "files" and got >= FILES_CAP
                limit = f" ({FILES_CAP_NOTE} {FILES_CAP:,})" if capped else ""
                out[connection] = f"{got} of {total} {connection} available{limit}"
        return out
