"""The public Python API: everything the `tidings` command does, as functions.

Re-exported from `tidings` itself (see its docstring and docs/python-api.md). The CLI is
argument parsing and console output over these functions, nothing more.

Conventions, everywhere:
- `store` is an open `Store` or a database URL (`sqlite:///PATH`,
  `postgresql+psycopg://...`); a URL is opened for the call and closed after it, None means
  the default store (a SQLite file in the user data folder).
- `config` is a `Config` from `load_config`; None means the defaults (no tidings.toml read).
- `progress(stage, done, total)` is called as long work advances; None is silent.
- Failures the user can act on raise `TidingsError` (`InvocationError` and `ConfigError` for
  what the call or config gets wrong). What should be known but stops nothing (a window the
  store does not reach to its end, a model that failed on some texts) is a `TidingsWarning`
  through `warnings.warn`.

Heavy modules (SQLAlchemy, the GitHub client, report builders, WeasyPrint) are imported
inside the functions, so `import tidings` stays fast.
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeAlias, TypeVar

from tidings.common.langs import LANGS
from tidings.errors import (
    ConfigError,
    InvocationError,
    StoreError,
    TidingsError,
    TidingsWarning,
    WindowError,
)
from tidings.render.files import FORMATS, render_report, save_report, write_report

if TYPE_CHECKING:
    from http.server import ThreadingHTTPServer

    from tidings.analysis.analyst import Analyst
    from tidings.analysis.provider import Usage
    from tidings.common.config import Config, Lang, RepoConfig, SiteConfig
    from tidings.common.progress import Progress
    from tidings.facts.inventory import RepoSummary
    from tidings.facts.stats import WindowStats
    from tidings.jobs.delivery import Delivery, Message
    from tidings.jobs.queue import Enqueued
    from tidings.jobs.runner import RepoOutcome
    from tidings.render.files import SavedReport
    from tidings.report.model import DailyReport
    from tidings.report.service import ReportService
    from tidings.report.weekly_model import WeeklyReport
    from tidings.site.output import BuildResult
    from tidings.sources.git import GitSyncReport
    from tidings.sources.github.budget import GitHubBudget
    from tidings.sources.github.sync import SyncReport
    from tidings.sources.snapshot import SnapshotCounts
    from tidings.store import Store

    StoreLike: TypeAlias = Store | str | None

__all__ = [
    "LANGS",
    "REPORT_FORMATS",
    "DemoResult",
    "RunResult",
    "build_daily",
    "build_demo",
    "build_site",
    "build_weekly",
    "check_repo_name",
    "check_report_format",
    "check_when",
    "enqueue_run",
    "export_snapshot",
    "import_snapshot",
    "init_project",
    "load_config",
    "notify",
    "open_store",
    "render_report",
    "repositories",
    "resolve_day",
    "resolve_week",
    "run",
    "save_report",
    "site_server",
    "stats",
    "sync",
    "sync_git",
    "work",
    "write_report",
]

# The formats a report is rendered as (LANGS, its languages, comes from tidings.common.langs).
REPORT_FORMATS = FORMATS

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _public(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """An API function: a database failure leaves it as a StoreError (a TidingsError, one line
    in the CLI), never as SQLAlchemy's own exception, whose type callers cannot import from us."""

    @functools.wraps(func)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            store_error = _store_error(exc)
            if store_error is None:
                raise
            raise store_error from exc

    return call


def _store_error(exc: Exception) -> StoreError | None:
    # SQLAlchemy is imported only by functions that open a store: if it is not loaded, the
    # exception cannot be one of its own (and `import tidings` stays free of it).
    errors = sys.modules.get("sqlalchemy.exc")
    if errors is None or not isinstance(exc, errors.SQLAlchemyError):
        return None
    from tidings.store.disk_errors import disk_error

    full = disk_error(exc)
    if full is not None:
        return full
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return StoreError(
        f"database error: {reason[0] if reason else type(exc).__name__}",
        "check --db / TIDINGS_DB and that the database is reachable",
        # A connection refused or a lock held elsewhere may well pass; a schema mismatch won't.
        transient=isinstance(exc, errors.OperationalError),
    )


