"""The facts of one daily window, computed once and read by both the model and the report.

`day_facts` derives every ranking the daily report shows from the window's rows (which
facts/load/day.py reads): hot discussions, key changes, topic matches, clusters, activity and
the watch list. The analysis
layer builds its cards and section payloads from this bundle and the report writer lays out
the same objects, so what the model was shown and what the report prints cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tidings.common.config import RepoConfig, TopicConfig
from tidings.facts.activity import ActivityFacts, activity_facts
from tidings.facts.activity_data import WindowData
from tidings.facts.actors import is_bot
from tidings.facts.coverage import opened_unknown
from tidings.facts.discussions import Discussion, hot_discussions
from tidings.facts.importance import Scored, score_merged
from tidings.facts.stats import GIT_ONLY_UNKNOWN, Counts, ItemLists
from tidings.facts.topics import TopicMatch, topic_matches
from tidings.facts.trends import ClusterFact, clusters
from tidings.facts.watchlist import Watch, watchlist
from tidings.facts.windows import Window

# The headline counts, in the order reports list them (fields of facts.stats.Counts).
METRICS = ("new_issues", "closed_issues", "new_prs", "merged_prs", "closed_unmerged_prs")
HISTORY = 7  # previous windows a day is compared with


@dataclass(frozen=True)
class TopicFacts:
    """A configured topic track and the window's items that match it, most relevant first
    (facts/topics.py)."""

    topic: TopicConfig
    matches: list[TopicMatch]

    @property
    def title(self) -> str:
        return self.topic.title


@dataclass(frozen=True)
class DayFacts:
    """Everything a daily report states about one window, computed once."""

    repo: RepoConfig
    window: Window
    data: WindowData
    lists: ItemLists  # the numbers behind each headline count (the appendix)
    history: list[Counts]  # the counts of the previous windows, newest first (may be empty)
    hot: list[Discussion]
    scored: list[Scored]  # every merged PR of the window, most important first
    topics: list[TopicFacts]
    clusters: list[ClusterFact]
    activity: ActivityFacts
    # People (not bots) who commented, reviewed or opened an item (merged one, where when it
    # was opened is unknown).
    participants: int
    watch: list[Watch]
    data_as_of: datetime | None
    # Headline counts the sources cannot know (facts/coverage.py): "—" in the report, null
    # for the model, never 0.
    unknown: tuple[str, ...] = ()

    @property
    def git_only(self) -> bool:
        """Only merges are known: the store holds nothing from the GitHub API, so issues,
        unmerged PRs, comments and reviews are unknown, not none."""
        return set(GIT_ONLY_UNKNOWN) <= set(self.unknown)

    @property
    def stats(self) -> dict[str, int]:
        counts = self.lists.counts()
        return {k: getattr(counts, k) for k in METRICS}

    @property
    def baseline(self) -> dict[str, float]:
        """The mean of each count over `history`; empty without history."""
        if not self.history:
            return {}
        n = len(self.history)
        return {k: sum(getattr(h, k) for h in self.history) / n for k in METRICS}

    @property
    def key_changes(self) -> list[Scored]:
        """The merged PRs a report lists as key changes: the top of `scored`."""
        return self.scored[: self.repo.importance.top]

    @property
    def quiet(self) -> bool:
        """Nothing opened, closed or merged, and no conversation worth a section either."""
        return sum(self.stats.values()) == 0 and not self.hot


def day_facts(
    repo: RepoConfig,
    window: Window,
    data: WindowData,
    lists: ItemLists,
    history: list[Counts],
    as_of: datetime | None,
    unknown: tuple[str, ...] = (),
) -> DayFacts:
    """Derive a window's rankings from its rows: a pure function, each ranking made once.
    `unknown`: the headline counts the sources cannot know (facts/coverage.py)."""
    scored = score_merged(data, repo)
    importance = [s.number for s in scored]
    return DayFacts(
        repo=repo,
        window=window,
        data=data,
        lists=lists,
        history=history,
        hot=hot_discussions(data, repo.bots),
        scored=scored,
        topics=[TopicFacts(topic, topic_matches(data, topic, importance)) for topic in repo.topics],
        clusters=clusters(data, repo.bots),
        activity=activity_facts(data, repo.bots, by_merged=opened_unknown(unknown)),
        participants=_participants(data, repo.bots),
        watch=watchlist(data, repo.bots),
        data_as_of=as_of,
        unknown=unknown,
    )


def _participants(data: WindowData, bots: list[str]) -> int:
    """People who commented or reviewed in the window, or opened one of its items (or, when
    when it was opened is unknown, as for a PR from a git clone, merged it in the window)."""
    people = {
        c.author for c in data.activity if c.author and not is_bot(c.author, c.author_type, bots)
    }
    people |= {
        i.author
        for n in data.active
        if (i := data.items[n]).author
        and (data.in_window(i.created_at) or (i.created_at is None and data.in_window(i.merged_at)))
        and not is_bot(i.author, i.author_type, bots)
    }
    return len(people)
