"""Art larger than the paper: printed 1:1 over several sheets that overlap and register.

Each sheet shows one window of the big drawing. Neighbouring windows overlap by a strip in
which crosshair registration marks are drawn at the same place of the drawing, so the strip of
one sheet lies exactly over the strip of the next; marks in the margins show where to trim the
upper sheet before gluing. Any large map can use this: the art only has to draw itself, and say
where its words are (``keep_clear``). The sheets keep their number, but the seams move to fall
between the words: a line of text trimmed through and glued back together is split over two
sheets. And the trim runs through the crosses, so half of each stays on the glued map: a cross
on the words would cover them for good.
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
    # Each column's (row's) window's left (top) edge, where the seams were moved off the art's
    # words (:meth:`clear_of`); none: every window a step on from the one before.
    lefts: tuple[float, ...] = ()
    tops: tuple[float, ...] = ()

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
        x = self.lefts[column] if self.lefts else column * self.step_x
        y = self.tops[row] if self.tops else row * self.step_y
        return x, y

    @property
    def seams_x(self) -> list[float]:
        """Where the columns are trimmed and join (x from the drawing's left): the middle of
        each overlap strip."""
        return [self.window(0, column)[0] + self.overlap / 2 for column in range(1, self.columns)]

    @property
    def seams_y(self) -> list[float]:
        """Where the rows are trimmed and join (y from the drawing's top)."""
        return [self.window(row, 0)[1] + self.overlap / 2 for row in range(1, self.rows)]

    def clear_of(self, keep_clear: Sequence[Box]) -> Tiling:
        """The same sheets with their seams moved off the boxes ``keep_clear`` (the art's words,
        in its own coordinates: y from the bottom). A seam runs the whole width (height) of the
        drawing, so every box's stretch across it counts; each seam is put where its overlap
        strip, and a millimetre either side, meets none — else where its trim line keeps
        :data:`SEAM_ROOM` from them all — as near as it can to where the even steps put it.
        Where no such places let the sheets still cover the drawing, the seams stay there."""
        across = [(bx, bx + w) for bx, by, w, h in keep_clear]
        down = [(self.height - by - h, self.height - by) for bx, by, w, h in keep_clear]
        lefts = _starts_clear(self.width, self.window_w, self.overlap, self.columns, across)
        tops = _starts_clear(self.height, self.window_h, self.overlap, self.rows, down)
        return Tiling(self.width, self.height, self.window_w, self.window_h, self.overlap, lefts, tops)

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

        for x in self.seams_x:
            blocked = [(self.height - by - h, self.height - by) for bx, by, w, h in keep_clear if _meets(bx, w, x)]
            add([(x, y) for y in _clear_along(self.height, blocked)])
        for y in self.seams_y:
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
SEAM_ROOM = 2 * mm  # what a seam keeps from the words when no overlap strip can stand clear of them
STRIP_ROOM = 1 * mm  # and what an overlap strip keeps from them, when it can

Stretches = list[tuple[float, float]]  # (start, end) along one side of the drawing, in order
SLACK = 1e-6  # a point's rounding, where a seam is sought within reach of the next


def _starts_clear(length: float, window: float, overlap: float, count: int, blocked: Stretches) -> tuple[float, ...]:
    """The windows' starts along a side of ``length`` cut into ``count`` windows, each seam
    (trim line, in the middle of its overlap strip) clear of every ``blocked`` stretch; none
    where the even steps already are clear, or where no placing is."""
    if count < 2 or not blocked:
        return ()
    step = window - overlap
    even = [number * step + overlap / 2 for number in range(1, count)]
    for room in (overlap / 2 + STRIP_ROOM, SEAM_ROOM):
        if all(not low - room < seam < high + room for seam in even for low, high in blocked):
            return ()
        # (a moved seam leaves each sheet an overlap's width of its own; the even steps may leave less)
        seams = _seams_clear(length, window, overlap, even, _free(1.5 * overlap, length - 1.5 * overlap, blocked, room))
        if seams is not None:
            return (0.0, *(seam - overlap / 2 for seam in seams))
    return ()


def _free(start: float, end: float, blocked: Stretches, room: float) -> Stretches:
    """The stretches of ``start`` to ``end`` at least ``room`` from every ``blocked`` one."""
    free = [(start, end)]
    for low, high in sorted(blocked):
        low, high = low - room, high + room
        free = [part for a, b in free for part in ((a, min(b, low)), (max(a, high), b)) if part[0] <= part[1]]
    return free


def _seams_clear(
    length: float, window: float, overlap: float, even: list[float], free: Stretches
) -> list[float] | None:
    """Seams on ``free`` stretches, each as near to its ``even`` place as the others let it be,
    such that every window (``window`` long, starting ``overlap / 2`` before the seam it follows;
    the first at 0) reaches over the next seam's strip and the last to the drawing's end; None
    when there are none such. The stretches each seam can reach from the first window are worked
    out forwards, then each seam is chosen from the last back, within reach of the one after."""
    step = window - overlap  # the farthest one seam may be from the next
    apart = 2 * overlap  # and the nearest: the sheet between keeps an overlap's width outside its strips
    reach = [_within(free, -math.inf, window - overlap / 2)]
    for _ in even[1:]:
        reach.append(_meet(free, [(a + apart, b + step) for a, b in reach[-1]]))
    last = _within(reach[-1], length - window + overlap / 2, math.inf)
    if not last:
        return None
    seams = [_nearest(last, even[-1])]
    for stretches, wanted in zip(reversed(reach[:-1]), reversed(even[:-1])):
        within = _within(stretches, seams[-1] - step - SLACK, seams[-1] - apart + SLACK)  # (never empty)
        seams.append(_nearest(within, wanted))
    return seams[::-1]


def _within(stretches: Stretches, low: float, high: float) -> Stretches:
    return [(max(a, low), min(b, high)) for a, b in stretches if max(a, low) <= min(b, high)]


def _meet(these: Stretches, those: Stretches) -> Stretches:
    """Where two sets of stretches overlap."""
    return sorted(part for a, b in those for part in _within(these, a, b))


def _nearest(stretches: Stretches, wanted: float) -> float:
    """The place on ``stretches`` nearest ``wanted`` (the lower of two as near)."""
    places = (min(max(wanted, a), b) for a, b in stretches)
    return min(places, key=lambda place: (abs(place - wanted), place))


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


def tiling_for(
    paper: Paper,
    width: float,
    height: float,
    overlap_mm: float = 12,
    margin_mm: float = 10,
    keep_clear: Sequence[Box] = (),
) -> Tiling:
    """How a ``width × height`` drawing is cut into windows of ``paper``, the seams off the
    boxes ``keep_clear``."""
    page_w, page_h = paper.size
    margin = margin_mm * mm
    tiling = Tiling(width, height, page_w - 2 * margin, page_h - 2 * margin - LABEL_ZONE, overlap_mm * mm)
    return tiling.clear_of(keep_clear)


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
    The boxes ``keep_clear`` (the art's words, in its own coordinates) are not trimmed through:
    the seams fall between them wherever as many sheets can be placed so (:meth:`Tiling.clear_of`).
    The crosses stay on the glued map, so none stands on them either."""
    page_w, page_h = doc.paper.size
    margin = margin_mm * mm
    tiling = tiling_for(doc.paper, width, height, overlap_mm, margin_mm, keep_clear)
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
