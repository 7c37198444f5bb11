"""The GraphQL schema queries are checked and run against: GitHub's real one, or the subset."""

from __future__ import annotations

import os
import threading
import warnings
from pathlib import Path
from typing import Literal

from graphql import GraphQLSchema, build_schema

from testkit.servers.real_schema import real_schema, schema_path
from testkit.shared import SHARED_ENV

SUBSET_PATH = Path(__file__).with_name("subset_schema.graphql")

_SUBSET: GraphQLSchema | None = None
_SUBSET_LOCK = threading.Lock()


def schema() -> tuple[GraphQLSchema, Literal["real", "subset"]]:
    """The schema queries are validated and executed against, and which one it is.

    GitHub's real public schema (../shared, see testkit/servers/real_schema.py) whenever it is
    there: a query GitHub would refuse is refused here too. Without it the hand-written subset
    stands in, with a warning; under CI=true its absence is an error instead.
    """
    real = real_schema()
    if real is not None:
        return real, "real"
    reason = (
        f"{schema_path()} is absent, so the fake GitHub checks GraphQL queries against its "
        f"hand-written subset, not GitHub's real schema (set {SHARED_ENV} to the shared folder)"
    )
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{reason}; CI=true requires it")
    global _SUBSET
    with _SUBSET_LOCK:
        if _SUBSET is None:
            warnings.warn(reason, stacklevel=2)
            _SUBSET = build_schema(SUBSET_PATH.read_text(encoding="utf-8"))
        return _SUBSET, "subset"


def _schema() -> GraphQLSchema:
    return schema()[0]
