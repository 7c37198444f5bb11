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

from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal

from sqlalchemy import Connection

from tidings._version import __version__
from tidings.config import Lang, RepoConfig
from tidings.facts import risk
from tidings.facts.actors import is_bot, is_git_name
from tidings.facts.daily import DayFacts, load_day
from tidings.facts.importance import top_dirs
from tidings.facts.risk import MergedPR, RiskTagName, risk_score
from tidings.facts.roles import load_roles
from tidings.facts.watchlist import WatchReason
from tidings.facts.weekly import (
    Theme,
    Trend,
    WeekFacts,
    churn_trends,
    has_api_items,
    label_trends,
    load_week,
    risk_counts,
    tag_trends,
    themes,
)
from tidings.facts.windows import daily_window, weekly_window
from tidings.records import now_utc
from tidings.report import weekly_model as w
from tidings.report.excerpt import excerpt
from tidings.report.model import ItemRef, Prose
from tidings.report.provenance import record_llm, window_utc
from tidings.report.weekly_model import WeeklyReport
from tidings.store import Store
from tidings.words.weekly import tag_name, wt

if TYPE_CHECKING:  # the model layer (and its SDK) loads only when a model is used
    from tidings.analysis.analyst import Analysis, Analyst

__all__ = ["WeeklyReport", "build_weekly"]

KEY_PRS = 8  # key-PR quick view
HIGHLIGHTS = 5
THEMES = 6
THEME_ITEMS = 5
FOLLOW_ITEMS = 8


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
    """The week's report; with `analysis`, a model writes PR summaries and notes (reusing the
    daily per-PR analyses) and the opening summary, and the rules' text fills in the rest."""
    window = weekly_window(year, week, repo.tz, repo.cutoff_time)
    days: list[DayFacts] = []
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, repo.name)
        facts = load_week(conn, repo_id, repo, window)
        api_data = has_api_items(conn, repo_id)
        if analysis is not None:
            days = _daily_facts(conn, repo_id, repo, year, week)
    texts: Analysis | None = None
    if analysis is not None:
        texts = analysis.analyse_week(
            days, {p.number for p in facts.prs}, facts.data, _summary_facts(facts), lang
        )
    report = _Writer(repo, lang, facts, web_url, api_data, texts).report(now or now_utc())
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
                "author": f.by_number[n].author,
                "risk_tags": [t.tag for t in f.risks.get(n, [])],
            }
            for n in f.ranked[:KEY_PRS]
        ],
    }