# -- the store and the config -------------------------------------------------------------------


@_public
def open_store(url: str | None = None, *, migrate: bool = True) -> Store:
    """Open (creating and migrating as needed) the store at `url`; None: the default store,
    a SQLite file in the user data folder. Close it with `store.close()`."""
    from tidings.store import Store, default_db_url

    return Store.open(url or default_db_url(), migrate=migrate)


@_public
def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    """The config file at `path`, else ./tidings.toml when present, else the defaults
    (docs/configuration.md). A missing named file or a bad one is a ConfigError."""
    from tidings.common.config import load_config as load

    return load(path)


@contextmanager
def _using(store: StoreLike) -> Iterator[Store]:
    if store is None or isinstance(store, str):
        opened = open_store(store)
        try:
            yield opened
        finally:
            opened.close()
    else:
        yield store


def _config(config: Config | None) -> Config:
    if config is not None:
        return config
    from tidings.common.config import Config

    return Config()


@_public
def check_repo_name(name: str) -> str:
    """`name` when it is a GitHub OWNER/REPO, else an InvocationError."""
    from tidings.common.names import REPO_NAME

    if not REPO_NAME.match(name):
        raise InvocationError(
            f"repository must be OWNER/REPO, got {name!r}", "e.g. vllm-project/vllm"
        )
    return name


def _settings(repo: str | RepoConfig, config: Config | None) -> RepoConfig:
    if isinstance(repo, str):
        return _config(config).repo(check_repo_name(repo))
    return repo


def _lang(lang: str | None, settings: RepoConfig) -> Lang:
    chosen = lang or settings.language
    if chosen not in LANGS:
        raise InvocationError(f"language must be zh or en, got {chosen!r}", "e.g. en")
    return chosen


@_public
def check_when(date: str | None = None, week: str | None = None) -> None:
    """Raise WindowError for a `--date` or `--week` text that names no day or ISO week; the
    words (`today`, `yesterday`, `this-week`, `last-week`) pass. Needs no repository."""
    from tidings.facts.windows import DAY_WORDS, WEEK_WORDS, parse_date, parse_week

    if date is not None and date.strip().lower() not in DAY_WORDS:
        parse_date(date)
    if week is not None and week.strip().lower() not in WEEK_WORDS:
        parse_week(week)


@_public
def check_report_format(fmt: str, lang: str) -> None:
    """Raise InvocationError for a format outside REPORT_FORMATS or a language outside LANGS,
    and TidingsError for a PDF whose fonts this machine lacks (a zh PDF with no CJK font
    would show boxes): say so before building anything."""
    if fmt not in REPORT_FORMATS:
        raise InvocationError(
            f"format must be one of {', '.join(REPORT_FORMATS)}, got {fmt!r}", "e.g. md"
        )
    if lang not in LANGS:
        raise InvocationError(f"language must be zh or en, got {lang!r}", "e.g. en")
    if fmt == "pdf":
        from tidings.render.fonts import fonts_error

        if (refusal := fonts_error(lang)) is not None:
            raise refusal


@_public
def resolve_day(text: str | None, repo: RepoConfig, now: datetime | None = None) -> date:
    """The day `--date` names: YYYY-MM-DD, `today` or `yesterday` (the calendar day in the
    repository's timezone), or None for the last day whose window (cut at the cut-off) has
    ended — the report a daily job wants."""
    from tidings.facts.windows import resolve_day as resolve

    return resolve(text, repo.tz, repo.cutoff_time, now or datetime.now(UTC))


@_public
def resolve_week(
    text: str | None, repo: RepoConfig, now: datetime | None = None
) -> tuple[int, int]:
    """The ISO week `--week` names: YYYY-Www, `this-week` or `last-week` (in the repository's
    timezone), or None for the last week whose window has ended."""
    from tidings.facts.windows import resolve_week as resolve

    return resolve(text, repo.tz, repo.cutoff_time, now or datetime.now(UTC))


