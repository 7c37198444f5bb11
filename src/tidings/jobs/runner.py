"""The everyday job behind `tidings.run` and `tidings run`: sync every configured repository
and write the reports that are due (the API then rebuilds the site).

Many repositories (docs/scale.md): the stalest goes first, `[run] concurrency` of them at a
time on threads (their work waits on GitHub, the model and the database far more than on
Python), all drawing on one GitHub budget (sources/github/budget.py) and one model provider
(its `max_concurrency` caps model calls in flight for the whole run). A repository's first
sync reads `[run] first_sync_days` back, not its whole history, unless asked.

A repository that fails (network, rate limit, a bad setting) is recorded and the others still
run; the caller turns any failure into a non-zero exit. A report is written when it is new or
when its content changed (a late comment, a relabel): the comparison ignores `generated_at`,
so a re-run on unchanged data writes nothing and the site rebuild then touches nothing.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tidings.common.config import Config, RepoConfig
from tidings.common.progress import Progress
from tidings.errors import TidingsError, TidingsWarning, UncoveredWindowError
from tidings.facts.windows import closed_days, daily_window, last_closed_week
from tidings.report.service import ReportService
from tidings.store import Store

if TYPE_CHECKING:
    from tidings.analysis.analyst import Analyst
    from tidings.analysis.estimate import Plan
    from tidings.common.config import Lang
    from tidings.jobs.delivery import Delivery
    from tidings.render.files import Report
    from tidings.sources.github.budget import GitHubBudget

Syncer = Callable[[Store, RepoConfig], Any]


@dataclass
class RepoOutcome:
    repo: str
    ok: bool = True
    synced: dict[str, int] = field(default_factory=dict)  # the sync's counts, by name
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    pdfs_made: int = 0
    error: str | None = None
    # The failure may pass by itself (TidingsError.transient): a queue job tries it again.
    transient: bool = False
    checked: list[str] = field(default_factory=list)  # every report due this run
    # Said, not failed: a due window the store does not cover, an unlisted maintainer team.
    warnings: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)  # written for the first time (announced)
    # The new reports themselves, for the notifications; not part of the outcome's data.
    new_reports: list[tuple[str, Report]] = field(default_factory=list, repr=False)
    # With a model: what the due reports would ask it (tokens by language, requests) and the
    # run's budget left when they started (plan_model).
    model_plan: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "repo": self.repo,
            "ok": self.ok,
            "error": self.error,
            "synced": self.synced,
            "written": self.written,
            "new": self.new,
            "unchanged": self.unchanged,
            "pdfs_made": self.pdfs_made,
            "checked": self.checked,
            "warnings": self.warnings,
            "model_plan": self.model_plan,
        }


def _save(report: Report, folder: Path, reports_dir: Path, outcome: RepoOutcome) -> None:
    from tidings.render.files import report_name, save_report

    existed = (folder / f"{report_name(report)}.json").is_file()
    saved = save_report(report, folder, if_changed=True)
    name = str(saved.json_path.relative_to(reports_dir))
    outcome.checked.append(name)
    if saved.written:
        outcome.written.append(name)
        if not existed:  # a changed report (a late comment) is not news
            outcome.new.append(name)
            outcome.new_reports.append((name, report))
    else:
        outcome.unchanged += 1


def report_daily(
    service: ReportService,
    days: list[date],
    langs: list[Lang],
    reports_dir: Path,
    outcome: RepoOutcome,
    progress: Progress | None = None,
) -> None:
    repo = service.repo
    jobs = [(day, lang) for day in days for lang in langs]
    for done, (day, lang) in enumerate(jobs, start=1):
        _report(outcome, reports_dir, partial(service.daily, day, lang))
        if progress:
            progress(f"{repo.name} daily", done, len(jobs))


def report_weekly(
    service: ReportService,
    now: datetime,
    langs: list[Lang],
    reports_dir: Path,
    outcome: RepoOutcome,
) -> None:
    """The last closed ISO week's report."""
    repo = service.repo
    year, week = last_closed_week(repo.tz, repo.cutoff_time, now)
    for lang in langs:
        _report(outcome, reports_dir, partial(service.weekly, year, week, lang))


