"""What the Markdown and HTML renderers decide alike, decided once.

A report says the same things in every format: which evidence of a risk tag is shown and in
which words, how a trend row words its change, what a topic match or a score part is called,
a theme's or an appendix group's title, which headline counts git cannot know. Those decisions
live here, written against a `Writer`; each format supplies one (render/markdown_common.py,
render/html.py) that knows how to make text inert and code visible in that format.

The rule that keeps this safe: a value from the data reaches `Writer.say` only after
`Writer.text`, `Writer.code` or `Writer.fixed` has made it inert for the format. `say` fills
one of our own sentences (words/); the HTML writer escapes the sentence and anything not yet
made inert, the Markdown one trusts what it is given.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from tidings.common.config import Lang
from tidings.common.names import OWNER_PATTERN, profile_path
from tidings.report import model as m
from tidings.report import weekly_model as w
from tidings.report.provenance import local_time
from tidings.words.daily import t as daily_t
from tidings.words.weekly import tag_name, theme_name_zh

# Evidence entries shown per risk tag (the JSON keeps them all, up to five).
SHOWN_EVIDENCE = 2
# A change from a base this small is no percentage a reader should see ("+11653%" from 1
# line to 118): the two numbers the row already shows say it. Counts of PRs, lines of code.
SMALL_BASE_COUNT = 5
SMALL_BASE_LINES = 50
# Characters of a PR's summary shown under its theme (a longer one is cut with "…").
THEME_SUMMARY_LIMIT = 320
STAT_KEYS = ("new_issues", "closed_issues", "new_prs", "merged_prs", "closed_unmerged_prs")

_LEADING_TAGS = re.compile(r"^\s*(?:\[[^\[\]]{1,40}\]\s*:?\s*)+")


class Writer(ABC):
    """One format's way of writing a report's pieces, with one language's words (`table`)."""

    def __init__(self, table: Mapping[str, str]) -> None:
        self.table = table
        self.sep = table["list_sep"]

    def has(self, key: str) -> bool:
        return key in self.table

    @abstractmethod
    def text(self, value: str | None) -> str:
        """Untrusted text, inert; its `code spans` shown as code."""

    @abstractmethod
    def code(self, value: str) -> str:
        """Untrusted text as code (a path, a label, an added line)."""

    @abstractmethod
    def fixed(self, value: str) -> str:
        """A machine value (a version, a UTC window) as it is, inert."""

    @abstractmethod
    def say(self, key: str, **values: object) -> str:
        """One of our sentences with its values; str values must be inert already."""

    @abstractmethod
    def join(self, parts: Iterable[str], sep: str | None = None) -> str:
        """Inert parts joined by the language's list separator (or `sep`)."""

    def plain(self, value: str) -> str:
        """Our own words (a tag's name) as a piece `join` and `say` can take."""
        return self.text(value)


def bare_title(title: str) -> str:
    """A title without its leading `[Tag]`s, where the group and the kind beside it say them."""
    return _LEADING_TAGS.sub("", title).strip() or title


def stamp(moment: datetime | None, unknown: str) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ") if moment else unknown


# -- model-written prose: its `#N` and `@login` as links -------------------------------------


@dataclass(frozen=True)
class KnownRefs:
    """The items and people a report carries as facts (its ItemRefs, PR cards and people):
    the only `#N` and `@login` in its model-written prose that become links. The guard let
    the model cite them; this set is what the report itself can vouch for, so a hand-edited
    report JSON citing anything else renders it as inert text."""

    items: Mapping[int, Literal["issue", "pr"]]
    logins: Mapping[str, str]  # lower case -> as the report spells it (GitHub's are caseless)

    def cited_by_rules(self, refs: Iterable[int]) -> KnownRefs:
        """What rules-written prose may link: the numbers its writer placed (`Prose.refs`)
        that the report carries, and no people (a login in the rules' text is a quote's)."""
        return KnownRefs({n: self.items[n] for n in refs if n in self.items}, {})


def known_refs(report: m.DailyReport | w.WeeklyReport) -> KnownRefs:
    """Every item number and login the report's typed fields hold, whatever section holds
    them: a new section's ItemRefs count without a change here."""
    items: dict[int, Literal["issue", "pr"]] = {}
    issues: set[int] = set()
    logins: dict[str, str] = {}

    def person(login: str | None) -> None:
        if login is not None and profile_path(login) is not None:
            logins.setdefault(login.lower(), login)

    def walk(node: object) -> None:
        if isinstance(node, list | tuple):
            for x in node:
                walk(x)
            return
        if not isinstance(node, BaseModel) or isinstance(node, m.Prose):
            return
        if isinstance(node, m.ItemRef):
            items.setdefault(node.number, node.kind)
            if node.author_name is None:  # else `author` is no login (a git history's name)
                person(node.author)
            return
        if isinstance(node, m.Count | m.FirstTimer):
            person(None if node.git_name else node.login)  # a git name is no login
        elif isinstance(node, m.Viewpoint):
            person(node.login)
        elif isinstance(node, m.KeyChange):
            issues.update(node.linked_issues)
        for name in type(node).model_fields:
            walk(getattr(node, name))

    walk(report)
    for number in issues:
        items.setdefault(number, "issue")  # an ItemRef's kind, where there is one, wins
    return KnownRefs(items, logins)