# -- sources -------------------------------------------------------------------------------------


@_public
def sync(
    store: StoreLike,
    repo: str,
    *,
    config: Config | None = None,
    since: date | datetime | str | None = None,
    token: str | None = None,
    progress: Progress | None = None,
) -> SyncReport:
    """Bring the store's copy of GitHub repository `repo` up to date: issues, PRs, comments,
    reviews, labels and changed files (docs/github-mapping.md).

    Resumes from the last sync unless `since` (a day in the repository's timezone, as a date
    or YYYY-MM-DD, or an aware datetime) asks to re-read everything updated since then. The
    token defaults to the config's token variable (GITHUB_TOKEN), else `gh auth token`."""
    from datetime import UTC

    repo = check_repo_name(repo)
    cfg = _config(config)
    since_at: datetime | None = None
    if isinstance(since, datetime):
        since_at = since.astimezone(UTC)
    elif since is not None:
        from tidings.facts.windows import parse_date

        day = parse_date(since) if isinstance(since, str) else since
        local = datetime.combine(day, datetime.min.time(), tzinfo=cfg.repo(repo).tz)
        since_at = local.astimezone(UTC)
    try:
        # The GitHub source is the heaviest module: imported only when a sync needs it.
        from tidings.sources.github.sync import sync_repository
    except ImportError as exc:
        raise TidingsError(
            f"the GitHub source is not available ({exc})", "reinstall tidings: pip install -e ."
        ) from exc
    token = _token(token, cfg)  # before the store: fail fast, touch nothing
    with _using(store) as opened:
        return sync_repository(
            opened,
            repo,
            github=cfg.github,
            token=token,
            since=since_at,
            progress=progress,
            teams=cfg.repo(repo).maintainer_teams,
        )


def _token(token: str | None, config: Config) -> str:
    """The GitHub token given, else the config's token variable, else `gh auth token`;
    registered for redaction either way."""
    if token is None:
        from tidings.sources.github.auth import resolve_token

        return resolve_token(config.github.token_env)
    from tidings.errors import register_secret

    register_secret(token)
    return token


def _budget(token: str | None, config: Config) -> GitHubBudget:
    """The run's GitHub budget over its tokens: `token` alone when given, else the config's
    token variable (or `gh auth token`) and every variable in github.token_envs."""
    from tidings.sources.github.budget import GitHubBudget

    if token is not None:
        tokens = [_token(token, config)]
    else:
        from tidings.sources.github.auth import resolve_tokens

        tokens = resolve_tokens(config.github.token_env, config.github.token_envs)
    return GitHubBudget(tokens, max_in_flight=config.github.max_in_flight)


@_public
def sync_git(
    store: StoreLike, repo: str, clone: str | os.PathLike[str], *, progress: Progress | None = None
) -> GitSyncReport:
    """Read merged PRs from a local clone's first-parent history into the store as `repo`
    (offline, no token; docs/git-source.md). Later calls read only new commits."""
    from tidings.sources.git import sync_git as read_clone

    repo = check_repo_name(repo)
    with _using(store) as opened:
        return read_clone(opened, repo, Path(clone), progress=progress)


@_public
def import_snapshot(store: StoreLike, path: str | os.PathLike[str]) -> SnapshotCounts:
    """Load a snapshot file into the store, all or nothing; importing it twice changes nothing
    (docs/snapshot.md)."""
    from tidings.sources.snapshot import import_snapshot as load

    if not Path(path).is_file():
        raise TidingsError(f"snapshot {path} not found", "pass the path of a .jsonl snapshot")
    with _using(store) as opened:
        return load(opened, path)


