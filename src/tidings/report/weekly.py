"""Building a weekly report from facts, with the deterministic writer's prose.

Every number, reference and tag comes from facts/ (weekly.py, risk.py, importance.py); every
sentence here states only what those facts show. With a model (`analysis`), `Prose` values
change, never the facts around them: a PR's `summary` and `notes` come from the per-PR map
answers of the week's daily windows (the same cards as the daily reports, so cache hits once
the days were reported; highlights and theme lists show those summaries), and the opening
summary from one reduce call over the week's figures. Everything passes the same validation
and faithfulness guard as the daily report; whatever fails keeps the rules' text.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection

from tidings._version import __version__
from tidings.config import Lang, RepoConfig
from tidings.facts import risk
from tidings.facts.actors import is_bot
from tidings.facts.coverage import data_stops_inside
from tidings.facts.daily import DayFacts
from tidings.facts.evidence import PREvidence
from tidings.facts.importance import top_dirs
from tidings.facts.load.coverage import coverage, has_api_items
from tidings.facts.load.day import load_day
from tidings.facts.load.evidence import window_evidence
from tidings.facts.load.roles import load_roles
from tidings.facts.load.week import load_week
from tidings.facts.reverts import is_revert
from tidings.facts.review_figures import ThreadFigures
from tidings.facts.risk import MergedPR, risk_score
from tidings.facts.topics import SWEPT
from tidings.facts.trends import topic_tags
from tidings.facts.weekly import (
    TRACK_ITEMS,
    FollowGroup,
    Theme,
    Trend,
    WeekFacts,
    WeekInput,
    churn_trends,
    follow_up_groups,
    generated_churn,
    is_plain_directory,
    label_trends,
    main_directory,
    risk_counts,
    risky,
    source_directory,
    tag_trends,
    themes,
)
from tidings.facts.windows import daily_window, weekly_window
from tidings.globs import any_match
from tidings.records import now_utc
from tidings.report import weekly_model as w
from tidings.report.effects import EFFECT_CHARS, stated_effect
from tidings.report.excerpt import excerpt
from tidings.report.model import ItemRef, Prose
from tidings.report.provenance import record_llm, window_utc
from tidings.report.weekly_model import WeeklyReport
from tidings.report.writing import SlotText, item_ref
from tidings.store import Store
from tidings.words.weekly import tag_name, theme_name_zh, wt

if TYPE_CHECKING:  # the model layer (and its SDK) loads only when a model is used
    from tidings.analysis.analyst import Analysis, Analyst

__all__ = ["WeeklyReport", "build_weekly"]

KEY_PRS = 8  # key-PR quick view
HIGHLIGHTS = 5
THEMES = 6
THEME_ITEMS = 3
FOLLOW_ITEMS = 8
# How much of a PR's own summary the rules quote: a Chinese report keeps English to titles and
# short quotes, so it quotes less, and an English quote less again than a Chinese one (enough
# for the gist; the link has the rest).
QUOTE_CHARS: dict[Lang, int] = {"zh": 70, "en": 160}
QUOTE_CHARS_LATIN_ZH = 48
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,}")
_CJK = re.compile(r"[\u3400-\u9fff]")

# Title tags and labels naming the kind of change (words/weekly.py `kind_*`).
_KINDS = {
    "bugfix": "fix", "bug": "fix", "fix": "fix", "hotfix": "fix", "bug fix": "fix",
    "feature": "feature", "feat": "feature", "new feature": "feature",
    "enhancement": "feature", "refactor": "refactor", "refactoring": "refactor",
    "perf": "perf", "performance": "perf", "doc": "doc", "docs": "doc",
    "documentation": "doc", "test": "test", "tests": "test", "testing": "test", "ut": "test",
    "e2e": "test", "ci": "ci", "ci/build": "ci", "build": "ci", "misc": "misc",
    "chore": "misc", "deps": "deps", "dependencies": "deps", "revert": "revert",
}  # fmt: skip


def build_weekly(
    store: Store,
    repo: RepoConfig,
    year: int,
    week: int,
    lang: Lang,
    *,
    web_url: str = "https://github.com",
    now: datetime | None = None,
    analysis: Analyst | None = None,
) -> WeeklyReport:
    """The week's report; with `analysis`, a model writes every analytic section from the
    week's evidence (a summary and a why-it-matters line for every merged PR, reusing the
    daily per-PR analyses; highlight themes, risk observations, the executive summary, theme
    and trend paragraphs, follow-ups and the opening summary), and the rules' text fills in
    whatever it did not write or the guard rejected."""
    window = weekly_window(year, week, repo.tz, repo.cutoff_time)
    texts: Analysis | None = None
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, repo.name)
        facts = load_week(conn, repo_id, repo, window)
        api_data = has_api_items(conn, repo_id)
        until = data_stops_inside(window, coverage(conn, repo_id))
        if analysis is not None:
            days = _daily_facts(conn, repo_id, repo, year, week)
            day_evidence, week_input = _model_input(conn, repo_id, repo, facts, days)
    if analysis is not None:
        texts = analysis.analyse_week(days, day_evidence, week_input, lang)
    report = _Writer(repo, lang, facts, web_url, api_data, texts).report(now or now_utc())
    report.window.data_until = until
    if texts is not None:
        record_llm(report, texts)
    return report


def _daily_facts(
    conn: Connection, repo_id: int, repo: RepoConfig, year: int, week: int
) -> list[DayFacts]:
    """The week's daily windows as the daily report hands them to the model (the same facts,
    without the baseline no PR card reads), so the PR cards built from them are the daily
    report's cards."""
    monday = date.fromisocalendar(year, week, 1)
    roles = load_roles(conn, repo_id, repo)
    return [
        load_day(
            conn,
            repo_id,
            repo,
            daily_window(monday + timedelta(days=k), repo.tz, repo.cutoff_time),
            history=0,
            roles=roles,
        )
        for k in range(7)
    ]


