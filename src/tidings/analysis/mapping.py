"""The map step: PR and hot-thread cards go to the model in batches; each answer is checked
against its batch (a cached one on its own), and what passes is filed by slot."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from tidings.analysis import prompts
from tidings.analysis.asking import Asker, by_field, exact_numbers
from tidings.analysis.budgets import (
    BATCH_CHARS,
    BATCH_WRAPPER_TOKENS,
    HOT_TOKENS,
    ITEM_TOKENS,
    MAX_PER_BATCH,
)
from tidings.analysis.known import Known
from tidings.analysis.objections import Verdict, batch_guards, hot_verdicts, pr_verdicts
from tidings.analysis.result import Analysis
from tidings.analysis.schemas import HotAnswer, HotBatch, PRAnswer, PRBatch
from tidings.common.config import Lang
from tidings.facts.activity_data import WindowData
from tidings.facts.slots import HOT_PARTS, HotText, HotView, PRSummary, PRWhy


class Mapper:
    def __init__(self, asker: Asker, known: Known) -> None:
        self.asker = asker
        self.known = known

    def calls(
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
        asker = self.asker
        keys = {c["number"]: asker.key(kind, c, lang) for c in cards}
        cached = asker.cache.get_many(list(keys.values()))
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
                self.take(out, data, card, answer, None)
            else:
                todo.append(card)
        task = prompts.PR_TASK if kind == "pr" else prompts.HOT_TASK
        system = prompts.system_prompt(task, lang)

        window = self.known.window(data)

        def run(batch: list[dict[str, Any]]) -> None:
            wanted = [c["number"] for c in batch]
            by_card = {c["number"]: c for c in batch}
            guards = batch_guards(
                batch, window, cite_batch=kind == "pr", sources=self.known.sources_of(data, batch)
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

            answer, (prompt, completion) = asker.ask(
                out,
                system,
                prompts.data_block(f"{kind}_cards", {"items": batch}),
                batch_schema,
                max_tokens=tokens_per_item * len(batch) + BATCH_WRAPPER_TOKENS,
                objections=objections,
                check=lambda a: exact_numbers(wanted, [x.number for x in a.items]),
            )
            if answer is None:
                out.usage.failures += len(batch)
                return
            by_number = {x.number: x for x in answer.items}
            for card in batch:
                item = by_number[card["number"]]
                found = verdicts(item)
                self.take(out, data, card, item, found)
                if any("describes #" in p for v in found for p in v.problems):
                    continue  # another card's summary: not cached, so a re-run asks again
                asker.cache.put(
                    keys[card["number"]],
                    kind,
                    asker.provider.model,
                    item.model_dump(),
                    prompt_tokens=prompt // len(batch),
                    completion_tokens=completion // len(batch),
                )

        return [functools.partial(run, batch) for batch in batches(todo, per_batch)]

    def take(
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
            sources = self.known.sources_of(data, [card]) if isinstance(answer, PRAnswer) else {}
            guard = batch_guards([card], self.known.window(data), sources=sources)[card["number"]]
            if isinstance(answer, PRAnswer):
                verdicts = pr_verdicts(card, answer, guard)
            else:
                verdicts = hot_verdicts(card, answer, guard)
        if isinstance(answer, PRAnswer):
            self.take_pr(out, card, answer, verdicts)
        else:
            self.take_hot(out, answer, verdicts)

    def take_pr(
        self, out: Analysis, card: dict[str, Any], answer: PRAnswer, verdicts: list[Verdict]
    ) -> None:
        n = card["number"]
        fields = by_field(verdicts)
        summary = self.asker.guarded(out, fields.pop(f"item {n} summary", []))
        if summary is None:
            out.usage.failures += 1
            return
        out.texts[PRSummary(n)] = summary
        why = self.asker.guarded(out, fields.pop(f"item {n} why", []))
        if why is not None:
            out.texts[PRWhy(n)] = why
        out.importance[n] = answer.importance
        notes = [self.asker.guarded(out, found) for found in fields.values()]
        out.notes[n] = [x for x in notes if x]

    def take_hot(self, out: Analysis, answer: HotAnswer, verdicts: list[Verdict]) -> None:
        n = answer.number
        fields = by_field(verdicts)
        for part in HOT_PARTS:
            text = self.asker.guarded(out, fields.pop(f"item {n} {part}", []))
            if text is not None and part == "status":
                text = text.rstrip("。.")  # the renderer follows it with "; linked PRs: …"
            if text is None:
                out.usage.failures += 1
            else:
                out.texts[HotText(n, part)] = text
        for where, found in fields.items():
            # Shown under the participant's name: their own words may be quoted, no one
            # else's; a viewpoint of someone not in the thread is dropped with its reason.
            text = self.asker.guarded(out, found)
            if text:
                out.texts[HotView(n, where.split(" view ", 1)[1])] = text


def batches(cards: list[dict[str, Any]], per_batch: int) -> list[list[dict[str, Any]]]:
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