@_public
def export_snapshot(store: StoreLike, repo: str, path: str | os.PathLike[str]) -> SnapshotCounts:
    """Write `repo`'s records to a snapshot file that `import_snapshot` reads back."""
    from tidings.sources.snapshot import export_snapshot as dump

    repo = check_repo_name(repo)
    with _using(store) as opened:
        return dump(opened, repo, path)


@_public
def repositories(store: StoreLike) -> list[RepoSummary]:
    """The repositories in the store with their item counts."""
    from tidings.facts.load.inventory import repository_summaries

    with _using(store) as opened, opened.engine.connect() as conn:
        return repository_summaries(conn)


# -- reports -------------------------------------------------------------------------------------


def _analyst(config: Config | None, store: Store, use: bool | None) -> Analyst | None:
    """The model layer for this call, or None for the deterministic writer alone."""
    llm = _config(config).llm
    if use is False or (use is None and not (llm.base_url and llm.model)):
        return None
    from tidings.analysis.analyst import Analyst

    # The key lives only in the environment and the SDK's headers; redact() knows it.
    return Analyst.from_config(llm, store, api_key=os.environ.get(llm.api_key_env))


def _warn(message: str) -> None:
    warnings.warn(message, TidingsWarning, stacklevel=5)  # the caller's line, past @_public


def _pass_on(service: ReportService) -> None:
    """The service's warnings (an unlisted team, a partial window) as TidingsWarnings."""
    for message in service.take_warnings():
        _warn(message)


def _warn_model(analyst: Analyst | None) -> None:
    if analyst is not None and (warning := analyst.warning()):
        _warn(warning)


@_public
def build_daily(
    store: StoreLike,
    repo: str | RepoConfig,
    day: date | str,
    lang: Lang | None = None,
    *,
    config: Config | None = None,
    llm: bool | None = None,
    allow_partial: bool = False,
    web_url: str = "https://github.com",
    now: datetime | None = None,
) -> DailyReport:
    """One day's report (`day` as a date or YYYY-MM-DD; its window starts at the repository's
    cut-off in its timezone). Every number comes from the store; the prose is the model's
    (`llm`, default: when the config's [llm] has base_url and model) or the rules'.

    A window that has not ended, or that the store's data does not reach to its end, is an
    error unless `allow_partial` (then a TidingsWarning). `lang` defaults to the repository's."""
    from tidings.facts.windows import parse_date
    from tidings.report.service import ReportService

    when = parse_date(day) if isinstance(day, str) else day
    settings = _settings(repo, config)
    language = _lang(lang, settings)
    with _using(store) as opened:
        analyst = _analyst(config, opened, llm)
        service = ReportService(opened, settings, analyst, web_url=web_url, now=now)
        try:
            report = service.daily(when, language, allow_partial=allow_partial)
        finally:
            _pass_on(service)
        _warn_model(analyst)
    return report


@_public
def build_weekly(
    store: StoreLike,
    repo: str | RepoConfig,
    week: str | tuple[int, int],
    lang: Lang | None = None,
    *,
    config: Config | None = None,
    llm: bool | None = None,
    allow_partial: bool = False,
    web_url: str = "https://github.com",
    now: datetime | None = None,
) -> WeeklyReport:
    """One ISO week's report (`week` as YYYY-Www or (year, week)): merged work, risk tags,
    trends, key PRs and follow-ups. With a model, its PR summaries reuse the daily per-PR
    answers. Coverage, `llm` and `lang` as for `build_daily`."""
    from tidings.facts.windows import parse_week
    from tidings.report.service import ReportService

    year, number = parse_week(week) if isinstance(week, str) else week
    settings = _settings(repo, config)
    language = _lang(lang, settings)
    with _using(store) as opened:
        analyst = _analyst(config, opened, llm)
        service = ReportService(opened, settings, analyst, web_url=web_url, now=now)
        try:
            report = service.weekly(year, number, language, allow_partial=allow_partial)
        finally:
            _pass_on(service)
        _warn_model(analyst)
    return report


