"""Asking the model for one answer: from the cache, or fresh and asked once more when the
guard objects, then cached; and a reduce call's context (`SectionCall`), which files a
one-text section's answer under its slot."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel

from tidings.analysis import prompts
from tidings.analysis.budgets import SECTION_TOKENS
from tidings.analysis.cache import LLMCache, cache_key
from tidings.analysis.guard import Facts, join
from tidings.analysis.objections import Verdict, text_verdicts
from tidings.analysis.provider import LLMFailure, Provider
from tidings.analysis.result import Analysis
from tidings.analysis.schemas import SectionAnswer
from tidings.common.config import Lang
from tidings.facts.slots import Slot

A = TypeVar("A", bound=BaseModel)


class Asker:
    """The provider and the answer cache, as every step of a report asks them."""

    def __init__(self, provider: Provider, cache: LLMCache) -> None:
        self.provider = provider
        self.cache = cache

    def key(self, kind: str, payload: Any, lang: str) -> str:
        params = {
            "temperature": self.provider.settings.temperature,
            "structured_output": self.provider.settings.structured_output,
        }
        return cache_key(kind, payload, model=self.provider.model, params=params, lang=lang)

    def ask(
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

    def cached(self, out: Analysis, key: str, schema: type[A]) -> A | None:
        value = self.cache.get_many([key]).get(key)
        if value is None:
            return None
        try:
            answer = schema.model_validate(value)
        except ValueError:
            return None
        out.usage.cache_hits += 1
        return answer

    def section(
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
        key = self.key(f"section:{section}", payload, lang)
        answer = self.cached(out, key, schema)
        if answer is not None:
            return answer
        fresh, (prompt, completion) = self.ask(
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

    def guarded(self, out: Analysis, verdicts: list[Verdict]) -> str | None:
        """The sentences the guard lets stay, as one text; counts the ones it drops."""
        kept = [v.sentence for v in verdicts if not v.problems]
        out.usage.dropped_sentences += len(verdicts) - len(kept)
        return join(kept) or None


@dataclass(frozen=True)
class SectionCall:
    """One reduce call: the section's facts, the guard built from them, and where its answer
    is counted and filed."""

    asker: Asker
    out: Analysis
    lang: Lang
    section: str
    payload: dict[str, Any]
    guard: Facts

    def answer(
        self,
        schema: type[A],
        task: str,
        max_tokens: int,
        objections: Callable[[A], list[str]],
        check: Callable[[A], str | None] | None = None,
    ) -> A | None:
        return self.asker.section(
            self.out,
            self.lang,
            self.section,
            self.payload,
            schema,
            task,
            max_tokens,
            objections,
            check,
        )

    def kept(self, verdicts: list[Verdict]) -> str | None:
        return self.asker.guarded(self.out, verdicts)

    def write_text(self, slot: Slot, task: str) -> None:
        """A section of one text: ask (or read the cache), keep what the guard passes, and
        file it under `slot`; a failure when nothing is left."""
        guard = self.guard
        answer = self.answer(
            SectionAnswer,
            task,
            SECTION_TOKENS,
            lambda a: objections(text_verdicts("text", a.text, guard)),
        )
        text = self.kept(text_verdicts("text", answer.text, guard)) if answer is not None else None
        if text is None:
            self.out.usage.failures += 1
        else:
            self.out.texts[slot] = text


def objections(verdicts: list[Verdict]) -> list[str]:
    return [v.objection() for v in verdicts if v.problems]


def by_field(verdicts: list[Verdict]) -> dict[str, list[Verdict]]:
    out: dict[str, list[Verdict]] = {}
    for v in verdicts:
        out.setdefault(v.where, []).append(v)
    return out


def exact_numbers(wanted: list[int], got: list[int]) -> str | None:
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


def exact_keys(wanted: list[str], got: list[str]) -> str | None:
    if sorted(got) == sorted(wanted):
        return None
    return f"answer exactly one entry for each key of {wanted}, got {got}"
