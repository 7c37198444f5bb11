"""A capable model's answers replayed to the vllm-ascend 2026-W33 weekly (issue 21's bar).

../shared/data/model-eval/vllm-ascend-2026-W33-zh.jsonl holds the 30 first prompts tidings sent
for the zh weekly of vllm-project/vllm-ascend, 2026-W33, and a capable model's answer to each.
Here the same week is built again through the public API (`tidings.build_weekly`), with `[llm]`
pointing at testkit's RecordedOpenAI loaded with those answers: by exact prompt where the prompt
is unchanged, else by task and item number (a PR card batch is composed from the per-PR answers
for exactly the PRs asked), and a follow-up gets the same first answer (a model that does not
adapt). The bar: at most 3 follow-ups, at most 3 dropped sentences, no rule fallback.

What the store must hold for the replay to mean anything (the cards must carry the evidence the
answers were written from):
- The config the recorded prompts imply: the week label 2026-W33 in Asia/Shanghai (104 merged
  PRs, 111 the week before, as the weekly_exec prompt says), zh, no topic tracks (there is no
  weekly_tracks prompt), the default five key changes a day (the other merged PRs' cards are
  the lite ones: 350-character bodies, 8 files), and core paths that give the 37 `core_path`
  PRs of the prompts: worker/, core/, attention/, distributed/, ops/fused_moe/ and platform.py
  under vllm_ascend/ (every path the prompts' `core_path` evidence names is under one of them,
  and ops/triton/ files in PRs without the tag are not).
- The diffs. The store is built from ../shared/data/vllm-ascend-commits.jsonl as
  tests/sources/test_vllm_ascend.py builds it (testkit/gitlog.py `render_log` ->
  `tidings.sources.git.ingest`); those records carry no diff text, so its PR files have no
  patch, while the recording's store (synced with `sync --git` from a real clone) had them:
  without them the cards lack every `added_code` line and `hunk` the answers quote (a note's
  `evidence` then "quotes no text of the card" and is dropped), and the rules that read added
  lines stay silent (no `assert_validation` at all, 6 PRs in the prompts). So, at test time,
  the added lines the recorded prompts showed (each card's `added_code` and the `hunk` around
  each tag's evidence line, with the blank lines the hunks' lengths imply) are written into
  those PR files' `patch` as added-line patches, the form an older git sync stored (removed
  lines unknown); read from ../shared at run time, never copied into the repository.
- The risk tags. With those lines the rules give the recorded tags for 98 of the 104 PRs
  (assert_validation and the switched-off test of #14189 included); the other 6 depend on
  removed lines no prompt showed: `tests_removed`, which the recording judged by lost lines
  and dropped test cases and the store can judge only by each test file's counts (which fire
  it on 5 PRs the recording did not tag), and a pinned commit that moved (#13477's
  `dependency_change`). Their tags decide which PRs the weekly_risks and
  weekly_follow_ups sections are asked about and the counts the executive summary reads, so
  a replay with other tags asks for PRs no answer was written for. The rules' output for the
  recorded PRs is therefore replaced by the tags (with their evidence: paths, lines, numbers
  such as `lost_lines` and `tests_dropped`) the recorded prompts carry.
`test_the_replay_reproduces_the_recorded_prompts` holds that reconstruction to the recording:
the replay asks about the recorded PRs and sections, each card carries its recorded tags and
every code line its recorded card showed, and every prompt is answered from the recording. At
commit 2497fee all 104 cards are the recorded ones to the byte and 25 of the 30 first prompts
match exactly (the diagnostic's first line counts both); the others are answered by task and
item: the sections that list PR summaries (the guard cut some), and weekly_trends, whose one
figure of the week before differs (vllm_ascend/distributed 4,286 changed lines against the
recording's 4,284: the commit records against the clone).

Since issue 21's card evidence the cards differ from the recorded ones (the description
without its template, `diff` chosen by relevance), so every prompt is answered by task and
item. A note whose quote the new card no longer shows still quotes the PR: the guard reads
what each card was cut from (`cards.pr_source`: the whole description and every stored diff
line), here the lines the recording showed.

The diagnostic (each dropped sentence with its objection, each follow-up's objections, each
fallback), for whoever works on the guard:

    PYTHONPATH=$PWD/src:$PWD python -m tests.analysis.test_replay_w33 [--out replay-report.txt]
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from testkit.gitlog import ASCEND, REPO, load_records, render_log
from testkit.servers.openai import data_of
from testkit.servers.recorded import RecordedOpenAI
from testkit.shared import shared_dir

pytestmark = pytest.mark.slow  # a real-size store and week (104 merged PRs): ~15 s

EVAL = shared_dir() / "data" / "model-eval" / "vllm-ascend-2026-W33-zh.jsonl"
NEEDS = "the W33 replay reads the vllm-ascend history and the model-eval answers in ../shared"
WEEK = "2026-W33"
NOW = datetime(2026, 8, 24, tzinfo=ZoneInfo("UTC"))
CORE_PATHS = [
    "vllm_ascend/worker/**",
    "vllm_ascend/core/**",
    "vllm_ascend/attention/**",
    "vllm_ascend/distributed/**",
    "vllm_ascend/ops/fused_moe/**",
    "vllm_ascend/platform.py",
]
# Issue 21, "Done when": replaying the set's first answers to the W33 weekly.
MAX_FOLLOWUPS = 3
MAX_DROPPED = 3
HUNK = 3  # added lines a card shows either side of a tag's evidence line (cards.HUNK_CONTEXT)
GAP = [""] * (HUNK + 1)  # between two stretches of shown lines: no hunk reaches across
# Longer than any line a card shows (cards.CODE_LINE, 160 characters): `added_code` stops at it.
STOPPER = "# " + "lines of this file the recorded prompt did not show; " * 4


def config_text(base_url: str) -> str:
    paths = ", ".join(json.dumps(p) for p in CORE_PATHS)
    return f"""
