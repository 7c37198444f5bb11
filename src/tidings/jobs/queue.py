"""Many machines: `tidings run --queue` and `tidings worker` on procrastinate, the task queue
that lives in the PostgreSQL store itself (docs/scale.md says why it, not Celery and Redis).

- `enqueue` puts one **sync job** per repository and window (the run's moment) on the queue,
  stalest first (procrastinate priority), and one **site job** behind them.
- A sync job runs exactly what `tidings run` runs for one repository (runner.run_repository):
  the sync, then the due reports. Its procrastinate `lock` is the repository, so no two
  workers ever work on one repository at once (and the store's own per-repository sync lock,
  store/locks.py, still holds against a `tidings sync` by hand); its `queueing_lock` is the
  repository and window, so enqueueing the same day twice queues it once.
- The site job builds the site once no sync job is left: while any is still waiting or
  running, it hands over to a fresh site job at the back of the queue and ends (its
  `queueing_lock` keeps one waiting at a time), so one build runs after the day's jobs
  (failed ones included: their reports stay as they were). Jobs waiting out a retry's wait
  do not hold it back: it builds, and a site job scheduled for the first retry builds again.
- A worker killed mid-job (SIGKILL, a lost machine) stops sending its heartbeat; every other
  worker looks for such stalled jobs every few seconds and puts them back on the queue, where
  the next free worker takes them up. The store is crash-safe at every step of a sync
  (sources/github/sync.py) and reports are written only when their content changed, so the
  retried job finishes the work and rewrites nothing the killed one wrote.
- A job that fails in a way that may pass (`TidingsError.transient`: GitHub answering 5xx or
  not at all, a rate limit, an unforeseen error) is tried again after `[queue] retry_wait`,
  doubled each time up to `retry_max_wait`, at most `retries` more times (`Backoff`, on
  procrastinate's RetryStrategy; a try cut short by a killed worker counts too, and one
  killed on its last try fails). A failure that would repeat (a bad token, an unknown
  repository) is not retried. Either way the worker's log says in one line which repository
  failed and why, and `tidings run --queue` names the repositories whose last job failed as
  it queues them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from tidings.errors import InvocationError, TidingsError

if TYPE_CHECKING:
    from procrastinate import App
    from procrastinate.jobs import Job
    from procrastinate.retry import RetryDecision

    from tidings.analysis.analyst import Analyst
    from tidings.common.config import Config, QueueConfig
    from tidings.jobs.runner import Syncer
    from tidings.sources.github.budget import GitHubBudget
    from tidings.store import Store

log = logging.getLogger("tidings.jobs.queue")

QUEUE = "tidings"
SYNC_TASK = "tidings.sync"
SITE_TASK = "tidings.site"
SITE_POLL = 3.0  # seconds a site job waits for the last sync jobs before handing over
HEARTBEAT = 10.0  # seconds between a worker's heartbeats
STALLED_AFTER = 60.0  # a worker silent this long is dead: its jobs go back on the queue


def require_postgres(store: Store) -> None:
    if store.dialect != "postgresql":
        raise InvocationError(
            "the queue needs a PostgreSQL store, and this one is SQLite",
            "pass --db postgresql+psycopg://USER:PASS@HOST/DB (or set TIDINGS_DB) on every machine",
        )


def conninfo(store: Store) -> str:
    """The store's URL as libpq reads it (procrastinate speaks psycopg directly): same
    server, database, user and options (a schema in `options=-csearch_path=...` included)."""
    url = store.engine.url.set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def ensure_schema(store: Store) -> None:
    """procrastinate's tables and functions in the store's schema, created by the first
    worker or enqueue that finds them missing (under a lock: several start at once)."""
    from tidings.store.migrate import advisory_key

    require_postgres(store)
    with store.begin() as conn:
        schema_name = conn.execute(sa.text("SELECT current_schema()")).scalar() or ""
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(advisory_key("queue", schema_name))))
        exists = conn.execute(sa.text("SELECT to_regclass('procrastinate_jobs')")).scalar()
        if exists is None:
            from procrastinate.schema import SchemaManager

            sql = SchemaManager.get_schema()
            # psycopg straight: the schema's text has `%` signs no placeholder should read.
            raw = conn.connection.driver_connection
            assert raw is not None
            raw.execute(sql)


# -- the app and its tasks --------------------------------------------------------------------


@dataclass
class WorkerContext:
    """What every job of one worker process shares: the store, the config, one GitHub budget
    and one model provider (so their limits hold for the whole process)."""

    store: Store
    config: Config
    budget: GitHubBudget
    analyst_for: Callable[[bool | None], Analyst | None]
    syncers: dict[tuple[str, int, bool], Syncer] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


_context: WorkerContext | None = None


def make_app(store: Store, retry: QueueConfig | None = None) -> App:
    """The procrastinate app on the store's database, with tidings' two tasks; a sync job
    that fails is retried as `retry` says (only a worker's app needs it)."""
    try:
        import procrastinate
    except ImportError as exc:
        raise TidingsError(
            "the queue needs procrastinate, which is not installed",
            "pip install 'tidings[postgres]'",
        ) from exc
    require_postgres(store)
    app = procrastinate.App(
        connector=procrastinate.PsycopgConnector(conninfo=conninfo(store)),
    )
    strategy = backoff(retry) if retry is not None else False
    app.task(name=SYNC_TASK, queue=QUEUE, retry=strategy)(_sync_job)
    app.task(name=SITE_TASK, queue=QUEUE, pass_context=True)(_site_job)
    return app


def backoff(settings: QueueConfig) -> Any:
    """procrastinate's RetryStrategy (its count of attempts) with `[queue]`'s waits: from
    `retry_wait`, doubled each time, capped at `retry_max_wait`. Its own `exponential_wait`
    is a base raised to the attempt (3, 9, 27 s…), which no "5m" maps onto. A failure that
    would repeat is not retried; every failure gets its one line in the worker's log."""
    from procrastinate.retry import RetryDecision, RetryStrategy

    class Backoff(RetryStrategy):
        def get_retry_decision(self, *, exception: BaseException, job: Job) -> RetryDecision | None:
            repo = str(job.task_kwargs.get("repo") or job.task_name)
            reason = _reason(exception)
            tries = job.attempts + 1  # this one included
            if isinstance(exception, TidingsError) and not exception.transient:
                log.error(
                    "%s: failed, not retried (it would fail the same way): %s; "
                    "the next run tries it again",
                    repo,
                    reason,
                )
                return None
            # procrastinate reads max_attempts=0 as "no limit": `retries = 0` is checked here.
            if (
                job.attempts >= settings.retries
                or super().get_retry_decision(exception=exception, job=job) is None
            ):
                log.error(
                    "%s: failed%s: %s; the next run tries it again",
                    repo,
                    f" after {tries} tries, the last" if tries > 1 else "",
                    reason,
                )
                return None
            wait = settings.wait_before(job.attempts)
            log.warning(
                "%s: try %d of %d failed: %s; trying again in %s",
                repo,
                tries,
                settings.retries + 1,
                reason,
                _duration(wait),
            )
            return RetryDecision(retry_at=datetime.now(UTC) + timedelta(seconds=wait))

    return Backoff(max_attempts=settings.retries)


def _reason(exception: BaseException) -> str:
    if isinstance(exception, TidingsError):
        return exception.one_line()
    return " ".join(f"{type(exception).__name__}: {exception}".split())


def _duration(seconds: float) -> str:
    """`90 s`, `5 min`, `2 h` — the wait as a person would say it."""
    if seconds < 120:
        return f"{seconds:g} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h".replace(".0 h", " h")


def _sync_job(
    repo: str, batch: str, now: str, days: int, full_history: bool, llm: bool | None
) -> None:
    from tidings.jobs.runner import RepoOutcome, github_syncer, run_repository

    ctx = _worker_context()
    cfg = ctx.config
    settings = cfg.repo(repo)
    moment = datetime.fromisoformat(now)
    key = (now, days, full_history)
    with ctx.lock:
        if key not in ctx.syncers:
            ctx.syncers[key] = github_syncer(
                cfg, ctx.budget, now=moment, days=days, full_history=full_history
            )
        sync = ctx.syncers[key]
    log.info("%s: started (batch %s)", repo, batch)
    outcome = run_repository(
        cfg,
        ctx.store,
        settings,
        RepoOutcome(repo),
        sync=sync,
        reports_dir=Path(cfg.site.reports_dir),
        days=days,
        now=moment,
        analysis=ctx.analyst_for(llm),
    )
    for name in outcome.written:
        log.info("%s: wrote %s", repo, name)
    for warning in outcome.warnings:
        log.warning("%s", warning)
    if not outcome.ok:  # its line in the log comes from Backoff, which knows what follows
        raise JobFailed(outcome.error or "failed", transient=outcome.transient)
    log.info(
        "%s: ok (%s; %d reports written, %d unchanged)",
        repo,
        outcome.synced or "nothing new",
        len(outcome.written),
        outcome.unchanged,
    )


def _site_job(context: Any, pdf: bool | None) -> None:
    from procrastinate.exceptions import AlreadyEnqueued

    ctx = _worker_context()
    app = context.app
    if _sync_jobs_left(ctx.store).due:
        time.sleep(SITE_POLL)
    left = _sync_jobs_left(ctx.store)
    if left.due:
        # Not yet: a fresh site job takes this one's place at the back of the queue, and this
        # worker slot is free again for the sync jobs (a worker running one job at a time
        # would otherwise wait here for jobs it can never start).
        with contextlib.suppress(AlreadyEnqueued):  # a newer run queued one already
            _site_task(app).defer(pdf=pdf)
        return
    _build_site(ctx.config, pdf)
    if left.later:
        # Jobs waiting out a retry's backoff: the day's other reports are published now, not
        # an hour later, and a site job waits for the first retry to build again after it.
        first = min(at for _repo, at in left.later)
        with contextlib.suppress(AlreadyEnqueued):
            _site_task(app, at=first).defer(pdf=pdf)
        waiting = ", ".join(f"{repo} at {at:%H:%M:%S %Z}" for repo, at in left.later)
        log.info(
            "site: %s for a retry (%s); the site is built again after %s",
            "1 repository waits"
            if len(left.later) == 1
            else f"{len(left.later)} repositories wait",
            waiting,
            "it" if len(left.later) == 1 else "them",
        )


def _build_site(cfg: Config, pdf: bool | None) -> None:
    from tidings.site.build import build_site

    reports = Path(cfg.site.reports_dir)
    if not reports.is_dir():
        log.info("site: no reports in %s yet", reports)
        return
    result = build_site(reports, Path(cfg.site.out_dir), cfg.site, pdf=pdf)
    log.info(
        "site: built %s/ (%d files written, %d unchanged)",
        cfg.site.out_dir,
        len(result.written),
        result.unchanged,
    )


@dataclass
class JobsLeft:
    due: bool  # a sync job is running or may start now
    later: list[tuple[str, datetime]]  # sync jobs waiting out a retry's backoff, and until when


def _sync_jobs_left(store: Store) -> JobsLeft:
    # One query on procrastinate's own table: its job manager cannot tell a job due now from
    # one scheduled for later, and a site job waiting on a backoff would hand over every few
    # seconds for an hour.
    query = sa.text(
        "SELECT status, args->>'repo', scheduled_at, "
        "status = 'doing' OR scheduled_at IS NULL OR scheduled_at <= now() "
        "FROM procrastinate_jobs "
        "WHERE queue_name = :queue AND task_name = :task AND status IN ('todo', 'doing') "
        "ORDER BY scheduled_at"
    )
    with store.engine.connect() as conn:
        rows = conn.execute(query, {"queue": QUEUE, "task": SYNC_TASK}).all()
    return JobsLeft(
        due=any(row[3] for row in rows),
        later=[(str(row[1]), row[2].astimezone(UTC)) for row in rows if not row[3]],
    )


def _site_task(app: App, at: datetime | None = None) -> Any:
    # One site job waiting at a time, behind every sync job (the lowest priority).
    return app.configure_task(SITE_TASK, queueing_lock="site", priority=-1, schedule_at=at)


class JobFailed(TidingsError):
    """A repository's job failed: `reason` is its one line (cause — fix), and `transient`
    whether trying again later may help."""

    def __init__(self, reason: str, *, transient: bool) -> None:
        super().__init__(reason, transient=transient)


def _worker_context() -> WorkerContext:
    if _context is None:  # a task imported without `run_worker`: a bug, not a user mistake
        raise RuntimeError("tidings queue task run outside `tidings worker`")
    return _context


# -- enqueue ------------------------------------------------------------------------------------


@dataclass
class Enqueued:
    batch: str
    queued: list[str]  # repositories whose job was queued, stalest first
    already: list[str]  # repositories whose job for this window was already waiting
    site: bool  # a site build follows the jobs
    # Repositories whose last job failed (its retries spent, or not worth one), in config order.
    failed_before: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "batch": self.batch,
            "queued": self.queued,
            "already_queued": self.already,
            "site": self.site,
            "failed_before": self.failed_before,
        }


