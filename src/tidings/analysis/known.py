"""What an analyst keeps of the run's windows for its guards: each window's items and
everyone's role in it, and what each PR card was cut from (its description and evidence), so
a cached answer or a section is checked against the same facts as a fresh card answer."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tidings.analysis.cards import pr_source
from tidings.analysis.guard import Facts
from tidings.analysis.objections import Window, guard_for
from tidings.facts.activity_data import WindowData
from tidings.facts.evidence import PREvidence


class Known:
    def __init__(self) -> None:
        # (repository, PR) -> what its card was cut from (cards.pr_source), for the guard
        self.sources: dict[tuple[str, int], dict[str, Any]] = {}
        self.windows: dict[tuple[str, Any, Any], Window] = {}

    def window(self, data: WindowData) -> Window:
        """The window's items and roles, worked out once per window."""
        key = (data.repo, data.start, data.end)
        if key not in self.windows:
            self.windows[key] = window_of(data)
        return self.windows[key]

    def note_sources(self, data: WindowData, evidence: dict[int, PREvidence]) -> None:
        for n, ev in evidence.items():
            item = data.items.get(n)
            if item is not None and item.kind == "pr":
                self.sources[(data.repo, n)] = pr_source(item, ev)

    def sources_of(
        self, data: WindowData, cards: list[dict[str, Any]]
    ) -> dict[int, dict[str, Any]]:
        """What each PR card of a batch was cut from (its description alone when the window
        holds no diff evidence for it)."""
        out: dict[int, dict[str, Any]] = {}
        for card in cards:
            n = card["number"]
            source = self.sources.get((data.repo, n))
            item = data.items.get(n)
            if source is None and item is not None:
                source = pr_source(item, None)
            if source is not None:
                out[n] = source
        return out

    def guard(self, data: WindowData, payload: Any, logins: Iterable[str]) -> Facts:
        # Only item numbers the payload states as facts (`number`, `linked`, ...) and that are
        # items of the window are citable; a "#N" inside someone's text is theirs, not the
        # report's. Citable: the window's items and those they link to or name that the store
        # holds (`related` entries; WindowData.named). Roles are the window's, whatever the
        # payload lists.
        return guard_for(payload, self.window(data), logins=logins)


def window_of(data: WindowData) -> Window:
    """The window's items and everyone's role in it (authors and commenters)."""
    roles: dict[str, str] = {}
    for item in data.items.values():
        people = [(item.author, item.author_type, item.author_association)]
        people += [
            (c.author, c.author_type, c.author_association) for c in data.activity_on(item.number)
        ]
        for login, kind, association in people:
            if login and login.lower() not in roles:
                roles[login.lower()] = data.roles.of(login, kind, association).role
    return Window(items=frozenset(data.items) | frozenset(data.named), roles=roles)
