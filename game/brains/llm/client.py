"""The one call path every question takes, through the `openai` package.

    render the question's template -> request with its JSON schema -> validate (schema and
    meaning) -> on an invalid answer re-ask at most twice, quoting the error -> else the
    scripted brain's answer, counted as a fallback.

Around each request sit the wrappers: the budget guard (may we spend?), the record/replay
cache, the usage meter and the audit log. Below it, the endpoint's quirks:

- Structured output adapts. `json_schema` first; an endpoint that rejects it gets
  `json_object` with the schema beside it (what llama.cpp's server takes); one that
  rejects that too gets plain text with the schema in the prompt, and the JSON is dug out
  of the reply. The step down is remembered per endpoint for the rest of the process.
- 429 and 5xx answers and timeouts are retried with exponential backoff and jitter,
  honouring Retry-After.
- A refused connection, a refused key (401/403) or an unknown model (404) cannot get
  better by retrying: one clear message, and every later question goes to the scripted
  brain (with `strict`, `fatal` is set so a headless run stops cleanly instead).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from functools import cache
from string import Template
from typing import Any

import openai

from game.brains.audit import AuditLog, redact
from game.brains.budget import BudgetGuard
from game.brains.llm.jsontext import Invalid, extract_json, schema_hint
from game.brains.llm.specs import Args
from game.brains.llm.specs import Spec as Question
from game.brains.replay import ReplayCache, ReplayMiss, request_key
from game.brains.scripted import ScriptedBrain
from game.brains.usage import UsageMeter
from game.core.config import LLMSettings, OutputMode
from game.core.errors import SmallvilleError
from game.core.paths import PROMPTS

log = logging.getLogger("smallville.llm")

LADDER = (OutputMode.JSON_SCHEMA, OutputMode.JSON_OBJECT, OutputMode.TEXT)
MAX_WAIT = 60.0  # seconds: the longest Retry-After we honour
# Words in a 400/422 answer that say the endpoint disliked our response_format.
FORMAT_WORDS = ("response_format", "json_schema", "json_object", "schema", "format", "grammar")
# Errors a model's odd JSON can raise inside a question's parse; all mean "invalid".
PARSE_ERRORS = (Invalid, TypeError, ValueError, KeyError, AttributeError, IndexError)


class EndpointDown(SmallvilleError):
    """The endpoint cannot be used at all: refused connection, refused key, no such model."""


class RequestFailed(Exception):
    """One request failed after its network retries (or was rejected outright)."""


class OverBudget(Exception):
    """The budget guard said no."""


@dataclass(frozen=True)
class Reply:
    content: str
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    replayed: bool = False


@cache
def template(name: str) -> Template:
    return Template((PROMPTS / name).read_text(encoding="utf-8"))


def render(question: Question, args: Args) -> list[dict[str, str]]:
    """System and user messages; empty lines (an unused optional part) are dropped."""
    text = template(question.template).substitute(question.view(args))
    text = "\n".join(line for line in text.splitlines() if line.strip())
    system = template("system.txt").template.strip()
    return [{"role": "system", "content": system}, {"role": "user", "content": text}]


def estimate_tokens(text: str) -> int:
    """For an endpoint that sends no usage fields: about four characters a token."""
    return max(1, len(text) // 4)


class _Modes:
    """What each endpoint turned out to accept, shared by all clients: its structured-output
    mode, and quirks (newer OpenAI models want max_completion_tokens and refuse a
    temperature)."""

    _lock = threading.Lock()
    _chosen: dict[str, OutputMode] = {}
    _quirks: dict[str, frozenset[str]] = {}

    @classmethod
    def quirks(cls, endpoint: str) -> frozenset[str]:
        with cls._lock:
            return cls._quirks.get(endpoint, frozenset())

    @classmethod
    def add_quirk(cls, endpoint: str, quirk: str) -> bool:
        """False when it was known already (the endpoint refuses for another reason)."""
        with cls._lock:
            known = cls._quirks.get(endpoint, frozenset())
            cls._quirks[endpoint] = known | {quirk}
            return quirk not in known

    @classmethod
    def get(cls, endpoint: str) -> OutputMode:
        with cls._lock:
            return cls._chosen.get(endpoint, LADDER[0])

    @classmethod
    def step_down(cls, endpoint: str, rejected: OutputMode) -> OutputMode:
        with cls._lock:
            current = cls._chosen.get(endpoint, LADDER[0])
            if current is rejected and rejected is not OutputMode.TEXT:
                cls._chosen[endpoint] = LADDER[LADDER.index(rejected) + 1]
            return cls._chosen.get(endpoint, LADDER[0])

    @classmethod
    def forget(cls) -> None:
        with cls._lock:
            cls._chosen.clear()
            cls._quirks.clear()


class ChatClient:
    """Answers Questions; owns the openai client and the wrappers around each request."""

    def __init__(
        self,
        settings: LLMSettings,
        scripted: ScriptedBrain,
        meter: UsageMeter,
        guard: BudgetGuard,
        audit: AuditLog,
        cache: ReplayCache | None = None,
        notify: Callable[[str], None] = lambda message: None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.settings = settings
        self.scripted = scripted
        self.meter, self.guard, self.audit, self.cache = meter, guard, audit, cache
        self._notify, self._sleep = notify, sleep
        self.endpoint = settings.base_url or "https://api.openai.com/v1"
        self.down = ""  # why the endpoint is unusable ('' while it works)
        self.fatal = ""  # set instead of carrying on when strict (or a replay misses)
        self._lock = threading.Lock()
        self._failing = 0  # requests failed in a row
        self._rest_until = 0.0  # monotonic time until which the endpoint rests
        self._client = openai.OpenAI(
            api_key=lambda: settings.api_key() or "no-key",
            base_url=settings.base_url or None,
            timeout=settings.timeout,
            max_retries=0,  # retries are ours: counted, logged, Retry-After honoured
        )

    # -- the one call path -------------------------------------------------------------
    def ask(self, question: Question, args: Args, agent: str = "") -> Any:
        if self.down or self.guard.exhausted or self._resting():
            return self.fallback(question, args, agent)
        messages = render(question, args)
        schema = question.schema(args)
        tries = 1 + max(0, self.settings.validation_retries)
        for attempt in range(tries):
            try:
                reply = self._request(question, messages, schema, agent)
            except OverBudget:
                break
            except (RequestFailed, EndpointDown, ReplayMiss) as exc:
                self._audit(question, agent, messages, error=str(exc))
                self.meter.count("failures", question.name, agent)
                if isinstance(exc, RequestFailed):
                    self._failed_in_a_row(str(exc))
                break
            self._failing = 0
            try:
                value = question.parse(extract_json(reply.content), args)
            except PARSE_ERRORS as exc:
                problem = str(exc) or type(exc).__name__
                self._audit(question, agent, messages, reply, error=f"invalid: {problem}")
                self.meter.count("failures", question.name, agent)
                if attempt + 1 < tries:
                    self.meter.count("retries", question.name, agent)
                    messages = [*messages, *correction(reply.content, problem)]
                continue
            self._audit(question, agent, messages, reply)
            return value
        return self.fallback(question, args, agent)

    def _resting(self) -> bool:
        return time.monotonic() < self._rest_until

    def _failed_in_a_row(self, problem: str) -> None:
        """A circuit breaker: an endpoint that keeps failing (hanging, 5xx storms) rests a
        while, and scripted answers stand in, instead of every question waiting it out."""
        with self._lock:
            self._failing += 1
            if self._failing < self.settings.failures_before_rest:
                return
            self._failing = 0
            self._rest_until = time.monotonic() + self.settings.rest_seconds
        self.notify(
            f"the model endpoint keeps failing ({problem}); scripted answers for "
            f"{self.settings.rest_seconds:g} s"
        )

    def fallback(self, question: Question, args: Args, agent: str = "") -> Any:
        self.meter.count("fallbacks", question.name, agent)
        return question.fallback(self.scripted, args)

    def model_for(self, question: Question) -> str:
        if question.simple and self.settings.cheap_model:
            return self.settings.cheap_model
        return self.settings.model

    # -- one request through the wrappers ------------------------------------------------
    def _request(self, q: Question, messages: list[dict], schema: dict, agent: str) -> Reply:
        allowed, message = self.guard.allow()
        if message:
            self.notify(message)
        if not allowed:
            raise OverBudget
        model = self.model_for(q)
        answer, replayed = self._recorded(
            "chat",
            model,
            {"messages": messages, "schema": schema},
            lambda: self._chat(model, messages, schema, q.max_tokens, q.name, agent),
        )
        reply = self._reply(answer, replayed)
        cheap = model != self.settings.model
        self.meter.call(
            q.name,
            agent,
            reply.prompt_tokens,
            reply.completion_tokens,
            reply.seconds,
            cheap,
            replayed,
        )
        return reply

    def _recorded(
        self, kind: str, model: str, payload: Any, ask: Callable[[], dict]
    ) -> tuple[dict, bool]:
        """The answer from the recording, or from `ask` (and recorded). Never raises for
        a request that failed: failures come back as {'error'} or {'down'} so that a
        recording holds them too and a replay fails the same way."""
        if self.cache is None:
            return ask(), False
        key = request_key(kind, model, payload)
        try:
            answer, replayed = self.cache.fetch(key, kind, model, ask)
        except ReplayMiss as exc:
            self._stop(str(exc))
            raise
        return answer or {"error": "no answer"}, replayed

    def _reply(self, answer: dict, replayed: bool) -> Reply:
        if "down" in answer:
            self._go_down(answer["down"])
            raise EndpointDown(answer["down"])
        if "error" in answer:
            raise RequestFailed(answer["error"])
        return Reply(
            answer["content"],
            int(answer["prompt_tokens"]),
            int(answer["completion_tokens"]),
            0.0 if replayed else float(answer["seconds"]),
            replayed,
        )

    # -- chat completions with the structured-output ladder -----------------------------
    def _chat(
        self,
        model: str,
        messages: list[dict],
        schema: dict,
        max_tokens: int,
        label: str,
        agent: str,
    ) -> dict:
        while True:
            mode = self._mode()
            began = time.perf_counter()
            try:
                response = self._retrying(
                    lambda m=mode: self._create(model, messages, schema, max_tokens, m),
                    label,
                    agent,
                )
            except _ParamRejected as exc:
                if not _Modes.add_quirk(self.endpoint, exc.quirk):
                    return {"error": f"the endpoint rejected the request: {exc}"}
                continue
            except _FormatRejected as exc:
                if self.settings.output_mode is not OutputMode.AUTO or mode is OutputMode.TEXT:
                    return {"error": f"the endpoint rejected the request: {exc}"}
                after = _Modes.step_down(self.endpoint, mode)
                log.info("%s rejected %s output; using %s", self.endpoint, mode.value, after.value)
                continue
            except EndpointDown as exc:
                return {"down": str(exc)}
            except RequestFailed as exc:
                return {"error": str(exc)}
            return _answer(response, messages, time.perf_counter() - began)

    def _mode(self) -> OutputMode:
        forced = self.settings.output_mode
        return _Modes.get(self.endpoint) if forced is OutputMode.AUTO else forced

    def _create(
        self, model: str, messages: list[dict], schema: dict, max_tokens: int, mode: OutputMode
    ):
        kwargs: dict[str, Any] = {}
        if mode is OutputMode.JSON_SCHEMA:
            body = {k: v for k, v in schema.items() if k != "title"}
            name = schema.get("title", "answer")
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": body, "strict": True},
            }
        else:
            messages = with_schema(messages, schema)
            if mode is OutputMode.JSON_OBJECT:
                kwargs["response_format"] = {"type": "json_object", "schema": schema}
        quirks = _Modes.quirks(self.endpoint)
        if "no_temperature" not in quirks:
            kwargs["temperature"] = self.settings.temperature
        tokens = "max_completion_tokens" if "max_completion_tokens" in quirks else "max_tokens"
        kwargs[tokens] = max_tokens
        return self._client.chat.completions.create(model=model, messages=messages, **kwargs)

    # -- embeddings ------------------------------------------------------------------------
    def embed(self, texts: list[str]) -> list[list[float]]:
        """Vectors for texts from /v1/embeddings. Raises EmbeddingsMissing when the endpoint
        has none, EndpointDown or RequestFailed otherwise.

        The recording holds one vector per text (not per request), so a replay finds every
        text however the concurrent requests of a run happened to be batched."""
        model = self.settings.embed_model
        found = self._recorded_vectors(model, texts)
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing:
            answer = self._embed_request(model, missing)
            self._embed_outcome(answer, model, missing)
            for text, vector in zip(missing, answer["vectors"], strict=True):
                found[text] = vector
                if self.cache is not None:
                    key = request_key("embed", model, text)
                    self.cache.put(key, "embed", model, {"vector": vector})
        elif texts:
            self.meter.count("cache_hits", "embeddings")
        return [found[t] for t in texts]

    def _recorded_vectors(self, model: str, texts: list[str]) -> dict[str, list[float]]:
        if self.cache is None:
            return {}
        out: dict[str, list[float]] = {}
        for text in dict.fromkeys(texts):
            answer = self.cache.get(request_key("embed", model, text))
            if answer is not None and "missing" in answer:
                raise EmbeddingsMissing(answer["missing"])
            if answer is not None:
                out[text] = answer["vector"]
            elif self.cache.replay:
                miss = ReplayMiss(
                    f"--replay: the recording at {self.cache.path} has no embedding for a "
                    "text of this run; it was recorded with other settings, seed or code"
                )
                self._stop(str(miss))
                raise miss
        return out

    def _embed_outcome(self, answer: dict, model: str, texts: list[str]) -> None:
        """Count and log one embeddings request; raise for one that failed."""
        if "missing" in answer:
            if self.cache is not None and len(texts) == 1:
                self.cache.put(request_key("embed", model, texts[0]), "embed", model, answer)
            raise EmbeddingsMissing(answer["missing"])
        if "down" in answer:
            self._go_down(answer["down"])
            raise EndpointDown(answer["down"])
        if "error" in answer:
            self.meter.count("failures", "embeddings")
            raise RequestFailed(answer["error"])
        seconds = float(answer["seconds"])
        self.meter.call("embeddings", "", int(answer["prompt_tokens"]), 0, seconds)
        record = {"question": "embeddings", "model": model, "texts": len(texts)}
        record.update(prompt_tokens=answer["prompt_tokens"], seconds=round(seconds, 3))
        self.audit.write(record)

    def _embed_request(self, model: str, texts: list[str]) -> dict:
        began = time.perf_counter()
        try:
            response = self._retrying(
                lambda: self._client.embeddings.create(
                    model=model, input=texts, encoding_format="float"
                ),
                "embeddings",
                "",
                embeddings=True,
            )
        except (_FormatRejected, EmbeddingsMissing) as exc:
            return {"missing": str(exc)}
        except EndpointDown as exc:
            return {"down": str(exc)}
        except RequestFailed as exc:
            return {"error": str(exc)}
        rows = sorted(response.data, key=lambda d: d.index)
        usage = getattr(response, "usage", None)
        tokens = getattr(usage, "prompt_tokens", None) or sum(map(estimate_tokens, texts))
        return {
            "vectors": [list(map(float, r.embedding)) for r in rows],
            "prompt_tokens": int(tokens),
            "seconds": time.perf_counter() - began,
        }

    # -- network faults ---------------------------------------------------------------------
    def _retrying(
        self, call: Callable[[], Any], label: str, agent: str, embeddings: bool = False
    ) -> Any:
        """call() with 429 / 5xx / timeouts retried; the rest mapped to our errors."""
        attempt = 0
        while True:
            try:
                return call()
            except openai.APITimeoutError as exc:
                problem, wait = f"no answer within {self.settings.timeout:g} s", None
                last: Exception = exc
            except openai.APIConnectionError as exc:
                if not _hung_up(exc):
                    raise EndpointDown(self._unreachable(exc)) from None
                problem, wait, last = "the endpoint hung up without answering", None, exc
            except openai.RateLimitError as exc:
                if "insufficient_quota" in str(exc):
                    raise EndpointDown(self._say("the account has no quota left (429)")) from None
                problem, wait, last = "rate limited (429)", retry_after(exc), exc
            except openai.APIStatusError as exc:
                self._classify(exc, embeddings)
                problem, wait, last = f"server error ({exc.status_code})", retry_after(exc), exc
            attempt += 1
            if attempt > self.settings.network_retries:
                raise RequestFailed(f"{problem}; gave up after {attempt} tries") from last
            self.meter.count("retries", label, agent)
            self._sleep(wait if wait is not None else backoff(attempt))

    def _classify(self, exc: openai.APIStatusError, embeddings: bool) -> None:
        """Raise for what retrying cannot mend; return for a 5xx worth another try."""
        status = exc.status_code
        if status in (401, 403):
            raise EndpointDown(
                self._say(
                    f"the endpoint refused the API key ({status}); set ${self.settings.api_key_env}"
                )
            ) from None
        if embeddings and status in (400, 404, 405, 422, 501):
            raise EmbeddingsMissing(f"{status}: {_message(exc)}") from None
        if status == 404:
            raise EndpointDown(
                self._say(
                    f"the endpoint answered 404 for model {self.settings.model!r}: check the "
                    "model name and the base URL (it usually ends in /v1)"
                )
            ) from None
        quirk = _quirk_for(_message(exc)) if status in (400, 422) else ""
        if quirk:
            raise _ParamRejected(quirk, f"{status}: {_message(exc)}") from None
        if status in (400, 422) and any(w in _message(exc).lower() for w in FORMAT_WORDS):
            raise _FormatRejected(f"{status}: {_message(exc)}") from None
        if status < 500:
            raise RequestFailed(f"the endpoint rejected the request ({status}): {_message(exc)}")

    def _unreachable(self, exc: Exception) -> str:
        return self._say(f"cannot reach the model endpoint at {self.endpoint} ({exc})")

    def _say(self, text: str) -> str:
        return redact(text, [self.settings.api_key()])

    # -- going down, stopping, telling ------------------------------------------------------
    def _go_down(self, reason: str) -> None:
        with self._lock:
            if self.down:
                return
            self.down = reason
        if self.settings.strict:
            self._stop(reason)
        else:
            self.notify(f"{reason}: the residents continue on the scripted brain")

    def _stop(self, reason: str) -> None:
        """Ask the run to stop; whoever stops it (the CLI) says why, once."""
        with self._lock:
            if not self.fatal:
                self.fatal = self._say(reason)

    def notify(self, message: str) -> None:
        self._notify(self._say(message))

    def _audit(
        self,
        q: Question,
        agent: str,
        messages: list[dict],
        reply: Reply | None = None,
        error: str = "",
    ) -> None:
        record: dict[str, Any] = {
            "question": q.name,
            "agent": agent,
            "model": self.model_for(q),
            "endpoint": self.endpoint,
            "messages": messages,
        }
        if reply is not None:
            record.update(
                answer=reply.content,
                prompt_tokens=reply.prompt_tokens,
                completion_tokens=reply.completion_tokens,
                seconds=round(reply.seconds, 3),
                replayed=reply.replayed,
            )
        if error:
            record["error"] = error
        self.audit.write(record)


class _ParamRejected(Exception):
    """A 400 that names a parameter this model refuses: adapt and ask again."""

    def __init__(self, quirk: str, message: str) -> None:
        super().__init__(message)
        self.quirk = quirk


def _quirk_for(message: str) -> str:
    low = message.lower()
    if "max_tokens" in low and "max_completion_tokens" in low:
        return "max_completion_tokens"
    if "temperature" in low and ("unsupported" in low or "not support" in low):
        return "no_temperature"
    return ""


class _FormatRejected(Exception):
    """A 400/422 that names our response_format: step down the ladder."""


class EmbeddingsMissing(Exception):
    """The endpoint has no usable /v1/embeddings."""


def correction(bad: str, problem: str) -> list[dict[str, str]]:
    """The messages that quote an invalid answer back with what was wrong."""
    return [
        {"role": "assistant", "content": bad[:2000]},
        {
            "role": "user",
            "content": f"That answer is invalid: {problem}. Reply again with the corrected "
            "JSON object only.",
        },
    ]


def with_schema(messages: list[dict], schema: dict) -> list[dict]:
    """For endpoints that cannot enforce a schema: state it in the prompt."""
    last = messages[-1]
    note = "\nReply with only a JSON object that follows this JSON schema: " + schema_hint(schema)
    return [*messages[:-1], {**last, "content": last["content"] + note}]


def _answer(response: Any, messages: list[dict], seconds: float) -> dict:
    choice = response.choices[0] if response.choices else None
    content = (choice.message.content if choice is not None else "") or ""
    usage = getattr(response, "usage", None)
    prompt = getattr(usage, "prompt_tokens", None)
    completion = getattr(usage, "completion_tokens", None)
    if prompt is None:
        prompt = sum(estimate_tokens(m["content"]) for m in messages)
    if completion is None:
        completion = estimate_tokens(content)
    return {
        "content": content,
        "prompt_tokens": int(prompt),
        "completion_tokens": int(completion),
        "seconds": seconds,
    }


def _message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])[:300]
        if isinstance(inner, str):
            return inner[:300]
    return str(exc)[:300]


def retry_after(exc: openai.APIStatusError) -> float | None:
    """Seconds the server asked us to wait (Retry-After or retry-after-ms), capped."""
    headers = exc.response.headers if exc.response is not None else {}
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return min(MAX_WAIT, max(0.0, float(ms) / 1000))
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return min(MAX_WAIT, max(0.0, float(value)))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return min(MAX_WAIT, max(0.0, when.timestamp() - time.time()))


def _hung_up(exc: Exception) -> bool:
    """A connection that opened and then closed with no answer is worth another try;
    a refused or unresolvable one is not (the endpoint is not there)."""
    cause = exc.__cause__ or exc.__context__
    # by name: the openai package's HTTP library differs between its versions
    return type(cause).__name__ in ("RemoteProtocolError", "ReadError", "ConnectionResetError")


def backoff(attempt: int, base: float = 0.5, cap: float = 30.0) -> float:
    """Exponential with full jitter around the mean, so parallel workers do not march."""
    return min(cap, base * 2 ** (attempt - 1)) * random.uniform(0.5, 1.5)
