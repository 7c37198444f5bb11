"""The `tidings` command line: argument parsing and console output over the API (tidings.api).

The commands live in app.py (global options), data.py (sync, import, export, repos, stats),
reports.py (report daily/weekly, demo), site.py (site build, serve, run), deliver.py (notify)
and start.py (init). `main()` owns
failure handling: an expected failure (TidingsError) is one `error:` line on stderr and its
exit code; a TidingsWarning is one `warning:` line; Ctrl-C exits 130. Nothing prints a
traceback except a genuine bug (exit 70), and every line goes through `redact`.

Exit codes, everywhere (docs/commands.md: Exit codes):
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
import inspect
import os
import signal
import sys
import traceback
import warnings
from typing import Any, NoReturn

import typer

from tidings.cli import console, data, deliver, queue, reports, site, start  # noqa: F401  (each registers its commands)
from tidings.cli.app import NOTES, app, say, warn
from tidings.errors import TidingsError, TidingsWarning

try:  # Typer 0.2x vendors Click privately; older Typer uses the click package.
    from typer._click.exceptions import ClickException, UsageError
except ImportError:  # pragma: no cover
    from click.exceptions import ClickException, UsageError  # type: ignore[assignment]

__all__ = ["app", "main"]


def _one_line_summaries(typer_app: typer.Typer) -> None:
    """Each command's summary in a command list is its docstring's first paragraph as one
    sentence: Typer keeps the source's line breaks there, which wrap mid-phrase."""
    for command in typer_app.registered_commands:
        doc = inspect.getdoc(command.callback) if command.callback else None
        if command.short_help is None and doc:
            command.short_help = " ".join(doc.split("\n\n")[0].split())
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            _one_line_summaries(group.typer_instance)


_one_line_summaries(app)


def _usage_line(exc: UsageError) -> str:
    where = exc.ctx.command_path if exc.ctx else "tidings"
    return f"{exc.format_message()} — see `{where} --help`"


def main(argv: list[str] | None = None) -> NoReturn:
    """The console script: run the app and turn every failure into one line and an exit code."""
    if argv is None:  # the process is ours (in-process callers pass argv and keep their handler)
        signal.signal(signal.SIGINT, _first_ctrl_c)
    with warnings.catch_warnings():  # restores the warning filters and printer afterwards
        warnings.simplefilter("always", TidingsWarning)
        warnings.showwarning = _warning_printer(warnings.showwarning)
        _run(argv)


def _run(argv: list[str] | None) -> NoReturn:
    NOTES.clear()
    try:
        code = app(args=argv, prog_name="tidings", standalone_mode=False)
        # Written now, inside the handlers: a full device fails here, not at interpreter exit.
        console.stdout.flush()
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
    for note in NOTES:
        say(note)
    sys.exit(code if isinstance(code, int) else 0)


def _warning_printer(other: Any) -> Any:
    """Print the API's TidingsWarnings as `warning:` lines; leave any other warning to Python."""

    def show(message: Any, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        if issubclass(category, TidingsWarning):
            warn(str(message))
        else:
            other(message, category, *args, **kwargs)

    return show


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
    from tidings.common.workers import busy_threads

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
