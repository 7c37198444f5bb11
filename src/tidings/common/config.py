"""`tidings.toml`: repositories, their windows and topics, GitHub and LLM settings.

Loaded once by the CLI and validated strictly: an unknown key, a bad timezone or a bad glob, a
number that is NaN, infinite or out of range, or a repository listed twice is a one-line
ConfigError naming the key and the file. A UTF-8 byte-order mark (as some Windows editors write)
is accepted.
"""

from __future__ import annotations

import os
import re
import tomllib
from datetime import time
from pathlib import Path
from typing import Any, Literal, get_args
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tidings.common.globs import GlobError, compile_glob
from tidings.common.langs import LANGS as LANGS  # re-exported for the layers above
from tidings.common.langs import Lang as Lang

# GitHub's OWNER/REPO syntax (`..` and `a/b\n` fail it) and its login syntax.
from tidings.common.names import LOGIN, OWNER_PATTERN, REPO_NAME
from tidings.common.risk_tags import RISK_TAGS
from tidings.errors import ConfigError, hide_password

DEFAULT_CONFIG = "tidings.toml"
# The languages reports and the site are written in; `words/` holds each one's catalogue.
# A team as ORG/TEAM-SLUG: the organisation follows the login rule, the slug GitHub's.
TEAM = re.compile(rf"^{OWNER_PATTERN}/[A-Za-z0-9_.-]{{1,100}}\Z")


class _Strict(BaseModel):
    # No NaN or infinity anywhere: TOML allows `nan` and `inf`, and no setting means either
    # (a NaN weight or timeout would silently poison every comparison made with it).
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


def _check_globs(value: list[str]) -> list[str]:
    for pattern in value:
        try:
            compile_glob(pattern)
        except GlobError as exc:
            raise ValueError(str(exc)) from exc
    return value


def _check_logins(value: list[str]) -> list[str]:
    for login in value:
        if LOGIN.fullmatch(login) is None or login.endswith("]"):
            raise ValueError(f"{login!r} is not a GitHub login (letters, digits, hyphens; no @)")
    return value


def _check_teams(value: list[str]) -> list[str]:
    for team in value:
        if not TEAM.match(team):
            raise ValueError(f"team must be ORG/TEAM-SLUG, got {team!r}")
    return value


def _merged(first: list[str], then: list[str]) -> list[str]:
    """`first` then the entries of `then` it lacks, compared without case (as GitHub)."""
    seen = {x.lower() for x in first}
    return first + [x for x in then if x.lower() not in seen]


class TopicConfig(_Strict):
    """A topic track such as AMD/ROCm: an item belongs to it if any matcher hits."""

    title: str
    labels: list[str] = Field(default_factory=list)
    title_tags: list[str] = Field(default_factory=list)  # "ROCm" matches "[ROCm]" in titles
    keywords: list[str] = Field(default_factory=list)  # whole-word, case-insensitive
    paths: list[str] = Field(default_factory=list)

    _globs = field_validator("paths")(_check_globs)


class ImportanceConfig(_Strict):
    """Weights of the key-change score of a merged PR (see facts/importance.py)."""

    size: float = 1.0  # points per doubling of changed lines
    core_path: float = 3.0  # once, when any file matches `core_paths`
    discussion: float = 1.0  # points per doubling of comments + reviews
    linked_issue: float = 1.0  # per issue the PR closes, at most 3
    revert: float = 6.0  # a revert: something merged did not hold, which readers need first
    labels: dict[str, float] = Field(default_factory=dict)  # e.g. {"breaking" = 3}
    top: int = Field(default=5, ge=0, le=50)  # how many key changes a daily report lists


