"""Effective settings: defaults < config file < environment < command-line flags.

The config file is TOML in `platformdirs.user_config_dir("smallville")/config.toml`
(`SMALLVILLE_CONFIG` names another file). The API key is deliberately *not* a field of
any settings object: it lives in the environment variable `api_key_env` names, or as
`api_key` in the config file (written owner-only, 0600, by the settings screen), and it
is read from there each time a request is made. The environment wins over the file. So no
settings object, save, report or log line can carry it, and `python main.py config`
shows it masked.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from enum import Enum
from pathlib import Path
from typing import Any

from game.core.errors import FileProblem, SmallvilleError, clip
from game.core.files import not_a_file, read_problem, write_atomic
from game.core.keys import key_problem
from game.core.text import public_url, single_line

APP = "smallville"
CONFIG_ENV = "SMALLVILLE_CONFIG"


class OutputMode(Enum):
    """How a request asks for JSON; `AUTO` starts at the top and steps down on rejection."""

    AUTO = "auto"
    JSON_SCHEMA = "json_schema"  # response_format json_schema (OpenAI, vLLM, LM Studio)
    JSON_OBJECT = "json_object"  # response_format json_object + schema (llama.cpp server)
    TEXT = "text"  # plain text, the JSON found in the reply


# USD per million tokens (input, output) for a few hosted models, used when no price is
# configured. Prices change: set `price_input_per_mtok` / `price_output_per_mtok` to be sure.
KNOWN_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "text-embedding-3-small": (0.02, 0.0),
    "text-embedding-3-large": (0.13, 0.0),
}


# Cognition threads: a model's calls wait on the network, and each resident may have a
# job in flight and its next decision asked ahead, so more threads than cores pay off.
DEFAULT_WORKERS = 16


@dataclass(frozen=True)
class LLMSettings:
    """Everything the language-model brain needs except the key itself."""

    base_url: str = ""  # '' = the openai package's default (api.openai.com)
    api_key_env: str = "OPENAI_API_KEY"  # the environment variable holding the key
    key_file: str = ""  # the config file holding `api_key` (set by the loader, not a setting)
    model: str = "gpt-4o-mini"
    cheap_model: str = ""  # for importance, emoji and area choice; '' = model
    embed_model: str = "text-embedding-3-small"
    embeddings: bool = True  # False: always the offline embedder
    embed_batch: int = 128
    temperature: float = 0.7
    timeout: float = 60.0  # seconds per request
    network_retries: int = 2  # for 429, 5xx and timeouts
    failures_before_rest: int = 3  # requests failing in a row before the endpoint rests
    rest_seconds: float = 30.0  # how long scripted answers stand in for a failing endpoint
    validation_retries: int = 2  # re-asks with the validation error
    output_mode: OutputMode = OutputMode.AUTO
    price_input_per_mtok: float | None = None  # None: KNOWN_PRICES, else 0
    price_output_per_mtok: float | None = None
    cheap_price_input_per_mtok: float | None = None
    cheap_price_output_per_mtok: float | None = None
    budget_usd: float = 0.0  # 0 = no cap
    max_calls: int = 0  # 0 = no cap
    record: bool = False  # answer from and write to the record/replay cache
    replay: bool = False  # answer only from the cache; never the network
    strict: bool = False  # headless: stop when the endpoint is unusable
    cache_file: str = ""  # '' = user cache dir / llm-cache.sqlite3
    audit: bool = True
    audit_file: str = ""  # '' = user data dir / saves / audit / <time>.jsonl
    max_parallel: int = 0  # requests on the wire at once; 0 = no limit (1 for llama.cpp)
    remember_endpoint: bool = True  # start on the output mode that worked last time

    def api_key(self) -> str:
        """Read at use, never stored: see the module docstring."""
        return os.environ.get(self.api_key_env, "") or file_key(self.key_file)

    def key_source(self) -> str:
        """Where `api_key()` finds the key now, for `config` and the settings screen."""
        if os.environ.get(self.api_key_env):
            return f"${self.api_key_env}"
        return self.key_file if file_key(self.key_file) else f"${self.api_key_env} (unset)"

    def prices(self, cheap: bool = False) -> tuple[float, float]:
        """(input, output) USD per million tokens for the main or the cheap model."""
        model = (self.cheap_model or self.model) if cheap else self.model
        default = KNOWN_PRICES.get(model, (0.0, 0.0))
        if cheap and self.cheap_model:
            given = (self.cheap_price_input_per_mtok, self.cheap_price_output_per_mtok)
        else:
            given = (self.price_input_per_mtok, self.price_output_per_mtok)
        return (
            default[0] if given[0] is None else given[0],
            default[1] if given[1] is None else given[1],
        )


@dataclass(frozen=True)
class Config:
    brain: str = "scripted"  # scripted | llm: who runs the town
    talk_brain: str = ""  # scripted | llm: who answers conversations ('' = the brain)
    talk_residents: bool = False  # the residents' own conversations go to talk_brain too
    workers: int = DEFAULT_WORKERS  # cognition threads
    llm: LLMSettings = field(default_factory=LLMSettings)
    sources: dict[str, str] = field(default_factory=dict)  # setting -> where it came from


# Environment variables and the LLM setting each one sets.
ENVIRONMENT = {
    "OPENAI_BASE_URL": "base_url",
    "SMALLVILLE_MODEL": "model",
    "SMALLVILLE_CHEAP_MODEL": "cheap_model",
    "SMALLVILLE_EMBED_MODEL": "embed_model",
}


def config_path() -> Path:
    given = os.environ.get(CONFIG_ENV, "")
    if given:
        return Path(given).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir(APP)) / "config.toml"


def cache_dir() -> Path:
    """SMALLVILLE_CACHE overrides the user cache folder (tests keep theirs apart)."""
    import platformdirs

    return Path(os.environ.get("SMALLVILLE_CACHE") or platformdirs.user_cache_dir(APP))


def data_dir() -> Path:
    """SMALLVILLE_DATA overrides the user data folder, as it does for the saves."""
    import platformdirs

    return Path(os.environ.get("SMALLVILLE_DATA") or platformdirs.user_data_dir(APP))


def file_key(path: str) -> str:
    """The `api_key` of the [llm] table of a config file; '' when there is none or the
    file cannot be read (the loader has already reported a broken file)."""
    if not path:
        return ""
    try:
        with open(path, "rb") as f:
            key = tomllib.loads(toml_text(f.read())).get("llm", {}).get("api_key", "")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AttributeError):
        return ""
    return key if isinstance(key, str) else ""


def write_private(path: Path, text: str) -> None:
    """Replace `path` atomically with a file only its owner can read (0600), its folder
    made if need be: a crash leaves the old file or the new one, never half of either, a
    link planted beside it or at its name never receives the key (game/core/files.py).
    Raises FileProblem."""
    write_atomic(path, text, private=True, make_folder=True)


# -- loading -------------------------------------------------------------------------------


def load_config(path: Path | None = None, env: dict[str, str] | None = None) -> Config:
    """Defaults, then the TOML file (if any), then the environment."""
    path = path or config_path()
    env = dict(os.environ) if env is None else env
    config, sources = Config(), {}
    if _config_exists(path):
        config = _apply_file(config, _read_toml(path), str(path), sources)
    llm = config.llm
    for var, name in ENVIRONMENT.items():
        if env.get(var):
            llm = replace(llm, **{name: env[var]})
            sources[f"llm.{name}"] = f"${var}"
    return replace(config, llm=llm, sources=sources)


def _config_exists(path: Path) -> bool:
    """Whether there is a config file to read. A folder that cannot be read is one line
    (FileProblem, exit 1), not a traceback: its settings may hold the brain and the key,
    so running on the defaults instead would be a surprise. So is a folder, a device or a
    pipe where the file should be (`SMALLVILLE_CONFIG=/dev/zero` ran on the defaults)."""
    if problem := not_a_file(path):
        raise FileProblem(path, problem, "read the config file")
    try:
        return path.is_file()
    except OSError as exc:
        raise read_problem(path.parent, exc, "the config folder") from None


MAX_CONFIG = 1024 * 1024  # bytes of a config file worth reading (ours are a few hundred)


def read_toml(path: Path) -> dict[str, Any]:
    """The config file, parsed with its size and depth limits (SmallvilleError if not)."""
    return _read_toml(path)


def _read_toml(path: Path) -> dict[str, Any]:
    """The config file, parsed; too large or too deeply nested counts as damaged."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_CONFIG + 1)
        if len(data) > MAX_CONFIG:
            raise ValueError(f"larger than a config file can be ({MAX_CONFIG} bytes)")
        return tomllib.loads(toml_text(data))
    except RecursionError:
        raise SmallvilleError(f"{path}: cannot read the config file: nested too deeply") from None
    except OSError as exc:
        raise read_problem(path, exc, "the config file") from None
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise SmallvilleError(f"{path}: cannot read the config file: {clip(str(exc))}") from None


