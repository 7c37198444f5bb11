"""Hot topics: the window's items grouped by label, title tag and path area."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from tidings.facts.activity_data import WindowData
from tidings.facts.generated import is_bot_pr

TITLE_TAG = re.compile(r"\[([^\[\]]{1,40})\]")
# Labels that describe process rather than subject say nothing about what the day was about.
PROCESS_LABELS = frozenset(
    {"ready", "needs-info", "stale", "unstale", "keep-open", "good first issue"}
)


# Title tags that are not topics: a series position ([2/N], [3/3]), a branch or version
# ([main], [v0.11.0], [0.9.1], [releases/v1]), process marks ([WIP], [Draft], [Don't merge]).
_NON_TOPIC = re.compile(
    r"^(?:\d+\s*/\s*(?:\d+|n)|main|master|dev|develop|nightly|releases?(?:/.*)?|"
    r"v?\d+(?:\.[\dx*]+)+(?:[-.\w]*)?|v\d+|wip|draft|do ?n[o']?t merge|dnm|hold|"
    r"cherry[- ]?pick|backport|release-[\w.]+)$",
    re.IGNORECASE,
)
# Tags and labels that name a kind of change, not a technical direction: kept as themes only
# for PRs that name nothing more specific.
GENERIC_TOPICS = frozenset(
    {
        "bugfix", "bug", "bug fix", "fix", "hotfix", "feature", "feat", "new feature",
        "enhancement", "improvement", "refactor", "refactoring", "misc", "chore", "ci",
        "ci/build", "build", "doc", "docs", "documentation", "test", "tests", "testing", "ut",
        "e2e", "perf", "performance", "core", "style", "lint", "cleanup", "revert", "rfc",
        "minor", "trivial", "other", "others", "dependencies", "deps", "ci/cd", "infra",
    }
)  # fmt: skip


def is_topic_tag(tag: str) -> bool:
    """False for tags that are no topic at all (`[2/N]`, `[main]`, `[v0.11.0]`, `[WIP]`)."""
    return _NON_TOPIC.match(tag.strip()) is None


def is_generic(name: str) -> bool:
    """A kind of change (`[BugFix]`, label `documentation`) rather than a technical area."""
    return name.strip("[] ").lower() in GENERIC_TOPICS


# What groups items into a cluster or a report's busiest area: a label, a title tag, a path.
AreaKind = Literal["label", "tag", "path"]


@dataclass(frozen=True)
class ClusterFact:
    kind: AreaKind
    name: str
    members: tuple[int, ...]


def path_area(path: str, depth: int = 2) -> str:
    parts = path.split("/")
    return "/".join(parts[:depth]) if len(parts) > depth else "/".join(parts[:-1]) or path


def title_tags(title: str) -> list[str]:
    """Leading tags such as `[Bugfix][ROCm]`, as written (ties broken later case-insensitively)."""
    tags: list[str] = []
    rest = title.strip()
    while (m := TITLE_TAG.match(rest)) is not None:
        tags.append(m.group(1).strip())
        rest = rest[m.end() :].lstrip(" :")
    return tags


def topic_tags(title: str) -> list[str]:
    """The leading title tags that name a topic: `[2/N]`, `[main]` and the like left out."""
    return [t for t in title_tags(title) if is_topic_tag(t)]


def clusters(
    data: WindowData, bots: Iterable[str] = (), *, min_size: int = 2, limit: int = 8
) -> list[ClusterFact]:
    """Groups of at least `min_size` items created, closed or merged in the window. PRs by
    bots (tidings.common.bots, with the repository's `bots`) are in none, reverts excepted, as they
    are in no weekly theme: a translation sync says nothing about where people worked."""
    members: dict[tuple[AreaKind, str], set[int]] = defaultdict(set)
    names: dict[tuple[AreaKind, str], str] = {}
    bots = tuple(bots)
    for number in data.active:
        item = data.items[number]
        if not (
            data.in_window(item.created_at)
            or data.in_window(item.closed_at)
            or data.in_window(item.merged_at)
        ):
            continue
        by_bot = is_bot_pr(item.author, item.author_type, item.title, item.body, bots)
        if item.kind == "pr" and by_bot:
            continue
        for label in item.labels:
            if label.lower() not in PROCESS_LABELS:
                key: tuple[AreaKind, str] = ("label", label.lower())
                members[key].add(number)
                names.setdefault(key, label)
        for tag in topic_tags(item.title):
            key = ("tag", tag.lower())
            members[key].add(number)
            names.setdefault(key, f"[{tag}]")
        for area in {path_area(f.path) for f in data.files.get(number, [])}:
            key = ("path", area)
            members[key].add(number)
            names.setdefault(key, area)
    ranked = sorted(
        (k for k, v in members.items() if len(v) >= min_size),
        key=lambda k: (-len(members[k]), k[0], k[1]),
    )
    seen: set[frozenset[int]] = set()
    out: list[ClusterFact] = []
    for key in ranked:
        group = frozenset(members[key])
        if group in seen:
            continue  # a label and a tag naming the same items say one thing
        seen.add(group)
        out.append(ClusterFact(key[0], names[key], tuple(sorted(group, reverse=True))))
        if len(out) == limit:
            break
    return out
