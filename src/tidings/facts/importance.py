"""How important a merged PR is, as a sum of explained parts.

score = size · log2(1 + changed lines, generated and vendored files and, where known, lines
                     that only re-format code left out)
      + core_path (once, if any file matches the repository's core_paths)
      + discussion · log2(1 + comments + reviews)
      + linked_issue · min(3, issues the PR closes)
      + revert (once, when the PR reverts another)
      + the configured weight of each of its labels

A PR opened by a bot (dependabot, a translation workflow: facts/generated.py) scores 0 with
the one part `bot`: it is counted everywhere, ranked last. A revert is news whoever opened it.

Weights come from `[repos.importance]` in tidings.toml. Every report shows the parts, so a
reader can see why a PR ranks where it does.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from tidings.common.config import RepoConfig
from tidings.common.globs import any_match
from tidings.facts.activity_data import WindowData
from tidings.facts.generated import is_bot_pr, is_generated
from tidings.facts.reverts import is_revert


@dataclass(frozen=True)
class Scored:
    number: int
    score: float
    parts: dict[str, float]
    top_dirs: tuple[str, ...]


def top_dirs(
    paths_with_churn: list[tuple[str, int]], depth: int = 2, n: int = 3
) -> tuple[str, ...]:
    churn: Counter[str] = Counter()
    for path, lines in paths_with_churn:
        parts = path.split("/")
        churn["/".join(parts[:depth]) if len(parts) > depth else path] += max(lines, 1)
    return tuple(d for d, _ in sorted(churn.items(), key=lambda kv: (-kv[1], kv[0]))[:n])


def score_merged(
    data: WindowData, repo: RepoConfig, restyled: Mapping[int, int] | None = None
) -> list[Scored]:
    """Merged PRs of the window, most important first (ties: lower number first).
    `restyled`: per PR, changed lines that only re-format code (facts/formatting.py), left
    out of its size as generated files are."""
    weights = repo.importance
    label_weights = {k.lower(): v for k, v in weights.labels.items()}
    discussion = Counter(c.number for c in data.activity)
    scored: list[Scored] = []
    for number in data.active:
        item = data.items[number]
        if item.kind != "pr" or not data.in_window(item.merged_at):
            continue
        files = data.files.get(number, [])
        dirs = top_dirs(
            [(f.path, f.additions + f.deletions) for f in files if not is_generated(f.path, repo)]
        )
        revert = is_revert(item.title, item.body)
        if is_bot_pr(item.author, item.author_type, item.title, item.body, repo.bots):
            scored.append(Scored(number, 0.0, {"bot": 0.0}, dirs))
            continue
        generated = sum(f.additions + f.deletions for f in files if is_generated(f.path, repo))
        lines = max(0, item.additions + item.deletions - generated)
        lines = max(0, lines - (restyled or {}).get(number, 0))
        parts: dict[str, float] = {"size": round(weights.size * math.log2(1 + lines), 2)}
        if repo.core_paths and any(any_match(repo.core_paths, f.path) for f in files):
            parts["core_path"] = weights.core_path
        talk = max(item.comments_count, discussion[number])
        if talk:
            parts["discussion"] = round(weights.discussion * math.log2(1 + talk), 2)
        linked = len(data.closes.get(number, []))
        if linked:
            parts["linked_issues"] = weights.linked_issue * min(3, linked)
        if weights.revert and revert:
            parts["revert"] = weights.revert
        for label in item.labels:
            if label.lower() in label_weights:
                parts[f"label:{label}"] = label_weights[label.lower()]
        total = round(sum(parts.values()), 2)
        scored.append(Scored(number, total, parts, dirs))
    scored.sort(key=lambda s: (-s.score, s.number))
    return scored
