"""A loopback OpenAI-compatible chat-completions server for tests and benchmarks.

`FakeOpenAI` answers `POST /v1/chat/completions` from a background thread. By default it plays
a well-behaved model: it reads the JSON inside the prompt's <data>…</data> block and answers
every tidings task correctly from those facts (`correct_answer`). Tests script what goes wrong:

    with FakeOpenAI() as llm:
        llm.script(Status(429, retry_after=0), Malformed(), "ok", Hang(5))   # one per request
        llm.transform = lambda body, answer: ...                             # every answer
        ...
        assert llm.calls == 3 and llm.prompt_tokens > 0

- Actions: "ok", `Malformed()`, `Status(code, retry_after=None)`, `Hang(seconds)` (then
  answers normally, long after the client gave up), `Reply(content)`, `Edit(fn)` (fn(answer)
  -> answer, for one request).
- `violate(task, times=1)`: the next `times` answers to that task (e.g. "weekly_risks") each
  add, to every text they write, a sentence citing #999999 (no such item): what tidings'
  guard must reject, and regenerate. The answer after that is correct again.
- `formats`: the structured-output modes it accepts; others get a 400 naming response_format.
- `latency`: seconds before every answer (the benchmark's "model answering in 1 s").
- Log: `requests` (each with its parsed body and headers), `calls`, `prompt_tokens`,
  `completion_tokens`, `tasks()` (the task name of each request).
Tokens are counted as UTF-8 bytes / 4, the same estimate tidings uses when a server omits usage.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from testkit.servers.loopback import LoopbackHandler, LoopbackServer

Answer = dict[str, Any]


@dataclass
class Malformed:
    text: str = '{"items": [ {"number": '


@dataclass
class Status:
    code: int
    retry_after: float | None = None


@dataclass
class Hang:
    seconds: float = 5.0


@dataclass
class Reply:
    content: str


@dataclass
class Edit:
    fn: Callable[[Answer], Answer]


Action = str | Malformed | Status | Hang | Reply | Edit


@dataclass
class LoggedRequest:
    body: dict[str, Any]
    headers: dict[str, str]
    status: int = 200
    task: str | None = None


def completion_body(
    ident: str, model: str, content: str, prompt: int, completion: int
) -> dict[str, Any]:
    """A chat-completions response carrying one assistant message and its token counts."""
    return {
        "id": ident,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


def tokens(text: str) -> int:
    return (len(text.encode("utf-8")) + 3) // 4


_DATA = re.compile(r"<data>\n(.*)\n</data>", re.DOTALL)


def data_of(body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON facts of a tidings prompt (from the first user message that carries them)."""
    for message in body.get("messages", []):
        if message.get("role") == "user":
            match = _DATA.search(message.get("content") or "")
            if match:
                return json.loads(match.group(1))
    return None


def _cite(number: int, login: str | None) -> str:
    """ "#12 by @alice": the citations tidings' guard verifies against the facts."""
    return f"#{number}" + (f" by @{login}" if login else "")


def correct_answer(body: dict[str, Any]) -> Answer:
    """What a careful model would answer: plain sentences citing only the given facts."""
    data = data_of(body) or {}
    task = data.get("task")
    if task == "pr_cards":
        items = []
        for card in data["items"]:
            files = card.get("files") or []
            where = f", mostly in {files[0]['path']}" if files else ""
            summary = f"Model: changes {card['size']['changed_files']} files{where}."
            why = f"Model: {_cite(card['number'], card.get('author'))} matters to its area."
            tags = [t["tag"] for t in card.get("risk_tags") or []]
            if tags:
                why = f"Model: {_cite(card['number'], card.get('author'))} fired {tags[0]}."
            notes = []
            if card.get("body"):
                quote = card["body"][:40].rsplit(" ", 1)[0] or card["body"][:40]
                notes.append({"text": "Model: the description explains it.", "evidence": quote})
            items.append(
                {
                    "number": card["number"],
                    "summary": summary,
                    "why": why,
                    "importance": 1,
                    "notes": notes,
                }
            )
        return {"items": items}
    if task == "hot_cards":
        items = []
        for card in data["items"]:
            items.append(
                {
                    "number": card["number"],
                    "core_topic": f"Model: the thread is about {card['title']}.",
                    "viewpoints": [
                        {
                            "login": p["login"] or "",
                            "stance": f"Model: wrote {p['comments']} of the comments.",
                        }
                        for p in card["participants"]
                    ],
                    "contention": "Model: whether the change should land as it is.",
                    "status": f"Model: the item is {card['state']}.",
                }
            )
        return {"items": items}
    facts = data.get("facts", {})
    weekly = _weekly_answer(task, facts)
    if weekly is not None:
        return weekly
    if task == "summary":
        stats = facts["stats"]
        text = f"Model: {stats['new_prs']} new PRs and {stats['merged_prs']} merged PRs."
    elif task == "topic":
        text = f"Model: {facts['topic']} has {facts['count']} items in the window."
    elif task == "trends":
        top = facts["clusters"][0]
        text = f"Model: the busiest area is {top['name']} with {top['count']} items."
    elif task == "activity":
        text = f"Model: {facts['human_participants']} people took part."
    elif task == "watch":
        text = f"Model: {facts['count']} issues deserve attention."
    elif task == "weekly_summary":
        text = (
            f"Model: {facts['merged_prs']} PRs were merged this week, against "
            f"{facts['previous_week_merged_prs']} the week before."
        )
    else:
        text = "Model: nothing to say."
    return {"text": text}