@dataclass(frozen=True)
class CodePiece:
    text: str


@dataclass(frozen=True)
class ItemPiece:
    number: int
    kind: Literal["issue", "pr"]


@dataclass(frozen=True)
class PersonPiece:
    login: str  # as the report spells it


ProsePiece = str | CodePiece | ItemPiece | PersonPiece

_CODE_SPAN = re.compile(r"(`+)([^`]+?)\1")
# A `#N` or `@login` standing alone: not inside a word, an e-mail address, a URL path, an
# entity (`&#12;`), another repository's `owner/repo#12` or a team's `@org/team`. A token cut
# by a length limit ("#12…" of "#1234") is no citation of what it now reads as.
_CITE = re.compile(
    r"(?<![A-Za-z0-9_\-/@#&])"
    r"(?:#(?P<n>[1-9][0-9]*)(?![A-Za-z0-9_…])"
    rf"|@(?P<login>{OWNER_PATTERN}(?:\[bot\])?)(?![A-Za-z0-9_\-/\[…]))"
)


def prose_pieces(text: str, known: KnownRefs) -> Iterator[ProsePiece]:
    """Model-written text in pieces: plain text and code spans (both still untrusted, for the
    format to make inert), and the citations of items and people the report knows, for the
    format to link. Nothing else becomes a link; the link's target is never in the text."""
    pos = 0
    for match in _CODE_SPAN.finditer(text):
        yield from _cites(text[pos : match.start()], known)
        yield CodePiece(match.group(2))
        pos = match.end()
    yield from _cites(text[pos:], known)


def _cites(text: str, known: KnownRefs) -> Iterator[ProsePiece]:
    pos = 0
    for match in _CITE.finditer(text):
        piece: ProsePiece | None = None
        if match["n"] is not None:
            kind = known.items.get(int(match["n"]))
            piece = None if kind is None else ItemPiece(int(match["n"]), kind)
        else:
            login = known.logins.get(match["login"].lower())
            piece = None if login is None else PersonPiece(login)
        if piece is None:
            continue  # unknown: stays in the text around it, made inert with it
        if match.start() > pos:
            yield text[pos : match.start()]
        yield piece
        pos = match.end()
    if pos < len(text):
        yield text[pos:]


def item_path(number: int, kind: Literal["issue", "pr"]) -> str:
    """Where an item lives under its repository's URL."""
    return f"{'pull' if kind == 'pr' else 'issues'}/{number}"


# -- both reports ----------------------------------------------------------------------------


def reason(wr: Writer, text: str, *, file_name: bool = False) -> str:
    """Why an item matched a topic track ("label:rocm" -> "label `rocm`"). `file_name`: a path
    match shows the file's name only (the weekly's track already says where)."""
    kind, _, value = text.partition(":")
    if not wr.has(f"reason_{kind}"):
        return wr.text(text)  # a reason kind this build does not know: shown as it is
    if kind == "path" and file_name:
        value = value.rsplit("/", 1)[-1]
    return wr.say(f"reason_{kind}", v=wr.code(value))


def reasons(wr: Writer, texts: Iterable[str], *, file_name: bool = False) -> str:
    return wr.join(reason(wr, t, file_name=file_name) for t in texts)


def score_parts(wr: Writer, parts: Mapping[str, float]) -> str:
    """Why a PR ranks where it does: the parts of its importance, in words."""
    out = []
    for name, value in parts.items():
        if name.startswith("label:"):
            out.append(wr.say("part_label", name=wr.code(name[6:]), v=f"{value:g}"))
        elif wr.has(f"part_{name}"):
            out.append(wr.say(f"part_{name}", v=f"{value:g}"))
        else:
            out.append(wr.text(f"{name} {value:g}"))
    return wr.join(out)


# -- the daily report ------------------------------------------------------------------------


