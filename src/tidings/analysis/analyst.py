"""Map, reduce, guard and cache: the model's part of a window's report.

    facts ──▶ cards ──▶ map (PR cards, hot-thread cards; batched, cached per card)
                          │ validated, guarded answers
                          ▼
              section facts + map answers ──▶ reduce (one call per section, cached)

`Analyst.analyse` returns an `Analysis`: texts keyed by slot, e.g. ("pr", 4244), ("why", 4244),
("hot", 4223, "core_topic"), ("hot", 4223, "view", "alice"), ("summary",), ("topic", "AMD"),
("trends",), ("activity",), ("watch",); a week adds ("risk", N, "observation"|"follow_up"),
("exec",), ("theme", kind, name), ("module_trends",), ("follow_up", kind, reason) and the
model's highlight themes (`Analysis.highlights`). The report builder uses a slot's text when
present and its deterministic text otherwise, so any failure here costs prose, never
completeness.

Every fresh answer goes through the guard before it is cached: when the guard objects (an
unknown #N or @login, a number the facts lack, a copied sentence, a highlight member outside
the week), the model is asked once more with the objections, and the better answer is kept
and cached; what still fails is dropped sentence by sentence, as for a cached answer. A re-run
reads the cache and never calls.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from tidings.analysis import prompts
from tidings.analysis.cache import LLMCache, cache_key
from tidings.analysis.cards import hot_card, pr_card, pr_source
from tidings.analysis.guard import Facts, join
from tidings.analysis.objections import (
    Verdict,
    Window,
    batch_guards,
    guard_for,
    hot_verdicts,
    pr_verdicts,
    section_verdicts,
    text_verdicts,
)
from tidings.analysis.provider import (
    LLMFailure,
    Provider,
    ProviderSettings,
    Usage,
    estimate_tokens,
    refusal,
)
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
from tidings.analysis.weekly import payloads
from tidings.common.workers import thread_pool
from tidings.config import Lang, LLMConfig
from tidings.errors import ConfigError, hide_password
from tidings.facts.activity_data import WindowData
from tidings.facts.daily import DayFacts
from tidings.facts.evidence import PREvidence
from tidings.facts.paths import PathKinds
from tidings.facts.weekly import WeekInput
from tidings.store import Store
from tidings.textsafe import clean

Slot = tuple[Any, ...]
BATCH_CHARS = 14_000  # card characters per map call: ~4k tokens in, well inside 32k contexts
MAX_PER_BATCH = 12
# Completion tokens allowed per answer, sized to what a capable model wrote for these prompts
# in zh (../shared/data/model-eval: the vllm-ascend 2026-W33 weekly and the demo's 2026-03-04
# daily, first and rewritten answers; tokens as UTF-8 bytes / 4 of each answer's JSON, as the
# provider estimates them): at least 1.5 times the longest, since Chinese with English
# identifiers costs a real tokenizer up to a third more than that estimate and a card with more
# evidence draws a longer answer. A batch adds 100 for its wrapper (6 measured).
ITEM_TOKENS = 380  # per PR card answer: longest 253 (was 220, which cut real answers short)
HOT_TOKENS = 1080  # per hot-thread card answer: longest 719 (was 600)
SECTION_TOKENS = 400  # a section's text: longest 214 (the daily summary)
WEEKLY_TOKENS = {  # completion tokens of a weekly section answer (lists are longer)
    "weekly_highlights": 1400,  # the whole answer: longest 795
    "weekly_risks": 290,  # per PR: longest 187
    "weekly_themes": 210,  # per theme: longest 140
    "weekly_follow_ups": 190,  # per group: longest 124
    "weekly_tracks": 210,  # per track or listed item: none recorded; a theme's length
}
MAX_SECTION_ITEMS = 25  # items listed in one section's facts (a week's topic can hold hundreds)
LITE_BATCH = 20  # lite cards (the week's other merged PRs) per map call
A = TypeVar("A", bound=BaseModel)


@dataclass(frozen=True)
class HighlightGroup:
    """A technical direction the model proposed, with the week's merged PRs that carry it
    (each checked to be one)."""

    theme: str
    text: str
    numbers: tuple[int, ...]


@dataclass
class Analysis:
    texts: dict[Slot, str] = field(default_factory=dict)
    highlights: list[HighlightGroup] = field(default_factory=list)
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
        # (repository, PR) -> what its card was cut from (cards.pr_source), for the guard
        self._sources: dict[tuple[str, int], dict[str, Any]] = {}
        self._windows: dict[tuple[str, Any, Any], Window] = {}

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
            total.regenerations += run.usage.regenerations
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

    def analyse(
        self,
        facts: DayFacts,
        lang: Lang,
        evidence: dict[int, PREvidence] | None = None,
    ) -> Analysis:
        """The model's text for one daily window, from the same facts the report prints;
        `evidence` (facts/evidence.py) adds risk tags, the most telling hunks and review
        threads to the PR cards."""
        out = self._start()
        if facts.quiet:
            return out  # a quiet window is one factual line; nothing for a model to add
        data = facts.data
        self._note_sources(data, evidence or {})
        pr_cards = _pr_cards(facts, evidence or {})
        hot_cards = [hot_card(data, d, facts.repo) for d in facts.hot]
        with thread_pool(self.max_concurrency) as pool:
            # All map batches at once (PR and thread cards are independent), then the sections.
            calls = self._map(out, data, lang, "pr", pr_cards)
            calls += self._map(out, data, lang, "hot", hot_cards)
            list(pool.map(lambda call: call(), calls))
            jobs = _sections(out, facts, hot_cards)
            list(pool.map(lambda job: self._reduce(out, data, lang, *job), jobs))
        return out

    def analyse_week(
        self,
        days: list[DayFacts],
        day_evidence: list[dict[int, PREvidence]],
        week: WeekInput,
        lang: Lang,
    ) -> Analysis:
        """A week's model text: a summary of every merged PR, then each weekly section.

        A PR that a daily report of the week carries gets exactly that report's card (built
        from that day's facts and evidence: the card of the day it merged when that day's
        report has one, else of the last day that has), so its cache key matches and a week
        whose days were already reported costs no call for it. Every other merged PR gets a
        lite card from the day it merged, many to a call. Then one call per section
        (analysis/weekly.py), all checked against the week's rows.
        """
        out = self._start()
        merged = {p.number for p in week.facts.prs}
        chosen: dict[int, tuple[int, dict[str, Any]]] = {}  # PR -> (day index, card)
        paths = PathKinds(days[0].repo) if days else None
        for k, day in enumerate(days):
            if day.quiet:
                continue
            self._note_sources(day.data, day_evidence[k])
            for card in _pr_cards(day, day_evidence[k], paths):
                n = card["number"]
                if n not in merged:
                    continue
                held = chosen.get(n)
                if held is None or not held[1]["signals"]["merged_in_window"]:
                    chosen[n] = (k, card)
        lite: dict[int, list[dict[str, Any]]] = {}
        scored = [{s.number: s for s in day.scored} for day in days]
        for n in sorted(merged - set(chosen)):
            for k, day in enumerate(days):
                item = day.data.items.get(n)
                if item is not None and day.data.in_window(item.merged_at):
                    card = pr_card(
                        day.data,
                        item,
                        scored[k].get(n),
                        day_evidence[k].get(n),
                        paths=paths or PathKinds(day.repo),
                        lite=True,
                    )
                    lite.setdefault(k, []).append(card)
                    break
        calls: list[Callable[[], None]] = []
        for k, day in enumerate(days):
            cards = [card for n, (j, card) in sorted(chosen.items()) if j == k]
            calls += self._map(out, day.data, lang, "pr", cards)
            calls += self._map(out, day.data, lang, "pr", lite.get(k, []), per_batch=LITE_BATCH)
        with thread_pool(self.max_concurrency) as pool:
            list(pool.map(lambda call: call(), calls))
            jobs = payloads(week, out.texts)
            list(pool.map(lambda job: self._weekly(out, week, lang, *job), jobs))
        return out

    # -- asking, with one regeneration ------------------------------------------------------

    def _key(self, kind: str, payload: Any, lang: str) -> str:
        params = {
            "temperature": self.provider.settings.temperature,
            "structured_output": self.provider.settings.structured_output,
        }
        return cache_key(kind, payload, model=self.provider.model, params=params, lang=lang)

    def _ask(
        self,
        out: Analysis,
        system: str,
        user: str,
        schema: type[A],
        *,
        max_tokens: int,
        objections: Callable[[A], list[str]],
        check: Callable[[A], str | None] | None = None,
    ) -> tuple[A | None, tuple[int, int]]:
        """A validated answer and its cost; asked again once when the guard objects to it.

        The second answer is kept unless the guard objects to more of it than to the first.
        None when the endpoint gave no valid answer at all."""
        try:
            answer = self.provider.ask(system, user, schema, max_tokens=max_tokens, check=check)
        except LLMFailure as exc:
            out.usage.note_error(str(exc))
            return None, (0, 0)
        prompt, completion = self.provider.last_cost()
        found = objections(answer)
        if not found:
            return answer, (prompt, completion)
        out.usage.regenerations += 1
        followup = [
            {"role": "assistant", "content": answer.model_dump_json()},
            {"role": "user", "content": prompts.regenerate(found)},
        ]
        try:
            again = self.provider.ask(
                system, user, schema, max_tokens=max_tokens, check=check, followup=followup
            )
        except LLMFailure as exc:
            out.usage.note_error(str(exc))
            return answer, (prompt, completion)
        more, more_out = self.provider.last_cost()
        if len(objections(again)) <= len(found):
            answer = again
        return answer, (prompt + more, completion + more_out)

    def _cached(self, out: Analysis, key: str, schema: type[A]) -> A | None:
        value = self.cache.get_many([key]).get(key)
        if value is None:
            return None
        try:
            answer = schema.model_validate(value)
        except ValueError:
            return None
        out.usage.cache_hits += 1
        return answer

    # -- map --------------------------------------------------------------------------------

    def _map(
        self,
        out: Analysis,
        data: WindowData,
        lang: Lang,
        kind: str,
        cards: list[dict[str, Any]],
        *,
        per_batch: int = MAX_PER_BATCH,
    ) -> list[Callable[[], None]]:
        """Take cached answers now; return one call per batch of the rest."""
        if not cards:
            return []
        keys = {c["number"]: self._key(kind, c, lang) for c in cards}
        cached = self.cache.get_many(list(keys.values()))
        item_schema: type[PRAnswer] | type[HotAnswer] = PRAnswer if kind == "pr" else HotAnswer
        batch_schema: type[PRBatch] | type[HotBatch] = PRBatch if kind == "pr" else HotBatch
        tokens_per_item = ITEM_TOKENS if kind == "pr" else HOT_TOKENS
        todo: list[dict[str, Any]] = []
        for card in cards:
            value = cached.get(keys[card["number"]])
            if value is not None:
                try:
                    answer = item_schema.model_validate(value)
                except ValueError:
                    todo.append(card)
                    continue
                out.usage.cache_hits += 1
                self._take(out, data, card, answer, None)
            else:
                todo.append(card)
        task = prompts.PR_TASK if kind == "pr" else prompts.HOT_TASK
        system = prompts.system_prompt(task, lang)

        window = self._window(data)

        def run(batch: list[dict[str, Any]]) -> None:
            wanted = [c["number"] for c in batch]
            by_card = {c["number"]: c for c in batch}
            guards = batch_guards(
                batch, window, cite_batch=kind == "pr", sources=self._sources_of(data, batch)
            )

            def verdicts(x: Any) -> list[Verdict]:
                card = by_card[x.number]
                if isinstance(x, PRAnswer):
                    others = [c for c in batch if c is not card]
                    return pr_verdicts(card, x, guards[x.number], others)
                return hot_verdicts(card, x, guards[x.number])

            def objections(answer: Any) -> list[str]:
                return [
                    v.objection()
                    for x in answer.items
                    if x.number in by_card
                    for v in verdicts(x)
                    if v.problems
                ]

            answer, (prompt, completion) = self._ask(
                out,
                system,
                prompts.data_block(f"{kind}_cards", {"items": batch}),
                batch_schema,
                max_tokens=tokens_per_item * len(batch) + 100,
                objections=objections,
                check=lambda a: _exact_numbers(wanted, [x.number for x in a.items]),
            )
            if answer is None:
                out.usage.failures += len(batch)
                return
            by_number = {x.number: x for x in answer.items}
            for card in batch:
                item = by_number[card["number"]]
                found = verdicts(item)
                self._take(out, data, card, item, found)
                if any("describes #" in p for v in found for p in v.problems):
                    continue  # another card's summary: not cached, so a re-run asks again
                self.cache.put(
                    keys[card["number"]],
                    kind,
                    self.provider.model,
                    item.model_dump(),
                    prompt_tokens=prompt // len(batch),
                    completion_tokens=completion // len(batch),
                )

        return [functools.partial(run, batch) for batch in _batches(todo, per_batch)]

    def _window(self, data: WindowData) -> Window:
        """The window's items and roles, worked out once per window."""
        key = (data.repo, data.start, data.end)
        if key not in self._windows:
            self._windows[key] = _window(data)
        return self._windows[key]

    def _note_sources(self, data: WindowData, evidence: dict[int, PREvidence]) -> None:
        for n, ev in evidence.items():
            item = data.items.get(n)
            if item is not None and item.kind == "pr":
                self._sources[(data.repo, n)] = pr_source(item, ev)

    def _sources_of(
        self, data: WindowData, cards: list[dict[str, Any]]
    ) -> dict[int, dict[str, Any]]:
        """What each PR card of a batch was cut from (its description alone when the window
        holds no diff evidence for it)."""
        out: dict[int, dict[str, Any]] = {}
        for card in cards:
            n = card["number"]
            source = self._sources.get((data.repo, n))
            item = data.items.get(n)
            if source is None and item is not None:
                source = pr_source(item, None)
            if source is not None:
                out[n] = source
        return out

    def _facts_for(self, data: WindowData, payload: Any, logins: Iterable[str]) -> Facts:
        # Only item numbers the payload states as facts (`number`, `linked`, ...) and that are
        # items of the window are citable; a "#N" inside someone's text is theirs, not the
        # report's. Citable: the window's items and those they link to or name that the store
        # holds (`related` entries; WindowData.named). Roles are the window's, whatever the
        # payload lists.
        return guard_for(payload, self._window(data), logins=logins)

    def _guarded(self, out: Analysis, verdicts: list[Verdict]) -> str | None:
        """The sentences the guard lets stay, as one text; counts the ones it drops."""
        kept = [v.sentence for v in verdicts if not v.problems]
        out.usage.dropped_sentences += len(verdicts) - len(kept)
        return join(kept) or None

    def _take(
        self,
        out: Analysis,
        data: WindowData,
        card: dict[str, Any],
        answer: Any,
        verdicts: list[Verdict] | None,
    ) -> None:
        """File a PR or thread card's answer. `verdicts`: the guard's, when the answer is
        fresh (checked against its batch); a cached answer is checked here on its own."""
        if verdicts is None:
            sources = self._sources_of(data, [card]) if isinstance(answer, PRAnswer) else {}
            guard = batch_guards([card], self._window(data), sources=sources)[card["number"]]
            if isinstance(answer, PRAnswer):
                verdicts = pr_verdicts(card, answer, guard)
            else:
                verdicts = hot_verdicts(card, answer, guard)
        if isinstance(answer, PRAnswer):
            self._take_pr(out, card, answer, verdicts)
        else:
            self._take_hot(out, answer, verdicts)

    def _take_pr(
        self, out: Analysis, card: dict[str, Any], answer: PRAnswer, verdicts: list[Verdict]
    ) -> None:
        n = card["number"]
        fields = _by_field(verdicts)
        summary = self._guarded(out, fields.pop(f"item {n} summary", []))
        if summary is None:
            out.usage.failures += 1
            return
        out.texts[("pr", n)] = summary
        why = self._guarded(out, fields.pop(f"item {n} why", []))
        if why is not None:
            out.texts[("why", n)] = why
        out.importance[n] = answer.importance
        notes = [self._guarded(out, found) for found in fields.values()]
        out.notes[n] = [x for x in notes if x]

    def _take_hot(self, out: Analysis, answer: HotAnswer, verdicts: list[Verdict]) -> None:
        n = answer.number
        fields = _by_field(verdicts)
        for name in ("core_topic", "contention", "status"):
            text = self._guarded(out, fields.pop(f"item {n} {name}", []))
            if text is not None and name == "status":
                text = text.rstrip("。.")  # the renderer follows it with "; linked PRs: …"
            if text is None:
                out.usage.failures += 1
            else:
                out.texts[("hot", n, name)] = text
        for where, found in fields.items():
            # Shown under the participant's name: their own words may be quoted, no one
            # else's; a viewpoint of someone not in the thread is dropped with its reason.
            text = self._guarded(out, found)
            if text:
                out.texts[("hot", n, "view", where.split(" view ", 1)[1])] = text

    # -- reduce -----------------------------------------------------------------------------

    def _section(
        self,
        out: Analysis,
        lang: Lang,
        section: str,
        payload: dict[str, Any],
        schema: type[A],
        task: str,
        max_tokens: int,
        objections: Callable[[A], list[str]],
        check: Callable[[A], str | None] | None = None,
    ) -> A | None:
        """A section's answer: cached, or asked (and regenerated once) and then cached."""
        key = self._key(f"section:{section}", payload, lang)
        answer = self._cached(out, key, schema)
        if answer is not None:
            return answer
        fresh, (prompt, completion) = self._ask(
            out,
            prompts.system_prompt(task, lang),
            prompts.data_block(section, {"facts": payload}),
            schema,
            max_tokens=max_tokens,
            objections=objections,
            check=check,
        )
        if fresh is None:
            return None
        self.cache.put(
            key,
            f"section:{section}",
            self.provider.model,
            fresh.model_dump(),
            prompt_tokens=prompt,
            completion_tokens=completion,
        )
        return fresh

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
        guard = self._facts_for(data, payload, logins)
        answer = self._section(
            out,
            lang,
            section,
            payload,
            SectionAnswer,
            prompts.SECTION_TASK[section] + "\n" + prompts.SECTION_SHAPE,
            SECTION_TOKENS,
            lambda a: _objections(text_verdicts("text", a.text, guard)),
        )
        text = (
            self._guarded(out, text_verdicts("text", answer.text, guard))
            if answer is not None
            else None
        )
        if text is None:
            out.usage.failures += 1
        else:
            out.texts[slot] = text

    def _weekly(
        self,
        out: Analysis,
        week: WeekInput,
        lang: Lang,
        section: str,
        payload: dict[str, Any],
        logins: set[str],
    ) -> None:
        """One weekly section: ask (or read the cache), check, and file the texts by slot."""
        data = week.facts.data
        guard = self._facts_for(data, payload, logins)
        task = prompts.WEEKLY_TASK.get(section)
        if section == "weekly_highlights":
            members = {x["number"] for x in payload["prs"]}
            hl = self._section(
                out,
                lang,
                section,
                payload,
                HighlightsAnswer,
                task or "",
                WEEKLY_TOKENS[section],
                lambda a: _objections(section_verdicts(section, payload, a, guard)),
            )
            if hl is None:
                out.usage.failures += 1
                return
            for group in hl.themes:
                numbers = tuple(dict.fromkeys(n for n in group.numbers if n in members))
                text = self._guarded(out, text_verdicts("text", group.text, guard))
                theme = self._guarded(out, text_verdicts("theme", group.theme, guard))
                if not numbers or text is None or theme is None:
                    out.usage.dropped_sentences += 1
                    continue
                out.highlights.append(HighlightGroup(theme.rstrip("。."), text, numbers))
            if not out.highlights:
                out.usage.failures += 1
            return
        if section in ("weekly_risks",):
            wanted = [x["number"] for x in payload["prs"]]
            risks = self._section(
                out,
                lang,
                section,
                payload,
                RiskBatch,
                task or "",
                WEEKLY_TOKENS[section] * len(wanted) + 100,
                lambda a: _objections(section_verdicts(section, payload, a, guard)),
                check=lambda a: _exact_numbers(wanted, [x.number for x in a.items]),
            )
            if risks is None:
                out.usage.failures += 2 * len(wanted)
                return
            for r in risks.items:
                for name in ("observation", "follow_up"):
                    text = self._guarded(out, text_verdicts(name, getattr(r, name), guard))
                    if text is None:
                        out.usage.failures += 1
                    else:
                        out.texts[("risk", r.number, name)] = text
            return
        if section in ("weekly_themes", "weekly_follow_ups", "weekly_tracks"):
            if section == "weekly_tracks":
                # One text per track and one per listed issue or open PR (merged PRs already
                # have their summaries).
                keys = [
                    k
                    for t in payload["tracks"]
                    for k in [t["key"]] + [x["key"] for x in t["items"] if "key" in x]
                ]
            else:
                entries = payload["themes" if section == "weekly_themes" else "groups"]
                keys = [x["key"] for x in entries]
            keyed = self._section(
                out,
                lang,
                section,
                payload,
                KeyedBatch,
                task or "",
                WEEKLY_TOKENS[section] * len(keys) + 100,
                lambda a: _objections(section_verdicts(section, payload, a, guard)),
                check=lambda a: _exact_keys(keys, [x.key for x in a.items]),
            )
            if keyed is None:
                out.usage.failures += len(keys)
                return
            for x in keyed.items:
                text = self._guarded(out, text_verdicts(x.key, x.text, guard))
                kind, _, name = x.key.partition(":")
                prefix = "theme" if section == "weekly_themes" else "follow_up"
                if text is None:
                    out.usage.failures += 1
                elif section == "weekly_tracks":
                    track_slot: Slot = (
                        ("track", name) if kind == "track" else ("track_item", int(name))
                    )
                    out.texts[track_slot] = text
                else:
                    out.texts[(prefix, kind, name)] = text
            return
        slot: Slot = {
            "weekly_exec": ("exec",),
            "weekly_trends": ("module_trends",),
            "weekly_summary": ("summary",),
        }[section]
        task = task or prompts.SECTION_TASK[section] + "\n" + prompts.SECTION_SHAPE
        answer = self._section(
            out,
            lang,
            section,
            payload,
            SectionAnswer,
            task,
            SECTION_TOKENS,
            lambda a: _objections(text_verdicts("text", a.text, guard)),
        )
        text = (
            self._guarded(out, text_verdicts("text", answer.text, guard))
            if answer is not None
            else None
        )
        if text is None:
            out.usage.failures += 1
        else:
            out.texts[slot] = text


