"""Building a daily report from facts, with the deterministic writer's prose.

Every number and reference comes from one `DayFacts` bundle (facts/daily.py); every sentence
here states only what those facts show. With a model (`analysis`), the same bundle is what the
model reads, and its validated text may replace `Prose` values, never the facts around them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from tidings._version import __version__
from tidings.common.config import Lang, RepoConfig
from tidings.common.records import now_utc
from tidings.facts.activity_data import Item
from tidings.facts.actors import is_git_name
from tidings.facts.coverage import data_stops_inside, git_prs
from tidings.facts.daily import HISTORY, METRICS, DayFacts, TopicFacts
from tidings.facts.discussions import Discussion, Participant
from tidings.facts.evidence import PREvidence
from tidings.facts.load.coverage import coverage as store_coverage
from tidings.facts.load.coverage import has_api_items
from tidings.facts.load.day import load_day
from tidings.facts.load.evidence import window_evidence
from tidings.facts.prose import cut
from tidings.facts.slots import HotText, HotView, PRSummary, PRWhy, Section, TopicText
from tidings.facts.topics import SWEPT
from tidings.facts.windows import daily_window
from tidings.report import model as m
from tidings.report.effects import EFFECT_CHARS, stated_effect
from tidings.report.excerpt import excerpt
from tidings.report.provenance import record_llm, window_utc
from tidings.report.writing import SlotText, item_ref
from tidings.store import Store
from tidings.words.daily import t

if TYPE_CHECKING:  # the model layer (and its SDK) loads only when a model is used
    from tidings.analysis.analyst import Analyst
    from tidings.analysis.result import Analysis

__all__ = ["HISTORY", "METRICS", "build_daily"]

# How much of an item's own text the rules quote: a Chinese report keeps English short.
QUOTE: dict[Lang, int] = {"zh": 90, "en": 160}
TITLE_CHARS = 60  # a title named in the summary


def build_daily(
    store: Store,
    repo: RepoConfig,
    day: date,
    lang: Lang,
    *,
    web_url: str = "https://github.com",
    now: datetime | None = None,
    analysis: Analyst | None = None,
) -> m.DailyReport:
    """The day's report; with `analysis`, a model writes the prose wherever its text passes
    validation and the faithfulness guard, and the deterministic writer fills in the rest."""
    window = daily_window(day, repo.tz, repo.cutoff_time)
    evidence: dict[int, PREvidence] = {}
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, repo.name)
        facts = load_day(conn, repo_id, repo, window)
        api_data = has_api_items(conn, repo_id)
        until = data_stops_inside(window, store_coverage(conn, repo_id))
        if analysis is not None and not facts.quiet:
            # Risk tags with their code, added lines and review threads: only a model reads them.
            prs = [n for n, item in facts.data.items.items() if item.kind == "pr"]
            authors = {n: facts.data.items[n].author for n in prs}
            evidence = window_evidence(conn, repo_id, repo, window.start, window.end, prs, authors)
    unknown = set(facts.unknown)
    # One representation of what the sources cannot know: null, never 0 or an empty list.
    stats = m.Stats.model_validate({k: None if k in unknown else v for k, v in facts.stats.items()})
    # The model reads the very facts the writer lays out below: what it saw is what prints.
    texts = analysis.analyse(facts, lang, evidence) if analysis is not None else None
    writer = _Writer(facts, lang, web_url, texts)
    # A list the sources know nothing of is null; one they know in part (the PRs the API saw
    # opened, beside git PRs of unknown opening) lists what is known under an unknown count.
    nothing_known = unknown if facts.git_only else set()
    appendix = m.Appendix.model_validate(
        {
            k: None if k in nothing_known else [writer.ref(n) for n in getattr(facts.lists, k)]
            for k in METRICS
        }
    )
    hot = writer.hot()
    quiet = facts.quiet
    coverage = writer.coverage(api_data)
    trends = writer.trends()
    generated = (now or now_utc()).astimezone(UTC).replace(microsecond=0)
    report = m.DailyReport(
        repo=repo.name,
        project=repo.project,
        repo_url=f"{web_url.rstrip('/')}/{repo.name}",
        date=day.isoformat(),
        lang=lang,
        window=m.WindowInfo(
            start=window.start,
            end=window.end,
            timezone=repo.timezone,
            display=window.display(),
            data_until=until,
        ),
        stats=stats,
        coverage=coverage,
        quiet=quiet,
        summary=writer.summary(
            stats, [h.model_dump() for h in facts.history], trends, quiet, coverage
        ),
        topics=[] if quiet else writer.topics(),
        hot_discussions=hot,
        trends=[] if quiet else trends,
        key_changes=[] if quiet else writer.key_changes(),
        activity=writer.activity(),
        watchlist=[] if quiet else writer.watch(),
        appendix=appendix,
        provenance=m.Provenance(
            tool_version=__version__,
            generated_at=generated,
            data_as_of=facts.data_as_of,
            window_utc=window_utc(window),
            list_counts={
                k: None if k in unknown else len(getattr(facts.lists, k)) for k in METRICS
            },
        ),
    )
    if not quiet and texts is not None:
        report.trends_analysis = writer.llm_only(Section("trends"))
        report.watch_analysis = writer.llm_only(Section("watch"))
    if texts is not None:
        record_llm(report, texts)
    return report


class _Writer(SlotText):
    """The deterministic writer: plain sentences from facts, in one language."""

    def __init__(
        self, facts: DayFacts, lang: Lang, web_url: str, texts: Analysis | None = None
    ) -> None:
        self.facts = facts
        self.texts = texts
        self.repo: RepoConfig = facts.repo
        self.lang = lang
        self.data = facts.data
        self.window = facts.window
        self.web_url = web_url.rstrip("/")
        self.bots = facts.repo.bots

    # -- helpers ----------------------------------------------------------------------------

    def t(self, key: str, **values: object) -> str:
        return t(self.lang, key, **values)

    def what_and_why(self, number: int, fallback: str) -> m.Prose:
        """A key change: the model's summary and its why-it-matters line, else the rules'."""
        texts = self.texts
        what = texts.text(PRSummary(number)) if texts is not None else None
        if texts is None or what is None:
            return m.Prose(text=fallback)
        why = texts.text(PRWhy(number))
        return m.Prose(
            text=f"{what}{'' if self.lang == 'zh' else ' '}{why}" if why else what, by="llm"
        )

    def join(self, parts: list[str]) -> str:
        return self.t("list_sep").join(parts)

    def ref(self, number: int) -> m.ItemRef:
        return item_ref(self.data.items[number], self.repo.name, self.web_url, self.bots)

    def who(self, login: str | None) -> str:
        return login if login is not None else self.t("ghost")

    def local(self, moment: datetime) -> str:
        local = moment.astimezone(self.window.tz)
        offset = local.utcoffset()
        hours = int(offset.total_seconds() // 3600) if offset is not None else 0
        minutes = int(abs(offset.total_seconds()) % 3600 // 60) if offset is not None else 0
        sign = "+" if hours >= 0 else "-"
        suffix = f"{sign}{abs(hours)}" + (f":{minutes:02d}" if minutes else "")
        return f"{local:%Y-%m-%d %H:%M} (UTC{suffix})"

    def events(self, item: Item) -> list[str]:
        """What happened to an item in the window, in order of importance."""
        data = self.data
        out: list[str] = []
        if data.in_window(item.merged_at):
            out.append(
                self.t(
                    "event_merged",
                    additions=item.additions,
                    deletions=item.deletions,
                    files=item.changed_files,
                )
            )
        elif data.in_window(item.closed_at) and item.state == "closed":
            out.append(self.t("event_closed"))
        if data.in_window(item.created_at):
            out.append(self.t("event_opened", author=self.who(item.author)))
        talk = len(data.activity_on(item.number))
        if talk and not out:
            out.append(self.t("event_active", n=talk))
        return out

    def item_note(self, item: Item, limit: int = 160) -> str:
        said = excerpt(item.body, min(limit, QUOTE[self.lang]), title=item.title)
        happened = self.join(self.events(item))
        if said:
            quoted = self.t("quote", text=said)
            return f"{happened}{self.t('colon')}{quoted}" if happened else said
        return happened

    # -- sections ---------------------------------------------------------------------------

    def coverage(self, api_data: bool) -> m.DailyCoverage | None:
        """What the day's counts cannot say when its data came (partly) from a git clone."""
        if not self.facts.unknown:
            return None
        git = git_prs(self.data, self.facts.lists.merged_prs)
        key = "coverage_mixed" if api_data else "coverage_git_only"
        text = self.t(key if git else "coverage_git_none", git=len(git), repo=self.repo.name)
        return m.DailyCoverage(
            git_prs=len(git), unknown=list(self.facts.unknown), text=m.Prose(text=text)
        )

    def summary(
        self,
        stats: m.Stats,
        history: list[dict[str, int]],
        trends: list[m.Cluster],
        quiet: bool,
        coverage: m.DailyCoverage | None = None,
    ) -> m.Summary:
        # Only the counts the sources know: an unknown one has no value to compare.
        values = {k: v for k, v in stats.model_dump().items() if v is not None}
        trends_out: list[m.MetricTrend] = []
        for metric in values:
            base = sum(h[metric] for h in history) / len(history)
            change = (values[metric] - base) / base if base else None
            trends_out.append(
                m.MetricTrend(
                    metric=metric,
                    value=values[metric],
                    baseline=round(base, 1),
                    change=None if change is None else round(change, 2),
                )
            )
        total = sum(values.values())
        base_total = sum(h[k] for h in history for k in values) / len(history)
        level = _level(total, base_total)
        areas = [m.Area(kind=c.kind, name=c.name, count=c.count) for c in trends[:3]]
        git_only = coverage is not None and coverage.git_only
        if quiet:
            talk = len(self.data.activity)
            return m.Summary(
                level="quiet",
                previous_windows=HISTORY,
                trends=trends_out,
                dominant_areas=[],
                text=m.Prose(text=self.t("quiet_git" if git_only else "quiet", talk=talk)),
            )
        if git_only:
            sentences = [self.t("summary_counts_git", merged_prs=stats.merged_prs)]
        elif coverage is not None:
            sentences = [self.t("summary_counts_mixed", **values)]
        else:
            sentences = [self.t("summary_counts", **values)]
        if base_total:
            shown = sorted(trends_out, key=lambda x: -abs(x.value - x.baseline))[:2]
            detail = self.join(
                [
                    self.t(
                        "summary_metric",
                        metric=self.t(x.metric),
                        value=x.value,
                        baseline=f"{x.baseline:g}",
                    )
                    for x in shown
                ]
            )
            sentences.append(
                self.t("summary_level", level=self.t(f"level_{level}"), n=HISTORY, detail=detail)
            )
        else:
            sentences.append(self.t("summary_level_nohist", n=HISTORY))
        if areas:
            listed = self.join(
                [self.t(f"area_{a.kind}", name=a.name, count=a.count) for a in areas]
            )
            sentences.append(self.t("summary_areas", areas=listed))
        focus, refs = self.focus()
        sep = "" if self.lang == "zh" else " "
        return m.Summary(
            level=level,
            previous_windows=HISTORY,
            trends=trends_out,
            dominant_areas=areas,
            text=self.prose(Section("summary"), sep.join(sentences + focus), refs),
        )

    def focus(self) -> tuple[list[str], list[int]]:
        """The window's hottest discussion (the first of "hot discussions") and its most
        important merge, named in the summary as the seeds name "the one discussion that
        mattered"; and the numbers they cite."""
        sentences: list[str] = []
        refs: list[int] = []
        if self.facts.hot:
            d = self.facts.hot[0]
            title = _short(self.data.items[d.number].title)
            sentences.append(
                self.t(
                    "summary_hot",
                    number=d.number,
                    title=title,
                    comments=d.comments,
                    people=len(d.participants),
                )
            )
            refs.append(d.number)
        if self.facts.key_changes:
            top = self.facts.key_changes[0].number
            title = _short(self.data.items[top].title)
            sentences.append(self.t("summary_top", number=top, title=title))
            refs.append(top)
        return sentences, refs

    def topics(self) -> list[m.TopicTrack]:
        tracks: list[m.TopicTrack] = []
        for track in self.facts.topics:
            matches = track.matches
            items = [
                m.TopicItem(
                    item=self.ref(x.number),
                    reasons=list(x.reasons),
                    note=self.prose(PRSummary(x.number), self.item_note(self.data.items[x.number])),
                )
                for x in matches
            ]
            tracks.append(
                m.TopicTrack(
                    title=track.title,
                    items=items,
                    analysis=self.prose(TopicText(track.title), *self._topic_analysis(track)),
                )
            )
        return tracks

    def _topic_analysis(self, track: TopicFacts) -> tuple[str, list[int]]:
        """What happened in the track: what was merged and opened, and its most important
        change; not how the matcher found the items. With the number it cites."""
        title, matches = track.title, track.matches
        if not matches:
            empty = "topic_empty_git" if self.facts.git_only else "topic_empty"
            return self.t(empty, title=title), []
        data = self.data
        picked = [data.items[x.number] for x in matches]
        prs = [i for i in picked if i.kind == "pr"]
        issues = [i for i in picked if i.kind == "issue"]
        merged = [i for i in prs if data.in_window(i.merged_at)]
        # What the sources cannot know is not counted: a git clone knows only the merges, and
        # beside API data, not when its PRs were opened.
        key = "topic_analysis"
        if self.facts.git_only:
            key = "topic_analysis_git"
        elif self.facts.unknown:
            key = "topic_analysis_mixed"
        parts = [
            self.t(
                key,
                title=title,
                total=len(picked),
                merged=len(merged),
                opened_prs=sum(1 for i in prs if data.in_window(i.created_at)),
                opened_issues=sum(1 for i in issues if data.in_window(i.created_at)),
                closed_issues=sum(
                    1 for i in issues if data.in_window(i.closed_at) and i.state == "closed"
                ),
            )
        ]
        # The track's lead: its most relevant merged PR, the most important among equals
        # (the matches' order); never one that only sweeps through the topic's paths.
        merged_numbers = {i.number for i in merged}
        top = next(
            (x.number for x in matches if x.number in merged_numbers and x.relevance > SWEPT),
            None,
        )
        if top is not None:
            parts.append(self.t("topic_top", n=top))
        open_crash = [
            i.number
            for i in issues
            if i.state == "open" and any(w.number == i.number for w in self.facts.watch)
        ]
        if open_crash:
            parts.append(self.t("topic_watch", n=len(open_crash)))
        return ("" if self.lang == "zh" else " ").join(parts), [] if top is None else [top]

    def _reason(self, reason: str) -> str:
        kind, _, value = reason.partition(":")
        return self.t(f"reason_{kind}", v=value)

    def reasons_text(self, reasons: list[str]) -> str:
        return self.join([self._reason(r) for r in reasons])

    def hot(self) -> list[m.HotDiscussion]:
        out: list[m.HotDiscussion] = []
        for d in self.facts.hot:
            item = self.data.items[d.number]
            linked_numbers = self.data.closed_by.get(d.number, []) + self.data.closes.get(
                d.number, []
            )
            linked = [self.ref(n) for n in sorted(set(linked_numbers)) if n in self.data.items]
            out.append(
                m.HotDiscussion(
                    item=self.ref(d.number),
                    score=d.score,
                    comments_in_window=d.comments,
                    participants=len(d.participants),
                    reactions=d.reactions,
                    core_topic=self.prose(HotText(d.number, "core_topic"), self._core(item)),
                    viewpoints=[self._viewpoint(p, d) for p in d.participants[:6]],
                    contention=self.prose(HotText(d.number, "contention"), self._contention(d)),
                    status=self.prose(HotText(d.number, "status"), self._status(item, d)),
                    last_activity_at=d.last_activity_at,
                    linked_prs=linked,
                )
            )
        return out

    def _core(self, item: Item) -> str:
        said = excerpt(item.body, 240 if self.lang == "en" else 120, title=item.title)
        return said or item.title

    def _viewpoint(self, p: Participant, d: Discussion) -> m.Viewpoint:
        best = p.best
        text = excerpt(best.body, 200, comment=True) or self.t("no_words")
        return m.Viewpoint(
            login=p.login,
            role=p.role,
            role_source=p.role_source,
            role_evidence=p.role_evidence,
            comments=len(p.comments),
            excerpt=self.prose(HotView(d.number, p.login or ""), text),
        )

    def _contention(self, d: Discussion) -> str:
        parts: list[str] = []
        if d.thumbs_down:
            parts.append(self.t("contention_reactions", up=d.thumbs_up, down=d.thumbs_down))
        approved = d.review_states.get("APPROVED", [])
        changes = d.review_states.get("CHANGES_REQUESTED", [])
        if approved and changes:
            parts.append(
                self.t(
                    "contention_reviews",
                    approved=self.join([self.who(x) for x in approved]),
                    changes=self.join([self.who(x) for x in changes]),
                )
            )
        maintainers = [p for p in d.participants if p.role == "maintainer"]
        others = [p for p in d.participants if p.role in ("user", "contributor")]
        if maintainers and others:
            parts.append(
                self.t(
                    "contention_roles",
                    maintainers=self.join([self.who(p.login) for p in maintainers]),
                    others=self.t("contention_users"),
                    people=self.join([self.who(p.login) for p in others]),
                )
            )
        # Nothing in the data shows a disagreement: say nothing rather than a stock sentence.
        sep = "" if self.lang == "zh" else " "
        return sep.join(parts)

    def _status(self, item: Item, d: Discussion) -> str:
        state = self.t("state_draft") if item.draft and item.state == "open" else None
        state = state or self.t(f"state_{item.display_state}")
        return self.t("status_line", state=state, when=self.local(d.last_activity_at))

    def trends(self) -> list[m.Cluster]:
        return [
            m.Cluster(
                kind=c.kind,
                name=c.name,
                count=len(c.members),
                members=[self.ref(n) for n in c.members],
            )
            for c in self.facts.clusters
        ]

    def key_changes(self) -> list[m.KeyChange]:
        out: list[m.KeyChange] = []
        for s in self.facts.key_changes:
            item = self.data.items[s.number]
            said = excerpt(item.body, 220 if self.lang == "en" else 110, title=item.title)
            what = said or self.t("change_nobody", dirs=self.join(list(s.top_dirs)) or "-")
            parts, score = dict(s.parts), s.score
            # The model may nudge the order of the chosen changes, never choose them.
            nudge = self.texts.importance.get(s.number, 0) if self.texts is not None else 0
            if nudge and self.texts is not None and PRSummary(s.number) in self.texts.texts:
                parts["model"] = float(nudge)
                score = round(score + nudge, 2)
            notes = self.texts.notes.get(s.number, []) if self.texts is not None else []
            what_changed = self.what_and_why(s.number, what)
            effect = stated_effect(item.body, EFFECT_CHARS[self.lang], already=what_changed.text)
            out.append(
                m.KeyChange(
                    item=self.ref(s.number),
                    score=score,
                    score_parts=parts,
                    additions=item.additions,
                    deletions=item.deletions,
                    changed_files=item.changed_files,
                    files_listed=len(self.data.files.get(s.number, []))
                    if s.number in self.data.files_cut
                    else None,
                    files_without_diff=self.data.unread_diffs.get(s.number),
                    top_dirs=list(s.top_dirs),
                    linked_issues=sorted(self.data.closes.get(s.number, [])),
                    what_changed=what_changed,
                    stated_effect=effect or None,
                    notes=[m.Prose(text=n, by="llm") for n in notes],
                )
            )
        out.sort(key=lambda k: (-k.score, k.item.number))
        return out

    def activity(self) -> m.Activity:
        facts = self.facts.activity
        # Names from a git history only (a login of the same spelling is someone GitHub knows).
        items = self.data.items.values()
        logins = {i.author for i in items if not is_git_name(i.author_type)}
        git_names = {i.author for i in items if is_git_name(i.author_type)} - logins
        # With nothing from the API, the people are the merged PRs' authors, no one else known.
        act_text = "act_text_git" if self.facts.git_only else "act_text"
        return m.Activity(
            top_authors=[
                m.Count(login=k, count=v, git_name=k in git_names) for k, v in facts.top_authors
            ],
            top_reviewers=[m.Count(login=k, count=v) for k, v in facts.top_reviewers],
            top_commenters=[m.Count(login=k, count=v) for k, v in facts.top_commenters],
            first_time_contributors=[
                m.FirstTimer(login=k, item=self.ref(n), git_name=k in git_names)
                for k, n in facts.first_timers
            ],
            review_latency_hours_median=facts.review_latency_hours_median,
            review_latency_sample=facts.review_latency_sample,
            authors_by=facts.authors_by,
            text=self.prose(Section("activity"), self.t(act_text, people=self.facts.participants)),
            first_timers_known=facts.first_timers_known,
            first_timers_by_merge=facts.first_timers_by_merge,
        )

    def watch(self) -> list[m.WatchItem]:
        out: list[m.WatchItem] = []
        for w in self.facts.watch:
            item = self.data.items[w.number]
            details = []
            for reason in w.reasons:
                details.append(
                    self.t(
                        f"watch_{reason}",
                        n=w.comments_in_window,
                        r=item.reactions,
                        days=w.age_days,
                    )
                )
            out.append(
                m.WatchItem(
                    item=self.ref(w.number),
                    reasons=list(w.reasons),
                    detail=m.Prose(text=self.join(details)),
                )
            )
        return out


def _level(total: int, baseline: float) -> m.Level:
    if total == 0:
        return "quiet"
    if baseline == 0:
        return "normal"
    ratio = total / baseline
    if ratio < 0.5:
        return "low"
    if ratio < 1.5:
        return "normal"
    if ratio < 2.5:
        return "high"
    return "very_high"


def _short(title: str) -> str:
    """A title named in running text, at most TITLE_CHARS long."""
    return cut(title, TITLE_CHARS) or title[: TITLE_CHARS - 1] + "…"
