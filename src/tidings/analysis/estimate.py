"""What reports would cost the model, from the answer cache as it stands, before any is asked.

`tidings run` writes a repository's due reports one after another on the run's one token
budget ([llm] token_budget), and once it is spent the rules write the rest. So before it starts
a repository's reports it builds them once with an analyst whose provider asks nothing
(`Estimator`): every answer the cache holds is read as usual, and every request that would go
out is counted (the provider's own estimate of the prompt, bytes / 4, and half the answer's
token limit) and fails, so the rules write that part and the report
goes on to its next request. A request the run would make twice (a daily's PR cards, which its
week's report batches the same way) counts once.

The figure is an estimate: an answer's length is guessed from its limit, and a section's
request lacks the PR summaries the map step would have given it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pydantic import BaseModel

from tidings.analysis.provider import LLMFailure, Provider, prompt_tokens

if TYPE_CHECKING:
    from tidings.analysis.analyst import Analyst


# An answer's expected length, as a share of its limit: the limits are 1.5 times the longest
# answer a capable model wrote for these prompts (analysis/budgets.py), and most are shorter.
ANSWER_SHARE = 2


class Estimated(LLMFailure):
    """The request was counted, not sent."""


class Estimator(Provider):
    """A provider that asks nothing and counts what it would have asked (see the module)."""

    def __init__(self, provider: Provider) -> None:
        super().__init__(provider.settings)
        self.tokens = 0
        self.requests = 0
        self._seen: set[str] = set()

    def _complete(
        self, messages: list[dict[str, str]], schema: type[BaseModel], max_tokens: int
    ) -> str:
        digest = hashlib.sha256(json.dumps([messages, max_tokens]).encode()).hexdigest()
        with self._lock:
            if digest not in self._seen:
                self._seen.add(digest)
                self.requests += 1
                self.tokens += prompt_tokens(messages) + max_tokens // ANSWER_SHARE
        raise Estimated("counted, not asked")


@dataclass
class Plan:
    """The estimated cost of a repository's due reports, by language."""

    tokens: dict[str, int] = field(default_factory=dict)
    requests: int = 0
    reports: int = 0
    # Each report's estimate in the order they are written: (name, tokens).
    entries: list[tuple[str, int]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.tokens.values())

    def first_short(self, left: int) -> tuple[str, int] | None:
        """The first report the budget `left` would not cover in full, and how many come
        after it; None when all fit."""
        for k, (name, tokens) in enumerate(self.entries):
            left -= tokens
            if left < 0:
                return name, len(self.entries) - k - 1
        return None


def plan_reports(
    analyst: Analyst, reports: Sequence[tuple[str, str, Callable[[Analyst], object]]]
) -> Plan:
    """Build each report (name, language, build with an analyst; None for a report it will
    not write), in the order they will be written, on an estimating twin of `analyst` sharing
    its cache; what they would ask."""
    from tidings.analysis.analyst import Analyst

    estimator = Estimator(analyst.provider)
    twin = Analyst(estimator, analyst.cache, max_concurrency=1)
    plan = Plan()
    for name, lang, build in reports:
        before = estimator.tokens
        if build(twin) is None:
            continue  # not due after all (a window the store does not cover)
        cost = estimator.tokens - before
        plan.tokens[lang] = plan.tokens.get(lang, 0) + cost
        plan.entries.append((name, cost))
        plan.reports += 1
    plan.requests = estimator.requests
    return plan
