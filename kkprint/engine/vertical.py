"""Vertical text (縦書き): columns from right to left, read from the top down.

The text is fitted by :func:`kkprint.engine.text.fit_text` like any other (a region's
``Typesetting(vertical=True)`` makes its lines columns as long as the box is high); this module
draws it. Japanese stands upright, each character in its own square, with the font's vertical
forms (its ``vert`` feature: 、。「」ー and small kana, see :func:`kkprint.engine.fonts.vertical_forms`);
Latin words lie turned 90° clockwise; up to two digits stand side by side (縦中横); icons stand
upright; a reading (ruby) stands in a thin column to the right of its base.

Alignment follows the text's own direction, as CSS and InDesign do: ``align`` places the text
along its column (left = top, center, right = bottom) and ``valign`` places the columns across
the box (top = against its right edge, where vertical text starts; middle; bottom = against its
left edge). Every character is real text in the PDF: it selects, copies and searches as written.
"""

from __future__ import annotations

from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from kkprint.engine.fonts import vertical_forms
from kkprint.engine.icons import draw_icon, icon_metrics
from kkprint.engine.orientation import SIDEWAYS, TATECHUYOKO
from kkprint.engine.text import (
    SLANT,
    Bounds,
    FittedText,
    Frag,
    TextBox,
    TextObject,
    block_extent,
    enclosing,
    icon_side,
    line_pads,
    oriented,
    set_width,
)

EM_TOP = 0.88  # the em square's top above the baseline (Noto's ideographic em box: 0.88 up, 0.12 down)
SIDEWAYS_DROP = 0.38  # a turned word's baseline, left of its column's centre: its em box centred
# how much of the free space goes before the text: along a column (align) and across the columns (valign)
_SHARE = {"left": 0.0, "center": 0.5, "right": 1.0, "top": 0.0, "middle": 0.5, "bottom": 1.0}


class _Pen:
    """Text objects that the frags of a vertical text are written into, one per colour: a
    column of many small runs stays a few PDF text objects. ``close`` draws them."""

    def __init__(self, canvas: Canvas, colour_of):
        self.canvas, self.colour_of = canvas, colour_of
        self.objects: dict[str | None, TextObject] = {}  # by colour

    def _object(self, colour: str | None, font: str, size: float) -> TextObject:
        text_object = self.objects.get(colour)
        if text_object is None:
            text_object = self.objects[colour] = TextObject(self.canvas, 0, 0)
        if text_object.font is None or (text_object.font.fontName, text_object.size) != (font, size):
            text_object.setFont(font, size)  # (which sets the text leading too)
        return text_object

    def write(self, style, font: str, size: float, text: str, matrix: tuple, squeeze: float = 1.0) -> None:
        """``text`` in one piece, placed by its text ``matrix`` (turned, slanted, narrowed)."""
        text_object = self._object(style.colour, font, size)
        text_object.setTextTransform(*matrix)
        if squeeze != 1.0:
            text_object.setHorizScale(100 * squeeze)
        text_object.textOut(text)
        if squeeze != 1.0:
            text_object.setHorizScale(100)

    def stack(self, style, font: str, size: float, x: float, baseline: float, text: str, step: float) -> None:
        """Upright characters each ``step`` under the last, from ``baseline``: one line each,
        the text leading doing the moving."""
        text_object = self._object(style.colour, font, size)
        text_object.setTextOrigin(x, baseline)
        if text_object.leading != step:
            text_object.setLeading(step)
        for char in text:
            text_object.textLine(char)

    def close(self) -> None:
        for colour, text_object in self.objects.items():
            if colour is None:
                text_object.close()
                continue
            self.canvas.saveState()
            self.canvas.setFillColor(self.colour_of(colour) if self.colour_of else colour)
            text_object.close()
            self.canvas.restoreState()


def _placed_columns(fitted: FittedText, box: TextBox):
    """(centre x, top y, column) of every column, placed in the box."""
    size, leading, rooms = fitted.size, fitted.leading, fitted.rooms
    centre = box.x + box.width - (box.width - block_extent(fitted)) * _SHARE[box.valign]
    for number, (column, scale) in enumerate(zip(fitted.lines, fitted.scales)):
        centre -= size * scale * (0.5 if number == 0 else leading)
        if rooms:
            centre -= size * rooms[number]
        top = box.y + box.height - (box.height - set_width(column, size)) * _SHARE[box.align]
        yield centre, top, column


