"""The `tidings` command line: thin glue from arguments to the pipeline's functions.

`main()` owns failure handling: an expected failure (TidingsError) is one `error:` line on
stderr and its exit code; Ctrl-C exits 130. Nothing prints a traceback except a genuine bug
(exit 70), and every line goes through `redact`.

Exit codes, everywhere (README: Exit codes):
- 2, usage: the command line or the config file is wrong as written — Click's own errors
  (unknown option, missing argument, a value out of an option's range), a malformed or
  out-of-range value (date, week, repository name, --lang, --format, --db URL), two options
  that contradict each other, and anything wrong with tidings.toml. Raise InvocationError
  (or ConfigError) for these: re-running the same command can never succeed.
- 1, runtime: a well-formed command failed while carrying it out — a missing or damaged file,
  the store, GitHub, the network, the disk, data not synced yet. A plain TidingsError.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import traceback
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from sqlalchemy.exc import SQLAlchemyError

from tidings import __version__, console
from tidings.config import REPO_NAME, Config, load_config
from tidings.errors import ConfigError, InvocationError, TidingsError
from tidings.facts.stats import DEFAULT_DEPTH, DEFAULT_TOP
from tidings.store import Store, default_db_url

try:  # Typer 0.2x vendors Click privately; older Typer uses the click package.
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import ClickException, UsageError  # type: ignore[no-redef]

app = typer.Typer(
    name="tidings",
    help="Daily and weekly development reports for fast-moving GitHub repositories.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@dataclass
class State:
    db: str
    config_path: Path | None
    db_given: bool = False  # --db or TIDINGS_DB was set (the demo keeps its own store otherwise)
    _config: Config | None = field(default=None, repr=False)
    _stores: list[Store] = field(default_factory=list, repr=False)

    def config(self) -> Config:
        # Loaded on first use, so `tidings CMD --help` works even beside a broken config.
        if self._config is None:
            self._config = load_config(self.config_path)
        return self._config

    def store(self) -> Store:
        store = Store.open(self.db)
        self._stores.append(store)
        return store

    def close(self) -> None:
        for store in self._stores:
            store.close()


def _state(ctx: typer.Context) -> State:
    return ctx.ensure_object(State)


def _repo_name(value: str) -> str:
    if not REPO_NAME.match(value):
        raise InvocationError(
            f"repository must be OWNER/REPO, got {value!r}", "e.g. vllm-project/vllm"
        )
    return value


def _version(value: bool) -> None:
    if value:
        console.stdout.write(f"tidings {__version__}\n")
        raise typer.Exit()


@app.callback()
def root(
    ctx: typer.Context,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="TIDINGS_DB",
            help="Database URL: sqlite:///PATH or postgresql+psycopg://USER:PASS@HOST/DB "
            "(default: a SQLite file in your user data folder)",
            show_envvar=True,
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option("--config", help="Config file (default: ./tidings.toml when present)"),
    ] = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    state = State(db=db or default_db_url(), config_path=config, db_given=db is not None)
    ctx.obj = state
    ctx.call_on_close(state.close)


RepoArg = Annotated[str, typer.Argument(metavar="OWNER/REPO", help="The GitHub repository.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON on stdout instead of tables.")]


@app.command()
def sync(
    ctx: typer.Context,
    repo: RepoArg,
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
    from tidings.facts.windows import parse_date

    state = _state(ctx)
    repo = _repo_name(repo)
    cfg = state.config()
    if git is not None:
        if since is not None:
            raise InvocationError(
                "--since does not apply to --git", "a git sync reads only commits it has not read"
            )
        from tidings.sources.git import sync_git

        with console.progress_display() as progress:
            result = sync_git(state.store(), repo, git, progress=progress)
        data = result.to_dict()
        if as_json:
            console.emit_json(data)
        else:
            console.out.print(console.key_value_table(f"synced {repo} from {git}", data))
        return
    since_at = None
    if since is not None:
        day = parse_date(since)
        since_at = datetime.combine(day, datetime.min.time(), tzinfo=cfg.repo(repo).tz)
        since_at = since_at.astimezone(UTC)
    try:
        # Imported here: the GitHub source is the heaviest module and only this command needs it.
        from tidings.sources.github.auth import resolve_token
        from tidings.sources.github.sync import sync_repository
    except ImportError as exc:
        raise TidingsError(
            f"the GitHub source is not available ({exc})", "reinstall tidings: pip install -e ."
        ) from exc
    token = resolve_token(
        cfg.github.token_env
    )  # before opening the store: fail fast, touch nothing
    store = state.store()
    with console.progress_display() as progress:
        report = sync_repository(
            store,
            repo,
            github=cfg.github,
            token=token,
            since=since_at,
            progress=progress,
            teams=cfg.repo(repo).maintainer_teams,
        )
    data = report.to_dict()
    if as_json:
        console.emit_json(data)
    else:
        console.out.print(console.key_value_table(f"synced {repo}", data))


@app.command("export")
def export_cmd(
    ctx: typer.Context,
    repo: RepoArg,
    file: Annotated[Path, typer.Argument(metavar="FILE.jsonl", help="Where to write.")],
) -> None:
    """Write a repository's records to a snapshot file (docs/snapshot.md)."""
    from tidings.snapshot import export_snapshot

    counts = export_snapshot(_state(ctx).store(), _repo_name(repo), file)
    console.err.print(f"wrote {counts.total} records of {repo} to {file}", markup=False)


