"""Helpers for reading hand-typed tallies: counts, names and the places errors point at."""

from __future__ import annotations

import unicodedata
from typing import Any

from kkprint.base.errors import InputError, close_to, suggest
from kkprint.base.i18n import N_, Counted, Listed, Msg
from kkprint.base.yamlio import LineDict

MAX_COUNT = 10_000


def at(container: Any, key: Any, label: str | Msg) -> str | Msg:
    """``label`` plus the YAML line of ``key`` in ``container`` when it is known."""
    line = container.line_of(key) if isinstance(container, LineDict) else None
    return Msg("{place} (line {line})", place=label, line=line) if line and not _names_line(label, line) else label


def _names_line(label: Any, line: int) -> bool:
    """Whether ``label`` already says ``(line N)``: a player and their land on one line of a
    flow mapping are one place, said once."""
    return isinstance(label, Msg) and (
        label.values.get("line") == line or any(_names_line(value, line) for value in label.values.values())
    )


def count(value: Any, what: str | Msg, place: str | Msg, source: str, path: tuple | None = None) -> int:
    """A non-negative whole number; full-width digits ("５") are accepted, as typed on a phone."""

    def refuse(message: Msg):
        return InputError(message, source=source, place=place, path=path)

    if isinstance(value, bool) or value is None:
        raise refuse(Msg("{what} must be a whole number, not {value}", what=what, value=repr(value)))
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        text = unicodedata.normalize("NFKC", value).strip()
        if text.isascii() and text.lstrip("-").isdigit():
            if len(text) > 12:  # (and beyond 4,300 digits int() itself would refuse)
                raise refuse(Msg("{what} of {value} is not a count from a real game", what=what, value=text[:12] + "…"))
            value = int(text)
        else:
            raise refuse(Msg("{what} must be a whole number, not {value}", what=what, value=repr(value)))
    if not isinstance(value, int):
        raise refuse(Msg("{what} must be a whole number, not {value}", what=what, value=repr(value)))
    if value < 0:
        raise refuse(Msg("{what} cannot be negative ({value})", what=what, value=value))
    if value > MAX_COUNT:
        raise refuse(Msg("{what} of {value} is not a count from a real game", what=what, value=value))
    return value


def mapping(value: Any, what: str | Msg, place: str | Msg | None, source: str) -> dict:
    if not isinstance(value, dict):
        raise InputError(
            Msg("{what} must be a mapping (key: value), not {kind}", what=what, kind=kind_of(value)),
            source=source,
            place=place,
        )
    return value


def kind_of(value: Any) -> Msg:
    """What a YAML or JSON value is, in the reader's words (not Python's type names)."""
    if value is None:
        return Msg(N_("nothing"))
    if isinstance(value, bool):
        return Msg(N_("true or false"))
    if isinstance(value, (int, float)):
        return Msg(N_("a number"))
    if isinstance(value, str):
        return Msg(N_("text"))
    if isinstance(value, list):
        return Msg(N_("a list"))
    return Msg(N_("another kind of value"))


def _players_allowed(count: int, low: int, high: int) -> Msg:
    """ "2 players; this game is for 3–5" (or "for exactly 3" when it knows one number only)."""
    if low == high:
        return Counted(
            "{count} player; this game is for exactly {low}",
            "{count} players; this game is for exactly {low}",
            count,
            count=count,
            low=low,
        )
    return Counted(
        "{count} player; this game is for {low}–{high}",
        "{count} players; this game is for {low}–{high}",
        count,
        count=count,
        low=low,
        high=high,
    )


def player_names(entries: list, source: str, *, minimum: int, maximum: int, key: str = "name") -> list[str]:
    """Names of a player list, checked for count, type, emptiness and duplicates."""
    if not isinstance(entries, list):
        raise InputError(Msg("players must be a list"), source=source, path=("players",))
    if not minimum <= len(entries) <= maximum:
        raise InputError(
            _players_allowed(len(entries), minimum, maximum),
            source=source,
            place="players",
            path=("players",),
        )
    names = []
    for index, entry in enumerate(entries, start=1):
        raw = entry.get(key) if isinstance(entry, dict) else entry
        label = Msg("player {n}", n=index)
        place = at(entry, key, label) if isinstance(entry, dict) else label
        path = ("players", index - 1, key) if isinstance(entry, dict) else ("players", index - 1)

        def refuse(message: Msg, place=place, path=path):
            return InputError(message, source=source, place=place, path=path)

        if not isinstance(raw, (str, int)) or isinstance(raw, bool) or not str(raw).strip():
            raise refuse(Msg("every player needs a name"))
        name = unicodedata.normalize("NFC", str(raw)).strip()
        if any(unicodedata.category(c).startswith("C") for c in name):
            raise refuse(Msg("name '{name}' contains control characters", name=name.encode("unicode_escape").decode()))
        if len(name) > 40:
            raise refuse(Msg("name '{name}'… is longer than 40 characters", name=name[:20]))
        if name in names:
            raise refuse(Msg("two players are called '{name}'", name=name))
        names.append(name)
    return names


def reject_unknown_keys(data: dict, allowed: set[str], source: str, place: str | Msg | None = None) -> None:
    for key in data:
        if key not in allowed:
            where = at(data, key, place or Msg("top level"))
            raise InputError(
                Msg(
                    "unknown key '{key}'; expected one of: {keys}{hint}",
                    key=key,
                    keys=Listed(sorted(allowed)),
                    hint=suggest(str(key), allowed) if close_to(str(key), allowed) else "",
                ),
                source=source,
                place=where,
            )
