"""A loopback webhook receiver: what a chat service's incoming webhook sees of a notification.

Records every POST (path, headers, body) and answers `status` (200 by default), so tests can
send through Apprise's json:// and form:// services and read the payload back, or watch a
failing service be reported.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from testkit.servers.loopback import LoopbackHandler, LoopbackServer


@dataclass(frozen=True)
class Hook:
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def form(self) -> dict[str, str]:
        return {k: v[0] for k, v in parse_qs(self.body.decode("utf-8")).items()}


class WebhookReceiver:
    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.received: list[Hook] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(LoopbackHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                hook = Hook(self.path, dict(self.headers.items()), self.rfile.read(length))
                with receiver._lock:
                    receiver.received.append(hook)
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self._server = LoopbackServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def url(self, scheme: str = "json", path: str = "/hook") -> str:
        """The Apprise URL that posts here: json:// (a JSON body) or form:// (form fields)."""
        return f"{scheme}://127.0.0.1:{self.port}{path}"

    def __enter__(self) -> WebhookReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
