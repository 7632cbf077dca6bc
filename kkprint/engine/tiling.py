"""Art larger than the paper: printed 1:1 over several sheets that overlap and register.

Each sheet shows one window of the big drawing. Neighbouring windows overlap by a strip in
which crosshair registration marks are drawn at the same place of the drawing, so the strip of
one sheet lies exactly over the strip of the next; marks in the margins show where to trim the
upper sheet before gluing. Any large map can use this: the art only has to draw itself, and say
where its words are (``keep_clear``): the trim runs through the crosses, so half of each stays on
the glued map, and a cross there would cover them for good.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.i18n import tr
from kkprint.base.records import record
from kkprint.engine.document import TILE_NOTE, Document
from kkprint.engine.geometry import Paper
from kkprint.engine.text import TextBox, draw_text

DrawArt = Callable[[Canvas, float, float], None]
Box = tuple[float, float, float, float]  # x, y (from the drawing's bottom left, as it draws), width, height


@record
class Tiling:
    """How a ``width × height`` drawing (points) is cut into windows of one paper size."""

    width: float
    height: float
    window_w: float
    window_h: float
    overlap: float

    @property
    def step_x(self) -> float:
        return self.window_w - self.overlap

    @property
    def step_y(self) -> float:
        return self.window_h - self.overlap

    @property
    def columns(self) -> int:
        return max(1, math.ceil((self.width - self.overlap) / self.step_x - 1e-9))

    @property
    def rows(self) -> int:
        return max(1, math.ceil((self.height - self.overlap) / self.step_y - 1e-9))

    def window(self, row: int, column: int) -> tuple[float, float]:
        """Drawing coordinates (x from the left, y from the top) of the window's top-left."""
        return column * self.step_x, row * self.step_y

    def registration_points(self, keep_clear: Sequence[Box] = ()) -> list[tuple[float, float]]:
        """Crosshair centres (drawing coordinates from the top-left), in the middle of each
        overlap strip, spread along it — each moved along its strip, where it would stand on
        one of the boxes ``keep_clear``, to the nearest place clear of them all, and left out
        where another cross (of its strip or one crossing it) already stands near."""
        points: list[tuple[float, float]] = []

        def add(candidates: list[tuple[float, float]]) -> None:
            points.extend(
                point
                for point in candidates
                if all(math.dist(point, other) >= APART for other in points)  # (points grows as it goes)
            )

        for column in range(1, self.columns):
            x = column * self.step_x + self.overlap / 2
            blocked = [(self.height - by - h, self.height - by) for bx, by, w, h in keep_clear if _meets(bx, w, x)]
            add([(x, y) for y in _clear_along(self.height, blocked)])
        for row in range(1, self.rows):
            y = row * self.step_y + self.overlap / 2
            art_y = self.height - y  # (the boxes are the art's own: y from the bottom)
            add(
                [
                    (x, y)
                    for x in _clear_along(
                        self.width, [(bx, bx + w) for bx, by, w, h in keep_clear if _meets(by, h, art_y)]
                    )
                ]
            )
        return points


REACH = 3.5 * mm + 1 * mm  # a cross's arms, and the room it keeps from what it must not touch
APART = 20 * mm  # a cross nearer than this to another is left out: that one registers there


def _meets(start: float, length: float, at: float) -> bool:
    """Whether a cross at ``at`` reaches a box's side from ``start`` over ``length``."""
    return start < at + REACH and at - REACH < start + length


