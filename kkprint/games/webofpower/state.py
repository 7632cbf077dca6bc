"""Reading a marked trump map (SPEC §2) and the board game's per-region tally, with validation."""

from __future__ import annotations

import unicodedata
from typing import Any

from kkprint.errors import InputError, suggest
from kkprint.games.webofpower.model import BoardGame, TrumpMap
from kkprint.games.webofpower.scoring import Phase, Result, longest_road_points, score, straight_roads
from kkprint.tally import at, count, mapping, player_names, reject_unknown_keys


def _phase(data: dict, source: str) -> Phase:
    raw = data.get("phase", "final")
    try:
        return Phase(str(raw).strip().lower())
    except ValueError:
        raise InputError(f"phase must be interim or final, not {raw!r}", source=source, place=at(data, "phase", "phase")) from None


def _per_player(value: Any, players: int, what: str, place: str, source: str) -> list[int]:
    if not isinstance(value, list) or len(value) != players:
        raise InputError(f"{what} needs one count per player ({players}), got {value!r}", source=source, place=place)
    return [count(v, what, place, source) for v in value]


def _interim(data: dict, players: int, source: str) -> list[int] | None:
    if "interim" not in data:
        return None
    return _per_player(data["interim"], players, "interim", at(data, "interim", "interim"), source)


def score_trump_map(data: Any, source: str, game: TrumpMap) -> Result:
    data = mapping(data, "a map state", None, source)
    reject_unknown_keys(data, {"game", "phase", "players", "monasteries", "cardinals", "interim"}, source)
    phase = _phase(data, source)
    names = player_names(data.get("players"), source, minimum=game.players, maximum=game.players)
    grid = game.map
    symbol_of = {}
    for index, symbol in enumerate(game.symbols[:game.players]):
        for key in (str(index + 1), symbol.mark, symbol.alias):
            symbol_of[key] = index
    rows = data.get("monasteries")
    place = at(data, "monasteries", "monasteries")
    if not isinstance(rows, list) or len(rows) != grid.height:
        raise InputError(f"the map has {grid.height} rows of {grid.width} squares; give them as {grid.height} strings",
                         source=source, place=place)
    owners: list[list[int | None]] = []
    for r, row in enumerate(rows):
        if isinstance(row, str):
            row = unicodedata.normalize("NFKC", row).replace(" ", "")  # full-width digits, spaces for readability
        if not isinstance(row, str) or len(row) != grid.width:
            raise InputError(f"row {r + 1} must be a string of {grid.width} squares, got {row!r}", source=source, place=place)
        owners.append([])
        for c, mark in enumerate(row):
            if mark == ".":
                owners[-1].append(None)
            elif mark in symbol_of:
                owners[-1].append(symbol_of[mark])
            else:
                raise InputError(f"row {r + 1}, column {c + 1}: {mark!r} is not '.', 1–{game.players} or a player's symbol",
                                 source=source, place=place)
    monasteries = {}
    for letter, cells in grid.territories.items():
        counts = [0] * len(names)
        for r, c in cells:
            if owners[r][c] is not None:
                counts[owners[r][c]] += 1
        monasteries[letter] = counts
    cardinals = {letter: [0] * len(names) for letter in grid.territories}
    raw = mapping(data.get("cardinals") or {}, "cardinals", at(data, "cardinals", "cardinals"), source)
    for key, value in raw.items():
        where = at(raw, key, f"cardinals, territory {key!r}")
        letter = str(key).strip().upper()
        if letter not in grid.territories:
            raise InputError(f"unknown territory {key!r}{suggest(str(key), grid.territories)}", source=source, place=where)
        cardinals[letter] = _per_player(value, len(names), "cardinals", where, source)
        limit = max(monasteries[letter])
        if sum(cardinals[letter]) > limit:
            raise InputError(f"{sum(cardinals[letter])} cardinals in territory {letter}, but its highest single "
                             f"monastery count is {limit}", source=source, place=where)
    roads = straight_roads(owners)
    road_points = [sum(road.length for road in roads if road.player == i) for i in range(len(names))]
    return score("webofpower", phase, names, monasteries, cardinals, grid.alliances, road_points, roads,
                 _interim(data, len(names), source))


