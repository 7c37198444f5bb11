"""Delivery: each new report's headline and link, sent to chat and mail through Apprise.

Apprise (https://github.com/caronc/apprise) speaks Slack, Discord, Microsoft Teams,
Feishu/Lark, DingTalk, WeCom, email, generic JSON/form webhooks and about a hundred more, each
as one URL; tidings only says what to send. A URL may hold `${NAME}`, read from the
environment when sending, so a webhook's secret lives in a CI secret, not in tidings.toml.

Sending never raises: every target's outcome is a `Delivery`, and a failure is one line that
names the target by its place in `[notify] urls` and its scheme, never by its address (which
is the secret for most webhooks). The caller decides what a failure means: `tidings run`
warns and its reports stand; `tidings notify` exits 1.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from tidings.common.config import ENV_REFERENCE, DiscussionConfig, GitHubConfig, Lang, NotifyConfig
from tidings.errors import redact, register_secret

if TYPE_CHECKING:
    from tidings.report.kinds import Report


@dataclass(frozen=True)
class Message:
    """What one report says in a chat: its title, its headline line and its link."""

    repo: str
    kind: str
    period: str  # YYYY-MM-DD or YYYY-Www
    lang: str
    title: str
    headline: str
    link: str | None  # the report's page on the site; None without [site] base_url

    @property
    def body(self) -> str:
        return "\n\n".join(part for part in (self.headline, self.link) if part)

    def to_dict(self) -> dict[str, str | None]:
        return {
            "repo": self.repo,
            "kind": self.kind,
            "period": self.period,
            "lang": self.lang,
            "title": self.title,
            "headline": self.headline,
            "link": self.link,
        }


@dataclass(frozen=True)
class Delivery:
    """One message to one target: sent, or why not."""

    target: str  # "urls[0] (slack)": never the URL itself
    report: str  # OWNER/REPO KIND PERIOD LANG
    ok: bool
    error: str | None = None

    def line(self) -> str:
        return f"notify {self.target}: {self.report}: {self.error or 'sent'}"


_MARKDOWN_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~<>])")


def _plain(markdown_line: str) -> str:
    """A line of our Markdown as plain text: no heading marks, bold or escapes. The zero-width
    spaces the renderer puts into others' `@mentions` and `#refs` stay, so a chat does not
    ping anyone either."""
    text = markdown_line.lstrip("#").strip().replace("**", "")
    return _MARKDOWN_ESCAPE.sub(r"\1", text)


# Chat services read markup in plain text: Feishu and Teams `<at user_id="all">`, Slack
# `<!channel>` and `<@U123>`, Discord and others `@everyone`/`@here`/`@all`. A label, topic or
# title is anyone's text: angle brackets become their fullwidth twins and a broadcast mention
# gets a zero-width space after its `@`, so it reads the same and pings nobody on any service.
_BRACKETS = str.maketrans({"<": "＜", ">": "＞"})
_BROADCAST = re.compile(r"@(?=(?:everyone|here|channel|all|所有人)\b)", re.IGNORECASE)


def chat_safe(text: str) -> str:
    """`text` as a chat message may carry it: no markup or mention a service would act on."""
    return _BROADCAST.sub("@\u200b", text.translate(_BRACKETS))


def page_url(base_url: str | None, report: Report) -> str | None:
    """The report's page on the published site: OWNER/REPO/KIND/PERIOD.LANG.html under
    base_url (the site's layout, docs/site.md)."""
    if not base_url:
        return None
    from tidings.render.files import report_name

    return f"{base_url.rstrip('/')}/{report.repo}/{report_name(report)}.html"


def message(report: Report, base_url: str | None = None) -> Message:
    """The report's title (its Markdown heading), its headline — a daily report's stats line,
    a weekly report's summary paragraph — and its link."""
    from tidings.render.files import render_report, report_name

    lines = [line for line in render_report(report, "md").splitlines() if line.strip()]
    title = chat_safe(_plain(lines[0]))
    if report.kind == "daily":
        # The stats line: the one bold-labelled line with the counts ("**Stats**: New ...").
        headline = next((_plain(x) for x in lines[1:4] if "|" in x), "")
    else:
        headline = _plain(lines[1]) if len(lines) > 1 else ""
    headline = chat_safe(headline)
    period = report_name(report).split("/", 1)[1].rsplit(".", 1)[0]
    return Message(
        report.repo,
        report.kind,
        period,
        report.lang,
        title,
        headline,
        page_url(base_url, report),
    )


def read_message(path: Path, base_url: str | None = None) -> Message:
    """The message of a report JSON file (as `tidings run` writes them)."""
    from tidings.errors import TidingsError
    from tidings.report.kinds import load_report

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TidingsError(
            f"cannot read {path}: {exc.strerror}", "pass a report JSON file"
        ) from exc
    report = load_report(raw, path)
    if report is None:
        raise TidingsError(
            f"{path} is not a tidings report", "pass a report's .json file (reports/OWNER/REPO/…)"
        )
    return message(report, base_url)


class _Missing(Exception):
    """A `${NAME}` in a URL whose variable is unset or empty."""


def expand(url: str, environ: dict[str, str] | None = None) -> str:
    """`url` with each `${NAME}` replaced by the environment variable's value; the values and
    the whole URL are registered for redaction (a webhook URL is its own secret)."""
    env = os.environ if environ is None else environ

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        found = env.get(name, "")
        if not found:
            raise _Missing(name)
        register_secret(found)
        return found

    full = ENV_REFERENCE.sub(value, url)
    register_secret(full)
    return full


def _scheme(url: str) -> str:
    head, sep, _ = url.partition("://")
    return head.lower() if sep and re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", head) else "?"


def _last_problem(log: str) -> str:
    """Apprise's last warning or error line, without its level prefix."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    for line in reversed(lines):
        level, sep, text = line.partition(" - ")
        if sep and level in {"WARNING", "ERROR", "CRITICAL"}:
            return text
    return "the service did not accept it"


def send(
    messages: Sequence[Message],
    settings: NotifyConfig,
    urls: Iterable[str] | None = None,
) -> list[Delivery]:
    """Send each message to each URL (default: `settings.urls`); one Delivery per pair."""
    targets = list(settings.urls if urls is None else urls)
    if not messages or not targets:
        return []
    import apprise

    # No plugin folders or disk storage: what tidings sends is decided here, not by files
    # that happen to be in the home folder.
    asset = apprise.AppriseAsset(
        plugin_paths=[], storage_mode="memory", service_timeout=settings.timeout
    )
    deliveries: list[Delivery] = []
    for index, template in enumerate(targets):
        name = f"urls[{index}] ({_scheme(template)})"
        try:
            url = expand(template)
        except _Missing as missing:
            problem = f"${{{missing}}} is not set — export it or remove the URL"
            deliveries += [Delivery(name, _label(m), False, problem) for m in messages]
            continue
        service = apprise.Apprise(asset=asset)
        if not service.add(url):
            problem = "not a URL Apprise knows — see its list of services and URL formats"
            deliveries += [Delivery(name, _label(m), False, problem) for m in messages]
            continue
        for msg in messages:
            capture = apprise.LogCapture(  # type: ignore[no-untyped-call]
                level=logging.WARNING, fmt="%(levelname)s - %(message)s"
            )
            with capture as log:
                ok = bool(
                    service.notify(
                        title=msg.title,
                        body=msg.body,
                        body_format=apprise.NotifyFormat.TEXT,
                    )
                )
            failure = None if ok else redact(_last_problem(log.getvalue()))
            deliveries.append(Delivery(name, _label(msg), ok, failure))
    return deliveries


def _label(msg: Message) -> str:
    return f"{msg.repo} {msg.kind} {msg.period} {msg.lang}"


def due(
    reports: Sequence[tuple[str, Report]],
    settings: NotifyConfig,
    default_lang: Lang,
    kinds: Sequence[str] | None = None,
) -> list[Report]:
    """Which of a run's new reports to announce: the kinds (default: [notify] kinds) and
    languages [notify] asks for (default: the repository's own language), and of each kind
    and language only the newest, so a first run that writes a week of dailies sends one
    message, not seven."""
    langs = set(settings.languages or [default_lang])
    wanted = settings.kinds if kinds is None else kinds
    newest: dict[tuple[str, str], tuple[str, Report]] = {}
    for period, report in reports:
        if report.kind not in wanted or report.lang not in langs:
            continue
        key = (report.kind, report.lang)
        if key not in newest or period > newest[key][0]:
            newest[key] = (period, report)
    return [report for _, report in sorted(newest.values(), key=lambda x: (x[1].kind, x[0]))]


# -- GitHub Discussions ----------------------------------------------------------------------------

_DISCUSSION_TARGET = """
query($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    id
    discussionCategories(first: 100) { nodes { id name slug } }
    discussions(first: 50, orderBy: {field: CREATED_AT, direction: DESC}) {
      nodes { title url }
    }
  }
  rateLimit { remaining resetAt cost }
}
"""
_CREATE_DISCUSSION = """
mutation($input: CreateDiscussionInput!) {
  createDiscussion(input: $input) { discussion { number url } }
}
"""
# GitHub refuses a body over 65,536 characters; a week of a busy repository can pass that.
DISCUSSION_BODY_LIMIT = 60_000


def discussion_body(report: Report, link: str | None) -> str:
    """The report's Markdown (mentions already inert: no one is pinged), cut to fit a
    discussion with a pointer to the whole report."""
    from tidings.render.files import render_report

    text = render_report(report, "md")
    more = f"\n\n---\nThe whole report: {link}\n" if link else ""
    if len(text) + len(more) <= DISCUSSION_BODY_LIMIT:
        return text + more
    cut = text.rfind("\n", 0, DISCUSSION_BODY_LIMIT - len(more) - 200)
    return text[:cut] + "\n\n… (cut to fit a discussion)" + more


def publish_discussions(
    reports: Sequence[Report],
    target: DiscussionConfig,
    github: GitHubConfig,
    token: str,
    base_url: str | None = None,
) -> list[Delivery]:
    """Create a discussion in `target.repo`'s category for each report, unless one with its
    title is among the repository's 50 newest (a re-run publishes nothing twice)."""
    from tidings.errors import TidingsError
    from tidings.sources.github.client import GitHubClient

    name = f"discussion {target.repo} ({target.category})"
    if not reports:
        return []
    owner, repo_name = target.repo.split("/", 1)
    try:
        with GitHubClient(
            github.api_url,
            github.graphql,
            token,
            timeout=github.timeout,
            max_retries=min(github.max_retries, 2),
            max_wait=min(github.max_wait, 60.0),
        ) as client:
            data = client.graphql(
                _DISCUSSION_TARGET,
                {"owner": owner, "name": repo_name},
                what=f"the discussion categories of {target.repo}",
            )
            repo = data.get("repository") or {}
            wanted = target.category.lower()
            categories = (repo.get("discussionCategories") or {}).get("nodes") or []
            category = next(
                (c for c in categories if wanted in {c["name"].lower(), c["slug"].lower()}), None
            )
            if category is None:
                known = ", ".join(c["name"] for c in categories) or "none: enable Discussions"
                problem = f"no category {target.category!r} (there: {known})"
                return [Delivery(name, _report_label(r), False, problem) for r in reports]
            existing = {
                d["title"]: d["url"]
                for d in (repo.get("discussions") or {}).get("nodes") or []
                if d
            }
            deliveries = []
            for report in reports:
                msg = message(report, base_url)
                if msg.title in existing:
                    deliveries.append(Delivery(name, _label(msg), True, None))
                    continue
                answer = client.graphql(
                    _CREATE_DISCUSSION,
                    {
                        "input": {
                            "repositoryId": repo["id"],
                            "categoryId": category["id"],
                            "title": msg.title,
                            "body": discussion_body(report, msg.link),
                        }
                    },
                    what=f"createDiscussion in {target.repo}",
                )
                created = (answer.get("createDiscussion") or {}).get("discussion")
                ok = bool(created and created.get("url"))
                deliveries.append(
                    Delivery(name, _label(msg), ok, None if ok else "GitHub created nothing")
                )
            return deliveries
    except TidingsError as exc:
        return [Delivery(name, _report_label(r), False, exc.one_line()) for r in reports]


def _report_label(report: Report) -> str:
    from tidings.render.files import report_name

    period = report_name(report).split("/", 1)[1].rsplit(".", 1)[0]
    return f"{report.repo} {report.kind} {period} {report.lang}"
