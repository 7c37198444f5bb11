"""The error types the CLI turns into a one-line message and a non-zero exit, the warning type
it prints as one line, and the redaction every line passes through."""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

# The error types `tidings` exports; the redaction helpers below are the CLI's, not API.
__all__ = [
    "ConfigError",
    "InvocationError",
    "SnapshotError",
    "SourceError",
    "StoreError",
    "TidingsError",
    "TidingsWarning",
    "UncoveredWindowError",
    "WindowError",
]


class TidingsError(Exception):
    """A failure the user can act on: `cause` says what went wrong, `fix` what to do about it.

    The CLI prints ``error: <cause> — <fix>`` on one line and exits with `exit_code`.
    Never put a token or API key in either string; `redact` runs over both anyway.
    """

    exit_code = 1
    # Whether the same work may well succeed later, unchanged: GitHub answering 5xx or not at
    # all, a rate limit, another sync holding the repository. A queue job failing so is tried
    # again after a wait (tidings.jobs.queue); anything else (a bad token, an unknown repository, a
    # config mistake) would fail the same way every time, so it waits for the user.
    transient = False

    def __init__(self, cause: str, fix: str = "", *, transient: bool | None = None) -> None:
        super().__init__(cause)
        self.cause = cause
        self.fix = fix
        if transient is not None:
            self.transient = transient

    def one_line(self) -> str:
        text = self.cause if not self.fix else f"{self.cause} — {self.fix}"
        return " ".join(text.split())


class InvocationError(TidingsError):
    """The command line or the config file is wrong as written (a malformed or out-of-range
    value, a contradictory pair of options): exit 2, as Click's own usage errors do.

    Everything found wrong while carrying out a well-formed command (a missing or damaged
    file, the store, GitHub, the disk, data not synced yet) stays a plain TidingsError: exit 1.
    """

    exit_code = 2


class UncoveredWindowError(TidingsError):
    """The window has not ended, or the store's data stops before its end."""


class WindowError(InvocationError):
    """A date or week the user typed that is malformed or out of range."""


class ConfigError(InvocationError):
    """tidings.toml is missing (when named), unreadable or invalid: it is part of how the
    command was asked for, so it exits 2 like a bad option."""


class SnapshotError(TidingsError):
    """A snapshot file could not be read or written, or its contents are damaged."""


class SourceError(TidingsError):
    """A remote source (GitHub) failed in a way retries could not fix."""


class StoreError(TidingsError):
    """The store (the database) refused, or holds something this tidings cannot use."""


class TidingsWarning(UserWarning):
    """Something the user should know that does not stop the work: a window the store does not
    reach to its end (reported with `allow_partial`), a model that failed on some texts, a
    maintainer team no sync has listed. The API issues it through `warnings.warn`; the CLI
    prints each as one `warning:` line on stderr."""


_SECRETS: set[str] = set()


def register_secret(value: str | None) -> None:
    """Remember a secret so `redact` can scrub it from any text that leaves the process."""
    if value and len(value) >= 6:
        _SECRETS.add(value)


def redact(text: str) -> str:
    for secret in _SECRETS:
        text = text.replace(secret, "***")
    return text


def _userinfo(url: str) -> tuple[str, str, str | None]:
    """(netloc, user, password) of `url`; password None when it has none."""
    try:
        netloc = urlsplit(url).netloc
    except ValueError:  # e.g. an unbalanced IPv6 bracket: no user-info we can find
        return "", "", None
    userinfo, at, _host = netloc.rpartition("@")
    user, colon, password = userinfo.partition(":")
    return netloc, user, password if at and colon else None


def hide_password(url: str) -> str:
    """`url` fit for a message: the password in its user-info shown as `***` and the user kept,
    as SQLAlchemy shows database URLs, and any registered secret redacted."""
    netloc, user, password = _userinfo(url)
    if password is not None:
        host = netloc.rpartition("@")[2]
        url = url.replace(netloc, f"{user}:***@{host}", 1)
    return redact(url)


def register_url_secrets(url: str | None) -> None:
    """Register the password in `url`'s user-info (as written and decoded) for `redact`."""
    if url:
        _netloc, _user, password = _userinfo(url)
        if password:
            register_secret(password)
            register_secret(unquote(password))
