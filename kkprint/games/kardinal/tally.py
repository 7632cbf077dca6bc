"""Reading a Kardinal & König tally (SPEC §2) and refusing every tally the deck makes impossible."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import Any

from kkprint.base.errors import InputError, close_to, suggest
from kkprint.base.i18n import Counted, Listed, Msg
from kkprint.games.kardinal.model import KardinalGame, Land
from kkprint.games.kardinal.scoring import LandRef, LandTally, PlayerTally
from kkprint.scoring.tally import at, count, mapping, player_names, reject_unknown_keys

PLAYER_KEYS = {"name", "lands", "ships", "carriages", "minus_two"}
MIN_PLAYERS, MAX_PLAYERS = 3, 5
ARMS_PER_CARD, ROADS_PER_CARD = 2, 1  # what the sources say of every card, whatever the edition
# Said where our card list refuses a tally: a door that can check against the sources alone
# (the command line's --check sources) hands parse_tally its own words, which also say how.
OTHER_EDITION = Msg(" (cards of another edition?)")


def land_refs(game: KardinalGame) -> list[LandRef]:
    return [LandRef(land.id, land.value) for land in game.lands]


def _arms(
    game: KardinalGame,
    land: Land,
    cards: int,
    value: Any,
    place,
    source: str,
    sources_only: bool = False,
    path: tuple = (),
    hint: Msg | str = OTHER_EDITION,
) -> tuple[int, dict[str, int]]:
    """The player's best number of identical arms, and the per-kind counts if they were given.

    Checked against our card list, or — ``sources_only`` — only against what the sources say of
    any card: at most two arms on each."""
    if isinstance(value, dict):
        per_kind: dict[str, int] = {}
        for raw_kind, raw_count in value.items():
            kind = game.find_arms(str(raw_kind))
            where = at(value, raw_kind, Msg("{place}, arms '{kind}'", place=place, kind=raw_kind))
            if kind is None:
                every = [name for names in game.arms.values() for name in (names.ja, names.en, names.de) if name]
                raise InputError(
                    Msg(
                        "unknown kind of arms '{kind}'; known: {known}{hint}",
                        kind=raw_kind,
                        hint=suggest(str(raw_kind), every) if close_to(str(raw_kind), every) else "",
                        known=Listed(game.arms.values()),
                    ),
                    source=source,
                    place=where,
                    path=path,
                )
            number = count(raw_count, Msg("arms"), where, source, path)
            possible = ARMS_PER_CARD * cards if sources_only else land.best_possible(kind, cards)
            if number > possible:
                raise InputError(
                    Counted(
                        "{number} {kind} arms, but {cards} {land} card shows at most {possible}{hint}",
                        "{number} {kind} arms, but {cards} {land} cards show at most {possible}{hint}",
                        cards,
                        number=number,
                        kind=game.arms[kind],
                        cards=cards,
                        land=land.names,
                        possible=possible,
                        hint=hint,
                    ),
                    source=source,
                    place=where,
                    path=path,
                )
            per_kind[kind] = per_kind.get(kind, 0) + number
        best = max(per_kind.values(), default=0)
        if not sources_only:
            _refuse_below_forced(land, cards, best, place, source, path, hint)
        return best, per_kind
    number = count(value, Msg("arms"), place, source, path)
    possible = (
        ARMS_PER_CARD * cards
        if sources_only
        else max((land.best_possible(kind, cards) for kind in game.arms), default=0)
    )
    if number > possible:
        raise InputError(
            Counted(
                "arms {number}, but {cards} {land} card shows at most {possible} identical arms{hint}",
                "arms {number}, but {cards} {land} cards show at most {possible} identical arms{hint}",
                cards,
                number=number,
                cards=cards,
                land=land.names,
                possible=possible,
                hint=hint,
            ),
            source=source,
            place=place,
            path=path,
        )
    if not sources_only:
        _refuse_below_forced(land, cards, number, place, source, path, hint)
    return number, {}


def _refuse_below_forced(land: Land, cards: int, best: int, place, source: str, path: tuple, hint: Msg | str) -> None:
    """RULES §1: a player's best arms lies between what their cards allow and what they force —
    every 8 France cards together show 5 crosses, so a best of 2 is impossible."""
    least = forced_arms(land, cards)
    if best < least:
        raise InputError(
            Counted(
                "arms {number}, but any {cards} {land} card shows at least {least} identical arms{hint}",
                "arms {number}, but any {cards} {land} cards show at least {least} identical arms{hint}",
                cards,
                number=best,
                cards=cards,
                land=land.names,
                least=least,
                hint=hint,
            ),
            source=source,
            place=place,
            path=path,
        )


def forced_arms(land: Land, cards: int) -> int:
    """The smallest "largest number of identical arms" that any ``cards`` cards of ``land`` show:
    what holding that many forces."""
    return _least_best(tuple(tuple(sorted(land.arms_on(card).elements())) for card in land.cards), cards)


@lru_cache(maxsize=256)
def _least_best(deck: tuple[tuple[str, ...], ...], cards: int) -> int:
    """:func:`forced_arms` of a land's ``deck`` (each card its arms). A land has at most 8 cards,
    so trying every hand (at most 70) is exact and quick."""
    return min(
        (
            max(Counter(arms for card in hand for arms in card).values(), default=0)
            for hand in combinations(deck, cards)
        ),
        default=0,
    )


def parse_tally(
    data: Any, source: str, game: KardinalGame, check: str = "cards", other_edition: Msg = OTHER_EDITION
) -> list[PlayerTally]:
    """The tally, refused where impossible: against our card list (``check="cards"``: which arms
    and roads sit on which card), or against what the sources alone say (``"sources"``: cards per
    land, at most two arms and one road symbol a card) for owners of another edition."""
    sources_only = check == "sources"
    edition = "" if sources_only else other_edition  # (what the sources alone refuse, no edition explains)
    data = mapping(data, Msg("a tally"), None, source)
    reject_unknown_keys(data, {"players", "game"}, source)
    if "players" not in data:
        raise InputError(Msg("missing 'players:'"), source=source)
    entries = data["players"]
    names = player_names(entries, source, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    totals_cards: dict[str, int] = {}
    totals_kind: dict[tuple[str, str], int] = {}
    totals_roads = {"ship": 0, "carriage": 0}
    total_chips = 0
    players = []
    for index, (entry, name) in enumerate(zip(entries, names)):
        who = at(entry, "name", Msg("player '{name}'", name=name))
        entry = mapping(entry, Msg("a player"), who, source)
        reject_unknown_keys(entry, PLAYER_KEYS, source, who)
        lands = mapping(entry.get("lands") or {}, Msg("lands"), who, source)
        tallies: dict[str, LandTally] = {}
        for raw_land, value in lands.items():
            land = game.find_land(str(raw_land))
            shown = raw_land if land is None else land.names  # (a known land in the reader's words: the pad sends ids)
            place = at(lands, raw_land, Msg("player '{name}', land '{land}'", name=name, land=shown))
            if land is None:
                spelled = [n for known in game.lands for n in (known.names.en, known.names.ja, known.names.de) if n]
                hint = (
                    suggest(str(raw_land), spelled)
                    if close_to(str(raw_land), spelled)
                    else Msg("; known: {names}", names=Listed(known.names for known in game.lands))
                )
                raise InputError(
                    Msg("unknown land '{land}'{hint}", land=raw_land, hint=hint),
                    source=source,
                    place=place,
                    path=("players", index, "lands", raw_land),
                )
            path: tuple[str | int, ...] = ("players", index, "lands", land.id)
            if land.id in tallies:
                raise InputError(
                    Msg("{land} is listed twice for this player", land=land.names),
                    source=source,
                    place=place,
                    path=path,
                )
            if isinstance(value, dict):
                reject_unknown_keys(value, {"cards", "arms"}, source, place)
                cards = count(value.get("cards", 0), Msg("cards"), place, source, (*path, "cards"))
                raw_arms = value.get("arms", 0)
            else:
                cards, raw_arms = count(value, Msg("cards"), place, source, (*path, "cards")), 0
            if cards > land.value:
                raise InputError(
                    Msg(
                        "{cards} {land} cards, but the deck has only {value}",
                        cards=cards,
                        land=land.names,
                        value=land.value,
                    ),
                    source=source,
                    place=place,
                    path=(*path, "cards"),
                )
            best, per_kind = _arms(game, land, cards, raw_arms, place, source, sources_only, (*path, "arms"), edition)
            totals_cards[land.id] = totals_cards.get(land.id, 0) + cards
            if totals_cards[land.id] > land.value:
                raise InputError(
                    Msg(
                        "the players hold {cards} {land} cards together, but the deck has only {value}",
                        cards=totals_cards[land.id],
                        land=land.names,
                        value=land.value,
                    ),
                    source=source,
                    place=place,
                    path=(*path, "cards"),
                )
            for kind, number in per_kind.items():
                totals_kind[(land.id, kind)] = totals_kind.get((land.id, kind), 0) + number
                limit = ARMS_PER_CARD * land.value if sources_only else land.kind_total(kind)
                if totals_kind[(land.id, kind)] > limit:
                    raise InputError(
                        Msg(
                            "the players hold {number} {kind} arms of {land} together, but its cards show "
                            "only {limit}{hint}",
                            number=totals_kind[(land.id, kind)],
                            kind=game.arms[kind],
                            land=land.names,
                            limit=limit,
                            hint=edition,
                        ),
                        source=source,
                        place=place,
                        path=(*path, "arms"),
                    )
            tallies[land.id] = LandTally(cards, best)
        roads: dict[str, int] = {}
        for key, road, word in (("ships", "ship", Msg("ships")), ("carriages", "carriage", Msg("carriages"))):
            place = at(entry, key, Msg("player '{name}', {what}", name=name, what=word))
            path = ("players", index, key)
            number = count(entry.get(key, 0), word, place, source, path)
            if sources_only:  # one road symbol a card at most: ships and carriages share the cards held
                possible = ROADS_PER_CARD * sum(t.cards for t in tallies.values()) - sum(roads.values())
            else:
                possible = sum(
                    min(tallies.get(land.id, LandTally()).cards, land.road_cards(road)) for land in game.lands
                )
            if number > possible:
                raise InputError(
                    Msg(
                        "{number} {what}, but the player's cards can show at most {possible}{hint}",
                        number=number,
                        what=word,
                        possible=possible,
                        hint=edition,
                    ),
                    source=source,
                    place=place,
                    path=path,
                )
            totals_roads[road] += number
            if not sources_only and totals_roads[road] > game.road_total(road):
                raise InputError(
                    Msg(
                        "the players hold {number} {what} together, but the deck has only {total}{hint}",
                        number=totals_roads[road],
                        what=word,
                        total=game.road_total(road),
                        hint=edition,
                    ),
                    source=source,
                    place=place,
                    path=path,
                )
            roads[key] = number
        place = at(entry, "minus_two", Msg("player '{name}', {what}", name=name, what=Msg("−2 chips")))
        path = ("players", index, "minus_two")
        chips = count(entry.get("minus_two", 0), Msg("−2 chips"), place, source, path)
        total_chips += chips
        if total_chips > game.chip_count("minus_two"):
            raise InputError(
                Msg(
                    "{count} −2 chips in play, but the game has only {total}",
                    count=total_chips,
                    total=game.chip_count("minus_two"),
                ),
                source=source,
                place=place,
                path=path,
            )
        players.append(PlayerTally(name, tallies, roads["ships"], roads["carriages"], chips))
    return players
