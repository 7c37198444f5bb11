"""`tidings notify`: send reports' headlines and links to chat and mail ([notify] urls)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tidings import api
from tidings.cli import console
from tidings.cli.app import JsonOpt, State, app, say, state, warn
from tidings.errors import TidingsError


def _newest_reports(reports_dir: Path, run: State) -> list[Path]:
    """The newest daily and weekly report files of each configured repository, in the
    languages [notify] asks for: what `tidings run` would have announced last."""
    cfg = run.config()
    if not cfg.repos:
        raise TidingsError(
            "no report files given and tidings.toml lists no repositories",
            "pass REPORT.json files, or add [[repos]] (tidings init OWNER/REPO)",
        )
    chosen: list[Path] = []
    for repo in cfg.repos:
        langs = cfg.notify.languages or [repo.language]
        for kind in cfg.notify.kinds:
            for lang in langs:
                found = sorted((reports_dir / repo.name / kind).glob(f"*.{lang}.json"))
                if found:
                    chosen.append(found[-1])  # names sort by date / ISO week
    if not chosen:
        raise TidingsError(
            f"no reports under {reports_dir} yet", "run `tidings run` first, or pass REPORT.json"
        )
    return chosen


@app.command()
def notify(
    ctx: typer.Context,
    reports: Annotated[
        list[Path] | None,
        typer.Argument(
            metavar="REPORT.json",  # Click adds the brackets and dots
            help="Report files to announce (default: the newest daily and weekly report of "
            "each configured repository in [site] reports_dir).",
            show_default=False,
        ),
    ] = None,
    to: Annotated[
        list[str] | None,
        typer.Option(
            "--to",
            metavar="URL",
            help="Send here instead of [notify] urls: an Apprise URL such as "
            "slack://..., discord://..., msteams://..., feishu://..., dingtalk://..., "
            "wecombot://..., mailto://..., json://HOST/PATH; ${VAR} reads the environment. "
            "Repeatable.",
            show_default=False,
        ),
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the messages; send nothing.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Send each report's title, headline and link on the site to chat and mail (Apprise).

    `tidings run` does this by itself for each new report; this command re-sends, or tries
    the set-up. A failed message exits 1 here (in `run` it is only a warning)."""
    run = state(ctx)
    cfg = run.config()
    files = list(reports or []) or _newest_reports(Path(cfg.site.reports_dir), run)
    messages, deliveries = api.notify(files, cfg, urls=to, dry_run=dry_run)
    if as_json:
        console.emit_json(
            {
                "messages": [m.to_dict() for m in messages],
                "deliveries": [d.__dict__ for d in deliveries],
            }
        )
    elif dry_run:
        for m in messages:
            console.stdout.write(f"{m.title}\n{m.body}\n\n")
    failed = [d for d in deliveries if not d.ok]
    if not as_json:
        for delivery in failed:
            warn(delivery.line())
        if deliveries:
            say(f"notify: {len(deliveries) - len(failed)} of {len(deliveries)} messages sent")
    if failed:
        raise TidingsError(
            f"{len(failed)} of {len(deliveries)} notifications failed",
            "check the URLs in [notify] urls and the variables they read",
        )
