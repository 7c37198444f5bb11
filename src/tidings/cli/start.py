"""`tidings init`: the config, and the daily workflow, for your repositories."""

from __future__ import annotations

from typing import Annotated

import typer

from tidings import api
from tidings.cli.app import app, bad_choice, say


@app.command()
def init(
    repos: Annotated[
        list[str],
        typer.Argument(metavar="OWNER/REPO", help="The GitHub repositories to report on."),
    ],
    timezone: Annotated[
        str, typer.Option(help="IANA timezone the daily windows are cut in.")
    ] = "UTC",
    cutoff: Annotated[
        str, typer.Option(help="When a day's window closes, local time HH:MM.")
    ] = "00:00",
    lang: Annotated[str, typer.Option("--lang", help="zh or en: the reports' language.")] = "en",
    github_actions: Annotated[
        bool,
        typer.Option(
            "--github-actions",
            help="Also write .github/workflows/tidings.yml: run daily, publish the site on "
            "GitHub Pages, announce new reports.",
        ),
    ] = False,
    install_from: Annotated[
        str | None,
        typer.Option(
            "--install-from",
            metavar="REQUIREMENT",
            help="What the workflow pip-installs (default: where this tidings came from: "
            "its version on the index, or its git URL and commit).",
            show_default=False,
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace files that exist.")] = False,
) -> None:
    """Write a commented tidings.toml here (and with --github-actions the daily workflow)."""
    language = lang
    if language not in api.LANGS:
        raise bad_choice("--lang", language, api.LANGS)
    written = api.init_project(
        repos,
        timezone=timezone,
        cutoff=cutoff,
        language=language,
        github_actions=github_actions,
        install=install_from,
        force=force,
    )
    say("wrote " + " and ".join(str(p) for p in written))
    say(
        "next: tidings run --lookback 30   (sync, write the due reports, build site/)"
        if not github_actions
        else "next: commit both files, push, then Settings → Pages → Source: GitHub Actions; "
        "the workflow runs daily (or start it from the Actions tab)"
    )