def _model_input(
    conn: Connection, repo_id: int, repo: RepoConfig, facts: WeekFacts, days: list[DayFacts]
) -> tuple[list[dict[int, PREvidence]], WeekInput]:
    """Evidence per daily window (so the week's PR cards are the dailies' cards) and for the
    week, with the lists the report will show, for the model."""
    per_day: list[dict[int, PREvidence]] = []
    for day in days:
        numbers = [n for n, item in day.data.items.items() if item.kind == "pr"]
        authors = {n: day.data.items[n].author for n in numbers}
        start, end = day.window.start, day.window.end
        merged = [p for p in facts.prs if start <= p.merged_at < end]
        per_day.append(
            window_evidence(
                conn, repo_id, repo, start, end, numbers, authors, merged=merged, tags=facts.risks
            )
        )
    week = window_evidence(
        conn,
        repo_id,
        repo,
        facts.window.start,
        facts.window.end,
        [p.number for p in facts.prs],
        {p.number: p.author for p in facts.prs},
        merged=facts.prs,
        tags=facts.risks,
    )
    return per_day, WeekInput(
        facts=facts,
        evidence=week,
        themes=themes(facts, THEMES),
        risky=risky(facts, repo.risk.top),
        follow_ups=follow_up_groups(facts),
        summary=_summary_facts(facts),
    )


def _risk_tags(tags: list[risk.RiskTag]) -> list[w.RiskTag]:
    """The rules' tags as the report states them (its own models, the same fields)."""
    return [
        w.RiskTag(
            tag=t.tag,
            weight=t.weight,
            evidence=[
                w.Evidence(path=e.path, line=e.line, numbers=dict(e.numbers)) for e in t.evidence
            ],
        )
        for t in tags
    ]


def thread_text(lang: Lang, f: ThreadFigures) -> str:
    """The rules' sentence on a PR's review threads: how many are still unresolved, how many
    were resolved with no commit after them, how many a later commit followed."""

    def one(key: str, n: int) -> str:  # the singular where English needs one
        return f"{key}_one" if n == 1 else key

    total = f.threads
    if f.unresolved:
        parts = [wt(lang, "th_unresolved", n=f.unresolved, total=total)]
    else:
        parts = [wt(lang, one("th_resolved", total), total=total)]
    if f.resolved_without_commit:
        parts.append(
            wt(lang, one("th_no_commit", f.resolved_without_commit), n=f.resolved_without_commit)
        )
    if f.followed_by_commit:
        parts.append(wt(lang, "th_followed", n=f.followed_by_commit))
    elif f.followed_by_commit == 0 and f.resolved_without_commit != total:
        # No commit after any thread: said here unless the part above said it of them all.
        parts.append(wt(lang, one("th_none_followed", total)))
    return wt(lang, "th_sep").join(parts)


