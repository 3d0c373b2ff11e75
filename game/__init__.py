"""Smallville: a desktop game of generative agents (Park et al., 2023)."""

__version__ = "0.1.0"
