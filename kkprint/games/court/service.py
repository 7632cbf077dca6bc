"""``kkprint court eligible`` and ``kkprint scorer court`` without the command line around them."""

from __future__ import annotations

import unicodedata
from typing import Any

from kkprint.base.errors import InputError
from kkprint.base.i18n import Counted, Msg
from kkprint.base.records import record
from kkprint.games.court.model import CHARLATAN, FOOL, CourtGame
from kkprint.games.court.rules import MAX_DICE, FinalResult, condition_met, final_round, why_not
from kkprint.scoring.tally import at, mapping, player_names, reject_unknown_keys


def parse_die(value: Any, place, source: str | Msg, path: tuple | None = None) -> int:
    text = unicodedata.normalize("NFKC", str(value)).strip() if not isinstance(value, bool) else ""
    if isinstance(value, bool) or not text.isdigit() or len(text) > 1 or not 1 <= int(text) <= 6:
        shown = text if len(text) <= 12 else text[:12] + "…"  # (a die of five thousand digits, too)
        raise InputError(Msg("a die shows 1 to 6, not '{value}'", value=shown), source=source, place=place, path=path)
    return int(text)


MIN_DICE = 3  # RULES §4


def parse_dice(values: Any, place, source: str | Msg, path: tuple | None = None) -> list[int]:
    if not isinstance(values, list) or not values:
        raise InputError(Msg("needs a list of dice, e.g. [6, 6, 3]"), source=source, place=place, path=path)
    if len(values) > MAX_DICE:
        raise InputError(
            Msg("{count} dice; the game has only {MAX_DICE}", count=len(values), MAX_DICE=MAX_DICE),
            source=source,
            place=place,
            path=path,
        )
    if len(values) < MIN_DICE:
        raise InputError(
            Counted(
                "{count} die; every result has at least {MIN_DICE} (each player starts with 3 and never loses one)",
                "{count} dice; every result has at least {MIN_DICE} (each player starts with 3 and never loses one)",
                len(values),
                count=len(values),
                MIN_DICE=MIN_DICE,
            ),
            source=source,
            place=place,
            path=path,
        )
    return [parse_die(v, place, source, path) for v in values]


@record
class Eligibility:
    dice: list[int]
    eligible: list[str]
    refused: dict[str, Msg]  # character → why not


def eligible(game: CourtGame, dice: list[int]) -> Eligibility:
    """Characters the result may take. Fool and Charlatan are always listed (the Charlatan is
    taken by flipping one's own Fool); the Queen comes with the King."""
    ok, refused = [], {}
    for character in game.characters:
        if character.en in (FOOL, CHARLATAN) or condition_met(character.condition, dice):
            ok.append(character.en)
        else:
            refused[character.en] = why_not(character.condition, dice)
    return Eligibility(dice, ok, refused)


def parse_results(data: Any, source: str) -> tuple[list[tuple[str, list[int]]], str]:
    data = mapping(data, Msg("final-round results"), None, source)
    reject_unknown_keys(data, {"game", "players", "queen"}, source)
    entries = data.get("players")
    names = player_names(entries, source, minimum=2, maximum=5)
    rolls = []
    for index, (entry, name) in enumerate(zip(entries, names)):
        place = at(entry, "dice", Msg("player '{name}'", name=name))
        entry = mapping(entry, Msg("a player"), place, source)
        reject_unknown_keys(entry, {"name", "dice"}, source, place)
        rolls.append((name, parse_dice(entry.get("dice"), place, source, ("players", index, "dice"))))
    queen = data.get("queen")
    if queen is None or not str(queen).strip():
        # RULES §4: the King is taken only with the Queen, so in the final round somebody holds
        # her; without her holder the King would go to whoever the file lists last on a tie
        raise InputError(
            Msg("name the Queen's holder (queen: NAME): in the final round somebody always holds her"),
            source=source,
            place="queen",
            path=("queen",),
        )
    queen = str(queen).strip()
    if queen not in names:
        raise InputError(
            Msg("the Queen's holder '{queen}' is not among the players", queen=queen),
            source=source,
            place=at(data, "queen", "queen"),
            path=("queen",),
        )
    return rolls, queen


def score_final(data: Any, source: str) -> FinalResult:
    rolls, queen = parse_results(data, source)
    return final_round(rolls, queen)
