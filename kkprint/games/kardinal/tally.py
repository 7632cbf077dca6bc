"""Reading a Kardinal & König tally (SPEC §2) and refusing every tally the deck makes impossible."""

from __future__ import annotations

from typing import Any

from kkprint.errors import InputError, suggest
from kkprint.games.kardinal.model import KardinalGame, Land
from kkprint.games.kardinal.scoring import LandRef, LandTally, PlayerTally
from kkprint.tally import at, count, mapping, player_names, reject_unknown_keys

PLAYER_KEYS = {"name", "lands", "ships", "carriages", "minus_two"}
MIN_PLAYERS, MAX_PLAYERS = 3, 5
ARMS_PER_CARD, ROADS_PER_CARD = 2, 1  # what the sources say of every card, whatever the edition
OTHER_EDITION = " (cards of another edition? check with --check sources)"


def land_refs(game: KardinalGame) -> list[LandRef]:
    return [LandRef(land.id, land.value) for land in game.lands]


def _arms(game: KardinalGame, land: Land, cards: int, value: Any, place: str, source: str,
          sources_only: bool = False) -> tuple[int, dict[str, int]]:
    """The player's best number of identical arms, and the per-kind counts if they were given.

    Checked against our card list, or — ``sources_only`` — only against what the sources say of
    any card: at most two arms on each."""
    if isinstance(value, dict):
        per_kind = {}
        for raw_kind, raw_count in value.items():
            kind = game.find_arms(str(raw_kind))
            where = at(value, raw_kind, f"{place}, arms {raw_kind!r}")
            if kind is None:
                raise InputError(f"unknown kind of arms {raw_kind!r}; known: {', '.join(game.arms)}", source=source, place=where)
            number = count(raw_count, "arms", where, source)
            possible = ARMS_PER_CARD * cards if sources_only else land.best_possible(kind, cards)
            if number > possible:
                raise InputError(f"{number} {kind} arms, but {cards} {land.names.en} card(s) show at most {possible}"
                                 + ("" if sources_only else OTHER_EDITION), source=source, place=where)
            per_kind[kind] = per_kind.get(kind, 0) + number
        return max(per_kind.values(), default=0), per_kind
    number = count(value, "arms", place, source)
    possible = ARMS_PER_CARD * cards if sources_only else max((land.best_possible(kind, cards) for kind in game.arms), default=0)
    if number > possible:
        raise InputError(f"arms {number}, but {cards} {land.names.en} card(s) show at most {possible} identical arms"
                         + ("" if sources_only else OTHER_EDITION), source=source, place=place)
    return number, {}


def parse_tally(data: Any, source: str, game: KardinalGame, check: str = "cards") -> list[PlayerTally]:
    """The tally, refused where impossible: against our card list (``check="cards"``: which arms
    and roads sit on which card), or against what the sources alone say (``"sources"``: cards per
    land, at most two arms and one road symbol a card) for owners of another edition."""
    sources_only = check == "sources"
    data = mapping(data, "a tally", None, source)
    reject_unknown_keys(data, {"players", "game"}, source)
    if "players" not in data:
        raise InputError("missing 'players:'", source=source)
    entries = data["players"]
    names = player_names(entries, source, minimum=MIN_PLAYERS, maximum=MAX_PLAYERS)
    totals_cards: dict[str, int] = {}
    totals_kind: dict[tuple[str, str], int] = {}
    totals_roads = {"ship": 0, "carriage": 0}
    total_chips = 0
    players = []
    for entry, name in zip(entries, names):
        who = at(entry, "name", f"player {name!r}")
        entry = mapping(entry, "a player", who, source)
        reject_unknown_keys(entry, PLAYER_KEYS, source, who)
        lands = mapping(entry.get("lands") or {}, "lands", who, source)
        tallies: dict[str, LandTally] = {}
        for raw_land, value in lands.items():
            place = at(lands, raw_land, f"player {name!r}, land {raw_land!r}")
            land = game.find_land(str(raw_land))
            if land is None:
                known = ", ".join(l.names.en for l in game.lands)
                names = [name for l in game.lands for name in (l.names.en, l.names.ja, l.names.de) if name]
                hint = suggest(str(raw_land), names)
                raise InputError(f"unknown land {raw_land!r}{hint if 'did you mean' in hint else '; known: ' + known}",
                                 source=source, place=place)
            if land.id in tallies:
                raise InputError(f"{land.names.en} is listed twice for this player", source=source, place=place)
            if isinstance(value, dict):
                reject_unknown_keys(value, {"cards", "arms"}, source, place)
                cards = count(value.get("cards", 0), "cards", place, source)
                raw_arms = value.get("arms", 0)
            else:
                cards, raw_arms = count(value, "cards", place, source), 0
            if cards > land.value:
                raise InputError(f"{cards} {land.names.en} cards, but the deck has only {land.value}", source=source, place=place)
            best, per_kind = _arms(game, land, cards, raw_arms, place, source, sources_only)
            totals_cards[land.id] = totals_cards.get(land.id, 0) + cards
            if totals_cards[land.id] > land.value:
                raise InputError(f"the players hold {totals_cards[land.id]} {land.names.en} cards together, "
                                 f"but the deck has only {land.value}", source=source, place=place)
            for kind, number in per_kind.items():
                totals_kind[(land.id, kind)] = totals_kind.get((land.id, kind), 0) + number
                limit = ARMS_PER_CARD * land.value if sources_only else land.kind_total(kind)
                if totals_kind[(land.id, kind)] > limit:
                    raise InputError(f"the players hold {totals_kind[(land.id, kind)]} {kind} arms of {land.names.en} "
                                     f"together, but its cards show only {limit}" + ("" if sources_only else OTHER_EDITION),
                                     source=source, place=place)
            tallies[land.id] = LandTally(cards, best)
        roads = {}
        for key, road in (("ships", "ship"), ("carriages", "carriage")):
            place = at(entry, key, f"player {name!r}, {key}")
            number = count(entry.get(key, 0), key, place, source)
            if sources_only:  # one road symbol a card at most: ships and carriages share the cards held
                possible = ROADS_PER_CARD * sum(t.cards for t in tallies.values()) - sum(roads.values())
            else:
                possible = sum(min(tallies.get(l.id, LandTally()).cards, l.road_cards(road)) for l in game.lands)
            if number > possible:
                raise InputError(f"{number} {key}, but the player's cards can show at most {possible}"
                                 + ("" if sources_only else OTHER_EDITION), source=source, place=place)
            totals_roads[road] += number
            if not sources_only and totals_roads[road] > game.road_total(road):
                raise InputError(f"the players hold {totals_roads[road]} {key} together, but the deck has only "
                                 f"{game.road_total(road)}" + OTHER_EDITION, source=source, place=place)
            roads[key] = number
        place = at(entry, "minus_two", f"player {name!r}, minus_two")
        chips = count(entry.get("minus_two", 0), "−2 chips", place, source)
        total_chips += chips
        if total_chips > game.chip_count("minus_two"):
            raise InputError(f"{total_chips} −2 chips in play, but the game has only {game.chip_count('minus_two')}",
                             source=source, place=place)
        players.append(PlayerTally(name, tallies, roads["ships"], roads["carriages"], chips))
    return players
