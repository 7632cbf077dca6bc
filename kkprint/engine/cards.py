"""Placing card art on sheets: fronts on one page, their backs (mirrored) on the next.

Drawing and placement are kept apart, as in ReportLab's platypus: an :class:`Art` only knows how
to draw itself into a box at the origin; :func:`print_cards` decides where that box is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.i18n import tr
from kkprint.engine.document import BACK_PAGE_NOTE, Document
from kkprint.engine.geometry import CardSize, DuplexMode, Paper, Shape, SheetLayout, Slot
from kkprint.engine.marks import CutMarks, draw_cut_marks, note_side


class Art(NamedTuple):
    """Something that draws itself into a ``width × height`` box whose corner is the origin.

    Art with a ``key`` is stored once in the PDF as a form and placed by reference wherever it
    recurs (one back design under 56 cards costs one drawing).
    """

    draw: Callable[[Canvas, float, float], None]
    key: str | None = None
    inside: bool = False  # stays within a rounded-rectangle card's outline: no clip path is needed


class CardPrint(NamedTuple):
    front: Art
    back: Art | None = None
    shape: Shape | None = None  # its own outline where cards of several shapes share a sheet


@dataclass(frozen=True)
class SheetOptions:
    duplex: DuplexMode = DuplexMode.LONG_EDGE
    cut_marks: CutMarks = CutMarks.EDGES
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    back_scale: float = 1.0
    trim_outline: bool = True
    extra_note: str = ""
    guides: bool = False  # trim, bleed and safe-zone lines over each card


def _chunks(items: Iterable[CardPrint], size: int) -> Iterator[list[CardPrint]]:
    chunk: list[CardPrint] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _card_outline(canvas: Canvas, layout: SheetLayout, slot: Slot, grow: float = 0.0, shape: Shape | None = None):
    """The card's outline at ``slot`` (a path is only read when drawn, so one per place is kept)."""
    cache = layout.__dict__.setdefault("_outlines", {})
    key = (slot, grow, shape)
    if key not in cache:
        cache[key] = _make_outline(canvas, layout, slot, grow, shape or layout.card.shape)
    return cache[key]


def _make_outline(canvas: Canvas, layout: SheetLayout, slot: Slot, grow: float, shape: Shape):
    path = canvas.beginPath()
    if shape is Shape.CIRCLE:
        path.circle(slot.x + slot.width / 2, slot.y + slot.height / 2, slot.width / 2 + grow)
    elif shape is Shape.HEXAGON:
        cx, cy = slot.x + slot.width / 2, slot.y + slot.height / 2
        rx, ry = slot.width / 2 + grow, slot.height / 2 + grow
        corners = [
            (cx + rx, cy),
            (cx + rx / 2, cy + ry),
            (cx - rx / 2, cy + ry),
            (cx - rx, cy),
            (cx - rx / 2, cy - ry),
            (cx + rx / 2, cy - ry),
        ]
        path.moveTo(*corners[0])
        for corner in corners[1:]:
            path.lineTo(*corner)
        path.close()
    else:
        path.roundRect(
            slot.x - grow, slot.y - grow, slot.width + 2 * grow, slot.height + 2 * grow, _corner_radius(layout, grow)
        )
    return path


def _corner_radius(layout: SheetLayout, grow: float) -> float:
    """Cards that touch are cut apart with straight cuts: rounded corners would leave white
    notches between coloured neighbours, so they are square there."""
    if layout.gap_mm == 0 and layout.placed is None:
        return 0.0
    return layout.card.corner_mm * mm + (grow if layout.card.corner_mm else 0)


SAFE_MM = 3.0  # the safe zone: text and symbols inside it survive a cut that wanders


def draw_guides(canvas: Canvas, layout: SheetLayout, slot: Slot, shape: Shape | None = None) -> None:
    """Proofing lines over a card: trim (red), bleed (blue, dashed) and safe zone (green, dotted)."""
    canvas.saveState()
    canvas.setLineWidth(0.35)
    bleed = layout.bleed_mm * mm
    for grow, colour, dash in (
        (0.0, (0.85, 0.1, 0.1), None),
        (bleed, (0.1, 0.3, 0.9), (3, 2)),
        (-SAFE_MM * mm, (0.1, 0.6, 0.2), (1, 1.5)),
    ):
        if grow == bleed and not bleed:
            continue
        canvas.setStrokeColorRGB(*colour)
        canvas.setDash(*dash) if dash else canvas.setDash()
        canvas.drawPath(_card_outline(canvas, layout, slot, grow, shape), stroke=1, fill=0)
    canvas.restoreState()


