"""Commands for many machines (docs/scale.md): `tidings worker`, and `tidings run --queue`'s
half (the option itself lives with `run` in site.py)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Annotated, Any

import typer

from tidings import api
from tidings.cli import console
from tidings.cli.app import State, app, say, state, warn


def enqueue_run(
    run: State,
    *,
    days: int,
    site: bool,
    pdf: bool | None,
    llm: bool | None,
    full_history: bool,
    as_json: bool,
) -> None:
    """`tidings run --queue`: the jobs go on the queue; workers do the rest."""
    done = api.enqueue_run(
        run.db, run.config(), days=days, site=site, pdf=pdf, llm=llm, full_history=full_history
    )
    if as_json:
        console.emit_json(done.to_dict())
        return
    line = f"queued {len(done.queued)} repositories (batch {done.batch})"
    if done.already:
        line += f"; {len(done.already)} already queued for this window"
    if done.site:
        line += "; the site is built once they are done"
    say(line + " — run `tidings worker` on one or more machines to work through them")
    if done.failed_before:
        names = ", ".join(done.failed_before[:10])
        more = len(done.failed_before) - 10
        names += f" and {more} more" if more > 0 else ""
        warn(f"the last job failed for {names} — the workers' logs say why; queued again now")


@app.command()
def worker(
    ctx: typer.Context,
    concurrency: Annotated[
        int | None,
        typer.Option(
            "--concurrency",
            min=1,
            max=64,
            help="Jobs this worker runs at once (default: [run] concurrency, 4).",
        ),
    ] = None,
    once: Annotated[
        bool, typer.Option("--once", help="Exit when the queue is empty instead of waiting.")
    ] = False,
    heartbeat: Annotated[
        float | None,
        typer.Option("--heartbeat", min=0.1, help="Seconds between this worker's heartbeats (10)."),
    ] = None,
    stalled_after: Annotated[
        float | None,
        typer.Option(
            "--stalled-after",
            min=1.0,
            help="Seconds without a heartbeat after which a worker counts as dead and its "
            "job is retried by another (60).",
        ),
    ] = None,
) -> None:
    """Work through the jobs `tidings run --queue` queued, on a PostgreSQL store shared by
    every machine (docs/scale.md). Ctrl-C or SIGTERM lets the running jobs finish."""
    run = state(ctx)
    with quiet_tracebacks():
        api.work(
            run.db,
            run.config(),
            concurrency=concurrency,
            once=once,
            heartbeat=heartbeat,
            stalled_after=stalled_after,
        )


@contextlib.contextmanager
def quiet_tracebacks() -> Iterator[None]:
    """Worker logs in one line per event: a job's failure is its own line already, and
    procrastinate would add the exception's traceback to its "job failed" record."""

    class OneLine(logging.Formatter):
        def formatException(self, ei: Any) -> str:
            return ""

        def format(self, record: logging.LogRecord) -> str:
            record.exc_text = ""
            return super().format(record).rstrip()

    handler = logging.StreamHandler(console.stderr)
    handler.setFormatter(OneLine("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    old_level = root.level
    # A line per request or migration step: the job lines say enough.
    chatty = [logging.getLogger(name) for name in ("httpx", "alembic")]
    levels = [logger.level for logger in chatty]
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    for logger in chatty:
        logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
        for logger, level in zip(chatty, levels, strict=True):
            logger.setLevel(level)
