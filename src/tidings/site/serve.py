"""`tidings serve`: preview a built site on localhost with the standard library's server."""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tidings.errors import TidingsError


class _Handler(SimpleHTTPRequestHandler):
    # Feeds and Markdown downloads with their charset, so browsers show Chinese correctly.
    extensions_map = {  # noqa: RUF012 (the base class declares it as a plain dict)
        **SimpleHTTPRequestHandler.extensions_map,
        ".xml": "application/atom+xml; charset=utf-8",
        ".md": "text/markdown; charset=utf-8",
        ".json": "application/json; charset=utf-8",
        ".html": "text/html; charset=utf-8",
    }

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: the command prints the address once


def make_server(root: Path, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    """A server for `root` (port 0: any free port; read it from server.server_address)."""
    if not (root / "index.html").is_file():
        raise TidingsError(
            f"{root} has no index.html", "build the site first: tidings site build --out DIR"
        )
    handler = functools.partial(_Handler, directory=str(root))
    try:
        return ThreadingHTTPServer((host, port), handler)
    except OSError as exc:
        raise TidingsError(
            f"cannot listen on {host}:{port}: {exc.strerror}", "pick another --port"
        ) from exc
