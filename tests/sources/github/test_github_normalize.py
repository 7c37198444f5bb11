"""docs/github-mapping.md, case by case: GitHub JSON in, records out."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from tidings.common.records import KEPT
from tidings.sources.github import normalize as nz
from tidings.sources.github.pr import FIELD_COLUMNS
from tidings.store import schema

USER = {"login": "alice", "type": "User"}
GHOST = {"login": "ghost", "type": "User"}
BOT = {"login": "dependabot[bot]", "type": "Bot"}


def rest_issue(**kw: Any) -> dict[str, Any]:
    issue = {
        "number": 7,
        "node_id": "I_7",
        "title": "Crash on start",
        "body": "boom",
        "user": USER,
        "author_association": "CONTRIBUTOR",
        "state": "closed",
        "state_reason": "completed",
        "locked": False,
        "labels": [{"name": "bug"}, {"name": "rocm"}],
        "created_at": "2026-02-24T03:31:00Z",
        "updated_at": "2026-02-25T10:00:00Z",
        "closed_at": "2026-02-25T10:00:00Z",
        "comments": 3,
        "reactions": {"url": "x", "total_count": 3, "+1": 2, "-1": 0, "heart": 1, "eyes": 0},
        "html_url": "https://github.com/acme/widgets/issues/7",
    }
    issue.update(kw)
    return issue


def test_issue_from_rest() -> None:
    item = nz.item_from_rest(rest_issue())
    assert item.kind == "issue"
    assert item.github_id == "I_7"
    assert (item.author, item.author_type) == ("alice", "User")
    assert item.labels == ["bug", "rocm"]
    assert item.created_at == datetime(2026, 2, 24, 3, 31, tzinfo=UTC)
    assert item.reactions == {"+1": 2, "heart": 1}
    assert item.comments_count == 3
    assert item.draft is None and item.merged is None and item.merged_at is None
    assert item.state_reason == "completed"
    assert item.url == "https://github.com/acme/widgets/issues/7"


def test_pr_from_rest_listing() -> None:
    item = nz.item_from_rest(
        rest_issue(
            pull_request={"merged_at": "2026-02-25T09:00:00Z", "url": "x"},
            draft=True,
            reactions={"+1": 0},
        )
    )
    assert item.kind == "pr"
    assert item.draft is True
    assert item.merged_at == datetime(2026, 2, 25, 9, tzinfo=UTC)
    assert item.reactions == {}
    # PR-only fields wait for the GraphQL details.
    assert item.additions is None and item.merged is None


def test_ghost_author_is_none_in_rest_and_graphql() -> None:
    assert nz.item_from_rest(rest_issue(user=GHOST)).author is None
    assert nz.item_from_rest(rest_issue(user=GHOST)).author_type is None
    assert nz.item_from_rest(rest_issue(user=None)).author is None
    assert nz.graphql_actor(None) == (None, None)


def test_bot_suffix() -> None:
    assert nz.graphql_actor({"login": "dependabot", "__typename": "Bot"}) == (
        "dependabot[bot]",
        "Bot",
    )
    assert nz.graphql_actor({"login": "renovate[bot]", "__typename": "Bot"}) == (
        "renovate[bot]",
        "Bot",
    )
    assert nz.graphql_actor({"login": "alice", "__typename": "User"}) == ("alice", "User")
    assert nz.rest_actor(BOT) == ("dependabot[bot]", "Bot")


def test_graphql_reactions_only_non_zero_in_rest_order() -> None:
    groups = [
        {"content": c, "reactors": {"totalCount": n}}
        for c, n in [
            ("THUMBS_UP", 0),
            ("THUMBS_DOWN", 1),
            ("LAUGH", 0),
            ("HOORAY", 2),
            ("CONFUSED", 0),
            ("HEART", 0),
            ("ROCKET", 5),
            ("EYES", 0),
        ]
    ]
    assert nz.graphql_reactions(groups) == {"-1": 1, "hooray": 2, "rocket": 5}
    assert list(nz.graphql_reactions(groups)) == ["-1", "hooray", "rocket"]
    assert nz.graphql_reactions([]) == {}


def test_change_types_use_rest_words() -> None:
    expected = {
        "ADDED": "added",
        "DELETED": "removed",
        "MODIFIED": "modified",
        "RENAMED": "renamed",
        "COPIED": "copied",
        "CHANGED": "changed",
    }
    for change, status in expected.items():
        node = {"path": "a.py", "additions": 1, "deletions": 2, "changeType": change}
        record = nz.file_from_graphql(node, 5)
        assert record.status == status
        assert record.previous_path is None
        assert (record.number, record.additions, record.deletions) == (5, 1, 2)


def test_comment_number_from_issue_url() -> None:
    comment = nz.comment_from_rest(
        {
            "id": 99,
            "node_id": "IC_99",
            "issue_url": "https://api.github.com/repos/acme/widgets/issues/42",
            "user": BOT,
            "author_association": "NONE",
            "body": "hi",
            "created_at": "2026-02-24T03:31:00Z",
            "updated_at": "2026-02-24T03:32:00Z",
            "reactions": {"laugh": 1},
            "html_url": "https://github.com/acme/widgets/issues/42#issuecomment-99",
        }
    )
    assert (comment.id, comment.number, comment.author) == (99, 42, "dependabot[bot]")
    assert comment.reactions == {"laugh": 1}


def test_review_comment_from_rest() -> None:
    rc = nz.review_comment_from_rest(
        {
            "id": 5,
            "node_id": "PRRC_5",
            "pull_request_url": "https://api.github.com/repos/acme/widgets/pulls/8",
            "pull_request_review_id": 77,
            "in_reply_to_id": 4,
            "user": GHOST,
            "author_association": "MEMBER",
            "path": "src/a.py",
            "line": 10,
            "original_line": 9,
            "side": "RIGHT",
            "diff_hunk": "@@",
            "body": "nit",
            "commit_id": "abc",
            "created_at": "2026-02-24T03:31:00Z",
            "updated_at": "2026-02-24T03:31:00Z",
            "html_url": "u",
        }
    )
    assert (rc.number, rc.review_id, rc.in_reply_to_id, rc.commit_sha) == (8, 77, 4, "abc")
    assert rc.author is None and rc.author_type is None
    assert rc.reactions == {}


GRAPHQL_PR: dict[str, Any] = {
    "id": "PR_1",
    "number": 12,
    "title": "Speed up",
    "body": None,
    "url": "https://github.com/acme/widgets/pull/12",
    "author": {"login": "github-actions", "__typename": "Bot"},
    "authorAssociation": "NONE",
    "state": "MERGED",
    "isDraft": False,
    "locked": False,
    "createdAt": "2026-02-24T03:31:00Z",
    "updatedAt": "2026-02-26T00:00:00Z",
    "closedAt": "2026-02-25T00:00:00Z",
    "mergedAt": "2026-02-25T00:00:00Z",
    "merged": True,
    "mergedBy": {"login": "carol", "__typename": "User"},
    "mergeCommit": {"oid": "deadbeef"},
    "additions": 10,
    "deletions": 2,
    "changedFiles": 3,
    "commits": {"totalCount": 4},
    "baseRefName": "main",
    "headRefName": "fast",
    "headRefOid": "cafe",
    "reviewDecision": "APPROVED",
    "reactionGroups": [{"content": "HEART", "reactors": {"totalCount": 1}}],
    "comments": {"totalCount": 6},
}


def test_pr_details_from_graphql() -> None:
    details = nz.pr_details_from_graphql(GRAPHQL_PR)
    assert details.number == 12
    assert details.state == "closed"
    assert details.author == "github-actions[bot]"
    assert details.merged_by == "carol"
    assert details.merge_commit_sha == "deadbeef"
    assert details.commits == 4
    assert details.comments_count == 6
    assert details.reactions == {"heart": 1}
    assert details.body is None  # GraphQL's "" for no body is REST's null
    assert details.updated_at == datetime(2026, 2, 26, tzinfo=UTC)
    open_pr = {
        **GRAPHQL_PR,
        "state": "OPEN",
        "merged": False,
        "mergedBy": None,
        "mergeCommit": None,
    }
    details = nz.pr_details_from_graphql(open_pr)
    assert details.state == "open"
    assert details.merged_by is None and details.merge_commit_sha is None


def test_pr_details_write_the_item_columns_they_read_and_keep_the_rest() -> None:
    """The nested connections' columns are KEPT until read; a field GitHub refused is KEPT
    (written as stored, not as null); the number keys the row and is no column."""
    details = nz.pr_details_from_graphql(GRAPHQL_PR)
    columns = details.columns()
    assert "number" not in columns
    assert {"labels", "review_comments_count", "unresolved_threads"}.isdisjoint(columns)
    assert columns["merged_by"] == "carol" and columns["changed_files"] == 3
    assert set(columns) <= {c.name for c in schema.items.columns}
    refused = details.keeping(["merged_by", "reactions"])
    assert refused.merged_by is KEPT
    assert set(columns) - set(refused.columns()) == {"merged_by", "reactions"}


def test_every_column_a_refused_graphql_field_fills_can_be_kept() -> None:
    """FIELD_COLUMNS names PRDetails fields (a typo would be a TypeError, not a column that
    is quietly written as null)."""
    details = nz.pr_details_from_graphql(GRAPHQL_PR)
    for name, columns in FIELD_COLUMNS.items():
        kept = details.keeping(columns)
        assert all(getattr(kept, c) is KEPT for c in columns), name
    with pytest.raises(TypeError):
        details.keeping(["merged_bye"])


def test_pr_details_need_an_update_time() -> None:
    with pytest.raises(ValueError, match="updatedAt"):
        nz.pr_details_from_graphql({**GRAPHQL_PR, "updatedAt": None})


def test_review_and_closing_ref_from_graphql() -> None:
    review = nz.review_from_graphql(
        {
            "id": "PRR_1",
            "databaseId": 31,
            "author": {"login": "coderabbitai", "__typename": "Bot"},
            "authorAssociation": "NONE",
            "state": "CHANGES_REQUESTED",
            "body": "",
            "submittedAt": "2026-02-24T03:31:00Z",
            "commit": {"oid": "abc"},
            "comments": {"totalCount": 2},
            "url": "u",
        },
        12,
    )
    assert (review.id, review.github_id, review.author) == (31, "PRR_1", "coderabbitai[bot]")
    assert (review.commit_sha, review.comments_count) == ("abc", 2)
    ref = nz.closing_ref_from_graphql({"number": 3, "repository": {"nameWithOwner": "o/r"}}, 12)
    assert (ref.number, ref.issue_repo, ref.issue_number) == (12, "o/r", 3)


def test_repository_from_rest() -> None:
    repo = nz.repository_from_rest(
        {
            "full_name": "acme/widgets",
            "node_id": "R_1",
            "html_url": "https://github.com/acme/widgets",
            "description": None,
            "default_branch": "main",
        }
    )
    assert (repo.github_id, repo.default_branch) == ("R_1", "main")


def test_format_time_round_trips() -> None:
    t = nz.parse_time("2026-02-24T03:31:00Z")
    assert t is not None
    assert nz.format_time(t) == "2026-02-24T03:31:00Z"


# -- optional and variant fields of GitHub's real schema (issue #10) -----------------------------


def test_rest_labels_may_be_bare_strings() -> None:
    # GitHub's REST description types an issue's labels as "string or label object".
    item = nz.item_from_rest(rest_issue(labels=["bug", {"name": "rocm"}, "good first issue"]))
    assert item.labels == ["bug", "rocm", "good first issue"]


def test_review_id_falls_back_from_a_null_full_database_id() -> None:
    assert nz.review_id({"id": "PRR_1", "fullDatabaseId": "3000000001"}) == 3_000_000_001
    assert nz.review_id({"id": "PRR_1", "fullDatabaseId": None, "databaseId": 31}) == 31
    # Neither came (only one is asked for): no id to invent; the sync looks it up by node id.
    assert nz.review_id({"id": "PRR_1", "fullDatabaseId": None}) is None
    node = {"id": "PRR_1", "fullDatabaseId": None, "state": "COMMENTED"}
    try:
        nz.review_from_graphql(node, 5)
    except ValueError as exc:
        assert "PRR_1" in str(exc) and "#5" in str(exc)
    else:
        raise AssertionError("a review without an id must not become a record")


def test_review_ids_from_the_rest_listing_by_node_id() -> None:
    listed = [
        {"id": 3_000_000_001, "node_id": "PRR_a"},
        {"id": 17, "node_id": "PRR_b"},
        {"id": 18, "node_id": None},  # nothing to match it by
    ]
    assert nz.review_ids_from_rest(listed) == {"PRR_a": 3_000_000_001, "PRR_b": 17}


def test_deleted_authors_are_nobody_everywhere() -> None:
    # REST shows a deleted account as the "ghost" user, or as `user: null`; GraphQL as a null
    # author. All three are the same: no login, no type (reports call it "deleted user").
    for user in (GHOST, None):
        assert nz.rest_actor(user) == (None, None)
        comment = nz.comment_from_rest(
            {
                "id": 1,
                "issue_url": "https://api.github.com/repos/o/r/issues/4",
                "user": user,
                "created_at": "2026-02-24T03:31:00Z",
                "updated_at": "2026-02-24T03:31:00Z",
            }
        )
        assert (comment.author, comment.author_type) == (None, None)
    review = nz.review_from_graphql(
        {"id": "PRR_1", "fullDatabaseId": "9", "author": None, "state": "APPROVED"}, 4
    )
    assert (review.author, review.author_type) == (None, None)


def test_a_bot_is_one_identity_in_rest_and_graphql() -> None:
    # GraphQL's Bot login lacks the `[bot]` suffix REST has; both become REST's spelling, so
    # the same app is never counted as two participants.
    rest = nz.rest_actor({"login": "coderabbitai[bot]", "type": "Bot"})
    graphql = nz.graphql_actor({"login": "coderabbitai", "__typename": "Bot"})
    assert rest == graphql == ("coderabbitai[bot]", "Bot")
    # A user whose login merely resembles a bot's keeps it.
    assert nz.graphql_actor({"login": "bot", "__typename": "User"}) == ("bot", "User")
