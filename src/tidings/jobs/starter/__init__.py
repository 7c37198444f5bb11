"""`tidings init`: a commented tidings.toml for the repositories given and, on request, the
GitHub Actions workflow that runs them every day (github-actions.yml beside this file).

Both are written whole or not at all, and never over an existing file unless asked. The
config is read back with the real parser before anything is written, so `init` cannot leave a
file that `tidings run` then refuses.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from importlib import metadata, resources
from pathlib import Path
from urllib.parse import unquote, urlsplit
from zoneinfo import ZoneInfo

from tidings._version import __version__
from tidings.common.config import DEFAULT_CONFIG, Lang, parse_config
from tidings.errors import InvocationError, TidingsError

WORKFLOW_PATH = Path(".github/workflows/tidings.yml")
# A first sync reads this many days, so a cold Actions cache costs days of history, not
# years of it on the workflow token's 1,000 requests an hour; enough for a week of daily
# reports, the weekly one and the seven windows each daily report compares itself with.
LOOKBACK_DAYS = 30


@dataclass(frozen=True)
class Starter:
    """What `init` writes: file paths (relative to the folder) and their text."""

    files: dict[Path, str]


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def config_text(repos: list[str], timezone: str, cutoff: str, language: Lang) -> str:
    """A tidings.toml for `repos`, every setting commented (docs/configuration.md has all)."""
    first = repos[0]
    name = first.split("/", 1)[1]
    parts = [
        f"# tidings.toml, written by `tidings init` (tidings {__version__}). Every key is",
        "# optional; docs/configuration.md lists them all. Folders named here are relative to",
        "# this file.",
        "",
    ]
    for index, repo in enumerate(repos):
        parts += [
            "[[repos]]",
            f"name = {_toml_string(repo)}",
            f'# display_name = "{repo.split("/", 1)[1]}"   # the name reports use (default: the '
            "repository's)",
            f"timezone = {_toml_string(timezone)}   # IANA name: windows are cut in this zone",
            f'cutoff = "{cutoff}"   # a day\'s window closes at this local time (HH:MM)',
            f'language = "{language}"   # zh or en: the reports\' language',
            '# core_paths = ["src/core/**"]   # changes here rank higher among key changes',
            '# bots = ["release-helper"]   # bots besides [bot]/App accounts and automation names',
            '# maintainers = ["login"]   # maintainers whatever GitHub\'s association says',
            "",
        ]
        if index == 0:
            parts += [
                "# A topic track: its own report section; any matcher puts an item in it.",
                "# [[repos.topics]]",
                '# title = "AMD/ROCm"',
                '# labels = ["rocm"]',
                '# title_tags = ["ROCm", "AMD"]   # matches "[ROCm]" in titles',
                '# keywords = ["MI300", "gfx942"]   # whole words in titles and descriptions',
                '# paths = ["csrc/rocm/**"]',
                "",
            ]
    parts += [
        "[site]",
        f"title = {_toml_string(name + ' reports')}",
        '# base_url = "https://OWNER.github.io/REPO/"   # where the site is published: feeds and',
        "#                                               # notification links need it",
        "pdf = true   # PDF downloads: need Pango and fonts (README: Install); false skips",
        'reports_dir = "reports"   # report Markdown and JSON (`tidings run` writes them here)',
        'out_dir = "site"   # the static site',
        "",
        "# [llm]   # optional: any OpenAI-compatible model writes the prose (docs/llm.md)",
        '# base_url = "https://api.openai.com/v1"',
        '# model = "gpt-4o-mini"',
        '# api_key_env = "OPENAI_API_KEY"   # the key is read from this variable, never from here',
        "",
        "[notify]",
        "# Each new report's title, headline and link, through Apprise URLs. ${NAME} is read",
        "# from the environment when sending, so secrets stay out of this file. For example:",
        "#   slack://TOKEN_A/TOKEN_B/TOKEN_C   discord://WEBHOOK_ID/WEBHOOK_TOKEN",
        "#   msteams://TEAM/TOKEN_A/TOKEN_B/TOKEN_C   feishu://TOKEN   dingtalk://TOKEN",
        "#   wecombot://KEY   mailtos://USER:PASSWORD@HOST?to=you@example.com",
        "#   json://HOST/PATH (a generic JSON webhook)",
        '# urls = ["${TIDINGS_NOTIFY_URL}"]',
        'kinds = ["daily", "weekly"]',
        "",
        "# The weekly report as a GitHub Discussion too (the workflow's token needs",
        "# `discussions: write`; the category must exist):",
        "# [notify.discussion]",
        f"# repo = {_toml_string(first)}",
        '# category = "Reports"',
        "",
    ]
    return "\n".join(parts)


def cron_for(timezone: str, cutoff: str, now: datetime | None = None) -> tuple[str, str]:
    """A daily cron line (UTC) half an hour after the cut-off, and why that time."""
    moment = now or datetime.now(UTC)
    tz = ZoneInfo(timezone)
    local_day = moment.astimezone(tz).date()
    local = datetime.combine(local_day, time.fromisoformat(cutoff), tzinfo=tz)
    run_at = (local + timedelta(minutes=30)).astimezone(UTC)
    why = f"half an hour after the {cutoff} {timezone} cut-off (cron is in UTC)"
    return f"{run_at.minute} {run_at.hour} * * *", why


def install_source() -> str:
    """The pip requirement that installs this tidings on a fresh machine: the version from
    an index, or the VCS URL and commit it was installed from, or — for a local checkout —
    its git remote at the checked-out commit. A TidingsError when there is none (a folder
    with no remote): a workflow must not install something else that happens to share the
    name."""
    try:
        dist = metadata.distribution("tidings")
    except metadata.PackageNotFoundError:
        dist = None
    direct = dist.read_text("direct_url.json") if dist is not None else None
    if dist is not None and not direct:
        return f"tidings=={dist.version}"  # from a package index
    info = json.loads(direct) if direct else {}
    vcs = info.get("vcs_info")
    if vcs and info.get("url", "").startswith("https://"):
        return f"tidings @ git+{info['url']}@{vcs['commit_id']}"
    url = str(info.get("url") or "")
    folder = Path(unquote(urlsplit(url).path)) if url.startswith("file://") else None
    if folder is None or not folder.is_dir():
        folder = Path(__file__).resolve().parents[3]  # the checkout holding src/tidings
    remote = _git(folder, "remote", "get-url", "origin")
    commit = _git(folder, "rev-parse", "HEAD")
    if remote and commit and remote.startswith("https://"):
        return f"tidings @ git+{remote}@{commit}"
    if remote and commit and remote.startswith("git@github.com:"):
        url = "https://github.com/" + remote.removeprefix("git@github.com:")
        return f"tidings @ git+{url}@{commit}"
    raise TidingsError(
        "cannot tell where a workflow could install this tidings from (it was installed from "
        "a local folder with no https git remote)",
        "pass --install-from with a pip requirement that exists, e.g. "
        '"tidings @ git+https://github.com/OWNER/tidings@v' + __version__ + '"',
    )


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def workflow_text(install: str, timezone: str, cutoff: str, run_args: str) -> str:
    """The GitHub Actions workflow, with the install requirement and schedule filled in."""
    if any(c in install for c in "\"'`$\\\n"):
        raise InvocationError(
            f"--install-from {install!r} has quotes, $ or backslashes, which a workflow's "
            "shell line would reinterpret",
            'give a plain pip requirement, e.g. "tidings @ git+https://github.com/OWNER/tidings@TAG"',
        )
    template = resources.files(__package__).joinpath("github-actions.yml").read_text("utf-8")
    cron, why = cron_for(timezone, cutoff)
    fills = {
        "@VERSION@": __version__,
        "@INSTALL@": install,
        "@CRON@": cron,
        "@CRON_WHY@": why,
        "@RUN_ARGS@": run_args,
    }
    for marker, value in fills.items():
        template = template.replace(marker, value)
    return template


def starter(
    repos: list[str],
    *,
    timezone: str = "UTC",
    cutoff: str = "00:00",
    language: Lang = "en",
    github_actions: bool = False,
    install: str | None = None,
) -> Starter:
    """The files `tidings init` writes, checked: the config parses and the values are valid."""
    from pydantic import ValidationError

    from tidings.common.config import RepoConfig

    for repo in repos:
        try:
            RepoConfig(name=repo, timezone=timezone, cutoff=cutoff, language=language)
        except ValidationError as exc:
            err = exc.errors()[0]
            key = str(err["loc"][0])
            option = {"name": "OWNER/REPO", "language": "--lang"}.get(key, f"--{key}")
            raise InvocationError(
                f"{option}: {str(err['msg']).removeprefix('Value error, ')}",
                "e.g. tidings init vllm-project/vllm --timezone Asia/Shanghai --cutoff 09:00",
            ) from exc
    text = config_text(repos, timezone, cutoff, language)
    parse_config(text, DEFAULT_CONFIG)  # what `run` will read: it must read
    files = {Path(DEFAULT_CONFIG): text}
    if github_actions:
        run_args = f"--lookback {LOOKBACK_DAYS}"
        files[WORKFLOW_PATH] = workflow_text(
            install or install_source(), timezone, cutoff, run_args
        )
    return Starter(files)


def write_starter(folder: Path, files: Starter, *, force: bool = False) -> list[Path]:
    """Write the files under `folder`; none when any exists already (unless `force`)."""
    from tidings.common.outputs import write_atomic

    targets = {folder / rel: text for rel, text in files.files.items()}
    existing = [p for p in targets if p.exists()]
    if existing and not force:
        raise TidingsError(
            f"{', '.join(str(p) for p in existing)} already exists",
            "edit it, or pass --force to replace it",
        )
    for path, text in targets.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, text, fix="run it in a folder you can write to")
    return list(targets)
