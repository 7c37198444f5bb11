"""What the guard says about a whole answer: one verdict per sentence, for every task.

The analyst uses these to decide what to ask again and what to keep; `benchmarks/guard.py`
runs the very same functions over recorded prompts and answers, so the figures it prints are
the guard's behaviour in a report, not a copy of it.

A task's guard (`guard.Facts`) is built from the data the model was given plus what the
window knows beyond it (`Window`): which items exist, and everyone's role in the window, so
"@x is a maintainer" is checked against the window's roles in every section, not only in the
sections whose data happen to list x's role.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from tidings.analysis.guard import THREAD, Facts, problems, sentences, unmention
from tidings.analysis.schemas import (
    HighlightsAnswer,
    HotAnswer,
    HotBatch,
    KeyedBatch,
    PRAnswer,
    PRBatch,
    RiskBatch,
    SectionAnswer,
)

# Keys whose values are item numbers the data states as facts (a "#N" inside someone's text
# is theirs, not the report's, and is not among these).
NUMBER_LISTS = ("linked", "closes_issues")
# Keys whose values name a person (a GitHub login).
_PERSON_KEYS = ("author", "login", "merged_by")
_PERSON_LISTS = ("first_time_contributors",)
_PERSON_MAPS = ("top_authors", "top_reviewers", "top_commenters")


@dataclass(frozen=True)
class Window:
    """What the window knows beyond a task's data.

    `items`: the item numbers a report may cite (None: any the data states as a fact).
    `roles`: login (lower case) -> role, for everyone active in the window."""

    items: frozenset[int] | None = None
    roles: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Verdict:
    """One sentence of an answer and what is wrong with it (nothing: it stays)."""

    where: str  # "item 4244 summary", "theme 2 text", "text"
    sentence: str
    problems: tuple[str, ...]

    def objection(self) -> str:
        shown = self.sentence if len(self.sentence) <= 160 else self.sentence[:160] + "…"
        return f'{self.where}: "{shown}" — {"; ".join(self.problems)}'


def numbers_in(payload: Any) -> Iterable[int]:
    """Values of `number`, `linked` and `closes_issues` fields anywhere in a payload."""
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key == "number" and isinstance(value, int):
                yield value
            elif key in NUMBER_LISTS and isinstance(value, list):
                yield from (v for v in value if isinstance(v, int))
            else:
                yield from numbers_in(value)
    elif isinstance(payload, list):
        for value in payload:
            yield from numbers_in(value)


def people_in(payload: Any) -> set[str]:
    """The logins a payload names as people (authors, participants, reviewers, counts by
    person), which a sentence may cite as @login."""
    out: set[str] = set()
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key in _PERSON_KEYS and isinstance(value, str) and value:
                out.add(value)
            elif key in _PERSON_LISTS and isinstance(value, list):
                out |= {v for v in value if isinstance(v, str) and v}
            elif key in _PERSON_MAPS and isinstance(value, dict):
                out |= {k for k in value if isinstance(k, str) and k}
            else:
                out |= people_in(value)
    elif isinstance(payload, list):
        for value in payload:
            out |= people_in(value)
    return out


def guard_for(
    payload: Any,
    window: Window | None = None,
    *,
    numbers: Iterable[int] = (),
    logins: Iterable[str] = (),
    source: Mapping[str, Any] | None = None,
) -> Facts:
    """The guard of a task: what its data states, and the window's items and roles.

    `numbers` and `logins` add citable items and people beyond the payload's own (a PR-card
    batch's other cards); `source` is what a PR card was cut from (cards.pr_source)."""
    window = window or Window()
    stated = set(numbers_in(payload)) | set(numbers)
    if window.items is not None:
        stated &= window.items
    people = people_in(payload) | {x for x in logins if x}
    facts = Facts.of(payload, numbers=stated, logins=people)
    facts.mentioned -= set(numbers)  # a batch's own cards are stated, not merely named
    # The window's roles are the truth; the payload's are a copy of some of them.
    facts.roles.update({k.lower(): v for k, v in window.roles.items()})
    if source is not None:
        facts.add_source(str(source.get("body") or ""), list(source.get("code") or []))
    return facts


# -- verdicts ---------------------------------------------------------------------------------


def text_verdicts(
    where: str, text: str, guard: Facts, speaker: str | None = None, *, claims: bool = True
) -> list[Verdict]:
    """`claims`: the text is the report's own voice about effects and causes (a PR's why, a
    section), so an author's claim in it must be attributed; a summary of what the change
    does, a note on its code and a participant's stance are not held to that."""
    out = []
    for sentence in sentences(text):
        plain = unmention(sentence, guard)
        out.append(
            Verdict(where, plain, tuple(problems(plain, guard, speaker=speaker, claims=claims)))
        )
    return out


