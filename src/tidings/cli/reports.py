"""Commands that write reports: report daily, report weekly, demo."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tidings import api
from tidings.cli import console
from tidings.cli.app import (
    AllowPartialOpt,
    FormatOpt,
    LangOpt,
    LLMOpt,
    OptRepoArg,
    OutOpt,
    State,
    app,
    bad_choice,
    check_when,
    say,
    state,
)
from tidings.errors import InvocationError

if TYPE_CHECKING:
    from tidings.common.config import Lang, RepoConfig
    from tidings.render.files import Format, Report

report_app = typer.Typer(
    help="Daily and weekly reports as Markdown, JSON (the report model) or PDF.",
    no_args_is_help=True,
)
app.add_typer(report_app, name="report")


def _setup(
    ctx: typer.Context, repo: str | None, lang: str | None, fmt: str | None, out: Path | None
) -> tuple[State, RepoConfig, Lang, Format]:
    """What both report commands check before building: (state, repo settings, language,
    format); every usage mistake is found here, before the store is touched."""
    run = state(ctx)
    # Usage mistakes first, before the note on an unconfigured repository.
    if lang is not None and lang not in api.LANGS:
        raise bad_choice("--lang", lang, api.LANGS)
    if fmt is None:  # --out report.pdf asks for a PDF as plainly as --format pdf does
        suffix = out.suffix.lstrip(".") if out is not None else ""
        fmt = suffix if suffix in api.REPORT_FORMATS else "md"
    if fmt not in api.REPORT_FORMATS:
        raise bad_choice("--format", fmt, api.REPORT_FORMATS)
    if fmt == "pdf" and out is None:
        raise InvocationError("--format pdf writes a file: give --out", "e.g. --out report.pdf")
    settings = run.repo(repo)
    language = lang or settings.language
    # Asked for a PDF: one that shows boxes is no answer (render/fonts.py).
    api.check_report_format(fmt, language)
    return run, settings, language, fmt


def _write(report: Report, fmt: Format, out: Path | None) -> None:
    if out is not None:
        api.write_report(report, out, fmt)
        say(f"wrote {out}")
        return
    text = api.render_report(report, fmt)
    assert isinstance(text, str)  # a PDF needs --out (_setup)
    console.stdout.write(text)
    console.stdout.flush()


@report_app.command("daily")
def report_daily(
    ctx: typer.Context,
    repo: OptRepoArg = None,
    date: Annotated[
        str | None,
        typer.Option(
            "--date",
            help="The day: YYYY-MM-DD, today or yesterday (default: the last day whose "
            "window has ended at the repository's cut-off).",
            show_default=False,
        ),
    ] = None,
    lang: LangOpt = None,
    fmt: FormatOpt = None,
    out: OutOpt = None,
    llm: LLMOpt = None,
    allow_partial: AllowPartialOpt = False,
) -> None:
    """Write one day's report: every number from the store, prose by a model or by rules."""
    check_when(date, None)
    run, settings, language, form = _setup(ctx, repo, lang, fmt, out)
    day = api.resolve_day(date, settings)
    report = api.build_daily(
        run.db,
        settings,
        day,
        language,
        config=run.config(),
        llm=llm,
        allow_partial=allow_partial,
    )
    _write(report, form, out)


@report_app.command("weekly")
def report_weekly(
    ctx: typer.Context,
    repo: OptRepoArg = None,
    week: Annotated[
        str | None,
        typer.Option(
            "--week",
            help="The ISO week: YYYY-Www, this-week or last-week (default: the last week "
            "that has ended).",
            show_default=False,
        ),
    ] = None,
    lang: LangOpt = None,
    fmt: FormatOpt = None,
    out: OutOpt = None,
    llm: LLMOpt = None,
    allow_partial: AllowPartialOpt = False,
) -> None:
    """Write one ISO week's report: merged work, risk tags, trends; prose by a model (reusing
    the daily per-PR analyses) or by rules."""
    check_when(None, week)
    run, settings, language, form = _setup(ctx, repo, lang, fmt, out)
    year_week = api.resolve_week(week, settings)
    report = api.build_weekly(
        run.db,
        settings,
        year_week,
        language,
        config=run.config(),
        llm=llm,
        allow_partial=allow_partial,
    )
    _write(report, form, out)


def tell(lines: str) -> None:
    """A command's own result for people, on stdout."""
    console.out.print(lines, markup=False, soft_wrap=True, highlight=False)


@app.command()
def demo(
    ctx: typer.Context,
    out: Annotated[
        Path, typer.Option("--out", help="Folder for the demo's store and reports.")
    ] = Path("tidings-demo"),
    site: Annotated[
        bool, typer.Option("--site/--no-site", help="Also build the static site in OUT/site.")
    ] = True,
    pdf: Annotated[
        bool, typer.Option("--pdf/--no-pdf", help="A PDF of each report (and on the site).")
    ] = True,
) -> None:
    """Import the bundled sample; write its daily and weekly reports and site (offline)."""
    # The demo keeps its own store in OUT unless --db or TIDINGS_DB names one.
    with console.progress_display() as progress:
        result = api.build_demo(out, store=state(ctx).db, site=site, pdf=pdf, progress=progress)
    kept = len(result.reports) * (3 if pdf else 2) - len(result.files) - result.pdfs_skipped
    same = f"; {kept} already up to date" if kept > 0 else ""
    # The summary is what `tidings demo` was asked for, so it goes to stdout (progress,
    # warnings and errors stay on stderr).
    tell(
        f"wrote {len(result.files)} files for {result.repo} ({len(result.days)} days and weeks "
        f"{', '.join(result.weeks)}, zh and en, Markdown, JSON{' and PDF' if pdf else ''}{same})"
        f" to {out / 'daily'}/ and {out / 'weekly'}/\n"
        f"open one: {result.sample} or {out / 'weekly' / (result.weeks[-1] + '.zh.md')}"
    )
    if result.site_error is not None:
        raise result.site_error
    if result.site is not None:
        tell(
            f"built the site in {result.site_dir}/ ({result.site.reports} report pages, "
            f"{len(result.site.written)} files written)\n"
            f"preview it: tidings serve {result.site_dir}   or open "
            f"{result.site_dir / 'index.html'}"
        )
