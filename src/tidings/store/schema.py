"""Table definitions. Any change here needs a migration in store/migrations/versions/."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    text,
)

# Every text column keeps any text on both backends, NUL included (see types.TEXT_MARK).
from tidings.store.types import JSONType, UTCDateTime
from tidings.store.types import LosslessString as String
from tidings.store.types import LosslessText as Text

metadata = MetaData()

# An item whose comment counts have not been checked since it last changed (the re-sync's
# reconciliation, sources/github/sync.py): the partial index ix_items_repo_unchecked. Each
# predicate must stay the very one the sync's query states, or the planner cannot prove it
# may use the index (tests/store/test_query_plans.py fails if it stops being used).
UNCHECKED = "checked_updated_at IS NULL OR checked_updated_at != updated_at"
# An item whose PR details (GraphQL) are missing or stale: ix_items_repo_undetailed.
UNDETAILED = "detail_updated_at IS NULL OR detail_updated_at != updated_at"


def _repo_fk() -> Column[int]:
    return Column(
        "repo_id", Integer, ForeignKey("repositories.id", ondelete="CASCADE"), nullable=False
    )


def _author_columns() -> list[Column[str]]:
    return [
        Column("author", String(100)),
        Column("author_type", String(20)),
        Column("author_association", String(30)),
    ]


repositories = Table(
    "repositories",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("full_name", String(200), nullable=False, unique=True),
    Column("github_id", String(100)),
    Column("url", Text),
    Column("description", Text),
    Column("default_branch", String(200)),
)

items = Table(
    "items",
    metadata,
    _repo_fk(),
    Column("number", Integer, nullable=False),
    Column("kind", String(5), nullable=False),
    Column("github_id", String(100)),
    Column("title", Text, nullable=False),
    Column("body", Text),
    *_author_columns(),
    Column("state", String(10), nullable=False),
    Column("state_reason", String(30)),
    Column("draft", Boolean),
    Column("locked", Boolean, nullable=False, default=False),
    Column("labels", JSONType, nullable=False),
    # NULL: when the item was opened is unknown (a PR read from a git clone, which records only
    # its merge); a GitHub sync fills it in (migration 0007).
    Column("created_at", UTCDateTime),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("closed_at", UTCDateTime),
    Column("merged_at", UTCDateTime),
    Column("merged", Boolean),
    Column("merged_by", String(100)),
    Column("merge_commit_sha", String(64)),
    Column("additions", Integer),
    Column("deletions", Integer),
    Column("changed_files", Integer),
    Column("commits", Integer),
    Column("base_ref", Text),
    Column("head_ref", Text),
    Column("head_sha", String(64)),
    Column("review_decision", String(30)),
    Column("reactions", JSONType, nullable=False),
    Column("comments_count", Integer, nullable=False, default=0),
    Column("review_comments_count", Integer),
    Column("url", Text),
    Column("deleted", Boolean, nullable=False, default=False),
    Column("detail_updated_at", UTCDateTime),
    Column("checked_updated_at", UTCDateTime),
    # Where the row came from when not the GitHub API: "git" for a PR read from a local clone's
    # history (no comments, reviews or labels behind it).
    Column("source", String(10)),
    # Review threads still unresolved when last fetched (None: not known).
    Column("unresolved_threads", Integer),
    # The commit (merge, else head) whose diff GitHub's file listing last gave this merged
    # PR's patches for: a re-sync asks again only when it changed (sources/github/patches.py).
    Column("patch_sha", String(64)),
    PrimaryKeyConstraint("repo_id", "number"),
    Index("ix_items_repo_created", "repo_id", "created_at"),
    Index("ix_items_repo_closed", "repo_id", "closed_at"),
    Index("ix_items_repo_merged", "repo_id", "merged_at"),
    Index("ix_items_repo_updated", "repo_id", "updated_at"),
    # Whole-history questions read this narrow index, never the rows (migration 0005): who has
    # ever merged a PR (facts/roles.py) and how many live issues and PRs the store holds (the
    # re-sync's comparison with GitHub's totals).
    Index("ix_items_repo_kind_merger", "repo_id", "kind", "merged_by", "number", "deleted"),
    # The few items a re-sync still has to check against GitHub's counts; a quiet re-sync
    # finds none here instead of reading every item.
    Index(
        "ix_items_repo_unchecked",
        "repo_id",
        "number",
        sqlite_where=text(UNCHECKED),
        postgresql_where=text(UNCHECKED),
    ),
    # The few items marked deleted: "is this comment's item deleted?" without reading items.
    # Each backend's predicate is how SQLAlchemy writes `deleted IS true` there, so that its
    # planner can match the query's term to it.
    Index(
        "ix_items_repo_deleted",
        "repo_id",
        "number",
        sqlite_where=text("deleted IS 1"),
        postgresql_where=text("deleted IS true"),
    ),
    # Likewise the PRs whose GraphQL details are missing or older than the PR.
    Index(
        "ix_items_repo_undetailed",
        "repo_id",
        "kind",
        "number",
        sqlite_where=text(UNDETAILED),
        postgresql_where=text(UNDETAILED),
    ),
)

comments = Table(
    "comments",
    metadata,
    Column("id", BigInteger, nullable=False, autoincrement=False),
    _repo_fk(),
    Column("number", Integer, nullable=False),
    Column("github_id", String(100)),
    *_author_columns(),
    Column("body", Text),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("reactions", JSONType, nullable=False),
    Column("url", Text),
    Column("deleted", Boolean, nullable=False, default=False),
    # GitHub's ids, unique per repository here: another repository's snapshot (a renamed
    # repository, GitHub Enterprise next to github.com) may reuse them (migration 0004).
    PrimaryKeyConstraint("repo_id", "id"),
    # `deleted` in the index: the re-sync counts live comments per item from it alone.
    Index("ix_comments_repo_number", "repo_id", "number", "deleted"),
    Index("ix_comments_repo_created", "repo_id", "created_at"),
)

reviews = Table(
    "reviews",
    metadata,
    Column("id", BigInteger, nullable=False, autoincrement=False),
    _repo_fk(),
    Column("number", Integer, nullable=False),
    Column("github_id", String(100)),
    *_author_columns(),
    Column("state", String(30), nullable=False),
    Column("body", Text),
    Column("submitted_at", UTCDateTime),
    Column("commit_sha", String(64)),
    Column("comments_count", Integer, nullable=False, default=0),
    Column("url", Text),
    Column("deleted", Boolean, nullable=False, default=False),
    # GitHub's ids, unique per repository here: another repository's snapshot (a renamed
    # repository, GitHub Enterprise next to github.com) may reuse them (migration 0004).
    PrimaryKeyConstraint("repo_id", "id"),
    Index("ix_reviews_repo_number", "repo_id", "number"),
    Index("ix_reviews_repo_submitted", "repo_id", "submitted_at"),
)

review_comments = Table(
    "review_comments",
    metadata,
    Column("id", BigInteger, nullable=False, autoincrement=False),
    _repo_fk(),
    Column("number", Integer, nullable=False),
    Column("review_id", BigInteger),
    Column("in_reply_to_id", BigInteger),
    Column("github_id", String(100)),
    *_author_columns(),
    Column("path", Text, nullable=False),
    Column("line", Integer),
    Column("original_line", Integer),
    Column("side", String(10)),
    Column("diff_hunk", Text),
    Column("body", Text),
    Column("commit_sha", String(64)),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("reactions", JSONType, nullable=False),
    Column("url", Text),
    Column("deleted", Boolean, nullable=False, default=False),
    # GitHub's ids, unique per repository here: another repository's snapshot (a renamed
    # repository, GitHub Enterprise next to github.com) may reuse them (migration 0004).
    PrimaryKeyConstraint("repo_id", "id"),
    Index("ix_review_comments_repo_number", "repo_id", "number", "deleted"),
    Index("ix_review_comments_repo_created", "repo_id", "created_at"),
)

pr_files = Table(
    "pr_files",
    metadata,
    _repo_fk(),
    Column("number", Integer, nullable=False),
    Column("path", Text, nullable=False),
    Column("previous_path", Text),
    Column("status", String(20)),
    Column("additions", Integer),
    Column("deletions", Integer),
    # The file's diff hunks (`@@` headers, `-`/`+` lines; rows an older git sync wrote hold
    # the added lines alone): the risk rules that look at code, such as a new `assert` in
    # non-test code, need them. NULL where no source gave a diff.
    Column("patch", Text),
    PrimaryKeyConstraint("repo_id", "number", "path"),
)

# Inline review threads' state as GraphQL gives it (`reviewThreads`), one row per thread keyed
# by its first comment (a root row of review_comments): whether it was resolved and whether
# GitHub calls it outdated (a later commit changed the lines it is on). Replaced whole by each
# complete read of the PR's details. Snapshots carry it (`review_thread` records, format 2).
review_threads = Table(
    "review_threads",
    metadata,
    _repo_fk(),
    Column("number", Integer, nullable=False),
    Column("comment_id", BigInteger, nullable=False, autoincrement=False),
    Column("resolved", Boolean),
    Column("outdated", Boolean),
    PrimaryKeyConstraint("repo_id", "number", "comment_id"),
)

# A PR's commits with their commit times (GraphQL `commits`), so facts can tell which reviews
# a later commit followed. Replaced whole by each complete read; snapshots carry it
# (`pr_commit` records, format 2).
pr_commits = Table(
    "pr_commits",
    metadata,
    _repo_fk(),
    Column("number", Integer, nullable=False),
    Column("sha", String(64), nullable=False),
    Column("committed_at", UTCDateTime),
    PrimaryKeyConstraint("repo_id", "number", "sha"),
)

closing_refs = Table(
    "closing_refs",
    metadata,
    _repo_fk(),
    Column("number", Integer, nullable=False),
    Column("issue_repo", String(200), nullable=False),
    Column("issue_number", Integer, nullable=False),
    PrimaryKeyConstraint("repo_id", "number", "issue_repo", "issue_number"),
    # The other direction: which PRs close a given issue (facts/activity_data.py).
    Index("ix_closing_refs_issue", "repo_id", "issue_repo", "issue_number"),
)

sync_state = Table(
    "sync_state",
    metadata,
    _repo_fk(),
    Column("stream", String(50), nullable=False),
    Column("cursor", Text),
    Column("updated_at", UTCDateTime),
    PrimaryKeyConstraint("repo_id", "stream"),
)

# Conditional-request validators per URL (token-free); a 304 answer costs no rate limit.
http_cache = Table(
    "http_cache",
    metadata,
    Column("key", Text, primary_key=True),
    Column("etag", Text),
    Column("last_modified", Text),
)

# Model answers, keyed by a hash of everything that shapes them (input content, prompt and
# schema version, model, parameters, language): a re-run with unchanged input costs nothing.
llm_cache = Table(
    "llm_cache",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("kind", String(50), nullable=False),
    Column("model", String(200), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("value", JSONType, nullable=False),
    Column("prompt_tokens", Integer, nullable=False, default=0),
    Column("completion_tokens", Integer, nullable=False, default=0),
)