def toml_text(data: bytes) -> str:
    """A config file's text: UTF-8, with the byte-order mark Windows Notepad puts first
    dropped (tomllib refused it as 'Invalid statement (at line 1, column 1)', and every
    command exited 2 on a config that looks right in any editor)."""
    return data.decode("utf-8").removeprefix("\ufeff")


def _apply_file(config: Config, doc: dict[str, Any], where: str, sources: dict) -> Config:
    """Top-level `brain`, `talk_brain`, `talk_residents` and `workers`, the rest in an
    [llm] table."""
    unknown = set(doc) - {*TOP_LEVEL, "llm"}
    if unknown:
        raise SmallvilleError(f"{where}: unknown settings {sorted(unknown)}")
    top = {k: doc[k] for k in TOP_LEVEL if k in doc}
    for key in top:
        sources[key] = where
    llm_doc = doc.get("llm", {})
    if not isinstance(llm_doc, dict):
        raise SmallvilleError(f"{where}: [llm] must be a table")
    llm = _set_fields(config.llm, llm_doc, where)
    for key in llm_doc:
        if key != "api_key":
            sources[f"llm.{key}"] = where
    config = replace(config, **_checked(Config, top, where))
    return replace(checked_brains(config, where), llm=llm)


TOP_LEVEL = ("brain", "talk_brain", "talk_residents", "workers")
BRAIN_NAMES = ("scripted", "llm")


