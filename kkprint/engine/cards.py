"""Placing card art on sheets: fronts on one page, their backs (mirrored) on the next.

Drawing and placement are kept apart, as in ReportLab's platypus: an :class:`Art` only knows how
to draw itself into a box at the origin; :func:`print_cards` decides where that box is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.i18n import tr
from kkprint.base.records import record
from kkprint.engine.colour import colour
from kkprint.engine.document import (
    BACK_SHEET_NOTE,
    FOLD_NOTE,
    NOTE_FROM_EDGE,
    Document,
    back_page_note,
    do_form,
    open_pdf,
)
from kkprint.engine.fonts import FontSet
from kkprint.engine.geometry import CardSize, DuplexMode, Paper, Shape, SheetLayout, Slot
from kkprint.engine.inks import Inks
from kkprint.engine.marks import NOTE_BAND, CutMarks, draw_cut_marks, note_side


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


@record
class SheetOptions:
    duplex: DuplexMode = DuplexMode.LONG_EDGE
    cut_marks: CutMarks = CutMarks.EDGES
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    back_scale: float = 1.0
    trim_outline: bool = True
    extra_note: str = ""
    guides: bool = False  # trim, bleed and safe-zone lines over each card
    # the backs carry game content (rules, a second character): printed even with duplex none,
    # as sheets of their own to glue behind the fronts or sleeve with them
    content_backs: bool = False

    @property
    def back_mode(self) -> DuplexMode | None:
        """How the backs are laid out, or None when they are not printed at all."""
        if self.duplex is DuplexMode.NONE:
            return DuplexMode.NONE if self.content_backs else None
        return self.duplex


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
    for grow, ink, dash in (
        (0.0, (0.85, 0.1, 0.1), None),
        (bleed, (0.1, 0.3, 0.9), (3, 2)),
        (-SAFE_MM * mm, (0.1, 0.6, 0.2), (1, 1.5)),
    ):
        if grow == bleed and not bleed:
            continue
        canvas.setStrokeColorRGB(*ink)
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
    upside_down: bool = False,
) -> None:
    if slot.rotated or upside_down:  # turned about the slot's centre: 90° on its side, 180° more upside down
        canvas = doc.canvas
        cx, cy = slot.x + slot.width / 2, slot.y + slot.height / 2
        canvas.saveState()
        canvas.translate(cx, cy)
        canvas.rotate((90 if slot.rotated else 0) + (180 if upside_down else 0))
        width, height = (slot.height, slot.width) if slot.rotated else (slot.width, slot.height)
        upright = Slot(-width / 2, -height / 2, width, height)
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
    elif not form and not clip and scale == 1.0:  # the other: a card's own art, drawn where it goes
        doc.draw_moved(art.draw, slot.x - bleed, slot.y - bleed, width, height)
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


def place_art(doc: Document, art: Art, x: float, y: float, width: float, height: float, scale: float = 1.0) -> None:
    """A card's art drawn with its corner at (x, y), ``scale`` times its size: a picture of the
    cards (a cover's laid-out game) rather than a sheet to cut. Shared art is placed as its form."""
    if art.key:
        doc.draw_form(doc.use_form(art.key, width, height, art.draw), x, y, scale)
        return
    c = doc.canvas
    c.saveState()
    c.translate(x, y)
    c.scale(scale, scale)
    art.draw(c, width, height)
    c.restoreState()


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
    outline = _outline(layout, options)
    sheets = 0
    for chunk in _chunks(cards, layout.per_sheet):
        sheets += 1
        do_form(doc.canvas, _cut_marks(doc, layout, options.cut_marks, len(chunk)))
        doc.margin_note(side, options.extra_note)
        for index, card in enumerate(chunk):
            _place(
                doc,
                layout,
                layout.front_slot(index),
                card.front,
                outline,
                guides=options.guides,
                shape=card.shape,
            )
        doc.end_page()
        mode = options.back_mode
        if mode is not None and any(card.back for card in chunk):
            if mode is DuplexMode.NONE:  # a sheet of its own: no printer turns it, so no printer offset
                doc.margin_note(side, tr(BACK_SHEET_NOTE, doc.lang))
                offset, scale = (0.0, 0.0), 1.0
            else:
                doc.margin_note(side, back_page_note(mode.value, doc.lang))
                offset, scale = options.back_offset_mm, options.back_scale
            for index, card in enumerate(chunk):
                if card.back:
                    _place(
                        doc,
                        layout,
                        layout.back_slot(index, mode, offset),
                        card.back,
                        False,
                        scale,
                        options.guides,
                        card.shape,
                        layout.back_upside_down(index, mode),
                    )
            doc.end_page()
    return sheets


def fold_layout(layout: SheetLayout) -> SheetLayout:
    """The half-page layout fold mode uses: fronts on the left half, backs mirrored on the right.
    The fold line needs no margin, so two cards that fill the paper less its outer margins fit
    (two 95 mm cards on A4's 210 mm)."""
    half = Paper(layout.paper.name, layout.paper.width_mm / 2, layout.paper.height_mm)
    return replace(layout, paper=half, placed=None, fold=True)


def _print_folded(doc: Document, layout: SheetLayout, cards: Iterable[CardPrint], options: SheetOptions) -> int:
    half = fold_layout(layout)
    half.require_fit()
    page_w, page_h = doc.paper.size
    side = note_side(half)
    sheets = 0
    for chunk in _chunks(cards, half.per_sheet):
        sheets += 1
        c = doc.canvas
        marks = _cut_marks(doc, half, options.cut_marks, len(chunk))
        do_form(c, marks)
        c.saveState()
        c.translate(page_w, 0)
        c.scale(-1, 1)  # the right half's marks are the left half's, mirrored across the fold
        do_form(c, marks)
        c.restoreState()
        _fold_line(doc, side)
        doc.margin_note(side, " ".join(filter(None, (tr(FOLD_NOTE, doc.lang), options.extra_note))))
        for index, card in enumerate(chunk):
            front = half.front_slot(index)
            _place(doc, half, front, card.front, _outline(half, options), guides=options.guides, shape=card.shape)
            if card.back:
                dx, dy = options.back_offset_mm
                slot = Slot(page_w - front.right + dx * mm, front.y + dy * mm, front.width, front.height, front.rotated)
                upside_down = half.back_upside_down(index, DuplexMode.FOLD)
                _place(doc, half, slot, card.back, False, options.back_scale, options.guides, card.shape, upside_down)
        doc.end_page()
    return sheets


def _fold_line(doc: Document, note_side: str) -> None:
    """The dashed fold line down the middle, kept out of the 5 mm the printer cannot reach and
    off the margin note."""
    page_w, page_h = doc.paper.size
    c = doc.canvas
    c.saveState()
    c.setDash(4, 3)
    c.setLineWidth(0.5)
    c.setStrokeGray(0.3)
    bottom = NOTE_BAND if note_side == "bottom" else NOTE_FROM_EDGE
    top = page_h - (NOTE_BAND if note_side == "top" else NOTE_FROM_EDGE)
    c.line(page_w / 2, bottom, page_w / 2, top)
    c.restoreState()


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
        doc.between_cards()  # (a long document may go on in a new file here: a card's faces stay together)
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


def bled(art: Art, bleed: float, background: str) -> Art:
    """Art drawn for its trim box, made ready for a print shop's bleed: ``background`` (the card's
    own ground colour) runs ``bleed`` points past every edge and the rest keeps its place."""
    if not bleed:
        return art

    def draw(c: Canvas, w: float, h: float) -> None:
        c.saveState()
        c.setFillColor(colour(background))
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.translate(bleed, bleed)
        art.draw(c, w - 2 * bleed, h - 2 * bleed)
        c.restoreState()

    return Art(draw, key=f"{art.key}-bleed-{bleed:g}" if art.key else None)


def write_print_shop_cards(
    path: Path,
    card: CardSize,
    prints: Iterable[CardPrint],
    fonts: FontSet,
    *,
    title: str,
    lang: str,
    bleed_mm: float,
    slug_mm: float,
    inks: Inks | None,
    guides: bool = False,
) -> Path:
    """Cards that are not a deck (drawn by a game) as print-shop pages: one card a page with its
    bleed, TrimBox and BleedBox and crop marks, backs after fronts, in the shop's ``inks``."""
    size = (card.width_mm + 2 * (bleed_mm + slug_mm), card.height_mm + 2 * (bleed_mm + slug_mm))
    with open_pdf(path, Paper("card", *size), fonts, title=title, lang=lang, inks=inks) as doc:
        print_shop_pages(doc, card, bleed_mm, slug_mm, prints, guides=guides)
    return path


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