def plan_model(
    store: Store,
    repo: RepoConfig,
    analysis: Analyst,
    days: list[date],
    langs: list[Lang],
    now: datetime,
    outcome: RepoOutcome,
) -> Plan:
    """What the repository's due reports would ask the model, from the cache as it stands
    (analysis/estimate.py); when it is more than the run's token budget has left, said now,
    before the first of them is written, with what would fit."""
    from tidings.analysis.estimate import plan_reports

    year, week = last_closed_week(repo.tz, repo.cutoff_time, now)

    def build(make: Callable[[ReportService], object]) -> Callable[[Analyst], object]:
        def one(twin: Analyst) -> object:
            try:
                return make(ReportService(store, repo, analysis=twin, now=now))
            except UncoveredWindowError:
                return None  # not written by the run either

        return one

    def daily(day: date, lang: Lang) -> Callable[[ReportService], object]:
        return lambda service: service.daily(day, lang)

    def weekly(lang: Lang) -> Callable[[ReportService], object]:
        return lambda service: service.weekly(year, week, lang)

    reports = [
        (f"{day} {lang} daily", lang, build(daily(day, lang))) for day in days for lang in langs
    ]
    reports += [(f"{year}-W{week:02d} {lang} weekly", lang, build(weekly(lang))) for lang in langs]
    plan = plan_reports(analysis, reports)
    left = analysis.tokens_left()
    short = plan.first_short(left)
    if short is not None:
        name, after = short
        by_lang = ", ".join(f"{lang} {tokens:,}" for lang, tokens in plan.tokens.items())
        rest = f" and the {after} after it" if after else ""
        line = (
            f"{repo.name}: its {plan.reports} due reports would ask the model for about "
            f"{plan.total:,} tokens ({by_lang}; {plan.requests} requests), more than the "
            f"{left:,} left of [llm] token_budget {analysis.provider.settings.token_budget:,}: "
            f"the budget runs out at about the {name} report: it{rest} "
            f"{'get' if after else 'gets'} the rules' text where the model's would be; "
            "set token_budget to "
            f"{_round_up(plan.total + analysis.tokens_spent()):,} or more for all of them"
        )
        outcome.warnings.append(line)
        warnings.warn(TidingsWarning(line), stacklevel=2)
    outcome.model_plan = {"tokens": plan.tokens, "requests": plan.requests, "left": left}
    return plan


