"""`build_model`: the parts of the client stacked in their one right order.

From the outside in, each part deciding before the next one costs anything:

    Breaker      a down or resting endpoint is not asked (nothing spent, nothing logged)
    Budgeted     past the cap, no request (a replayed one counts too)
    Audited      every request that goes on, with its reply or failure
    Metered      calls, tokens, latency, cost; failures
    Recording    (with --record / --replay) answers from the file; misses stop a replay
    ModeLadder   json_schema -> json_object -> text; parameters the model refuses
    Retrying     429 / 5xx / timeouts / dropped connections, Retry-After honoured
    Throttled    at most max_parallel requests on the wire
    OpenAIChat   one HTTP request through the `openai` package
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from game.brains.audit import AuditLog, public_url
from game.brains.budget import BudgetGuard
from game.brains.llm.auditing import Audited
from game.brains.llm.breaker import Breaker
from game.brains.llm.metering import Budgeted, Metered
from game.brains.llm.model import LanguageModel, Signals
from game.brains.llm.modes import ModeLadder
from game.brains.llm.openai_chat import DEFAULT_URL, OpenAIChat
from game.brains.llm.recording import Recording, ReplayCache
from game.brains.llm.retry import Retrying, Throttled
from game.brains.llm.settled import EndpointMemory, effective
from game.brains.llm.wire import chat_arguments
from game.brains.usage import UsageMeter
from game.core.config import LLMSettings, OutputMode


@dataclass(frozen=True)
class Stack:
    """The outermost model, and the parts whose state a caller reads."""

    model: LanguageModel
    breaker: Breaker
    ladder: ModeLadder
    transport: LanguageModel  # the innermost part: closing it cancels requests in flight


@dataclass(frozen=True)
class Ledgers:
    """What the stack reports to, owned by the brain (it reads and closes them)."""

    meter: UsageMeter
    guard: BudgetGuard
    audit: AuditLog
    cache: ReplayCache | None = None


def build_model(
    settings: LLMSettings,
    ledgers: Ledgers,
    signals: Signals,
    sleep: Callable[[float], None] = time.sleep,
    transport: LanguageModel | None = None,
) -> Stack:
    """`transport` replaces the openai one (a test's fake endpoint)."""
    url = settings.base_url or DEFAULT_URL
    start, on_settle, known = _remembered(settings, url)
    inner: LanguageModel = transport or OpenAIChat(
        settings.base_url,
        settings.api_key,
        known.first_token.value,
        settings.api_key_env,
        tokens_per_second=known.tokens_per_second.value,
        key_source=settings.key_source,
    )
    model: LanguageModel = Throttled(inner, known.max_parallel.value)
    count = ledgers.meter.count
    audit: list[Audited] = []

    def retried(purpose: str, agent: str, failure: Exception) -> None:
        count("retries", purpose, agent)
        audit[0].retried(purpose, agent, failure)

    model = Retrying(model, settings.network_retries, sleep, retried, on_wait=signals.tell)

    def refused(request, failure: Exception) -> None:
        audit[0].refused(request, failure, chat_arguments(request))

    ladder = ModeLadder(model, settings.output_mode, url, start, on_settle, refused)
    model = ladder if ledgers.cache is None else Recording(ladder, ledgers.cache, signals.tell)

    def wire(request):
        return chat_arguments(replace(request, mode=ladder.mode, quirks=ladder.quirks))

    audit.append(Audited(Metered(model, ledgers.meter), ledgers.audit, public_url(url), wire))
    model = audit[0]
    model = Budgeted(model, ledgers.guard, signals.tell)
    breaker = Breaker(
        model,
        signals,
        settings.failures_before_rest,
        settings.rest_seconds,
        settings.strict,
    )
    return Stack(breaker, breaker, ladder, inner)


def _remembered(settings: LLMSettings, url: str):
    """(start, on_settle, effective): the rung that worked last time for this endpoint
    and model, how to keep the one that works now, and the effective settings (what
    `config` shows: the cached parallelism and speed, measured by `doctor`). A replay
    needs none of them."""
    endpoint = public_url(url)
    known = effective(settings, endpoint=endpoint)
    if settings.replay or not settings.remember_endpoint:
        return None, lambda mode: None, known
    memory = EndpointMemory()
    cached = memory.get(endpoint, settings.model).mode

    def keep(mode: OutputMode) -> None:
        if mode is not cached:  # a mode doctor found and a run confirms stays doctor's
            memory.put(endpoint, settings.model, mode=mode, mode_from="a run")

    return cached, keep, known