def enqueue(
    store: Store,
    config: Config,
    *,
    days: int,
    now: datetime,
    site: bool,
    pdf: bool | None,
    llm: bool | None,
    full_history: bool,
) -> Enqueued:
    """One sync job per repository for the window ending at `now`, stalest first, then the
    site job; a repository whose job for this window is still waiting is not queued twice."""
    from procrastinate.exceptions import AlreadyEnqueued

    from tidings.jobs.runner import by_staleness

    ensure_schema(store)
    app = make_app(store)
    batch = f"{now.astimezone(UTC):%Y%m%dT%H%M%SZ}-{uuid.uuid4().hex[:8]}"
    moment = now.astimezone(UTC).isoformat()
    window = now.astimezone(UTC).date().isoformat()
    order = by_staleness(store, config.repos)
    done = Enqueued(batch, [], [], site, failed_before=last_failed(store, config))
    with app.open():
        for rank, repo in enumerate(order):
            name = repo.name.lower()
            task = app.configure_task(
                SYNC_TASK,
                lock=f"repo:{name}",
                queueing_lock=f"repo:{name}:{window}",
                priority=len(order) - rank,  # higher first: the stalest
            )
            try:
                task.defer(
                    repo=repo.name,
                    batch=batch,
                    now=moment,
                    days=days,
                    full_history=full_history,
                    llm=llm,
                )
            except AlreadyEnqueued:
                done.already.append(repo.name)
                continue
            done.queued.append(repo.name)
        done.site = site and bool(done.queued)
        if done.site:
            with contextlib.suppress(AlreadyEnqueued):  # one already waits for every job
                _site_task(app).defer(pdf=pdf)
    return done


