"""GitHub's hourly rate-limit windows, one per resource (REST `core`, `graphql`), and the
`x-ratelimit-*` headers they answer with."""

from __future__ import annotations

import time
from dataclasses import dataclass

RATE_LIMIT = 5000


@dataclass
class _Budget:
    resource: str
    limit: int = RATE_LIMIT
    used: int = 0
    reset: int = 0

    def roll(self) -> None:
        now = int(time.time())
        if now >= self.reset:
            self.used = 0
            self.reset = now + 3600

    def charge(self, cost: int) -> None:
        self.roll()
        self.used += cost
        if self.used > self.limit:
            # Tests and benchmarks can run more requests than an hour's budget: start a new
            # window rather than stall a run on an hour-long reset.
            self.used = cost
            self.reset = int(time.time()) + 3600

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)

    def headers(self) -> dict[str, str]:
        self.roll()
        return {
            "x-ratelimit-limit": str(self.limit),
            "x-ratelimit-remaining": str(self.remaining),
            "x-ratelimit-reset": str(self.reset),
            "x-ratelimit-used": str(self.used),
            "x-ratelimit-resource": self.resource,
        }
