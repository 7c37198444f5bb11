"""Everything said on the items, timed and given GitHub-like ids in the order it happened."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Protocol, TypeVar

from demo_sample.model import Comment, Item, Review, ReviewComment, Story, StoryError
from demo_sample.stamps import ids
from demo_sample.timeline import Timeline

# Where each kind's ids start: GitHub's global sequences, as one repository sees them.
ID_BASES = {"comment": 4_012_000_000, "review": 3_310_000_000, "review_comment": 2_905_000_000}
# Pending review comments are written before their review is submitted, this far apart.
PENDING_GAP = timedelta(seconds=40)


@dataclass
class CommentEvent:
    item: Item
    when: datetime
    comment: Comment
    id: int = 0


@dataclass
class ReviewEvent:
    item: Item
    when: datetime
    review: Review
    id: int = 0


@dataclass
class ReviewCommentEvent:
    item: Item
    when: datetime
    comment: ReviewComment
    review: ReviewEvent
    id: int = 0


@dataclass
class Events:
    comments: list[CommentEvent] = field(default_factory=list)
    reviews: list[ReviewEvent] = field(default_factory=list)
    review_comments: list[ReviewCommentEvent] = field(default_factory=list)


def collect(story: Story, timeline: Timeline) -> Events:
    """Every comment, review and review comment in time order, each with its id."""
    events = Events()
    for it in story.items:
        for i, c in enumerate(it.comments):
            events.comments.append(CommentEvent(it, timeline.at(c.at, f"{it.key}/c{i}"), c))
        if it.merged and not any(rv.state == "APPROVED" for rv in it.reviews):
            raise StoryError(f"{it.key}: a merged PR needs an approving review")
        for j, rv in enumerate(it.reviews):
            review = ReviewEvent(it, timeline.at(rv.at, f"{it.key}/r{j}"), rv)
            events.reviews.append(review)
            for k, rc in enumerate(rv.comments):
                when = review.when - PENDING_GAP * (len(rv.comments) - k)
                events.review_comments.append(ReviewCommentEvent(it, when, rc, review))
    _number(events.comments, "comment", timeline)
    _number(events.reviews, "review", timeline)
    _number(events.review_comments, "review_comment", timeline)
    return events


class _Timed(Protocol):
    item: Item
    when: datetime
    id: int


E = TypeVar("E", bound=_Timed)


def _number(
    events: list[E],
    kind: str,
    timeline: Timeline,
) -> None:
    """Ids in time order; simultaneous events of different items in item-number order."""
    events.sort(key=lambda e: (e.when, timeline.numbers[e.item.key]))
    for e, ident in zip(events, ids(ID_BASES[kind], kind, len(events)), strict=True):
        e.id = ident