@app.command("import")
def import_cmd(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE.jsonl", help="A tidings snapshot.")],
) -> None:
    """Load a snapshot into the store (all or nothing; importing twice changes nothing)."""
    from tidings.snapshot import import_snapshot

    state = _state(ctx)
    if not file.is_file():
        raise TidingsError(f"snapshot {file} not found", "pass the path of a .jsonl snapshot")
    counts = import_snapshot(state.store(), file)
    detail = ", ".join(f"{n} {kind}" for kind, n in counts.records.items() if n)
    names = ", ".join(counts.repositories) or "no repositories"
    console.err.print(f"imported {names}: {detail or 'no records'}", markup=False)


AllowPartialOpt = Annotated[
    bool,
    typer.Option(
        "--allow-partial",
        help="Report a window that has not ended, or that the store's data does not reach "
        "to its end (the last sync, else the newest update; docs/report.md: Coverage), "
        "instead of refusing it.",
    ),
]


def _require_covered(store: Store, repo: str, window: Any, allow_partial: bool) -> None:
    """Refuse a window the store does not hold to its end (exit 1), or with --allow-partial
    say so in one warning line and go on."""
    from tidings.facts.coverage import coverage, uncovered

    with store.engine.connect() as conn:
        problem = uncovered(window, coverage(conn, store.require_repo(conn, repo)), repo)
    if problem is None:
        return
    if not allow_partial:
        raise problem
    console.err.print(
        f"warning: {problem.cause} — the numbers cover only what the store holds",
        markup=False,
        soft_wrap=True,
    )