def last_failed(store: Store, config: Config) -> list[str]:
    """The configured repositories whose latest sync job failed for good (procrastinate
    keeps every job: the worker runs with delete_jobs="never")."""
    query = sa.text(
        "SELECT DISTINCT ON (lock) lock, status FROM procrastinate_jobs "
        "WHERE queue_name = :queue AND task_name = :task ORDER BY lock, id DESC"
    )
    with store.engine.connect() as conn:
        rows = conn.execute(query, {"queue": QUEUE, "task": SYNC_TASK}).all()
    failed = {str(lock) for lock, status in rows if status == "failed"}
    return [repo.name for repo in config.repos if f"repo:{repo.name.lower()}" in failed]


# -- the worker ---------------------------------------------------------------------------------


def run_worker(
    store: Store,
    config: Config,
    budget: GitHubBudget,
    analyst_for: Callable[[bool | None], Analyst | None],
    *,
    concurrency: int,
    once: bool = False,
    heartbeat: float = HEARTBEAT,
    stalled_after: float = STALLED_AFTER,
) -> None:
    """Take jobs until stopped (SIGINT/SIGTERM: the running jobs finish first), or with `once`
    until the queue is empty. Meanwhile, every `stalled_after` / 2 seconds, jobs of workers
    silent for `stalled_after` seconds go back on the queue."""
    global _context
    ensure_schema(store)
    app = make_app(store, config.queue)
    _context = WorkerContext(store, config, budget, analyst_for)

    async def main() -> None:
        async with app.open_async():
            # A dead worker's job first: `--once` would otherwise find the queue "empty" while
            # that job waits for a reaper that a one-off worker never lives long enough to run.
            await _reap_once(app, stalled_after, config.queue.retries)
            reaper = asyncio.create_task(_reap(app, stalled_after, config.queue.retries))
            try:
                await app.run_worker_async(
                    queues=[QUEUE],
                    concurrency=concurrency,
                    wait=not once,
                    update_heartbeat_interval=heartbeat,
                    stalled_worker_timeout=stalled_after,
                    delete_jobs="never",
                )
            finally:
                reaper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reaper

    try:
        asyncio.run(main())
    finally:
        _context = None