def _needs_clip(layout: SheetLayout, art: Art, shape: Shape | None) -> bool:
    """Whether art must be clipped to the card's outline (a path drawn on every card). Not when
    it stays inside a rectangular card's rounded outline, nor when it is a stored form and the
    outline is its square box: a form's box already clips what is drawn in it."""
    if (shape or layout.card.shape) is not Shape.RECT:
        return True
    return not (art.inside or (art.key and _corner_radius(layout, 0.0) == 0))


def _place(
    doc: Document,
    layout: SheetLayout,
    slot: Slot,
    art: Art,
    outline: bool,
    scale: float = 1.0,
    guides: bool = False,
    shape: Shape | None = None,
) -> None:
    if slot.rotated:  # a card on its side: draw it upright about the slot's centre, turned 90°
        canvas = doc.canvas
        cx, cy = slot.x + slot.width / 2, slot.y + slot.height / 2
        canvas.saveState()
        canvas.translate(cx, cy)
        canvas.rotate(90)
        upright = Slot(-slot.height / 2, -slot.width / 2, slot.height, slot.width)
        _place(doc, layout, upright, art, outline, scale, guides, shape)
        canvas.restoreState()
        return
    canvas = doc.canvas
    bleed = layout.bleed_mm * mm
    width, height = slot.width + 2 * bleed, slot.height + 2 * bleed
    form = doc.use_form(art.key, width, height, art.draw) if art.key else None
    clip = _needs_clip(layout, art, shape)
    if form and not clip and scale == 1.0:  # the common case: a stored form placed as it is
        doc.draw_form(form, slot.x - bleed, slot.y - bleed)
    else:
        canvas.saveState()
        if scale != 1.0:  # a printer profile's scale, about the card's centre
            cx, cy = slot.x + slot.width / 2, slot.y + slot.height / 2
            canvas.translate(cx, cy)
            canvas.scale(scale, scale)
            canvas.translate(-cx, -cy)
        if clip:
            canvas.clipPath(_card_outline(canvas, layout, slot, bleed, shape), stroke=0, fill=0)
        if form:
            doc.draw_form(form, slot.x - bleed, slot.y - bleed)
        else:
            canvas.translate(slot.x - bleed, slot.y - bleed)
            art.draw(canvas, width, height)
        canvas.restoreState()
    if outline:
        canvas.saveState()
        canvas.setLineWidth(0.25)
        canvas.setStrokeGray(0.7)
        canvas.drawPath(_card_outline(canvas, layout, slot, 0.0, shape), stroke=1, fill=0)
        canvas.restoreState()
    if guides:
        draw_guides(canvas, layout, slot, shape)


def _cut_marks(doc: Document, layout: SheetLayout, style: CutMarks, used: int) -> str:
    """The cut marks of a sheet holding ``used`` cards, as a form: every full sheet has the same
    marks, so they are drawn once (a sixth of the time of placing plain cards went to them)."""
    width, height = doc.paper.size
    return doc.use_form(
        ("cut-marks", style, used, layout), width, height, lambda c, w, h: draw_cut_marks(c, layout, style, used)
    )


def _outline(layout: SheetLayout, options: SheetOptions) -> bool:
    """A thin grey outline helps to cut cards that stand apart; between cards that touch it would
    lie on the shared cut and leave a grey sliver on the neighbour, so there the marks suffice."""
    return options.trim_outline and (layout.gap_mm > 0 or layout.placed is not None)


def print_cards(doc: Document, layout: SheetLayout, cards: Iterable[CardPrint], options: SheetOptions) -> int:
    """Lay ``cards`` out sheet by sheet; with duplex, each fronts page is followed by its backs;
    with fold, ``layout`` is one half of the page and the backs fill the other half.

    Returns the number of sheets (front pages) printed.
    """
    layout.require_fit()
    if options.duplex is DuplexMode.FOLD:
        return _print_folded(doc, layout, cards, options)
    side = note_side(layout)
    sheets = 0
    for chunk in _chunks(cards, layout.per_sheet):
        sheets += 1
        doc.canvas.doForm(_cut_marks(doc, layout, options.cut_marks, len(chunk)))
        doc.margin_note(side, options.extra_note)
        for index, card in enumerate(chunk):
            _place(
                doc,
                layout,
                layout.front_slot(index),
                card.front,
                _outline(layout, options),
                guides=options.guides,
                shape=card.shape,
            )
        doc.end_page()
        if options.duplex is not DuplexMode.NONE and any(card.back for card in chunk):
            note = tr(BACK_PAGE_NOTE, doc.lang)
            doc.margin_note(side, f"{note} ({options.duplex.value})")
            for index, card in enumerate(chunk):
                if card.back:
                    slot = layout.back_slot(index, options.duplex, options.back_offset_mm)
                    _place(doc, layout, slot, card.back, False, options.back_scale, options.guides, card.shape)
            doc.end_page()
    return sheets


