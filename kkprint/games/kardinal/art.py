"""Vector art of Kardinal & König: five kinds of family arms, ship, carriage, token symbols.

Each kind of arms differs in silhouette, not colour, so they stay apart in black-and-white
print. All icons are registered with the engine so any text may use them (``{arms:cross}``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from math import cos, radians, sin

from reportlab.pdfgen.canvas import Canvas

from kkprint.engine.icons import register_icon, star_path


def _roundel(c: Canvas, s: float) -> None:
    c.setFillGray(1)
    c.setStrokeGray(0)
    c.setLineWidth(max(0.5, s * 0.045))
    c.circle(s / 2, s / 2, s * 0.46, stroke=1, fill=1)
    c.setFillGray(0)


def arms_cross(c: Canvas, s: float) -> None:
    _roundel(c, s)
    bar = s * 0.16
    c.rect(s / 2 - bar / 2, s * 0.2, bar, s * 0.6, stroke=0, fill=1)
    c.rect(s * 0.2, s / 2 - bar / 2, s * 0.6, bar, stroke=0, fill=1)


def arms_fan(c: Canvas, s: float) -> None:
    _roundel(c, s)
    cx, cy = s / 2, s * 0.24
    c.wedge(cx - s * 0.34, cy - s * 0.34, cx + s * 0.34, cy + s * 0.34, 15, 150, stroke=0, fill=1)
    c.setStrokeGray(1)
    c.setLineWidth(max(0.3, s * 0.025))
    for angle in (45, 75, 105, 135):
        c.line(cx, cy, cx + s * 0.34 * cos(radians(angle)), cy + s * 0.34 * sin(radians(angle)))
    c.setFillGray(0)
    c.circle(cx, cy, s * 0.05, stroke=0, fill=1)


def arms_star(c: Canvas, s: float) -> None:
    _roundel(c, s)
    c.drawPath(star_path(c, s / 2, s * 0.48, s * 0.33, s * 0.14), stroke=0, fill=1)


def arms_crown(c: Canvas, s: float) -> None:
    _roundel(c, s)
    p = c.beginPath()
    p.moveTo(s * 0.22, s * 0.3)
    p.lineTo(s * 0.22, s * 0.66)
    p.lineTo(s * 0.36, s * 0.48)
    p.lineTo(s * 0.5, s * 0.74)
    p.lineTo(s * 0.64, s * 0.48)
    p.lineTo(s * 0.78, s * 0.66)
    p.lineTo(s * 0.78, s * 0.3)
    p.close()
    c.drawPath(p, stroke=0, fill=1)


def arms_moon(c: Canvas, s: float) -> None:
    _roundel(c, s)
    c.circle(s * 0.46, s / 2, s * 0.29, stroke=0, fill=1)
    c.setFillGray(1)
    c.circle(s * 0.58, s * 0.56, s * 0.25, stroke=0, fill=1)


def road_ship(c: Canvas, s: float) -> None:
    c.setFillGray(0)
    hull = c.beginPath()
    hull.moveTo(s * 0.08, s * 0.34)
    hull.lineTo(s * 0.92, s * 0.34)
    hull.lineTo(s * 0.76, s * 0.14)
    hull.lineTo(s * 0.24, s * 0.14)
    hull.close()
    c.drawPath(hull, stroke=0, fill=1)
    c.rect(s * 0.48, s * 0.34, s * 0.04, s * 0.56, stroke=0, fill=1)
    sail = c.beginPath()
    sail.moveTo(s * 0.46, s * 0.86)
    sail.lineTo(s * 0.46, s * 0.4)
    sail.lineTo(s * 0.16, s * 0.4)
    sail.close()
    c.drawPath(sail, stroke=0, fill=1)
    sail2 = c.beginPath()
    sail2.moveTo(s * 0.54, s * 0.78)
    sail2.lineTo(s * 0.54, s * 0.4)
    sail2.lineTo(s * 0.8, s * 0.4)
    sail2.close()
    c.drawPath(sail2, stroke=0, fill=1)


def road_carriage(c: Canvas, s: float) -> None:
    c.setFillGray(0)
    c.roundRect(s * 0.14, s * 0.36, s * 0.62, s * 0.38, s * 0.06, stroke=0, fill=1)
    c.rect(s * 0.76, s * 0.5, s * 0.14, s * 0.04, stroke=0, fill=1)
    c.setFillGray(1)
    c.rect(s * 0.24, s * 0.5, s * 0.16, s * 0.15, stroke=0, fill=1)
    c.rect(s * 0.5, s * 0.5, s * 0.16, s * 0.15, stroke=0, fill=1)
    c.setStrokeGray(0)
    c.setLineWidth(max(0.5, s * 0.05))
    for cx in (0.28, 0.64):
        c.circle(s * cx, s * 0.24, s * 0.13, stroke=1, fill=1)
        c.setFillGray(0)
        c.circle(s * cx, s * 0.24, s * 0.03, stroke=0, fill=1)
        c.setFillGray(1)


def symbol(c: Canvas, s: float, name: str) -> None:
    """Player-colour symbols (filled, current fill colour) that survive grey-scale printing."""
    m = s / 2
    if name == "circle":
        c.circle(m, m, s * 0.4, stroke=1, fill=1)
    elif name == "square":
        c.rect(s * 0.14, s * 0.14, s * 0.72, s * 0.72, stroke=1, fill=1)
    elif name == "triangle":
        p = c.beginPath()
        p.moveTo(m, s * 0.9)
        p.lineTo(s * 0.08, s * 0.14)
        p.lineTo(s * 0.92, s * 0.14)
        p.close()
        c.drawPath(p, stroke=1, fill=1)
    elif name == "diamond":
        p = c.beginPath()
        p.moveTo(m, s * 0.94)
        p.lineTo(s * 0.9, m)
        p.lineTo(m, s * 0.06)
        p.lineTo(s * 0.1, m)
        p.close()
        c.drawPath(p, stroke=1, fill=1)
    else:
        c.drawPath(star_path(c, m, s * 0.47, s * 0.47, s * 0.2), stroke=1, fill=1)


def road_tile(road) -> Callable[[Canvas, float], None]:
    """A road on a white rounded tile with a black edge, as in the top-right corner of a card."""

    def draw(c: Canvas, s: float) -> None:
        c.setFillGray(1)
        c.setStrokeGray(0)
        c.setLineWidth(max(0.5, s * 0.02))
        c.roundRect(s * 0.02, s * 0.02, s * 0.96, s * 0.96, s * 0.16, stroke=1, fill=1)
        c.saveState()
        c.translate(s * 0.1, s * 0.1)
        road(c, s * 0.8)
        c.restoreState()

    return draw


ARMS_ART = {"cross": arms_cross, "fan": arms_fan, "star": arms_star, "crown": arms_crown, "moon": arms_moon}
ROAD_ART = {"ship": road_ship, "carriage": road_carriage}

for _kind, _draw in ARMS_ART.items():
    register_icon(f"arms:{_kind}", _draw)


def symbol_icon(name: str):
    def draw(c: Canvas, s: float) -> None:
        c.setFillGray(1)
        c.setStrokeGray(0)
        c.setLineWidth(s * 0.024)
        symbol(c, s, name)

    return draw


for _name in ("circle", "square", "triangle", "diamond", "star"):
    register_icon(f"player:{_name}", symbol_icon(_name))


# --- land marks: a shape per land, so lands are told apart without colour -----------------------


def _polygon(c: Canvas, s: float, corners: int, start: float, inner: float | None = None) -> None:
    path = c.beginPath()
    points = corners * (2 if inner else 1)
    for i in range(points):
        radius = (inner if inner and i % 2 else 1.0) * s * 0.46
        angle = math.radians(start) + 2 * math.pi * i / points
        x, y = s / 2 + radius * math.cos(angle), s / 2 + radius * math.sin(angle)
        path.moveTo(x, y) if i == 0 else path.lineTo(x, y)
    path.close()
    c.drawPath(path, stroke=1, fill=1)


LAND_MARKS = {
    "circle": lambda c, s: c.circle(s / 2, s / 2, s * 0.44, stroke=1, fill=1),
    "square": lambda c, s: c.rect(s * 0.1, s * 0.1, s * 0.8, s * 0.8, stroke=1, fill=1),
    "triangle": lambda c, s: _polygon(c, s, 3, 90),
    "triangle-down": lambda c, s: _polygon(c, s, 3, -90),
    "diamond": lambda c, s: _polygon(c, s, 4, 90),
    "pentagon": lambda c, s: _polygon(c, s, 5, 90),
    "hexagon": lambda c, s: _polygon(c, s, 6, 0),
    "cross": lambda c, s: _polygon(c, s, 4, 45, inner=0.45),
    "ring": lambda c, s: (
        c.circle(s / 2, s / 2, s * 0.44, stroke=1, fill=1),
        c.setFillGray(1),
        c.circle(s / 2, s / 2, s * 0.22, stroke=1, fill=1),
    ),
}


def land_mark(shape: str):
    def draw(c: Canvas, s: float) -> None:
        c.setFillColorRGB(0.16, 0.16, 0.16)
        c.setStrokeGray(1)
        c.setLineWidth(s * 0.05)
        LAND_MARKS[shape](c, s)

    return draw


for _shape in LAND_MARKS:
    register_icon(f"land:{_shape}", land_mark(_shape))
for _road, _draw in ROAD_ART.items():
    register_icon(f"road:{_road}", _draw)
    register_icon(f"road-tile:{_road}", road_tile(_draw))