[llm]
base_url = "{base_url}"
model = "standin"
structured_output = "json_schema"
# The 30 first prompts are ~90k tokens by the bytes/4 estimate and each follow-up sends its
# prompt again: a budget cut would read as fallbacks, so there is none.
token_budget = 10000000

[[repos]]
name = "{REPO}"
display_name = "vLLM Ascend"
timezone = "Asia/Shanghai"
language = "zh"
core_paths = [{paths}]
"""


# -- what the recorded prompts showed ------------------------------------------------------------


def eval_records(path: Path = EVAL) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def recorded_cards(records: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Each PR card the recorded pr_cards prompts carried, by number."""
    out: dict[int, dict[str, Any]] = {}
    for r in records:
        data = data_of(r["request"]) or {}
        if data.get("task") == "pr_cards":
            out |= {card["number"]: card for card in data["items"]}
    return out


def _overlay(lines: list[str], window: list[str]) -> list[str] | None:
    """`lines` with `window` laid over it where the two overlap most; None where they do not."""
    best: tuple[int, int] | None = None
    for offset in range(-len(window) + 1, len(lines)):
        lo, hi = max(0, offset), min(len(lines), offset + len(window))
        fits = hi > lo and all(lines[i] == window[i - offset] for i in range(lo, hi))
        if fits and (best is None or hi - lo > best[0]):
            best = (hi - lo, offset)
    if best is None:
        return None
    offset = best[1]
    return window[: max(0, -offset)] + lines + window[max(0, len(lines) - offset) :]