# fmt: off
_CODE_EXTENSIONS = (
    ".py", ".pyx", ".c", ".cc", ".cpp", ".cu", ".cuh", ".h", ".hpp", ".rs", ".go", ".java",
    ".js", ".ts", ".sh",
)
_DEPENDENCY_PATHS = (
    "requirements*.txt", "requirements/**", "**/requirements*.txt", "pyproject.toml", "setup.py",
    "setup.cfg", "CMakeLists.txt", "cmake/**", "**/*.cmake", "Dockerfile*",
    "**/Dockerfile*", "docker/**", "*.lock", "package.json", "Cargo.toml", "go.mod",
    "MANIFEST.in",
)
# Code that ships no product behaviour: examples, benchmarks, docs, CI and dev scripts. Its
# asserts guard nothing a user runs, an untested change there is no missing test, and a
# `test_*.py` there (a CI test selector) is not a test.
_SUPPORT_PATHS = (
    "examples/**", "**/examples/**", "benchmarks/**", "docs/**", ".github/**", "tools/**",
    "scripts/**",
)
# Lines a reviewer does not read as code: prose, translations, lock files and images.
_LARGE_IGNORE = (
    "docs/**", "**/*.md", "**/*.rst", "**/*.po", "**/*.pot", "**/*.lock", "*.lock", "**/*.svg",
)
# Paths whose changes deserve a security-minded second look: names, not contents.
_SECURITY_PATHS = (
    "**/*auth*", "**/*secur*", "**/*secret*", "**/*credential*", "**/*crypt*",
    "**/*permission*", "**/*sandbox*", "**/*ssl*",
)
# fmt: on


class RiskConfig(_Strict):
    """Thresholds and paths of the PR risk rules (see facts/risk.py and docs/report.md)."""

    large_lines: int = Field(default=1000, ge=1)  # added + deleted lines
    large_files: int = Field(default=30, ge=1)
    # Code lines (added + deleted, outside tests) a PR may change without touching a test.
    missing_tests_min_lines: int = Field(default=20, ge=1)
    # Net test lines a PR must remove before "tests removed" fires (a deleted test file
    # always does).
    tests_removed_min_lines: int = Field(default=10, ge=1)
    code_extensions: list[str] = Field(default_factory=lambda: list(_CODE_EXTENSIONS))
    dependency_paths: list[str] = Field(default_factory=lambda: list(_DEPENDENCY_PATHS))
    security_paths: list[str] = Field(default_factory=lambda: list(_SECURITY_PATHS))
    support_paths: list[str] = Field(default_factory=lambda: list(_SUPPORT_PATHS))
    # Files `large_change` leaves out; test data (non-code files under test_paths) always is.
    large_ignore: list[str] = Field(default_factory=lambda: list(_LARGE_IGNORE))
    # Points per tag when ranking the week's risk observations; unset tags keep the defaults
    # of facts/risk.py.
    weights: dict[str, float] = Field(default_factory=dict)
    top: int = Field(default=5, ge=0, le=50)  # risk observations in a weekly report

    _globs = field_validator("dependency_paths", "security_paths", "support_paths", "large_ignore")(
        _check_globs
    )

    @field_validator("weights")
    @classmethod
    def _known_tags(cls, value: dict[str, float]) -> dict[str, float]:
        for tag in value:
            if tag not in RISK_TAGS:
                raise ValueError(f"unknown risk tag {tag!r} (known: {', '.join(RISK_TAGS)})")
        return value


