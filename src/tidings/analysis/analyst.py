"""Map, reduce, guard and cache: the model's part of a window's report.

    facts ──▶ cards ──▶ map (PR cards, hot-thread cards; batched, cached per card)
                          │ validated, guarded answers
                          ▼
              section facts + map answers ──▶ reduce (one call per section, cached)

`Analyst.analyse` returns an `Analysis`: texts keyed by slot, e.g. ("pr", 4244),
("hot", 4223, "core_topic"), ("hot", 4223, "view", "alice"), ("summary",), ("topic", "AMD"),
("trends",), ("activity",), ("watch",). The report builder uses a slot's text when present and
its deterministic text otherwise, so any failure here costs prose, never completeness.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from tidings.analysis import prompts
from tidings.analysis.cache import LLMCache, cache_key
from tidings.analysis.cards import card_logins, hot_card, pr_card
from tidings.analysis.guard import Facts, keep_faithful
from tidings.analysis.provider import (
    LLMFailure,
    Provider,
    ProviderSettings,
    Usage,
    estimate_tokens,
    refusal,
)
from tidings.analysis.schemas import (
    HotAnswer,
    HotBatch,
    PRAnswer,
    PRBatch,
    SectionAnswer,
)
from tidings.config import Lang, LLMConfig
from tidings.errors import ConfigError, hide_password
from tidings.facts.activity_data import WindowData
from tidings.facts.daily import DayFacts
from tidings.store import Store
from tidings.textsafe import clean
from tidings.workers import thread_pool

Slot = tuple[Any, ...]
BATCH_CHARS = 14_000  # card characters per map call: ~4k tokens in, well inside 32k contexts
MAX_PER_BATCH = 12
ITEM_TOKENS = 220  # completion tokens allowed per PR card answer
HOT_TOKENS = 600  # per hot-thread card answer
SECTION_TOKENS = 400
MAX_SECTION_ITEMS = 25  # items listed in one section's facts (a week's topic can hold hundreds)


@dataclass
class Analysis:
    texts: dict[Slot, str] = field(default_factory=dict)
    importance: dict[int, int] = field(default_factory=dict)  # PR -> bounded adjustment
    notes: dict[int, list[str]] = field(default_factory=dict)  # PR -> guarded notes
    # This window's own counts (answers reused, sentences dropped, fallbacks); requests and
    # tokens are counted by the provider for the whole run (`Analyst.usage`).
    usage: Usage = field(default_factory=Usage)
    model: str = ""

    def text(self, *slot: Any) -> str | None:
        return self.texts.get(tuple(slot))


class Analyst:
    """Runs the model over one window's facts. One per report run (the breaker is per run)."""

    def __init__(
        self,
        provider: Provider,
        cache: LLMCache,
        *,
        max_concurrency: int = 4,
    ) -> None:
        self.provider = provider
        self.cache = cache
        self.max_concurrency = max(1, max_concurrency)
        self.runs: list[Analysis] = []  # one per report built with this analyst

    @classmethod
    def from_config(
        cls,
        config: LLMConfig,
        store: Store | None,
        *,
        api_key: str | None = None,
        **settings: Any,
    ) -> Analyst:
        if not config.base_url or not config.model:
            raise ConfigError(
                "[llm] needs base_url and model to use a model",
                "set both in tidings.toml, or pass --no-llm",
            )
        provider = Provider(
            ProviderSettings(
                base_url=config.base_url,
                model=config.model,
                api_key=api_key,
                temperature=config.temperature,
                timeout=config.timeout,
                structured_output=config.structured_output,
                token_budget=config.token_budget,
                max_wait=config.max_wait,
                max_in_flight=config.max_concurrency,
                **settings,
            )
        )
        return cls(provider, LLMCache(store), max_concurrency=config.max_concurrency)

    def usage(self) -> Usage:
        """What this analyst's reports cost together: the provider's requests and tokens, and
        the reports' own counts summed."""
        total = Usage(
            calls=self.provider.usage.calls,
            prompt_tokens=self.provider.usage.prompt_tokens,
            completion_tokens=self.provider.usage.completion_tokens,
            waited=self.provider.usage.waited,
            refused_wait=self.provider.usage.refused_wait,
        )
        for run in self.runs:
            total.cache_hits += run.usage.cache_hits
            total.dropped_sentences += run.usage.dropped_sentences
            total.failures += run.usage.failures
            for error in run.usage.errors:
                total.note_error(error)
        return total

    def warning(self) -> str | None:
        """One line for stderr when the model failed somewhere in this analyst's reports."""
        usage = self.usage()
        if not usage.failures:
            return None
        if usage.refused_wait is not None:
            return clean(
                f"the model endpoint at {hide_password(self.provider.settings.base_url)} "
                f"{refusal(*usage.refused_wait)}: rules wrote the prose "
                f"({usage.failures} parts of the report)"
            )
        cause = usage.errors[0] if usage.errors else "answers failed validation"
        # The endpoint's own words may carry control characters; the URL, a password.
        return clean(
            f"the model at {hide_password(self.provider.settings.base_url)} failed ({cause}); "
            f"{usage.failures} parts of the report use the deterministic text"
        )

    def _start(self) -> Analysis:
        out = Analysis(model=self.provider.model)
        self.runs.append(out)
        return out

    # -- the run ----------------------------------------------------------------------------

    def analyse(self, facts: DayFacts, lang: Lang) -> Analysis:
        """The model's text for one daily window, from the same facts the report prints."""
        out = self._start()
        if facts.quiet:
            return out  # a quiet window is one factual line; nothing for a model to add
        data = facts.data
        pr_cards = _pr_cards(facts)
        hot_cards = [hot_card(data, d, facts.repo) for d in facts.hot]
        with thread_pool(self.max_concurrency) as pool:
            # All map batches at once (PR and thread cards are independent), then the sections.
            calls = self._map(out, data, lang, "pr", pr_cards, PRBatch, ITEM_TOKENS, self._take_pr)
            calls += self._map(
                out, data, lang, "hot", hot_cards, HotBatch, HOT_TOKENS, self._take_hot
            )
            list(pool.map(lambda call: call(), calls))
            jobs = _sections(out, facts, hot_cards)
            list(pool.map(lambda job: self._reduce(out, data, lang, *job), jobs))
        return out

    def analyse_week(
        self,
        days: list[DayFacts],
        merged: set[int],
        week: WindowData,
        summary: dict[str, Any] | None,
        lang: Lang,
    ) -> Analysis:
        """A week's model text from the per-PR analyses of its daily windows, plus its summary.

        For each day the PR cards are exactly the daily report's (`analyse`), built from that
        day's facts, so their cache keys match: a week whose days were already reported
        costs no per-PR calls. Only cards of PRs in `merged` are sent, one per PR: the card of
        the day it merged when that day's report has one, else of the last day that has.
        `summary` (the week's figures, with the PR texts added here) gets one reduce call,
        slot ("summary",), checked against `week` (the week's rows).
        """
        out = self._start()
        chosen: dict[int, tuple[int, dict[str, Any]]] = {}  # PR -> (day index, card)
        for k, day in enumerate(days):
            if day.quiet:
                continue
            for card in _pr_cards(day):
                n = card["number"]
                if n not in merged:
                    continue
                held = chosen.get(n)
                if held is None or not held[1]["signals"]["merged_in_window"]:
                    chosen[n] = (k, card)
        calls: list[Callable[[], None]] = []
        for k, day in enumerate(days):
            cards = [card for n, (j, card) in sorted(chosen.items()) if j == k]
            calls += self._map(
                out, day.data, lang, "pr", cards, PRBatch, ITEM_TOKENS, self._take_pr
            )
        with thread_pool(self.max_concurrency) as pool:
            list(pool.map(lambda call: call(), calls))
        if summary is not None and summary.get("merged_prs"):
            payload = dict(summary)
            payload["key_prs"] = [
                entry
                | (
                    {"summary": out.texts[("pr", entry["number"])]}
                    if ("pr", entry["number"]) in out.texts
                    else {}
                )
                for entry in summary.get("key_prs", [])
            ]
            logins = {x.get("author") or "" for x in payload["key_prs"]}
            self._reduce(out, week, lang, ("summary",), "weekly_summary", payload, logins)
        return out

    # -- map --------------------------------------------------------------------------------

    def _key(self, kind: str, payload: Any, lang: str) -> str:
        params = {
            "temperature": self.provider.settings.temperature,
            "structured_output": self.provider.settings.structured_output,
        }
        return cache_key(kind, payload, model=self.provider.model, params=params, lang=lang)

    def _map(
        self,
        out: Analysis,
        data: WindowData,
        lang: Lang,
        kind: str,
        cards: list[dict[str, Any]],
        schema: type[PRBatch] | type[HotBatch],
        tokens_per_item: int,
        take: Callable[[Analysis, WindowData, dict[str, Any], Any], None],
    ) -> list[Callable[[], None]]:
        """Take cached answers now; return one call per batch of the rest."""
        if not cards:
            return []
        keys = {c["number"]: self._key(kind, c, lang) for c in cards}
        cached = self.cache.get_many(list(keys.values()))
        todo: list[dict[str, Any]] = []
        for card in cards:
            value = cached.get(keys[card["number"]])
            item_schema = PRAnswer if kind == "pr" else HotAnswer
            if value is not None:
                try:
                    answer = item_schema.model_validate(value)
                except ValueError:
                    todo.append(card)
                    continue
                out.usage.cache_hits += 1
                take(out, data, card, answer)
            else:
                todo.append(card)
        task = prompts.PR_TASK if kind == "pr" else prompts.HOT_TASK
        system = prompts.system_prompt(task, lang)

        def run(batch: list[dict[str, Any]]) -> None:
            wanted = [c["number"] for c in batch]
            try:
                answer = self.provider.ask(
                    system,
                    prompts.data_block(f"{kind}_cards", {"items": batch}),
                    schema,
                    max_tokens=tokens_per_item * len(batch) + 100,
                    check=lambda a: _exact_numbers(wanted, [x.number for x in a.items]),
                )
            except LLMFailure as exc:
                out.usage.failures += len(batch)
                out.usage.note_error(str(exc))
                return
            prompt, completion = self.provider.last_cost()
            by_number = {x.number: x for x in answer.items}
            for card in batch:
                item = by_number[card["number"]]
                self.cache.put(
                    keys[card["number"]],
                    kind,
                    self.provider.model,
                    item.model_dump(),
                    prompt_tokens=prompt // len(batch),
                    completion_tokens=completion // len(batch),
                )
                take(out, data, card, item)

        return [functools.partial(run, batch) for batch in _batches(todo)]

    def _facts_for(self, data: WindowData, payload: Any, logins: Iterable[str]) -> Facts:
        # Only item numbers the payload states as facts (`number`, `linked`, ...) are citable;
        # a "#N" inside someone's text is theirs, not the report's.
        numbers = {n for n in _numbers_in(payload) if n in data.items}
        return Facts.of(payload, numbers=numbers, logins=set(logins))

    def _guarded(
        self, out: Analysis, text: str, guard: Facts, speaker: str | None = None
    ) -> str | None:
        kept, dropped = keep_faithful(text, guard, speaker=speaker)
        out.usage.dropped_sentences += dropped
        return kept or None

    def _take_pr(
        self, out: Analysis, data: WindowData, card: dict[str, Any], answer: PRAnswer
    ) -> None:
        guard = self._facts_for(data, card, card_logins(card))
        n = card["number"]
        # A PR's summary sits under the PR, so it may use its author's own words; nobody else's.
        author = card.get("author")
        summary = self._guarded(out, answer.summary, guard, author)
        if summary is None:
            out.usage.failures += 1
            return
        out.texts[("pr", n)] = summary
        out.importance[n] = answer.importance
        card_text = " ".join(str(card).split()).lower()
        notes: list[str] = []
        for note in answer.notes:
            quote = " ".join(note.evidence.split()).lower().strip("\"'“”…. ")
            if not quote or quote not in card_text:
                out.usage.dropped_sentences += 1  # evidence that is not in the card
                continue
            text = self._guarded(out, note.text, guard, author)
            if text:
                notes.append(text)
        out.notes[n] = notes

    def _take_hot(
        self, out: Analysis, data: WindowData, card: dict[str, Any], answer: HotAnswer
    ) -> None:
        guard = self._facts_for(data, card, card_logins(card))
        n = card["number"]
        for name in ("core_topic", "contention", "status"):
            text = self._guarded(out, getattr(answer, name), guard)
            if text is not None and name == "status":
                text = text.rstrip("。.")  # the renderer follows it with "; linked PRs: …"
            if text is None:
                out.usage.failures += 1
            else:
                out.texts[("hot", n, name)] = text
        people = {(p["login"] or "").lower(): p["login"] or "" for p in card["participants"]}
        for view in answer.viewpoints:
            login = people.get(view.login.lstrip("@").lower())
            if login is None:
                out.usage.dropped_sentences += 1  # a viewpoint of someone not in the thread
                continue
            # Shown under the participant's name: their own words may be quoted, no one else's.
            text = self._guarded(out, view.stance, guard, login)
            if text:
                out.texts[("hot", n, "view", login)] = text

    # -- reduce -----------------------------------------------------------------------------

    def _reduce(
        self,
        out: Analysis,
        data: WindowData,
        lang: Lang,
        slot: Slot,
        section: str,
        payload: dict[str, Any],
        logins: set[str],
    ) -> None:
        key = self._key(f"section:{section}", payload, lang)
        cached = self.cache.get_many([key]).get(key)
        answer: SectionAnswer | None = None
        if cached is not None:
            try:
                answer = SectionAnswer.model_validate(cached)
                out.usage.cache_hits += 1
            except ValueError:
                answer = None
        if answer is None:
            system = prompts.system_prompt(
                prompts.SECTION_TASK[section] + "\n" + prompts.SECTION_SHAPE, lang
            )
            try:
                answer = self.provider.ask(
                    system,
                    prompts.data_block(section, {"facts": payload}),
                    SectionAnswer,
                    max_tokens=SECTION_TOKENS,
                )
            except LLMFailure as exc:
                out.usage.failures += 1
                out.usage.note_error(str(exc))
                return
            prompt, completion = self.provider.last_cost()
            self.cache.put(
                key,
                f"section:{section}",
                self.provider.model,
                answer.model_dump(),
                prompt_tokens=prompt,
                completion_tokens=completion,
            )
        guard = self._facts_for(data, payload, {x for x in logins if x})
        text = self._guarded(out, answer.text, guard)
        if text is None:
            out.usage.failures += 1
        else:
            out.texts[slot] = text


