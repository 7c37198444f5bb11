"""Commands that publish: site build, serve, and run (the everyday job)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tidings import api, console
from tidings.cli.app import JsonOpt, LLMOpt, PdfOpt, app, say, state, warn

site_app = typer.Typer(help="Build the static report site (docs/site.md).", no_args_is_help=True)
app.add_typer(site_app, name="site")


@site_app.command("build")
def site_build(
    ctx: typer.Context,
    out: Annotated[
        Path | None, typer.Option("--out", help="Site folder (default: \\[site] out_dir, site).")
    ] = None,
    source: Annotated[
        Path | None,
        typer.Option(
            "--from", help="Folder of report JSON files (default: \\[site] reports_dir, reports)."
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
    console.out.print(console.key_value_table(f"site {target}", summary))


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


@app.command("run")
def run_cmd(
    ctx: typer.Context,
    days: Annotated[
        int, typer.Option(min=1, max=62, help="Closed days to (re)check per repository.")
    ] = 7,
    site: Annotated[bool, typer.Option("--site/--no-site", help="Rebuild the site.")] = True,
    pdf: PdfOpt = None,
    llm: LLMOpt = None,
    lookback: Annotated[
        int | None,
        typer.Option(
            "--lookback",
            min=1,
            metavar="DAYS",
            help="A repository never synced into this store reads only its last DAYS days "
            "(default: its whole history). Later syncs resume either way.",
        ),
    ] = None,
    notify: Annotated[
        bool,
        typer.Option(
            "--notify/--no-notify",
            help="Announce new reports to \\[notify] urls (a failed message is a warning).",
        ),
    ] = True,
    as_json: JsonOpt = False,
) -> None:
    """Sync every repository in tidings.toml, write the due reports, rebuild the site,
    announce what is new."""
    run = state(ctx)
    with console.progress_display() as progress:
        result = api.run(
            run.db,
            run.config(),
            days=days,
            site=site,
            pdf=pdf,
            llm=llm,
            progress=progress,
            lookback=lookback,
            notify=notify,
        )
    for warning in result.warnings:
        warn(warning)
    if as_json:
        console.emit_json(result.to_dict())
    else:
        console.out.print(console.run_table(result.repositories))
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