def _along(length: float, every: float = 60 * mm) -> list[float]:
    count = max(2, int(length // every) + 1)
    return [length * (i + 0.5) / count for i in range(count)]


def _clear_along(length: float, blocked: Sequence[tuple[float, float]]) -> list[float]:
    """The crosses' places along a strip of ``length``: spread as :func:`_along` spreads them,
    each that would reach into a ``blocked`` stretch (start, end) moved to the nearest place
    clear of every one (or left out when the strip has none)."""
    reach = [(start - REACH, end + REACH) for start, end in blocked]
    places = []
    for wanted in _along(length):
        candidates = [wanted, *(edge for stretch in reach for edge in stretch)]
        clear = [
            place
            for place in candidates
            if min(REACH, wanted) <= place <= max(length - REACH, wanted)
            and not any(start < place < end for start, end in reach)
        ]
        if clear:
            places.append(min(clear, key=lambda place: (abs(place - wanted), place)))
    return places


def draw_registration(canvas: Canvas, x: float, y: float) -> None:
    canvas.saveState()
    canvas.setLineWidth(0.4)
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.circle(x, y, 2.2 * mm, stroke=1, fill=0)
    canvas.line(x - 3.5 * mm, y, x + 3.5 * mm, y)
    canvas.line(x, y - 3.5 * mm, x, y + 3.5 * mm)
    canvas.restoreState()


LABEL_ZONE = 6 * mm  # below each window: the sheet's label, above the margin note
TRIM_MARK_FROM_EDGE = 5.5 * mm  # trim marks stop short of the 5 mm a printer cannot reach


def tiling_for(paper: Paper, width: float, height: float, overlap_mm: float = 12, margin_mm: float = 10) -> Tiling:
    """How a ``width × height`` drawing is cut into windows of ``paper``."""
    page_w, page_h = paper.size
    margin = margin_mm * mm
    return Tiling(width, height, page_w - 2 * margin, page_h - 2 * margin - LABEL_ZONE, overlap_mm * mm)


def tiling_paper(paper: Paper, width: float, height: float, overlap_mm: float = 12, margin_mm: float = 10) -> Paper:
    """The paper turned the way that needs fewer sheets (upright when it makes no difference):
    a 27 × 39 cm mat takes four upright A4 sheets but three lying ones."""

    def sheets(choice: Paper) -> int:
        tiling = tiling_for(choice, width, height, overlap_mm, margin_mm)
        return tiling.rows * tiling.columns

    turned = paper.landscape()
    return turned if sheets(turned) < sheets(paper) else paper


def print_tiled(
    doc: Document,
    width: float,
    height: float,
    draw: DrawArt,
    *,
    overlap_mm: float = 12,
    margin_mm: float = 10,
    keep_clear: Sequence[Box] = (),
) -> Tiling:
    """Print ``draw`` (a ``width × height`` drawing) 1:1 over as many sheets as it needs.

    Where a sheet overlaps the one to its left or above, marks in the margin (never over the
    art: a line across it would run through whatever is drawn there) show where to trim it; the
    trimmed edge then passes through the registration crosses, which it lays over its neighbour's.
    The crosses stay on the glued map, so none stands on the boxes ``keep_clear`` (the art's
    words, in its own coordinates)."""
    page_w, page_h = doc.paper.size
    margin = margin_mm * mm
    tiling = tiling_for(doc.paper, width, height, overlap_mm, margin_mm)
    c = doc.canvas
    marks = tiling.registration_points(keep_clear)
    for row in range(tiling.rows):
        for column in range(tiling.columns):
            wx, wy = tiling.window(row, column)
            left, top = margin, page_h - margin
            bottom = top - tiling.window_h
            c.saveState()
            path = c.beginPath()
            path.rect(left, bottom, tiling.window_w, tiling.window_h)
            c.clipPath(path, stroke=0, fill=0)
            # drawing origin is its bottom-left; place its point (wx, wy from top) at the window's top-left
            c.translate(left - wx, top - (height - wy))
            draw(c, width, height)
            for x, y in marks:
                draw_registration(c, x, height - y)
            c.restoreState()
            _trim_marks(c, page_w, page_h, left, top, bottom, tiling, column > 0, row > 0)
            label = tr(TILE_NOTE, doc.lang, row=row + 1, column=column + 1, rows=tiling.rows, columns=tiling.columns)
            c.setFillColorRGB(0.3, 0.3, 0.3)
            label_left = left + tiling.overlap  # clear of the trim marks below the window
            draw_text(
                c,
                label,
                doc.fonts.regular,
                TextBox(label_left, margin - 1 * mm, page_w - margin - label_left, 5 * mm, "left", "middle"),
                7,
                5,
            )
            doc.margin_note("bottom")
            doc.end_page()
    return tiling


def _trim_marks(
    c: Canvas,
    page_w: float,
    page_h: float,
    left: float,
    top: float,
    bottom: float,
    tiling: Tiling,
    trim_left: bool,
    trim_top: bool,
) -> None:
    """Short lines in the margins, in line with where this sheet's overlap is trimmed away."""
    c.saveState()
    c.setLineWidth(0.5)
    c.setStrokeGray(0)
    gap = 1 * mm
    if trim_left:
        x = left + tiling.overlap / 2
        c.line(x, top + gap, x, page_h - TRIM_MARK_FROM_EDGE)
        c.line(x, bottom - gap, x, bottom - LABEL_ZONE + gap)
    if trim_top:
        y = top - tiling.overlap / 2
        c.line(TRIM_MARK_FROM_EDGE, y, left - gap, y)
        c.line(left + tiling.window_w + gap, y, page_w - TRIM_MARK_FROM_EDGE, y)
    c.restoreState()
