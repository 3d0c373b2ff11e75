"""The innermost LanguageModel: one HTTP request through the `openai` package.

It sends exactly what the request says (the output mode and parameter quirks are chosen
by the ladder above it) and turns every HTTP error into one of our typed failures. It
never retries (`max_retries=0`): retries belong to the Retrying wrapper, where they are
counted and Retry-After is honoured.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from email.utils import parsedate_to_datetime
from typing import Any

import openai

from game.brains.audit import redact
from game.brains.llm.jsontext import schema_hint
from game.brains.llm.model import (
    BadReply,
    ChatReply,
    ChatRequest,
    EmbedReply,
    EmbedRequest,
    EndpointDown,
    FormatRefused,
    ModelError,
    NoEmbeddings,
    ParamRefused,
    Quirk,
    Refused,
    Transient,
)
from game.core.config import OutputMode

DEFAULT_URL = "https://api.openai.com/v1"
MAX_WAIT = 60.0  # seconds: the longest Retry-After we honour
# Words in a 400/422 answer that say the endpoint disliked our response_format.
FORMAT_WORDS = ("response_format", "json_schema", "json_object", "schema", "format", "grammar")
# What an endpoint without /v1/embeddings answers there.
NO_EMBEDDINGS = (400, 404, 405, 422, 501)


class OpenAIChat:
    """Chat completions and embeddings from any OpenAI-compatible endpoint."""

    def __init__(
        self,
        base_url: str = "",
        api_key: Callable[[], str] = lambda: "",
        timeout: float = 60.0,
        key_env: str = "OPENAI_API_KEY",
    ) -> None:
        self.endpoint = base_url or DEFAULT_URL
        self.timeout = timeout
        self._key, self._key_env = api_key, key_env
        self._client = openai.OpenAI(
            api_key=lambda: api_key() or "no-key",  # read at each request, never kept
            base_url=base_url or None,
            timeout=timeout,
            max_retries=0,
        )

    def chat(self, request: ChatRequest) -> ChatReply:
        began = time.perf_counter()
        response = self._call(
            lambda: self._client.chat.completions.create(**chat_arguments(request)),
            request.model,
        )
        return _chat_reply(response, request, time.perf_counter() - began)

    def embed(self, request: EmbedRequest) -> EmbedReply:
        began = time.perf_counter()
        response = self._call(
            lambda: self._client.embeddings.create(
                model=request.model, input=list(request.texts), encoding_format="float"
            ),
            request.model,
            embeddings=True,
        )
        rows = sorted(response.data, key=lambda d: d.index)
        if len(rows) != len(request.texts):
            raise BadReply(f"{len(rows)} embeddings came back for {len(request.texts)} texts")
        usage = getattr(response, "usage", None)
        tokens = getattr(usage, "prompt_tokens", None) or sum(map(estimate_tokens, request.texts))
        vectors = tuple(tuple(map(float, r.embedding)) for r in rows)
        return EmbedReply(vectors, int(tokens), time.perf_counter() - began)

    # -- errors into types -----------------------------------------------------------------
    def _call(self, call: Callable[[], Any], model: str, embeddings: bool = False) -> Any:
        try:
            return call()
        except openai.APITimeoutError:
            raise Transient(f"no answer within {self.timeout:g} s") from None
        except openai.APIConnectionError as exc:
            if _hung_up(exc):
                raise Transient("the endpoint hung up without answering") from None
            raise EndpointDown(
                self._say(f"cannot reach the model endpoint at {self.endpoint} ({exc})")
            ) from None
        except openai.RateLimitError as exc:
            if "insufficient_quota" in str(exc):
                raise EndpointDown("the account has no quota left (429)") from None
            raise Transient("rate limited (429)", retry_after(exc)) from None
        except openai.APIStatusError as exc:
            raise self._status_error(exc, model, embeddings) from None

    def _status_error(self, exc: openai.APIStatusError, model: str, embeddings: bool) -> ModelError:
        """What an HTTP error status means for us."""
        status, message = exc.status_code, self._say(_message(exc))
        if status in (401, 403):
            refused = f"the endpoint refused the API key ({status})"
            return EndpointDown(f"{refused}; set ${self._key_env}")
        if embeddings and status in NO_EMBEDDINGS:
            return NoEmbeddings(f"{status}: {message}")
        if status == 404:
            return EndpointDown(
                f"the endpoint answered 404 for model {model!r}: check the model name and the "
                "base URL (it usually ends in /v1)"
            )
        if status >= 500:
            return Transient(f"server error ({status})", retry_after(exc))
        return _rejection(status, message)

    def _say(self, text: str) -> str:
        return redact(text, [self._key()])


def _rejection(status: int, message: str) -> Refused:
    """A 4xx: a parameter this model refuses, our response_format, or the request itself."""
    quirk = quirk_for(message) if status in (400, 422) else None
    if quirk is not None:
        return ParamRefused(quirk, f"{status}: {message}")
    if status in (400, 422) and any(w in message.lower() for w in FORMAT_WORDS):
        return FormatRefused(f"{status}: {message}")
    return Refused(f"the endpoint rejected the request ({status}): {message}")


def quirk_for(message: str) -> Quirk | None:
    low = message.lower()
    if "max_tokens" in low and "max_completion_tokens" in low:
        return Quirk.MAX_COMPLETION_TOKENS
    if "temperature" in low and ("unsupported" in low or "not support" in low):
        return Quirk.NO_TEMPERATURE
    return None


# -- the request on the wire ----------------------------------------------------------------
def chat_arguments(request: ChatRequest) -> dict[str, Any]:
    """The keyword arguments of `chat.completions.create` for this request."""
    messages = request.wire_messages()
    kwargs: dict[str, Any] = {"model": request.model}
    if request.mode is OutputMode.JSON_SCHEMA:
        body = {k: v for k, v in request.schema.items() if k != "title"}
        kwargs["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": request.title, "schema": body, "strict": True},
        }
    else:
        messages = with_schema(messages, request.schema)
        if request.mode is OutputMode.JSON_OBJECT:
            kwargs["response_format"] = {"type": "json_object", "schema": dict(request.schema)}
    if Quirk.NO_TEMPERATURE not in request.quirks:
        kwargs["temperature"] = request.temperature
    long_name = Quirk.MAX_COMPLETION_TOKENS in request.quirks
    kwargs["max_completion_tokens" if long_name else "max_tokens"] = request.max_tokens
    kwargs["messages"] = messages
    return kwargs


def with_schema(messages: list[dict[str, str]], schema: Any) -> list[dict[str, str]]:
    """For endpoints that cannot enforce a schema: state it in the prompt."""
    last = messages[-1]
    note = "\nReply with only a JSON object that follows this JSON schema: "
    note += schema_hint(dict(schema))
    return [*messages[:-1], {**last, "content": last["content"] + note}]


def _chat_reply(response: Any, request: ChatRequest, seconds: float) -> ChatReply:
    choice = response.choices[0] if response.choices else None
    text = (choice.message.content if choice is not None else "") or ""
    usage = getattr(response, "usage", None)
    prompt = getattr(usage, "prompt_tokens", None)
    completion = getattr(usage, "completion_tokens", None)
    if prompt is None:
        prompt = sum(estimate_tokens(m.content) for m in request.messages)
    if completion is None:
        completion = estimate_tokens(text)
    finish = str(getattr(choice, "finish_reason", "") or "")
    return ChatReply(text, int(prompt), int(completion), seconds, finish)


def estimate_tokens(text: str) -> int:
    """For an endpoint that sends no usage fields: about four characters a token."""
    return max(1, len(text) // 4)


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
    ms = _seconds(headers.get("retry-after-ms"), scale=1000)
    if ms is not None:
        return ms
    value = headers.get("retry-after")
    if not value:
        return None
    plain = _seconds(value)
    if plain is not None:
        return plain
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return min(MAX_WAIT, max(0.0, when.timestamp() - time.time()))


def _seconds(value: str | None, scale: float = 1.0) -> float | None:
    if not value:
        return None
    try:
        return min(MAX_WAIT, max(0.0, float(value) / scale))
    except ValueError:
        return None


def _hung_up(exc: Exception) -> bool:
    """A connection that opened and then closed with no answer is worth another try;
    a refused or unresolvable one is not (the endpoint is not there)."""
    cause = exc.__cause__ or exc.__context__
    # by name: the openai package's HTTP library differs between its versions
    return type(cause).__name__ in ("RemoteProtocolError", "ReadError", "ConnectionResetError")
