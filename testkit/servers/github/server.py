"""The HTTP side: a loopback server whose handler hands each request to the fake."""

from __future__ import annotations

import contextlib
import socket
from typing import TYPE_CHECKING

from testkit.servers.github.wire import _Response
from testkit.servers.loopback import LoopbackHandler, LoopbackServer

if TYPE_CHECKING:
    from testkit.servers.github.fake import FakeGitHub


class _Server(LoopbackServer):
    fake: FakeGitHub


class _Handler(LoopbackHandler):
    server: _Server

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def do_PUT(self) -> None:
        self._handle("PUT")

    def do_DELETE(self) -> None:
        self._handle("DELETE")

    def _handle(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        response = self.server.fake._serve(method, self.path, headers, body)
        try:
            self._write(response)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True

    def _write(self, response: _Response) -> None:
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        if response.status == 304:
            self.end_headers()
            return
        if response.truncate:
            # Promise more than we send, then hang up: the client sees a cut-off body.
            self.send_header("Content-Length", str(len(response.body) + 512))
            self.end_headers()
            self.wfile.write(response.body[: len(response.body) // 2])
            self.wfile.flush()
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        self.wfile.write(response.body)
