"""The language-model brain: any OpenAI-compatible endpoint through the `openai` package.

Modules: specs (how each typed question is put to a model), client (the one call path), embedder
(/v1/embeddings or the offline embedder), brain (LLMBrain, the Brain protocol).
"""

from .brain import LLMBrain

__all__ = ["LLMBrain"]
