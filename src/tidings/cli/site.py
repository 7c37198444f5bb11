"""Commands that publish: site build, serve, and run (the everyday job)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tidings import api
from tidings.cli import console
from tidings.cli.app import JsonOpt, LLMOpt, PdfOpt, app, say, state, warn

if TYPE_CHECKING:
    from tidings.jobs.runner import RepoOutcome

site_app = typer.Typer(help="Build the static report site (docs/site.md).", no_args_is_help=True)
app.add_typer(site_app, name="site")


@site_app.command("build")
def site_build(
    ctx: typer.Context,
    out: Annotated[
        Path | None, typer.Option("--out", help="Site folder (default: [site] out_dir, site).")
    ] = None,
    source: Annotated[
        Path | None,
        typer.Option(
            "--from", help="Folder of report JSON files (default: [site] reports_dir, reports)."
        ),
    ] = None,
    pdf: PdfOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Build the site from report JSON files; files whose bytes are unchanged are not written."""
    cfg = state(ctx).config().site
    target = out or Path(cfg.out_dir)
    with console.progress_display() as progress:
        result = api.build_site(
            source or Path(cfg.reports_dir), target, cfg, pdf=pdf, progress=progress
        )
    for warning in result.warnings:
        warn(warning)
    if as_json:
        console.emit_json(result.to_dict())
        return
    summary = {k: v for k, v in result.to_dict().items() if k != "warnings"}  # said above
    console.show(console.key_value_table(f"site {target}", summary))


@app.command()
def serve(
    directory: Annotated[
        Path, typer.Argument(metavar="[DIR]", help="A built site (default: site).")
    ] = Path("site"),
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port (0: any free one).")] = 8000,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
) -> None:
    """Preview a built site on localhost (Ctrl-C stops it)."""
    server = api.site_server(directory, host, port)
    bound_host, bound_port = server.server_address[:2]
    say(f"serving {directory} at http://{bound_host!s}:{bound_port}/ (Ctrl-C to stop)")
    try:
        server.serve_forever()
    finally:
        server.server_close()


# More repositories than this: `tidings run` prints a summary and the failures, not a table.
TABLE_ROWS = 20


@app.command("run")
def run_cmd(
    ctx: typer.Context,
    days: Annotated[
        int, typer.Option(min=1, max=62, help="Closed days to (re)check per repository.")
    ] = 7,
    site: Annotated[bool, typer.Option("--site/--no-site", help="Rebuild the site.")] = True,
    pdf: PdfOpt = None,
    llm: LLMOpt = None,
    concurrency: Annotated[
        int | None,
        typer.Option(
            "--concurrency",
            min=1,
            max=64,
            help="Repositories worked on at once (default: [run] concurrency, 4).",
        ),
    ] = None,
    full_history: Annotated[
        bool,
        typer.Option(
            "--full-history",
            help="A repository's first sync reads its whole history, not the last "
            "[run] first_sync_days (14) days and the week they start in.",
        ),
    ] = False,
    queue: Annotated[
        bool,
        typer.Option(
            "--queue",
            help="Do not run here: enqueue a job per repository for `tidings worker` "
            "processes on any machine sharing the PostgreSQL store (docs/scale.md).",
        ),
    ] = False,
    lookback: Annotated[
        int | None,
        typer.Option(
            "--lookback",
            min=1,
            metavar="DAYS",
            help="A repository never synced into this store reads only its last DAYS days "
            "and the week they start in (default: [run] first_sync_days, 14). Later syncs "
            "resume either way.",
        ),
    ] = None,
    notify: Annotated[
        bool,
        typer.Option(
            "--notify/--no-notify",
            help="Announce new reports to [notify] urls (a failed message is a warning).",
        ),
    ] = True,
    as_json: JsonOpt = False,
) -> None:
    """Sync every repository in tidings.toml, write the due reports, rebuild the site,
    announce what is new."""
    run = state(ctx)
    if queue:
        from tidings.cli.queue import enqueue_run

        enqueue_run(
            run, days=days, site=site, pdf=pdf, llm=llm, full_history=full_history, as_json=as_json
        )
        return
    with console.progress_display() as progress:
        result = api.run(
            run.db,
            run.config(),
            days=days,
            site=site,
            pdf=pdf,
            llm=llm,
            progress=progress,
            concurrency=concurrency,
            full_history=full_history,
            lookback=lookback,
            notify=notify,
        )
    for warning in result.warnings:
        warn(warning)
    if as_json:
        console.emit_json(result.to_dict())
    else:
        outcomes = result.repositories
        if len(outcomes) <= TABLE_ROWS:
            console.show(console.run_table(outcomes))
        else:  # one line per failure, then the summary below
            for outcome in outcomes:
                if not outcome.ok:
                    say(f"failed: {outcome.repo}: {outcome.error}")
        say(run_summary(outcomes))
        if (usage := result.usage) is not None:  # what this run cost; reports say what it wrote
            say(
                f"model: {usage.calls} requests, {usage.prompt_tokens} prompt and "
                f"{usage.completion_tokens} completion tokens, {usage.cache_hits} answers "
                "reused from the cache"
            )
        if result.site is not None:
            say(
                f"site: {result.site_dir}/ ({len(result.site.written)} files written, "
                f"{result.site.unchanged} unchanged)"
            )
        if sent := [d for d in result.notified if d.ok]:
            say(f"notify: {len(sent)} messages sent")
    if result.site_error is not None:
        raise result.site_error
    if not result.ok:
        raise typer.Exit(1)


def run_summary(outcomes: list[RepoOutcome]) -> str:
    failed = sum(1 for o in outcomes if not o.ok)
    written = sum(len(o.written) for o in outcomes)
    unchanged = sum(o.unchanged for o in outcomes)
    return (
        f"run: {len(outcomes)} repositories, {len(outcomes) - failed} ok, {failed} failed; "
        f"{written} reports written, {unchanged} unchanged"
    )
