"""A loopback OpenAI-compatible endpoint that answers from recorded answers, and records them.

Replay: `RecordedOpenAI(source)` answers `POST /v1/chat/completions` from a folder of JSONL
files (every `*.jsonl` in it), one file, or a list of records. A record is one JSON object:

    {"id": "...", "task": "pr_cards", "request": {<the chat-completions body>}, "answer": {...}}

(the line format of ../shared/data/model-eval/, whose other fields are ignored). A request is
answered
1. by exact prompt: a record whose messages hash alike (`prompt_key`);
2. else by task and item, from the `<data>` JSON's `task`: a map task (`pr_cards`, `hot_cards`:
   `items[].number`), `weekly_risks` (`facts.prs[].number`) and the keyed weekly sections
   (`weekly_themes`, `weekly_follow_ups`, `weekly_tracks`: their `key`s) get
   `{"items": [...]}` composed from the recorded per-item answers for exactly the items
   asked; a whole-text section by its task (a daily `topic` by its `facts.topic`);
3. else it is unanswered: the prompt is kept in `missing` and appended to `missing.jsonl` in
   the folder (same line format, `"answer": null`: fill the answers in and re-run; a filled
   line is an answer like any other), and the request gets `unanswered_status` (tidings then
   writes that part with its rules and says so), or, with `default` set (e.g. testkit's
   `correct_answer`), the default's answer for the items no record has.
A follow-up (the conversation carries the earlier answer and a user turn with the guard's
objections) gets the same answer as its first turn by default: a model that does not adapt.
`followups="rewritten"` answers it from a record's `rewritten_after_objections` instead,
where the record has one. A schema repair ("That answer is not usable") is answered alike and
counted apart.

Record: `RecordedOpenAI(folder, upstream=URL)` forwards every request it has no exact answer for
to an OpenAI-compatible URL (with the caller's Authorization header, which is never written
anywhere) and appends each prompt and its answer to `recorded.jsonl` in the folder; follow-up
conversations are recorded whole, so a replay answers them by exact prompt.

`records_from_cache(store)` turns the answers cached in a tidings store (`llm_cache`) into
records without prompts (answered by task and item only): the answers of a model already run.

Log, as FakeOpenAI keeps it: `requests` (each with its body, task, how it was answered and the
objections of a follow-up), `calls`, `followups`, `repairs`, `unanswered`, `missing`,
`recorded`, `prompt_tokens`, `completion_tokens`.

Command line (from a checkout; docs/evaluate.md):

    python -m testkit.servers.recorded FOLDER [--upstream URL] [--port N] [-- COMMAND ...]

serves until Ctrl-C, or runs COMMAND against it and exits with its status, then prints what it
served.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import httpx

from testkit.servers.loopback import LoopbackHandler, LoopbackServer
from testkit.servers.openai import completion_body, data_of, tokens
from tidings.errors import hide_password

Answer = dict[str, Any]
Record = dict[str, Any]
ItemId = int | str

RECORDED = "recorded.jsonl"
MISSING = "missing.jsonl"
# Tasks whose answer is {"items": [...]}, one entry per item asked, and the field naming it.
ITEM_FIELD = {
    "pr_cards": "number",
    "hot_cards": "number",
    "weekly_risks": "number",
    "weekly_themes": "key",
    "weekly_follow_ups": "key",
    "weekly_tracks": "key",
}
# The provider's schema-repair turn (tidings/analysis/provider.py): a continuation, but not
# the guard's objections.
REPAIR = "That answer is not usable"
_FENCE = re.compile(r"^```(?:json)?\s*\n(.*)\n```\s*$", re.DOTALL)


def prompt_key(messages: list[dict[str, Any]]) -> str:
    """The hash of a conversation: each message's role and content, in order."""
    flat = [[m.get("role"), m.get("content")] for m in messages]
    blob = json.dumps(flat, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def asked(task: str | None, data: dict[str, Any]) -> list[ItemId] | None:
    """The items a request asks for, in order; None for a task answered whole."""
    facts = data.get("facts") or {}
    if task in ("pr_cards", "hot_cards"):
        return [x["number"] for x in data.get("items", [])]
    if task == "weekly_risks":
        return [x["number"] for x in facts.get("prs", [])]
    if task == "weekly_themes":
        return [x["key"] for x in facts.get("themes", [])]
    if task == "weekly_follow_ups":
        return [x["key"] for x in facts.get("groups", [])]
    if task == "weekly_tracks":
        return [
            k
            for t in facts.get("tracks", [])
            for k in [t["key"]] + [x["key"] for x in t.get("items", []) if "key" in x]
        ]
    return None


def _subkey(task: str | None, data: dict[str, Any]) -> str:
    """What tells apart two whole-text answers of one task in a window (a daily's topics)."""
    if task == "topic":
        return str((data.get("facts") or {}).get("topic", ""))
    return ""


def parse_content(content: str) -> Answer | None:
    """A model's JSON answer from its message content (a ```json fence allowed)."""
    text = content.strip()
    match = _FENCE.match(text)
    if match:
        text = match.group(1)
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def load_records(source: Path | str | Iterable[Record]) -> list[Record]:
    """Records from a folder (every *.jsonl in it, by name), a JSONL file or a list."""
    if isinstance(source, str | Path):
        path = Path(source)
        files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
        out: list[Record] = []
        for file in files:
            with file.open(encoding="utf-8") as handle:
                out += [json.loads(line) for line in handle if line.strip()]
        return out
    return list(source)


def records_from_cache(store_url: str, model: str | None = None) -> list[Record]:
    """The answers cached in a tidings store as records (no prompt: answered by task and item
    only), newest last so they win. `model`: only that model's answers."""
    import sqlalchemy as sa

    from tidings.store import Store, schema

    table = schema.llm_cache
    store = Store.open(store_url)
    try:
        query = sa.select(table.c.kind, table.c.model, table.c.value).order_by(
            table.c.created_at, table.c.key
        )
        if model is not None:
            query = query.where(table.c.model == model)
        with store.engine.connect() as conn:
            rows = conn.execute(query).all()
    finally:
        store.close()
    out: list[Record] = []
    for kind, _, value in rows:
        if kind in ("pr", "hot"):
            out.append({"task": f"{kind}_cards", "answer": {"items": [value]}})
        elif kind.startswith("section:"):
            out.append({"task": kind.removeprefix("section:"), "answer": value})
    return out


@dataclass
class Served:
    """One request as the endpoint saw it and answered it."""

    body: dict[str, Any]
    task: str | None
    # prompt | items | task | default | missing | upstream | error
    how: str = ""
    status: int = 200
    followup: bool = False  # a continuation carrying the guard's objections
    repair: bool = False  # a continuation asking to repair an invalid answer
    objections: list[str] = field(default_factory=list)


@dataclass
class _Index:
    items: dict[tuple[str, ItemId], Answer] = field(default_factory=dict)
    whole: dict[tuple[str, str], Answer] = field(default_factory=dict)

    def add(self, task: str, data: dict[str, Any], answer: Answer) -> None:
        name = ITEM_FIELD.get(task)
        if name is None:
            self.whole[(task, _subkey(task, data))] = answer
            return
        for item in answer.get("items") or []:
            if isinstance(item, dict) and name in item:
                self.items[(task, item[name])] = item

    def compose(
        self, task: str, data: dict[str, Any], under: _Index | None = None
    ) -> tuple[Answer | None, list[ItemId]]:
        """The answer for what `data` asks (each part from `under` where this index lacks
        it), and the items neither answers."""

        def item(x: ItemId) -> Answer | None:
            found = self.items.get((task, x))
            return found if found is not None or under is None else under.items.get((task, x))

        wanted = asked(task, data)
        if wanted is None:
            # A record without its prompt (from a store's cache) knows no topic: it answers
            # any of its task.
            keys = [(task, _subkey(task, data)), (task, "")]
            whole = next((self.whole[k] for k in keys if k in self.whole), None)
            if whole is None and under is not None:
                whole = next((under.whole[k] for k in keys if k in under.whole), None)
            return whole, ([] if whole is not None else [task])
        picked = [item(x) for x in wanted]
        lacking = [x for x, found in zip(wanted, picked, strict=True) if found is None]
        if lacking:
            return None, lacking
        return {"items": picked}, []


class _Server(LoopbackServer):
    endpoint: RecordedOpenAI


class _Handler(LoopbackHandler):
    server: _Server

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        auth = self.headers.get("Authorization")
        try:
            status, payload = self.server.endpoint._serve(self.path, raw, auth)
        except Exception as exc:  # a broken record or default: say so, keep serving
            status, payload = 500, {"error": {"message": f"recorded endpoint: {exc!r}"}}
        body = json.dumps(payload, ensure_ascii=False).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True


class RecordedOpenAI:
    """The endpoint; `with RecordedOpenAI(folder) as llm:` serves it on 127.0.0.1."""

    def __init__(
        self,
        source: Path | str | Iterable[Record] = (),
        *,
        folder: Path | str | None = None,
        upstream: str | None = None,
        default: Callable[[dict[str, Any]], Answer] | None = None,
        followups: Literal["first", "rewritten"] = "first",
        unanswered_status: int = 422,
        upstream_timeout: float = 300.0,
        port: int = 0,
        model: str = "recorded",
    ) -> None:
        # Where missing.jsonl (and, recording, recorded.jsonl) go: the source folder by default.
        if folder is None and isinstance(source, str | Path) and Path(source).is_dir():
            folder = source
        if folder is None and upstream is not None and isinstance(source, str | Path):
            folder = source  # a folder that does not exist yet: the first recording
        self.folder = Path(folder) if folder is not None else None
        self.upstream = upstream.rstrip("/") if upstream else None
        self.default = default
        self.followup_mode = followups
        self.unanswered_status = unanswered_status
        self.upstream_timeout = upstream_timeout
        self.port = port
        self.model = model
        self.requests: list[Served] = []
        self.missing: list[Record] = []  # prompts with no recorded answer, once each
        self.recorded: list[Record] = []  # what recording mode saved this run
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self._lock = threading.Lock()
        self._by_prompt: dict[str, Answer] = {}
        self._rewritten_by_prompt: dict[str, Answer] = {}
        self._first = _Index()
        self._rewritten = _Index()
        self._missing_keys: set[str] = set()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._client: httpx.Client | None = None
        exists = not isinstance(source, str | Path) or Path(source).exists()
        for record in load_records(source) if exists else []:
            self.add(record)

    # -- the answers --------------------------------------------------------------------------

    def add(self, record: Record) -> None:
        """Index one record (a line of the folder's files). One with no answer is a prompt
        still waiting for one: it is not written to missing.jsonl again."""
        request = record.get("request") or {}
        messages = request.get("messages") or []
        key = prompt_key(messages) if messages else None
        answer = record.get("answer")
        with self._lock:
            if answer is None:
                if key is not None:
                    self._missing_keys.add(key)
                return
            data = data_of(request) or {}
            task = data.get("task") or record.get("task")
            if key is not None:
                self._by_prompt[key] = answer
                if len(messages) > 2:
                    return  # a follow-up conversation: answered by exact prompt only
            if task:
                self._first.add(task, data, answer)
            rewritten = record.get("rewritten_after_objections")
            if rewritten:
                if key is not None:
                    self._rewritten_by_prompt[key] = rewritten
                if task:
                    self._rewritten.add(task, data, rewritten)

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> RecordedOpenAI:
        if self.upstream is not None:
            self._client = httpx.Client(timeout=self.upstream_timeout)
        server = _Server(("127.0.0.1", self.port), _Handler)
        server.endpoint = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> RecordedOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._server is not None, "RecordedOpenAI is not running"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    # -- the log ------------------------------------------------------------------------------

    @property
    def calls(self) -> int:
        return len(self.requests)

    @property
    def followups(self) -> int:
        return sum(r.followup for r in self.requests)

    @property
    def repairs(self) -> int:
        return sum(r.repair for r in self.requests)

    @property
    def unanswered(self) -> int:
        """Requests no record answered (answered with the error status or the default)."""
        return sum(r.how in ("missing", "default") for r in self.requests)

    def tasks(self) -> list[str | None]:
        return [r.task for r in self.requests]

    def summary(self) -> str:
        counts: dict[str, int] = {}
        for r in self.requests:
            counts[r.how] = counts.get(r.how, 0) + 1
        how = ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "none"
        line = (
            f"{self.calls} requests ({how}); {self.followups} follow-ups, {self.repairs} "
            f"repairs, {self.unanswered} unanswered"
        )
        if self.missing and self.folder is not None:
            line += f"; {len(self.missing)} prompts without an answer in {self.folder / MISSING}"
        if self.recorded and self.folder is not None:
            line += f"; {len(self.recorded)} answers recorded in {self.folder / RECORDED}"
        return line

    # -- serving ------------------------------------------------------------------------------

    def _serve(self, path: str, raw: bytes, auth: str | None) -> tuple[int, Any]:
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return 400, {"error": {"message": "body is not JSON"}}
        messages = body.get("messages") or []
        data = data_of(body) or {}
        entry = Served(body, data.get("task"))
        if len(messages) > 2:
            last = str(messages[-1].get("content") or "")
            entry.repair = last.startswith(REPAIR)
            entry.followup = not entry.repair
            entry.objections = [
                line[2:] for line in last.splitlines() if line.startswith("- ")
            ] or [last]
        with self._lock:
            self.requests.append(entry)
        if not path.rstrip("/").endswith("/chat/completions"):
            entry.how, entry.status = "error", 404
            return 404, {"error": {"message": f"no route {path}"}}
        answer, how = self._answer(body, data)
        entry.how = how
        if answer is None and self.upstream is not None:
            return self._forward(entry, auth)
        if answer is None:
            entry.status = self.unanswered_status
            return entry.status, {
                "error": {
                    "message": "no recorded answer for this prompt"
                    + (f"; saved to {self.folder / MISSING}" if self.folder else "")
                }
            }
        return 200, self._completion(body, json.dumps(answer, ensure_ascii=False))

    def _answer(self, body: dict[str, Any], data: dict[str, Any]) -> tuple[Answer | None, str]:
        messages = body.get("messages") or []
        first = messages[:2]
        task = data.get("task") or ""
        rewritten = self.followup_mode == "rewritten"
        with self._lock:
            exact = self._by_prompt.get(prompt_key(messages))
            if exact is not None:
                return exact, "prompt"
            if self.upstream is not None:
                return None, "upstream"  # recording: what is not recorded exactly is asked
            index, under = self._first, None
            if len(messages) > 2:  # a follow-up: what its first turn was answered with
                key = prompt_key(first)
                if rewritten and key in self._rewritten_by_prompt:
                    return self._rewritten_by_prompt[key], "rewritten"
                if key in self._by_prompt:
                    return self._by_prompt[key], "prompt"
                if rewritten:
                    index, under = self._rewritten, self._first
            composed, lacking = index.compose(task, data, under) if task else (None, [])
        if composed is not None:
            return composed, "items" if task in ITEM_FIELD else "task"
        return self._unanswered({**body, "messages": first}, lacking)

    def _unanswered(self, body: dict[str, Any], lacking: list[ItemId]) -> tuple[Answer | None, str]:
        """Keep the prompt for a user to answer; the default's answer, or None."""
        data = data_of(body) or {}
        task = data.get("task")
        key = prompt_key(body.get("messages") or [])
        record: Record = {"id": key[:24], "task": task, "request": body, "answer": None}
        with self._lock:
            fresh = key not in self._missing_keys
            if fresh:
                self._missing_keys.add(key)
                self.missing.append(record)
                if self.folder is not None:
                    self.folder.mkdir(parents=True, exist_ok=True)
                    with (self.folder / MISSING).open("a", encoding="utf-8") as handle:
                        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        if self.default is None:
            return None, "missing"
        answer = self.default(body)
        name = ITEM_FIELD.get(task or "")
        if name is not None and lacking:
            # The recorded items where there are some, the default's for the rest.
            theirs = {x.get(name): x for x in answer.get("items") or []}
            with self._lock:
                ours = {n: self._first.items.get((task or "", n)) for n in asked(task, data) or []}
            answer = {"items": [found or theirs.get(n) for n, found in ours.items()]}
        return answer, "default"

    def _forward(self, entry: Served, auth: str | None) -> tuple[int, Any]:
        assert self._client is not None and self.upstream is not None
        headers = {"Authorization": auth} if auth else {}
        try:
            response = self._client.post(
                self.upstream + "/chat/completions", json=entry.body, headers=headers
            )
        except httpx.HTTPError as exc:
            entry.status = 502
            return 502, {"error": {"message": f"upstream unreachable: {type(exc).__name__}"}}
        entry.status = response.status_code
        try:
            payload = response.json()
        except ValueError:
            return 502, {"error": {"message": "upstream answered no JSON"}}
        if response.status_code != 200:
            return response.status_code, payload
        try:
            content = payload["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError):
            return 200, payload
        answer = parse_content(content)
        if answer is not None:
            key = prompt_key(entry.body.get("messages") or [])
            record: Record = {
                "id": key[:24],
                "task": entry.task,
                "request": entry.body,
                "answer": answer,
            }
            self.add(record)
            with self._lock:
                self.recorded.append(record)
                if self.folder is not None:
                    self.folder.mkdir(parents=True, exist_ok=True)
                    with (self.folder / RECORDED).open("a", encoding="utf-8") as handle:
                        handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        usage = payload.get("usage") or {}
        with self._lock:
            self.prompt_tokens += int(usage.get("prompt_tokens") or 0)
            self.completion_tokens += int(usage.get("completion_tokens") or 0)
        return 200, payload

    def _completion(self, body: dict[str, Any], content: str) -> dict[str, Any]:
        prompt = sum(tokens(m.get("content") or "") for m in body.get("messages", []))
        completion = tokens(content)
        with self._lock:
            self.prompt_tokens += prompt
            self.completion_tokens += completion
            number = len(self.requests)
        model = body.get("model", self.model)
        return completion_body(f"chatcmpl-recorded-{number}", model, content, prompt, completion)


# -- command line -------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    command: list[str] = []
    if "--" in args:
        cut = args.index("--")
        args, command = args[:cut], args[cut + 1 :]
    parser = argparse.ArgumentParser(
        prog="python -m testkit.servers.recorded",
        description="An OpenAI-compatible endpoint on 127.0.0.1 that answers from recorded "
        "answers (FOLDER/*.jsonl) and records what it cannot answer (FOLDER/missing.jsonl); "
        "with --upstream, it asks that endpoint instead and records each answer "
        "(FOLDER/recorded.jsonl). After `--`, a command to run against it.",
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--upstream", help="an OpenAI-compatible base URL to record from")
    parser.add_argument("--port", type=int, default=8011, help="port on 127.0.0.1 (8011)")
    parser.add_argument(
        "--followups",
        choices=["first", "rewritten"],
        default="first",
        help="answer a follow-up with the first answer (default) or the recorded rewrite",
    )
    parser.add_argument(
        "--from-cache",
        metavar="DB_URL",
        help="first write the answers cached in this tidings store to FOLDER/cache.jsonl",
    )
    parser.add_argument("--model", help="with --from-cache: only this model's answers")
    ns = parser.parse_args(args)
    folder: Path = ns.folder
    if ns.from_cache:
        records = records_from_cache(ns.from_cache, ns.model)
        folder.mkdir(parents=True, exist_ok=True)
        with (folder / "cache.jsonl").open("w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
        print(f"wrote {len(records)} cached answers to {folder / 'cache.jsonl'}", flush=True)
        if not command and ns.upstream is None:
            return 0
    if ns.upstream is None and not folder.is_dir():
        print(
            f"error: {folder} is no folder of recorded answers: record into it first "
            "(--upstream MODEL_URL), or name a folder holding *.jsonl records",
            file=sys.stderr,
        )
        return 2
    endpoint = RecordedOpenAI(
        folder, folder=folder, upstream=ns.upstream, followups=ns.followups, port=ns.port
    )
    endpoint.start()
    if ns.upstream:
        mode = f"recording the answers of {hide_password(ns.upstream)} into {folder}"
    else:
        mode = f"replaying {folder}"
    print(f"{mode}, at {endpoint.base_url}", flush=True)
    code = 0
    try:
        if command:
            code = subprocess.run(command, check=False).returncode
        else:
            stop = threading.Event()
            signal.signal(signal.SIGTERM, lambda *_: stop.set())
            stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        endpoint.stop()
        print(endpoint.summary(), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
