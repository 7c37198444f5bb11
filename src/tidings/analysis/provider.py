"""Talking to an OpenAI-compatible chat-completions endpoint, within bounds.

One `Provider` per run. It sends a prompt through the official `openai` SDK (the SDK's own
retries are off, so every retry is ours and counted), asks for structured output in the form
the endpoint supports, validates the answer against a pydantic schema and asks once for a
repair. Around that: jittered backoff on 429/5xx/timeouts (honouring Retry-After), a circuit
breaker that stops calling a failing endpoint for the rest of the run, a token budget, and a
wait budget: all the run's retry waits together stay within `max_wait` seconds. An endpoint that
asks for more (a 429 with `Retry-After: 3600`) is not waited for at all: the breaker opens at
once and the rules write the rest of the prose, instead of sleeping through retries.

Structured output differs by back end: OpenAI and recent vLLM take `json_schema`; DeepSeek and
older servers take `json_object` (and want the word "json" in the prompt, which every prompt
here has); some take neither. In `auto` mode the provider starts with `json_schema` and steps
down when the endpoint rejects the request with a 400, remembering the answer for the run.
"""

from __future__ import annotations

import email.utils
import json
import math
import random
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, TypeVar

import openai
from pydantic import BaseModel, ValidationError

from tidings.analysis.schemas import json_schema
from tidings.errors import redact, register_secret, register_url_secrets

Mode = Literal["json_schema", "json_object", "none"]
MODES: tuple[Mode, ...] = ("json_schema", "json_object", "none")
T = TypeVar("T", bound=BaseModel)


class LLMFailure(Exception):
    """A call that produced no usable answer; the caller falls back to deterministic text."""


class BreakerOpen(LLMFailure):
    pass


class BudgetExhausted(LLMFailure):
    pass


class InvalidAnswer(LLMFailure):
    pass


class WaitRefused(LLMFailure):
    """The endpoint asked for a wait longer than what is left of the run's wait budget."""


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: UTF-8 bytes / 4 (about right for English and for CJK)."""
    return (len(text.encode("utf-8")) + 3) // 4


def prompt_tokens(messages: list[dict[str, str]]) -> int:
    """A request's prompt, as the budget counts it."""
    return sum(estimate_tokens(m["content"]) for m in messages)


@dataclass
class Usage:
    calls: int = 0  # HTTP requests sent, retries and repairs included
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cache_hits: int = 0
    dropped_sentences: int = 0
    failures: int = 0  # tasks that fell back to the deterministic text
    regenerations: int = 0  # answers asked again once with the guard's objections
    errors: list[str] = field(default_factory=list)  # one line per distinct failure cause
    waited: float = 0.0  # seconds slept before retries, all threads together
    # The first wait an endpoint asked for and was refused: (asked, left, budget) seconds.
    refused_wait: tuple[float, float, float] | None = None

    def note_error(self, message: str) -> None:
        line = redact(" ".join(message.split()))[:200]
        if line not in self.errors:
            self.errors.append(line)


@dataclass
class ProviderSettings:
    base_url: str
    model: str
    api_key: str | None = None
    temperature: float = 0.2
    timeout: float = 60.0
    structured_output: Literal["auto", "json_schema", "json_object", "none"] = "auto"
    token_budget: int = 400_000
    retries: int = 2  # extra attempts after the first, per request
    backoff: float = 1.0  # seconds before the first retry; doubles, with ±50 % jitter
    max_wait: float = 60.0  # seconds of retry waits per run, all requests together
    breaker_threshold: int = 3  # consecutive failed requests that open the breaker
    # Requests on the wire at once, the whole run together: `tidings run` builds several
    # repositories' reports at once, each with its own pool of map calls (docs/scale.md).
    max_in_flight: int = 4


