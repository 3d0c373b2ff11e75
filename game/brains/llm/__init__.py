"""The language-model brain: any OpenAI-compatible endpoint through the `openai` package.

Modules: specs (how each typed question is put to a model), client (the one call
path: prompt, validate, re-ask, fall back), model (the LanguageModel protocol, its typed
requests, replies and failures), its parts (openai_chat, with flight, bounded, wire,
replies and http_errors beneath it; retry, modes, recording, metering, auditing,
breaker) and stack (build_model: the parts in order), embedder
(/v1/embeddings or the offline embedder), brain (LLMBrain, the Brain protocol).
"""

from .brain import LLMBrain

__all__ = ["LLMBrain"]
