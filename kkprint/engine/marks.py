"""Cut marks and the margin note: everything printed around the cards, never on them."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.choices import CutMarks  # noqa: F401 - re-exported: the engine's name for it
from kkprint.engine.geometry import SheetLayout

NOTE_BAND = 9.0 * mm  # the outermost strip of the margin that holds the note (5 mm clear, then text)
MARK_CLEARANCE = 1.0 * mm  # marks stop this far short of the cards
MARK_OUTER_LIMIT = 5.0 * mm  # and this far from the paper edge (a ¼-inch printer margin is 6.4 mm)
MARK_SHORTEST = 3.0 * mm  # a shorter mark is a speck: the other side's marks, or the cards' outlines, do
# Cards that touch have no outline to cut along, so a tight margin still gets its marks, nearer the
# cards (Letter holds three 88 mm rows with 7.7 mm above and below: 2.2 mm marks, not none).
TIGHT_CLEARANCE = 0.5 * mm
TIGHT_SHORTEST = 2.0 * mm


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

    touching = layout.gap_mm == 0 and layout.placed is None  # (no outlines: the marks are all there is)

    def gap(room: float) -> float | None:
        """How far short of the cards a mark stops in a margin with ``room`` to spare, or None."""
        if room - MARK_CLEARANCE >= MARK_SHORTEST:
            return MARK_CLEARANCE
        if touching and room - TIGHT_CLEARANCE >= TIGHT_SHORTEST:
            return TIGHT_CLEARANCE
        return None

    below, above = gap(grid_bottom - outer("bottom")), gap(height - outer("top") - grid_top)
    left, right = gap(grid_left - outer("left")), gap(width - outer("right") - grid_right)
    if layout.fold:
        right = None
    xs, ys = edge_positions(layout, used)
    segments = []
    for x in xs:
        if below is not None:
            segments.append((x, outer("bottom"), x, grid_bottom - below))
        if above is not None:
            segments.append((x, grid_top + above, x, height - outer("top")))
    for y in ys:
        if left is not None:
            segments.append((outer("left"), y, grid_left - left, y))
        if right is not None:
            segments.append((grid_right + right, y, width - outer("right"), y))
    return segments


def draw_cut_marks(canvas: Canvas, layout: SheetLayout, style: CutMarks, used: int | None = None) -> None:
    canvas.saveState()
    canvas.setLineWidth(0.3)
    canvas.setStrokeGray(0.2)
    for x1, y1, x2, y2 in mark_segments(layout, style, used):
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()
