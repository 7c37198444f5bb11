"""The LLM layer: any OpenAI-compatible model writes the report's prose, checked and cached.

    provider.py  the endpoint: structured output, validation + one repair, retries, breaker,
                 token budget, wait budget
    cards.py     compact facts per PR and per hot thread (the only thing the model reads)
    prompts.py   instructions first, untrusted data last inside <data>…</data>
    schemas.py   the pydantic answers, PROMPT_VERSION
    guard.py     every #N, @login, path, version and number from the computed facts, each
                 count matching its quantity; no commands, links, domains or requests;
                 untrusted text only as an attributed quote
    cache.py     answers in the store's llm_cache, keyed by content, prompt, model, parameters
    analyst.py   map per card, reduce per section; returns texts keyed by report slot
                 (facts/slots.py), in an `Analysis` (result.py)
    card_sets.py which PR cards a day or a week sends
    mapping.py   the map step: batches of cards, answers checked and filed by slot
    daily_sections.py, weekly.py  each reduce section's facts
    weekly_sections.py  a handler per kind of weekly section
    asking.py    one answer: cached, or asked and asked again once when the guard objects
    known.py     what the guards check against: each window's items and roles, card sources
    budgets.py   cards per call, completion tokens per answer

The analyst reads the facts bundle the report writer lays out (facts/daily.py `DayFacts`,
facts/weekly.py `WeekFacts`). `report/daily.py` takes an `Analyst` and uses a slot's validated
text when there is one; the deterministic writer is the default and the fallback.
"""

from tidings.analysis.analyst import Analysis, Analyst

__all__ = ["Analysis", "Analyst"]
