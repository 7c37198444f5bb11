"""The request log tests count, and the hour's reset of the rate-limit windows."""

from __future__ import annotations

import time

from testkit.servers.github.core import FakeCore
from testkit.servers.github.wire import Api, LoggedRequest


class RequestLogMixin(FakeCore):
    """What the tests read back: every answered request, and fresh rate-limit windows."""

    @property
    def requests(self) -> list[LoggedRequest]:
        with self._lock:
            return list(self._log)

    def count(
        self,
        api: Api | None = None,
        status: int | None = None,
        *,
        path_contains: str | None = None,
        not_modified: bool | None = None,
    ) -> int:
        with self._lock:
            return sum(
                1
                for entry in self._log
                if (api is None or entry.api == api)
                and (status is None or entry.status == status)
                and (path_contains is None or path_contains in entry.path)
                and (not_modified is None or entry.not_modified == not_modified)
            )

    def reset_log(self) -> None:
        with self._lock:
            self._log.clear()

    def new_hour(self) -> None:
        """Start fresh rate-limit windows, as GitHub does on the hour (a benchmark's "next
        day" run must not inherit what the first run spent)."""
        with self._lock:
            for budget in (self._core, self._graphql):
                budget.used = 0
                budget.reset = int(time.time()) + 3600
