"""The GitHub source: fetch a repository's issues, PRs, comments, reviews and files and
normalise them into records (no analysis here). See `sync.py` for the request plan."""

from tidings.sources.github.auth import resolve_token
from tidings.sources.github.client import ClientStats, GitHubClient
from tidings.sources.github.sync import SyncReport, sync_repository

__all__ = ["ClientStats", "GitHubClient", "SyncReport", "resolve_token", "sync_repository"]