@app.command()
def stats(
    ctx: typer.Context,
    repo: RepoArg,
    date: Annotated[
        str | None, typer.Option("--date", help="A day, YYYY-MM-DD, cut at the repo's cut-off.")
    ] = None,
    week: Annotated[str | None, typer.Option("--week", help="An ISO week, YYYY-Www.")] = None,
    depth: Annotated[
        int, typer.Option(min=1, help="Folder depth for the top directories.")
    ] = DEFAULT_DEPTH,
    top: Annotated[int, typer.Option(min=1, help="How many paths and directories to list.")] = (
        DEFAULT_TOP
    ),
    allow_partial: AllowPartialOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Count a day's or week's issues, PRs, paths and people (JSON shape: docs/stats.md)."""
    from tidings.facts.stats import window_stats
    from tidings.facts.windows import (
        WindowError,
        daily_window,
        parse_date,
        parse_week,
        weekly_window,
    )

    state = _state(ctx)
    repo = _repo_name(repo)
    if (date is None) == (week is None):
        raise WindowError("give exactly one of --date or --week", "e.g. --date 2026-02-24")
    settings = state.config().repo(repo)
    if date is not None:
        window = daily_window(parse_date(date), settings.tz, settings.cutoff_time)
    else:
        year, number = parse_week(week or "")
        window = weekly_window(year, number, settings.tz, settings.cutoff_time)
    store = state.store()
    _require_covered(store, repo, window, allow_partial)
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, repo)
        result = window_stats(
            conn, repo_id, window, bots=settings.bots, directory_depth=depth, top=top
        )
    if as_json:
        console.emit_json(result.to_json_dict())
        return
    for table in console.stats_tables(result):
        console.out.print(table)


@app.command()
def repos(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """List the repositories in the store with their item counts."""
    from tidings.facts.inventory import repository_summaries

    store = _state(ctx).store()
    with store.engine.connect() as conn:
        rows = repository_summaries(conn)
    if as_json:
        console.emit_json([r.model_dump(mode="json") for r in rows])
    elif not rows:
        console.err.print("the store is empty: run `tidings sync OWNER/REPO` first", markup=False)
    else:
        console.out.print(console.repos_table(rows))


report_app = typer.Typer(
    help="Daily and weekly reports as Markdown, JSON (the report model) or PDF.",
    no_args_is_help=True,
)
app.add_typer(report_app, name="report")

LangOpt = Annotated[
    str | None,
    typer.Option("--lang", help="zh or en (default: the repository's `language` in the config)."),
]
FormatOpt = Annotated[
    str,
    typer.Option(
        "--format",
        help="md (Markdown), json (the report model, docs/report.md) or pdf (needs --out).",
    ),
]
OutOpt = Annotated[Path | None, typer.Option("--out", help="Write to this file instead of stdout.")]
LLMOpt = Annotated[
    bool | None,
    typer.Option(
        "--llm/--no-llm",
        help="Let the \\[llm] model write the prose (default: when base_url and model are set).",
    ),
]


def _analyst(state: State, use: bool | None) -> Any:
    """The model layer for this run, or None for the deterministic writer alone."""
    llm = state.config().llm
    if use is False or (use is None and not (llm.base_url and llm.model)):
        return None
    from tidings.analysis.analyst import Analyst

    # The key lives only in the environment and the SDK's headers; redact() knows it.
    return Analyst.from_config(llm, state.store(), api_key=os.environ.get(llm.api_key_env))


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InvocationError(
            f"{name} must be one of {', '.join(allowed)}, got {value!r}",
            f"e.g. {name} {allowed[0]}",
        )
    return value


def _format(fmt: str, out: Path | None) -> str:
    _choice("--format", fmt, ("md", "json", "pdf"))
    if fmt == "pdf" and out is None:
        raise InvocationError("--format pdf writes a file: give --out", "e.g. --out report.pdf")
    return fmt


def _write_report(report: object, fmt: str, out: Path | None) -> None:
    from tidings.outputs import write_atomic

    if fmt == "pdf":
        from tidings.site.pdfs import report_pdf

        assert out is not None
        # From the JSON, as the site reads it: the same bytes as the site's PDF of the report.
        write_atomic(out, report_pdf(_render(report, "json"), out.with_suffix(".json")))
        console.err.print(f"wrote {out}", markup=False)
        return
    text = _render(report, fmt)
    if out is None:
        console.stdout.write(text)
        console.stdout.flush()
        return
    write_atomic(out, text)
    console.err.print(f"wrote {out}", markup=False)


def _render(report: object, fmt: str) -> str:
    from tidings.render.markdown import render_daily_markdown
    from tidings.render.weekly_markdown import render_weekly_markdown
    from tidings.report.model import DailyReport
    from tidings.report.weekly_model import WeeklyReport
    from tidings.textsafe import json_safe

    assert isinstance(report, DailyReport | WeeklyReport)
    if fmt == "json":  # json_safe: C1 and bidi controls as escapes, the same JSON value
        return json_safe(report.model_dump_json(indent=2)) + "\n"
    if isinstance(report, WeeklyReport):
        return render_weekly_markdown(report)
    return render_daily_markdown(report)


def _report_setup(
    ctx: typer.Context,
    repo: str,
    lang: str | None,
    fmt: str,
    out: Path | None,
    llm: bool | None,
) -> tuple[State, Any, Any, Any]:
    """What both report commands check and load before building: (state, repo settings,
    language, the model's analyst or None)."""
    state = _state(ctx)
    settings = state.config().repo(_repo_name(repo))
    language = _choice("--lang", lang or settings.language, ("zh", "en"))
    _format(fmt, out)
    _warn_unlisted_teams(state, settings)
    return state, settings, language, _analyst(state, llm)


def _warn_unlisted_teams(state: State, settings: Any) -> None:
    """A team in `maintainer_teams` that no sync has listed counts no one as a maintainer:
    say so rather than let the roles quietly fall back."""
    if not settings.maintainer_teams:
        return
    from tidings.store.teams import read_teams

    store = state.store()
    with store.engine.connect() as conn:
        repo_id = store.repo_id(conn, settings.name)
        listed = read_teams(conn, repo_id) if repo_id is not None else {}
    for team in settings.maintainer_teams:
        if team.lower() not in listed:
            console.err.print(
                f"warning: team {team} (maintainer_teams) has not been listed by a sync, so "
                f"its members count by their GitHub association only — run tidings sync "
                f"{settings.name} (a private team needs a token with read:org)",
                markup=False,
                soft_wrap=True,
            )


def _warn(analyst: Any) -> None:
    if analyst is not None and (warning := analyst.warning()):
        console.err.print(f"warning: {warning}", markup=False, soft_wrap=True)


@report_app.command("daily")
def report_daily(
    ctx: typer.Context,
    repo: RepoArg,
    date: Annotated[str, typer.Option("--date", help="The day, YYYY-MM-DD.")],
    lang: LangOpt = None,
    fmt: FormatOpt = "md",
    out: OutOpt = None,
    llm: LLMOpt = None,
    allow_partial: AllowPartialOpt = False,
) -> None:
    """Write one day's report: every number from the store, prose by a model or by rules."""
    from tidings.facts.windows import daily_window, parse_date
    from tidings.report.daily import build_daily

    day = parse_date(date)
    state, settings, language, analyst = _report_setup(ctx, repo, lang, fmt, out, llm)
    window = daily_window(day, settings.tz, settings.cutoff_time)
    store = state.store()
    _require_covered(store, settings.name, window, allow_partial)
    report = build_daily(store, settings, day, language, analysis=analyst)
    _warn(analyst)
    _write_report(report, fmt, out)


@report_app.command("weekly")
def report_weekly(
    ctx: typer.Context,
    repo: RepoArg,
    week: Annotated[str, typer.Option("--week", help="The ISO week, YYYY-Www.")],
    lang: LangOpt = None,
    fmt: FormatOpt = "md",
    out: OutOpt = None,
    llm: LLMOpt = None,
    allow_partial: AllowPartialOpt = False,
) -> None:
    """Write one ISO week's report: merged work, risk tags, trends; prose by a model (reusing
    the daily per-PR analyses) or by rules."""
    from tidings.facts.windows import parse_week, weekly_window
    from tidings.report.weekly import build_weekly

    year, number = parse_week(week)
    state, settings, language, analyst = _report_setup(ctx, repo, lang, fmt, out, llm)
    window = weekly_window(year, number, settings.tz, settings.cutoff_time)
    store = state.store()
    _require_covered(store, settings.name, window, allow_partial)
    report = build_weekly(store, settings, year, number, language, analysis=analyst)
    _warn(analyst)
    _write_report(report, fmt, out)


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
    from datetime import date as date_type
    from datetime import timedelta

    from tidings.config import load_config
    from tidings.demo import CONFIG_PATH, FIRST_DAY, LAST_DAY, REPO, SAMPLE_PATH
    from tidings.outputs import write_atomic
    from tidings.report.daily import build_daily
    from tidings.snapshot import import_snapshot

    state = _state(ctx)
    if not state.db_given:
        state.db = f"sqlite:///{(out / 'demo.db').resolve()}"
        out.mkdir(parents=True, exist_ok=True)
    store = state.store()
    import_snapshot(store, SAMPLE_PATH)
    settings = load_config(CONFIG_PATH).repo(REPO)
    first, last = date_type.fromisoformat(FIRST_DAY), date_type.fromisoformat(LAST_DAY)
    days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
    jobs = [(day, lang) for day in days for lang in ("zh", "en")]
    written: list[Path] = []
    with console.progress_display() as progress:
        for done, (day, lang) in enumerate(jobs, start=1):
            report = build_daily(store, settings, day, lang)  # type: ignore[arg-type]
            for fmt in ("md", "json"):
                path = out / "daily" / f"{day.isoformat()}.{lang}.{fmt}"
                write_atomic(path, _render(report, fmt))
                written.append(path)
            progress("daily reports", done, len(jobs))
    from tidings.demo import WEEKS
    from tidings.facts.windows import parse_week
    from tidings.report.weekly import build_weekly

    weekly_jobs = [(week, lang) for week in WEEKS for lang in ("zh", "en")]
    with console.progress_display() as progress:
        for done, (week, lang) in enumerate(weekly_jobs, start=1):
            year, number = parse_week(week)
            weekly = build_weekly(store, settings, year, number, lang)  # type: ignore[arg-type]
            for fmt in ("md", "json"):
                path = out / "weekly" / f"{week}.{lang}.{fmt}"
                write_atomic(path, _render(weekly, fmt))
                written.append(path)
            progress("weekly reports", done, len(weekly_jobs))
    if pdf:  # each report's PDF beside it, as `tidings run` makes them; the site copies them
        from tidings.site.pdfs import make_report_pdfs

        with console.progress_display() as progress:
            pdfs = make_report_pdfs([p for p in written if p.suffix == ".json"], progress)
        written += pdfs
    sample = out / "daily" / f"{days[len(days) // 2 + 2].isoformat()}.zh.md"
    console.err.print(
        f"wrote {len(written)} files for {REPO} ({len(days)} days and weeks "
        f"{', '.join(WEEKS)}, zh and en, Markdown, JSON{' and PDF' if pdf else ''}) to "
        f"{out / 'daily'}/ and "
        f"{out / 'weekly'}/\nopen one: {sample} or {out / 'weekly' / (WEEKS[-1] + '.zh.md')}",
        markup=False,
        soft_wrap=True,
    )
    if site:
        from tidings.config import SiteConfig
        from tidings.site.build import build_site

        site_dir = out / "site"
        with console.progress_display() as progress:
            result = build_site(
                out, site_dir, SiteConfig(title="tidings demo"), pdf=pdf, progress=progress
            )
        console.err.print(
            f"built the site in {site_dir}/ ({result.reports} report pages, "
            f"{len(result.written)} files written)\n"
            f"preview it: tidings serve {site_dir}   or open {site_dir / 'index.html'}",
            markup=False,
            soft_wrap=True,
        )


site_app = typer.Typer(help="Build the static report site (docs/site.md).", no_args_is_help=True)
app.add_typer(site_app, name="site")

PdfOpt = Annotated[
    bool | None,
    typer.Option("--pdf/--no-pdf", help="Make PDF downloads (default: [site] pdf, true)."),
]


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
    from tidings.site.build import build_site

    cfg = _state(ctx).config().site
    target = out or Path(cfg.out_dir)
    with console.progress_display() as progress:
        result = build_site(
            source or Path(cfg.reports_dir), target, cfg, pdf=pdf, progress=progress
        )
    for warning in result.warnings:
        console.err.print(f"warning: {warning}", markup=False, soft_wrap=True)
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
    from tidings.site.serve import make_server

    server = make_server(directory, host, port)
    bound_host, bound_port = server.server_address[:2]
    console.err.print(
        f"serving {directory} at http://{bound_host}:{bound_port}/ (Ctrl-C to stop)",
        markup=False,
    )
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
    as_json: JsonOpt = False,
) -> None:
    """Sync every repository in tidings.toml, write the due reports, rebuild the site."""
    from tidings.runner import outcome_table, run_repositories

    state = _state(ctx)
    cfg = state.config()
    if not cfg.repos:
        raise ConfigError(
            "no repositories to run: tidings.toml has no [[repos]]",
            'add one, e.g. [[repos]] name = "OWNER/REPO" (or pass --config FILE)',
        )
    from tidings.sources.github.auth import resolve_token
    from tidings.sources.github.sync import sync_repository

    token = resolve_token(cfg.github.token_env)
    store = state.store()
    reports_dir, site_dir = Path(cfg.site.reports_dir), Path(cfg.site.out_dir)
    with console.progress_display() as progress:

        def sync(store_: object, repo: object) -> object:
            return sync_repository(
                store_,  # type: ignore[arg-type]
                repo.name,  # type: ignore[attr-defined]
                github=cfg.github,
                token=token,
                progress=progress,
                teams=repo.maintainer_teams,  # type: ignore[attr-defined]
            )

        analyst = _analyst(state, llm)
        outcomes = run_repositories(
            cfg,
            store,
            sync=sync,
            reports_dir=reports_dir,
            days=days,
            analysis=analyst,
            progress=progress,
            pdf=cfg.site.pdf if pdf is None else pdf,
        )
        built, site_error = None, None
        if site and reports_dir.is_dir():
            from tidings.site.build import build_site

            try:
                built = build_site(reports_dir, site_dir, cfg.site, pdf=pdf, progress=progress)
            except TidingsError as exc:  # said after the repositories' table, not instead
                site_error = exc
    if analyst is not None and (warning := analyst.warning()):
        console.err.print(f"warning: {warning}", markup=False, soft_wrap=True)
    for warning in built.warnings if built else []:
        console.err.print(f"warning: {warning}", markup=False, soft_wrap=True)
    usage = analyst.usage() if analyst is not None else None
    failed = [o for o in outcomes if not o.ok]
    if as_json:
        model = None
        if usage is not None:
            model = {
                "calls": usage.calls,
                "prompt_tokens": usage.prompt_tokens,
                "completion_tokens": usage.completion_tokens,
                "cache_hits": usage.cache_hits,
            }
        console.emit_json(
            {
                "repositories": [o.__dict__ for o in outcomes],
                "site": built.to_dict() if built else None,
                "model": model,
            }
        )
    else:
        console.out.print(outcome_table(outcomes))
        if usage is not None:  # what this run cost; the reports say only what the model wrote
            console.err.print(
                f"model: {usage.calls} requests, {usage.prompt_tokens} prompt and "
                f"{usage.completion_tokens} completion tokens, {usage.cache_hits} answers "
                "reused from the cache",
                markup=False,
                soft_wrap=True,
            )
        if built is not None:
            console.err.print(
                f"site: {site_dir}/ ({len(built.written)} files written, "
                f"{built.unchanged} unchanged)",
                markup=False,
            )
    if site_error is not None:
        raise site_error
    if failed:
        raise typer.Exit(1)


def _usage_line(exc: UsageError) -> str:
    where = exc.ctx.command_path if exc.ctx else "tidings"
    return f"{exc.format_message()} — see `{where} --help`"


def main(argv: list[str] | None = None) -> NoReturn:
    """The console script: run the app and turn every failure into one line and an exit code."""
    if argv is None:  # the process is ours (in-process callers pass argv and keep their handler)
        signal.signal(signal.SIGINT, _first_ctrl_c)
    try:
        code = app(args=argv, prog_name="tidings", standalone_mode=False)
    except TidingsError as exc:
        console.error_line(exc.one_line())
        sys.exit(exc.exit_code)
    except UsageError as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            # Bare `tidings`: the help is the answer (Rich has printed it already).
            console.stdout.write(exc.format_message())
        else:
            console.error_line(_usage_line(exc))
        sys.exit(2)
    except ClickException as exc:
        console.error_line(exc.format_message())
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        _exit_interrupted()
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        console.error_line(
            f"database error: {reason} — check --db / TIDINGS_DB and that the database is reachable"
        )
        sys.exit(1)
    except BrokenPipeError:
        # `tidings stats ... | head`: the reader left; say nothing more.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except Exception:
        # A bug, not a user mistake: keep the traceback for the report, minus any secret.
        console.stderr.write(traceback.format_exc())
        console.error_line("internal error — please report it with the traceback above")
        sys.exit(70)
    if code == 130:  # Typer turns Ctrl-C into Exit(130) before we see it
        _exit_interrupted()
    sys.exit(code if isinstance(code, int) else 0)


def _first_ctrl_c(_signum: int, _frame: object) -> None:
    # People press Ctrl-C twice. The first one stops the command; a second one arriving while
    # it cleans up (ends PDF workers, removes temp files, closes the store) would cut that
    # short with a traceback, or kill the process before its exit code. Ignore the rest.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def _exit_interrupted() -> NoReturn:
    """Ctrl-C: one line, exit 130, now."""
    # A second Ctrl-C can cut a progress display's cleanup short: never leave the cursor hidden.
    console.err.show_cursor(True)
    console.error_line("interrupted")
    from tidings.workers import busy_threads

    if busy_threads():
        # A model call still running in a worker thread would hold the interpreter at exit
        # until it times out (a minute or more). Its answer is lost either way, and files are
        # written atomically and the store commits whole batches, so skipping the exit
        # handlers loses nothing a re-run needs.
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(130)
    sys.exit(130)


if __name__ == "__main__":
    main()
