"""Plain-JSON encoding of our typed records, driven by their type hints.

Saves list each field once: a dataclass is encoded from its own fields and decoded back
through its annotations, so adding a field to a record needs no change to the save code.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections import deque
from datetime import datetime
from enum import Enum
from functools import cache
from typing import Any


def encode(value: Any, compact: bool = False) -> Any:
    """Dataclasses, enums, datetimes, tuples and dicts -> JSON-able values.

    `compact` leaves out dataclass fields that hold their default (decode puts the
    default back), which keeps a save of thousands of memories small.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: encode(getattr(value, f.name), compact)
            for f in dataclasses.fields(value)
            if not (compact and _is_default(f, getattr(value, f.name)))
        }
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (set, frozenset)):
        return sorted(encode(v) for v in value)
    if isinstance(value, (list, tuple, deque)):
        return [encode(v, compact) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v, compact) for k, v in value.items()}
    return value


def _is_default(f: dataclasses.Field, value: Any) -> bool:
    if f.default is not dataclasses.MISSING:
        return value == f.default
    if f.default_factory is not dataclasses.MISSING:
        return value == f.default_factory()
    return False


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode(kind: Any, data: Any) -> Any:
    """The inverse of encode for a declared type; TypeError/ValueError on a mismatch."""
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind is Any:
        return data
    if origin in (typing.Union, types.UnionType):
        return _decode_union(args, data)
    if dataclasses.is_dataclass(kind):
        return _decode_dataclass(kind, data)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind(data)
    if kind is datetime:
        return datetime.fromisoformat(_need(str, data))
    if origin is tuple:
        items = _need(list, data)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in items)
        return tuple(decode(a, v) for a, v in zip(args, items, strict=True))
    if origin is list:
        return [decode(args[0], v) for v in _need(list, data)]
    if origin in (set, frozenset):
        return origin(decode(args[0], v) for v in _need(list, data))
    if origin is deque:
        return deque(decode(args[0], v) for v in _need(list, data))
    if origin is dict:
        key_type = args[0]
        return {_key(key_type, k): decode(args[1], v) for k, v in _need(dict, data).items()}
    if kind in (int, float, str, bool):
        return _need(kind, data)
    raise TypeError(f"cannot decode type {kind!r}")


def _key(kind: Any, text: str) -> Any:
    if kind is int:
        return int(text)
    if typing.get_origin(kind) is tuple:
        return tuple(int(p) for p in text.strip("()").split(","))
    return text


def _decode_union(args: tuple, data: Any) -> Any:
    if data is None and type(None) in args:
        return None
    errors = []
    for arg in args:
        if arg is type(None):
            continue
        try:
            return decode(arg, data)
        except (TypeError, ValueError, KeyError) as exc:
            errors.append(str(exc))
    raise ValueError("; ".join(errors) or f"cannot decode {data!r}")


def _decode_dataclass(kind: type, data: Any) -> Any:
    data = _need(dict, data)
    hints = _hints(kind)
    values = {}
    for f in dataclasses.fields(kind):
        if f.name in data:
            values[f.name] = decode(hints[f.name], data[f.name])
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise KeyError(f"{kind.__name__} needs field {f.name!r}")
    return kind(**values)


def _need(kind: type, data: Any) -> Any:
    if kind is float and isinstance(data, int) and not isinstance(data, bool):
        return float(data)
    if kind is int and isinstance(data, bool) or not isinstance(data, kind):
        raise TypeError(f"expected {kind.__name__}, got {type(data).__name__}")
    return data
