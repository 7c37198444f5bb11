"""The one error type the CLI turns into a one-line message and a non-zero exit."""

from __future__ import annotations


class TidingsError(Exception):
    """A failure the user can act on: `cause` says what went wrong, `fix` what to do about it.

    The CLI prints ``error: <cause> — <fix>`` on one line and exits with `exit_code`.
    Never put a token or API key in either string; `redact` runs over both anyway.
    """

    exit_code = 1

    def __init__(self, cause: str, fix: str = "") -> None:
        super().__init__(cause)
        self.cause = cause
        self.fix = fix

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


class ConfigError(InvocationError):
    """tidings.toml is missing (when named), unreadable or invalid: it is part of how the
    command was asked for, so it exits 2 like a bad option."""


class SnapshotError(TidingsError):
    """A snapshot file could not be read or written, or its contents are damaged."""


class SourceError(TidingsError):
    """A remote source (GitHub) failed in a way retries could not fix."""


class StoreError(TidingsError):
    pass


_SECRETS: set[str] = set()


def register_secret(value: str | None) -> None:
    """Remember a secret so `redact` can scrub it from any text that leaves the process."""
    if value and len(value) >= 6:
        _SECRETS.add(value)


def redact(text: str) -> str:
    for secret in _SECRETS:
        text = text.replace(secret, "***")
    return text