def _weekly_answer(task: str | None, facts: dict[str, Any]) -> Answer | None:
    """The weekly sections: themes with their PRs, risks from tags and threads, keyed texts."""
    if task == "weekly_highlights":
        groups: dict[str, list[dict[str, Any]]] = {}
        for pr in facts["prs"]:
            groups.setdefault((pr["labels"] or ["general"])[0], []).append(pr)
        themes = []
        for name, prs in list(groups.items())[:7]:
            led = " and ".join(f"#{p['number']}" for p in prs[:2])
            themes.append(
                {
                    "theme": f"Model: {name} work",
                    "text": f"Model: led by {led}.",
                    "numbers": [p["number"] for p in prs],
                }
            )
        return {"themes": themes}
    if task == "weekly_risks":
        items = []
        for pr in facts["prs"]:
            tags = [t["tag"] for t in pr["risk_tags"]]
            text = f"Model: {_cite(pr['number'], pr.get('author'))} fired {', '.join(tags)}."
            quiet = [t for t in pr["review_threads"] if not t["outdated"] and t["login"]]
            if quiet:
                text += (
                    f" @{quiet[0]['login']} raised a point on {quiet[0]['path']} and no later "
                    "commit touched it."
                )
            items.append(
                {
                    "number": pr["number"],
                    "observation": text,
                    "follow_up": f"Model: a regression test for #{pr['number']} would close it.",
                }
            )
        return {"items": items}
    if task == "weekly_exec":
        text = (
            f"Model: {facts['merged_prs']} PRs were merged this week, against "
            f"{facts['previous_week_merged_prs']} the week before."
        )
        if facts["risk_tags_fired"]:
            text += f" The most frequent risk tag is {next(iter(facts['risk_tags_fired']))}."
        return {"text": text}
    if task == "weekly_themes":
        return {
            "items": [
                {
                    "key": t["key"],
                    "text": f"Model: {t['name']} moved, led by #{t['prs'][0]['number']}.",
                }
                for t in facts["themes"]
            ]
        }
    if task == "weekly_trends":
        top = facts["changed_lines_by_directory"][0]["name"]
        return {"text": f"Model: the code churned most in {top}."}
    if task == "weekly_tracks":
        items = []
        for t in facts["tracks"]:
            lead = f" led by #{t['items'][0]['number']}" if t["items"] else ""
            items.append({"key": t["key"], "text": f"Model: {t['title']} moved{lead}."})
            items += [
                {"key": x["key"], "text": f"Model: #{x['number']} is still {x['state']}."}
                for x in t["items"]
                if "key" in x
            ]
        return {"items": items}
    if task == "weekly_follow_ups":
        items = []
        for g in facts["groups"]:
            cited = " and ".join(f"#{x['number']}" for x in g["items"][:2])
            items.append(
                {"key": g["key"], "text": f"Model: {g['reason']} on {cited} is worth closing."}
            )
        return {"items": items}
    return None


VIOLATION = " Model: this also fixes #999999."


