"""REST v3: the routes, the endpoints, pagination with Link headers, ETags on every answer."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl, urlencode

from testkit.servers.github.constants import PAGE_TOO_DEEP_MESSAGE, REST_DOCS
from testkit.servers.github.encoding import _epoch, _json, _parse_time
from testkit.servers.github.etags import _etag, _etag_matches, _http_date, _unmodified_since
from testkit.servers.github.rest_json import RestJsonMixin
from testkit.servers.github.state import _Repo
from testkit.servers.github.wire import Request, _HTTPError, _Response
from tidings.common import records as r

_REPO = r"/repos/(?P<owner>[^/]+)/(?P<name>[^/]+)"
_TEAM_MEMBERS = re.compile(r"^/orgs/(?P<org>[^/]+)/teams/(?P<slug>[^/]+)/members$")
_ROUTES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^{_REPO}$"), "repository"),
    (re.compile(rf"^{_REPO}/issues$"), "issues"),
    (re.compile(rf"^{_REPO}/issues/comments$"), "repo_comments"),
    (re.compile(rf"^{_REPO}/issues/comments/(?P<id>\d+)$"), "comment"),
    (re.compile(rf"^{_REPO}/issues/(?P<number>\d+)$"), "issue"),
    (re.compile(rf"^{_REPO}/issues/(?P<number>\d+)/comments$"), "issue_comments"),
    (re.compile(rf"^{_REPO}/pulls$"), "pulls"),
    (re.compile(rf"^{_REPO}/pulls/comments$"), "repo_review_comments"),
    (re.compile(rf"^{_REPO}/pulls/comments/(?P<id>\d+)$"), "review_comment"),
    (re.compile(rf"^{_REPO}/pulls/(?P<number>\d+)$"), "pull"),
    (re.compile(rf"^{_REPO}/pulls/(?P<number>\d+)/reviews$"), "reviews"),
    (re.compile(rf"^{_REPO}/pulls/(?P<number>\d+)/comments$"), "pull_review_comments"),
    (re.compile(rf"^{_REPO}/pulls/(?P<number>\d+)/files$"), "files"),
]


class RestMixin(RestJsonMixin):
    """REST endpoints, pagination and conditional answers."""

    def _rest_error(self, status: int, message: str) -> _Response:
        payload = {"message": message, "documentation_url": REST_DOCS, "status": str(status)}
        return _Response(
            status, _json(payload), {"Content-Type": "application/json; charset=utf-8"}
        )

    def _ok(
        self,
        request: Request,
        payload: Any,
        link: str | None = None,
        *,
        last_modified: datetime | None = None,
    ) -> _Response:
        """A 200 with its ETag (bound to the token, etags.py), or a 304 for a matching
        `If-None-Match`, or, without one, for `If-Modified-Since` where the resource has a
        `Last-Modified`."""
        body = _json(payload)
        tag = _etag(body, link, request.token)
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "Cache-Control": "private, max-age=60, s-maxage=60",
            "Vary": "Accept, Authorization, Cookie, X-GitHub-OTP",
            "ETag": tag,
            "x-github-media-type": "github.v3; format=json",
        }
        if link:
            headers["Link"] = link
        if last_modified is not None:
            headers["Last-Modified"] = _http_date(last_modified)
        wanted = request.headers.get("if-none-match")
        since = request.headers.get("if-modified-since")
        if wanted is not None:  # HTTP: If-None-Match, when sent, decides alone
            fresh = _etag_matches(wanted, tag)
        elif since is not None and last_modified is not None:
            fresh = _unmodified_since(since, last_modified)
        else:
            fresh = False
        if fresh:
            headers.pop("Content-Type")
            return _Response(304, b"", headers, not_modified=True)
        return _Response(200, body, headers)

    def _page(self, request: Request, rows: list[Any], render: Callable[[Any], Any]) -> _Response:
        per_page = _int_param(request.query.get("per_page"), 30)
        per_page = min(per_page if per_page >= 1 else 30, self.per_page_max)
        page = max(1, _int_param(request.query.get("page"), 1))
        if self.max_page is not None and page > self.max_page:
            raise _HTTPError(422, PAGE_TOO_DEEP_MESSAGE)
        pages = max(1, -(-len(rows) // per_page))
        chunk = rows[(page - 1) * per_page : page * per_page]
        return self._ok(request, [render(row) for row in chunk], self._link(request, page, pages))

    def _link(self, request: Request, page: int, pages: int) -> str | None:
        if pages <= 1 and page <= 1:
            return None
        params = [(k, v) for k, v in parse_qsl(request.raw_query, keep_blank_values=True)]
        params = [(k, v) for k, v in params if k != "page"]

        def url(n: int) -> str:
            return f"{self.api_url}{request.path}?{urlencode([*params, ('page', str(n))])}"

        parts: list[str] = []
        if page > 1:
            parts.append(f'<{url(min(page - 1, pages))}>; rel="prev"')
        if page < pages:
            parts.append(f'<{url(page + 1)}>; rel="next"')
            parts.append(f'<{url(pages)}>; rel="last"')
        if page > 1:
            parts.append(f'<{url(1)}>; rel="first"')
        return ", ".join(parts) or None

    # REST endpoints. Each runs under the lock and returns a finished response.

    def _rest_repository(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        return self._ok(request, self._repo_json(repo), last_modified=repo.updated_at)

    def _rest_issues(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        q = request.query
        state = q.get("state", "open")
        if state not in ("open", "closed", "all"):
            raise _HTTPError(422, "Validation Failed")
        rows = [i for i in repo.items.values() if not i.deleted]
        if state != "all":
            rows = [i for i in rows if i.state == state]
        if q.get("since"):
            since = _since(q["since"])
            rows = [i for i in rows if i.updated_at >= since]
        if q.get("labels"):
            wanted = {x.strip().lower() for x in q["labels"].split(",") if x.strip()}
            rows = [i for i in rows if wanted <= {x.lower() for x in i.labels}]
        if q.get("creator"):
            rows = [i for i in rows if (i.author or "").lower() == q["creator"].lower()]
        sort = q.get("sort", "created")
        keys: dict[str, Callable[[r.ItemRecord], tuple[int, int]]] = {
            "created": lambda i: (_epoch(i.created_at), i.number),
            "updated": lambda i: (_epoch(i.updated_at), i.number),
            "comments": lambda i: (i.comments_count, i.number),
        }
        if sort not in keys:
            raise _HTTPError(422, "Validation Failed")
        rows.sort(key=keys[sort], reverse=_descending(q.get("direction"), default=True))
        return self._page(request, rows, lambda i: self._issue_json(repo, i))

    def _rest_pulls(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        q = request.query
        state = q.get("state", "open")
        rows = [i for i in repo.items.values() if i.kind == "pr" and not i.deleted]
        if state != "all":
            rows = [i for i in rows if i.state == state]
        sort = q.get("sort", "created")
        keys: dict[str, Callable[[r.ItemRecord], tuple[int, int]]] = {
            "created": lambda i: (_epoch(i.created_at), i.number),
            "updated": lambda i: (_epoch(i.updated_at), i.number),
            "popularity": lambda i: (i.comments_count, i.number),
            "long-running": lambda i: (-_epoch(i.created_at), i.number),
        }
        if sort not in keys:
            raise _HTTPError(422, "Validation Failed")
        rows.sort(key=keys[sort], reverse=_descending(q.get("direction"), default=True))
        return self._page(request, rows, lambda i: self._pull_json(repo, i))

    def _visible_item(self, repo: _Repo, params: dict[str, str]) -> r.ItemRecord:
        item = repo.items.get(int(params["number"]))
        if item is None:
            raise _HTTPError(404, "Not Found")
        if item.deleted:
            raise _HTTPError(410, "This issue was deleted")
        return item

    def _rest_issue(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        return self._ok(request, self._issue_json(repo, self._visible_item(repo, params)))

    def _rest_pull(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        item = repo.items.get(int(params["number"]))
        if item is None or item.kind != "pr" or item.deleted:
            raise _HTTPError(404, "Not Found")
        return self._ok(request, self._pull_json(repo, item))

    def _pr(self, repo: _Repo, params: dict[str, str]) -> r.ItemRecord:
        item = repo.items.get(int(params["number"]))
        if item is None or item.kind != "pr" or item.deleted:
            raise _HTTPError(404, "Not Found")
        return item

    def _comment_rows(self, request: Request, rows: list[Any], *, sortable: bool) -> list[Any]:
        q = request.query
        if q.get("since"):
            since = _since(q["since"])
            rows = [c for c in rows if c.updated_at >= since]
        sort = q.get("sort") if sortable else None
        if sort is None:
            # Without `sort` GitHub lists comments in ascending id order; direction is ignored.
            rows.sort(key=lambda c: c.id)
            return rows
        if sort not in ("created", "updated"):
            raise _HTTPError(422, "Validation Failed")
        attr = "created_at" if sort == "created" else "updated_at"
        rows.sort(
            key=lambda c: (_epoch(getattr(c, attr)), c.id),
            reverse=_descending(q.get("direction"), default=True),
        )
        return rows

    def _rest_repo_comments(
        self, request: Request, repo: _Repo, params: dict[str, str]
    ) -> _Response:
        rows = [c for c in repo.comments.values() if not c.deleted and repo.item_visible(c.number)]
        rows = self._comment_rows(request, rows, sortable=True)
        return self._page(request, rows, lambda c: self._comment_json(repo, c))

    def _rest_issue_comments(
        self, request: Request, repo: _Repo, params: dict[str, str]
    ) -> _Response:
        item = self._visible_item(repo, params)
        rows = [c for c in repo.comments.values() if c.number == item.number and not c.deleted]
        rows = self._comment_rows(request, rows, sortable=False)
        return self._page(request, rows, lambda c: self._comment_json(repo, c))

    def _rest_comment(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        c = repo.comments.get(int(params["id"]))
        if c is None or c.deleted or not repo.item_visible(c.number):
            raise _HTTPError(404, "Not Found")
        return self._ok(request, self._comment_json(repo, c))

    def _rest_repo_review_comments(
        self, request: Request, repo: _Repo, params: dict[str, str]
    ) -> _Response:
        rows = [
            c
            for c in repo.review_comments.values()
            if not c.deleted and repo.item_visible(c.number)
        ]
        rows = self._comment_rows(request, rows, sortable=True)
        return self._page(request, rows, lambda c: self._review_comment_json(repo, c))

    def _rest_pull_review_comments(
        self, request: Request, repo: _Repo, params: dict[str, str]
    ) -> _Response:
        item = self._pr(repo, params)
        rows = [
            c for c in repo.review_comments.values() if c.number == item.number and not c.deleted
        ]
        rows = self._comment_rows(request, rows, sortable=True)
        return self._page(request, rows, lambda c: self._review_comment_json(repo, c))

    def _rest_review_comment(
        self, request: Request, repo: _Repo, params: dict[str, str]
    ) -> _Response:
        c = repo.review_comments.get(int(params["id"]))
        if c is None or c.deleted or not repo.item_visible(c.number):
            raise _HTTPError(404, "Not Found")
        return self._ok(request, self._review_comment_json(repo, c))

    def _rest_reviews(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        item = self._pr(repo, params)
        rows = sorted(
            (rv for rv in repo.reviews.values() if rv.number == item.number and not rv.deleted),
            key=lambda rv: rv.id,
        )
        return self._page(request, rows, lambda rv: self._review_json(repo, rv))

    def _rest_team_members(self, request: Request, org: str, slug: str) -> _Response:
        # GitHub answers 404 both for no such team and for one this token may not see.
        with self._lock:
            members = self._teams.get(f"{org}/{slug}".lower())
            if members is None:
                raise _HTTPError(404, "Not Found")
            return self._page(request, list(members), lambda login: self._user(login, "User"))

    def _rest_files(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        item = self._pr(repo, params)
        rows = repo.pr_files(item.number)
        return self._page(request, list(rows), lambda f: self._file_json(repo, f))


def _int_param(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _descending(direction: str | None, *, default: bool) -> bool:
    if direction is None:
        return default
    if direction not in ("asc", "desc"):
        raise _HTTPError(422, "Validation Failed")
    return direction == "desc"


def _since(value: str) -> datetime:
    try:
        return _parse_time(value)
    except ValueError:
        raise _HTTPError(422, "Validation Failed") from None
