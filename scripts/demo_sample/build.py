"""The story as tidings records, in the order `tidings export` writes them."""

from __future__ import annotations

from demo_sample.checks import check_quiet
from demo_sample.events import Events, collect
from demo_sample.items import item_records
from demo_sample.model import Story
from demo_sample.stamps import node
from demo_sample.timeline import Activity, Timeline
from tidings.common import records as r


def build(story: Story) -> list[r.Record]:
    """Every record of the sample, in the order `tidings export` writes them."""
    timeline = Timeline(story)
    events = collect(story, timeline)
    activity = Activity(timeline)
    comments = _comments(story, events, timeline, activity)
    review_comments, per_review = _review_comments(story, events, timeline, activity)
    reviews = _reviews(story, events, timeline, activity, per_review)
    items, files, refs = item_records(story, events, timeline, activity, per_review)
    check_quiet(story.frame, items, comments, reviews, review_comments)
    frame = story.frame
    repo = r.RepositoryRecord(
        full_name=frame.repository,
        github_id=frame.github_id,
        url=frame.web,
        description=frame.description,
        default_branch=frame.default_branch,
    )
    return [
        repo,
        *sorted(items, key=lambda x: x.number),
        *sorted(comments, key=lambda x: x.id),
        *sorted(reviews, key=lambda x: x.id),
        *sorted(review_comments, key=lambda x: x.id),
        *sorted(files, key=lambda x: (x.number, x.path)),
        *sorted(refs, key=lambda x: (x.number, x.issue_repo, x.issue_number)),
    ]


def _comments(
    story: Story, events: Events, timeline: Timeline, activity: Activity
) -> list[r.CommentRecord]:
    out = []
    for e in events.comments:
        c = e.comment
        n = timeline.numbers[e.item.key]
        kind_path = "pull" if e.item.kind == "pr" else "issues"
        updated = timeline.at(c.edited, f"{e.item.key}/edit") if c.edited else e.when
        activity.touch(e.item, updated)
        person = story.people[c.by]
        out.append(
            r.CommentRecord(
                id=e.id,
                number=n,
                github_id=node("IC_kwDOQdm", e.id),
                author=c.by,
                author_type=person.type,
                author_association=person.association,
                body=timeline.text(c.body, e.when, f"{e.item.key} comment"),
                created_at=e.when,
                updated_at=updated,
                reactions=dict(c.reactions),
                url=f"{story.frame.web}/{kind_path}/{n}#issuecomment-{e.id}",
            )
        )
    return out


def _review_comments(
    story: Story, events: Events, timeline: Timeline, activity: Activity
) -> tuple[list[r.ReviewCommentRecord], dict[int, int]]:
    """The review comment records, and how many each review has (by review id)."""
    by_key = {e.comment.key: e for e in events.review_comments if e.comment.key}
    per_review: dict[int, int] = {}
    out = []
    for e in events.review_comments:
        rc = e.comment
        n = timeline.numbers[e.item.key]
        parent = by_key[rc.reply_to] if rc.reply_to else None
        # A reply sits on its parent's line.
        source = parent.comment if parent else rc
        if not source.path or source.path not in {f.path for f in e.item.files}:
            raise ValueError(f"{e.item.key}: review comment on a path the PR does not change")
        per_review[e.review.id] = per_review.get(e.review.id, 0) + 1
        activity.touch(e.item, e.when)
        by = e.review.review.by
        person = story.people[by]
        out.append(
            r.ReviewCommentRecord(
                id=e.id,
                number=n,
                review_id=e.review.id,
                in_reply_to_id=parent.id if parent else None,
                github_id=node("PRRC_kwDOQdm", e.id),
                author=by,
                author_type=person.type,
                author_association=person.association,
                path=source.path,
                line=source.line,
                original_line=source.line,
                side="RIGHT",
                diff_hunk=source.hunk,
                body=timeline.text(rc.body, e.when, f"{e.item.key} review comment"),
                commit_sha=timeline.head_sha[e.item.key],
                created_at=e.when,
                updated_at=e.when,
                reactions=dict(rc.reactions),
                url=f"{story.frame.web}/pull/{n}#discussion_r{e.id}",
            )
        )
    return out, per_review


def _reviews(
    story: Story,
    events: Events,
    timeline: Timeline,
    activity: Activity,
    per_review: dict[int, int],
) -> list[r.ReviewRecord]:
    out = []
    for e in events.reviews:
        rv = e.review
        n = timeline.numbers[e.item.key]
        activity.touch(e.item, e.when)
        person = story.people[rv.by]
        out.append(
            r.ReviewRecord(
                id=e.id,
                number=n,
                github_id=node("PRR_kwDOQdm", e.id),
                author=rv.by,
                author_type=person.type,
                author_association=person.association,
                state=rv.state,
                body=timeline.text(rv.body, e.when, f"{e.item.key} review"),
                submitted_at=e.when,
                commit_sha=timeline.head_sha[e.item.key],
                comments_count=per_review.get(e.id, 0),
                url=f"{story.frame.web}/pull/{n}#pullrequestreview-{e.id}",
            )
        )
    return out
