"""The audit wrapper: every request and its reply or failure, one line each, in the
audit log (the JSONL file the paper's ethics section asks for; see game/brains/audit.py,
which also redacts any secret an endpoint echoes back)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.brains.audit import AuditLog
from game.brains.llm.model import (
    ChatReply,
    ChatRequest,
    EmbedReply,
    EmbedRequest,
    LanguageModel,
    ModelError,
    Wrapper,
)


class Audited(Wrapper):
    """`wire(request)` is the request as the transport sends it (mode, schema or example,
    seed): what the log holds, not the messages before the ladder touched them."""

    def __init__(
        self,
        inner: LanguageModel,
        log: AuditLog,
        endpoint: str = "",
        wire: Callable[[ChatRequest], dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(inner)
        self.log, self.endpoint = log, endpoint
        self._wire = wire

    def refused(self, request: ChatRequest, failure: Exception, sent: dict[str, Any]) -> None:
        """A mode or parameter the endpoint refused (the ladder asks again another way):
        the request as sent and the server's error body."""
        rf = sent.get("response_format") or {}
        self.log.write(
            {
                "question": request.purpose,
                "agent": request.agent,
                "mode": str(rf.get("type", "text")),
                "request": sent,
                "refused": str(failure),
            }
        )

    def retried(self, purpose: str, agent: str, failure: Exception) -> None:
        """A network retry: the failure (with the server's error body) gets its line."""
        self.log.write({"question": purpose, "agent": agent, "retry": str(failure)})

    def chat(self, request: ChatRequest) -> ChatReply:
        try:
            reply = self.inner.chat(request)
        except ModelError as exc:
            self.log.write({**self._asked(request), "error": str(exc)})
            raise
        self.log.write({**self._asked(request), **_answered(reply)})
        return reply

    def embed(self, request: EmbedRequest) -> EmbedReply:
        """Requests sent, not vectors: a line per batch that reached the endpoint."""
        reply = self.inner.embed(request)
        if not reply.replayed:
            record = {"question": "embeddings", "model": request.model}
            record.update(texts=len(request.texts), prompt_tokens=reply.prompt_tokens)
            self.log.write({**record, "seconds": round(reply.seconds, 3)})
        return reply

    def _asked(self, request: ChatRequest) -> dict[str, Any]:
        asked: dict[str, Any] = {
            "question": request.purpose,
            "agent": request.agent,
            "model": request.model,
            "endpoint": self.endpoint,
        }
        if self._wire is None:
            return {**asked, "messages": request.wire_messages()}
        sent = self._wire(request)
        rf = sent.get("response_format") or {}
        return {**asked, "mode": str(rf.get("type", "text")), "request": sent}


def _answered(reply: ChatReply) -> dict[str, Any]:
    return {
        "answer": reply.text,
        "prompt_tokens": reply.prompt_tokens,
        "completion_tokens": reply.completion_tokens,
        "seconds": round(reply.seconds, 3),
        "finish_reason": reply.finish_reason,
        "replayed": reply.replayed,
    }
