"""Smallville: a desktop game of generative agents (Park et al., 2023)."""

import os

# pytmx imports pygame when it is installed; keep its greeting out of our output.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__version__ = "0.1.0"