class _Writer:
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

    def prose(self, slot: tuple[object, ...], fallback: str) -> Prose:
        """The model's validated text for a slot when there is one, else the rules' text."""
        text = self.texts.text(*slot) if self.texts is not None else None
        return Prose(text=text, by="llm") if text else Prose(text=fallback)

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
                author_is_bot=not git
                and is_bot(pr.author, self._author_type(number), self.repo.bots),
                labels=list(pr.labels),
                author_name=pr.author if git else None,
            )
        item = self.facts.data.items[number]
        kind: Literal["pr", "issue"] = "pr" if item.kind == "pr" else "issue"
        path = "pull" if kind == "pr" else "issues"
        git = is_git_name(item.author_type)
        return ItemRef(
            number=number,
            kind=kind,
            title=item.title,
            url=f"{self.web_url}/{self.repo.name}/{path}/{number}",
            state=item.display_state,
            draft=item.draft,
            author=None if git else item.author,
            author_is_bot=is_bot(item.author, item.author_type, self.repo.bots),
            labels=list(item.labels),
            author_name=item.author if git else None,
        )

    def _author_type(self, number: int) -> str | None:
        item = self.facts.data.items.get(number)
        return item.author_type if item is not None else None

    def weekly_pr(self, number: int) -> w.WeeklyPR:
        pr = self.prs[number]
        scored = self.facts.scores.get(number)
        tags = self.facts.risks.get(number, [])
        git = pr.source == "git"
        said = excerpt(pr.body, 200)
        dirs = list(top_dirs([(f.path, f.lines) for f in pr.files]))
        return w.WeeklyPR(
            item=self.ref(number),
            source="git" if git else "api",
            author_name=pr.author if git else None,
            additions=pr.additions,
            deletions=pr.deletions,
            changed_files=pr.files_total or len(pr.files),
            files_listed=len(pr.files) if pr.files_total else None,
            top_dirs=dirs,
            score=scored.score if scored else 0.0,
            score_parts=scored.parts if scored else {},
            risk_tags=_risk_tags(tags),
            risk_score=risk_score(tags),
            summary=self.prose(("pr", number), said or pr.title),
            notes=[
                Prose(text=x, by="llm")
                for x in (self.texts.notes.get(number, []) if self.texts else [])[:3]
            ],
        )

    def theme_label(self, kind: str, name: str, count: int | None = None) -> str:
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
            risk_observations=observations,
            executive_summary=self.executive(),
            key_changes=self.key_changes(themes_),
            module_trends=self.trends(),
            key_prs=key_prs,
            follow_ups=self.follow_ups(),
            merged=[self.weekly[n] for n in sorted(self.weekly)],
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
        if themes_:
            named = [self.theme_label(x.kind, x.name, len(x.members)) for x in themes_[:3]]
            parts.append(self.t("summary_themes", themes=self.join(named)))
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
        return self.prose(("summary",), self.sentences(parts))

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
        """The most important PR of each leading theme, then the next most important ones."""
        picked: list[tuple[str, int]] = []
        for theme in themes_:
            if theme.members:
                picked.append((self.theme_label(theme.kind, theme.name), theme.members[0]))
            if len(picked) == HIGHLIGHTS:
                break
        chosen = {n for _, n in picked}
        for n in self.facts.ranked:
            if len(picked) >= HIGHLIGHTS:
                break
            if n not in chosen:
                picked.append(("", n))
                chosen.add(n)
        return [
            w.Highlight(theme=theme, item=self.ref(n), text=self.weekly[n].summary)
            for theme, n in picked
        ]

    def risk_observations(self) -> list[w.RiskObservation]:
        f = self.facts
        ranked = sorted(
            (n for n in f.ranked if f.risks.get(n)),
            key=lambda n: (-risk_score(f.risks[n]), self.rank[n]),
        )
        out: list[w.RiskObservation] = []
        for n in ranked[: self.repo.risk.top]:
            tags = f.risks[n]
            names = self.join([tag_name(self.lang, t.tag) for t in tags])
            heaviest = max(tags, key=lambda t: (t.weight, -tags.index(t)))
            out.append(
                w.RiskObservation(
                    item=self.ref(n),
                    risk_score=risk_score(tags),
                    tags=_risk_tags(tags),
                    observation=Prose(
                        text=self.t(
                            "risk_observation",
                            n=len(tags),
                            score=f"{risk_score(tags):g}",
                            tags=names,
                        )
                    ),
                    follow_up=Prose(text=self.t(f"fu_{heaviest.tag}")),
                )
            )
        return out

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
        return w.ExecutiveSummary(
            merged_prs=merged,
            previous_merged_prs=prev,
            by_label=[w.NameCount(name=x.name, count=x.value) for x in labels],
            by_title_tag=[w.NameCount(name=x.name, count=x.value) for x in tags],
            by_risk_tag=by_risk,
            text=Prose(text=self.sentences(parts)),
        )

    def key_changes(self, themes_: list[Theme]) -> list[w.ThemeChanges]:
        out: list[w.ThemeChanges] = []
        for theme in themes_:
            members: list[MergedPR] = [self.prs[n] for n in theme.members]
            adds = sum(p.additions for p in members)
            dels = sum(p.deletions for p in members)
            dirs = top_dirs([(x.path, x.lines) for p in members for x in p.files])
            text = self.t(
                "change_text",
                count=len(members),
                additions=adds,
                deletions=dels,
                dirs=self.join(list(dirs)) or "-",
            )
            out.append(
                w.ThemeChanges(
                    kind=theme.kind,
                    name=theme.name,
                    count=len(members),
                    additions=adds,
                    deletions=dels,
                    items=[self.weekly[n] for n in theme.members[:THEME_ITEMS]],
                    text=Prose(text=text),
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
                parts.append(self.t("trends_rising", dirs=self.join([x.name for x in rising])))
            text = self.sentences(parts)
        return w.ModuleTrends(
            labels=rows(label_trends(f)),
            title_tags=rows(tag_trends(f)),
            directories=rows(dirs),
            hot_files=rows(files),
            text=Prose(text=text),
        )

    def follow_ups(self) -> list[w.FollowUp]:
        f = self.facts
        by_tag: dict[RiskTagName, list[int]] = {}
        for n in f.ranked:
            for fired in f.risks.get(n, []):
                by_tag.setdefault(fired.tag, []).append(n)
        weight = {t.tag: t.weight for tags in f.risks.values() for t in tags}
        out: list[w.FollowUp] = []
        for tag in sorted(by_tag, key=lambda k: (-weight[k], -len(by_tag[k]), k)):
            numbers = by_tag[tag]
            out.append(
                w.FollowUp(
                    kind="risk",
                    reason=tag,
                    items=[self.ref(n) for n in numbers[:FOLLOW_ITEMS]],
                    total=len(numbers),
                    text=Prose(text=self.t(f"fu_{tag}")),
                )
            )
        reasons: dict[WatchReason, list[int]] = {}
        for watch in f.watch:
            for reason in watch.reasons:
                reasons.setdefault(reason, []).append(watch.number)
        for reason, numbers in reasons.items():
            out.append(
                w.FollowUp(
                    kind="watch",
                    reason=reason,
                    items=[self.ref(n) for n in numbers[:FOLLOW_ITEMS]],
                    total=len(numbers),
                    text=Prose(text=self.t(f"fu_watch_{reason}")),
                )
            )
        return out
