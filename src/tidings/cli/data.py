"""Commands that fill and read the store: sync, import, export, repos, stats."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tidings import api
from tidings.cli import console
from tidings.cli.app import (
    AllowPartialOpt,
    JsonOpt,
    OptRepoArg,
    RepoArg,
    app,
    check_when,
    say,
    state,
)
from tidings.errors import InvocationError


@app.command()
def sync(
    ctx: typer.Context,
    repo: OptRepoArg = None,
    since: Annotated[
        str | None,
        typer.Option(
            help="Re-read everything updated since this day (YYYY-MM-DD, in the repository's "
            "timezone) instead of resuming from the last sync."
        ),
    ] = None,
    git: Annotated[
        Path | None,
        typer.Option(
            "--git",
            metavar="PATH",
            help="Read merged PRs from this local clone's first-parent history instead "
            "(offline, no token; labels, comments and reviews need an API sync).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Fetch the repository's issues, PRs, comments, reviews and files into the store."""
    run = state(ctx)
    repo = run.repo_name(repo)
    cfg = run.config()
    if git is not None and since is not None:
        raise InvocationError(
            "--since does not apply to --git", "a git sync reads only commits it has not read"
        )
    with console.progress_display() as progress:
        if git is not None:
            data = api.sync_git(run.db, repo, git, progress=progress).to_dict()
        else:
            data = api.sync(run.db, repo, config=cfg, since=since, progress=progress).to_dict()
    if as_json:
        console.emit_json(data)
    else:
        title = f"synced {repo} from {git}" if git is not None else f"synced {repo}"
        console.show(console.key_value_table(title, data))


@app.command("export")
def export_cmd(
    ctx: typer.Context,
    repo: RepoArg,
    file: Annotated[Path, typer.Argument(metavar="FILE.jsonl", help="Where to write.")],
) -> None:
    """Write a repository's records to a snapshot file (docs/snapshot.md)."""
    counts = api.export_snapshot(state(ctx).db, repo, file)
    say(f"wrote {counts.total} records of {repo} to {file}")


@app.command("import")
def import_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE.jsonl", help="A tidings snapshot.")],
) -> None:
    """Load a snapshot into the store (all or nothing; importing twice changes nothing)."""
    counts = api.import_snapshot(state(ctx).db, file)
    detail = ", ".join(f"{n:,} {_kinds(kind, n)}" for kind, n in counts.records.items() if n)
    names = ", ".join(counts.repositories) or "no repositories"
    say(f"imported {names}: {detail or 'no records'}")


@app.command()
def stats(
    ctx: typer.Context,
    repo: OptRepoArg = None,
    date: Annotated[
        str | None,
        typer.Option(
            "--date",
            help="A day: YYYY-MM-DD, today or yesterday, cut at the repository's cut-off.",
        ),
    ] = None,
    week: Annotated[
        str | None,
        typer.Option("--week", help="An ISO week: YYYY-Www, this-week or last-week."),
    ] = None,
    # The defaults are the API's (facts/stats.py); shown here without importing the store.
    depth: Annotated[
        int | None,
        typer.Option(min=1, show_default="2", help="Folder depth for the top directories."),
    ] = None,
    top: Annotated[
        int | None,
        typer.Option(min=1, show_default="10", help="How many paths and directories to list."),
    ] = None,
    allow_partial: AllowPartialOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Count a day's or week's issues, PRs, paths and people (JSON shape: docs/stats.md)."""
    from tidings.errors import WindowError

    run = state(ctx)
    if (date is None) == (week is None):
        raise WindowError("give exactly one of --date or --week", "e.g. --date yesterday")
    check_when(date, week)
    settings = run.repo(repo)
    result = api.stats(
        run.db,
        settings,
        day=api.resolve_day(date, settings) if date is not None else None,
        week=api.resolve_week(week, settings) if week is not None else None,
        config=run.config(),
        depth=depth,
        top=top,
        allow_partial=allow_partial,
    )
    if as_json:
        console.emit_json(result.to_json_dict())
        return
    console.show(*console.stats_tables(result))


@app.command()
def repos(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """List the repositories in the store with their item counts."""
    rows = api.repositories(state(ctx).db)
    if as_json:
        console.emit_json([r.model_dump(mode="json") for r in rows])
    elif not rows:
        say("the store is empty: run `tidings sync OWNER/REPO` first")
    else:
        console.show(console.repos_table(rows))


def _kinds(kind: str, n: int) -> str:
    """A snapshot record kind for a count: "1 repository", "105 items", "27 review_comments"."""
    if n == 1:
        return kind
    return kind[:-1] + "ies" if kind.endswith("y") else kind + "s"