@_public
def stats(
    store: StoreLike,
    repo: str | RepoConfig,
    *,
    day: date | str | None = None,
    week: str | tuple[int, int] | None = None,
    config: Config | None = None,
    depth: int | None = None,
    top: int | None = None,
    allow_partial: bool = False,
) -> WindowStats:
    """A day's or week's counts: issues, PRs, paths and people (docs/stats.md). Give exactly
    one of `day` and `week`; coverage as for `build_daily`."""
    from tidings.facts.load.stats import window_stats
    from tidings.facts.stats import DEFAULT_DEPTH, DEFAULT_TOP
    from tidings.facts.windows import daily_window, parse_date, parse_week, weekly_window
    from tidings.report.service import ReportService

    settings = _settings(repo, config)
    if day is not None and week is None:
        when = parse_date(day) if isinstance(day, str) else day
        window = daily_window(when, settings.tz, settings.cutoff_time)
    elif week is not None and day is None:
        year, number = parse_week(week) if isinstance(week, str) else week
        window = weekly_window(year, number, settings.tz, settings.cutoff_time)
    else:
        raise WindowError("give exactly one of day and week", "e.g. day='2026-02-24'")
    with _using(store) as opened:
        service = ReportService(opened, settings)
        try:
            service.check(window, allow_partial)
        finally:
            _pass_on(service)
        with opened.engine.connect() as conn:
            return window_stats(
                conn,
                opened.require_repo(conn, settings.name),
                window,
                bots=settings.bots,
                directory_depth=depth or DEFAULT_DEPTH,
                top=top or DEFAULT_TOP,
            )


# -- the site ------------------------------------------------------------------------------------


@_public
def build_site(
    reports: str | os.PathLike[str],
    out: str | os.PathLike[str],
    config: SiteConfig | Config | None = None,
    *,
    pdf: bool | None = None,
    progress: Progress | None = None,
) -> BuildResult:
    """Build the static site at `out` from the report JSON files under `reports` and publish
    it whole (docs/site.md); files whose bytes are unchanged are not written. `pdf` None
    follows the config's [site] pdf. The result's `warnings` say what was skipped."""
    from tidings.common.config import Config
    from tidings.site.build import build_site as build

    site = config.site if isinstance(config, Config) else config
    return build(Path(reports), Path(out), site, pdf=pdf, progress=progress)


@_public
def site_server(
    directory: str | os.PathLike[str], host: str = "127.0.0.1", port: int = 8000
) -> ThreadingHTTPServer:
    """A local preview server for a built site (port 0: any free one); call
    `serve_forever()` on it. It serves only the site's own regular files."""
    from tidings.site.serve import make_server

    return make_server(Path(directory), host, port)


# -- the everyday job ----------------------------------------------------------------------------


@dataclass
class RunResult:
    """What `run` did: one outcome per repository, the site build and the model's cost."""

    repositories: list[RepoOutcome]
    site_dir: Path
    site: BuildResult | None = None  # None: not built (site=False, no reports, or failed)
    site_error: TidingsError | None = None  # the build failed after the reports were written
    usage: Usage | None = None  # None: no model this run
    warnings: list[str] = field(default_factory=list)  # the model's, the site's, notify's
    notified: list[Delivery] = field(default_factory=list)  # one per message and target

    @property
    def ok(self) -> bool:
        return self.site_error is None and all(o.ok for o in self.repositories)

    def to_dict(self) -> dict[str, Any]:
        model = None
        if self.usage is not None:
            model = {
                "calls": self.usage.calls,
                "prompt_tokens": self.usage.prompt_tokens,
                "completion_tokens": self.usage.completion_tokens,
                "cache_hits": self.usage.cache_hits,
            }
        return {
            "ok": self.ok,
            "repositories": [o.to_dict() for o in self.repositories],
            "site": self.site.to_dict() if self.site else None,
            "site_error": self.site_error.one_line() if self.site_error else None,
            "model": model,
            "notified": [d.__dict__ for d in self.notified],
            "warnings": self.warnings,
        }


