"""REST v3 JSON for repositories, issues, PRs, comments, reviews, files and users."""

from __future__ import annotations

from typing import Any

from testkit.servers.github.constants import GHOST, REACTION_KEYS, WEB
from testkit.servers.github.core import FakeCore
from testkit.servers.github.encoding import (
    _actor_node_id,
    _actor_type,
    _iso,
    _node_id,
    _sha,
    _stable_int,
)
from testkit.servers.github.state import _Repo
from tidings.common import records as r


class RestJsonMixin(FakeCore):
    """Records rendered as GitHub's REST JSON (docs/github-mapping.md is the contract)."""

    def _api(self, repo: _Repo) -> str:
        return f"{self.api_url}/repos/{repo.full_name}"

    def _user(self, login: str | None, kind: str | None) -> dict[str, Any] | None:
        if login is None:
            return None if self.null_rest_users else dict(GHOST)
        kind = _actor_type(login, kind) or "User"
        uid = _stable_int("user", login.lower())
        bare = login.removesuffix("[bot]")
        html = f"{WEB}/apps/{bare}" if kind == "Bot" else f"{WEB}/{login}"
        api = f"{self.api_url}/users/{login}"
        return {
            "login": login,
            "id": uid,
            "node_id": _actor_node_id(login, kind),
            "avatar_url": f"https://avatars.githubusercontent.com/u/{uid}?v=4",
            "gravatar_id": "",
            "url": api,
            "html_url": html,
            "followers_url": f"{api}/followers",
            "following_url": f"{api}/following{{/other_user}}",
            "gists_url": f"{api}/gists{{/gist_id}}",
            "starred_url": f"{api}/starred{{/owner}}{{/repo}}",
            "subscriptions_url": f"{api}/subscriptions",
            "organizations_url": f"{api}/orgs",
            "repos_url": f"{api}/repos",
            "events_url": f"{api}/events{{/privacy}}",
            "received_events_url": f"{api}/received_events",
            "type": kind,
            "user_view_type": "public",
            "site_admin": False,
        }

    def _reactions(self, url: str, reactions: dict[str, int]) -> dict[str, Any]:
        counts = {key: int(reactions.get(key, 0)) for key in REACTION_KEYS}
        return {"url": f"{url}/reactions", "total_count": sum(counts.values()), **counts}

    def _rest_labels(self, repo: _Repo, names: list[str]) -> list[dict[str, Any]] | list[str]:
        return list(names) if self.label_strings else self._labels(repo, names)

    def _labels(self, repo: _Repo, names: list[str]) -> list[dict[str, Any]]:
        return [
            {
                "id": _stable_int("label", repo.full_name.lower(), name),
                "node_id": _node_id("LA", _stable_int("label", repo.full_name.lower(), name)),
                "url": f"{self._api(repo)}/labels/{name}",
                "name": name,
                "color": _sha("color", name)[:6],
                "default": False,
                "description": None,
            }
            for name in names
        ]

    def _repo_json(self, repo: _Repo) -> dict[str, Any]:
        record = repo.record
        owner, _, name = record.full_name.partition("/")
        api = self._api(repo)
        return {
            "id": repo.rest_id,
            "node_id": record.github_id,
            "name": name,
            "full_name": record.full_name,
            "private": False,
            "owner": self._user(owner, "Organization"),
            "html_url": record.url,
            "description": record.description,
            "fork": False,
            "url": api,
            "issues_url": f"{api}/issues{{/number}}",
            "pulls_url": f"{api}/pulls{{/number}}",
            "issue_comment_url": f"{api}/issues/comments{{/number}}",
            "default_branch": record.default_branch,
            "created_at": _iso(repo.created_at),
            "updated_at": _iso(repo.updated_at),
            "pushed_at": _iso(repo.pushed_at),
            "size": repo.size_kb,
            "stargazers_count": repo.stars,
            "watchers_count": repo.stars,
            "watchers": repo.stars,
            "forks_count": repo.forks,
            "forks": repo.forks,
            "network_count": repo.forks,
            "open_issues_count": repo.open_issues_count,
            "open_issues": repo.open_issues_count,
            "has_issues": True,
            "archived": False,
            "disabled": False,
            "visibility": "public",
        }

    def _issue_json(self, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        api = f"{self._api(repo)}/issues/{item.number}"
        out: dict[str, Any] = {
            "url": api,
            "repository_url": self._api(repo),
            "labels_url": f"{api}/labels{{/name}}",
            "comments_url": f"{api}/comments",
            "events_url": f"{api}/events",
            "html_url": item.url,
            "id": _stable_int(repo.full_name.lower(), "issue", item.number),
            "node_id": item.github_id,
            "number": item.number,
            "title": item.title,
            "user": self._user(item.author, item.author_type),
            "labels": self._rest_labels(repo, item.labels),
            "state": item.state,
            "locked": item.locked,
            "assignee": None,
            "assignees": [],
            "milestone": None,
            "comments": item.comments_count,
            "created_at": _iso(item.created_at),
            "updated_at": _iso(item.updated_at),
            "closed_at": _iso(item.closed_at),
            "author_association": item.author_association,
            "type": None,
            "active_lock_reason": None,
            "body": item.body,
            "closed_by": None,
            "reactions": self._reactions(api, item.reactions),
            "timeline_url": f"{api}/timeline",
            "performed_via_github_app": None,
            "state_reason": item.state_reason,
        }
        if item.kind == "pr":
            pull = f"{self._api(repo)}/pulls/{item.number}"
            out["draft"] = bool(item.draft)
            out["pull_request"] = {
                "url": pull,
                "html_url": item.url,
                "diff_url": f"{item.url}.diff",
                "patch_url": f"{item.url}.patch",
                "merged_at": _iso(item.merged_at),
            }
        return out

    def _pull_json(self, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        api = f"{self._api(repo)}/pulls/{item.number}"
        issue_api = f"{self._api(repo)}/issues/{item.number}"
        repo_json = self._repo_json(repo)
        owner = repo.full_name.partition("/")[0]
        review_comments = sum(
            1 for rc in repo.review_comments.values() if rc.number == item.number and not rc.deleted
        )
        return {
            "url": api,
            "id": _stable_int(repo.full_name.lower(), "pull", item.number),
            "node_id": item.github_id,
            "html_url": item.url,
            "diff_url": f"{item.url}.diff",
            "patch_url": f"{item.url}.patch",
            "issue_url": issue_api,
            "number": item.number,
            "state": item.state,
            "locked": item.locked,
            "title": item.title,
            "user": self._user(item.author, item.author_type),
            "body": item.body,
            "labels": self._rest_labels(repo, item.labels),
            "milestone": None,
            "active_lock_reason": None,
            "created_at": _iso(item.created_at),
            "updated_at": _iso(repo.pull_updated.get(item.number, item.updated_at)),
            "closed_at": _iso(item.closed_at),
            "merged_at": _iso(item.merged_at),
            "merge_commit_sha": item.merge_commit_sha,
            "assignee": None,
            "assignees": [],
            "requested_reviewers": [],
            "requested_teams": [],
            "commits_url": f"{api}/commits",
            "review_comments_url": f"{api}/comments",
            "comments_url": f"{issue_api}/comments",
            "head": {
                "label": f"{owner}:{item.head_ref}",
                "ref": item.head_ref,
                "sha": item.head_sha,
                "user": self._user(owner, "Organization"),
                "repo": repo_json,
            },
            "base": {
                "label": f"{owner}:{item.base_ref}",
                "ref": item.base_ref,
                "sha": _sha(repo.full_name.lower(), "base", item.number),
                "user": self._user(owner, "Organization"),
                "repo": repo_json,
            },
            "author_association": item.author_association,
            "auto_merge": None,
            "draft": bool(item.draft),
            "merged": bool(item.merged),
            "mergeable": None,
            "rebaseable": None,
            "mergeable_state": "unknown",
            "merged_by": self._user(item.merged_by, None) if item.merged_by else None,
            "comments": item.comments_count,
            "review_comments": review_comments,
            "maintainer_can_modify": False,
            "commits": item.commits,
            "additions": item.additions,
            "deletions": item.deletions,
            "changed_files": item.changed_files,
        }

    def _comment_json(self, repo: _Repo, c: r.CommentRecord) -> dict[str, Any]:
        api = f"{self._api(repo)}/issues/comments/{c.id}"
        return {
            "url": api,
            "html_url": c.url,
            "issue_url": f"{self._api(repo)}/issues/{c.number}",
            "id": c.id,
            "node_id": c.github_id,
            "user": self._user(c.author, c.author_type),
            "created_at": _iso(c.created_at),
            "updated_at": _iso(c.updated_at),
            "author_association": c.author_association,
            "body": c.body,
            "reactions": self._reactions(api, c.reactions),
            "performed_via_github_app": None,
        }

    def _review_json(self, repo: _Repo, rv: r.ReviewRecord) -> dict[str, Any]:
        pull = f"{self._api(repo)}/pulls/{rv.number}"
        return {
            "id": rv.id,
            "node_id": rv.github_id,
            "user": self._user(rv.author, rv.author_type),
            "body": rv.body or "",
            "state": rv.state,
            "html_url": rv.url,
            "pull_request_url": pull,
            "author_association": rv.author_association,
            "_links": {"html": {"href": rv.url}, "pull_request": {"href": pull}},
            "submitted_at": _iso(rv.submitted_at),
            "commit_id": rv.commit_sha,
        }

    def _review_comment_json(self, repo: _Repo, rc: r.ReviewCommentRecord) -> dict[str, Any]:
        api = f"{self._api(repo)}/pulls/comments/{rc.id}"
        pull = f"{self._api(repo)}/pulls/{rc.number}"
        out: dict[str, Any] = {
            "url": api,
            "pull_request_review_id": rc.review_id,
            "id": rc.id,
            "node_id": rc.github_id,
            "diff_hunk": rc.diff_hunk,
            "path": rc.path,
            "commit_id": rc.commit_sha,
            "original_commit_id": rc.commit_sha,
            "user": self._user(rc.author, rc.author_type),
            "body": rc.body,
            "created_at": _iso(rc.created_at),
            "updated_at": _iso(rc.updated_at),
            "html_url": rc.url,
            "pull_request_url": pull,
            "author_association": rc.author_association,
            "_links": {
                "self": {"href": api},
                "html": {"href": rc.url},
                "pull_request": {"href": pull},
            },
            "reactions": self._reactions(api, rc.reactions),
            "start_line": None,
            "original_start_line": None,
            "start_side": None,
            "line": rc.line,
            "original_line": rc.original_line,
            "side": rc.side,
            "original_position": rc.original_line,
            "position": rc.line,
            "subject_type": "line",
        }
        if rc.in_reply_to_id is not None:
            out["in_reply_to_id"] = rc.in_reply_to_id  # GitHub omits the key on thread starts
        return out

    def _file_json(self, repo: _Repo, f: r.PRFileRecord) -> dict[str, Any]:
        sha = _sha(repo.full_name.lower(), f.number, f.path)
        base = f"{repo.html_url}/blob/{sha}"
        out: dict[str, Any] = {
            "sha": sha,
            "filename": f.path,
            "status": f.status,
            "additions": f.additions,
            "deletions": f.deletions,
            "changes": (f.additions or 0) + (f.deletions or 0),
            "blob_url": f"{base}/{f.path}",
            "raw_url": f"{repo.html_url}/raw/{sha}/{f.path}",
            "contents_url": f"{self._api(repo)}/contents/{f.path}?ref={sha}",
        }
        if f.previous_path is not None:
            out["previous_filename"] = f.previous_path
        # The record's diff, served as GitHub's `patch` (unified hunks, with context if the
        # record has it); GitHub leaves the key out for binary and very large diffs, as here
        # for a record without one.
        if f.patch is not None:
            out["patch"] = f.patch
        return out