def score_board(data: Any, source: str, game: BoardGame) -> Result:
    data = mapping(data, "a tally", None, source)
    reject_unknown_keys(data, {"game", "phase", "players", "regions", "alliances", "roads", "interim"}, source)
    phase = _phase(data, source)
    names = player_names(data.get("players"), source, minimum=game.min_players, maximum=game.max_players)
    players = len(names)
    regions = mapping(data.get("regions"), "regions", at(data, "regions", "regions"), source)
    if len(regions) > game.regions:
        raise InputError(f"{len(regions)} regions listed; the board has {game.regions}", source=source, place="regions")
    monasteries: dict[str, list[int]] = {}
    cardinals: dict[str, list[int]] = {}
    for region, value in regions.items():
        where = at(regions, region, f"region {region!r}")
        value = mapping(value, "a region", where, source)
        reject_unknown_keys(value, {"monasteries", "cardinals"}, source, where)
        monasteries[str(region)] = _per_player(value.get("monasteries", [0] * players), players, "monasteries", where, source)
        cardinals[str(region)] = _per_player(value.get("cardinals", [0] * players), players, "cardinals", where, source)
        if sum(cardinals[str(region)]) > max(monasteries[str(region)]):
            raise InputError(f"{sum(cardinals[str(region)])} cardinals, but the highest single monastery count here is "
                             f"{max(monasteries[str(region)])}", source=source, place=where)
    for i, name in enumerate(names):
        for what, table, limit in (("monasteries", monasteries, game.monasteries_per_player),
                                   ("cardinals", cardinals, game.cardinals_per_player)):
            used = sum(counts[i] for counts in table.values())
            if used > limit:
                raise InputError(f"{name} has {used} {what} on the board; each player has only {limit}",
                                 source=source, place=f"player {name!r}")
    pairs = []
    raw_pairs = data.get("alliances") or []
    if not isinstance(raw_pairs, list):
        raise InputError("alliances must be a list of region pairs", source=source, place="alliances")
    if len(raw_pairs) > game.alliances:
        raise InputError(f"{len(raw_pairs)} alliances listed; the board numbers {game.alliances}", source=source, place="alliances")
    for number, pair in enumerate(raw_pairs, start=1):
        where = f"alliance {number}"
        if not isinstance(pair, list) or len(pair) != 2:
            raise InputError(f"an alliance is a pair of regions, got {pair!r}", source=source, place=where)
        a, b = (str(p) for p in pair)
        for region in (a, b):
            if region not in regions:
                raise InputError(f"unknown region {region!r}{suggest(str(region), map(str, regions))}",
                                 source=source, place=where)
        if a == b:
            raise InputError(f"a region cannot be allied with itself ({a})", source=source, place=where)
        if (a, b) in pairs or (b, a) in pairs:
            raise InputError(f"alliance {a}–{b} is listed twice", source=source, place=where)
        pairs.append((a, b))
    roads_place = at(data, "roads", "roads")
    runs = _road_runs(data.get("roads", [0] * players), players, roads_place, source)
    for i, name in enumerate(names):
        placed = sum(counts[i] for counts in monasteries.values())
        if sum(runs[i]) > placed:
            raise InputError(f"{name}'s roads hold {sum(runs[i])} monasteries, more than their {placed}",
                             source=source, place=roads_place)
    return score("webofpower-board", phase, names, monasteries, cardinals, pairs,
                 [sum(longest_road_points(run) for run in player_runs) for player_runs in runs],
                 interim=_interim(data, players, source))


def _road_runs(value: Any, players: int, place: str, source: str) -> list[list[int]]:
    """Per player a number (one run) or a list of that player's separate runs (RULES §2: runs of
    5 and 4 score 9)."""
    if not isinstance(value, list) or len(value) != players:
        raise InputError(f"roads needs one entry per player ({players}): a number, or a list of runs like [5, 4]",
                         source=source, place=place)
    runs = []
    for index, entry in enumerate(value, start=1):
        where = f"{place}, player {index}"
        if isinstance(entry, list):
            if len(entry) > 40:
                raise InputError(f"{len(entry)} separate roads is more than a board holds", source=source, place=where)
            runs.append([count(run, "a road", where, source) for run in entry])
        else:
            runs.append([count(entry, "a road", where, source)])
    return runs
