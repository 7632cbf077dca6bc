"""Reading a marked trump map (SPEC §2) and the board game's per-region tally, with validation."""

from __future__ import annotations

import unicodedata
from typing import Any

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Counted, Msg
from kkprint.games.webofpower.model import BoardGame, TrumpMap
from kkprint.games.webofpower.scoring import Phase, Result, longest_road_points, score, straight_roads
from kkprint.scoring.tally import at, count, mapping, player_names, reject_unknown_keys


def _phase(data: dict, source: str) -> Phase:
    raw = data.get("phase", "final")
    try:
        return Phase(str(raw).strip().lower())
    except ValueError:
        raise InputError(
            Msg("phase must be interim or final, not '{raw}'", raw=raw), source=source, place=at(data, "phase", "phase")
        ) from None


def _per_player(value: Any, players: int, what, place, source: str, path: tuple = ()) -> list[int]:
    """One count per player; ``path`` is where the list sits in the tally (for a page's fields)."""
    if not isinstance(value, list) or len(value) != players:
        raise InputError(
            Msg(
                "{what} needs one count per player ({players}), got '{value}'", what=what, players=players, value=value
            ),
            source=source,
            place=place,
            path=(*path, 0) if path else None,
        )
    return [count(v, what, place, source, (*path, index) if path else None) for index, v in enumerate(value)]


def _interim(data: dict, players: int, source: str) -> list[int] | None:
    if "interim" not in data:
        return None
    return _per_player(data["interim"], players, Msg("interim"), at(data, "interim", "interim"), source, ("interim",))


def score_trump_map(data: Any, source: str, game: TrumpMap) -> Result:
    data = mapping(data, Msg("a map state"), None, source)
    reject_unknown_keys(data, {"game", "phase", "players", "monasteries", "cardinals", "interim"}, source)
    phase = _phase(data, source)
    names = player_names(data.get("players"), source, minimum=game.players, maximum=game.players)
    grid = game.map
    symbol_of = {}
    for index, symbol in enumerate(game.symbols[: game.players]):
        for key in (str(index + 1), symbol.mark, symbol.alias):
            symbol_of[key] = index
    rows = data.get("monasteries")
    place = at(data, "monasteries", "monasteries")
    if not isinstance(rows, list) or len(rows) != grid.height:
        raise InputError(
            Msg(
                "the map has {height} rows of {width} squares; give them as {height} strings",
                height=grid.height,
                width=grid.width,
            ),
            source=source,
            place=place,
        )
    owners: list[list[int | None]] = []
    for r, row in enumerate(rows):
        if isinstance(row, str):
            row = unicodedata.normalize("NFKC", row).replace(" ", "")  # full-width digits, spaces for readability
        if not isinstance(row, str) or len(row) != grid.width:
            raise InputError(
                Msg(
                    "row {value} must be a string of {width} squares, got '{row}'",
                    value=r + 1,
                    width=grid.width,
                    row=row,
                ),
                source=source,
                place=place,
            )
        owners.append([])
        for c, mark in enumerate(row):
            if mark == ".":
                owners[-1].append(None)
            elif mark in symbol_of:
                owners[-1].append(symbol_of[mark])
            else:
                raise InputError(
                    Msg(
                        "row {value}, column {value2}: '{mark}' is not '.', 1–{players} or a player's symbol",
                        value=r + 1,
                        value2=c + 1,
                        mark=mark,
                        players=game.players,
                    ),
                    source=source,
                    place=place,
                )
    monasteries = {}
    for letter, cells in grid.territories.items():
        counts = [0] * len(names)
        for r, c in cells:
            owner = owners[r][c]
            if owner is not None:
                counts[owner] += 1
        monasteries[letter] = counts
    cardinals = {letter: [0] * len(names) for letter in grid.territories}
    raw = mapping(data.get("cardinals") or {}, Msg("cardinals"), at(data, "cardinals", "cardinals"), source)
    for key, value in raw.items():
        where = at(raw, key, Msg("cardinals, territory '{key}'", key=key))
        letter = str(key).strip().upper()
        if letter not in grid.territories:
            raise InputError(
                Msg("unknown territory '{key}'{hint}", key=key, hint=suggest(str(key), grid.territories)),
                source=source,
                place=where,
            )
        cardinals[letter] = _per_player(value, len(names), Msg("cardinals"), where, source, ("cardinals", letter))
        limit = max(monasteries[letter])
        if sum(cardinals[letter]) > limit:
            most = max(range(len(names)), key=lambda i: cardinals[letter][i])  # the field most likely mistyped
            raise InputError(
                Msg(
                    "{value} cardinals in territory {letter}, but its highest single monastery count is {limit}",
                    value=sum(cardinals[letter]),
                    letter=letter,
                    limit=limit,
                ),
                source=source,
                place=where,
                path=("cardinals", letter, most),
            )
    roads = straight_roads(owners)
    road_points = [sum(road.length for road in roads if road.player == i) for i in range(len(names))]
    return score(
        "webofpower",
        phase,
        names,
        monasteries,
        cardinals,
        grid.alliances,
        road_points,
        roads,
        _interim(data, len(names), source),
    )


