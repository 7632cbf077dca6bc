"""Web of Power scoring shared by the board game and the trump map. Pure functions only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from enum import Enum

from kkprint.base.records import record
from kkprint.scoring.majority import leaders, rank_points

ROAD_MINIMUM = 4


class Phase(str, Enum):
    INTERIM = "interim"  # the deck ran out the first time: monasteries only
    FINAL = "final"  # monasteries, alliances (cardinals) and roads


@record
class AllianceScore:
    number: int
    areas: tuple[str, str]
    total_cardinals: int
    scorers: tuple[int, ...]  # player indices


@record
class Road:
    player: int
    length: int
    cells: tuple[tuple[int, int], ...]
    direction: str  # "row" or "column"


@record
class PlayerResult:
    name: str
    monasteries: int
    cardinals: int
    roads: int
    interim: int
    total: int
    game_total: int
    monastery_detail: dict[str, int] = field(default_factory=dict)


@record
class Result:
    game: str
    phase: Phase
    players: list[PlayerResult]
    winners: list[str]
    alliances: list[AllianceScore]
    roads: list[Road]


def monastery_points(monasteries: Mapping[str, Sequence[int]], players: int) -> dict[str, list[int]]:
    """Rank points (RULES §0) per area; the top value is every monastery in the area."""
    return {
        area: rank_points(list(counts), sum(counts)) if sum(counts) else [0] * players
        for area, counts in monasteries.items()
    }


def alliance_points(
    pairs: Sequence[tuple[str, str]], cardinals: Mapping[str, Sequence[int]], players: int
) -> list[AllianceScore]:
    """Each player with the most cardinals (at least 1, ties included) in both areas of a pair
    scores all cardinals of all players in the two areas."""
    scores = []
    none = [0] * players
    for number, (a, b) in enumerate(pairs, start=1):
        in_a, in_b = list(cardinals.get(a, none)), list(cardinals.get(b, none))
        both = leaders(in_a) & leaders(in_b)
        scores.append(AllianceScore(number, (a, b), sum(in_a) + sum(in_b), tuple(sorted(both))))
    return scores


def straight_roads(owners: Sequence[Sequence[int | None]]) -> list[Road]:
    """Every maximal horizontal or vertical line of 4+ adjacent squares of one player.

    A square may be part of one horizontal and one vertical line; territory borders do not matter.
    """
    roads = []
    height, width = len(owners), len(owners[0]) if owners else 0
    lines = [("row", [(r, c) for c in range(width)]) for r in range(height)] + [
        ("column", [(r, c) for r in range(height)]) for c in range(width)
    ]
    for direction, cells in lines:
        run: list[tuple[int, int]] = []
        for cell in [*cells, None]:
            owner = owners[cell[0]][cell[1]] if cell else None
            if run and (owner is None or owner != owners[run[0][0]][run[0][1]]):
                if len(run) >= ROAD_MINIMUM:
                    player = owners[run[0][0]][run[0][1]]
                    assert player is not None  # only owned squares join a run
                    roads.append(Road(player, len(run), tuple(run), direction))
                run = []
            if owner is not None:
                assert cell is not None  # an owner belongs to a square (the closing None has none)
                run.append(cell)
    return roads


def longest_road_points(longest: int) -> int:
    """Board game: a connected run of 4+ monasteries scores one point each (longest path only)."""
    return longest if longest >= ROAD_MINIMUM else 0


def winners_of(names: Sequence[str], totals: Sequence[int]) -> list[str]:
    best = max(totals, default=0)
    return [name for name, total in zip(names, totals) if total == best]


def score(
    game: str,
    phase: Phase,
    names: Sequence[str],
    monasteries: Mapping[str, Sequence[int]],
    cardinals: Mapping[str, Sequence[int]],
    pairs: Sequence[tuple[str, str]],
    road_points: Sequence[int],
    roads: Sequence[Road] = (),
    interim: Sequence[int] | None = None,
) -> Result:
    """One scoring. Interim: monasteries only. Final: monasteries, alliances and roads, and the
    game total adds the interim points."""
    count = len(names)
    per_area = monastery_points(monasteries, count)
    final = phase is Phase.FINAL
    alliances = alliance_points(pairs, cardinals, count) if final else []
    interim = list(interim) if interim is not None else [0] * count
    players = []
    for i, name in enumerate(names):
        monastery_total = sum(points[i] for points in per_area.values())
        cardinal_total = sum(a.total_cardinals for a in alliances if i in a.scorers)
        road_total = road_points[i] if final else 0
        total = monastery_total + cardinal_total + road_total
        game_total = total + interim[i] if final else total
        players.append(
            PlayerResult(
                name,
                monastery_total,
                cardinal_total,
                road_total,
                interim[i] if final else 0,
                total,
                game_total,
                {area: points[i] for area, points in per_area.items()},
            )
        )
    return Result(
        game,
        phase,
        players,
        winners_of(names, [p.game_total for p in players]),
        alliances,
        list(roads) if final else [],
    )
