"""Issue and PR records, with each PR's changed files and the issues it closes."""

from __future__ import annotations

from typing import Any

from demo_sample.events import Events, ReviewEvent
from demo_sample.model import Item, Story, StoryError
from demo_sample.stamps import digest, node
from demo_sample.timeline import Activity, Timeline
from tidings.common import records as r


def item_records(
    story: Story,
    events: Events,
    timeline: Timeline,
    activity: Activity,
    per_review: dict[int, int],
) -> tuple[list[r.ItemRecord], list[r.PRFileRecord], list[r.ClosingRefRecord]]:
    """Every item's record, after its comments and reviews have touched `activity`."""
    items, files, refs = [], [], []
    for it in story.items:
        common = _common(story, it, timeline, activity)
        if it.kind == "issue":
            items.append(
                r.ItemRecord(
                    **common,
                    github_id=node("I_kwDOQdm", common["number"]),
                    state_reason=it.reason,
                    url=f"{story.frame.web}/issues/{common['number']}",
                )
            )
            continue
        reviews = [e for e in events.reviews if e.item is it]
        items.append(_pr(story, it, common, timeline, reviews, per_review))
        files += _files(it, common["number"])
        refs += _refs(story, it, common["number"], timeline)
    return items, files, refs


def _common(story: Story, it: Item, timeline: Timeline, activity: Activity) -> dict[str, Any]:
    """The fields issues and PRs share."""
    n = timeline.numbers[it.key]
    made = timeline.created[it.key]
    closed = timeline.closed_at(it)
    merged = timeline.merged_at.get(it.key)
    for moment in (closed, merged):
        if moment is not None:
            activity.touch(it, moment)
    activity.touch(it, made)
    if closed and it.closed and it.closed.startswith("@"):
        closer = timeline.by_key[it.closed[1:]]
        if it.key not in closer.closes:
            raise StoryError(f"{it.key}: closed by {closer.key}, which does not close it")
    updated = activity.latest[it.key]
    if updated > story.frame.exported_at:
        raise StoryError(f"{it.key}: activity after the snapshot's as-of time")
    person = story.people[it.by]
    return {
        "number": n,
        "kind": it.kind,
        "title": timeline.text(it.title, made, f"{it.key} title"),
        "body": timeline.text(it.body, made, f"{it.key} body"),
        "author": it.by,
        "author_type": person.type,
        "author_association": person.association,
        "state": "closed" if closed else "open",
        "locked": it.locked,
        "labels": list(it.labels),
        "created_at": made,
        "updated_at": updated,
        "closed_at": closed,
        "reactions": dict(it.reactions),
        "comments_count": len(it.comments),
        "detail_updated_at": updated,
        "checked_updated_at": updated,
    }


def _pr(
    story: Story,
    it: Item,
    common: dict[str, Any],
    timeline: Timeline,
    reviews: list[ReviewEvent],
    per_review: dict[int, int],
) -> r.ItemRecord:
    n = common["number"]
    merged = timeline.merged_at.get(it.key)
    branch = timeline.text(it.head_ref, common["created_at"], f"{it.key} branch")
    return r.ItemRecord(
        **common,
        github_id=node("PR_kwDOQdm", n),
        draft=it.draft,
        merged_at=merged,
        merged=merged is not None,
        merged_by=it.merged_by if merged else None,
        merge_commit_sha=digest(story.frame.repository, it.key, "merge") if merged else None,
        additions=sum(f.add for f in it.files),
        deletions=sum(f.dele for f in it.files),
        changed_files=len(it.files),
        commits=it.commits,
        base_ref=story.frame.default_branch,
        head_ref=branch.replace("#", ""),
        head_sha=timeline.head_sha[it.key],
        review_decision=decision(reviews),
        review_comments_count=sum(per_review.get(e.id, 0) for e in reviews),
        url=f"{story.frame.web}/pull/{n}",
    )


def decision(reviews: list[ReviewEvent]) -> str:
    """GitHub's reviewDecision from each reviewer's latest approving/blocking review."""
    last: dict[str | None, str] = {}
    for e in sorted(reviews, key=lambda e: e.when):
        if e.review.state in ("APPROVED", "CHANGES_REQUESTED"):
            last[e.review.by] = e.review.state
    if "CHANGES_REQUESTED" in last.values():
        return "CHANGES_REQUESTED"
    if "APPROVED" in last.values():
        return "APPROVED"
    return "REVIEW_REQUIRED"


def _files(it: Item, n: int) -> list[r.PRFileRecord]:
    paths = [f.path for f in it.files]
    if len(set(paths)) != len(paths):
        raise StoryError(f"{it.key}: a file is listed twice")
    return [
        r.PRFileRecord(number=n, path=f.path, status=f.status, additions=f.add, deletions=f.dele)
        for f in it.files
    ]


def _refs(story: Story, it: Item, n: int, timeline: Timeline) -> list[r.ClosingRefRecord]:
    """The issues a PR closes: story keys, or "owner/repo#N" in another repository."""
    refs = []
    for ref in it.closes:
        if "#" in ref:
            repo, _, num = ref.partition("#")
            refs.append(r.ClosingRefRecord(number=n, issue_repo=repo, issue_number=int(num)))
            continue
        if timeline.by_key[ref].kind != "issue":
            raise StoryError(f"{it.key}: closes {ref}, which is not an issue")
        refs.append(
            r.ClosingRefRecord(
                number=n, issue_repo=story.frame.repository, issue_number=timeline.numbers[ref]
            )
        )
    return refs