def violating(answer: Answer) -> Answer:
    """The answer with a sentence citing #999999 added to every text it writes."""
    fields = ("summary", "why", "text", "observation", "follow_up", "core_topic", "status")

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            return {
                k: (v + VIOLATION if k in fields and isinstance(v, str) else walk(v))
                for k, v in node.items()
            }
        if isinstance(node, list):
            return [walk(x) for x in node]
        return node

    out: Answer = walk(answer)
    return out


class _Server(LoopbackServer):
    fake: FakeOpenAI


class _Handler(LoopbackHandler):
    server: _Server

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        status, extra, payload = self.server.fake._serve(self.path, headers, raw)
        body = json.dumps(payload).encode()
        try:
            self.send_response(status)
            for name, value in extra.items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True


@dataclass
class FakeOpenAI:
    latency: float = 0.0
    formats: tuple[str, ...] = ("json_schema", "json_object")
    model: str = "fake-model"
    responder: Callable[[dict[str, Any]], Answer] = correct_answer
    # Applied to every answer before it is sent: (request body, answer) -> answer.
    transform: Callable[[dict[str, Any], Answer], Answer] | None = None
    requests: list[LoggedRequest] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._script: list[Action] = []
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._violations: dict[str, int] = {}

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> FakeOpenAI:
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is None:
            return
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = None

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        assert self._server is not None, "FakeOpenAI is not running"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    # -- scripting and the log --------------------------------------------------------------

    def script(self, *actions: Action) -> None:
        with self._lock:
            self._script.extend(actions)

    def violate(self, task: str, times: int = 1) -> None:
        with self._lock:
            self._violations[task] = self._violations.get(task, 0) + times

    @property
    def calls(self) -> int:
        return len(self.requests)

    def tasks(self) -> list[str | None]:
        return [r.task for r in self.requests]

    def cards_sent(self, task: str) -> list[int]:
        """Item numbers sent in map requests of a task ("pr_cards", "hot_cards")."""
        out: list[int] = []
        for r in self.requests:
            data = data_of(r.body)
            if data and data.get("task") == task and r.status == 200:
                out += [c["number"] for c in data["items"]]
        return out

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.prompt_tokens = self.completion_tokens = 0

    # -- serving ----------------------------------------------------------------------------

    def _serve(
        self, path: str, headers: dict[str, str], raw: bytes
    ) -> tuple[int, dict[str, str], Any]:
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return 400, {}, {"error": {"message": "body is not JSON"}}
        data = data_of(body)
        entry = LoggedRequest(body, headers, task=(data or {}).get("task"))
        with self._lock:
            self.requests.append(entry)
            action: Action = self._script.pop(0) if self._script else "ok"
        if not path.rstrip("/").endswith("/chat/completions"):
            entry.status = 404
            return 404, {}, {"error": {"message": f"no route {path}"}}
        if self.latency:
            self._stopping.wait(self.latency)
        if isinstance(action, Hang):
            self._stopping.wait(action.seconds)
        if isinstance(action, Status):
            entry.status = action.code
            extra = {}
            if action.retry_after is not None:
                extra["Retry-After"] = f"{action.retry_after:g}"
            return action.code, extra, {"error": {"message": f"scripted {action.code}"}}
        fmt = (body.get("response_format") or {}).get("type")
        if fmt is not None and fmt != "text" and fmt not in self.formats:
            entry.status = 400
            return 400, {}, {"error": {"message": f"response_format {fmt} is not supported"}}
        if isinstance(action, Malformed):
            content = action.text
        elif isinstance(action, Reply):
            content = action.content
        else:
            answer = self.responder(body)
            if isinstance(action, Edit):
                answer = action.fn(answer)
            with self._lock:
                left = self._violations.get(entry.task or "", 0)
                if left:
                    self._violations[entry.task or ""] = left - 1
            if left:
                answer = violating(answer)
            if self.transform is not None:
                answer = self.transform(body, answer)
            content = json.dumps(answer, ensure_ascii=False)
            if fmt is None:  # no structured output: models like to wrap JSON in a fence
                content = f"```json\n{content}\n```"
        prompt = sum(tokens(m.get("content") or "") for m in body.get("messages", []))
        completion = tokens(content)
        with self._lock:
            self.prompt_tokens += prompt
            self.completion_tokens += completion
        model = body.get("model", self.model)
        reply = completion_body(
            f"chatcmpl-{len(self.requests)}", model, content, prompt, completion
        )
        return 200, {}, reply