def fold_layout(layout: SheetLayout) -> SheetLayout:
    """The half-page layout fold mode uses: fronts on the left half, backs on the right."""
    half = Paper(layout.paper.name, layout.paper.width_mm / 2, layout.paper.height_mm)
    return SheetLayout(half, layout.card, layout.gap_mm, layout.margin_mm, layout.bleed_mm, layout.rotated)


def _print_folded(doc: Document, layout: SheetLayout, cards: Iterable[CardPrint], options: SheetOptions) -> int:
    half = fold_layout(layout)
    half.require_fit()
    page_w, page_h = doc.paper.size
    sheets = 0
    for chunk in _chunks(cards, half.per_sheet):
        sheets += 1
        c = doc.canvas
        marks = _cut_marks(doc, half, options.cut_marks, len(chunk))
        c.doForm(marks)
        c.saveState()
        c.translate(page_w, 0)
        c.scale(-1, 1)  # the right half's marks are the left half's, mirrored across the fold
        c.doForm(marks)
        c.restoreState()
        c.saveState()
        c.setDash(4, 3)
        c.setLineWidth(0.5)
        c.setStrokeGray(0.3)
        c.line(page_w / 2, 0, page_w / 2, page_h)
        c.restoreState()
        doc.margin_note("bottom", options.extra_note)
        for index, card in enumerate(chunk):
            _place(doc, half, half.front_slot(index), card.front, _outline(half, options), guides=options.guides)
            if card.back:
                front = half.front_slot(index)
                dx, dy = options.back_offset_mm
                slot = Slot(
                    page_w - front.x - front.width + dx * mm,
                    front.y + dy * mm,
                    front.width,
                    front.height,
                    front.rotated,
                )
                _place(doc, half, slot, card.back, False, options.back_scale, options.guides)
        doc.end_page()
    return sheets


def print_shop_pages(
    doc: Document, card: CardSize, bleed_mm: float, slug_mm: float, cards: Iterable[CardPrint], guides: bool = False
) -> int:
    """One card per page for a print shop: the page is the card plus bleed plus a slug for crop
    marks; TrimBox and BleedBox tell the shop where to cut. Backs follow their fronts."""
    bleed, slug = bleed_mm * mm, slug_mm * mm
    trim = (slug + bleed, slug + bleed, slug + bleed + card.width, slug + bleed + card.height)
    # the shop cuts (and rounds) corners itself: bleed is a full rectangle around the card
    square = CardSize(card.width_mm, card.height_mm, card.shape, corner_mm=0)
    layout = SheetLayout(
        Paper("card", card.width_mm + 2 * (bleed_mm + slug_mm), card.height_mm + 2 * (bleed_mm + slug_mm)),
        square,
        margin_mm=0,
        bleed_mm=bleed_mm,
    )
    slot = Slot(trim[0], trim[1], card.width, card.height)
    pages = 0
    for item in cards:
        for art in (item.front, item.back):
            if art is None:
                continue
            c = doc.canvas
            c.setTrimBox(trim)
            c.setBleedBox((trim[0] - bleed, trim[1] - bleed, trim[2] + bleed, trim[3] + bleed))
            _place(doc, layout, slot, art, outline=False, guides=guides)
            if slug > 0:
                _crop_marks(c, trim, bleed, slug)
            doc.end_page()
            pages += 1
    return pages


def _crop_marks(c: Canvas, trim: tuple[float, float, float, float], bleed: float, slug: float) -> None:
    """Crop marks in line with the trim edges, starting outside the bleed."""
    x0, y0, x1, y1 = trim
    gap = bleed + 1 * mm
    length = slug - 2 * mm
    c.saveState()
    c.setLineWidth(0.25)
    c.setStrokeGray(0)
    for x in (x0, x1):
        c.line(x, y0 - gap, x, y0 - gap - length)
        c.line(x, y1 + gap, x, y1 + gap + length)
    for y in (y0, y1):
        c.line(x0 - gap, y, x0 - gap - length, y)
        c.line(x1 + gap, y, x1 + gap + length, y)
    c.restoreState()
