"""One GitHub budget for a whole run: every repository's client draws on it.

Syncing many repositories at once from one machine spends the same rate limits, so the
clients of a run share three things instead of each guessing on its own:

- **Each token's limits**, as GitHub last reported them: REST from the `X-RateLimit-*`
  headers, GraphQL points from `rateLimit { remaining resetAt cost }`. A client about to
  spend a budget that is gone sleeps until it resets (client.py `_await_budget`), and
  so does every other client of that token, since they read the same numbers.
- **A pause per token**: GitHub's secondary limits punish a burst from one user, not one
  request, so when any client is told to back off (`Retry-After`, a 429, the "secondary rate
  limit" message) every client of that token waits until then before its next request,
  rather than each finding out with a refused request of its own.
- **One in-flight cap** over all tokens: GitHub asks integrations not to send many requests
  concurrently (the secondary limits count concurrent requests), so at most
  `github.max_in_flight` requests are on the wire at once, however many repositories sync.

- **What the rest of the run is owed**: optional work (the changed lines of merged PRs,
  patches.py) asks `spare` before each request and stops while a token's budget is down to
  what the run's repositories not yet started will need (`expect`), so a run over hundreds of
  repositories defers patches to the next sync rather than spending the requests every later
  repository's listings need.

Several tokens (several accounts, or a GitHub App installation token from the environment)
spread the work: each repository keeps one token for its whole sync, chosen round-robin by
repository (`token_for`), so its stored ETags keep matching (GitHub varies them by
`Authorization`); a token whose budget is nearly spent hands its repositories to the token
with the most left.
"""

from __future__ import annotations

import ssl
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from tidings.errors import register_secret

# A token with fewer requests (or GraphQL points) than this left is passed over for new
# repositories while another has more: a busy repository's sync costs a few dozen.
RESERVE = 200
# The REST requests a repository's sync that has not started yet is owed by optional work: a
# first (bounded) sync of a quiet repository costs about five, its next day four 304s.
OWED_PER_REPOSITORY = 5


@dataclass
class Limit:
    """One resource's budget for one token, as GitHub last reported it."""

    remaining: int | None = None
    reset_at: float | None = None  # epoch seconds
    cost: int = 1  # GraphQL: the last query's cost, a guess at the next one's


@dataclass
class TokenState:
    token: str
    limits: dict[str, Limit] = field(default_factory=lambda: {"core": Limit(), "graphql": Limit()})
    paused_until: float = 0.0  # epoch seconds: a secondary limit was hit by one of its clients
    paused_by: int | None = None  # that client's thread, which waits in its own retry loop
    repositories: int = 0  # how many repositories were handed this token

    def left(self, now: float) -> int | None:
        """The smaller known budget left (None: GitHub has not said yet)."""
        known = [
            limit.remaining
            for limit in self.limits.values()
            if limit.remaining is not None
            and not (limit.reset_at is not None and limit.reset_at <= now)
        ]
        return min(known) if known else None


class GitHubBudget:
    """The tokens of a run, their limits and the in-flight cap; thread-safe."""

    def __init__(
        self,
        tokens: Sequence[str],
        *,
        max_in_flight: int = 4,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if not tokens:
            raise ValueError("a GitHub budget needs at least one token")
        for token in tokens:
            register_secret(token)
        # The same token listed twice is one budget, not two.
        unique = list(dict.fromkeys(tokens))
        self.tokens = [TokenState(token) for token in unique]
        self.max_in_flight = max(1, max_in_flight)
        self._slots = threading.BoundedSemaphore(self.max_in_flight)
        self._lock = threading.Lock()
        self._clock = clock
        self._sleep = sleep
        self._in_flight = 0
        self.peak_in_flight = 0  # the most requests seen on the wire at once
        self._waiting = 0  # repositories of the run not yet handed a token (`expect`)
        self._ssl: ssl.SSLContext | None = None

    def ssl_context(self) -> ssl.SSLContext:
        """One TLS context for every client of the run: loading the CA bundle costs ~40 ms
        of CPU, which 500 repositories' clients would otherwise pay 500 times."""
        with self._lock:
            if self._ssl is None:
                import httpx

                self._ssl = httpx.create_ssl_context()
            return self._ssl

    def state(self, token: str) -> TokenState:
        for state in self.tokens:
            if state.token == token:
                return state
        raise KeyError("token not in this budget")

    def expect(self, repositories: int) -> None:
        """The run will sync `repositories` repositories: until each is handed its token,
        optional work keeps their share of the budget (`spare`)."""
        with self._lock:
            self._waiting = max(0, repositories)

    def spare(self, token: str, resource: str = "core", now: float | None = None) -> int | None:
        """How many of `token`'s `resource` requests optional work may spend now: what GitHub
        last reported left, less RESERVE and what the repositories still to start are owed
        (None: GitHub has not said yet, so nothing is known to be short)."""
        with self._lock:
            state = self.state(token)
            limit = state.limits[resource]
            moment = self._clock() if now is None else now
            if limit.remaining is None or (limit.reset_at is not None and limit.reset_at <= moment):
                return None
            # The repositories still to start are spread over the tokens round-robin.
            owed = -(-self._waiting // len(self.tokens)) * OWED_PER_REPOSITORY
            return limit.remaining - RESERVE - owed

    def token_for(self, position: int) -> str:
        """The token for the repository at `position` of the run (its index by name): round-
        robin, unless that token's known budget is below RESERVE while another has more."""
        with self._lock:
            now = self._clock()
            chosen = self.tokens[position % len(self.tokens)]
            left = chosen.left(now)
            if left is not None and left < RESERVE:
                best = max(self.tokens, key=lambda s: _room(s.left(now)))
                if _room(best.left(now)) > left:
                    chosen = best
            chosen.repositories += 1
            self._waiting = max(0, self._waiting - 1)
            return chosen.token

    @contextmanager
    def request(self, token: str) -> Iterator[None]:
        """Hold one of the run's in-flight slots for a request made with `token`, after any
        pause a secondary limit put on that token."""
        state = self.state(token)
        wait = state.paused_until - self._clock()
        if wait > 0 and state.paused_by != threading.get_ident():
            self._sleep(wait)
        with self._slots:
            with self._lock:
                self._in_flight += 1
                self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
            try:
                yield
            finally:
                with self._lock:
                    self._in_flight -= 1

    def pause(self, token: str, seconds: float) -> None:
        """Every client of `token` waits `seconds` from now before its next request."""
        state = self.state(token)
        with self._lock:
            until = self._clock() + seconds
            if until > state.paused_until:
                state.paused_until, state.paused_by = until, threading.get_ident()


def _room(left: int | None) -> float:
    # An unreported budget is as good as a fresh one.
    return float("inf") if left is None else float(left)