def _blanks(lines: list[str], windows: list[tuple[list[str], str]]) -> list[str]:
    """`lines` (non-blank, as hunks show them) with the blank lines put back that make each
    window what `cards._around` cut around its evidence line: HUNK around it, blanks
    dropped. A window shorter than 2 * HUNK + 1 lines had blanks (or the file's edge) in
    reach; a small search finds how many blanks go in each gap (0-3; none if nothing fits)."""
    n = len(lines)
    # (first gap, last gap, low, high): low <= blanks in gaps first..last <= high; gap g is
    # between lines[g - 1] and lines[g].
    rules: list[tuple[int, int, int, int]] = []
    for window, code in windows:
        p = next((i for i, x in enumerate(lines) if x.strip() == code.strip()), None)
        starts = [
            o
            for o in range(n - len(window) + 1)
            if lines[o : o + len(window)] == window and p is not None and o <= p < o + len(window)
        ]
        if p is None or not starts:
            continue
        s, e = starts[0], starts[0] + len(window) - 1
        rules.append((s + 1, p, 0, HUNK - (p - s)))
        rules.append((p + 1, e, 0, HUNK - (e - p)))
        if s > 0:
            rules.append((s, p, HUNK + 1 - (p - s + 1), 99))
        if e < n - 1:
            rules.append((p + 1, e + 1, HUNK + 1 - (e + 1 - p), 99))
    gaps = [0] * (n + 1)
    steps = [0]

    def fits(upto: int) -> bool:
        for first, last, low, high in rules:
            if first > upto:
                continue
            total = sum(gaps[first : min(last, upto) + 1])
            if total > high or (last <= upto and total < low):
                return False
        return True

    def search(g: int) -> bool:
        steps[0] += 1
        if g >= n:
            return True
        if steps[0] > 200_000:
            return False
        for value in range(HUNK + 1):
            gaps[g] = value
            if fits(g) and search(g + 1):
                return True
        gaps[g] = 0
        return False

    if not rules or not search(1):
        gaps = [0] * (n + 1)
    out: list[str] = []
    for g, line in enumerate(lines):
        out += [""] * gaps[g] + [line]
    return out


def shown_patch(added: list[str], windows: list[tuple[list[str], str]]) -> str:
    """A file's added lines as the recorded card showed them: its first added lines
    (`added_code`) and, laid in, the lines around each tag's evidence line (`hunk`, with its
    `code`). A stretch that does not join the first lines follows a line too long for any
    card (so `added_code` stops where the recorded card stopped) and gaps of blank lines (so
    no hunk reaches across)."""
    stretches: list[tuple[list[str], list[tuple[list[str], str]]]] = [(list(added), [])]
    for window, code in windows:
        for k, (lines, held) in enumerate(stretches):
            laid = _overlay(lines, window)
            if laid is not None:
                stretches[k] = (laid, [*held, (window, code)])
                break
        else:
            stretches.append((list(window), [(window, code)]))
    out = _blanks(*stretches[0])
    if len(stretches) > 1:
        out += [*GAP, STOPPER]
        for lines, held in stretches[1:]:
            out += GAP + _blanks(lines, held)
    return "\n".join(out)


def shown_patches(cards: dict[int, dict[str, Any]]) -> dict[int, dict[str, str]]:
    """Per PR and path, the added-line patch the recorded card shows (`shown_patch`)."""
    out: dict[int, dict[str, str]] = {}
    for number, card in cards.items():
        added = {a["path"]: list(a["added"]) for a in card["added_code"]}
        windows: dict[str, list[tuple[list[str], str]]] = {}
        for tag in card["risk_tags"]:
            for e in tag["evidence"]:
                if e.get("path") and e.get("code"):
                    hunk = list(e.get("hunk") or [e["code"]])
                    windows.setdefault(e["path"], []).append((hunk, e["code"]))
        paths = sorted(set(added) | set(windows))
        if paths:
            out[number] = {
                path: shown_patch(added.get(path, []), windows.get(path, [])) for path in paths
            }
    return out


# -- the store ------------------------------------------------------------------------------------


def build_store(url: str, cards: dict[int, dict[str, Any]]) -> Any:
    """The vllm-ascend store with the shown added lines in its W33 PR files."""
    from tidings.sources.git import ingest, parse_log
    from tidings.store import Store, schema

    commits = load_records(ASCEND)
    store = Store.open(url)
    ingest(store, REPO, parse_log(render_log(commits)), commits[0]["sha"])
    pf = schema.pr_files
    with store.begin() as conn:
        for number, files in shown_patches(cards).items():
            for path, patch in files.items():
                done = conn.execute(
                    pf.update().where(pf.c.number == number, pf.c.path == path).values(patch=patch)
                )
                assert done.rowcount == 1, f"#{number} has no file {path}"
    return store


