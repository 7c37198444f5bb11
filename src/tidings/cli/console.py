"""Terminal output for the CLI: consoles that redact secrets, and the tables commands print.

Every byte the CLI writes goes through `redact`, so a token that slipped into an error or a
repository description never reaches a terminal or a log. Text from the data (titles, paths,
logins, labels, repository names, error causes quoting them) goes through `cell` or `clean`
before Rich sees it, so an ESC or OSC sequence in it cannot retitle the terminal or draw a
link; Rich's own styling, written after, is untouched.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TextIO

from rich.console import Console
from rich.markup import escape

from tidings.common.textsafe import clean, json_safe
from tidings.errors import TidingsError, redact

if TYPE_CHECKING:  # types only: `tidings --help` need not load the store, nor Rich's tables
    from rich.table import Table

    from tidings.facts.inventory import RepoSummary
    from tidings.facts.stats import Churn, WindowStats
    from tidings.jobs.runner import RepoOutcome


class _Redacting:
    """A text stream that scrubs secrets, resolving sys.stdout/err at write time.

    Resolving late keeps pytest's capsys and Click's CliRunner, which swap the streams, working.
    """

    def __init__(self, target: Callable[[], TextIO], name: str) -> None:
        self._target = target
        self._name = name

    def _stream(self) -> TextIO:
        # While a progress display is live, Rich swaps sys.stdout/err for proxies that print
        # through our own consoles, which write here: going through the proxy would recurse
        # forever (a hang on every terminal). Write to the file behind the proxy instead.
        stream = self._target()
        while (inner := getattr(stream, "rich_proxied_file", None)) is not None:
            stream = inner
        return stream

    def write(self, text: str) -> int:
        try:
            return self._stream().write(redact(text))
        except BrokenPipeError:
            raise  # the reader left (`| head`): the CLI exits quietly
        except OSError as exc:
            raise self._failed(exc) from exc

    def flush(self) -> None:
        try:
            self._stream().flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._failed(exc) from exc

    def _failed(self, exc: OSError) -> TidingsError:
        # `> /dev/full`, a full disk or a closed terminal: one line, not a traceback.
        from tidings.common.outputs import NO_SPACE_FIX, is_disk_full

        fix = NO_SPACE_FIX if is_disk_full(exc) else "check where the output goes"
        return TidingsError(f"cannot write to {self._name}: {exc.strerror or exc}", fix)

    def isatty(self) -> bool:
        isatty = getattr(self._stream(), "isatty", None)
        return bool(isatty and isatty())

    def fileno(self) -> int:
        return self._stream().fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream(), "encoding", None) or "utf-8"


stdout: TextIO = _Redacting(lambda: sys.stdout, "standard output")  # type: ignore[assignment]
stderr: TextIO = _Redacting(lambda: sys.stderr, "standard error")  # type: ignore[assignment]
out = Console(file=stdout, highlight=False)
err = Console(file=stderr, highlight=False)


def cell(text: object) -> str:
    """Data shown in a Rich table or markup line: no control characters, no markup."""
    return escape(clean(str(text)))


def emit_json(data: Any) -> None:
    """Machine-readable output: plain JSON on stdout, never styled. Control characters in its
    strings are written as escapes, so the data is whole and the terminal obeys none of it."""
    text = json.dumps(data, ensure_ascii=False, indent=2, default=str)
    stdout.write(json_safe(text) + "\n")
    stdout.flush()


def error_line(message: str) -> None:
    stderr.write(" ".join(f"error: {clean(message)}".split()) + "\n")
    stderr.flush()


# -- progress ---------------------------------------------------------------------------------


@contextmanager
def progress_display() -> Iterator[Callable[[str, int, int | None], None]]:
    """A `progress(stage, done, total)` callback drawing bars on stderr (silent when piped)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    if not err.is_terminal:
        yield lambda _stage, _done, _total: None
        return
    bars = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )
    tasks: dict[str, Any] = {}

    def update(stage: str, done: int, total: int | None) -> None:
        if stage not in tasks:
            tasks[stage] = bars.add_task(cell(stage), total=total)
        bars.update(tasks[stage], completed=done, total=total)

    with bars:
        yield update


