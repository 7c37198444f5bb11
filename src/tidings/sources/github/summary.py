"""What one GitHub sync did, for the command's summary and `--json`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class SyncReport:
    repository: str
    items: int = 0
    comments: int = 0
    reviews: int = 0
    review_comments: int = 0
    pr_files: int = 0
    closing_refs: int = 0
    pr_details: int = 0  # PRs whose GraphQL details were (re)fetched
    reconciled: int = 0  # items whose comments were re-listed after a count mismatch
    marked_deleted: int = 0
    team_members: int = 0  # listed members of the config's maintainer teams
    # Diff evidence of merged PRs (patches.py): what it cost and what it gave.
    patch_requests: int = 0  # REST file listings asked for patches
    patched_prs: int = 0  # merged PRs whose patches were (re)fetched
    patched_files: int = 0  # files that took a patch
    files_without_patch: int = 0  # files GitHub listed with no patch (binary or too large)
    patches_deferred: int = 0  # merged PRs left for the next sync to keep the rate limit
    rest_requests: int = 0
    graphql_requests: int = 0
    not_modified: int = 0
    retries: int = 0
    waits: int = 0
    elapsed: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        return self.rest_requests + self.graphql_requests

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["requests"] = self.requests
        data["elapsed"] = round(self.elapsed, 3)
        return data
