"""The weekly reduce step: one handler per kind of weekly section, each asking for its
section's answer (analysis/weekly.py builds the facts), checking it against the week's rows
and filing what passes by slot."""

from __future__ import annotations

from collections.abc import Callable

from tidings.analysis import prompts
from tidings.analysis.asking import SectionCall, exact_keys, exact_numbers, objections
from tidings.analysis.budgets import BATCH_WRAPPER_TOKENS, WEEKLY_TOKENS
from tidings.analysis.objections import section_verdicts, text_verdicts
from tidings.analysis.result import HighlightGroup
from tidings.analysis.schemas import HighlightsAnswer, KeyedBatch, RiskBatch
from tidings.analysis.weekly import WeeklyJob
from tidings.facts.slots import RISK_PARTS, RiskText, Section, Slot

Handler = Callable[[SectionCall, WeeklyJob], None]


def _highlights(call: SectionCall, job: WeeklyJob) -> None:
    """The model's technical directions, each with the week's merged PRs that carry it (only
    PRs the section listed stay)."""
    out, guard, section = call.out, call.guard, call.section
    members = {x["number"] for x in job.payload["prs"]}
    hl = call.answer(
        HighlightsAnswer,
        prompts.WEEKLY_TASK[section],
        WEEKLY_TOKENS[section],
        lambda a: objections(section_verdicts(section, job.payload, a, guard)),
    )
    if hl is None:
        out.usage.failures += 1
        return
    for group in hl.themes:
        numbers = tuple(dict.fromkeys(n for n in group.numbers if n in members))
        text = call.kept(text_verdicts("text", group.text, guard))
        theme = call.kept(text_verdicts("theme", group.theme, guard))
        if not numbers or text is None or theme is None:
            out.usage.dropped_sentences += 1
            continue
        out.highlights.append(HighlightGroup(theme.rstrip("。."), text, numbers))
    if not out.highlights:
        out.usage.failures += 1


def _risks(call: SectionCall, job: WeeklyJob) -> None:
    """An observation and a follow-up for each PR of the risk observations."""
    out, guard, section = call.out, call.guard, call.section
    wanted = [x["number"] for x in job.payload["prs"]]
    risks = call.answer(
        RiskBatch,
        prompts.WEEKLY_TASK[section],
        WEEKLY_TOKENS[section] * len(wanted) + BATCH_WRAPPER_TOKENS,
        lambda a: objections(section_verdicts(section, job.payload, a, guard)),
        check=lambda a: exact_numbers(wanted, [x.number for x in a.items]),
    )
    if risks is None:
        out.usage.failures += len(RISK_PARTS) * len(wanted)
        return
    for r in risks.items:
        for part in RISK_PARTS:
            text = call.kept(text_verdicts(part, getattr(r, part), guard))
            if text is None:
                out.usage.failures += 1
            else:
                out.texts[RiskText(r.number, part)] = text


def _keyed(call: SectionCall, job: WeeklyJob) -> None:
    """One text per key the section listed (`job.keys`: themes, follow-up groups, tracks and
    their listed issues or open PRs; merged PRs already have their summaries)."""
    out, guard, section = call.out, call.guard, call.section
    wanted = [key for key, _ in job.keys]
    slots = dict(job.keys)
    keyed = call.answer(
        KeyedBatch,
        prompts.WEEKLY_TASK[section],
        WEEKLY_TOKENS[section] * len(wanted) + BATCH_WRAPPER_TOKENS,
        lambda a: objections(section_verdicts(section, job.payload, a, guard)),
        check=lambda a: exact_keys(wanted, [x.key for x in a.items]),
    )
    if keyed is None:
        out.usage.failures += len(wanted)
        return
    for x in keyed.items:
        text = call.kept(text_verdicts(x.key, x.text, guard))
        slot = slots.get(x.key)  # a cached answer is not checked against the keys again
        if text is None:
            out.usage.failures += 1
        elif slot is not None:
            out.texts[slot] = text


def _text(slot: Slot) -> Handler:
    """A section of one text, filed under `slot`."""

    def handle(call: SectionCall, job: WeeklyJob) -> None:
        task = prompts.WEEKLY_TASK.get(call.section)
        call.write_text(
            slot, task or prompts.SECTION_TASK[call.section] + "\n" + prompts.SECTION_SHAPE
        )

    return handle


HANDLERS: dict[str, Handler] = {
    "weekly_highlights": _highlights,
    "weekly_risks": _risks,
    "weekly_themes": _keyed,
    "weekly_follow_ups": _keyed,
    "weekly_tracks": _keyed,
    "weekly_exec": _text(Section("exec")),
    "weekly_trends": _text(Section("module_trends")),
    "weekly_summary": _text(Section("summary")),
}
