"""Helpers for reading hand-typed tallies: counts, names and the places errors point at."""

from __future__ import annotations

import unicodedata
from typing import Any

from kkprint.errors import InputError
from kkprint.yamlio import LineDict

MAX_COUNT = 10_000


def at(container: Any, key: Any, label: str) -> str:
    """``label`` plus the YAML line of ``key`` in ``container`` when it is known."""
    line = container.line_of(key) if isinstance(container, LineDict) else None
    return f"{label} (line {line})" if line else label


def count(value: Any, what: str, place: str, source: str) -> int:
    """A non-negative whole number; full-width digits ("５") are accepted, as typed on a phone."""
    if isinstance(value, bool) or value is None:
        raise InputError(f"{what} must be a whole number, not {value!r}", source=source, place=place)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        text = unicodedata.normalize("NFKC", value).strip()
        if text.isascii() and text.lstrip("-").isdigit():
            value = int(text)
        else:
            raise InputError(f"{what} must be a whole number, not {value!r}", source=source, place=place)
    if not isinstance(value, int):
        raise InputError(f"{what} must be a whole number, not {value!r}", source=source, place=place)
    if value < 0:
        raise InputError(f"{what} cannot be negative ({value})", source=source, place=place)
    if value > MAX_COUNT:
        raise InputError(f"{what} of {value} is not a count from a real game", source=source, place=place)
    return value


def mapping(value: Any, what: str, place: str | None, source: str) -> dict:
    if not isinstance(value, dict):
        raise InputError(f"{what} must be a mapping (key: value), not {type(value).__name__}", source=source, place=place)
    return value


def player_names(entries: list, source: str, *, minimum: int, maximum: int, key: str = "name") -> list[str]:
    """Names of a player list, checked for count, type, emptiness and duplicates."""
    if not isinstance(entries, list):
        raise InputError("players must be a list", source=source)
    if not minimum <= len(entries) <= maximum:
        raise InputError(f"{len(entries)} players; this game is for {minimum}–{maximum}", source=source, place="players")
    names = []
    for index, entry in enumerate(entries, start=1):
        raw = entry.get(key) if isinstance(entry, dict) else entry
        place = at(entry, key, f"player {index}") if isinstance(entry, dict) else f"player {index}"
        if not isinstance(raw, (str, int)) or isinstance(raw, bool) or not str(raw).strip():
            raise InputError("every player needs a name", source=source, place=place)
        name = unicodedata.normalize("NFC", str(raw)).strip()
        if any(unicodedata.category(c).startswith("C") for c in name):
            raise InputError(f"name {name!r} contains control characters", source=source, place=place)
        if len(name) > 40:
            raise InputError(f"name {name[:20]!r}… is longer than 40 characters", source=source, place=place)
        if name in names:
            raise InputError(f"two players are called {name!r}", source=source, place=place)
        names.append(name)
    return names


def reject_unknown_keys(data: dict, allowed: set[str], source: str, place: str | None = None) -> None:
    for key in data:
        if key not in allowed:
            where = at(data, key, place or "top level")
            raise InputError(f"unknown key {key!r}; expected one of: {', '.join(sorted(allowed))}", source=source, place=where)
