"""A field's place in words, for the history: "Aki · France · cards" rather than
``players.0.lands.france.cards``, in the reader's language."""

from __future__ import annotations

from functools import cache
from typing import Any

from kkprint.base.i18n import N_, tr
from kkprint.web.pad.fields import Path
from kkprint.web.pad.forms import kardinal_game
from kkprint.web.pad.store import player_names

WORDS = {
    "cards": N_("cards"),
    "arms": N_("arms"),
    "ships": N_("ships"),
    "carriages": N_("carriages"),
    "minus_two": N_("−2 chips"),
    "dice": N_("dice"),
    "interim": N_("interim"),
    "roads": N_("roads"),
    "monasteries": N_("monasteries"),
    "cardinals": N_("cardinals"),
    "queen": N_("Who holds the Queen"),
    "phase": N_("Scoring"),
}


def describe(game: str, path: Path, tally: Any, lang: str) -> str:
    """The place of a field as a person names it."""
    names = player_names(tally)
    keys = [str(part) for part in path]

    def who(index: str) -> str:
        seat = int(index) if index.isdigit() else -1
        name = names[seat] if 0 <= seat < len(names) else ""
        return name or tr("player {n}", lang, n=seat + 1)

    def word(key: str) -> str:
        return tr(WORDS[key], lang) if key in WORDS else key

    match keys:
        case ["players", seat] | ["players", seat, "name"]:
            return tr("name of player {n}", lang, n=int(seat) + 1 if seat.isdigit() else seat)
        case ["players", seat, "lands", land, "arms", kind]:
            return " · ".join((who(seat), _land(land, lang), word("arms"), _arms(kind, lang)))
        case ["players", seat, "lands", land, kind]:
            return " · ".join((who(seat), _land(land, lang), word(kind)))
        case ["players", seat, "lands", land]:
            return " · ".join((who(seat), _land(land, lang)))
        case ["players", seat, key]:
            return " · ".join((who(seat), word(key)))
        case ["monasteries", row, column] if game == "webofpower":
            return tr("row {r}, column {c}", lang, r=int(row) + 1, c=int(column) + 1)
        case ["cardinals", territory, seat]:
            return " · ".join((who(seat), word("cardinals"), territory))
        case ["regions", region, kind, seat]:
            return " · ".join((who(seat), region, word(kind)))
        case ["regions", region]:
            return f"{tr('region', lang)} {region}"
        case ["alliances", number, *_]:
            return f"{tr('alliance', lang)} {int(number) + 1 if number.isdigit() else number}"
        case ["squares", number, "owner"]:
            return tr("square {n}: owner", lang, n=_number(number))
        case ["squares", number]:
            return tr("square {n}", lang, n=_number(number))
        case ["squares", number, *_]:
            return tr("square {n}: cards", lang, n=_number(number))
        case [key, seat, *_] if key in ("interim", "roads"):
            return " · ".join((who(seat), word(key)))
        case ["players", seat, *rest]:
            return " · ".join((who(seat), *map(word, rest)))
    # anything else a script may have changed: its words, a place counted from 1 (never the raw path)
    return " · ".join(str(_number(key)) if key.isdigit() else word(key) for key in keys)


def value(game: str, path: Path, shown: Any, tally: Any) -> str:
    """A field's value as the page shows it (a map square: whose monastery)."""
    if shown is None or shown == "" or shown == ".":
        return "–"
    if game == "webofpower" and path[:1] == ("monasteries",) and len(path) == 3 and str(shown).isdigit():
        names = player_names(tally)
        seat = int(shown) - 1
        return names[seat] if 0 <= seat < len(names) and names[seat] else str(shown)
    if isinstance(shown, list):
        return " ".join("–" if v is None else str(v) for v in shown)
    if isinstance(shown, dict):
        return "…"
    return str(shown)


def _number(text: str) -> int | str:
    return int(text) + 1 if text.isdigit() else text


def _land(land: str, lang: str) -> str:
    return _land_names(lang).get(land, land)


def _arms(kind: str, lang: str) -> str:
    names = kardinal_game().arms.get(kind)
    return names(lang) if names else kind


@cache
def _land_names(lang: str) -> dict[str, str]:
    return {land.id: land.names(lang) for land in kardinal_game().lands}
