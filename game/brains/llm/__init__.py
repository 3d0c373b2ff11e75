"""The language-model brain: any OpenAI-compatible endpoint through the `openai` package.

Modules: questions (each question as data), client (the one call path), embedder
(/v1/embeddings or the offline embedder), brain (LLMBrain, the Brain protocol).
"""

from .brain import LLMBrain

__all__ = ["LLMBrain"]