@_public
def run(
    store: StoreLike,
    config: Config,
    *,
    days: int = 7,
    site: bool = True,
    pdf: bool | None = None,
    llm: bool | None = None,
    token: str | None = None,
    now: datetime | None = None,
    progress: Progress | None = None,
    concurrency: int | None = None,
    full_history: bool = False,
    lookback: int | None = None,
    notify: bool = True,
) -> RunResult:
    """Sync every repository in the config from GitHub, write its due reports (the last
    `days` closed days and the last closed week, in the config's languages) into [site]
    reports_dir, rewriting only reports whose content changed, rebuild the site, then send
    each new report's headline and link to [notify] urls (`notify=False`: not).

    `lookback` (None: [run] first_sync_days) bounds the first sync of a repository the
    store has never synced to about that many days (from the Monday of that week, and far
    enough back for the reports due), unless `full_history`; later syncs resume where the
    last one stopped either way. Repositories are worked on `concurrency` at a time (None:
    [run] concurrency), stalest first, on one shared GitHub budget (docs/scale.md).

    A repository that fails is recorded in its outcome and the others still run; a site
    build that fails is `site_error`; a notification that fails is a warning and in
    `notified`, never a failure. `pdf` None follows [site] pdf. `token` replaces the
    config's token variables."""
    from datetime import UTC

    from tidings.jobs.runner import github_syncer, notify_new, run_repositories

    if not config.repos:
        raise ConfigError(
            "no repositories to run: tidings.toml has no [[repos]]",
            'add one, e.g. [[repos]] name = "OWNER/REPO" (or pass --config FILE)',
        )
    budget = _budget(token, config)  # before the store: fail fast, touch nothing
    budget.expect(len(config.repos))  # optional work leaves them their requests
    reports_dir, site_dir = Path(config.site.reports_dir), Path(config.site.out_dir)
    moment = now or datetime.now(UTC)
    workers = config.run.concurrency if concurrency is None else max(1, concurrency)
    with _using(store) as opened:
        github = github_syncer(
            config,
            budget,
            now=moment,
            days=days,
            full_history=full_history,
            lookback=lookback,
            # One repository at a time shows its sync's stages; many share one bar.
            progress=progress if min(workers, len(config.repos)) == 1 else None,
        )
        analyst = _analyst(config, opened, llm)
        result = RunResult(
            run_repositories(
                config,
                opened,
                sync=github,
                reports_dir=reports_dir,
                days=days,
                now=moment,
                analysis=analyst,
                progress=progress,
                pdf=config.site.pdf if pdf is None else pdf,
                concurrency=workers,
            ),
            site_dir,
        )
    if site and reports_dir.is_dir():
        try:
            result.site = build_site(reports_dir, site_dir, config, pdf=pdf, progress=progress)
        except TidingsError as exc:  # after the reports, which are written and stay
            result.site_error = exc
    if analyst is not None:
        result.usage = analyst.usage()
        if warning := analyst.warning():
            result.warnings.append(warning)
    result.warnings += [w for outcome in result.repositories for w in outcome.warnings]
    result.warnings += result.site.warnings if result.site else []
    if notify:
        result.notified = notify_new(config, result.repositories, budget.tokens[0].token)
        result.warnings += [d.line() for d in result.notified if not d.ok]
    return result


# -- many machines: the queue (docs/scale.md) -------------------------------------------------


@_public
def enqueue_run(
    store: StoreLike,
    config: Config,
    *,
    days: int = 7,
    site: bool = True,
    pdf: bool | None = None,
    llm: bool | None = None,
    full_history: bool = False,
    now: datetime | None = None,
) -> Enqueued:
    """What `run` would do, as jobs for `work` processes on any machine: one per repository
    (stalest first) for the window ending `now`, then one site build after them. Needs a
    PostgreSQL store; returns at once."""
    from datetime import UTC

    from tidings.jobs.queue import enqueue

    if not config.repos:
        raise ConfigError(
            "no repositories to run: tidings.toml has no [[repos]]",
            'add one, e.g. [[repos]] name = "OWNER/REPO" (or pass --config FILE)',
        )
    with _using(store) as opened:
        return enqueue(
            opened,
            config,
            days=days,
            now=now or datetime.now(UTC),
            site=site,
            pdf=pdf,
            llm=llm,
            full_history=full_history,
        )


