"""Records as GitHub would report them: ids, urls and defaults filled in on the way in."""

from __future__ import annotations

from testkit.servers.github.encoding import (
    _actor_type,
    _clean_reactions,
    _node_id,
    _sha,
    _stable_int,
)
from testkit.servers.github.state import _Repo
from tidings.common import records as r

# Records are normalised on the way in to what GitHub would report (ids and urls filled,
# zero reactions dropped, PR-only fields cleared on issues), so `records_of` is exactly what
# a faithful client can read back.


def _normal_item(repo: _Repo, item: r.ItemRecord) -> r.ItemRecord:
    full = repo.full_name.lower()
    is_pr = item.kind == "pr"
    if item.github_id is None:
        item.github_id = _node_id("PR" if is_pr else "I", _stable_int(full, "item", item.number))
    if item.url is None:
        item.url = f"{repo.html_url}/{'pull' if is_pr else 'issues'}/{item.number}"
    item.author_type = _actor_type(item.author, item.author_type)
    item.author_association = item.author_association or "NONE"
    item.reactions = _clean_reactions(item.reactions)
    item.detail_updated_at = None
    item.checked_updated_at = None
    if not is_pr:
        for name in (
            "draft", "merged_at", "merged", "merged_by", "merge_commit_sha", "additions",
            "deletions", "changed_files", "commits", "base_ref", "head_ref", "head_sha",
            "review_decision", "review_comments_count",
        ):  # fmt: skip
            setattr(item, name, None)
        return item
    item.draft = bool(item.draft)
    if item.merged is None:
        item.merged = item.merged_at is not None
    item.base_ref = item.base_ref or repo.record.default_branch or "main"
    item.head_ref = item.head_ref or f"patch-{item.number}"
    item.head_sha = item.head_sha or _sha(full, "head", item.number)
    if item.commits is None:
        item.commits = 1
    return item


def _fill_pr_defaults(repo: _Repo) -> None:
    for item in repo.items.values():
        if item.kind != "pr":
            continue
        files = list(repo.files.get(item.number, {}).values())  # all, not just 3,000
        if item.additions is None:
            item.additions = sum(f.additions or 0 for f in files)
        if item.deletions is None:
            item.deletions = sum(f.deletions or 0 for f in files)
        if item.changed_files is None:
            item.changed_files = len(files)


def _normal_comment(repo: _Repo, c: r.CommentRecord) -> r.CommentRecord:
    c.github_id = c.github_id or _node_id("IC", c.id)
    c.url = c.url or f"{repo.item_url(c.number)}#issuecomment-{c.id}"
    c.author_type = _actor_type(c.author, c.author_type)
    c.author_association = c.author_association or "NONE"
    c.reactions = _clean_reactions(c.reactions)
    return c


def _normal_review(repo: _Repo, rv: r.ReviewRecord) -> r.ReviewRecord:
    rv.github_id = rv.github_id or _node_id("PRR", rv.id)
    rv.url = rv.url or f"{repo.item_url(rv.number)}#pullrequestreview-{rv.id}"
    rv.author_type = _actor_type(rv.author, rv.author_type)
    rv.author_association = rv.author_association or "NONE"
    rv.body = rv.body or ""  # a review's body is never null on GitHub (REST or GraphQL)
    return rv


def _normal_review_comment(repo: _Repo, rc: r.ReviewCommentRecord) -> r.ReviewCommentRecord:
    rc.github_id = rc.github_id or _node_id("PRRC", rc.id)
    rc.url = rc.url or f"{repo.item_url(rc.number)}#discussion_r{rc.id}"
    rc.author_type = _actor_type(rc.author, rc.author_type)
    rc.author_association = rc.author_association or "NONE"
    rc.diff_hunk = rc.diff_hunk if rc.diff_hunk is not None else ""
    rc.reactions = _clean_reactions(rc.reactions)
    return rc