def _round_up(tokens: int, step: int = 50_000) -> int:
    return -(-tokens // step) * step


def _report(outcome: RepoOutcome, reports_dir: Path, build: Callable[[], Report]) -> None:
    """Build one due report and save it if it changed; a window the store does not cover
    (a sync that stopped short) is left unwritten and said, never written as if complete."""
    try:
        report = build()
    except UncoveredWindowError as exc:
        outcome.warnings.append(f"{outcome.repo}: a due report was not written: {exc.cause}")
        return
    _save(report, reports_dir / outcome.repo, reports_dir, outcome)


def run_repositories(
    cfg: Config,
    store: Store,
    *,
    sync: Syncer,
    reports_dir: Path,
    days: int = 7,
    now: datetime | None = None,
    analysis: Analyst | None = None,
    progress: Progress | None = None,
    pdf: bool = False,
    concurrency: int = 1,
) -> list[RepoOutcome]:
    """Sync and report on every repository in the config; one failure does not stop the rest.

    Work starts with the stalest repository (never synced, then the least recently synced),
    `concurrency` repositories at a time; the outcomes come back in the config's order. With
    `pdf`, each due report gets its PDF beside it, made only when the report (or the
    renderer) changed since its PDF was made (render/pdf.py); they are printed after every
    repository is done, by one pool of processes."""
    moment = now or datetime.now(UTC)
    outcomes = {repo.name: RepoOutcome(repo.name) for repo in cfg.repos}
    order = by_staleness(store, cfg.repos)
    workers = min(max(1, concurrency), len(order)) if _shareable(store) else 1

    def one(repo: RepoConfig) -> None:
        run_repository(
            cfg,
            store,
            repo,
            outcomes[repo.name],
            sync=sync,
            reports_dir=reports_dir,
            days=days,
            now=moment,
            analysis=analysis,
            # Many repositories at once share one bar; one at a time shows its own stages.
            progress=progress if workers == 1 else None,
        )

    if workers == 1:
        for repo in order:
            one(repo)
    else:
        from tidings.common.workers import thread_pool

        done = 0
        with thread_pool(workers) as pool:
            for _ in pool.map(one, order):
                done += 1
                if progress:
                    progress("repositories", done, len(order))
    if pdf:
        _make_pdfs(list(outcomes.values()), reports_dir, progress)
    return [outcomes[repo.name] for repo in cfg.repos]


def run_repository(
    cfg: Config,
    store: Store,
    repo: RepoConfig,
    outcome: RepoOutcome,
    *,
    sync: Syncer,
    reports_dir: Path,
    days: int,
    now: datetime,
    analysis: Analyst | None = None,
    progress: Progress | None = None,
) -> RepoOutcome:
    """One repository's sync and due reports, its failure kept in `outcome` (never raised:
    the other repositories still deserve reports). A queue job runs exactly this."""
    langs: list[Lang] = list(cfg.site.languages or [repo.language])
    try:
        result = sync(store, repo)
        outcome.synced = _sync_summary(result)
        service = ReportService(store, repo, analysis=analysis, now=now)
        due = closed_days(repo.tz, repo.cutoff_time, now, days)
        if analysis is not None:
            plan_model(store, repo, analysis, due, langs, now, outcome)
        report_daily(service, due, langs, reports_dir, outcome, progress=progress)
        report_weekly(service, now, langs, reports_dir, outcome)
        outcome.warnings += service.take_warnings()
    except TidingsError as exc:
        outcome.ok, outcome.error = False, exc.one_line()
        outcome.transient = exc.transient
    except Exception as exc:  # keep going: the other repositories still deserve reports
        outcome.ok, outcome.error = False, f"{type(exc).__name__}: {exc}"
        # Unforeseen (the database dropping the connection, say): worth another try.
        outcome.transient = True
    return outcome


def _make_pdfs(outcomes: list[RepoOutcome], reports_dir: Path, progress: Progress | None) -> None:
    """Every due report's PDF, in one pool for the whole run (a pool forked from a worker
    thread, beside threads holding locks, could inherit a lock held for good)."""
    from tidings.render.files import make_pdfs

    due = [o for o in outcomes if o.ok and o.checked]
    try:
        made = make_pdfs([reports_dir / rel for o in due for rel in o.checked], progress)
    except TidingsError:
        # Find whose PDFs failed: each repository on its own, the failure kept in its outcome.
        for outcome in due:
            try:
                paths = [reports_dir / rel for rel in outcome.checked]
                outcome.pdfs_made = len(make_pdfs(paths, progress))
            except TidingsError as exc:
                outcome.ok, outcome.error = False, exc.one_line()
        return
    for outcome in due:
        folder = (reports_dir / outcome.repo).resolve()
        outcome.pdfs_made = sum(1 for p in made if p.resolve().is_relative_to(folder))


def by_staleness(store: Store, repos: list[RepoConfig]) -> list[RepoConfig]:
    """`repos` stalest first: never synced to completion, then the least recently synced;
    the config's order among equals."""
    from tidings.store.freshness import last_synced

    with store.engine.connect() as conn:
        synced = last_synced(conn)
    never = datetime.min.replace(tzinfo=UTC)
    return sorted(repos, key=lambda repo: synced.get(repo.name.lower()) or never)


def first_sync_start(repo: RepoConfig, now: datetime, lookback_days: int, days: int) -> datetime:
    """Where a repository's first sync starts reading (`[run] first_sync_days`): that many days
    back, or further when the reports due need it (the `days` closed days, the last closed
    week), extended to the start of that ISO week at the repository's cut-off."""
    today = now.astimezone(repo.tz).date()
    first = min(
        today - timedelta(days=lookback_days),
        closed_days(repo.tz, repo.cutoff_time, now, max(days, 1))[0],
        date.fromisocalendar(*last_closed_week(repo.tz, repo.cutoff_time, now), 1),
    )
    monday = first - timedelta(days=first.weekday())
    return daily_window(monday, repo.tz, repo.cutoff_time).start


def never_synced(store: Store, name: str) -> bool:
    """Whether `name` has no finished sync in the store (its next sync is its first)."""
    from tidings.store.freshness import last_synced

    with store.engine.connect() as conn:
        return last_synced(conn).get(name.lower()) is None


def github_syncer(
    cfg: Config,
    budget: GitHubBudget,
    *,
    now: datetime,
    days: int,
    full_history: bool = False,
    lookback: int | None = None,
    progress: Progress | None = None,
) -> Syncer:
    """The GitHub sync of `tidings run` and of a queue job: each repository on its token
    (round-robin by name over the budget's tokens), all of them on `budget`; a first sync
    bounded by `lookback` days (None: `[run] first_sync_days`) unless `full_history`."""
    from tidings.sources.github.client import GitHubClient
    from tidings.sources.github.sync import sync_repository

    positions = {name: k for k, name in enumerate(sorted(r.name.lower() for r in cfg.repos))}
    github = cfg.github

    def run_sync(store: Store, repo: RepoConfig) -> Any:
        since = None
        if not full_history and never_synced(store, repo.name):
            since = first_sync_start(repo, now, lookback or cfg.run.first_sync_days, days)
        token = budget.token_for(positions.get(repo.name.lower(), 0))
        if repo.clone:
            read_clone(store, repo.name, Path(repo.clone), progress)
        with GitHubClient(
            github.api_url,
            github.graphql,
            token,
            timeout=github.timeout,
            max_retries=github.max_retries,
            max_wait=github.max_wait,
            budget=budget,
        ) as client:
            return sync_repository(
                store,
                repo.name,
                github=github,
                token=token,
                since=since,
                progress=progress,
                client=client,
                teams=repo.maintainer_teams,
            )

    return run_sync


def read_clone(store: Store, name: str, clone: Path, progress: Progress | None) -> None:
    """Fetch the clone's remote default branch and read its new merged PRs with their diffs
    (sources/git.py): the GitHub sync then lists no files of the PRs it holds the diff of."""
    from tidings.sources.git import fetch_default_branch, sync_git

    sync_git(store, name, clone, progress=progress, rev=fetch_default_branch(clone))


def _shareable(store: Store) -> bool:
    """Whether threads see one database: an in-memory SQLite store is one per connection."""
    url = store.engine.url
    return not (store.dialect == "sqlite" and url.database in (None, "", ":memory:"))


def _sync_summary(result: Any) -> dict[str, int]:
    data = result.to_dict() if hasattr(result, "to_dict") else result
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)}