class Provider:
    """Thread-safe: map batches and section reduces call it from several threads."""

    def __init__(
        self,
        settings: ProviderSettings,
        *,
        sleep: Callable[[float], None] = time.sleep,
        rng: random.Random | None = None,
    ) -> None:
        self.settings = settings
        register_secret(settings.api_key)
        register_url_secrets(settings.base_url)  # http://user:PASSWORD@host/v1
        # Local servers (vLLM, Ollama) need no key, but the SDK insists on one.
        self._client = openai.OpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key or "not-needed",
            timeout=settings.timeout,
            max_retries=0,
        )
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self.usage = Usage()
        self.mode: Mode = (
            "json_schema" if settings.structured_output == "auto" else settings.structured_output
        )
        self._auto = settings.structured_output == "auto"
        self._consecutive_failures = 0
        self.breaker_open = False
        self._reserved = 0
        self._in_flight = threading.BoundedSemaphore(max(1, settings.max_in_flight))
        self._local = threading.local()  # tokens of this thread's current `ask`

    @property
    def model(self) -> str:
        return self.settings.model

    # -- public -----------------------------------------------------------------------------

    def ask(
        self,
        system: str,
        user: str,
        schema: type[T],
        *,
        max_tokens: int,
        check: Callable[[T], str | None] | None = None,
        followup: list[dict[str, str]] | None = None,
    ) -> T:
        """A validated answer, after at most one repair; raises LLMFailure otherwise.

        `check` runs after schema validation and returns a problem to send back for repair
        (e.g. "missing item 12"), or None. `followup` continues the conversation after the
        data (an earlier answer and the objection to it, when regenerating).
        """
        self._local.cost = (0, 0)
        messages: list[dict[str, str]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
            *(followup or []),
        ]
        content = self._complete(messages, schema, max_tokens)
        problem, answer = self._validate(content, schema, check)
        if answer is not None and problem is None:
            return answer
        messages += [
            {"role": "assistant", "content": content[:4000]},
            {
                "role": "user",
                "content": f"That answer is not usable: {problem}. Reply again with only the "
                "corrected JSON object for the same data.",
            },
        ]
        content = self._complete(messages, schema, max_tokens)
        problem, answer = self._validate(content, schema, check)
        if answer is not None and problem is None:
            return answer
        raise InvalidAnswer(f"the model's answer failed validation twice ({problem})")

    def last_cost(self) -> tuple[int, int]:
        """Prompt and completion tokens of this thread's last `ask`, repairs included."""
        return getattr(self._local, "cost", (0, 0))

    # -- one request, with retries ----------------------------------------------------------

    def _complete(
        self, messages: list[dict[str, str]], schema: type[BaseModel], max_tokens: int
    ) -> str:
        estimate = prompt_tokens(messages) + max_tokens
        with self._lock:
            if self.breaker_open:
                raise BreakerOpen("the endpoint failed repeatedly; not called again this run")
            spent = self.usage.prompt_tokens + self.usage.completion_tokens + self._reserved
            if spent + estimate > self.settings.token_budget:
                raise BudgetExhausted(
                    f"token budget {self.settings.token_budget} would be exceeded"
                )
            self._reserved += estimate
        try:
            return self._with_retries(messages, schema, max_tokens)
        finally:
            with self._lock:
                self._reserved -= estimate

    def _with_retries(
        self, messages: list[dict[str, str]], schema: type[BaseModel], max_tokens: int
    ) -> str:
        attempt = 0
        while True:
            mode = self.mode
            try:
                # A slot per request, not per retry loop: nobody holds one while sleeping.
                with self._in_flight:
                    content = self._request(messages, schema, max_tokens, mode)
            except openai.BadRequestError as exc:
                if self._step_down(exc, mode):
                    continue  # same request in the next structured-output mode
                self._failed(exc)
                raise LLMFailure(f"the endpoint rejected the request ({_status(exc)})") from exc
            except openai.APITimeoutError as exc:
                if attempt >= self.settings.retries:
                    self._failed(exc)
                    raise LLMFailure(_describe(exc)) from exc
                self._wait(exc, attempt)
                attempt += 1
                continue
            except openai.APIConnectionError as exc:
                # Nothing listening (or DNS failing) is a state of the run, not a blip: stop
                # calling at once rather than sleep through retries for every item.
                with self._lock:
                    self.breaker_open = True
                raise LLMFailure(_describe(exc)) from exc
            except (
                openai.RateLimitError,
                openai.InternalServerError,
                openai.APIStatusError,
            ) as exc:
                retryable = _status(exc) in (408, 409, 429) or _status(exc) >= 500
                if not retryable or attempt >= self.settings.retries:
                    self._failed(exc)
                    raise LLMFailure(_describe(exc)) from exc
                self._wait(exc, attempt)
                attempt += 1
                with self._lock:
                    if self.breaker_open:
                        raise BreakerOpen("the endpoint failed repeatedly") from exc
                continue
            with self._lock:
                self._consecutive_failures = 0
            return content

    def _request(
        self,
        messages: list[dict[str, str]],
        schema: type[BaseModel],
        max_tokens: int,
        mode: Mode,
    ) -> str:
        system = messages[0] | {"content": messages[0]["content"] + _schema_hint(schema, mode)}
        messages = [system, *messages[1:]]
        kwargs: dict[str, Any] = {
            "model": self.settings.model,
            "messages": messages,
            "temperature": self.settings.temperature,
            "max_tokens": max_tokens,
        }
        if mode == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {
                    "name": schema.__name__,
                    "strict": True,
                    "schema": json_schema(schema),
                },
            }
        elif mode == "json_object":
            kwargs["response_format"] = {"type": "json_object"}
        with self._lock:
            self.usage.calls += 1
        response = self._client.chat.completions.create(**kwargs)
        usage = response.usage
        if usage is not None:
            prompt, completion = usage.prompt_tokens or 0, usage.completion_tokens or 0
        else:  # some servers omit usage; count our estimate rather than nothing
            prompt, completion = sum(estimate_tokens(m["content"]) for m in messages), 0
        with self._lock:
            self.usage.prompt_tokens += prompt
            self.usage.completion_tokens += completion
        before = getattr(self._local, "cost", (0, 0))
        self._local.cost = (before[0] + prompt, before[1] + completion)
        choice = response.choices[0] if response.choices else None
        content = (choice.message.content if choice is not None else None) or ""
        # An endpoint may echo the key it was sent: it never reaches the cache or a report.
        return redact(content)

    # -- helpers -----------------------------------------------------------------------------

    def _step_down(self, exc: openai.BadRequestError, tried: Mode) -> bool:
        """In auto mode, a 400 mentioning the response format means: try the next mode."""
        if not self._auto:
            return False
        text = str(exc).lower()
        if "response_format" not in text and "json" not in text and "schema" not in text:
            return False
        with self._lock:
            if self.mode != tried:
                return True  # another request already stepped down: retry in the new mode
            index = MODES.index(self.mode)
            if index + 1 >= len(MODES):
                return False
            self.mode = MODES[index + 1]
        return True

    def _failed(self, exc: Exception) -> None:
        with self._lock:
            self._consecutive_failures += 1
            if self._consecutive_failures >= self.settings.breaker_threshold:
                self.breaker_open = True

    def _wait(self, exc: Exception, attempt: int) -> None:
        """Sleep before a retry, within the run's wait budget; raise when it does not fit."""
        asked = _retry_after(exc)
        delay = asked if asked is not None else self._backoff(attempt)
        budget = self.settings.max_wait
        with self._lock:
            left = max(budget - self.usage.waited, 0.0)
            if delay > left:
                self._consecutive_failures += 1
                if asked is None:
                    if self._consecutive_failures >= self.settings.breaker_threshold:
                        self.breaker_open = True
                    raise LLMFailure(
                        f"{_describe(exc)}; retries stopped: the {budget:g} s wait budget is spent"
                    ) from exc
                # The endpoint says it is busy for longer than the run will wait: every other
                # request would hear the same, so stop calling it now.
                self.breaker_open = True
                if self.usage.refused_wait is None:
                    self.usage.refused_wait = (asked, left, budget)
                raise WaitRefused(refusal(asked, left, budget)) from exc
            self.usage.waited += delay
        self._sleep(delay)

    def _backoff(self, attempt: int) -> float:
        base = self.settings.backoff * (2**attempt)
        return base * (0.5 + self._rng.random())

    @staticmethod
    def _validate(
        content: str, schema: type[T], check: Callable[[T], str | None] | None
    ) -> tuple[str | None, T | None]:
        raw = _strip_fences(content)
        try:
            answer = schema.model_validate_json(raw)
        except ValidationError as exc:
            errors = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'answer'}: {e['msg']}"
                for e in exc.errors()[:5]
            )
            return f"not valid JSON for the schema ({errors})", None
        problem = check(answer) if check is not None else None
        return problem, answer