@_public
def work(
    store: StoreLike,
    config: Config,
    *,
    concurrency: int | None = None,
    once: bool = False,
    heartbeat: float | None = None,
    stalled_after: float | None = None,
    token: str | None = None,
) -> None:
    """Run a queue worker: take `enqueue_run`'s jobs until stopped (or, with `once`, until the
    queue is empty), `concurrency` at a time (None: [run] concurrency)."""
    from tidings.jobs import queue

    budget = _budget(token, config)  # before the store: fail fast
    with _using(store) as opened:
        queue.require_postgres(opened)
        analysts: dict[bool | None, Analyst | None] = {}

        def analyst_for(llm: bool | None) -> Analyst | None:
            if llm not in analysts:
                analysts[llm] = _analyst(config, opened, llm)
            return analysts[llm]

        queue.run_worker(
            opened,
            config,
            budget,
            analyst_for,
            concurrency=concurrency or config.run.concurrency,
            once=once,
            heartbeat=heartbeat or queue.HEARTBEAT,
            stalled_after=stalled_after or queue.STALLED_AFTER,
        )


@_public
def notify(
    reports: Sequence[str | os.PathLike[str]],
    config: Config | None = None,
    *,
    urls: list[str] | None = None,
    dry_run: bool = False,
) -> tuple[list[Message], list[Delivery]]:
    """Send each report JSON file's headline and link to `urls` (default: [notify] urls),
    linking to the site at [site] base_url. Returns the messages and one Delivery per
    message and target; sending never raises (`dry_run`: nothing is sent)."""
    from tidings.jobs.delivery import read_message, send

    cfg = _config(config)
    messages = [read_message(Path(p), cfg.site.base_url) for p in reports]
    targets = cfg.notify.urls if urls is None else urls
    if not targets and not dry_run:
        raise InvocationError(
            "nowhere to send: [notify] urls is empty and no --to URL was given",
            'add [notify] urls = ["${SLACK_WEBHOOK_URL}"] to tidings.toml or pass --to URL',
        )
    if dry_run:
        return messages, []
    return messages, send(messages, cfg.notify, targets)


# -- setting up ----------------------------------------------------------------------------------


@_public
def init_project(
    repos: list[str],
    folder: str | os.PathLike[str] = ".",
    *,
    timezone: str = "UTC",
    cutoff: str = "00:00",
    language: Lang = "en",
    github_actions: bool = False,
    install: str | None = None,
    force: bool = False,
) -> list[Path]:
    """Write a commented tidings.toml for `repos` in `folder` and, with `github_actions`, the
    daily workflow in .github/workflows/tidings.yml, installing tidings from `install` (a pip
    requirement; default: where this tidings came from). Nothing is written when a file
    exists, unless `force`. The paths written."""
    from tidings.jobs.starter import starter, write_starter

    if not repos:
        raise InvocationError("give at least one OWNER/REPO", "e.g. tidings init vllm-project/vllm")
    names = [check_repo_name(r) for r in repos]
    files = starter(
        names,
        timezone=timezone,
        cutoff=cutoff,
        language=language,
        github_actions=github_actions,
        install=install,
    )
    return write_starter(Path(folder), files, force=force)


# -- the demo ------------------------------------------------------------------------------------


