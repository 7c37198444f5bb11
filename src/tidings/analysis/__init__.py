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

The analyst reads the facts bundle the report writer lays out (facts/daily.py `DayFacts`,
facts/weekly.py `WeekFacts`). `report/daily.py` takes an `Analyst` and uses a slot's validated
text when there is one; the deterministic writer is the default and the fallback.
"""

from tidings.analysis.analyst import Analysis, Analyst

__all__ = ["Analysis", "Analyst"]