async def _reap(app: App, stalled_after: float, retries: int) -> None:
    """Every `stalled_after` / 2 seconds, put the jobs of dead workers back on the queue."""
    while True:
        await asyncio.sleep(max(0.5, stalled_after / 2))
        await _reap_once(app, stalled_after, retries)


async def _reap_once(app: App, stalled_after: float, retries: int) -> None:
    """Put the jobs of dead workers back on the queue (procrastinate leaves that to us). A
    sync job whose worker died on its last try fails instead: a repository whose sync kills
    its worker (out of memory, say) must not take down one worker after another for ever."""
    from procrastinate.jobs import Status

    try:
        stalled = await app.job_manager.get_stalled_jobs(
            queue=QUEUE, seconds_since_heartbeat=stalled_after
        )
        for job in stalled:
            repo = job.task_kwargs.get("repo")
            if repo is not None and job.attempts >= retries:
                log.error(
                    "%s: failed%s: its worker stopped answering; the next run tries it again",
                    repo,
                    f" after {job.attempts + 1} tries, the last" if job.attempts else "",
                )
                with contextlib.suppress(Exception):  # another worker ended it first
                    await app.job_manager.finish_job(job, Status.FAILED, delete_job=False)
                continue
            log.warning(
                "%s: its worker stopped answering; the job goes back on the queue",
                repo or job.task_name,
            )
            with contextlib.suppress(Exception):  # another worker retried it first
                await app.job_manager.retry_job(job)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # the database blinked: look again next time
        log.warning("looking for stalled jobs failed: %s", exc)
