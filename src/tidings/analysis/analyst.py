"""Map, reduce, guard and cache: the model's part of a window's report.

    facts ──▶ cards ──▶ map (PR cards, hot-thread cards; batched, cached per card)
                          │ validated, guarded answers
                          ▼
              section facts + map answers ──▶ reduce (one call per section, cached)

`Analyst.analyse` returns an `Analysis` (result.py): texts keyed by slot (facts/slots.py),
e.g. `PRSummary(4244)`, `PRWhy(4244)`, `HotText(4223, "core_topic")`, `HotView(4223,
"alice")`, `Section("summary")`, `TopicText("AMD")`; a week adds `RiskText`, `ThemeText`,
`FollowUpText`, `TrackText`, `TrackItemText`, `Section("exec")` and `Section("module_trends")`,
and the model's highlight themes (`Analysis.highlights`). The report builder uses a slot's
text when present and its deterministic text otherwise, so any failure here costs prose,
never completeness.

The steps live beside this module: card_sets.py picks the cards, mapping.py runs the map,
daily_sections.py and weekly.py build the sections' facts, weekly_sections.py handles each
weekly section's answer, asking.py asks and caches, known.py holds what the guards check
against.

Every fresh answer goes through the guard before it is cached: when the guard objects (an
unknown #N or @login, a number the facts lack, a copied sentence, a highlight member outside
the week), the model is asked once more with the objections, and the better answer is kept
and cached; what still fails is dropped sentence by sentence, as for a cached answer. A re-run
reads the cache and never calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tidings.analysis import prompts
from tidings.analysis.asking import Asker, SectionCall
from tidings.analysis.budgets import LITE_BATCH
from tidings.analysis.cache import LLMCache
from tidings.analysis.card_sets import day_cards, week_cards
from tidings.analysis.cards import hot_card
from tidings.analysis.daily_sections import DailyJob, section_jobs
from tidings.analysis.known import Known
from tidings.analysis.mapping import Mapper
from tidings.analysis.provider import Provider, ProviderSettings, Usage, refusal
from tidings.analysis.result import Analysis, HighlightGroup
from tidings.analysis.weekly import WeeklyJob, payloads
from tidings.analysis.weekly_sections import HANDLERS
from tidings.common.config import Lang, LLMConfig
from tidings.common.textsafe import clean
from tidings.common.workers import thread_pool
from tidings.errors import ConfigError, hide_password
from tidings.facts.activity_data import WindowData
from tidings.facts.daily import DayFacts
from tidings.facts.evidence import PREvidence
from tidings.facts.week_bundle import WeekInput
from tidings.store import Store

__all__ = ["Analysis", "Analyst", "HighlightGroup"]


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
        self.asker = Asker(provider, cache)
        self.known = Known()
        self.mapper = Mapper(self.asker, self.known)

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

    def tokens_spent(self) -> int:
        """Tokens this analyst's provider has spent this run (prompts and answers)."""
        usage = self.provider.usage
        return usage.prompt_tokens + usage.completion_tokens

    def tokens_left(self) -> int:
        """What is left of the run's token budget."""
        return max(0, self.provider.settings.token_budget - self.tokens_spent())

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
        self.known.note_sources(data, evidence or {})
        pr_cards = day_cards(facts, evidence or {})
        hot_cards = [hot_card(data, d, facts.repo) for d in facts.hot]
        with thread_pool(self.max_concurrency) as pool:
            # All map batches at once (PR and thread cards are independent), then the sections.
            calls = self.mapper.calls(out, data, lang, "pr", pr_cards)
            calls += self.mapper.calls(out, data, lang, "hot", hot_cards)
            list(pool.map(lambda call: call(), calls))
            jobs = section_jobs(out, facts, hot_cards)
            list(pool.map(lambda job: self._reduce(out, data, lang, job), jobs))
        return out

    def analyse_week(self, week: WeekInput, lang: Lang) -> Analysis:
        """A week's model text: a summary of every merged PR, then each weekly section.

        A PR that a daily report of the week carries gets exactly that report's card (built
        from that day's facts and evidence: the card of the day it merged when that day's
        report has one, else of the last day that has), so its cache key matches and a week
        whose days were already reported costs no call for it. Every other merged PR gets a
        lite card from the day it merged, many to a call. Then one call per section
        (analysis/weekly.py), all checked against the week's rows.
        """
        out = self._start()
        days, day_evidence = week.days, week.day_evidence
        for k, day in enumerate(days):
            if not day.quiet:
                self.known.note_sources(day.data, day_evidence[k])
        cards = week_cards(days, day_evidence, {p.number for p in week.facts.prs})
        calls: list[Callable[[], None]] = []
        for k, day in enumerate(days):
            calls += self.mapper.calls(out, day.data, lang, "pr", cards.full.get(k, []))
            calls += self.mapper.calls(
                out, day.data, lang, "pr", cards.lite.get(k, []), per_batch=LITE_BATCH
            )
        with thread_pool(self.max_concurrency) as pool:
            list(pool.map(lambda call: call(), calls))
            jobs = payloads(week, out.texts)
            list(pool.map(lambda job: self._weekly(out, week, lang, job), jobs))
        return out

    # -- reduce: one call per section ------------------------------------------------------

    def _reduce(self, out: Analysis, data: WindowData, lang: Lang, job: DailyJob) -> None:
        call = self._call(out, data, lang, job.section, job.payload, job.logins)
        call.write_text(job.slot, prompts.SECTION_TASK[job.section] + "\n" + prompts.SECTION_SHAPE)

    def _weekly(self, out: Analysis, week: WeekInput, lang: Lang, job: WeeklyJob) -> None:
        """One weekly section: ask (or read the cache), check, and file the texts by slot."""
        call = self._call(out, week.facts.data, lang, job.section, job.payload, job.logins)
        HANDLERS[job.section](call, job)

    def _call(
        self,
        out: Analysis,
        data: WindowData,
        lang: Lang,
        section: str,
        payload: dict[str, Any],
        logins: set[str],
    ) -> SectionCall:
        guard = self.known.guard(data, payload, logins)
        return SectionCall(self.asker, out, lang, section, payload, guard)