def column_ink(fitted: FittedText, box: TextBox) -> Bounds | None:
    """Where fitted columns lie, in points (left, bottom, right, top), as
    :func:`kkprint.engine.text.ink_box` says it of lines: the columns' squares and their
    readings beside them, from the longest column's top to its foot. None when nothing prints."""
    size = fitted.size

    def columns():
        for number, ((centre, top, column), scale) in enumerate(zip(_placed_columns(fitted, box), fitted.scales)):
            length = set_width(column, size)
            if length > 0:
                reading = size * fitted.rooms[number] if fitted.rooms else 0.0  # a column's ruby stands right of it
                yield centre - size * scale / 2, top - length, centre + size * scale / 2 + reading, top

    return enclosing(columns())


def draw_vertical(canvas: Canvas, fitted: FittedText, box: TextBox, colour_of=None) -> None:
    """Draw fitted columns; ``colour_of`` turns a run's ``#rrggbb`` into a fill colour (CMYK
    in print-shop output), as for horizontal text. Readings come last, so the columns read, copy
    and search as written. The canvas's own state is left alone."""
    size = fitted.size
    pen = _Pen(canvas, colour_of)
    readings: list[tuple[Frag, float, float]] = []
    for centre, top, column in _placed_columns(fitted, box):
        y = top
        set_pads = line_pads(column)
        for number, atom in enumerate(column):
            pads = set_pads[0][number] if set_pads is not None else None
            for index, frag in enumerate(atom.frags):
                if pads:
                    y -= pads[index][0] * size
                advance = frag.width(size)
                _draw_frag(canvas, pen, frag, centre, y, size)
                if frag.ruby is not None:
                    readings.append((frag, centre, y - advance / 2))
                y -= advance + (pads[index][1] * size if pads else 0.0)
    for base, centre, middle in readings:
        _draw_reading(canvas, pen, base, centre, middle, size)
    pen.close()


def _draw_frag(canvas: Canvas, pen: _Pen, frag: Frag, centre: float, top: float, size: float) -> float:
    """One frag down its column from ``top``, centred on ``centre``; returns where it ends."""
    style = frag.style
    side = size * style.scale
    if frag.icon:
        square = side * icon_side(frag.icon)  # (a deck icon's own scale; its dy moves it down its column)
        advance = frag.width(size)
        draw_icon(
            canvas, frag.icon, centre - square / 2, top - (advance + square) / 2 - icon_metrics(frag.icon)[1], square
        )
        return top - advance
    slant = SLANT if style.slant else 0.0
    if style.turn == SIDEWAYS:  # turned a quarter clockwise: its top faces right
        baseline = centre - SIDEWAYS_DROP * side
        pen.write(style, style.font, side, frag.text, (0, -1, 1, -slant, baseline, top))
        return top - frag.width(size)
    if style.turn == TATECHUYOKO:  # side by side in one square, narrowed to fit it
        width = stringWidth(frag.text, style.font, side)
        squeeze = min(1.0, side / width) if width else 1.0
        x = centre - width * squeeze / 2
        pen.write(style, style.font, side, frag.text, (1, 0, slant, 1, x, top - EM_TOP * side), squeeze)
        return top - side
    for font, chars, unit in _stacks(frag.text, style.font):  # upright, each in its own square
        width = unit * side
        if slant:  # (a slanted stack would lean: each character is placed on its own)
            for char in chars:
                pen.write(style, font, side, char, (1, 0, slant, 1, centre - width / 2, top - EM_TOP * side))
                top -= width
        else:
            pen.stack(style, font, side, centre - width / 2, top - EM_TOP * side, chars, width)
            top -= width * len(chars)
    return top


@lru_cache(maxsize=4096)
def _stacks(text: str, font: str) -> tuple[tuple[str, str, float], ...]:
    """Upright ``text`` in stacks: (face, characters, advance at 1 pt) of consecutive characters
    drawn in one face — the vertical forms' for those that have one — and of one advance."""
    forms = vertical_forms(font)
    stacks: list[list] = []
    for char in text:
        face = forms.font if forms is not None and char in forms.characters else font
        unit = stringWidth(char, font, 1.0)
        if stacks and stacks[-1][0] == face and stacks[-1][2] == unit:
            stacks[-1][1] += char
        else:
            stacks.append([face, char, unit])
    return tuple((face, chars, unit) for face, chars, unit in stacks)


def _draw_reading(canvas: Canvas, pen: _Pen, base: Frag, centre: float, middle: float, size: float) -> None:
    """A base's reading in a thin column to the right of it, centred on the base's ``middle``."""
    reading = base.ruby
    assert reading is not None  # (drawn only for a base that has one)
    reading_centre = centre + size * (base.style.scale + reading.style.scale) / 2
    top = middle + reading.width(size) / 2
    for frag in oriented([reading]):
        top = _draw_frag(canvas, pen, frag, reading_centre, top, size)