def _pr_cards(facts: DayFacts) -> list[dict[str, Any]]:
    """The window's PR cards: its key changes, then its topic PRs (the daily report's set)."""
    data = facts.data
    scored = {s.number: s for s in facts.scored}
    key_prs = [s.number for s in facts.key_changes]
    topic_prs = [
        x.number
        for topic in facts.topics
        for x in topic.matches
        if data.items[x.number].kind == "pr"
    ]
    prs = list(dict.fromkeys(key_prs + topic_prs))
    return [pr_card(data, data.items[n], scored.get(n)) for n in prs]


def _sections(
    out: Analysis, facts: DayFacts, hot_cards: list[dict[str, Any]]
) -> list[tuple[Slot, str, dict[str, Any], set[str]]]:
    """One reduce job per report section: its slot, task, facts payload and citable logins.

    Every payload is drawn from `facts`, the bundle the report writer lays out."""
    data = facts.data

    def brief(n: int) -> dict[str, Any]:
        item = data.items[n]
        entry: dict[str, Any] = {
            "number": n,
            "kind": "pr" if item.kind == "pr" else "issue",
            "title": item.title,
            "state": item.display_state,
        }
        if ("pr", n) in out.texts:
            entry["summary"] = out.texts[("pr", n)]
        return entry

    jobs: list[tuple[Slot, str, dict[str, Any], set[str]]] = []
    scored = facts.key_changes
    baseline = facts.baseline
    change = {
        k: round(100 * (v - baseline[k]) / baseline[k])
        for k, v in facts.stats.items()
        if baseline.get(k)
    }
    summary = {
        "stats": facts.stats,
        "mean_of_previous_7_windows": baseline,
        "change_percent": change,
        "busiest_areas": [
            {"kind": c.kind, "name": c.name, "items": len(c.members)} for c in facts.clusters[:3]
        ],
        "key_changes": [brief(s.number) for s in scored],
        "hot_discussions": [
            {
                "number": c["number"],
                "title": c["title"],
                "core_topic": out.texts.get(("hot", c["number"], "core_topic")),
            }
            for c in hot_cards
        ],
        "topics": [{"title": t.title, "items": len(t.matches)} for t in facts.topics],
    }
    authors = {data.items[s.number].author or "" for s in scored}
    jobs.append((("summary",), "summary", summary, authors))
    for track in facts.topics:
        matches = track.matches
        if not matches:
            continue
        payload: dict[str, Any] = {
            "topic": track.title,
            "count": len(matches),
            # The newest items, with their map summaries; `count` says how many in all.
            "items": [
                brief(x.number) | {"matched_by": list(x.reasons)}
                for x in matches[:MAX_SECTION_ITEMS]
            ],
        }
        logins = {data.items[x.number].author or "" for x in matches}
        jobs.append((("topic", track.title), "topic", payload, logins))
    if facts.clusters:
        payload = {
            "clusters": [
                {
                    "kind": c.kind,
                    "name": c.name,
                    "count": len(c.members),
                    "items": [{"number": n, "title": data.items[n].title} for n in c.members[:8]],
                }
                for c in facts.clusters
            ]
        }
        jobs.append((("trends",), "trends", payload, set()))
    act = facts.activity
    payload = {
        "human_participants": facts.participants,
        "top_authors": dict(act.top_authors),
        "top_reviewers": dict(act.top_reviewers),
        "top_commenters": dict(act.top_commenters),
        "first_time_contributors": [k for k, _ in act.first_timers],
        "review_latency_hours_median": act.review_latency_hours_median,
        "review_latency_sample": act.review_latency_sample,
    }
    logins = (
        {k for k, _ in act.top_authors}
        | {k for k, _ in act.top_reviewers}
        | {k for k, _ in act.top_commenters}
        | {k for k, _ in act.first_timers}
    )
    jobs.append((("activity",), "activity", payload, logins))
    if facts.watch:
        payload = {
            "count": len(facts.watch),
            "issues": [
                {
                    "number": w.number,
                    "title": data.items[w.number].title,
                    "reasons": list(w.reasons),
                    "comments_in_window": w.comments_in_window,
                    "reactions": data.items[w.number].reactions,
                    "age_days": w.age_days,
                }
                for w in facts.watch
            ],
        }
        logins = {data.items[w.number].author or "" for w in facts.watch}
        jobs.append((("watch",), "watch", payload, logins))
    return jobs