@contextmanager
def recorded_tags(cards: dict[int, dict[str, Any]]) -> Iterator[None]:
    """The rules' risk tags for the recorded PRs replaced by the tags their cards carried."""
    from tidings.facts import risk

    rules = risk._Rules
    original = rules.assess

    def assess(self: Any, pr: Any) -> list[Any]:
        card = cards.get(pr.number)
        if card is None:
            return original(self, pr)
        return [
            risk.RiskTag(
                tag=t["tag"],
                weight=self.weights[t["tag"]],
                evidence=[
                    risk.Evidence(
                        path=e.get("path"), line=e.get("code"), numbers=dict(e.get("numbers", {}))
                    )
                    for e in t["evidence"]
                ],
            )
            for t in card["risk_tags"]
        ]

    rules.assess = assess  # type: ignore[method-assign]
    try:
        yield
    finally:
        rules.assess = original  # type: ignore[method-assign]


# -- what the guard did, as it happened -----------------------------------------------------------


@dataclass
class Dropped:
    where: str  # "#13982" (a PR card's summary, why or notes), "weekly_risks", ...
    sentence: str
    objections: list[str]


@dataclass
class Spy:
    """What the analyst did to the answers, by where: each dropped sentence with the guard's
    objection, and every count it raised (`dropped_sentences`, `failures`, the latter being
    the report's rule fallbacks), attributed on the thread that raised it."""

    dropped: list[Dropped] = field(default_factory=list)
    counts: list[tuple[str, str, int]] = field(default_factory=list)  # (count, where, by)
    lock: threading.Lock = field(default_factory=threading.Lock)
    local: threading.local = field(default_factory=threading.local)

    def where(self) -> str:
        return getattr(self.local, "where", None) or "a model call"

    @contextmanager
    def at(self, where: str) -> Iterator[None]:
        before = getattr(self.local, "where", None)
        self.local.where = where
        try:
            yield
        finally:
            self.local.where = before

    def by_where(self, count: str) -> list[tuple[str, int]]:
        out: dict[str, int] = {}
        for name, where, n in self.counts:
            if name == count:
                out[where] = out.get(where, 0) + n
        return list(out.items())


SECTIONS = ("summary", "topic", "trends", "activity", "watch")  # a daily's, by task name


def _where(args: tuple[Any, ...]) -> str | None:
    """Where an analyst step works, from its arguments: a card's `#N`, or a section name
    (given as such, or as a job's `section`)."""
    for arg in args:
        if isinstance(arg, dict) and isinstance(arg.get("number"), int):
            return f"#{arg['number']}"
    for arg in args:
        name = getattr(arg, "section", arg)
        if isinstance(name, str) and (name.startswith("weekly_") or name in SECTIONS):
            return name
    return None


