"""Model answers cached in the store's `llm_cache` table, keyed by everything that shapes them.

The key hashes the task's input (the card or the section's facts), the prompt and schema
version, the model, the sampling parameters and the language. An unchanged item therefore never
costs a second call, and a changed one misses exactly its own entry. Rows hold the validated
answer only: never the prompt, a header or a key.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import sqlalchemy as sa

from tidings.common.records import now_utc
from tidings.store import Store, schema


def cache_key(kind: str, payload: Any, *, model: str, params: dict[str, Any], lang: str) -> str:
    from tidings.analysis.schemas import PROMPT_VERSION

    blob = json.dumps(
        {
            "kind": kind,
            "prompt": PROMPT_VERSION,
            "model": model,
            "params": params,
            "lang": lang,
            "input": payload,
        },
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class LLMCache:
    def __init__(self, store: Store | None) -> None:
        self.store = store

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        if self.store is None or not keys:
            return {}
        table = schema.llm_cache
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(table.c.key, table.c.value).where(table.c.key.in_(sorted(set(keys))))
            )
            return {row.key: row.value for row in rows}

    def put(
        self,
        key: str,
        kind: str,
        model: str,
        value: Any,
        *,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
    ) -> None:
        if self.store is None:
            return
        row = {
            "key": key,
            "kind": kind,
            "model": model[:200],
            "created_at": now_utc(),
            "value": value,
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
        }
        with self.store.begin() as conn:
            self.store.upsert(conn, schema.llm_cache, [row])