# -- tables -------------------------------------------------------------------------------------


def show(*tables: Table) -> None:
    """Tables on stdout: drawn for a terminal; piped, plain tab-separated rows (as `gh` prints
    them) that `cut`, `sort` and `awk` read. Piped, a lone table is its rows alone; several
    start each row with their table's title, so the rows still say which table they are."""
    if out.is_terminal:
        for table in tables:
            out.print(table)
        return
    lines = []
    for table in tables:
        lead = [_plain(table.title)] if len(tables) > 1 else []
        columns = [list(column.cells) for column in table.columns]
        for row in range(table.row_count):
            lines.append("\t".join(lead + [_plain(cells[row]) for cells in columns]))
    stdout.write("".join(f"{line}\n" for line in lines))
    stdout.flush()


def _plain(value: object) -> str:
    # Cells hold escaped markup (`cell`) or Text; piped, neither may split a row or a column.
    from rich.text import Text

    if isinstance(value, Text):
        text = value.plain
    elif isinstance(value, str):
        text = Text.from_markup(value).plain
    else:
        text = "" if value is None else str(value)
    return " ".join(text.split())


# Units of the numbers key_value_table shows, by key: a bare "elapsed 3.2" reads as anything.
UNITS = {"elapsed": "s", "seconds": "s", "bytes": "bytes"}


def key_value_table(title: str, data: dict[str, Any]) -> Table:
    from rich.table import Table

    table = Table(title=cell(title), show_header=False)
    table.add_column("what", no_wrap=True)
    table.add_column("value", justify="right", overflow="fold")
    for key, value in data.items():
        if isinstance(value, list):
            value = "; ".join(str(v) for v in value) or "-"
        elif isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items()) or "-"
        unit = UNITS.get(key)
        label = key.replace("_", " ") + (f" ({unit})" if unit else "")
        table.add_row(cell(label), cell(value))
    return table


def _repo_column(table: Table, names: Iterable[str], header: str = "repository") -> None:
    """A repository column that never clips a name: as wide as the longest name when the
    terminal allows, else the name folds onto a second line (never an ellipsis)."""
    width = max([len(header), *(len(n) for n in names)])
    table.add_column(header, overflow="fold", max_width=width, ratio=None)


def _numbers(numbers: list[int], limit: int = 12) -> str:
    shown = " ".join(f"#{n}" for n in numbers[:limit])
    return shown + (f" … (+{len(numbers) - limit})" if len(numbers) > limit else "")


def _churn_table(title: str, rows: Iterable[Churn]) -> Table:
    from rich.table import Table

    table = Table(title=title)
    table.add_column("path")
    for name in ("churn", "+", "-", "PRs"):
        table.add_column(name, justify="right")
    for c in rows:
        table.add_row(cell(c.path), str(c.churn), str(c.additions), str(c.deletions), str(c.prs))
    return table


