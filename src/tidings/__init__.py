"""tidings: daily and weekly development reports for fast-moving GitHub repositories.

The Python API (docs/python-api.md); the `tidings` command is a thin layer over it.

Store and config
    open_store(url=None) -> Store          the store at a database URL (default: a SQLite file
                                           in the user data folder); close it when done
    load_config(path=None) -> Config       tidings.toml (or the defaults)
    init_project(repos, folder, ...)       write a commented tidings.toml (`tidings init`)
    check_repo_name(name) -> str           `name` if it is a valid OWNER/REPO, else InvocationError

Sources (into the store)
    sync(store, repo, ...)                 GitHub: issues, PRs, comments, reviews, files
    sync_git(store, repo, clone)           merged PRs from a local clone, offline
    import_snapshot(store, path)           load a snapshot file (all or nothing)
    export_snapshot(store, repo, path)     write one
    repositories(store)                    what the store holds

Reports (from the store)
    build_daily(store, repo, day, lang)    -> DailyReport, one day's report
    build_weekly(store, repo, week, lang)  -> WeeklyReport, one ISO week's report
    resolve_day(text, repo) -> date        "yesterday", "today" or YYYY-MM-DD: the day meant
    resolve_week(text, repo) -> (y, w)     "last-week", "this-week" or YYYY-Www: the ISO week
    check_when(date, week)                 a --date/--week text is a day or week, else WindowError
    check_report_format(fmt, lang)         md/json/pdf in zh/en, and the fonts a PDF needs
    stats(store, repo, day=|week=)         a window's counts
    render_report(report, fmt="md")        the report as Markdown or JSON text, or PDF bytes
    write_report(report, path, fmt=None)   write one rendering to a file, atomically
    save_report(report, folder)            file its Markdown and JSON as KIND/PERIOD.LANG.*

Site and the everyday job
    build_site(reports, out, config)       the static site from report JSON files
    site_server(directory)                 a local preview server for it
    run(store, config) -> RunResult        sync every configured repository, write the due
                                           reports, rebuild the site (`tidings run`)
    notify(reports, config)                send report files' headlines and links to chat
                                           and mail ([notify] urls, through Apprise)
    enqueue_run(store, config)             `tidings run --queue`: jobs on a PostgreSQL queue
    work(store, config)                    `tidings worker`: take queued jobs until stopped
    build_demo(out) -> DemoResult          the bundled sample's reports and site, offline

Types: Config, RepoConfig, SiteConfig, Store, DailyReport, WeeklyReport, RunResult,
DemoResult; LANGS and REPORT_FORMATS, the languages and formats a report comes in. Errors:
TidingsError (its `exit_code` is the CLI's) and its subclasses InvocationError, ConfigError,
WindowError, UncoveredWindowError, SnapshotError, SourceError, StoreError;
TidingsWarning for what stops nothing (issued through `warnings.warn`).

`store` arguments take a Store or a database URL; a URL is opened for the call and closed
after it. `import tidings` is fast: the heavy modules load when a function needs them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tidings import api as _api
from tidings import errors as _errors
from tidings._version import __version__ as __version__
from tidings.api import *  # noqa: F403  (the names api.__all__ lists)
from tidings.errors import *  # noqa: F403  (the error types errors.__all__ lists)

if TYPE_CHECKING:
    # `X as X`: re-exported for type checkers; at run time __getattr__ loads them.
    from tidings.common.config import Config as Config
    from tidings.common.config import RepoConfig as RepoConfig
    from tidings.common.config import SiteConfig as SiteConfig
    from tidings.report.model import DailyReport as DailyReport
    from tidings.report.weekly_model import WeeklyReport as WeeklyReport
    from tidings.store import Store as Store

# Types whose modules are heavy (pydantic, SQLAlchemy): loaded on first use (PEP 562).
_LAZY = {
    "Config": "tidings.common.config",
    "RepoConfig": "tidings.common.config",
    "SiteConfig": "tidings.common.config",
    "Store": "tidings.store",
    "DailyReport": "tidings.report.model",
    "WeeklyReport": "tidings.report.weekly_model",
}

# Built from the modules that own the names, so the API cannot drift from its list; a test
# pins it against docs/python-api.md and help(tidings).
__all__ = sorted([*_api.__all__, *_errors.__all__, *_LAZY, "__version__"])


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tidings' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(module), name)
    globals()[name] = value  # once loaded, a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