def partial_window(report: m.DailyReport | w.WeeklyReport) -> str | None:
    """The header's warning for a partial window (the data stops before the window ends),
    with both times in the window's timezone; None for a whole window. Plain text: dates
    and words only, nothing from the data."""
    win = report.window
    if win.data_until is None:
        return None
    until, end = local_time(win.data_until, win.timezone), local_time(win.end, win.timezone)
    return daily_t(report.lang, "partial_window", until=until, end=end)


def stat_cells(report: m.DailyReport) -> list[tuple[str, int | None]]:
    """The stats line's counts; None where the store cannot know the count (a window read
    from a git clone knows merges, not openings, issues or closed-unmerged PRs), shown as a
    dash rather than a 0 that would claim nothing happened."""
    return [(key, getattr(report.stats, key)) for key in STAT_KEYS]


def needs_api(report: m.DailyReport) -> bool:
    """Reviews, comments and their latency are out of reach: the window's PRs came from a git
    clone (more than the merges unknown), so an empty list means "cannot say", not "none"."""
    return report.coverage is not None and len(report.coverage.unknown) > 1


def daily_footer(wr: Writer, report: m.DailyReport) -> str:
    p = report.provenance

    # `say` + str: the HTML writer's Markup escapes what it is added to.
    def shown(count: int | None) -> str:
        return wr.say("unknown_count") if count is None else str(count)

    counts = wr.join(
        wr.say("a_" + key) + f" {shown(count)}"
        if wr.has("a_" + key)
        else wr.text(f"{key} {shown(count)}")
        for key, count in p.list_counts.items()
    )
    return wr.say(
        "footer",
        version=wr.fixed(p.tool_version),
        window=wr.fixed(p.window_utc),
        as_of=stamp(p.data_as_of, wr.say("unknown")),
        generated=stamp(p.generated_at, wr.say("unknown")),
        counts=counts,
        writer=wr.say("writer_" + p.writer),
    )


def llm_footer(wr: Writer, llm: m.LLMRun | None) -> str | None:
    """What the model wrote and what the guard removed; None without a model."""
    if llm is None:
        return None
    return wr.say(
        "footer_llm",
        model=wr.text(llm.model),
        dropped=llm.dropped_sentences,
        fallbacks=llm.fallbacks,
        llm_parts=llm.model_parts,
        rules_parts=llm.rules_parts,
    )


# -- the weekly report -----------------------------------------------------------------------


def tags_line(wr: Writer, lang: Lang, tags: list[w.RiskTag]) -> str:
    if not tags:
        return wr.say("appendix_none")
    return wr.join(wr.plain(tag_name(lang, t.tag)) for t in tags)


def evidence_entry(wr: Writer, tag: w.RiskTag, e: w.Evidence) -> str:
    """One piece of a tag's evidence in words: which sentence fits depends on the tag and on
    what the rule recorded (a path, an added line, numbers)."""
    n = e.numbers
    path = wr.code(e.path) if e.path else ""
    line = wr.code(e.line or "")
    try:
        match tag.tag:
            case "missing_tests" if not e.path:
                return wr.say("ev_missing_tests", **n)
            case "tests_removed" if n.get("disabled"):
                return wr.say("ev_tests_disabled", path=path, line=line)
            case "dependency_change" if n.get("pin"):
                return wr.say("ev_pin", path=path, line=line)
            case "tests_removed" if n.get("deleted_file"):
                deleted = n.get("deletions", 0)
                return wr.say("ev_tests_removed_deleted", path=path, deletions=deleted)
            case "tests_removed":
                return wr.say("ev_tests_removed", path=path, **n)
            case "large_change":
                return wr.say("ev_large_change", **n)
            case "assert_validation" | "revert":
                return wr.say(f"ev_{tag.tag}", path=path, line=line)
            case "no_approval" | "follow_up_promised":
                return wr.say(f"ev_{tag.tag}", **n)
    except (KeyError, IndexError):
        pass  # numbers of another shape (a report read back from JSON): the path and line
    if e.path and "lines" in n:
        return wr.say("ev_path_lines", path=path, lines=n["lines"])
    return path or wr.text(e.line)


def unread_diffs(wr: Writer, n: int | None) -> str:
    """The mark of a PR whose files are not all read as code ("3 files without a diff"), or ""
    for one with none."""
    if not n:
        return ""
    return wr.say("unread_diffs_one" if n == 1 else "unread_diffs", n=n)


def evidence(wr: Writer, tag: w.RiskTag) -> str:
    return wr.join((evidence_entry(wr, tag, e) for e in tag.evidence[:SHOWN_EVIDENCE]), "; ")


