"""Paper, card sizes and where each card lands on a sheet — front and back.

All public sizes are millimetres; positions handed to ReportLab are points (1/72 in), with the
origin at the bottom-left of the page as in PDF.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from reportlab.lib.units import mm

from kkprint.errors import InputError


@dataclass(frozen=True)
class Paper:
    name: str
    width_mm: float
    height_mm: float

    @property
    def size(self) -> tuple[float, float]:
        return (self.width_mm * mm, self.height_mm * mm)

    def landscape(self) -> "Paper":
        return Paper(self.name, self.height_mm, self.width_mm)


PAPERS = {
    "a4": Paper("a4", 210.0, 297.0),
    "letter": Paper("letter", 215.9, 279.4),
    "a3": Paper("a3", 297.0, 420.0),
}


class Shape(str, Enum):
    RECT = "rect"
    CIRCLE = "circle"
    HEXAGON = "hexagon"  # flat top: corners at the left and right edges of the card's box


@dataclass(frozen=True)
class CardSize:
    width_mm: float
    height_mm: float
    shape: Shape = Shape.RECT
    corner_mm: float = 3.0

    @property
    def width(self) -> float:
        return self.width_mm * mm

    @property
    def height(self) -> float:
        return self.height_mm * mm


CARD_SIZES = {
    "poker": CardSize(63, 88),
    "bridge": CardSize(57, 89),
    "mini": CardSize(44, 63),
    "tarot": CardSize(70, 120),
    "square": CardSize(70, 70),
    "chip-25": CardSize(25, 25, corner_mm=2),
    "token-20": CardSize(20, 20, Shape.CIRCLE, 0),
    "token-25": CardSize(25, 25, Shape.CIRCLE, 0),
    "token-30": CardSize(30, 30, Shape.CIRCLE, 0),
}


def card_size(name: str) -> CardSize:
    try:
        return CARD_SIZES[name]
    except KeyError:
        raise InputError(f"unknown card size {name!r}; known: {', '.join(CARD_SIZES)}") from None


class DuplexMode(str, Enum):
    """How backs are printed. Long-edge flips like a book page, short-edge like a wall calendar;
    fold puts fronts and backs side by side on one sheet, folded down the middle."""

    NONE = "none"
    LONG_EDGE = "long-edge"
    SHORT_EDGE = "short-edge"
    FOLD = "fold"


@dataclass(frozen=True)
class Slot:
    """One card's place on a sheet: bottom-left corner and size, in points."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height


@dataclass(frozen=True)
class SheetLayout:
    """A grid of equal cards centred on a page, with the margin reserved for marks and notes."""

    paper: Paper
    card: CardSize
    gap_mm: float = 0.0
    margin_mm: float = 8.0
    bleed_mm: float = 0.0

    @property
    def pitch_x(self) -> float:
        return self.card.width + (self.gap_mm + 2 * self.bleed_mm) * mm

    @property
    def pitch_y(self) -> float:
        return self.card.height + (self.gap_mm + 2 * self.bleed_mm) * mm

    def _fit(self, available: float, size: float, pitch: float) -> int:
        return max(0, math.floor((available - size - 2 * self.bleed_mm * mm) / pitch + 1 + 1e-9))

    @property
    def columns(self) -> int:
        width = self.paper.width_mm * mm - 2 * self.margin_mm * mm
        return self._fit(width, self.card.width, self.pitch_x)

    @property
    def rows(self) -> int:
        height = self.paper.height_mm * mm - 2 * self.margin_mm * mm
        return self._fit(height, self.card.height, self.pitch_y)

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    def require_fit(self) -> None:
        if self.per_sheet == 0:
            raise InputError(
                f"a {self.card.width_mm:g}×{self.card.height_mm:g} mm card does not fit on "
                f"{self.paper.name} paper with {self.margin_mm:g} mm margins"
            )

    @property
    def grid_width(self) -> float:
        return self.columns * self.pitch_x - self.gap_mm * mm - 2 * self.bleed_mm * mm

    @property
    def grid_height(self) -> float:
        return self.rows * self.pitch_y - self.gap_mm * mm - 2 * self.bleed_mm * mm

    @property
    def origin(self) -> tuple[float, float]:
        """Bottom-left of the first (bottom-left) card's trim box: the grid is centred."""
        page_w, page_h = self.paper.size
        return ((page_w - self.grid_width) / 2, (page_h - self.grid_height) / 2)

    def front_slot(self, index: int) -> Slot:
        """Slot of the ``index``-th card on a sheet, reading left to right, top to bottom."""
        column, row = index % self.columns, index // self.columns
        ox, oy = self.origin
        x = ox + column * self.pitch_x
        y = oy + (self.rows - 1 - row) * self.pitch_y
        return Slot(x, y, self.card.width, self.card.height)

    def back_slot(self, index: int, mode: DuplexMode, offset_mm: tuple[float, float] = (0.0, 0.0)) -> Slot:
        """Where the back of card ``index`` must be printed so it lands behind its front.

        The sheet turns over an edge, so the back page is the front's mirror image across the
        page's vertical axis (long edge) or horizontal axis (short edge). A printer profile's
        offset then moves every back by the same amount to undo that printer's misregistration.
        """
        front = self.front_slot(index)
        page_w, page_h = self.paper.size
        x, y = front.x, front.y
        if mode is DuplexMode.LONG_EDGE or mode is DuplexMode.FOLD:
            x = page_w - front.x - front.width
        elif mode is DuplexMode.SHORT_EDGE:
            y = page_h - front.y - front.height
        return Slot(x + offset_mm[0] * mm, y + offset_mm[1] * mm, front.width, front.height)

    def slots(self) -> list[Slot]:
        return [self.front_slot(i) for i in range(self.per_sheet)]