def _exact_numbers(wanted: list[int], got: list[int]) -> str | None:
    problems = []
    unknown = sorted(set(got) - set(wanted))
    missing = sorted(set(wanted) - set(got))
    dupes = sorted({n for n in got if got.count(n) > 1})
    if unknown:
        problems.append(f"unknown numbers {unknown}")
    if missing:
        problems.append(f"missing numbers {missing}")
    if dupes:
        problems.append(f"duplicate numbers {dupes}")
    if not problems:
        return None
    return "; ".join(problems) + f" (answer exactly one entry for each of {sorted(wanted)})"


def _batches(cards: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    out: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    size = 0
    for card in cards:
        cost = len(str(card))
        if current and (size + cost > BATCH_CHARS or len(current) >= MAX_PER_BATCH):
            out.append(current)
            current, size = [], 0
        current.append(card)
        size += cost
    if current:
        out.append(current)
    return out


def _numbers_in(payload: Any) -> Iterable[int]:
    """Values of `number`, `linked` and `closes_issues` fields anywhere in a payload."""
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key == "number" and isinstance(value, int):
                yield value
            elif key in ("linked", "closes_issues") and isinstance(value, list):
                yield from (v for v in value if isinstance(v, int))
            else:
                yield from _numbers_in(value)
    elif isinstance(payload, list):
        for value in payload:
            yield from _numbers_in(value)


def prompt_tokens_estimate(text: str) -> int:
    return estimate_tokens(text)