def checked_brains(config: Config, where: str) -> Config:
    """`brain` and `talk_brain` name a brain (talk_brain may be '': the same as brain)."""
    for name in ("brain", "talk_brain"):
        value = getattr(config, name)
        if value not in BRAIN_NAMES and not (name == "talk_brain" and value == ""):
            raise SmallvilleError(
                f"{where}: setting {name!r} must be one of {', '.join(BRAIN_NAMES)}, not {value!r}"
            )
    return config


def add_talk_arguments(parser: argparse.ArgumentParser) -> None:
    """Who answers conversations, apart from who runs the town (issue 22): `run`, `play`,
    `interview`, `evaluate` and `config` take them."""
    parser.add_argument(
        "--talk-brain",
        choices=BRAIN_NAMES,
        help="who answers conversations: the visitor's chat and interviews (default: "
        "config, else the same as --brain); --talk-brain llm with the scripted town "
        "sends only those to the model",
    )
    parser.add_argument(
        "--talk-residents",
        action="store_true",
        default=None,
        help="the residents' own conversations go to the talk brain too (default: config, off)",
    )


def talks_to_model(config: Config) -> bool:
    """Whether any question goes to the language model with these settings."""
    return "llm" in (config.brain, config.talk_brain)


# The flag each language-model setting comes from, where its name differs.
FLAG_OF = {"audit_file": "--audit-log", "embeddings": "--no-embeddings"}


def model_flags(config: Config) -> list[str]:
    """The language-model flags given on the command line, as typed."""
    names = [k.removeprefix("llm.") for k, v in config.sources.items()
             if v == "flag" and k.startswith("llm.")]  # fmt: skip
    return sorted(FLAG_OF.get(n, "--" + n.replace("_", "-")) for n in names)


def refuse_unused_model_flags(config: Config, uses_model: bool) -> None:
    """A model flag where no model answers anything would be silently ignored: one line."""
    flags = model_flags(config)
    if flags and not uses_model:
        raise SmallvilleError(
            f"{' '.join(flags)} would be ignored: no language model answers here "
            "(--talk-brain llm lets one answer interviews and chat; --brain llm, everything)"
        )


def _set_fields(settings: LLMSettings, values: dict[str, Any], where: str) -> LLMSettings:
    """The [llm] table; `api_key` is checked but kept out of the settings (read at use)."""
    values = dict(values)
    key = values.pop("api_key", None)
    if key is not None and not (isinstance(key, str) and key.strip() == key and key):
        raise SmallvilleError(f"{where}: setting 'api_key': expected the key as text")
    if "key_file" in values:
        raise SmallvilleError(f"{where}: unknown setting 'key_file'")
    settings = replace(settings, **_checked(LLMSettings, values, where))
    return replace(settings, key_file=where) if key is not None else settings