@dataclass
class DemoResult:
    """What `build_demo` wrote: its reports (and PDFs) under `out`, and the site."""

    out: Path
    repo: str
    days: list[date]
    weeks: tuple[str, ...]
    files: list[Path]  # every report file written this time: Markdown, JSON and PDFs
    site_dir: Path
    reports: list[Path] = field(default_factory=list)  # every report's JSON, written or kept
    site: BuildResult | None = None
    site_error: TidingsError | None = None  # the site failed after the reports were written
    pdfs_skipped: int = 0  # no font on the machine covers their language (a warning said so)

    @property
    def sample(self) -> Path:
        """A busy day's Chinese report, worth opening first."""
        return self.out / "daily" / f"{self.days[len(self.days) // 2 + 2].isoformat()}.zh.md"


@_public
def build_demo(
    out: str | os.PathLike[str] = "tidings-demo",
    *,
    store: Store | str | None = None,
    site: bool = True,
    pdf: bool = True,
    progress: Progress | None = None,
) -> DemoResult:
    """Import the bundled sample repository (offline, no token, no model) and write its daily
    and weekly reports, zh and en, as Markdown, JSON and PDF under `out`, then its site in
    `out`/site. The store defaults to `out`/demo.db. A site build that fails is `site_error`
    (the reports stay written)."""
    from datetime import timedelta

    from tidings.common.config import SiteConfig
    from tidings.common.config import load_config as load
    from tidings.demo import CONFIG_PATH, FIRST_DAY, LAST_DAY, REPO, SAMPLE_PATH, WEEKS
    from tidings.facts.windows import parse_week
    from tidings.render.files import make_pdfs
    from tidings.report.service import ReportService

    folder = Path(out)
    if store is None:
        folder.mkdir(parents=True, exist_ok=True)
        store = f"sqlite:///{(folder / 'demo.db').resolve()}"
    first, last = date.fromisoformat(FIRST_DAY), date.fromisoformat(LAST_DAY)
    days = [first + timedelta(days=k) for k in range((last - first).days + 1)]
    result = DemoResult(folder, REPO, days, WEEKS, [], folder / "site")
    quiet = progress or (lambda _stage, _done, _total: None)
    with _using(store) as opened:
        import_snapshot(opened, SAMPLE_PATH)
        service = ReportService(opened, load(CONFIG_PATH).repo(REPO))
        langs: tuple[Lang, ...] = ("zh", "en")
        # The sample ends mid-day and mid-week, so its last day and week are partial by
        # design: built as they are, their headers say where the data stops
        # (window.data_until); the service's warnings about them would only repeat that.
        jobs = [(day, lang) for day in days for lang in langs]
        for done, (day, lang) in enumerate(jobs, start=1):
            report = service.daily(day, lang, allow_partial=True)
            _saved(result, save_report(report, folder, if_changed=True))
            quiet("daily reports", done, len(jobs))
        weekly_jobs = [(week, lang) for week in WEEKS for lang in langs]
        for done, (week, lang) in enumerate(weekly_jobs, start=1):
            weekly = service.weekly(*parse_week(week), lang, allow_partial=True)
            _saved(result, save_report(weekly, folder, if_changed=True))
            quiet("weekly reports", done, len(weekly_jobs))
    if pdf:  # each report's PDF beside it, as `run` makes them; the site copies them
        # Only the PDFs missing or stale are made: a second demo on the same data writes nothing.
        result.files += make_pdfs(result.reports, progress)
        from tidings.render.fonts import missing_fonts

        # PERIOD.LANG.json: the reports make_pdfs left without a PDF (and warned about)
        result.pdfs_skipped = sum(1 for p in result.reports if missing_fonts(p.suffixes[-2][1:]))
    if site:
        chrome = SiteConfig(title="tidings demo")
        try:
            result.site = build_site(folder, result.site_dir, chrome, pdf=pdf, progress=progress)
        except TidingsError as exc:  # the reports are written and stay; the caller says both
            result.site_error = exc
    return result


def _saved(result: DemoResult, saved: SavedReport) -> None:
    result.reports.append(saved.json_path)
    if saved.written:
        result.files += [saved.markdown_path, saved.json_path]
