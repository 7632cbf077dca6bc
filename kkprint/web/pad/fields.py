"""A tally's fields by their place: what the phones change one at a time.

A place (a *path*) is the list of keys and positions from the tally's top down to one value:
``["players", 0, "lands", "france", "cards"]``, ``["cardinals", "A", 2]``, or — the trump map,
whose rows are strings of twelve marks — ``["monasteries", 0, 4]`` for one square of a row.
Changing one place never touches its neighbours, so phones marking one row at once all keep
their marks. Pure data; the store applies these inside its transactions.
"""

from __future__ import annotations

import copy
from typing import Any, TypeGuard

from kkprint.base.i18n import Msg

MAX_DEPTH = 8
MAX_KEY = 64
MAX_INDEX = 63  # more places than any game has (13 squares, 12 map columns, 5 players)
MAP_ROWS = ("monasteries",)  # the trump map: rows kept as strings, one mark a square

Path = tuple[str | int, ...]


class FieldError(ValueError):
    """A place that is not in this tally, or a value that cannot go there."""

    def __init__(self, message: Msg):
        super().__init__(message.msgid)
        self.message = message


def parse_path(raw: Any) -> Path:
    """A path from a request: a JSON list of keys and positions (``"0"`` is read as position 0
    where the tally holds a list), or a dotted string as the pages write it."""
    parts = raw.split(".") if isinstance(raw, str) else raw
    if not isinstance(parts, list) or not 1 <= len(parts) <= MAX_DEPTH:
        raise FieldError(Msg("a field's place is a list of 1 to {n} keys", n=MAX_DEPTH))
    path: list[str | int] = []
    for part in parts:
        if isinstance(part, bool) or not isinstance(part, (str, int)):
            raise FieldError(Msg("a field's place is a list of 1 to {n} keys", n=MAX_DEPTH))
        if isinstance(part, str) and not 0 < len(part) <= MAX_KEY:
            raise FieldError(Msg("a key of a field's place has 1 to {n} characters", n=MAX_KEY))
        path.append(part)
    return tuple(path)


def _position(part: str | int, length: int, path: Path) -> int:
    index = part if isinstance(part, int) else int(part) if part.isdigit() and part.isascii() else -1
    if not 0 <= index <= min(length, MAX_INDEX):
        raise FieldError(Msg("this game has no field {place}", place=shown(path)))
    return index


def shown(path: Path) -> str:
    return ".".join(str(part) for part in path)


def get(tally: Any, path: Path) -> Any:
    """The value at ``path`` (None where there is none yet)."""
    node = tally
    for part in path:
        if isinstance(node, dict):
            node = node.get(str(part))
        elif isinstance(node, (list, str)):
            index = part if isinstance(part, int) else int(part) if str(part).isdigit() else -1
            node = node[index] if 0 <= index < len(node) else None
        else:
            return None
    return node


def put(tally: dict, path: Path, value: Any) -> dict:
    """A copy of ``tally`` with ``value`` at ``path``: ``None`` removes a key; a missing
    mapping or list on the way is made (a list where the next key is a position); a list grows
    by one place at most; one character of a string (a map row) is replaced by one mark."""
    result = copy.deepcopy(tally)
    node: Any = result
    for depth, part in enumerate(path):
        last = depth == len(path) - 1
        if not isinstance(node, (dict, list)):
            raise FieldError(Msg("this game has no field {place}", place=shown(path)))
        if isinstance(node, dict):
            key = str(part)
            if last:
                if value is None:
                    node.pop(key, None)
                else:
                    node[key] = value
                return result
            child = node.get(key)
            if _is_mark(child, path, depth):
                node[key] = _replace_mark(child, path[-1], value, path)
                return result
            node[key] = node = _container(child, path, depth)
            continue
        index = _position(part, len(node), path)
        if index == len(node):
            node.append(None)
        if last:
            node[index] = value
            return result
        child = node[index]
        if _is_mark(child, path, depth):
            node[index] = _replace_mark(child, path[-1], value, path)
            return result
        node[index] = node = _container(child, path, depth)
    return result


def _is_mark(child: Any, path: Path, depth: int) -> TypeGuard[str]:
    """Whether ``child`` is a map row and the path's last key one of its squares."""
    return isinstance(child, str) and depth == len(path) - 2 and path[0] in MAP_ROWS


def _container(child: Any, path: Path, depth: int) -> dict | list:
    """The mapping or list on the way down: made where there is none yet; a name or a number
    has no fields inside it."""
    if isinstance(child, (dict, list)):
        return child
    if child is not None:
        raise FieldError(Msg("this game has no field {place}", place=shown(path)))
    return [] if _is_position(path[depth + 1]) else {}


def _is_position(part: str | int) -> bool:
    return isinstance(part, int) or (part.isdigit() and part.isascii())


def _replace_mark(row: str, part: str | int, value: Any, path: Path) -> str:
    index = _position(part, len(row) - 1, path)
    if not isinstance(value, str) or len(value) != 1:
        raise FieldError(Msg("a square of the map holds one mark, not {value}", value=repr(value)[:20]))
    return row[:index] + value + row[index + 1 :]


def diff(before: Any, after: Any, path: Path = (), limit: int = 40) -> list[tuple[Path, Any, Any]]:
    """The places whose values differ, each with its value before and after (at most
    ``limit``): what a history line says a whole-tally change did."""
    found: list[tuple[Path, Any, Any]] = []
    _diff(before, after, path, found, limit)
    return found


def _diff(before: Any, after: Any, path: Path, found: list, limit: int) -> None:
    if len(found) >= limit or before == after:
        return
    if isinstance(before, dict | None) and isinstance(after, dict | None) and (before or after) is not None:
        old, new = before or {}, after or {}
        for key in [*old, *(k for k in new if k not in old)]:
            _diff(old.get(key), new.get(key), (*path, key), found, limit)
        return
    both_lists = isinstance(before, list | None) and isinstance(after, list | None)
    if both_lists and (_holds_fields(before, path) or _holds_fields(after, path)):
        old_items, new_items = before or [], after or []
        for index in range(max(len(old_items), len(new_items))):
            _diff(
                old_items[index] if index < len(old_items) else None,
                new_items[index] if index < len(new_items) else None,
                (*path, index),
                found,
                limit,
            )
        return
    if (
        isinstance(before, str)
        and isinstance(after, str)
        and len(before) == len(after)
        and path[:1] == ("monasteries",)
    ):
        for index, (old_mark, new_mark) in enumerate(zip(before, after)):
            if old_mark != new_mark and len(found) < limit:
                found.append(((*path, index), old_mark, new_mark))
        return
    found.append((path, before, after))


def _holds_fields(value: Any, path: Path) -> bool:
    """A list of places (players, squares, rows, a number per player), as opposed to the one
    value of a field that happens to be a list (a player's dice, a square's cards)."""
    return isinstance(value, list) and path[-1:] not in (("dice",), ("cards",))
