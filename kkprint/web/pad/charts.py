"""The pad's charts, drawn by the pad itself as inline SVG (no script, nothing fetched): a game's
points by category per player, and a player's scores over time.

Here is only geometry, from the scorers' ``--json`` objects; ``templates/pad/_bars.html`` and
``_timeline.html`` draw it, escaping every name. Each game's categories add up to the score its
winner is chosen by (``game_total`` where a game has one, else ``total``), so a chart never
tells another story than the table beside it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from kkprint.base.i18n import N_
from kkprint.base.records import record

Category = tuple[str, Callable[[dict], int]]


def _sum_lands(kind: str) -> Callable[[dict], int]:
    return lambda player: sum(int(land.get(kind, 0)) for land in player.get("lands", {}).values())


_WEB_OF_POWER: list[Category] = [
    (N_("monasteries"), lambda p: p["monasteries"]),
    (N_("cardinals"), lambda p: p["cardinals"]),
    (N_("roads"), lambda p: p["roads"]),
    (N_("interim"), lambda p: p["interim"]),
]
CATEGORIES: dict[str, list[Category]] = {
    "kardinal": [
        (N_("lands"), _sum_lands("land")),
        (N_("arms"), _sum_lands("arms")),
        (N_("ships"), lambda p: p["ships_points"]),
        (N_("carriages"), lambda p: p["carriages_points"]),
        (N_("−2 chips"), lambda p: p["penalty"]),
    ],
    "webofpower": _WEB_OF_POWER,
    "webofpower-board": _WEB_OF_POWER,
    "court": [(N_("identical dice"), lambda p: p["total"])],
    "culdcept": [(N_("squares"), lambda p: p["total"])],
}

WIDTH = 340
ROW = 38
NAME_HEIGHT = 14
BAR = 16
TOTAL_ROOM = 40


def score(player: dict) -> int:
    """The number a player's place is decided by."""
    return int(player.get("game_total", player.get("total", 0)))


@record
class Segment:
    category: int
    value: int
    x: float
    width: float


@record
class Bar:
    name: str
    label: str  # the name as drawn: cut to the chart's width (the whole name is in the chart's title)
    total: int
    winner: bool
    name_y: float
    bar_y: float
    total_x: float
    segments: list[Segment]


@record
class Bars:
    width: int
    height: int
    zero_x: float
    categories: list[str]  # English msgids, translated by the template
    bars: list[Bar]


def bars(game: str, result: dict) -> Bars | None:
    """Each player's points split by category, positive to the right of zero and negative (K&K's
    −2 chips) to its left."""
    categories = CATEGORIES.get(game)
    players = result.get("players") or []
    if not categories or not players:
        return None
    values = [[int(part(p)) for _, part in categories] for p in players]
    low = min(0, *(sum(v for v in row if v < 0) for row in values))
    high = max(1, *(sum(v for v in row if v > 0) for row in values))
    scale = (WIDTH - TOTAL_ROOM) / (high - low)
    zero = -low * scale
    winners = set(result.get("winners") or [])
    drawn = []
    for index, (player, row) in enumerate(zip(players, values)):
        top = index * ROW
        right, left, segments = zero, zero, []
        for category, value in enumerate(row):
            if value > 0:
                segments.append(Segment(category, value, round(right, 2), round(value * scale, 2)))
                right += value * scale
            elif value < 0:
                left += value * scale
                segments.append(Segment(category, value, round(left, 2), round(-value * scale, 2)))
        name = str(player.get("name", ""))
        drawn.append(
            Bar(
                name,
                fitted(name, WIDTH - max(zero, 2)),
                score(player),
                player.get("name") in winners,
                top + NAME_HEIGHT - 3,
                top + NAME_HEIGHT,
                round(right + 4, 2),
                segments,
            )
        )
    return Bars(WIDTH, len(players) * ROW, round(zero, 2), [name for name, _ in categories], drawn)


def fitted(name: str, room: float, size: float = 12.0) -> str:
    """``name`` as it fits ``room`` px of a bold ``size`` px line, cut with "…" where it does not:
    an SVG text does not wrap, and a name of 40 characters runs off a phone's screen. Widths are
    reckoned high, whatever the phone's font — an em for a wide character, more for a capital or
    an m or w (a bold "W" takes 1.13 em in Noto Sans), two thirds for another — so what is drawn
    always fits."""

    def width(char: str) -> float:
        if char.isupper() or char in "mw@%":
            return size * 1.2
        return size if unicodedata.east_asian_width(char) in "WF" else size * 0.67

    widths = [width(char) for char in name]
    if sum(widths) <= room:
        return name
    used, kept = size, 0  # (the "…" takes an em)
    while kept < len(name) and used + widths[kept] <= room:
        used += widths[kept]
        kept += 1
    return name[:kept] + "…"


@record
class Point:
    x: float
    y: float
    score: int
    won: bool
    when: str


@record
class Timeline:
    width: int
    height: int
    top_label: int
    bottom_label: int
    zero_y: float | None
    points: list[Point]

    @property
    def line(self) -> str:
        return " ".join(f"{p.x},{p.y}" for p in self.points)


def timeline(scores: Sequence[tuple[int, bool, str]], width: int = WIDTH, height: int = 120) -> Timeline:
    """A player's scores in one game, oldest first (score, won, date)."""
    left, right, top, bottom = 30, 10, 14, 18
    values = [s for s, _, _ in scores]
    low, high = min(0, *values), max(1, *values)
    span = high - low or 1
    step = (width - left - right) / max(1, len(scores) - 1)

    def y(value: int) -> float:
        return round(top + (high - value) / span * (height - top - bottom), 2)

    points = [
        Point(round(left + i * step if len(scores) > 1 else (width + left - right) / 2, 2), y(s), s, won, when)
        for i, (s, won, when) in enumerate(scores)
    ]
    return Timeline(width, height, high, low, y(0) if low < 0 else None, points)
