"""Ruled tables for score sheets: cells with text that fits, spans, tints, heavier rules."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.records import record
from kkprint.engine.fonts import FontSet
from kkprint.engine.text import TextBox, draw_text


@record
class Cell:
    text: str = ""
    span: int = 1
    bold: bool = False
    align: str = "center"
    size: float = 10.0
    fill: Color | None = None
    ink: Color | None = None
    heavy: bool = False


def draw_table(
    canvas: Canvas,
    fonts: FontSet,
    x: float,
    top: float,
    widths: Sequence[float],
    heights: Sequence[float],
    rows: Sequence[Sequence[Cell]],
) -> float:
    """Draw ``rows`` (each a list of cells whose spans add up to ``len(widths)``) from ``top`` down.

    Returns the y of the table's bottom edge.
    """
    y = top
    for row, height in zip(rows, heights):
        y -= height
        column = 0
        for cell in row:
            left = x + sum(widths[:column])
            width = sum(widths[column : column + cell.span])
            canvas.saveState()
            if cell.fill is not None:
                canvas.setFillColor(cell.fill)
                canvas.rect(left, y, width, height, stroke=0, fill=1)
            canvas.setLineWidth(1.4 if cell.heavy else 0.6)
            canvas.rect(left, y, width, height, stroke=1, fill=0)
            if cell.text:
                if cell.ink is not None:
                    canvas.setFillColor(cell.ink)
                else:
                    canvas.setFillColorRGB(0, 0, 0)
                box = TextBox(left + 1.5 * mm, y + 0.5 * mm, width - 3 * mm, height - 1 * mm, cell.align, "middle")
                draw_text(
                    canvas,
                    cell.text,
                    fonts.bold if cell.bold else fonts.regular,
                    box,
                    cell.size,
                    min(cell.size, 5),
                    leading=1.1,
                )
            canvas.restoreState()
            column += cell.span
    return y
