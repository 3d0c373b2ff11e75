"""What an endpoint's refusals and failures mean, as our typed failures.

The words of a 400 say which parameter a model refuses (a `Quirk`), whether the output
format or streaming was refused, or whether /v1/embeddings is missing; the headers say
how long to wait. Read here so the transport only maps statuses to these answers.
"""

from __future__ import annotations

import math
import re
import time
from email.utils import parsedate_to_datetime
from typing import Any

import openai

from game.brains.llm.model import ParamRefused, Quirk, Refused
from game.brains.llm.wire import LIMIT_KEYWORDS

# Words in a 400/422 answer that say the endpoint disliked our response_format.
FORMAT_NAMES = ("response_format", "json_schema", "json_object")
FORMAT_WORDS = (*FORMAT_NAMES, "schema", "format", "grammar")
# What an endpoint without /v1/embeddings answers there.
NO_EMBEDDINGS = (400, 404, 405, 422, 501)


_STREAM_WORDS = re.compile(r"\bstream(_options)?\b", re.IGNORECASE)


def names_stream(message: str) -> bool:
    """A rejection naming `stream` or `stream_options`: a server that does not stream,
    or does not take the usage option."""
    return _STREAM_WORDS.search(message) is not None


def rejection(status: int, message: str) -> Refused:
    """A 4xx: a parameter this model refuses, or the request itself."""
    quirk = quirk_for(message) if status in (400, 422) else None
    if quirk is not None:
        return ParamRefused(quirk, f"{status}: {message}")
    return Refused(f"the endpoint rejected the request ({status}): {message}")


def names_format(status: int, message: str) -> bool:
    """A refusal of our response_format: any error naming it outright, or a 400, 422 or
    500 naming a schema or a format. llama.cpp's server answers json_schema with a 500
    whose body says "Input should be 'text' or 'json_object'" at response_format.type:
    that is a rung to step down, not an endpoint to rest."""
    low = message.lower()
    if any(word in low for word in FORMAT_NAMES):
        return True
    return status in (400, 422, 500) and any(word in low for word in FORMAT_WORDS)


def names_embeddings(status: int, message: str) -> bool:
    """A chat-only server's answer at /v1/embeddings: llama.cpp's says the model "must be
    created with embedding=True" (a 500). Retrying cannot mend that."""
    low = message.lower()
    return status >= 500 and "embedding" in low and ("must" in low or "not" in low)


def quirk_for(message: str) -> Quirk | None:
    low = message.lower()
    if "max_tokens" in low and "max_completion_tokens" in low:
        return Quirk.MAX_COMPLETION_TOKENS
    if "temperature" in low and ("unsupported" in low or "not support" in low):
        return Quirk.NO_TEMPERATURE
    refusal = ("unsupported", "not support", "unrecognized", "extra", "not permitted")
    if "seed" in low and any(word in low for word in refusal):
        return Quirk.NO_SEED
    if "schema" in low and any(k.lower() in low for k in LIMIT_KEYWORDS):
        return Quirk.PLAIN_SCHEMA  # OpenAI's strict mode refuses some limits (minLength)
    return None


def error_message(exc: openai.APIStatusError) -> str:
    """The error's message (cleaned by the caller); never more than 300 characters."""
    try:
        return _body_message(exc)
    except Exception:  # noqa: BLE001 - an error body can be anything
        return f"an error answer ({exc.status_code})"


def _body_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])[:300]
        if isinstance(inner, str):
            return inner[:300]
    return str(exc)[:300]


def retry_after(exc: openai.APIStatusError) -> float | None:
    """Seconds the server asked us to wait (Retry-After or retry-after-ms), as asked:
    Retrying decides whether a wait that long is worth it (game/brains/llm/retry.py)."""
    try:
        headers = exc.response.headers if exc.response is not None else {}
        return _wait_asked(headers)
    except Exception:  # noqa: BLE001 - a header can be anything
        return None


def _wait_asked(headers: Any) -> float | None:
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
    return max(0.0, when.timestamp() - time.time())


def _seconds(value: str | None, scale: float = 1.0) -> float | None:
    if not value:
        return None
    try:
        seconds = float(value) / scale
    except (ValueError, OverflowError):
        return None
    return max(0.0, seconds) if math.isfinite(seconds) else None


def hung_up(exc: Exception) -> bool:
    """A connection that opened and then closed with no answer is worth another try;
    a refused or unresolvable one is not (the endpoint is not there)."""
    cause = exc.__cause__ or exc.__context__
    # by name: the openai package's HTTP library differs between its versions
    return type(cause).__name__ in ("RemoteProtocolError", "ReadError", "ConnectionResetError")