def _summary_facts(f: WeekFacts) -> dict[str, Any]:
    """What the model's weekly summary may draw on: the figures of the rules' summary."""
    return {
        "week": f.window.label,
        "merged_prs": len(f.prs),
        "previous_week_merged_prs": len(f.prev_prs),
        "themes": [
            {"kind": x.kind, "name": x.name, "merged_prs": len(x.members)}
            for x in themes(f, THEMES)
        ],
        "risk_tags": dict(sorted(risk_counts(f).items(), key=lambda kv: (-kv[1], kv[0]))),
        "key_prs": [
            {
                "number": n,
                "title": f.by_number[n].title,
                # A git history gives a display name, no login.
                **(
                    {"author": None, "author_name": f.by_number[n].author}
                    if f.by_number[n].source == "git"
                    else {"author": f.by_number[n].author}
                ),
                "risk_tags": [t.tag for t in f.risks.get(n, [])],
            }
            for n in f.ranked[:KEY_PRS]
        ],
    }


class _Writer(SlotText):
    def __init__(
        self,
        repo: RepoConfig,
        lang: Lang,
        facts: WeekFacts,
        web_url: str,
        api_data: bool,
        texts: Analysis | None = None,
    ) -> None:
        self.texts = texts
        self.repo = repo
        self.lang = lang
        self.facts = facts
        self.web_url = web_url.rstrip("/")
        self.api_data = api_data
        self.prs = facts.by_number
        self.rank = {n: k for k, n in enumerate(facts.ranked)}
        self.weekly: dict[int, w.WeeklyPR] = {n: self.weekly_pr(n) for n in facts.ranked}

    # -- helpers ------------------------------------------------------------------------------

    def t(self, key: str, **values: object) -> str:
        return wt(self.lang, key, **values)

    def join(self, parts: list[str]) -> str:
        return self.t("list_sep").join(parts)

    def sentences(self, parts: list[str]) -> str:
        return ("" if self.lang == "zh" else " ").join(p for p in parts if p)

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

    def kind(self, pr: MergedPR) -> str:
        """What kind of change a PR is, from its title tags and labels, else its files; a PR
        whose lines mostly only re-format code is a formatting change, whatever its tags."""
        if pr.number in self.facts.reverts or is_revert(pr.title, pr.body):
            return "revert"
        if self.facts.sweep(pr.number):
            return "format"
        for name in [*topic_tags(pr.title), *pr.labels]:
            kind = _KINDS.get(name.strip().lower())
            if kind is not None:
                return kind
        dirs = {f.path.split("/", 1)[0].lower() for f in pr.files}
        if dirs and dirs <= {"docs", "doc"}:
            return "doc"
        if pr.files and all(any_match(self.repo.test_paths, f.path) for f in pr.files):
            return "test"
        if dirs and dirs <= {".github", ".ci", "ci"}:
            return "ci"
        return "code"

    def area(self, pr: MergedPR) -> str:
        # The product directory most of it changes; tests, docs or CI only when that is all.
        name = source_directory(pr, self.repo) or main_directory(pr, self.repo)
        if name is None or name == ".":
            return ""
        top = name.split("/", 1)[0].lower()
        if is_plain_directory(name):
            if top in ("tests", "test"):
                return self.t("area_tests")
            if top in ("docs", "doc"):
                return self.t("area_docs")
            if top in (".github", ".ci", "ci"):
                return self.t("area_ci")
        # The package's own folder says nothing: vllm_ascend/attention reads as attention.
        package = self.repo.name.split("/", 1)[1].replace("-", "_").lower()
        if "/" in name and top in (package, "src", "lib"):
            name = name.split("/", 1)[1]
        return self.t("area_dir", name=name)

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

    def describe(self, pr: MergedPR, *, quote: bool = True) -> str:
        """The rules' account of a PR: what kind of change, how big, where, whether tests
        moved with it, and (with `quote`) a short quote of its own summary when it has one
        worth reading."""
        kind = self.kind(pr)
        if pr.number in self.facts.bots:
            return self.t("pr_bot", kind=self.t(f"kind_{kind}"))
        if kind == "revert" and pr.number in self.facts.reverts:
            target = self.facts.reverts[pr.number]
            title = self.facts.reverted.get(target) or (
                self.prs[target].title if target in self.prs else ""
            )
            label = (
                self.t("pr_revert", n=target, title=title)
                if title
                else self.t("pr_revert_unknown", n=target)
            )
        elif (again := self.reland_text(pr.number)) is not None:
            label = again
        else:
            label = self.t(f"kind_{kind}")
        area = self.area(pr)
        tested = any(any_match(self.repo.test_paths, f.path) for f in pr.files)
        code = sum(
            f.lines for f in pr.files if not any_match(self.repo.test_paths, f.path)
        )  # fmt: skip
        tests = ""
        if tested and kind != "test" and area != self.t("area_tests"):
            tests = self.t("pr_tests_with")
        elif (
            not tested
            and kind in ("fix", "feature", "refactor", "perf", "code")
            and (code >= self.repo.risk.missing_tests_min_lines)
        ):
            tests = self.t("pr_tests_without")
        text = self.t(
            "pr_desc",
            kind=label,
            files=pr.files_total or len(pr.files),
            additions=pr.additions,
            deletions=pr.deletions,
            where=self.t("pr_where", area=area) if area else "",
            tests=tests,
        ) + self.formatting_text(pr.number, "pr_formatting")
        said = self.quote(pr.body, pr.title) if quote else ""
        return text + (self.t("pr_quote", quote=said) if said else self.t("period"))

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

    def weekly_pr(self, number: int) -> w.WeeklyPR:
        pr = self.prs[number]
        scored = self.facts.scores.get(number)
        tags = self.facts.risks.get(number, [])
        git = pr.source == "git"
        dirs = list(top_dirs([(f.path, f.lines) for f in pr.files]))
        summary = self.prose(("pr", number), self.describe(pr), self.revert_refs(number))
        return w.WeeklyPR(
            item=self.ref(number),
            source="git" if git else "api",
            author_name=pr.author if git else None,
            additions=pr.additions,
            deletions=pr.deletions,
            changed_files=pr.files_total or len(pr.files),
            files_listed=len(pr.files) if pr.files_total else None,
            files_without_diff=pr.unread_diffs or None,
            reviews_incomplete=pr.reviews_incomplete,
            top_dirs=dirs,
            score=scored.score if scored else 0.0,
            score_parts=scored.parts if scored else {},
            risk_tags=_risk_tags(tags),
            risk_score=risk_score(tags),
            summary=summary,
            why=self.llm_only(("why", number)),
            stated_effect=self.effect(pr.body, summary),
            reverts=self.reverted_ref(number),
            relands=self.reland_refs(number),
            kind=self.kind(pr),
            bot=number in self.facts.bots,
            notes=[
                Prose(text=x, by="llm")
                for x in (self.texts.notes.get(number, []) if self.texts else [])[:3]
            ],
        )

    def theme_label(self, kind: str, name: str, count: int | None = None) -> str:
        # In running zh prose a theme goes by its Chinese name; its heading under "key
        # changes" keeps the tag or directory beside it.
        # Two themes may share one (a tag [Ops] and the directory ops/): then the heading's
        # words, which tell them apart.
        native = theme_name_zh(kind, name) if self.lang == "zh" else None
        if native is not None and count is None:
            shared = [
                x for x in themes(self.facts, THEMES) if theme_name_zh(x.kind, x.name) == native
            ]
            if len(shared) <= 1:
                return native
            return self.t(f"theme_named_{kind}", native=native, name=name)
        if count is None:
            return self.t(f"theme_title_{kind}", name=name)
        return self.t(f"theme_{kind}", name=name, count=count)

    # -- the report ---------------------------------------------------------------------------

    def report(self, now: datetime) -> WeeklyReport:
        f = self.facts
        window = f.window
        year, week = (int(x) for x in window.label.split("-W"))
        # The label names the local Monday even when the cut-off fell in a DST gap.
        first = date.fromisocalendar(year, week, 1)
        last = first + timedelta(days=6)
        themes_ = themes(f, THEMES)
        observations = self.risk_observations()
        key_prs = [self.weekly[n] for n in f.ranked[:KEY_PRS]]
        generated = now.astimezone(UTC).replace(microsecond=0)
        return w.WeeklyReport(
            repo=self.repo.name,
            project=self.repo.project,
            repo_url=f"{self.web_url}/{self.repo.name}",
            week=window.label,
            lang=self.lang,
            window=w.WeekWindow(
                week=window.label,
                year=year,
                number=week,
                first_day=first.isoformat(),
                last_day=last.isoformat(),
                start=window.start,
                end=window.end,
                timezone=self.repo.timezone,
                display=window.display(),
            ),
            summary=self.summary(
                year, week, first.strftime("%m-%d"), last.strftime("%m-%d"), themes_, observations
            ),
            merged_prs=len(f.prs),
            key_pr_count=len(key_prs),
            generated_at=generated,
            coverage=self.coverage(),
            highlights=self.highlights(themes_),
            tracks=self.tracks(),
            risk_observations=observations,
            executive_summary=self.executive(),
            key_changes=self.key_changes(themes_),
            module_trends=self.trends(),
            key_prs=key_prs,
            follow_ups=self.follow_ups(),
            merged=[self.weekly[n] for n in sorted(self.weekly)],
            merged_groups=self.merged_groups(),
            provenance=w.WeeklyProvenance(
                tool_version=__version__,
                generated_at=generated,
                data_as_of=f.data_as_of,
                window_utc=window_utc(window),
                merged_prs=len(f.prs),
                sources=f.sources,
            ),
        )

    def summary(
        self,
        year: int,
        week: int,
        first: str,
        last: str,
        themes_: list[Theme],
        observations: list[w.RiskObservation],
    ) -> Prose:
        values = {"year": year, "week": week, "first": first, "last": last}
        if not self.facts.prs:
            return Prose(text=self.t("summary_empty", project=self.repo.project, **values))
        parts = [
            self.t(
                "summary",
                project=self.repo.project,
                merged=len(self.facts.prs),
                prev=len(self.facts.prev_prs),
                **values,
            )
        ]
        directions = [x for x in themes_ if not x.generic][:3] or themes_[:3]
        if directions:
            named = [self.theme_label(x.kind, x.name) for x in directions]
            parts.append(self.t("summary_directions", themes=self.join(named)))
        if self.facts.reverts:
            pairs = [
                self.t("summary_revert_item", revert=n, reverted=m)
                for n, m in sorted(self.facts.reverts.items())
            ]
            parts.append(
                self.t("summary_reverts", n=len(self.facts.reverts), list=self.join(pairs))
            )
        relands = [
            self.t("summary_reland_item", reland=n, what=what)
            for n in sorted(self.facts.relands)
            if (what := self.reland_text(n)) is not None
        ]
        if relands:
            parts.append(self.t("summary_relands", n=len(relands), list=self.join(relands)))
        if self.facts.bots:
            parts.append(self.t("summary_bots", n=len(self.facts.bots)))
        counts = risk_counts(self.facts)
        if counts:
            common = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:2]
            listed = self.join(
                [self.t("exec_risk_item", name=tag_name(self.lang, k), count=n) for k, n in common]
            )
            parts.append(
                self.t(
                    "summary_risks",
                    total=sum(counts.values()),
                    tags=listed,
                    observed=len(observations),
                )
            )
        else:
            parts.append(self.t("summary_norisk"))
        cited = [n for pair in self.facts.reverts.items() for n in pair]
        cited += [n for r in self.facts.relands for n in (r, *self.revert_refs(r))]
        return self.prose(("summary",), self.sentences(parts), cited)

    def coverage(self) -> w.Coverage:
        git = self.facts.sources.get("git", 0)
        api = self.facts.sources.get("api", 0)
        if not git:
            return w.Coverage(api_prs=api, git_prs=0, needs_api=[], text=None)
        needs = ["labels", "reviews", "comments", "unresolved_threads"]
        if not self.api_data:
            needs.append("issues")
        missing = self.join([self.t(f"need_{k}") for k in needs])
        text = self.t("coverage", git=git, missing=missing, repo=self.repo.name)
        return w.Coverage(api_prs=api, git_prs=git, needs_api=needs, text=Prose(text=text))

    def highlights(self, themes_: list[Theme]) -> list[w.Highlight]:
        """The model's technical directions when it wrote them (members checked in
        analysis); else reverts first, then the most important PR of each leading theme,
        then the next ones."""
        groups = self.texts.highlights if self.texts is not None else []
        if groups:
            return [
                w.Highlight(
                    theme=g.theme,
                    item=self.ref(g.numbers[0]),
                    text=Prose(text=g.text, by="llm"),
                    more=[self.ref(n) for n in g.numbers[1:]],
                )
                for g in groups
            ]
        picked: list[tuple[str, int]] = [
            (self.t("highlight_revert"), n) for n in self.facts.ranked if n in self.facts.reverts
        ][:2]
        for theme in themes_:
            if theme.members and theme.members[0] not in {n for _, n in picked}:
                picked.append((self.theme_label(theme.kind, theme.name), theme.members[0]))
            if len(picked) == HIGHLIGHTS:
                break
        chosen = {n for _, n in picked}
        for n in self.facts.ranked:
            if len(picked) >= HIGHLIGHTS:
                break
            if n not in chosen and n not in self.facts.bots:
                picked.append(("", n))
                chosen.add(n)
        # A Chinese report quotes a PR once: under its theme when it is listed there.
        under_themes = {n for x in themes_ for n in x.members[:THEME_ITEMS]}
        return [
            w.Highlight(
                theme=theme,
                item=self.ref(n),
                text=self.prose(
                    ("pr", n), self.describe(self.prs[n], quote=False), self.revert_refs(n)
                )
                if self.lang == "zh" and n in under_themes
                else self.weekly[n].summary,
            )
            for theme, n in picked
        ]

    def risk_observations(self) -> list[w.RiskObservation]:
        f = self.facts
        out: list[w.RiskObservation] = []
        for n in risky(f, self.repo.risk.top):
            tags = f.risks[n]
            names = self.join([tag_name(self.lang, t.tag) for t in tags])
            out.append(
                w.RiskObservation(
                    item=self.ref(n),
                    risk_score=risk_score(tags),
                    tags=_risk_tags(tags),
                    observation=self.prose(
                        ("risk", n, "observation"),
                        self.sentences(
                            [
                                self.t(
                                    "risk_observation",
                                    n=len(tags),
                                    score=f"{risk_score(tags):g}",
                                    tags=names,
                                ),
                                self.formatting_text(n, "risk_formatting"),
                            ]
                        ),
                    ),
                    follow_up=self.prose(
                        ("risk", n, "follow_up"),
                        self.specific_follow_up(n, tags),
                        self.revert_refs(n),
                    ),
                    reverts=self.reverted_ref(n),
                    relands=self.reland_prose(n),
                    review_threads=self.review_threads(n),
                    files_without_diff=f.by_number[n].unread_diffs or None,
                )
            )
        return out

    def review_threads(self, number: int) -> w.ReviewThreads | None:
        figures = self.facts.threads.get(number)
        if figures is None:
            return None
        return w.ReviewThreads(
            threads=figures.threads,
            unresolved=figures.unresolved,
            resolved_without_commit=figures.resolved_without_commit,
            followed_by_commit=figures.followed_by_commit,
            text=Prose(text=thread_text(self.lang, figures)),
        )

    def specific_follow_up(self, number: int, tags: list[risk.RiskTag]) -> str:
        """What to check on this PR in particular, or "" when only the general follow-ups
        (the section below, one line per tag) apply: the same advice is not repeated on
        every risk."""
        names = {t.tag for t in tags}
        if "revert" in names and number in self.facts.reverts:
            return self.t("fu_revert_one", n=self.facts.reverts[number])
        for tag in tags:
            if tag.tag == "tests_removed" and tag.evidence and tag.evidence[0].path:
                name = tag.evidence[0].path.rsplit("/", 1)[-1]  # the path is in the line above
                return self.t("fu_tests_removed_one", path=name)
        return ""

    def executive(self) -> w.ExecutiveSummary:
        f = self.facts
        labels = label_trends(f, 8)
        tags = tag_trends(f, 8)
        counts = risk_counts(f)
        by_risk = [
            w.RiskCount(name=k, count=n)
            for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        ]
        merged, prev = len(f.prs), len(f.prev_prs)
        if prev:
            pct = round(abs(merged - prev) * 100 / prev)
            key = "exec_change_same" if merged == prev else (
                "exec_change_up" if merged > prev else "exec_change_down"
            )  # fmt: skip
            change = self.t(key, pct=pct)
        else:
            change = self.t("exec_change_none")
        parts = [self.t("exec_text", merged=merged, prev=prev, change=change)]
        if labels:
            parts.append(
                self.t(
                    "exec_labels",
                    labels=self.join(
                        [self.t("count_pr", name=x.name, count=x.value) for x in labels[:4]]
                    ),
                )
            )
        if tags:
            parts.append(
                self.t(
                    "exec_tags",
                    tags=self.join(
                        [self.t("count_pr", name=x.name, count=x.value) for x in tags[:4]]
                    ),
                )
            )
        if by_risk:
            parts.append(
                self.t(
                    "exec_risks",
                    tags=self.join(
                        [
                            self.t(
                                "exec_risk_item", name=tag_name(self.lang, x.name), count=x.count
                            )
                            for x in by_risk[:4]
                        ]
                    ),
                )
            )
        if by_risk:
            parts.append(self.t(f"exec_means_{by_risk[0].name}", n=by_risk[0].count))
        return w.ExecutiveSummary(
            merged_prs=merged,
            previous_merged_prs=prev,
            by_label=[w.NameCount(name=x.name, count=x.value) for x in labels],
            by_title_tag=[w.NameCount(name=x.name, count=x.value) for x in tags],
            by_risk_tag=by_risk,
            text=self.prose(("exec",), self.sentences(parts)),
        )

    def key_changes(self, themes_: list[Theme]) -> list[w.ThemeChanges]:
        out: list[w.ThemeChanges] = []
        tagged = {x.name.lower(): x.value for x in tag_trends(self.facts, top=1000)}
        for theme in themes_:
            members: list[MergedPR] = [self.prs[n] for n in theme.members]
            adds = sum(p.additions for p in members)
            dels = sum(p.deletions for p in members)
            dirs = top_dirs([(x.path, x.lines) for p in members for x in p.files])
            total = tagged.get(theme.name.lower(), 0) if theme.kind == "tag" else 0
            kinds = Counter(self.kind(p) for p in members)
            mix = self.join(
                [
                    self.t("count_kind", kind=self.t(f"kind_{k}"), n=n)
                    for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
                ]
            )
            text = self.t(
                "theme_text",
                count=len(members),
                tagged=self.t(
                    "theme_tagged", name=theme.name, total=total, other=total - len(members)
                )
                if total > len(members)
                else "",
                additions=adds,
                deletions=dels,
                authors=len({p.author for p in members}),
                dirs=self.join(list(dirs)) or "-",
                mix=mix,
            )
            out.append(
                w.ThemeChanges(
                    kind=theme.kind,
                    name=theme.name,
                    count=len(members),
                    additions=adds,
                    deletions=dels,
                    items=[self.weekly[n] for n in theme.members[:THEME_ITEMS]],
                    text=self.prose(("theme", theme.kind, theme.name), text),
                )
            )
        return out

    def trends(self) -> w.ModuleTrends:
        f = self.facts
        depth = 2
        dirs = churn_trends(f, files=False, depth=depth)
        files = churn_trends(f, files=True)

        def rows(trends: list[Trend]) -> list[w.TrendRow]:
            return [
                w.TrendRow(
                    name=x.name, value=x.value, previous=x.previous, change=x.change, prs=x.prs
                )
                for x in trends
            ]

        if not dirs:
            text = self.t("trends_empty")
        else:
            parts = [
                self.t(
                    "trends_text",
                    dir=dirs[0].name,
                    lines=dirs[0].value,
                    prev=dirs[0].previous,
                    file=files[0].name,
                    flines=files[0].value,
                )
            ]
            rising = sorted(
                (x for x in dirs if x.value > x.previous),
                key=lambda x: (-(x.value - x.previous), x.name),
            )[:3]
            if rising:
                named = [
                    self.t("trends_rise_item", name=x.name, prev=x.previous, value=x.value)
                    for x in rising
                ]
                parts.append(self.t("trends_rising", dirs=self.join(named)))
            left_out = generated_churn(f)
            if left_out:
                parts.append(self.t("trends_generated", lines=left_out))
            text = self.sentences(parts)
        return w.ModuleTrends(
            labels=rows(label_trends(f)),
            title_tags=rows(tag_trends(f)),
            directories=rows(dirs),
            hot_files=rows(files),
            text=self.prose(("module_trends",), text),
        )

    def merged_groups(self) -> list[w.MergedGroup]:
        out = [
            w.MergedGroup(kind=x.kind, name=x.name, numbers=list(x.members))
            for x in themes(self.facts, limit=len(self.facts.prs))
        ]
        bots = [n for n in self.facts.ranked if n in self.facts.bots]
        if bots:
            out.append(w.MergedGroup(kind="bot", name="bot", numbers=bots))
        return out

    def tracks(self) -> list[w.TrackSection]:
        out: list[w.TrackSection] = []
        for track in self.facts.tracks:
            merged = [m for m in track.matches if m.number in self.prs]
            others = len(track.matches) - len(merged)
            items = [
                w.TrackItem(
                    item=self.ref(m.number),
                    reasons=list(m.reasons),
                    # Facts without the quote: the same PR is quoted under its theme.
                    text=self.prose(
                        ("pr", m.number),
                        self.describe(self.prs[m.number], quote=False),
                        self.revert_refs(m.number),
                    )
                    if m.number in self.prs
                    else self.prose(
                        ("track_item", m.number),
                        self.quote(
                            self.facts.data.items[m.number].body,
                            self.facts.data.items[m.number].title,
                        ),
                    ),
                )
                for m in track.matches[:TRACK_ITEMS]
            ]
            # The track's lead: its most relevant merged PR, the most important among equals;
            # never one that only sweeps through the topic's paths (facts/topics.py).
            lead = next((x for x in merged if x.relevance > SWEPT), None)
            if not track.matches:
                empty = "track_empty" if self.facts.others_known else "track_empty_git"
                text = self.t(empty, title=track.title)
            else:
                parts = [
                    self.t(
                        "track_text",
                        title=track.title,
                        merged=len(merged),
                        others=self.t("track_others", n=others) if others else "",
                    )
                ]
                if lead is not None:
                    top = self.prs[lead.number]
                    parts.append(
                        self.t("track_main", n=top.number, kind=self.t(f"kind_{self.kind(top)}"))
                    )
                text = self.sentences(parts)
            cited = [lead.number] if lead is not None else []
            out.append(
                w.TrackSection(
                    title=track.title,
                    merged_prs=len(merged),
                    other_items=others if self.facts.others_known else None,
                    items=items,
                    text=self.prose(("track", track.title), text, cited),
                    unlisted=len(track.matches) - len(items),
                )
            )
        return out

    def follow_ups(self) -> list[w.FollowUp]:
        return [self.follow_up(g) for g in follow_up_groups(self.facts)]

    def follow_up(self, group: FollowGroup) -> w.FollowUp:
        numbers = group.numbers
        rules = self.t(f"fu_{group.reason}" if group.kind == "risk" else f"fu_watch_{group.reason}")
        return w.FollowUp(
            kind=group.kind,
            reason=group.reason,
            items=[self.ref(n) for n in numbers[:FOLLOW_ITEMS]],
            total=len(numbers),
            text=self.prose(("follow_up", group.kind, group.reason), rules),
        )
