"""Stage 6: the members of the GitHub teams the config names as maintainers (facts/roles.py)."""

from __future__ import annotations

from tidings.sources.github import pages
from tidings.sources.github.client import NotFoundError, PageTooDeep
from tidings.sources.github.context import SyncContext
from tidings.store.teams import team_stream, write_team


def read_teams(ctx: SyncContext) -> None:
    """Store who is in each team the config names as maintainers. One request a team, a free
    304 while it is unchanged and fits one page. A team GitHub will not show, or answers
    oddly, keeps the members last listed, with a note."""
    store, client = ctx.store, ctx.client
    for team in ctx.teams:
        org, _, slug = team.partition("/")
        path = f"/orgs/{org}/teams/{slug}/members"
        params = {"per_page": pages.PER_PAGE}
        url = client.url_for(path, params)
        with store.begin() as conn:
            listed = store.get_cursor(conn, ctx.repo_id, team_stream(team)) is not None
            etag = store.get_etag(conn, url) if listed else None
        try:
            resp = client.get(path, params, etag=etag)
            if resp.not_modified:
                continue
            answers = [resp.json]
            while isinstance(answers[-1], list) and len(answers[-1]) >= pages.PER_PAGE:
                more = {**params, "page": len(answers) + 1}
                answers.append(client.get(path, more).json)
        except NotFoundError:
            _team_note(ctx, team, "is not visible to this token (it needs read:org)")
            continue
        except PageTooDeep:
            _team_note(ctx, team, "has more members than GitHub will page through")
            continue
        if not all(isinstance(answer, list) for answer in answers):
            _team_note(ctx, team, "was answered with something other than a member list")
            continue
        logins = [
            m["login"]
            for answer in answers
            for m in answer
            if isinstance(m, dict) and isinstance(m.get("login"), str)
        ]
        with store.begin() as conn:
            write_team(store, conn, ctx.repo_id, team, logins)
            # Only a one-page answer may be repeated as a 304: with more pages, an unchanged
            # first page says nothing of the others.
            if len(answers) == 1:
                store.set_etag(conn, url, resp.etag)
            else:
                store.forget_etag(conn, url)
        ctx.report.team_members += len(logins)


def _team_note(ctx: SyncContext, team: str, problem: str) -> None:
    ctx.say(f"team {team} {problem}; its members stay as last listed")