def _schema_hint(schema: type[BaseModel], mode: Mode) -> str:
    if mode == "json_schema":
        return ""
    # Without server-side schemas the model only has the prompt to go by.
    return "\n\nThe JSON schema of your answer:\n" + json.dumps(
        json_schema(schema), ensure_ascii=False, separators=(",", ":")
    )


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def _strip_fences(text: str) -> str:
    match = _FENCE.match(text)
    return match.group(1) if match else text.strip()


def _retry_after(exc: Exception) -> float | None:
    """Seconds the endpoint asked us to wait (Retry-After, retry-after-ms), if it said."""
    if not isinstance(exc, openai.APIStatusError):
        return None
    headers = exc.response.headers
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return _finite(float(millis) / 1000)
        except ValueError:
            pass
    after = headers.get("retry-after")
    if after is None:
        return None
    try:
        return _finite(float(after))
    except ValueError:
        pass
    try:  # an HTTP date
        when = email.utils.parsedate_to_datetime(after)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - datetime.now(UTC)).total_seconds(), 0.0)


def _finite(seconds: float) -> float | None:
    return max(seconds, 0.0) if math.isfinite(seconds) else None


def refusal(asked: float, left: float, budget: float) -> str:
    over = f"the {budget:g} s budget"
    if left < budget:
        over = f"the {round(left, 1):g} s left of {over}"
    return f"asked to wait {round(asked, 1):g} s, over {over}"


def _status(exc: Exception) -> int:
    return int(getattr(exc, "status_code", 0) or 0)


def _describe(exc: Exception) -> str:
    if isinstance(exc, openai.APITimeoutError):
        return "the endpoint did not answer in time"
    if isinstance(exc, openai.APIConnectionError):
        return "the endpoint is unreachable"
    if isinstance(exc, openai.APIStatusError):
        return f"the endpoint answered HTTP {_status(exc)}"
    return redact(str(exc))
