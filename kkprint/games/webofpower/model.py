"""The trump-map definition (``data/webofpower/map.yaml``) and the board-game definition."""

from __future__ import annotations

from functools import cached_property, lru_cache
from pathlib import Path

from kkprint.base.definitions import Definition, Names, load_definition
from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.paths import DATA_DIR
from kkprint.games.webofpower.gridmap import GridMap


class Group(Definition):
    ranks: str
    names: Names
    colour: str


class Territory(Definition):
    group: str
    names: Names


class Symbol(Definition):
    mark: str
    alias: str
    names: Names


class TrumpMap(Definition):
    id: str
    players: int
    grid: list[str]
    groups: dict[str, Group]
    territories: dict[str, Territory]
    symbols: list[Symbol]
    labels: dict[str, Names]

    def __post_init__(self) -> None:
        grid = GridMap.parse(self.grid, "grid")
        missing = set(grid.territories) - set(self.territories)
        if missing:
            raise ValueError(f"territories {', '.join(sorted(missing))} appear in the grid but are not described")
        extra = set(self.territories) - set(grid.territories)
        if extra:
            raise ValueError(f"territories {', '.join(sorted(extra))} are described but not in the grid")
        for letter, territory in self.territories.items():
            if territory.group not in self.groups:
                raise ValueError(f"territory {letter}: unknown group {territory.group!r}")
        if len(self.symbols) < self.players:
            raise ValueError(f"{self.players} players need {self.players} symbols")

    @cached_property
    def map(self) -> GridMap:
        return GridMap.parse(self.grid)

    def label(self, key: str, lang: str) -> str:
        return self.labels[key](lang)


DEFAULT_MAP = DATA_DIR / "webofpower" / "map.yaml"


@lru_cache(maxsize=8)
def load_map(path: Path = DEFAULT_MAP) -> TrumpMap:
    return load_definition(TrumpMap, path)


class BoardGame(Definition):
    """The board game's fixed numbers and printed words (its board is not ours to print)."""

    id: str
    min_players: int
    max_players: int
    regions: int
    alliances: int
    monasteries_per_player: int
    cardinals_per_player: int
    labels: dict[str, Names]
    reference: list[dict[str, Names]]

    def label(self, key: str, lang: str) -> str:
        return self.labels[key](lang)


@lru_cache(maxsize=2)
def load_board(path: Path = DATA_DIR / "webofpower" / "board.yaml") -> BoardGame:
    game = load_definition(BoardGame, path)
    if game.min_players < 2 or game.max_players < game.min_players:
        raise InputError(Msg("player limits are inconsistent"), source=str(path))
    return game
