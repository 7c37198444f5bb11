"""The Typer app, its global options and what every command shares: the options' declarations,
the per-run state (database URL, config) and the console helpers for one-line messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tidings import console
from tidings._version import __version__
from tidings.errors import InvocationError

if TYPE_CHECKING:
    from tidings.config import Config

app = typer.Typer(
    name="tidings",
    help="Daily and weekly development reports for fast-moving GitHub repositories.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@dataclass
class State:
    db: str | None  # None: the default store (tidings.open_store)
    config_path: Path | None
    _config: Config | None = field(default=None, repr=False)

    def config(self) -> Config:
        # Loaded on first use, so `tidings CMD --help` works even beside a broken config.
        if self._config is None:
            from tidings.api import load_config

            self._config = load_config(self.config_path)
        return self._config


def state(ctx: typer.Context) -> State:
    return ctx.ensure_object(State)


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
    ctx.obj = State(db=db, config_path=config)


def bad_choice(name: str, value: str, allowed: tuple[str, ...]) -> InvocationError:
    """The usage error for an option given a value outside its choices."""
    return InvocationError(
        f"{name} must be one of {', '.join(allowed)}, got {value!r}", f"e.g. {name} {allowed[0]}"
    )


def say(line: str) -> None:
    """A line for people on stderr (stdout carries only what was asked for)."""
    console.err.print(line, markup=False, soft_wrap=True)


def warn(text: str) -> None:
    say(f"warning: {text}")


RepoArg = Annotated[str, typer.Argument(metavar="OWNER/REPO", help="The GitHub repository.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON on stdout instead of tables.")]
AllowPartialOpt = Annotated[
    bool,
    typer.Option(
        "--allow-partial",
        help="Report a window that has not ended, or that the store's data does not reach "
        "to its end (the last sync, else the newest update; docs/report.md: Coverage), "
        "instead of refusing it.",
    ),
]
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
PdfOpt = Annotated[
    bool | None,
    typer.Option("--pdf/--no-pdf", help="Make PDF downloads (default: [site] pdf, true)."),
]
