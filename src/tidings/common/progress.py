"""The progress callback long work reports through: `progress(what, done, total)`.

`what` names the stage ("pages", "PDF", an endpoint), `done` counts finished units and `total`
is how many there are, None while unknown. The CLI draws bars from it (console.py); library
callers pass their own or nothing.
"""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str, int, int | None], None]
