"""A request as the fake receives and logs it, and the response it sends back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Api = Literal["rest", "graphql"]


@dataclass(frozen=True)
class LoggedRequest:
    """One answered request, as the test sees it."""

    method: str
    path: str
    query: dict[str, str]
    status: int
    api: Api
    not_modified: bool = False
    fault: str | None = None


@dataclass(frozen=True)
class Request:
    """A request as `on_request` callbacks and fault matchers see it, before it is served."""

    method: str
    path: str
    query: dict[str, str]
    raw_query: str
    headers: dict[str, str]  # lower-cased names
    body: bytes
    api: Api

    @property
    def target(self) -> str:
        return f"{self.path}?{self.raw_query}" if self.raw_query else self.path

    @property
    def token(self) -> str:
        """The credential of `Authorization: Bearer|token ...` ("" for any other scheme)."""
        scheme, _, credential = self.headers.get("authorization", "").partition(" ")
        return credential.strip() if scheme.lower() in ("bearer", "token") else ""


@dataclass
class _Response:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    truncate: bool = False
    not_modified: bool = False
    fault: str | None = None


class _HTTPError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