def score_board(data: Any, source: str, game: BoardGame) -> Result:
    data = mapping(data, Msg("a tally"), None, source)
    reject_unknown_keys(data, {"game", "phase", "players", "regions", "alliances", "roads", "interim"}, source)
    phase = _phase(data, source)
    names = player_names(data.get("players"), source, minimum=game.min_players, maximum=game.max_players)
    players = len(names)
    regions = mapping(data.get("regions"), Msg("regions"), at(data, "regions", "regions"), source)
    if len(regions) > game.regions:
        raise InputError(
            Counted(
                "{count} region listed; the board has {regions}",
                "{count} regions listed; the board has {regions}",
                len(regions),
                count=len(regions),
                regions=game.regions,
            ),
            source=source,
            place="regions",
        )
    monasteries: dict[str, list[int]] = {}
    cardinals: dict[str, list[int]] = {}
    for region, value in regions.items():
        where = at(regions, region, Msg("region '{region}'", region=region))
        value = mapping(value, Msg("a region"), where, source)
        reject_unknown_keys(value, {"monasteries", "cardinals"}, source, where)
        monasteries[str(region)] = _per_player(
            value.get("monasteries", [0] * players),
            players,
            Msg("monasteries"),
            where,
            source,
            ("regions", str(region), "monasteries"),
        )
        cardinals[str(region)] = _per_player(
            value.get("cardinals", [0] * players),
            players,
            Msg("cardinals"),
            where,
            source,
            ("regions", str(region), "cardinals"),
        )
        if sum(cardinals[str(region)]) > max(monasteries[str(region)]):
            raise InputError(
                Msg(
                    "{value} cardinals, but the highest single monastery count here is {value2}",
                    value=sum(cardinals[str(region)]),
                    value2=max(monasteries[str(region)]),
                ),
                source=source,
                place=where,
                path=("regions", str(region), "cardinals", 0),
            )
    for i, name in enumerate(names):
        for what, table, limit in (
            (Msg("monasteries"), monasteries, game.monasteries_per_player),
            (Msg("cardinals"), cardinals, game.cardinals_per_player),
        ):
            used = sum(counts[i] for counts in table.values())
            if used > limit:
                raise InputError(
                    Msg(
                        "{name} has {used} {what} on the board; each player has only {limit}",
                        name=name,
                        used=used,
                        what=what,
                        limit=limit,
                    ),
                    source=source,
                    place=Msg("player '{name}'", name=name),
                )
    pairs = []
    raw_pairs = data.get("alliances") or []
    if not isinstance(raw_pairs, list):
        raise InputError(Msg("alliances must be a list of region pairs"), source=source, place="alliances")
    if len(raw_pairs) > game.alliances:
        raise InputError(
            Counted(
                "{count} alliance listed; the board numbers {alliances}",
                "{count} alliances listed; the board numbers {alliances}",
                len(raw_pairs),
                count=len(raw_pairs),
                alliances=game.alliances,
            ),
            source=source,
            place="alliances",
        )
    for number, pair in enumerate(raw_pairs, start=1):
        where = Msg("alliance {number}", number=number)
        if not isinstance(pair, list) or len(pair) != 2:
            raise InputError(
                Msg("an alliance is a pair of regions, got '{pair}'", pair=pair),
                source=source,
                place=where,
                path=("alliances", number - 1, 0),
            )
        a, b = (str(p) for p in pair)
        for region in (a, b):
            if region not in regions:
                raise InputError(
                    Msg("unknown region '{region}'{hint}", region=region, hint=suggest(str(region), map(str, regions))),
                    source=source,
                    place=where,
                    path=("alliances", number - 1, [a, b].index(region)),
                )
        if a == b:
            raise InputError(
                Msg("a region cannot be allied with itself ({a})", a=a),
                source=source,
                place=where,
                path=("alliances", number - 1, 1),
            )
        if (a, b) in pairs or (b, a) in pairs:
            raise InputError(
                Msg("alliance {a}–{b} is listed twice", a=a, b=b),
                source=source,
                place=where,
                path=("alliances", number - 1, 0),
            )
        pairs.append((a, b))
    roads_place = at(data, "roads", "roads")
    runs = _road_runs(data.get("roads", [0] * players), players, roads_place, source)
    for i, name in enumerate(names):
        placed = sum(counts[i] for counts in monasteries.values())
        if sum(runs[i]) > placed:
            raise InputError(
                Msg(
                    "{name}'s roads hold {value} monasteries, more than their {placed}",
                    name=name,
                    value=sum(runs[i]),
                    placed=placed,
                ),
                source=source,
                place=roads_place,
                path=("roads", i),
            )
    return score(
        "webofpower-board",
        phase,
        names,
        monasteries,
        cardinals,
        pairs,
        [sum(longest_road_points(run) for run in player_runs) for player_runs in runs],
        interim=_interim(data, players, source),
    )


def _road_runs(value: Any, players: int, place: str | Msg, source: str) -> list[list[int]]:
    """Per player a number (one run) or a list of that player's separate runs (RULES §2: runs of
    5 and 4 score 9)."""
    if not isinstance(value, list) or len(value) != players:
        raise InputError(
            Msg(
                "roads needs one entry per player ({players}): a number, or a list of runs like [5, 4]", players=players
            ),
            source=source,
            place=place,
        )
    runs = []
    for index, entry in enumerate(value, start=1):
        where = Msg("{place}, player {n}", place=place, n=index)
        path = ("roads", index - 1)
        if isinstance(entry, list):
            if len(entry) > 40:
                raise InputError(
                    Msg("{count} separate roads is more than a board holds", count=len(entry)),
                    source=source,
                    place=where,
                    path=path,
                )
            runs.append([count(run, Msg("a road"), where, source, path) for run in entry])
        else:
            runs.append([count(entry, Msg("a road"), where, source, path)])
    return runs
