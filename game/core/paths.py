"""Where the project's bundled data lives, found relative to the package, never by cwd."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
ASSETS = ROOT / "assets"
SCENARIOS = ROOT / "saves" / "scenarios"
PROMPTS = ROOT / "game" / "brains" / "prompts"
