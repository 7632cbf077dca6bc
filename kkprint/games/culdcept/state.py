"""Reading an end-of-game map (SPEC §2) and scoring it: squares per player, winner or draw."""

from __future__ import annotations

from typing import Any

from kkprint.base.errors import InputError
from kkprint.base.i18n import Counted, Msg, ntr, tr
from kkprint.base.records import record
from kkprint.games.culdcept.model import CuldceptGame
from kkprint.games.culdcept.rules import Play, RuleError, play
from kkprint.scoring.screen import Line, Screen
from kkprint.scoring.tally import at, mapping, player_names, reject_unknown_keys


@record
class Square:
    owner: str | None
    play: Play | None


@record
class CuldceptResult:
    names: list[str]
    squares: list[Square]
    owned: dict[str, list[int]]  # player → square numbers (1-based, circle order)
    winners: list[str]


def parse_state(data: Any, source: str, game: CuldceptGame) -> tuple[list[str], list[Square]]:
    data = mapping(data, Msg("a map state"), None, source)
    reject_unknown_keys(data, {"game", "players", "squares"}, source)
    names = player_names(data.get("players"), source, minimum=game.min_players, maximum=game.max_players)
    entries = data.get("squares")
    if not isinstance(entries, list) or len(entries) != game.squares:
        if isinstance(entries, list):
            problem: Msg = Counted(
                "the map has {squares} squares in circle order; found {found} square",
                "the map has {squares} squares in circle order; found {found} squares",
                len(entries),
                squares=game.squares,
                found=len(entries),
            )
        else:
            problem = Msg("the map has {squares} squares in circle order, given as a list", squares=game.squares)
        raise InputError(
            problem,
            source=source,
            place=at(data, "squares", "squares"),
        )
    squares = []
    used: dict[str, set[str]] = {name: set() for name in names}
    places: list[str | Msg] = []
    for number, entry in enumerate(entries, start=1):
        place = Msg("square {n}", n=number)
        if getattr(entry, "line", None):
            place = Msg("{place} (line {line})", place=place, line=entry.line)
        places.append(place)
        if entry is None or entry == {}:
            squares.append(Square(None, None))
            continue
        entry = mapping(entry, Msg("a square"), place, source)
        reject_unknown_keys(entry, {"card", "cards", "owner"}, source, place)
        if "card" in entry and "cards" in entry:
            raise InputError(
                Msg("give either card or cards, not both"),
                source=source,
                place=place,
                path=("squares", number - 1, "cards"),
            )
        raw = entry.get("cards", entry.get("card"))
        owner = entry.get("owner")
        if owner is not None and str(owner) not in names:
            raise InputError(
                Msg("owner '{owner}' is not among the players ({names})", owner=owner, names=", ".join(names)),
                source=source,
                place=place,
                path=("squares", number - 1, "owner"),
            )
        if raw is None:
            if owner is not None:
                raise InputError(
                    Msg("an owned square needs the card(s) on it"),
                    source=source,
                    place=place,
                    path=("squares", number - 1, "cards"),
                )
            squares.append(Square(None, None))
            continue
        if isinstance(raw, (str, int)) and not isinstance(raw, bool):
            raw = [str(raw)]
        if not isinstance(raw, list):
            raise InputError(
                Msg("cards must be a rank or a list of ranks, not '{raw}'", raw=raw),
                source=source,
                place=place,
                path=("squares", number - 1, "cards"),
            )
        try:
            on_square = play([str(c) for c in raw], game.support_limit)
        except RuleError as err:
            raise InputError(err.args[0], source=source, place=place, path=("squares", number - 1, "cards")) from None
        if owner is None and len(on_square.cards) > 1:
            raise InputError(
                Msg("an unowned square holds only its map card"),
                source=source,
                place=place,
                path=("squares", number - 1, "cards"),
            )
        if owner is not None:
            for card in on_square.cards:
                if card in used[str(owner)]:
                    raise InputError(
                        Msg(
                            "{owner} has only one {card} (one suit each), but it lies on two squares",
                            owner=owner,
                            card=card,
                        ),
                        source=source,
                        place=place,
                        path=("squares", number - 1, "cards"),
                    )
                used[str(owner)].add(card)
        squares.append(Square(str(owner) if owner is not None else None, on_square))
    _refuse_impossible_map(squares, places, names, source, game)
    return names, squares


def _refuse_impossible_map(
    squares: list[Square], places: list[str | Msg], names: list[str], source: str, game: CuldceptGame
) -> None:
    """What no game can end with (RULES §5): a player takes at most one square a turn, so owns
    at most one per round; the map is one suit, so no rank shows on two squares that still hold
    their map card."""
    for name in names:
        owned = [number for number, square in enumerate(squares) if square.owner == name]
        if len(owned) > game.rounds:
            raise InputError(
                Msg(
                    "{name} owns {count} squares, but a player takes at most one a turn: {rounds} in {rounds} rounds",
                    name=name,
                    count=len(owned),
                    rounds=game.rounds,
                ),
                source=source,
                place=places[owned[game.rounds]],
                path=("squares", owned[game.rounds], "owner"),
            )
    first_with: dict[str, int] = {}
    for number, square in enumerate(squares):
        if square.owner is not None or square.play is None:
            continue
        card = square.play.cards[0]
        if card in first_with:
            raise InputError(
                Msg(
                    "the map is one suit, but {card} shows on two unowned squares ({first} and {second})",
                    card=card,
                    first=first_with[card] + 1,
                    second=number + 1,
                ),
                source=source,
                place=places[number],
                path=("squares", number, "cards"),
            )
        first_with[card] = number


def score(names: list[str], squares: list[Square]) -> CuldceptResult:
    """Most squares owned wins; equal counts share the result (a draw)."""
    owned = {name: [i + 1 for i, sq in enumerate(squares) if sq.owner == name] for name in names}
    best = max(len(v) for v in owned.values())
    winners = [name for name in names if len(owned[name]) == best]
    return CuldceptResult(names, squares, owned, winners)


def score_state(data: Any, source: str, game: CuldceptGame) -> CuldceptResult:
    return score(*parse_state(data, source, game))


def as_json(result: CuldceptResult, lang: str = "en") -> dict:
    return {
        "game": "culdcept",
        "players": [{"name": n, "total": len(result.owned[n]), "squares": result.owned[n]} for n in result.names],
        "winners": result.winners,
        "draw": len(result.winners) > 1,
    }


def as_text(result: CuldceptResult, lang: str = "en") -> Screen:
    lines = [
        ntr(
            "{name}: {count} square ({squares})",
            "{name}: {count} squares ({squares})",
            len(result.owned[n]),
            lang,
            name=n,
            count=len(result.owned[n]),
            squares=", ".join(map(str, result.owned[n])) or "—",
        )
        for n in result.names
    ]
    outcome = (
        tr("Draw: {names}", lang, names=tr(", ", lang).join(result.winners))
        if len(result.winners) > 1
        else tr("Winner: {names}", lang, names=result.winners[0])
    )
    return Screen([Line(line) for line in lines] + [Line(""), Line(outcome, winner=True)])