@contextmanager
def spying() -> Iterator[Spy]:
    """Wraps the analyst's steps (analysis/analyst.py) so the diagnostic can say which sentence
    went, why, and where each fallback happened; the report is built exactly as without it.

    It needs little of the analyst: `Analysis.usage` (every count is attributed on the thread
    that raises it, so the counts by where are exact), and the step methods `take_pr` and
    `take_hot` (mapping.py's `Mapper`; before, the analyst's `_take_pr`, `_take_hot`),
    `_reduce` and `_weekly` to say where. The dropped sentences themselves come from
    whichever guard interface the analyst has: `guarded(out, verdicts)` (asking.py's `Asker`;
    before, the analyst's `_guarded`) with each verdict's `sentence` and `problems`, or
    (commit 2497fee) the module's `keep_faithful`, with `_text_objections` for the objection
    line, and the notes whose `evidence` is not in the card. A step it cannot find is left
    alone: its drops are then counted, not quoted."""
    import contextlib
    import importlib

    from tidings.analysis import analyst as a
    from tidings.analysis.provider import Usage
    from tidings.analysis.schemas import PRAnswer

    spy = Spy()
    owners: list[Any] = [a.Analyst]
    for module, name in (("mapping", "Mapper"), ("asking", "Asker")):
        # Absent in an analyst from before the split: its steps are its own methods.
        with contextlib.suppress(ImportError, AttributeError):
            owners.append(getattr(importlib.import_module(f"tidings.analysis.{module}"), name))

    class Counted(Usage):
        def __setattr__(self, name: str, value: Any) -> None:
            if name in ("failures", "dropped_sentences") and name in self.__dict__:
                raised = value - self.__dict__[name]
                if raised > 0:
                    with spy.lock:
                        spy.counts.append((name, spy.where(), raised))
            super().__setattr__(name, value)

    def note(where: str, sentence: str, objections: list[str]) -> None:
        with spy.lock:
            spy.dropped.append(Dropped(where, sentence, objections))

    originals: dict[str, tuple[Any, Any]] = {}  # name -> (where it was found, the original)
    wrappers: dict[str, Callable[..., Any]] = {}

    def original(name: str) -> Any:
        return originals[name][1]

    def start(self: Any) -> Any:
        out = original("_start")(self)
        out.usage = Counted()
        return out

    wrappers["_start"] = start

    def step(name: str) -> Callable[..., Any]:
        def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
            with spy.at(_where(args) or spy.where()):
                result = original(name)(self, *args, **kwargs)
                if name in ("take_pr", "_take_pr"):
                    quotes_no_text(args)
                return result

        return wrapped

    for name in ("take_pr", "take_hot", "_take_pr", "_take_hot", "_reduce", "_weekly"):
        wrappers[name] = step(name)

    def quotes_no_text(args: tuple[Any, ...]) -> None:
        """2497fee drops a note whose evidence the card lacks before the guard reads it."""
        flat, quoted = getattr(a, "_flat", None), getattr(a, "_quoted", None)
        card = next((x for x in args if isinstance(x, dict) and "number" in x), None)
        answer = next((x for x in args if isinstance(x, PRAnswer)), None)
        if flat is None or quoted is None or card is None or answer is None:
            return
        text = flat(card)
        for n in answer.notes:
            if not quoted(n.evidence, text):
                objection = f"evidence {n.evidence!r} quotes no text of the card"
                note(spy.where(), f"(note) {n.text}", [objection])

    def guarded(name: str) -> Callable[..., Any]:
        def wrapped(self: Any, out: Any, *args: Any, **kwargs: Any) -> Any:
            verdicts = args[0] if args else None
            if isinstance(verdicts, list) and all(hasattr(v, "problems") for v in verdicts):
                for v in verdicts:
                    if v.problems:
                        note(spy.where(), str(v.sentence), [str(p) for p in v.problems])
            return original(name)(self, out, *args, **kwargs)

        return wrapped

    for name in ("guarded", "_guarded"):
        wrappers[name] = guarded(name)
    keep = getattr(a, "keep_faithful", None)

    def keep_faithful(text: str, guard: Any, *, speaker: str | None = None) -> Any:
        kept, dropped = original("keep_faithful")(text, guard, speaker=speaker)
        if dropped:
            split = getattr(a, "sentences", None)
            check = getattr(a, "problems", None)
            objections = getattr(a, "_text_objections", None)
            try:
                gone = [x for x in split(text) if check(x, guard, speaker=speaker)]  # type: ignore[misc]
            except TypeError:  # the guard's interface moved: the text as a whole
                gone = [text]
            for x in gone:
                try:
                    found = list(objections(x, guard, speaker))  # type: ignore[misc]
                except TypeError:
                    found = []
                note(spy.where(), x, found)
        return kept, dropped

    for name, wrapper in wrappers.items():
        owner = next((x for x in owners if name in vars(x)), None)
        if owner is not None:
            originals[name] = (owner, getattr(owner, name))
            setattr(owner, name, wrapper)
    if keep is not None:
        originals["keep_faithful"] = (a, keep)
        setattr(a, "keep_faithful", keep_faithful)  # noqa: B010 (a name mypy cannot see)
    try:
        yield spy
    finally:
        for name, (owner, value) in originals.items():
            setattr(owner, name, value)


# -- the replay ---------------------------------------------------------------------------------