def _checked(cls, values: dict[str, Any], where: str) -> dict[str, Any]:
    """Values converted to each field's type; a wrong name or type is one clear error."""
    known = {f.name: f for f in fields(cls) if f.name not in ("llm", "sources")}
    out = {}
    for name, value in values.items():
        if name not in known:
            raise SmallvilleError(f"{where}: unknown setting {name!r}")
        out[name] = _convert(name, value, getattr(cls(), name), where)
    return out


def _convert(name: str, value: Any, default: Any, where: str) -> Any:
    try:
        if isinstance(default, Enum):
            return type(default)(value)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise TypeError("expected true or false")
            return value
        if isinstance(default, int):
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(f"expected a whole number, got {value!r}")
            number = int(value)
            if number < 0:
                raise ValueError(f"expected a whole number of at least 0, got {value!r}")
            return number
        if isinstance(default, float) or (default is None and "price" in name):
            number = float(value)
            if not math.isfinite(number) or number < 0:
                raise ValueError(f"expected a finite number of at least 0, got {value!r}")
            return number
        if not isinstance(value, str):
            raise TypeError(f"expected text, got {type(value).__name__}")
        return value
    except (TypeError, ValueError, OverflowError) as exc:
        raise SmallvilleError(f"{where}: setting {name!r}: {clip(str(exc))}") from None


# -- flags -----------------------------------------------------------------------------------


def add_llm_arguments(parser: argparse.ArgumentParser, with_brain: bool = False) -> None:
    """The flags that steer the language-model brain; shared by `run`, `play` and `config`.

    A parser that already has --brain and --workers (default None, so the config file
    decides) passes with_brain=False."""
    g = parser.add_argument_group("language model (override the config file and environment)")
    if with_brain:
        g.add_argument(
            "--brain",
            choices=("scripted", "llm"),
            help="who runs the town (a save keeps its own; --talk-brain: who answers talk)",
        )
        g.add_argument("--workers", type=int, help=f"cognition threads (default {DEFAULT_WORKERS})")
    g.add_argument("--model", help="chat model name")
    g.add_argument("--cheap-model", help="model for importance, emoji and area choice")
    g.add_argument("--embed-model", help="embedding model name")
    g.add_argument("--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1")
    g.add_argument("--api-key-env", help="environment variable that holds the API key")
    g.add_argument("--record", action="store_true", help="record answers for --replay")
    g.add_argument("--replay", action="store_true", help="answer only from a recording")
    g.add_argument("--budget-usd", type=float, help="stop spending past this estimate")
    g.add_argument("--max-calls", type=int, help="stop calling the model past this many")
    g.add_argument("--strict", action="store_true", help="stop if the endpoint is unusable")
    g.add_argument("--cache-file", help="the record/replay SQLite file (default: user cache)")
    g.add_argument("--audit-log", help="write the JSONL audit log here")
    g.add_argument("--no-embeddings", action="store_true", help="use the offline embedder")
    g.add_argument(
        "--output-mode",
        choices=[m.value for m in OutputMode],
        help="how JSON is asked for (auto steps down json_schema > json_object > text)",
    )
    g.add_argument("--timeout", type=float, help="seconds per request (default 60)")
    g.add_argument(
        "--max-parallel", type=int, help="requests on the wire at once (1 for llama.cpp)"
    )


FLAG_FIELDS = {
    "model": "model",
    "cheap_model": "cheap_model",
    "embed_model": "embed_model",
    "base_url": "base_url",
    "api_key_env": "api_key_env",
    "budget_usd": "budget_usd",
    "max_calls": "max_calls",
    "audit_log": "audit_file",
    "cache_file": "cache_file",
    "output_mode": "output_mode",
    "timeout": "timeout",
    "max_parallel": "max_parallel",
}