def _objections(verdicts: list[Verdict]) -> list[str]:
    return [v.objection() for v in verdicts if v.problems]


def _by_field(verdicts: list[Verdict]) -> dict[str, list[Verdict]]:
    out: dict[str, list[Verdict]] = {}
    for v in verdicts:
        out.setdefault(v.where, []).append(v)
    return out


def _window(data: WindowData) -> Window:
    """The window's items and everyone's role in it (authors and commenters)."""
    roles: dict[str, str] = {}
    for item in data.items.values():
        people = [(item.author, item.author_type, item.author_association)]
        people += [
            (c.author, c.author_type, c.author_association) for c in data.activity_on(item.number)
        ]
        for login, kind, association in people:
            if login and login.lower() not in roles:
                roles[login.lower()] = data.roles.of(login, kind, association).role
    return Window(items=frozenset(data.items) | frozenset(data.named), roles=roles)


def _pr_cards(
    facts: DayFacts, evidence: dict[int, PREvidence], paths: PathKinds | None = None
) -> list[dict[str, Any]]:
    """The window's PR cards: its key changes, then its topic PRs (the daily report's set)."""
    data = facts.data
    paths = paths or PathKinds(facts.repo)
    scored = {s.number: s for s in facts.scored}
    key_prs = [s.number for s in facts.key_changes]
    topic_prs = [
        x.number
        for topic in facts.topics
        for x in topic.matches
        if data.items[x.number].kind == "pr"
    ]
    prs = list(dict.fromkeys(key_prs + topic_prs))
    return [pr_card(data, data.items[n], scored.get(n), evidence.get(n), paths=paths) for n in prs]


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
    # What the sources cannot know is null, never 0 (a git clone knows no PR's opening).
    stats: dict[str, int | None] = {
        k: (None if k in facts.unknown else v) for k, v in facts.stats.items()
    }
    summary = {
        "stats": stats,
        "mean_of_previous_7_windows": {k: v for k, v in baseline.items() if k not in facts.unknown},
        "change_percent": {k: v for k, v in change.items() if k not in facts.unknown},
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
    # A git clone alone holds no comments or reviews: who reviewed or commented is unknown
    # (null), and the people counted are the merged PRs' authors (facts/coverage.py).
    git_only = facts.git_only
    payload = {
        "human_participants": None if git_only else facts.participants,
        "human_authors_of_merged_prs": facts.participants if git_only else None,
        "top_authors_ranked_by": "prs_merged" if act.authors_by == "merged" else "items_opened",
        "top_authors": dict(act.top_authors),
        "top_reviewers": None if git_only else dict(act.top_reviewers),
        "top_commenters": None if git_only else dict(act.top_commenters),
        # Null when the sources cannot tell (facts/activity.py), never an empty "none".
        "first_time_contributors": [k for k, _ in act.first_timers]
        if act.first_timers_known
        else None,
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


def _exact_keys(wanted: list[str], got: list[str]) -> str | None:
    if sorted(got) == sorted(wanted):
        return None
    return f"answer exactly one entry for each key of {wanted}, got {got}"


def _batches(cards: list[dict[str, Any]], per_batch: int) -> list[list[dict[str, Any]]]:
    out: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    size = 0
    for card in cards:
        cost = len(str(card))
        if current and (size + cost > BATCH_CHARS or len(current) >= per_batch):
            out.append(current)
            current, size = [], 0
        current.append(card)
        size += cost
    if current:
        out.append(current)
    return out


def prompt_tokens_estimate(text: str) -> int:
    return estimate_tokens(text)