class RepoConfig(_Strict):
    name: str
    display_name: str | None = None  # "vLLM"; default: the repository name
    timezone: str = "UTC"
    cutoff: str = "00:00"
    language: Lang = "en"
    topics: list[TopicConfig] = Field(default_factory=list)
    core_paths: list[str] = Field(default_factory=list)
    test_paths: list[str] = Field(
        # Test folders at any depth (a kernel's csrc/op/tests/) as well as at the root.
        default_factory=lambda: [
            "tests/**",
            "test/**",
            "**/tests/**",
            "**/test/**",
            "**/test_*.py",
            "**/*_test.py",
        ]
    )
    bots: list[str] = Field(default_factory=list)
    # Generated or vendored files beyond facts/generated.py's defaults (translations, lock
    # files, vendor/): kept out of hot files, themes and importance, never out of the counts.
    generated_paths: list[str] = Field(default_factory=list)
    # Maintainers beyond what GitHub's author_association shows (facts/roles.py): logins, and
    # teams ("org/team-slug") whose members the sync lists. The top-level lists apply too.
    maintainers: list[str] = Field(default_factory=list)
    maintainer_teams: list[str] = Field(default_factory=list)
    importance: ImportanceConfig = Field(default_factory=ImportanceConfig)
    risk: RiskConfig = Field(default_factory=RiskConfig)
    # A local clone: `tidings run` fetches its remote's default branch and reads the merged
    # PRs' diffs from it before the GitHub sync, which then lists no files for those PRs.
    clone: str | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        if not REPO_NAME.match(value):
            raise ValueError(f"repository must be OWNER/NAME, got {value!r}")
        return value

    @field_validator("timezone")
    @classmethod
    def _tz(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown timezone {value!r} (use an IANA name)") from exc
        return value

    @field_validator("cutoff")
    @classmethod
    def _cutoff(cls, value: str) -> str:
        if not re.fullmatch(r"\d{2}:\d{2}", value):
            raise ValueError(f"cut-off must be HH:MM, got {value!r}")
        try:
            time.fromisoformat(value)
        except ValueError as exc:
            raise ValueError(f"cut-off must be HH:MM, got {value!r}") from exc
        return value

    _globs = field_validator("core_paths", "test_paths", "generated_paths")(_check_globs)
    _logins = field_validator("maintainers")(_check_logins)
    _teams = field_validator("maintainer_teams")(_check_teams)

    @property
    def project(self) -> str:
        return self.display_name or self.name.split("/", 1)[1]

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def cutoff_time(self) -> time:
        return time.fromisoformat(self.cutoff)


class GitHubConfig(_Strict):
    api_url: str = "https://api.github.com"
    graphql_url: str | None = None  # default: derived from api_url
    token_env: str = "GITHUB_TOKEN"
    # More tokens (environment variable names) to spread repositories over: other accounts'
    # tokens, or a GitHub App installation token. Each one's rate limit is its own.
    token_envs: list[str] = Field(default_factory=list)
    # Requests on the wire at once, all repositories and tokens together (GitHub's secondary
    # limits punish concurrent bursts): sources/github/budget.py.
    max_in_flight: int = Field(default=4, ge=1, le=100)
    timeout: float = Field(default=30.0, gt=0)  # seconds per request
    max_wait: float = Field(default=900.0, ge=0)  # longest rate-limit sleep before giving up
    # A retry waits longer each time: past 20 a request would wait for days.
    max_retries: int = Field(default=6, ge=0, le=20)
    # Changed lines (REST `/pulls/N/files` patches) are fetched for PRs merged in the last this
    # many days (and not before `--since`), one request per PR of up to 100 files; 0: none.
    patch_days: int = Field(default=30, ge=0)

    @property
    def graphql(self) -> str:
        if self.graphql_url:
            return self.graphql_url
        base = self.api_url.rstrip("/")
        # GitHub Enterprise: https://HOST/api/v3 -> https://HOST/api/graphql
        if base.endswith("/api/v3"):
            return base[: -len("/v3")] + "/graphql"
        return base + "/graphql"


class RunConfig(_Strict):
    """`[run]`: how `tidings run` works through many repositories (docs/scale.md)."""

    # Repositories worked on at once (their GitHub requests share [github] max_in_flight and
    # their model calls [llm] max_concurrency).
    concurrency: int = Field(default=4, ge=1, le=64)
    # A repository's first sync reads this many days back, extended to the start of that
    # ISO week, not its whole history (`tidings run --full-history` reads it all).
    first_sync_days: int = Field(default=14, ge=1, le=3660)


_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(s|m|h|d)")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _seconds(value: object) -> object:
    """A duration as seconds: a number of seconds, or a string such as "30s", "5m", "1h"."""
    if isinstance(value, bool):  # TOML's `true` is no duration, though pydantic reads it as 1
        raise ValueError(f'must be a duration such as "30s", "5m" or "1h", got {value!r}')
    if isinstance(value, str):
        match = _DURATION.fullmatch(value.strip())
        if match is None:
            raise ValueError(f'must be a duration such as "30s", "5m" or "1h", got {value!r}')
        return float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
    return value  # a number (or a wrong type, which pydantic names)


class QueueConfig(_Strict):
    """`[queue]`: how `tidings worker` treats a repository's job that failed (docs/scale.md)."""

    # Further tries of a job that failed in a way that may pass (GitHub 5xx or unreachable, a
    # rate limit, a killed worker); a bad token or an unknown repository is not tried again.
    retries: int = Field(default=3, ge=0, le=10)
    # The wait before the first retry, doubled before each next one, never above the cap.
    retry_wait: float = Field(default=300.0, ge=0, le=86400)
    retry_max_wait: float = Field(default=3600.0, ge=0, le=86400)

    _durations = field_validator("retry_wait", "retry_max_wait", mode="before")(_seconds)

    @model_validator(mode="after")
    def _cap_above_wait(self) -> QueueConfig:
        if self.retry_max_wait < self.retry_wait:
            raise ValueError("retry_max_wait must be at least retry_wait")
        return self

    def wait_before(self, attempt: int) -> float:
        """Seconds to wait before retry number `attempt` + 1 (0: the first retry)."""
        return min(self.retry_max_wait, self.retry_wait * 2 ** min(attempt, 32))


class LLMConfig(_Strict):
    """Read now, used by the LLM analysis layer."""

    base_url: str | None = None
    model: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = Field(default=0.2, ge=0)
    timeout: float = Field(default=60.0, gt=0)
    max_concurrency: int = Field(default=4, ge=1, le=64)
    token_budget: int = Field(default=400_000, ge=0)
    structured_output: Literal["auto", "json_schema", "json_object", "none"] = "auto"
    # Seconds a run may spend waiting before retries (rate limits, 5xx), all calls together;
    # an endpoint asking for longer is not waited for: the rules write the prose.
    max_wait: float = Field(default=60.0, ge=0, allow_inf_nan=False)


def _https_url(value: str | None) -> str | None:
    if value is not None and not re.fullmatch(r"https?://[^\s\"'<>`\\]+", value):
        raise ValueError(f"must be an http(s) URL, got {hide_password(value)!r}")
    return value


def _owner_name(value: str) -> str:
    if not REPO_NAME.match(value):
        raise ValueError(f"repository must be OWNER/NAME, got {value!r}")
    return value


class GiscusConfig(_Strict):
    """giscus (https://giscus.app) settings: comments from a GitHub Discussions category."""

    repo: str
    repo_id: str
    category: str
    category_id: str
    mapping: Literal["pathname", "url", "title", "og:title"] = "pathname"

    _repo = field_validator("repo")(_owner_name)


class SiteConfig(_Strict):
    """`[site]`: the static site `tidings site build` and `tidings run` write."""

    title: str = "tidings reports"
    base_url: str | None = None  # where the site is published; feeds and canonical links use it
    language: Lang = "en"  # of the home and project pages
    # A GitHub Discussions category URL, or a `[site.discussion]` table of giscus settings.
    discussion: str | GiscusConfig | None = None
    pdf: bool = True
    reports_dir: str = "reports"  # `tidings run` writes report files here ...
    out_dir: str = "site"  # ... and builds the site here
    languages: list[Lang] = Field(default_factory=list)  # empty: each repo's own
    search: bool = True  # a Pagefind search index and page (when Pagefind is installed)

    _urls = field_validator("base_url")(_https_url)

    @field_validator("discussion")
    @classmethod
    def _discussion(cls, value: str | GiscusConfig | None) -> str | GiscusConfig | None:
        if isinstance(value, str):
            _https_url(value)
        return value


# `${NAME}` in a notification URL: the value of environment variable NAME, read when sending.
ENV_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
ReportKind = Literal["daily", "weekly"]


def _weekly_only() -> list[ReportKind]:
    return ["weekly"]


class DiscussionConfig(_Strict):
    """`[notify.discussion]`: publish reports as GitHub Discussions in `repo`'s `category`
    (its name or slug; the token needs write access to the repository's discussions)."""

    repo: str
    category: str
    kinds: list[ReportKind] = Field(default_factory=_weekly_only)

    _repo = field_validator("repo")(_owner_name)


class NotifyConfig(_Strict):
    """`[notify]`: where `tidings run` and `tidings notify` send each new report's headline and
    link (tidings/jobs/delivery.py). Each URL is an Apprise URL (slack://, discord://, msteams://,
    feishu://, lark://, dingtalk://, wecombot://, mailto://, json://, ...), and `${NAME}` in it
    is read from the environment when sending, so secrets need not be in the file."""

    urls: list[str] = Field(default_factory=list)
    kinds: list[ReportKind] = Field(default_factory=lambda: list(get_args(ReportKind)))
    languages: list[Lang] = Field(default_factory=list)  # empty: each repository's language
    timeout: float = Field(default=15.0, gt=0, le=300)  # seconds per service
    discussion: DiscussionConfig | None = None

    @field_validator("urls")
    @classmethod
    def _urls(cls, value: list[str]) -> list[str]:
        for url in value:
            # Only the shape is checked here: the schemes are Apprise's, and a URL made of
            # `${NAME}` alone is whole only once the environment is read.
            bare = ENV_REFERENCE.sub("x", url)
            if not re.match(r"^(x|[A-Za-z][A-Za-z0-9+.-]*://\S*)$", bare):
                raise ValueError(
                    "a notification URL is SCHEME://... (an Apprise URL) or ${ENV_VAR}, got "
                    f"{hide_password(url)!r}"
                )
        return value


class Config(_Strict):
    # Maintainers of every repository (each repo's own lists add to these).
    maintainers: list[str] = Field(default_factory=list)
    maintainer_teams: list[str] = Field(default_factory=list)
    repos: list[RepoConfig] = Field(default_factory=list)
    github: GitHubConfig = Field(default_factory=GitHubConfig)
    llm: LLMConfig = Field(default_factory=LLMConfig)
    run: RunConfig = Field(default_factory=RunConfig)
    queue: QueueConfig = Field(default_factory=QueueConfig)
    site: SiteConfig = Field(default_factory=SiteConfig)
    notify: NotifyConfig = Field(default_factory=NotifyConfig)
    path: Path | None = Field(default=None, exclude=True)

    _logins = field_validator("maintainers")(_check_logins)
    _teams = field_validator("maintainer_teams")(_check_teams)

    @model_validator(mode="after")
    def _global_maintainers(self) -> Config:
        """Fold the top-level lists into each repository's, so a RepoConfig is complete."""
        for repo in self.repos:
            repo.maintainers = _merged(repo.maintainers, self.maintainers)
            repo.maintainer_teams = _merged(repo.maintainer_teams, self.maintainer_teams)
        return self

    def repo(self, full_name: str) -> RepoConfig:
        """Settings for a repository; one not in the file gets the defaults (and the top-level
        maintainers)."""
        for repo in self.repos:
            if repo.name.lower() == full_name.lower():
                return repo
        return RepoConfig(
            name=full_name,
            maintainers=list(self.maintainers),
            maintainer_teams=list(self.maintainer_teams),
        )


def _location(loc: tuple[str | int, ...], data: dict[str, Any]) -> str:
    """`repos[acme/widgets].timezone`: pydantic's error location, with a [[repos]] entry named
    by its `name` when that is a usable name, else by its index (`repos[0]`)."""
    parts: list[str] = []
    node: object = data
    for key in loc:
        if isinstance(key, int):
            entry = node[key] if isinstance(node, list) and 0 <= key < len(node) else None
            name = entry.get("name") if isinstance(entry, dict) else None
            # Only a real repository name stands in for the index: `name = 5` is the very
            # value being reported, and would read as an index.
            label = name if isinstance(name, str) and REPO_NAME.match(name) else key
            parts.append(f"[{label}]")
        else:
            parts.append(("." if parts else "") + str(key))
        try:
            node = node[key]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            node = None
    return "".join(parts)


def _no_duplicates(config: Config, source: str) -> None:
    # Config.repo() takes the first entry of a name, so a second one would be silently
    # ignored; GitHub names are case-insensitive, and so is this check.
    seen: dict[str, int] = {}
    for index, repo in enumerate(config.repos):
        first = seen.setdefault(repo.name.lower(), index)
        if first != index:
            raise ConfigError(
                f"{source}: repository {repo.name} is listed twice "
                f"(repos[{first}] and repos[{index}])",
                "merge the two [[repos]] entries into one",
            )


def parse_config(text: str, source: str = DEFAULT_CONFIG) -> Config:
    text = text.removeprefix("\ufeff")  # a byte-order mark is not part of the TOML
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{source}: not valid TOML ({exc})", "fix the syntax at that line"
        ) from exc
    except RecursionError as exc:  # tomllib recurses once per level of nesting
        raise ConfigError(
            f"{source}: arrays or tables are nested too deeply to read",
            "a tidings config needs only a few levels: see docs/configuration.md",
        ) from exc
    try:
        config = Config.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = _location(tuple(err["loc"]), data)
        if err["type"] == "extra_forbidden":
            cause = f"{source}: unknown key {where!r}"
            fix = "remove it or check its spelling (see docs/configuration.md)"
        else:
            msg = str(err["msg"]).removeprefix("Value error, ")
            cause = f"{source}: {where}: {msg}"
            fix = "correct this value (see docs/configuration.md)"
        raise ConfigError(cause, fix) from exc
    _no_duplicates(config, source)
    return config


