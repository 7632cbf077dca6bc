"""Placing card art on sheets: fronts on one page, their backs (mirrored) on the next.

Drawing and placement are kept apart, as in ReportLab's platypus: an :class:`Art` only knows how
to draw itself into a box at the origin; :func:`print_cards` decides where that box is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.engine.document import BACK_PAGE_NOTE, Document
from kkprint.engine.geometry import DuplexMode, Shape, SheetLayout, Slot
from kkprint.engine.marks import CutMarks, draw_cut_marks, note_side


@dataclass(frozen=True)
class Art:
    """Something that draws itself into a ``width × height`` box whose corner is the origin.

    Art with a ``key`` is stored once in the PDF as a form and placed by reference wherever it
    recurs (one back design under 56 cards costs one drawing).
    """

    draw: Callable[[Canvas, float, float], None]
    key: str | None = None


@dataclass(frozen=True)
class CardPrint:
    front: Art
    back: Art | None = None


@dataclass(frozen=True)
class SheetOptions:
    duplex: DuplexMode = DuplexMode.LONG_EDGE
    cut_marks: CutMarks = CutMarks.EDGES
    back_offset_mm: tuple[float, float] = (0.0, 0.0)
    trim_outline: bool = True
    extra_note: str = ""


def _chunks(items: Iterable[CardPrint], size: int) -> Iterator[list[CardPrint]]:
    chunk: list[CardPrint] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _card_outline(canvas: Canvas, layout: SheetLayout, slot: Slot, grow: float = 0.0):
    path = canvas.beginPath()
    if layout.card.shape is Shape.CIRCLE:
        path.circle(slot.x + slot.width / 2, slot.y + slot.height / 2, slot.width / 2 + grow)
    else:
        radius = layout.card.corner_mm * mm + (grow if layout.card.corner_mm else 0)
        path.roundRect(slot.x - grow, slot.y - grow, slot.width + 2 * grow, slot.height + 2 * grow, radius)
    return path


def _place(doc: Document, layout: SheetLayout, slot: Slot, art: Art, outline: bool) -> None:
    canvas = doc.canvas
    bleed = layout.bleed_mm * mm
    canvas.saveState()
    canvas.clipPath(_card_outline(canvas, layout, slot, bleed), stroke=0, fill=0)
    width, height = slot.width + 2 * bleed, slot.height + 2 * bleed
    if art.key:
        doc.draw_form(doc.use_form(art.key, width, height, art.draw), slot.x - bleed, slot.y - bleed)
    else:
        canvas.translate(slot.x - bleed, slot.y - bleed)
        art.draw(canvas, width, height)
    canvas.restoreState()
    if outline:
        canvas.saveState()
        canvas.setLineWidth(0.25)
        canvas.setStrokeGray(0.7)
        canvas.drawPath(_card_outline(canvas, layout, slot), stroke=1, fill=0)
        canvas.restoreState()


def print_cards(doc: Document, layout: SheetLayout, cards: Iterable[CardPrint], options: SheetOptions) -> int:
    """Lay ``cards`` out sheet by sheet; with duplex, each fronts page is followed by its backs.

    Returns the number of sheets (front pages) printed.
    """
    layout.require_fit()
    side = note_side(layout)
    sheets = 0
    for chunk in _chunks(cards, layout.per_sheet):
        sheets += 1
        draw_cut_marks(doc.canvas, layout, options.cut_marks)
        doc.margin_note(side, options.extra_note)
        for index, card in enumerate(chunk):
            _place(doc, layout, layout.front_slot(index), card.front, options.trim_outline)
        doc.end_page()
        if options.duplex is not DuplexMode.NONE and any(card.back for card in chunk):
            note = BACK_PAGE_NOTE.get(doc.lang, BACK_PAGE_NOTE["en"])
            doc.margin_note(side, f"{note} ({options.duplex.value})")
            for index, card in enumerate(chunk):
                if card.back:
                    slot = layout.back_slot(index, options.duplex, options.back_offset_mm)
                    _place(doc, layout, slot, card.back, outline=False)
            doc.end_page()
    return sheets
