"""What each game's page needs beyond the scorer: a blank tally to start from, how the tally
grows or shrinks with the number of players, and the game's fixed parts (lands, map, regions)
in the reader's language. Pure data; no web framework here."""

from __future__ import annotations

import math
from functools import cache
from typing import Any

PLAYER_RANGE = {
    "kardinal": (3, 5),
    "webofpower": (3, 3),
    "webofpower-board": (3, 5),
    "court": (2, 5),
    "culdcept": (2, 3),
}
BOARD_REGIONS = 9


def blank(game: str) -> dict:
    """A new game's tally: the fewest players, nothing counted yet."""
    return resize(game, {}, PLAYER_RANGE[game][0])


def layout(game: str, tally: Any) -> dict:
    """The shape a page is drawn in: the saved tally's players and regions, whatever else a
    phone may have stored in it (its values reach the page's fields as they are)."""
    players = tally.get("players") if isinstance(tally, dict) else None
    return resize(game, tally if isinstance(tally, dict) else {}, len(players) if isinstance(players, list) else 0)


def resize(game: str, tally: dict, players: int) -> dict:
    """``tally`` for ``players`` players: per-player lists cut or padded, nothing else touched."""
    low, high = PLAYER_RANGE[game]
    players = max(low, min(high, players))
    tally = dict(tally)
    if game in ("kardinal", "court"):
        empty = {"name": "", "lands": {}} if game == "kardinal" else {"name": "", "dice": []}
        tally["players"] = _fit(tally.get("players"), players, empty)
        if game == "court" and tally.get("queen") not in [
            p.get("name") for p in tally["players"] if isinstance(p, dict)
        ]:
            tally.pop("queen", None)
        return tally
    tally["players"] = _fit(tally.get("players"), players, "")
    if game == "culdcept":
        tally["squares"] = _fit(tally.get("squares"), 13, {})
        return tally
    tally.setdefault("phase", "final")
    tally["interim"] = _fit(tally.get("interim"), players, 0)
    if game == "webofpower":
        tally["monasteries"] = _fit(tally.get("monasteries"), 4, "." * 12)
        from kkprint.games.webofpower.model import load_map

        cardinals = tally.get("cardinals")
        given = cardinals if isinstance(cardinals, dict) else {}
        tally["cardinals"] = {letter: _fit(given.get(letter), players, 0) for letter in load_map().territories}
        return tally
    regions = tally.get("regions") if isinstance(tally.get("regions"), dict) else {}
    regions = regions or {str(n): {} for n in range(1, BOARD_REGIONS + 1)}
    tally["regions"] = {
        name: {key: _fit(counts.get(key), players, 0) for key in ("monasteries", "cardinals")}
        for name, counts in regions.items()
        if isinstance(counts, dict)
    }
    tally["roads"] = _fit(tally.get("roads"), players, 0)
    if not isinstance(tally.get("alliances"), list):
        tally["alliances"] = []
    return tally


def _fit(values: Any, length: int, empty: Any) -> list:
    values = list(values) if isinstance(values, list) else []
    return values[:length] + [empty] * (length - len(values))


def ring(count: int = 13, size: float = 100.0) -> list[tuple[float, float]]:
    """Where the Culdcept squares sit on the page: a circle, square 1 at the top, clockwise (in
    per cent of the board's width and height)."""
    centre, radius = size / 2, size * 0.42
    return [
        (
            round(centre + radius * math.sin(2 * math.pi * i / count), 2),
            round(centre - radius * math.cos(2 * math.pi * i / count), 2),
        )
        for i in range(count)
    ]


def as_fields(game: str, tally: Any) -> Any:
    """A tally (or part of one) in the CLI's format, as the page's fields hold it — the CLI
    takes more than one way of saying a thing, a field is one place. Anything it does not
    recognise is left as it is (the scorer says what is wrong)."""
    if not isinstance(tally, dict):
        return tally
    if game == "kardinal" and isinstance(tally.get("players"), list):
        return {**tally, "players": [_lands_by_id(player) for player in tally["players"]]}
    if game == "culdcept" and isinstance(tally.get("squares"), list):
        return {**tally, "squares": [_cards_as_list(square) for square in tally["squares"]]}
    return tally


def _lands_by_id(player: Any) -> Any:
    """A K&K player with each land named by its id, as the page's fields are: the CLI's tallies
    may say France, フランス or Frankreich, and the page must show them in the France row. Two
    names of one land are left as they are."""
    lands = player.get("lands") if isinstance(player, dict) else None
    if not isinstance(lands, dict):
        return player
    kk = kardinal_game()
    ids = {name: getattr(kk.find_land(name), "id", None) for name in lands if isinstance(name, str)}
    named_once = [found for found in ids.values() if found]
    if len(named_once) != len(set(named_once)):
        return player
    return {**player, "lands": {ids.get(name) or name: counts for name, counts in lands.items()}}


def _cards_as_list(square: Any) -> Any:
    """A Culdcept square's ``card: K`` (one card, as the CLI takes it) as ``cards: [K]``: the
    page's field is ``cards``, and a square holding both is refused. A square that says both
    is left for the scorer to refuse."""
    if not isinstance(square, dict) or "card" not in square or "cards" in square:
        return square
    card = square["card"]
    cards = [card] if isinstance(card, (str, int)) and not isinstance(card, bool) else card
    return {**{key: value for key, value in square.items() if key != "card"}, "cards": cards}


@cache
def kardinal_game():
    """K&K's definition (its lands and their names), read once."""
    from kkprint.games.kardinal.model import DEFAULT_PATH, load_game

    return load_game(DEFAULT_PATH)