def stats_tables(stats: WindowStats) -> list[Table]:
    """`tidings stats` for people: counts with their items, then paths and people."""
    from rich.table import Table

    as_of = stats.data_as_of.strftime("%Y-%m-%d %H:%M UTC") if stats.data_as_of else "no data"
    counts = Table(
        title=cell(f"{stats.repository}: {stats.window.display}"),
        caption=f"UTC {stats.window.start} ~ {stats.window.end}, data as of {as_of}",
        min_width=72,  # keeps the window on one title line
    )
    counts.add_column("count")
    counts.add_column("n", justify="right")
    counts.add_column("items")
    labels = {
        "new_issues": "new issues",
        "closed_issues": "closed issues",
        "new_prs": "new PRs",
        "merged_prs": "merged PRs",
        "closed_unmerged_prs": "closed unmerged PRs",
    }
    why = (
        "unknown: the data comes only from a git clone"
        if "new_issues" in stats.unknown
        else "unknown: some merged PRs come only from a git clone"
    )
    for key, label in labels.items():
        numbers: list[int] | None = getattr(stats.items, key)
        if numbers is None:  # the sources cannot know it: a git clone knows merges only
            counts.add_row(label, "—", why)
            continue
        counts.add_row(label, str(len(numbers)), _numbers(numbers))
    tables = [counts]

    if stats.merged_by_label:
        by_label = Table(title="merged PRs by label")
        by_label.add_column("label")
        by_label.add_column("PRs", justify="right")
        for lc in stats.merged_by_label:
            by_label.add_row(cell(lc.label), str(lc.count))
        tables.append(by_label)
    if stats.top_paths:
        tables.append(_churn_table("top changed paths (merged PRs)", stats.top_paths))
        tables.append(
            _churn_table(f"top directories (depth {stats.directory_depth})", stats.top_directories)
        )
    if stats.contributors:
        people = Table(title="active contributors (humans)")
        people.add_column("login")
        # A clone's authors merged PRs nobody knows the opening of: a column only then.
        git = any(c.merged_unknown_opened for c in stats.contributors)
        names = ["total", "issues", "PRs", "comments", "review comments", "reviews"]
        for name in names + (["merged (git)"] if git else []):
            people.add_column(name, justify="right")
        for c in stats.contributors:
            values = [c.total, c.issues, c.prs, c.comments, c.review_comments, c.reviews]
            values += [c.merged_unknown_opened] if git else []
            people.add_row(cell(c.login), *(str(v) for v in values))
        tables.append(people)
    if stats.reviewers:
        reviewers = Table(title="reviewers")
        reviewers.add_column("login")
        reviewers.add_column("reviews", justify="right")
        reviewers.add_column("by state")
        for r in stats.reviewers:
            states = ", ".join(f"{k.lower()} {v}" for k, v in r.states.items())
            reviewers.add_row(cell(r.login), str(r.total), cell(states))
        tables.append(reviewers)
    return tables


def repos_table(rows: list[RepoSummary]) -> Table:
    from rich.table import Table

    table = Table(title="repositories in the store")
    _repo_column(table, [clean(r.full_name) for r in rows])
    for name in ("issues", "PRs", "comments", "reviews"):
        table.add_column(name, justify="right")
    table.add_column("latest update (UTC)")
    for r in rows:
        latest = r.latest_update.strftime("%Y-%m-%d %H:%M") if r.latest_update else "-"
        table.add_row(
            cell(r.full_name), str(r.issues), str(r.prs), str(r.comments), str(r.reviews), latest
        )
    return table


# What `tidings run` shows of a sync, in this order (the JSON has every count).
_SYNC_SHOWN = ("items", "comments", "reviews", "requests")


def run_table(outcomes: list[RepoOutcome]) -> Table:
    """What `tidings run` did, one row per repository; counts say what they count."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title="tidings run")
    _repo_column(table, [clean(o.repo) for o in outcomes])
    table.add_column("status", overflow="fold")
    table.add_column("synced", overflow="fold")
    for name in ("new reports", "changed reports", "unchanged reports"):
        # Numbers need little room: on a narrow terminal the header wraps, not the name.
        table.add_column(name, justify="right", max_width=9)
    for o in outcomes:
        synced = ", ".join(f"{o.synced[k]} {k}" for k in _SYNC_SHOWN if o.synced.get(k))
        table.add_row(
            # Text, not markup: an error may quote brackets ("[bot]") that Rich would eat.
            Text(clean(o.repo)),
            Text(clean("ok" if o.ok else f"failed: {o.error}")),  # causes quote data
            Text(synced or "-"),
            str(len(o.new)),
            str(len(o.written) - len(o.new)),
            str(o.unchanged),
        )
    return table
