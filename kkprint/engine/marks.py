"""Cut marks and the margin note: everything printed around the cards, never on them."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.choices import CutMarks  # noqa: F401 - re-exported: the engine's name for it
from kkprint.engine.geometry import SheetLayout

NOTE_BAND = 9.0 * mm  # the outermost strip of the margin that holds the note (5 mm clear, then text)
MARK_CLEARANCE = 1.0 * mm  # marks stop this far short of the cards
MARK_OUTER_LIMIT = 5.0 * mm  # and this far from the paper edge (a ¼-inch printer margin is 6.4 mm)
MARK_SHORTEST = 3.0 * mm  # a shorter mark is a speck a ruler cannot be laid on: the other side's marks do


def margins(layout: SheetLayout) -> dict[str, float]:
    ox, oy = layout.origin
    width, height = layout.paper.size
    bleed = layout.bleed_mm * mm
    return {
        "left": ox - bleed,
        "right": width - (ox + layout.grid_width) - bleed,
        "bottom": oy - bleed,
        "top": height - (oy + layout.grid_height) - bleed,
    }


def note_side(layout: SheetLayout) -> str:
    """The margin the note goes in: the bottom when it has room, else the widest margin. On a
    fold sheet the note runs across both halves, so it stays at the bottom or the top."""
    room = margins(layout)
    if room["bottom"] >= NOTE_BAND + 3 * mm:
        return "bottom"
    if layout.fold:
        return "top" if room["top"] > room["bottom"] else "bottom"
    return max(room, key=lambda side: (room[side], side))


def edge_positions(layout: SheetLayout, used: int | None = None) -> tuple[list[float], list[float]]:
    """x of every card's left and right trim, y of every card's bottom and top trim — of the
    first ``used`` cards only, so a half-empty sheet gets no marks for cards it does not hold."""
    xs: set[float] = set()
    ys: set[float] = set()
    for slot in layout.slots()[:used]:
        xs.update((round(slot.x, 4), round(slot.right, 4)))
        ys.update((round(slot.y, 4), round(slot.top, 4)))
    return sorted(xs), sorted(ys)


def mark_segments(
    layout: SheetLayout, style: CutMarks, used: int | None = None
) -> list[tuple[float, float, float, float]]:
    """The cut-mark lines (x1, y1, x2, y2), all outside the grid of cards and its bleed; none on a
    fold half's fold side (the folded sheet is cut along the outer marks) and none too short to use."""
    if style is CutMarks.NONE or layout.per_sheet == 0:
        return []
    width, height = layout.paper.size
    bleed = layout.bleed_mm * mm
    ox, oy = layout.origin
    grid_left, grid_bottom = ox - bleed, oy - bleed
    grid_right, grid_top = ox + layout.grid_width + bleed, oy + layout.grid_height + bleed
    reserved = note_side(layout)

    def outer(side: str) -> float:
        return NOTE_BAND if side == reserved else MARK_OUTER_LIMIT

    xs, ys = edge_positions(layout, used)
    segments = []
    for x in xs:
        low_end, low_start = outer("bottom"), grid_bottom - MARK_CLEARANCE
        if low_start - low_end >= MARK_SHORTEST:
            segments.append((x, low_end, x, low_start))
        high_start, high_end = grid_top + MARK_CLEARANCE, height - outer("top")
        if high_end - high_start >= MARK_SHORTEST:
            segments.append((x, high_start, x, high_end))
    for y in ys:
        left_end, left_start = outer("left"), grid_left - MARK_CLEARANCE
        if left_start - left_end >= MARK_SHORTEST:
            segments.append((left_end, y, left_start, y))
        right_start, right_end = grid_right + MARK_CLEARANCE, width - outer("right")
        if right_end - right_start >= MARK_SHORTEST and not layout.fold:
            segments.append((right_start, y, right_end, y))
    return segments


def draw_cut_marks(canvas: Canvas, layout: SheetLayout, style: CutMarks, used: int | None = None) -> None:
    canvas.saveState()
    canvas.setLineWidth(0.3)
    canvas.setStrokeGray(0.2)
    for x1, y1, x2, y2 in mark_segments(layout, style, used):
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()
