"""A fair REST plan tidings is measured against: the repository-wide listings, then per PR
what REST lists only per PR.

The cheapest complete REST read of a repository's activity (no GraphQL) is:
- `GET /issues?state=all&since=` (issues and PRs, by update time),
- `GET /issues/comments?since=` and `GET /pulls/comments?since=` (every conversation and review
  comment of the repository, by update time: no per-item listing, none for items without any),
- then, per PR updated since, `GET /pulls/{n}/reviews` and `GET /pulls/{n}/files`, which REST
  has no repository-wide listing for,
- and, with `pull_details`, `GET /pulls/{n}` too: the issue listing lacks merge data (who
  merged, merge commit, additions, deletions, changed files, draft), so a collector that wants
  it pays one more request per PR.

Each listing pages with `per_page=100`. There are no conditional requests (no ETags), so a
re-run with nothing changed still lists; with ETags the same plan would answer 304s there. It
runs sequentially, like tidings' sync, so request counts and wall times compare like for like.
(An earlier baseline listed comments per item, even for items with none; that overstated what
REST needs by the number of items.)

Answers are parsed as JSON and kept in memory; nothing is written anywhere.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx

PER_PAGE = 100


@dataclass
class BaselineReport:
    requests: int = 0
    items: int = 0
    prs: int = 0
    comments: int = 0
    reviews: int = 0
    review_comments: int = 0
    pr_files: int = 0
    elapsed: float = 0.0
    since: str | None = None
    pull_details: bool = False

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["elapsed"] = round(self.elapsed, 3)
        return data


@dataclass
class _Fetched:
    """Everything read, kept in memory like a collector's cache before it writes."""

    items: list[dict[str, Any]] = field(default_factory=list)
    comments: list[dict[str, Any]] = field(default_factory=list)
    reviews: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    review_comments: list[dict[str, Any]] = field(default_factory=list)
    files: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    pulls: dict[int, dict[str, Any]] = field(default_factory=dict)


def _since(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class RestBaseline:
    """One REST sync of `full_name`; `run(since)` returns what it cost."""

    def __init__(
        self,
        api_url: str,
        full_name: str,
        token: str,
        *,
        pull_details: bool = False,
        timeout: float = 30.0,
    ) -> None:
        self.pull_details = pull_details
        self.repo_url = f"{api_url.rstrip('/')}/repos/{full_name}"
        self.client = httpx.Client(
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28",
                "User-Agent": "tidings-benchmark-baseline",
            },
            timeout=timeout,
        )
        self.report = BaselineReport()
        self.data = _Fetched()

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> RestBaseline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _get_all(self, path: str, params: dict[str, str] | None = None) -> list[dict[str, Any]]:
        """Every page of a listing: follow `Link: rel="next"`, else stop at a short page."""
        url: str | None = f"{self.repo_url}{path}"
        query: dict[str, str] | None = {**(params or {}), "per_page": str(PER_PAGE)}
        page = 1
        rows: list[dict[str, Any]] = []
        while url is not None:
            response = self.client.get(url, params=query)
            self.report.requests += 1
            response.raise_for_status()
            batch = response.json()
            rows.extend(batch)
            link = response.links.get("next", {}).get("url")
            if link:
                url, query = link, None
            elif len(batch) == PER_PAGE and "link" not in response.headers:
                page += 1
                url = f"{self.repo_url}{path}"
                query = {**(params or {}), "per_page": str(PER_PAGE), "page": str(page)}
            else:
                url = None
        return rows

    def run(self, since: datetime | None = None) -> BaselineReport:
        """Read everything updated at or after `since` (all history when None). An incremental
        run passes the time the previous run started, so nothing changed during it is missed."""
        self.report = BaselineReport(
            since=_since(since) if since else None, pull_details=self.pull_details
        )
        started = time.monotonic()
        params = {"sort": "updated", "direction": "asc"}
        if since is not None:
            params["since"] = _since(since)
        items = self._get_all("/issues", {"state": "all", **params})
        self.data.items = items
        self.data.comments = self._get_all("/issues/comments", params)
        self.data.review_comments = self._get_all("/pulls/comments", params)
        for item in items:
            if "pull_request" not in item:
                continue
            number = int(item["number"])
            self.report.prs += 1
            if self.pull_details:
                self.data.pulls[number] = self._get_one(f"/pulls/{number}")
            self.data.reviews[number] = self._get_all(f"/pulls/{number}/reviews")
            self.data.files[number] = self._get_all(f"/pulls/{number}/files")
            self.report.reviews += len(self.data.reviews[number])
            self.report.pr_files += len(self.data.files[number])
        self.report.items = len(items)
        self.report.comments = len(self.data.comments)
        self.report.review_comments = len(self.data.review_comments)
        self.report.elapsed = time.monotonic() - started
        return self.report

    def _get_one(self, path: str) -> dict[str, Any]:
        response = self.client.get(f"{self.repo_url}{path}")
        self.report.requests += 1
        response.raise_for_status()
        answer: dict[str, Any] = response.json()
        return answer


def run_baseline(
    api_url: str,
    full_name: str,
    token: str,
    *,
    since: datetime | None = None,
    pull_details: bool = False,
) -> BaselineReport:
    with RestBaseline(api_url, full_name, token, pull_details=pull_details) as baseline:
        return baseline.run(since)