@dataclass
class Replay:
    report: Any  # tidings.WeeklyReport
    llm: RecordedOpenAI
    spy: Spy
    cards: dict[int, dict[str, Any]]  # the recorded cards
    warnings: list[str]

    @property
    def followups(self) -> int:
        return self.llm.followups

    @property
    def dropped(self) -> int:
        return int(self.report.provenance.llm.dropped_sentences)

    @property
    def fallbacks(self) -> int:
        return int(self.report.provenance.llm.fallbacks)

    def figures(self) -> str:
        sent = sent_cards(self.llm)
        same = sum(sent.get(n) == card for n, card in self.cards.items())
        exact = sum(r.how == "prompt" for r in self.llm.requests if not r.followup)
        firsts = sum(not r.followup for r in self.llm.requests)
        return (
            f"{same} of {len(self.cards)} PR cards as recorded, {exact} of {firsts} first "
            f"prompts as recorded; "
            f"{self.llm.calls} requests, {self.followups} follow-ups (bar {MAX_FOLLOWUPS}), "
            f"{self.dropped} dropped sentences (bar {MAX_DROPPED}), {self.fallbacks} rule "
            f"fallbacks (bar 0), {self.llm.unanswered} unanswered"
        )


def replay(folder: Path, records: list[dict[str, Any]] | None = None) -> Replay:
    """Build the W33 weekly against the recorded answers; `folder` holds the store and the
    endpoint's missing.jsonl."""
    import tidings
    from tidings.common.config import parse_config

    records = records if records is not None else eval_records()
    cards = recorded_cards(records)
    store = build_store(f"sqlite:///{folder / 'ascend.db'}", cards)
    try:
        with (
            RecordedOpenAI(records, folder=folder) as llm,
            recorded_tags(cards),
            spying() as spy,
            warnings.catch_warnings(record=True) as caught,
        ):
            warnings.simplefilter("always")
            config = parse_config(config_text(llm.base_url))
            report = tidings.build_weekly(store, REPO, WEEK, "zh", config=config, llm=True, now=NOW)
    finally:
        store.close()
    return Replay(report, llm, spy, cards, [str(w.message) for w in caught])


