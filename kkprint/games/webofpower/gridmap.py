"""Maps drawn as a grid of letters: each letter a territory, each character a square.

The grid is the whole definition: territories are the squares sharing a letter, neighbours are
territories that share a square edge, borders are the edges between different letters. A user
draws a new map by editing letters; nothing else needs to change.
"""

from __future__ import annotations

from functools import cached_property

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.records import record

Cell = tuple[int, int]  # (row, column), row 0 at the top
Edge = tuple[Cell, Cell]  # two edge-adjacent cells, in (row, column) order


@record
class GridMap:
    rows: tuple[str, ...]

    @classmethod
    def parse(cls, rows: list[str], source: str = "map") -> GridMap:
        if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
            raise InputError(Msg("a map grid is a list of strings of letters"), source=source)
        width = len(rows[0])
        for index, row in enumerate(rows):
            if len(row) != width:
                raise InputError(
                    Msg(
                        "row {value} has {count} squares, row 1 has {width}",
                        value=index + 1,
                        count=len(row),
                        width=width,
                    ),
                    source=source,
                )
            for column, letter in enumerate(row):
                if not (letter.isascii() and letter.isalpha()):
                    raise InputError(
                        Msg(
                            "row {value}, column {value2}: '{letter}' is not a territory letter",
                            value=index + 1,
                            value2=column + 1,
                            letter=letter,
                        ),
                        source=source,
                    )
        grid = cls(tuple(rows))
        for letter, cells in grid.territories.items():
            if not grid._connected(cells):
                raise InputError(Msg("territory {letter} is split into separate pieces", letter=letter), source=source)
        return grid

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    def letter(self, cell: Cell) -> str:
        return self.rows[cell[0]][cell[1]]

    @cached_property
    def territories(self) -> dict[str, list[Cell]]:
        """Letter → its squares in reading order; letters in alphabetical order."""
        found: dict[str, list[Cell]] = {}
        for r, row in enumerate(self.rows):
            for c, letter in enumerate(row):
                found.setdefault(letter, []).append((r, c))
        return dict(sorted(found.items()))

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def _connected(self, cells: list[Cell]) -> bool:
        todo, seen, members = [cells[0]], {cells[0]}, set(cells)
        while todo:
            r, c = todo.pop()
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in members and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(members)

    @cached_property
    def border_edges(self) -> dict[tuple[str, str], list[Edge]]:
        """Pairs of neighbouring territories (alphabetical) → the square edges they share."""
        shared: dict[tuple[str, str], list[Edge]] = {}
        for r in range(self.height):
            for c in range(self.width):
                for n in ((r, c + 1), (r + 1, c)):
                    if self.inside(n) and self.letter((r, c)) != self.letter(n):
                        first, second = sorted((self.letter((r, c)), self.letter(n)))
                        shared.setdefault((first, second), []).append(((r, c), n))
        return dict(sorted(shared.items()))

    @property
    def alliances(self) -> list[tuple[str, str]]:
        """Neighbouring pairs in alphabetical order: alliance [1] is the first."""
        return list(self.border_edges)

    def is_border(self, a: Cell, b: Cell) -> bool:
        """Is the edge between square ``a`` and its neighbour ``b`` (possibly off the map) a border?"""
        return not self.inside(b) or self.letter(a) != self.letter(b)
