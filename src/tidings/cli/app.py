"""The Typer app, its global options and what every command shares: the options' declarations,
the per-run state (database URL, config) and the console helpers for one-line messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from platformdirs import user_data_dir

from tidings import api
from tidings._version import __version__
from tidings.cli import console
from tidings.errors import InvocationError

if TYPE_CHECKING:
    from tidings.common.config import Config, RepoConfig

# Where the store lives unless --db says otherwise; the same folder as store/db.py's default
# (a test holds the two together), computed here so `--help` can say it without SQLAlchemy.
DEFAULT_STORE = Path(user_data_dir("tidings")) / "tidings.db"

app = typer.Typer(
    name="tidings",
    help="Daily and weekly development reports for fast-moving GitHub repositories.\n\n"
    "Start with `tidings demo` (offline), or `tidings init OWNER/REPO` for your own.",
    no_args_is_help=True,
    rich_markup_mode=None,
    # Click hands these down to every subcommand's context: `tidings report daily -h` works too.
    context_settings={"help_option_names": ["-h", "--help"]},
    # --install-completion / --show-completion for bash, zsh, fish and PowerShell (Click's).
    add_completion=True,
    pretty_exceptions_enable=False,
)


# Said after a command succeeds (main() prints them): a failure stays one `error:` line.
NOTES: list[str] = []


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

    def repo_name(self, repo: str | None) -> str:
        """The repository a command is about: as given, else the config's only one."""
        from tidings.api import check_repo_name

        if repo is not None:
            return check_repo_name(repo)
        cfg = self.config()
        if len(cfg.repos) == 1:
            return cfg.repos[0].name
        where = str(cfg.path) if cfg.path else "no tidings.toml was found"
        listed = ", ".join(r.name for r in cfg.repos[:5]) or "none"
        raise InvocationError(
            f"which repository? give OWNER/REPO ({where}; repositories in it: {listed})",
            "e.g. tidings report daily vllm-project/vllm, or `tidings init OWNER/REPO`",
        )

    def repo(self, repo: str | None) -> RepoConfig:
        """The repository's settings; one the config does not list says which defaults it
        gets, once per command (a surprise timezone would shift every window)."""
        name = self.repo_name(repo)
        cfg = self.config()
        settings = cfg.repo(name)
        if not any(r.name.lower() == name.lower() for r in cfg.repos):
            where = f"not in {cfg.path}" if cfg.path else "not configured (no tidings.toml found)"
            NOTES.append(
                f"note: {name} is {where}: used timezone {settings.timezone}, cut-off "
                f"{settings.cutoff}, language {settings.language} — add a [[repos]] entry "
                f"(tidings init {name}) to change them"
            )
        return settings


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
            f"(default: the SQLite file {DEFAULT_STORE})",
            show_envvar=True,
        ),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="Config file (default: $TIDINGS_CONFIG, else tidings.toml in this folder or "
            "the nearest parent folder that has one; its folders are relative to it).",
        ),
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


def check_when(date: str | None, week: str | None) -> None:
    """A malformed --date or --week is a usage error said before anything else (the note on
    an unconfigured repository included); the words (yesterday, last-week) pass."""
    from tidings.api import check_when as check

    check(date, week)


def say(line: str) -> None:
    """A line for people on stderr (stdout carries only what was asked for)."""
    console.err.print(line, markup=False, soft_wrap=True)


def warn(text: str) -> None:
    say(f"warning: {text}")


# What shell completion offers. The commands check the same values (a test holds the two).
LANGUAGES = api.LANGS
REPORT_FORMATS = api.REPORT_FORMATS


def complete(choices: tuple[str, ...], incomplete: str) -> list[str]:
    return [c for c in choices if c.startswith(incomplete)]


def complete_repo(ctx: typer.Context, incomplete: str) -> list[str]:
    """The repositories tidings.toml lists (the one --config names, else the nearest): a
    completion never fails, so a missing or broken config offers nothing."""
    from tidings.api import load_config

    path = ctx.find_root().params.get("config")
    try:
        names = [r.name for r in load_config(path).repos]
    except Exception:  # a completion must never print a traceback into a shell
        return []
    return [n for n in names if n.startswith(incomplete)]


RepoArg = Annotated[
    str,
    typer.Argument(
        metavar="OWNER/REPO", help="The GitHub repository.", autocompletion=complete_repo
    ),
]
OptRepoArg = Annotated[
    str | None,
    typer.Argument(
        metavar="OWNER/REPO",  # Click adds the brackets of an optional argument
        help="The GitHub repository (default: the only one in tidings.toml).",
        show_default=False,
        autocompletion=complete_repo,
    ),
]
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
    typer.Option(
        "--lang",
        help="zh or en (default: the repository's `language` in the config).",
        autocompletion=lambda incomplete: complete(LANGUAGES, incomplete),
    ),
]
FormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format",
        help="md (Markdown), json (the report model, docs/report.md) or pdf (needs --out); "
        "default: --out's extension when it is one of these, else md.",
        show_default=False,
        autocompletion=lambda incomplete: complete(REPORT_FORMATS, incomplete),
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Write to this file instead of stdout, whole or not at all (a symlink is written "
        "through to its file; a device, pipe or folder is refused).",
    ),
]
LLMOpt = Annotated[
    bool | None,
    typer.Option(
        "--llm/--no-llm",
        help="Let the [llm] model write the prose (default: when base_url and model are set).",
    ),
]
PdfOpt = Annotated[
    bool | None,
    typer.Option("--pdf/--no-pdf", help="Make PDF downloads (default: [site] pdf, true)."),
]
