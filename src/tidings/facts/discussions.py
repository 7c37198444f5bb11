"""Hot discussions: the items people talked about most in the window (bots excluded)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from tidings.facts.activity_data import Comment, WindowData
from tidings.facts.actors import is_bot
from tidings.facts.review_notes import ReviewNote
from tidings.facts.roles import Role, RoleSource

# score = comments + 2 · distinct participants + reactions / 2; a thread needs at least two
# people or three comments in the window to count as a discussion at all.
MIN_PARTICIPANTS = 2
MIN_COMMENTS = 3


@dataclass
class Participant:
    login: str | None
    role: Role
    role_source: RoleSource
    role_evidence: str | None = None
    comments: list[Comment] = field(default_factory=list)

    @property
    def best(self) -> Comment:
        """Their most-reacted comment, then their longest: the one that best states a view."""
        return max(self.comments, key=lambda c: (c.reactions, len(c.body.strip()), c.created_at))


@dataclass
class Discussion:
    number: int
    score: float
    comments: int
    participants: list[Participant]
    reactions: int
    thumbs_up: int
    thumbs_down: int
    last_activity_at: datetime
    review_states: dict[str, list[str | None]]  # state -> reviewers, for PRs
    # A PR's reviews and inline review comments up to the window's end, before the window
    # too (facts/review_notes.py); filled by load_day from the store, empty for an issue.
    review_notes: list[ReviewNote] = field(default_factory=list)


def hot_discussions(data: WindowData, bots: list[str], limit: int = 5) -> list[Discussion]:
    found: list[Discussion] = []
    for number in data.active:
        human = [
            c
            for c in data.activity_on(number)
            if not is_bot(c.author, c.author_type, bots) and (c.body.strip() or c.kind != "review")
        ]
        if not human:
            continue
        people: dict[str | None, Participant] = {}
        for c in human:
            if c.author not in people:
                said = data.roles.of(c.author, c.author_type, c.author_association)
                people[c.author] = Participant(c.author, said.role, said.source, said.evidence)
            people[c.author].comments.append(c)
        if len(people) < MIN_PARTICIPANTS and len(human) < MIN_COMMENTS:
            continue
        item = data.items[number]
        reactions = item.reactions + sum(c.reactions for c in human)
        states: dict[str, list[str | None]] = {}
        for c in human:
            if (
                c.kind == "review"
                and c.review_state
                and c.author not in states.get(c.review_state, [])
            ):
                states.setdefault(c.review_state, []).append(c.author)
        score = len(human) + 2 * len(people) + reactions / 2
        # The item's author speaks first, then others in order of their first word.
        ordered = sorted(
            people.values(), key=lambda p: (p.login != item.author, p.comments[0].created_at)
        )
        found.append(
            Discussion(
                number=number,
                score=round(score, 1),
                comments=len(human),
                participants=ordered,
                reactions=reactions,
                thumbs_up=item.reactions_by.get("+1", 0),
                thumbs_down=item.reactions_by.get("-1", 0),
                last_activity_at=max(c.created_at for c in human),
                review_states=states,
            )
        )
    found.sort(key=lambda d: (-d.score, -d.comments, d.number))
    return found[:limit]
