"""`tidings serve`: preview a built site on localhost with the standard library's server.

Only the site is served: a regular file inside the folder, after following any symbolic link.
A link pointing out of the folder, a dotfile or dot-folder (the build's manifest, an editor's
swap file, `.git`), and a folder without index.html answer 404; no folder is ever listed. The
folder is found by its path on every request, so a rebuild swapping in a new site
(site/publish.py) is served at once. A path no file can have (a NUL byte) answers 400, and one
the file system refuses to look up (too long, too deep, a symbolic link loop) 404: a request
never ends in a traceback and a dropped connection.
"""

from __future__ import annotations

import email.utils
import functools
import io
import os
import stat
import urllib.parse
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import BinaryIO

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

    def published(self, requested: Path) -> Path | None:
        """The regular file inside the site a request's path names, else None (404)."""
        root = Path(self.directory).resolve()
        if any(part.startswith(".") for part in requested.relative_to(self.directory).parts):
            return None
        if requested.is_dir():
            requested = requested / "index.html"
        real = requested.resolve()
        if root not in real.parents:
            return None  # a symbolic link out of the folder
        if any(part.startswith(".") for part in real.relative_to(root).parts):
            return None
        return real if real.is_file() else None  # never open a fifo: it would block

    def send_head(self) -> BinaryIO | None:
        # The base class drops "..", empty and drive parts and joins the rest to the folder.
        translated = self.translate_path(self.path)
        url = urllib.parse.urlsplit(self.path)
        if "\x00" in translated:  # `/%00`: no file name holds one, and os calls refuse it
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad request path")
            return None
        requested = Path(translated)
        try:
            path = self.published(requested)
            folder = path is not None and requested.is_dir()
        except (OSError, RuntimeError):
            # A name or path too long for the file system (5,000 characters, 3,000 segments)
            # or a symbolic link loop (RuntimeError before Python 3.13): no file of the site.
            path = None
        if path is None:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        if folder and not url.path.endswith("/"):  # relative links need the slash
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", urllib.parse.urlunsplit(url._replace(path=url.path + "/")))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        try:
            handle = open(path, "rb")  # noqa: SIM115 (the caller copies and closes it)
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):  # replaced since the check above
            handle.close()
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(info.st_size))
        self.send_header("Last-Modified", email.utils.formatdate(info.st_mtime, usegmt=True))
        self.end_headers()
        return handle

    def list_directory(self, path: str | os.PathLike[str]) -> io.BytesIO | None:
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None


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
