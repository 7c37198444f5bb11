"""What every section of the weekly writer shares: the report's words, links to the week's
PRs and items, and the rules' phrases several sections use (a PR's kind and area, reverts
and re-lands, re-formatted lines, quotes, theme names)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tidings.common.config import Lang, RepoConfig
from tidings.facts.actors import is_bot
from tidings.facts.change_kinds import ChangeKind, change_area, change_kind
from tidings.facts.risk import MergedPR
from tidings.facts.week_bundle import WeekBundle
from tidings.report.effects import EFFECT_CHARS, stated_effect
from tidings.report.excerpt import excerpt
from tidings.report.model import ItemRef, Prose
from tidings.report.writing import SlotText, item_ref
from tidings.words.weekly import theme_name_zh, wt

if TYPE_CHECKING:  # the model layer (and its SDK) loads only when a model is used
    from tidings.analysis.result import Analysis

# How much of a PR's own summary the rules quote: a Chinese report keeps English to titles and
# short quotes, so it quotes less, and an English quote less again than a Chinese one (enough
# for the gist; the link has the rest).
QUOTE_CHARS: dict[Lang, int] = {"zh": 70, "en": 160}
QUOTE_CHARS_LATIN_ZH = 48
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")
_CJK = re.compile(r"[\u3400-\u9fff]")


class WeekWriter(SlotText):
    """The week's facts and lists (`week`, computed once: facts/week_bundle.py), the
    report's language and the model's texts (None: no model ran), with the helpers the
    section writers (this package's other modules) share."""

    def __init__(
        self,
        repo: RepoConfig,
        lang: Lang,
        week: WeekBundle,
        web_url: str,
        texts: Analysis | None = None,
    ) -> None:
        self.texts = texts
        self.repo = repo
        self.lang = lang
        self.week = week
        self.facts = week.facts
        self.web_url = web_url.rstrip("/")
        self.prs = self.facts.by_number

    # -- words ----------------------------------------------------------------------------

    def t(self, key: str, **values: object) -> str:
        return wt(self.lang, key, **values)

    def join(self, parts: list[str]) -> str:
        return self.t("list_sep").join(parts)

    def sentences(self, parts: list[str]) -> str:
        return ("" if self.lang == "zh" else " ").join(p for p in parts if p)

    # -- links ----------------------------------------------------------------------------

    def ref(self, number: int) -> ItemRef:
        """A merged PR of the week, or an item of the week's data (watch list)."""
        pr = self.prs.get(number)
        url = f"{self.web_url}/{self.repo.name}/pull/{number}"
        if pr is not None:
            git = pr.source == "git"
            return ItemRef(
                number=number,
                kind="pr",
                title=pr.title,
                url=url,
                state="merged",
                author=None if git else pr.author,
                author_is_bot=is_bot(pr.author, pr.author_type, self.repo.bots),
                labels=list(pr.labels),
                author_name=pr.author if git else None,
            )
        item = self.facts.data.items[number]
        return item_ref(item, self.repo.name, self.web_url, self.repo.bots)

    def reverted_ref(self, number: int) -> ItemRef | None:
        """The PR a merged revert undoes, as a link (its title when the store has it)."""
        target = self.facts.reverts.get(number)
        return None if target is None else self.merged_ref(target)

    def reland_refs(self, number: int) -> list[ItemRef]:
        """A re-land's original PR and the revert it undoes, as links (those known)."""
        return (
            [self.merged_ref(n) for n in self.revert_refs(number)]
            if number in self.facts.relands
            else []
        )

    def merged_ref(self, target: int) -> ItemRef:
        """A merged PR as a link, in the week or before it (its title when the store has it)."""
        if target in self.prs or target in self.facts.data.items:
            return self.ref(target)
        return ItemRef(
            number=target,
            kind="pr",
            title=self.facts.reverted.get(target, ""),
            url=f"{self.web_url}/{self.repo.name}/pull/{target}",
            state="merged",  # a revert undoes a merged change
        )

    # -- what a PR is ---------------------------------------------------------------------

    def kind(self, pr: MergedPR) -> ChangeKind:
        return change_kind(
            pr,
            self.repo.test_paths,
            reverts=pr.number in self.facts.reverts,
            sweep=self.facts.sweep(pr.number),
        )

    def area(self, pr: MergedPR) -> str:
        """Where the PR works, in the report's words ("" for the root)."""
        area = change_area(pr, self.repo)
        if area is None:
            return ""
        if area.kind == "dir":
            return self.t("area_dir", name=area.name)
        return self.t(f"area_{area.kind}")

    def revert_refs(self, number: int) -> list[int]:
        """The PR a revert names in the rules' sentences about it (`pr_revert`,
        `fu_revert_one`), or the PRs a re-land names (`pr_reland`): numbers the rules cite,
        so the renderers link them."""
        if number in self.facts.reverts:
            return [self.facts.reverts[number]]
        again = self.facts.relands.get(number)
        return [n for n in (again.original, again.revert) if n is not None] if again else []

    def reland_text(self, number: int, key: str = "pr_reland") -> str | None:
        """What a re-land brings back: "re-lands #6357 (reverted by #6459)" (`pr_reland`) or
        "#6357 (reverted by #6459)" (`reland_of`), with what is known of the two."""
        again = self.facts.relands.get(number)
        if again is None or (again.original is None and again.revert is None):
            return None
        if again.original is not None and again.revert is not None:
            return self.t(key, n=again.original, revert=again.revert)
        if again.original is not None:
            return self.t(f"{key}_original", n=again.original)
        return self.t(f"{key}_revert", revert=again.revert)

    def reland_prose(self, number: int) -> Prose | None:
        what = self.reland_text(number, "reland_of")
        return Prose(text=what, refs=self.revert_refs(number)) if what else None

    def formatting_text(self, number: int, key: str) -> str:
        """How much of the PR only re-formats code (`pr_formatting`, `risk_formatting`): for a
        formatting change always, else from the lines that would make a PR worth a test."""
        found = self.facts.reformatted.get(number)
        if found is None or not (
            found.sweep or found.lines >= self.repo.risk.missing_tests_min_lines
        ):
            return ""
        share = round(100 * found.lines / found.of) if found.of else 100
        return self.t(key, lines=found.lines, share=share)

    # -- quoting ------------------------------------------------------------------------------

    def effect(self, body: str | None, summary: Prose) -> str | None:
        """The effect the PR states, unless its summary already quotes that sentence."""
        return stated_effect(body, EFFECT_CHARS[self.lang], already=summary.text) or None

    def quote(self, body: str | None, title: str) -> str:
        """A short quote of an item's own summary, or "". In a Chinese report an English quote
        is cut shorter, and left out when it mostly repeats the title's words: the title is
        shown beside it, and each English word costs a Chinese reader more than it adds."""
        said = excerpt(body, QUOTE_CHARS[self.lang], title=title)
        if self.lang != "zh" or not said or len(_CJK.findall(said)) * 4 >= len(said):
            return said
        words = [x.lower() for x in _WORD.findall(said)]
        known = {x.lower() for x in _WORD.findall(title)}
        if words and sum(x in known for x in words) * 3 >= len(words) * 2:
            return ""
        return excerpt(body, QUOTE_CHARS_LATIN_ZH, title=title)

    def theme_label(self, kind: str, name: str, count: int | None = None) -> str:
        # In running zh prose a theme goes by its Chinese name; its heading under "key
        # changes" keeps the tag or directory beside it.
        # Two themes may share one (a tag [Ops] and the directory ops/): then the heading's
        # words, which tell them apart.
        native = theme_name_zh(kind, name) if self.lang == "zh" else None
        if native is not None and count is None:
            shared = [x for x in self.week.key_themes if theme_name_zh(x.kind, x.name) == native]
            if len(shared) <= 1:
                return native
            return self.t(f"theme_named_{kind}", native=native, name=name)
        if count is None:
            return self.t(f"theme_title_{kind}", name=name)
        return self.t(f"theme_{kind}", name=name, count=count)