CONFIG_ENV = "TIDINGS_CONFIG"


def find_config(start: Path | None = None) -> Path | None:
    """The config file to use when none is named: $TIDINGS_CONFIG, else tidings.toml in the
    working folder or the nearest parent folder that has one (as git finds its repository),
    else None."""
    if named := os.environ.get(CONFIG_ENV):
        return Path(named)
    folder = (start or Path.cwd()).absolute()
    for candidate in (folder, *folder.parents):
        file = candidate / DEFAULT_CONFIG
        if file.is_file():
            return file
    return None


def _relative_to(config: Config, folder: Path) -> None:
    """Folders named in the file are relative to the file, not to wherever the command runs."""
    site = config.site
    site.reports_dir = str(folder / Path(site.reports_dir).expanduser())
    site.out_dir = str(folder / Path(site.out_dir).expanduser())


# A config is a few kilobytes; `--config /dev/zero` once read until memory ran out.
MAX_CONFIG_BYTES = 1 << 20


def _read_config(file: Path) -> str:
    """The file's text (UTF-8, minus any byte-order mark): a regular file of at most
    MAX_CONFIG_BYTES, never a device or a pipe read without end."""
    if not file.is_file():
        raise ConfigError(f"config file {file} is not a regular file", "pass a tidings.toml file")
    with file.open("rb") as handle:
        data = handle.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(
            f"config file {file} is larger than {MAX_CONFIG_BYTES:,} bytes",
            "a tidings.toml is a few kilobytes: check that --config names the right file",
        )
    return data.decode("utf-8-sig")


def load_config(path: str | os.PathLike[str] | None) -> Config:
    """The config at `path`, else the one `find_config` finds, else the defaults. Relative
    folders in a file are made relative to the file's own folder."""
    explicit = path is not None
    file = Path(path) if path is not None else find_config()
    if file is None:
        return Config()
    if not file.exists():
        if explicit:
            raise ConfigError(f"config file {file} not found", "pass an existing --config FILE")
        raise ConfigError(
            f"config file {file} ({CONFIG_ENV}) not found",
            f"point {CONFIG_ENV} at an existing file or unset it",
        )
    try:
        text = _read_config(file)
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"cannot read {file}: {exc}", "check the file's permissions and encoding"
        ) from exc
    config = parse_config(text, str(file))
    config.path = file
    _relative_to(config, file.absolute().parent)
    return config
