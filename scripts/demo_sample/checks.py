"""Checks on the finished records that no single record can make: the story's quiet day."""

from __future__ import annotations

from datetime import UTC, datetime

from demo_sample.model import Frame, StoryError
from tidings.common import records as r


def check_quiet(
    frame: Frame,
    items: list[r.ItemRecord],
    comments: list[r.CommentRecord],
    reviews: list[r.ReviewRecord],
    review_comments: list[r.ReviewCommentRecord],
) -> None:
    """The quiet day's window: nothing opens, closes or merges, and one comment at most."""
    start, end = (moment.astimezone(UTC) for moment in frame.quiet)

    def inside(moment: datetime | None) -> bool:
        return moment is not None and start <= moment < end

    for item in items:
        if inside(item.created_at) or inside(item.closed_at) or inside(item.merged_at):
            raise StoryError(f"#{item.number} opens, closes or merges on the quiet day")
    activity = [c.created_at for c in comments] + [v.submitted_at for v in reviews]
    activity += [c.created_at for c in review_comments]
    if sum(inside(moment) for moment in activity) > 1:
        raise StoryError("the quiet day has more than one comment or review")
