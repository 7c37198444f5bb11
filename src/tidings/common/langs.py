"""The languages tidings writes reports in: one definition for the config's validation, the
API's checks and the CLI's completion, in a module light enough for `tidings --help`."""

from __future__ import annotations

from typing import Literal, get_args

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = get_args(Lang)