@pytest.fixture(scope="module")
def w33(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    from tests.shared import shared_or_skip

    shared_or_skip(ASCEND, NEEDS)
    shared_or_skip(EVAL, NEEDS)
    return replay(tmp_path_factory.mktemp("replay-w33"))


def sent_cards(llm: RecordedOpenAI) -> dict[int, dict[str, Any]]:
    """The PR cards of the replay's first-turn pr_cards prompts, by number."""
    out: dict[int, dict[str, Any]] = {}
    for r in llm.requests:
        data = data_of(r.body) or {}
        if data.get("task") == "pr_cards" and not (r.followup or r.repair):
            out |= {card["number"]: card for card in data["items"]}
    return out


def test_the_replay_reproduces_the_recorded_prompts(w33: Replay) -> None:
    """The reconstruction holds (see the module's docstring): the replay asks about the
    recorded PRs and sections, each answer is recorded, each card carries the tags its
    recorded card carried, and the code each card shows is code the recorded card showed
    (the store holds no other). The cards themselves differ from the recorded ones on
    purpose (issue 21's evidence: `diff` chooses its lines by relevance where `added_code`
    took the first ones), so the replay answers by task and number."""
    sent = sent_cards(w33.llm)
    assert sorted(sent) == sorted(w33.cards)
    for number, card in w33.cards.items():
        tags = [t["tag"] for t in card["risk_tags"]]
        assert [t["tag"] for t in sent[number]["risk_tags"]] == tags, number
        shown = {x.strip() for a in card["added_code"] for x in a["added"]}
        shown |= {
            x.strip()
            for t in card["risk_tags"]
            for e in t["evidence"]
            for x in [e.get("code") or "", *(e.get("hunk") or [])]
        }
        # The stopper is this test's own filler between stretches of shown lines.
        drawn = [x.strip() for d in sent[number]["diff"] for x in d["added"]]
        drawn = [x for x in drawn if not STOPPER.startswith(x.removesuffix(" …"))]
        foreign = [x for x in drawn if x and x.removesuffix(" …") not in shown]
        foreign = [x for x in foreign if not any(y.startswith(x.removesuffix(" …")) for y in shown)]
        assert not foreign, f"#{number}: the card shows code the recording never showed: {foreign}"
    # A git history gives display names, never logins: every section says so too.
    for r in w33.llm.requests:
        data = data_of(r.body) or {}
        for entry in (data.get("facts") or {}).get("prs", []):
            assert entry["author"] is None and entry["author_name"], entry["number"]
    assert {t for t in w33.llm.tasks() if t} == {r["task"] for r in eval_records()}
    assert w33.llm.unanswered == 0 and not w33.llm.missing
    assert w33.llm.repairs == 0  # every composed answer named exactly the items asked
    merged = [p.item.number for p in w33.report.merged]
    assert len(merged) == 104 and set(merged) == set(w33.cards)


def test_first_answers_meet_the_bar(w33: Replay) -> None:
    """Issue 21: at most 3 follow-ups, at most 3 dropped sentences, no rule fallback. The
    endpoint counts the follow-ups (each regeneration the analyst asks for is one follow-up
    request); the report's provenance gives the rest (`provenance.llm.dropped_sentences` and
    `.fallbacks`, the analysis' `dropped_sentences` and `failures`)."""
    assert w33.llm.unanswered == 0, "a replay with unanswered prompts measures nothing"
    assert w33.followups <= MAX_FOLLOWUPS, w33.figures()
    assert w33.dropped <= MAX_DROPPED, w33.figures()
    assert w33.fallbacks == 0, w33.figures()


def test_the_diagnostic_accounts_for_every_followup_drop_and_fallback(w33: Replay) -> None:
    text = diagnostic(w33)
    followups = text.split("== follow-ups", 1)[1].split("\n== ", 1)[0]
    assert followups.count("\n- ") == w33.followups
    assert sum(n for _, n in w33.spy.by_where("dropped_sentences")) == w33.dropped
    assert sum(n for _, n in w33.spy.by_where("failures")) == w33.fallbacks
    drops = text.split("== dropped sentences", 1)[1].split("\n== ", 1)[0]
    listed = sum(
        int(line.split("] ", 1)[1].split(" ", 1)[0]) if "more counted" in line else 1
        for line in drops.splitlines()
        if line.startswith("- [")
    )
    assert listed == w33.dropped


# -- the diagnostic -----------------------------------------------------------------------------


def diagnostic(done: Replay) -> str:
    """Every follow-up with its objections, every dropped sentence with its objection, every
    fallback: what the guard did to the first answers."""
    spy = done.spy
    lines = [f"W33 replay: {done.figures()}", f"endpoint: {done.llm.summary()}", ""]
    followups = [r for r in done.llm.requests if r.followup]
    lines.append(f"== follow-ups ({len(followups)}) ==")
    for r in followups:
        data = data_of(r.body) or {}
        items = [x.get("number") for x in data.get("items", [])]
        lines.append(f"- {r.task}" + (f" {items}" if items else "") + ":")
        lines += [f"    {o}" for o in r.objections]
    counted = ", ".join(f"{w} {n}" for w, n in spy.by_where("dropped_sentences"))
    lines += [
        "",
        f"== dropped sentences ({done.dropped} in the report; by where: {counted}) ==",
    ]
    for d in spy.dropped:
        lines.append(f"- [{d.where}] {d.sentence}")
        lines += [f"    {o}" for o in d.objections] or ["    (the guard gave no objection line)"]
    listed: dict[str, int] = {}
    for d in spy.dropped:
        listed[d.where] = listed.get(d.where, 0) + 1
    for where, n in spy.by_where("dropped_sentences"):
        if n > listed.get(where, 0):
            lines.append(
                f"- [{where}] {n - listed.get(where, 0)} more counted with no sentence of its "
                "own: a whole entry dropped (a highlight theme left without its text, its name "
                "or its PRs)"
            )
    fallbacks = spy.by_where("failures")
    lines += ["", f"== fallbacks ({done.fallbacks} in the report) =="]
    lines += [f"- {where}: {n} part(s) in rules text" for where, n in fallbacks]
    if done.warnings:
        lines += ["", "== warnings ==", *[f"- {w}" for w in done.warnings]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None, out: Callable[[str], Any] = print) -> int:
    import tempfile

    parser = argparse.ArgumentParser(prog="python -m tests.analysis.test_replay_w33")
    parser.add_argument("--out", type=Path, help="also write the list to this file")
    ns = parser.parse_args(argv)
    for path in (ASCEND, EVAL):
        if not path.exists():
            out(f"error: {path} is absent: {NEEDS}")
            return 2
    with tempfile.TemporaryDirectory() as tmp:
        text = diagnostic(replay(Path(tmp)))
    out(text)
    if ns.out is not None:
        ns.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