def notify_new(
    cfg: Config, outcomes: list[RepoOutcome], token: str | None = None
) -> list[Delivery]:
    """The notify hook of a run: announce each repository's new reports (delivery.due picks
    which) to [notify] urls, and publish them as discussions when [notify.discussion] asks
    (with `token`). Never raises: a failed delivery is in the list, and the reports stand
    whatever happens to the messages."""
    settings = cfg.notify
    if not settings.urls and settings.discussion is None:
        return []
    from tidings.jobs.delivery import due, message, publish_discussions, send

    messages, discuss = [], []
    for outcome in outcomes:
        lang = cfg.repo(outcome.repo).language
        for report in due(outcome.new_reports, settings, lang):
            messages.append(message(report, cfg.site.base_url))
        if settings.discussion is not None:
            discuss += due(outcome.new_reports, settings, lang, settings.discussion.kinds)
    try:
        sent = send(messages, settings)
        if settings.discussion is not None and token:
            sent += publish_discussions(
                discuss, settings.discussion, cfg.github, token, cfg.site.base_url
            )
        return sent
    except Exception as exc:  # a bug in a notification plugin must not cost the reports
        from tidings.errors import redact
        from tidings.jobs.delivery import Delivery

        return [Delivery("notify", "all", False, redact(f"{type(exc).__name__}: {exc}"))]