def quoted(evidence: str, card: Any) -> bool:
    """Whether a note's evidence quotes the card (or what it was cut from): any of its
    strings, compared with whitespace, invisible characters and escaped quotes normalised."""
    quote = _plain(evidence).strip("\"'“”‘’…. ")
    if not quote:
        return False
    return any(quote in _plain(s) for s in _strings(card))


_INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200b\u200c\u200d\u2060\u00ad"), None)


def _plain(text: str) -> str:
    text = text.translate(_INVISIBLE).replace('\\"', '"').replace("\\'", "'")
    return " ".join(text.split()).lower()


def _strings(node: Any) -> Iterable[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        joined = [x for x in node if isinstance(x, str)]
        if joined:
            yield "\n".join(joined)  # a quote may span lines of code
        for value in node:
            yield from _strings(value)
    elif isinstance(node, int | float) and not isinstance(node, bool):
        yield str(node)


def people(card: dict[str, Any]) -> dict[str, str]:
    """A thread card's participants: lower-case login -> login as given."""
    return {(p["login"] or "").lower(): p["login"] or "" for p in card.get("participants", [])}


_TOKENS = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*[A-Za-z0-9]|\d+(?:\.\d+)?")


def _distinctive(token: str) -> bool:
    """A name or figure that tells one PR from another ("rocm.py", "Gemma4ForCausalLM",
    "DSpark", "2050"), not an everyday word ("changes", "Model")."""
    if len(token) < 2:
        return False
    return (
        any(c.isdigit() or c in "_.-" for c in token)
        or any(c.isupper() for c in token[1:])
        or (token.isupper() and len(token) >= 2)
    )


def _card_text(card: dict[str, Any]) -> str:
    return json.dumps(card, ensure_ascii=False).lower()


def describes_other(
    text: str, card: dict[str, Any], others: Sequence[dict[str, Any]]
) -> dict[str, Any] | None:
    """The card of the batch a PR's text describes instead of its own: the names and
    figures in it that only that other card holds outnumber, two to one, those only its own
    card holds."""
    tokens = {t.lower() for t in _TOKENS.findall(text) if _distinctive(t)}
    own = _card_text(card)
    for other in others:
        theirs = _card_text(other)
        only_theirs = sum(t in theirs and t not in own for t in tokens)
        only_own = sum(t in own and t not in theirs for t in tokens)
        if only_theirs >= 2 and only_theirs > 2 * only_own:
            return other
    return None


def _another(n: int, text: str, card: dict[str, Any], others: Sequence[dict[str, Any]]) -> str:
    other = describes_other(text, card, others)
    if other is None:
        return ""
    return (
        f"describes #{other['number']} ({str(other.get('title', ''))[:60]}), not #{n}: write it "
        f"from #{n}'s own card"
    )


def pr_verdicts(
    card: dict[str, Any],
    answer: PRAnswer,
    guard: Facts,
    others: Sequence[dict[str, Any]] = (),
) -> list[Verdict]:
    """Every sentence of a PR card's answer. `others`: the other cards of its batch, to see
    a summary that belongs to one of them."""
    n = answer.number
    # A PR's summary sits under the PR, so it may give its author's words: by login, or by
    # the display name a git history gives when there is no login.
    author = card.get("author") or card.get("author_name")
    out: list[Verdict] = []
    for name, claims in (("summary", False), ("why", True)):
        text = getattr(answer, name)
        found = text_verdicts(f"item {n} {name}", text, guard, author, claims=claims)
        wrong = _another(n, text, card, others)
        if wrong:
            found = [Verdict(v.where, v.sentence, (*v.problems, wrong)) for v in found]
        out += found
    for k, note in enumerate(answer.notes):
        found = text_verdicts(f"item {n} note {k + 1}", note.text, guard, author, claims=False)
        if not quoted(note.evidence, [card, guard.sources]):
            problem = f"its evidence {note.evidence[:60]!r} is not a quote of the card"
            found = [Verdict(v.where, v.sentence, (*v.problems, problem)) for v in found]
        out += found
    return out


def hot_verdicts(card: dict[str, Any], answer: HotAnswer, guard: Facts) -> list[Verdict]:
    n = answer.number
    out: list[Verdict] = []
    for name in ("core_topic", "contention", "status"):
        out += text_verdicts(f"item {n} {name}", getattr(answer, name), guard, THREAD, claims=False)
    known = people(card)
    for view in answer.viewpoints:
        login = known.get(view.login.lstrip("@").lower())
        if login is None:
            problem = f"{view.login} is not a participant of the thread"
            out += [
                Verdict(f"item {n} view {view.login}", s, (problem,))
                for s in sentences(view.stance)
            ]
        else:
            out += text_verdicts(f"item {n} view {login}", view.stance, guard, login, claims=False)
    return out


def highlight_verdicts(answer: HighlightsAnswer, guard: Facts, members: set[int]) -> list[Verdict]:
    out: list[Verdict] = []
    for k, group in enumerate(answer.themes, 1):
        found = text_verdicts(f"theme {k} name", group.theme, guard)
        found += text_verdicts(f"theme {k} text", group.text, guard)
        outside = [n for n in group.numbers if n not in members]
        extra: tuple[str, ...] = ()
        if outside:
            extra += (f"lists {outside}, which are not among the merged PRs in `prs`",)
        if not set(group.numbers) & members:
            extra += ("has no PR from `prs` in `numbers`",)
        if extra:
            found = [Verdict(v.where, v.sentence, (*v.problems, *extra)) for v in found]
        out += found
    return out


def section_verdicts(
    task: str, payload: dict[str, Any], answer: BaseModel, guard: Facts
) -> list[Verdict]:
    """Every sentence of a section's answer (daily or weekly), as the analyst checks it."""
    if isinstance(answer, HighlightsAnswer):
        return highlight_verdicts(answer, guard, {x["number"] for x in payload.get("prs", [])})
    if isinstance(answer, RiskBatch):
        out: list[Verdict] = []
        for r in answer.items:
            out += text_verdicts(f"item {r.number} observation", r.observation, guard)
            out += text_verdicts(f"item {r.number} follow_up", r.follow_up, guard)
        return out
    if isinstance(answer, KeyedBatch):
        return [v for x in answer.items for v in text_verdicts(x.key, x.text, guard)]
    if isinstance(answer, SectionAnswer):
        return text_verdicts("text", answer.text, guard)
    raise TypeError(f"no verdicts for {type(answer).__name__} ({task})")


SECTION_SCHEMAS: dict[str, type[BaseModel]] = {
    "weekly_highlights": HighlightsAnswer,
    "weekly_risks": RiskBatch,
    "weekly_themes": KeyedBatch,
    "weekly_follow_ups": KeyedBatch,
    "weekly_tracks": KeyedBatch,
}


def batch_guards(
    cards: list[dict[str, Any]],
    window: Window | None,
    *,
    cite_batch: bool = True,
    sources: Mapping[int, Mapping[str, Any]] | None = None,
) -> dict[int, Facts]:
    """One guard per card of a map batch. `cite_batch`: a card may cite the other cards of
    its batch (PR cards, read side by side: "#12392 upgrades the upload side"); a thread's
    summary may cite only what its own card links."""
    batch = {c["number"] for c in cards} if cite_batch else set()
    sources = sources or {}
    return {
        c["number"]: guard_for(c, window, numbers=batch, source=sources.get(c["number"]))
        for c in cards
    }


def answer_verdicts(
    task: str,
    body: dict[str, Any],
    answer: dict[str, Any],
    window: Window | None = None,
    *,
    memo: dict[str, Any] | None = None,
) -> list[Verdict]:
    """Every sentence of a recorded answer to a prompt whose data block was `body`.

    For tools that replay prompts (benchmarks/guard.py); the analyst calls the same
    functions with the window it has. `memo`: a dict kept per prompt, so answers to the
    same prompt reuse its guards (they only read them)."""
    memo = memo if memo is not None else {}
    if task in ("pr_cards", "hot_cards"):
        cards = body["items"]
        if "guards" not in memo:
            memo["guards"] = batch_guards(cards, window, cite_batch=task == "pr_cards")
        guards = memo["guards"]
        by_number = {c["number"]: c for c in cards}
        out: list[Verdict] = []
        if task == "pr_cards":
            for item in PRBatch.model_validate(answer).items:
                if item.number in by_number:
                    others = [c for c in cards if c["number"] != item.number]
                    out += pr_verdicts(by_number[item.number], item, guards[item.number], others)
        else:
            for hot in HotBatch.model_validate(answer).items:
                if hot.number in by_number:
                    out += hot_verdicts(by_number[hot.number], hot, guards[hot.number])
        return out
    payload = body["facts"]
    schema = SECTION_SCHEMAS.get(task, SectionAnswer)
    if "guard" not in memo:
        memo["guard"] = guard_for(payload, window)
    return section_verdicts(task, payload, schema.model_validate(answer), memo["guard"])