def config_from_args(args: argparse.Namespace, base: Config | None = None) -> Config:
    """The loaded config with whatever flags were given laid on top."""
    config = base or load_config()
    sources = dict(config.sources)
    changes: dict[str, Any] = {}
    for flag, name in FLAG_FIELDS.items():
        value = getattr(args, flag, None)
        if value is not None:
            changes[name] = value
            sources[f"llm.{name}"] = "flag"
    for flag in ("record", "replay", "strict"):
        if getattr(args, flag, False):
            changes[flag] = True
            sources[f"llm.{flag}"] = "flag"
    if getattr(args, "no_embeddings", False):
        changes["embeddings"] = False
        sources["llm.embeddings"] = "flag"
    for name in ("budget_usd", "max_calls", "output_mode", "timeout", "max_parallel"):
        if name in changes:
            changes[name] = _convert(name, changes[name], getattr(LLMSettings(), name), "flag")
    if changes.get("record") and changes.get("replay"):
        raise SmallvilleError("--record and --replay exclude each other")
    top: dict[str, Any] = {}
    for name in TOP_LEVEL:
        if getattr(args, name, None) is not None:
            top[name] = getattr(args, name)
            sources[name] = "flag"
    config = replace(config, **top, llm=replace(config.llm, **changes), sources=sources)
    return checked(checked_brains(config, "flag"))


# Upper bounds of the numeric settings (the lower bound is 0 but for those in LOWS).
LIMITS: dict[str, float] = {
    "workers": 256,
    "embed_batch": 2048,
    "temperature": 2.0,
    "timeout": 3600.0,
    "network_retries": 10,
    "failures_before_rest": 1000,
    "rest_seconds": 86400.0,
    "validation_retries": 5,
    "budget_usd": 1_000_000.0,
    "max_calls": 1_000_000_000,
    "max_parallel": 1024,
}


# Lower bounds that are not 0, and the range as the error line says it: `--workers 0`
# was told "must be from 0 to 256, not 0".
LOWS: dict[str, tuple[float, bool, str]] = {  # bound, whether the bound itself is allowed
    "workers": (1, True, "from 1"),
    "timeout": (0, False, "more than 0 and at most"),
}


def checked(config: Config) -> Config:
    """Every number finite and in range, wherever it came from: one clear line if not."""
    values = {"workers": config.workers} | {
        f.name: getattr(config.llm, f.name) for f in fields(LLMSettings)
    }
    for name, high in LIMITS.items():
        value = values[name]
        where = config.sources.get(name) or config.sources.get(f"llm.{name}") or "default"
        low, inclusive, said = LOWS.get(name, (0, True, "from 0"))
        ok = isinstance(value, (int, float)) and math.isfinite(value) and value <= high
        if not ok or value < low or (value == low and not inclusive):
            joined = "" if said.endswith("most") else " to"
            raise SmallvilleError(
                f"{where}: setting {name!r} must be {said}{joined} {high:g}, not {value!r}"
            )
    return config


# -- showing -------------------------------------------------------------------------------


def mask(secret: str) -> str:
    """Enough to recognise a key, never enough to use it."""
    if not secret:
        return "(not set)"
    return "****" + secret[-4:] if len(secret) >= 12 else "****"


def describe(config: Config) -> str:
    """The effective settings as TOML-like lines, the key masked, each with its source."""
    lines = [f"# config file: {config_path()}"]
    for name in TOP_LEVEL:
        lines.append(_line(name, getattr(config, name), config.sources.get(name)))
    lines.append("")
    lines.append("[llm]")
    llm = config.llm
    for f in fields(LLMSettings):
        if f.name == "key_file":
            continue
        value = getattr(llm, f.name)
        lines.append(_line(f.name, value, config.sources.get(f"llm.{f.name}")))
    lines.append(_key_line(llm))
    for label, cheap in (("model", False), ("cheap model", True)):
        rate_in, rate_out = llm.prices(cheap)
        lines.append(f"# {label} price: ${rate_in:g} in, ${rate_out:g} out per million tokens")
    return "\n".join(lines)


def _key_line(llm: LLMSettings) -> str:
    """The key masked and where it was found; a key no request could carry (a trailing
    newline, a curly quote) is named as the problem, and never shown even masked."""
    key = llm.api_key()
    problem = key_problem(key)
    if problem:
        return f"# api key: **** (from {llm.key_source()}): it {problem}, so it is never sent"
    return f"# api key: {mask(key)} (from {llm.key_source()})"


def _line(name: str, value: Any, source: str | None) -> str:
    if value is None:
        return f"# {name} = (unset: a known price or 0)"
    if isinstance(value, Enum):
        value = value.value
    text = str(value).lower() if isinstance(value, bool) else repr(value)
    if isinstance(value, str):
        shown = public_url(value) if name == "base_url" else value
        text = json.dumps(single_line(shown), ensure_ascii=False)
    return f"{name} = {text}" + (f"  # {source}" if source else "")