def trend_change(wr: Writer, row: w.TrendRow, count: bool) -> str:
    """How a trend row words its change against the previous week: "new", "about N times"
    for a jump, a percentage only from a base large enough to mean one, else nothing."""
    small = row.previous < (SMALL_BASE_COUNT if count else SMALL_BASE_LINES)
    if row.previous == 0:
        return wr.say("trend_new")
    if row.change is None or row.change == 0 or small:
        return ""
    if row.value >= 3 * row.previous:
        return wr.say("trend_times", x=round(row.value / row.previous))
    sign = "+" if row.change > 0 else "−"
    return wr.say("trend_change", sign=sign, pct=round(abs(row.change) * 100))


def trend_row(wr: Writer, row: w.TrendRow, count: bool) -> str:
    """A row of the module trends: a label or title tag (`count`: PRs) or a path (lines)."""
    name = wr.text(row.name) if count else wr.code(row.name)
    key = "trend_row_count" if count else "trend_row"
    change = trend_change(wr, row, count)
    values = {"value": row.value, "previous": row.previous, "prs": row.prs}
    return wr.say(key, name=name, change=change, **values)


def theme_title(wr: Writer, kind: str, name: str) -> str:
    """A theme's heading. A language with words for named themes (zh) leads with the theme's
    own name in that language and keeps the tag, label or directory it stands for beside it."""
    shown = wr.code(name) if kind == "path" else wr.text(name)
    native = theme_name_zh(kind, name) if wr.has(f"theme_named_{kind}") else None
    if native is not None:
        return wr.say(f"theme_named_{kind}", native=wr.plain(native), name=shown)
    return wr.say(f"theme_title_{kind}", name=shown)


def group_title(wr: Writer, group: w.MergedGroup) -> str:
    if group.kind == "bot":
        return wr.say("appendix_bots")
    return theme_title(wr, group.kind, group.name)


# Reports whose reader's language is not the titles' own show a PR's title once, where the PR
# first appears in reading order (the appendix last), and its number alone after that: in a
# Chinese report the same English title in five sections is most of what makes it read as
# English. An English report repeats them, as an English reader expects.
TITLES_ONCE: frozenset[Lang] = frozenset({"zh"})


def title_places(report: w.WeeklyReport) -> set[tuple[str, int]] | None:
    """The (section, number) pairs where a weekly report shows an item's title (highlight,
    track, risk, change, key, appendix; "risk_reverts" and "key_reverts" for the PR a revert
    undoes), or None where every mention shows it."""
    if report.lang not in TITLES_ONCE:
        return None
    mentions: list[tuple[str, m.ItemRef]] = [("highlight", h.item) for h in report.highlights]
    mentions += [("track", x.item) for t in report.tracks for x in t.items]
    for o in report.risk_observations:
        mentions.append(("risk", o.item))
        if o.reverts is not None:
            mentions.append(("risk_reverts", o.reverts))
    mentions += [("change", p.item) for c in report.key_changes for p in c.items]
    for p in report.key_prs:
        mentions.append(("key", p.item))
        if p.reverts is not None:
            mentions.append(("key_reverts", p.reverts))
    # The appendix lists every merged PR; it names those the sections above did not.
    mentions += [("appendix", p.item) for p in report.merged]
    seen: set[int] = set()
    shown: set[tuple[str, int]] = set()
    for section, ref in mentions:
        if ref.number not in seen:
            seen.add(ref.number)
            shown.add((section, ref.number))
    return shown


def shows_title(places: set[tuple[str, int]] | None, section: str, ref: m.ItemRef) -> bool:
    return bool(ref.title) and (places is None or (section, ref.number) in places)


def appendix_groups(report: w.WeeklyReport) -> list[tuple[w.MergedGroup, list[w.WeeklyPR]]]:
    """The appendix's groups with their PRs, in the report's order (themes as under "key
    changes", bots last); a number the merged list lacks is left out, not a KeyError."""
    by_number = {p.item.number: p for p in report.merged}
    out = []
    for group in report.merged_groups:
        prs = [by_number[n] for n in group.numbers if n in by_number]
        if prs:
            out.append((group, prs))
    return out


def weekly_sources(wr: Writer, p: w.WeeklyProvenance) -> str:
    return wr.join(wr.say(f"source_{k}", n=v) for k, v in p.sources.items()) or "-"


def weekly_footer(wr: Writer, report: w.WeeklyReport) -> str:
    p = report.provenance
    unknown = wr.say("unknown")
    return wr.say(
        "footer",
        version=wr.fixed(p.tool_version),
        window=wr.fixed(p.window_utc),
        as_of=stamp(p.data_as_of, unknown),
        generated=stamp(p.generated_at, unknown),
        merged=p.merged_prs,
        sources=weekly_sources(wr, p),
        writer=wr.say("writer_" + p.writer),
    )
