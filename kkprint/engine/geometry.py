"""Paper, card sizes and where each card lands on a sheet — front and back.

All public sizes are millimetres; positions handed to ReportLab are points (1/72 in), with the
origin at the bottom-left of the page as in PDF.
"""

from __future__ import annotations

import math
from enum import Enum
from functools import cached_property
from typing import NamedTuple

from reportlab.lib.units import mm

from kkprint.base.choices import DuplexMode  # noqa: F401 - re-exported: the engine's name for it
from kkprint.base.errors import InputError, did_you_mean
from kkprint.base.i18n import Msg
from kkprint.base.records import record


@record
class Paper:
    name: str
    width_mm: float
    height_mm: float

    @cached_property
    def size(self) -> tuple[float, float]:
        return (self.width_mm * mm, self.height_mm * mm)

    @classmethod
    def custom(cls, width_mm: float, height_mm: float) -> Paper:
        return cls(f"{width_mm:g}x{height_mm:g}mm", width_mm, height_mm)

    def landscape(self) -> Paper:
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


@record
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
        raise InputError(
            Msg(
                "unknown card size '{name}'; known: {names}{hint}",
                name=name,
                names=", ".join(CARD_SIZES),
                hint=did_you_mean(name, CARD_SIZES),
            )
        ) from None


class Slot(NamedTuple):
    """One card's place on a sheet: bottom-left corner and size on the paper, in points.
    A ``rotated`` card lies on its side (turned 90° counter-clockwise): its width on the paper
    is the card's height."""

    x: float
    y: float
    width: float
    height: float
    rotated: bool = False

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height


class PlacedSlot(NamedTuple):
    """A slot of a sheet layout file: the card's top-left corner on the paper (mm from the
    paper's top-left, as a designer measures) and whether it lies on its side."""

    x_mm: float
    y_mm: float
    rotated: bool = False


FOLD_CLEARANCE_MM = 1.0  # cards keep this far from a fold line, so a fold a hair off it never shows on a card


def turns_left_to_right(paper: Paper, mode: DuplexMode) -> bool:
    """Whether turning the sheet over mirrors it left to right (about its vertical axis) rather
    than top to bottom. Long-edge turns about the long edge: the vertical one on portrait paper,
    the horizontal one on landscape paper; short-edge the other way; a fold sheet folds about its
    vertical centre line. Backs printed as sheets of their own (``none``) are glued on as a
    long-edge back would print."""
    if mode is DuplexMode.FOLD:
        return True
    portrait = paper.height_mm >= paper.width_mm
    return (mode is not DuplexMode.SHORT_EDGE) == portrait


@record
class SheetLayout:
    """Cards on a page: a grid of equal cards centred on it (turned on their side when
    ``rotated``), or the slots of a sheet layout file (``placed``). The margin is reserved for
    marks and notes. A ``fold`` layout is the front half of a fold sheet: its right edge is the
    fold line, which needs no margin (the folded sheet is cut along the outer marks)."""

    paper: Paper
    card: CardSize
    gap_mm: float = 0.0
    margin_mm: float = 8.0
    bleed_mm: float = 0.0
    rotated: bool = False
    placed: tuple[PlacedSlot, ...] | None = None
    fold: bool = False

    @cached_property
    def cell_width(self) -> float:
        return self.card.height if self.rotated else self.card.width

    @cached_property
    def cell_height(self) -> float:
        return self.card.width if self.rotated else self.card.height

    @cached_property
    def pitch_x(self) -> float:
        return self.cell_width + (self.gap_mm + 2 * self.bleed_mm) * mm

    @cached_property
    def pitch_y(self) -> float:
        return self.cell_height + (self.gap_mm + 2 * self.bleed_mm) * mm

    def _fit(self, available: float, size: float, pitch: float) -> int:
        return max(0, math.floor((available - size - 2 * self.bleed_mm * mm) / pitch + 1 + 1e-9))

    @cached_property
    def usable_width(self) -> float:
        """The width the cards may use: the paper less its margins (only the outer one on a fold half)."""
        inner = FOLD_CLEARANCE_MM if self.fold else self.margin_mm
        return self.paper.width_mm * mm - (self.margin_mm + inner) * mm

    @cached_property
    def columns(self) -> int:
        return self._fit(self.usable_width, self.cell_width, self.pitch_x)

    @cached_property
    def rows(self) -> int:
        height = self.paper.height_mm * mm - 2 * self.margin_mm * mm
        return self._fit(height, self.cell_height, self.pitch_y)

    @cached_property
    def per_sheet(self) -> int:
        if self.placed is not None:
            return len(self.placed)
        return self.columns * self.rows

    def require_fit(self) -> None:
        if self.placed is not None:
            width, height = self.paper.size
            for index in range(self.per_sheet):
                slot = self.front_slot(index)
                if slot.x < -0.01 or slot.y < -0.01 or slot.right > width + 0.01 or slot.top > height + 0.01:
                    raise InputError(
                        Msg(
                            "slot {value} of the sheet layout lies outside the {width_mm:g}×{height_mm:g} mm paper",
                            value=index + 1,
                            width_mm=self.paper.width_mm,
                            height_mm=self.paper.height_mm,
                        )
                    )
            return
        if self.per_sheet == 0:
            raise InputError(
                Msg(
                    "a {width_mm:g}×{height_mm:g} mm card does not fit on {name} paper with {margin_mm:g} mm margins",
                    width_mm=self.card.width_mm,
                    height_mm=self.card.height_mm,
                    name=self.paper.name,
                    margin_mm=self.margin_mm,
                )
            )

    def _bounds(self) -> tuple[float, float, float, float]:
        slots = [self.front_slot(i) for i in range(self.per_sheet)]
        return (
            min(s.x for s in slots),
            min(s.y for s in slots),
            max(s.right for s in slots),
            max(s.top for s in slots),
        )

    @cached_property
    def grid_width(self) -> float:
        if self.placed is not None:
            left, _, right, _ = self._bounds()
            return right - left
        return self.columns * self.pitch_x - self.gap_mm * mm - 2 * self.bleed_mm * mm

    @cached_property
    def grid_height(self) -> float:
        if self.placed is not None:
            _, bottom, _, top = self._bounds()
            return top - bottom
        return self.rows * self.pitch_y - self.gap_mm * mm - 2 * self.bleed_mm * mm

    @cached_property
    def origin(self) -> tuple[float, float]:
        """Bottom-left of the cards' trim boxes taken together: a grid is centred on the page."""
        if self.placed is not None:
            left, bottom, _, _ = self._bounds()
            return left, bottom
        page_w, page_h = self.paper.size
        if self.fold:  # centred between the outer margin and the fold line
            return (self.margin_mm * mm + (self.usable_width - self.grid_width) / 2, (page_h - self.grid_height) / 2)
        return ((page_w - self.grid_width) / 2, (page_h - self.grid_height) / 2)

    def front_slot(self, index: int) -> Slot:
        """Slot of the ``index``-th card on a sheet, reading left to right, top to bottom."""
        slots = self.__dict__.setdefault("_front_slots", {})  # a sheet's slots, worked out once
        if index not in slots:
            slots[index] = self._front_slot(index)
        return slots[index]

    def _front_slot(self, index: int) -> Slot:
        if self.placed is not None:
            place = self.placed[index]
            width, height = (
                (self.card.height, self.card.width) if place.rotated else (self.card.width, self.card.height)
            )
            return Slot(place.x_mm * mm, self.paper.size[1] - place.y_mm * mm - height, width, height, place.rotated)
        column, row = index % self.columns, index // self.columns
        ox, oy = self.origin
        x = ox + column * self.pitch_x
        y = oy + (self.rows - 1 - row) * self.pitch_y
        return Slot(x, y, self.cell_width, self.cell_height, self.rotated)

    def back_slot(self, index: int, mode: DuplexMode, offset_mm: tuple[float, float] = (0.0, 0.0)) -> Slot:
        """Where the back of card ``index`` must be printed so it lands behind its front.

        The sheet turns over an edge, so the back page is the front's mirror image across the
        page's vertical axis (long edge of portrait paper) or horizontal axis (short edge; the
        long edge of landscape paper). A printer profile's offset then moves every back by the
        same amount to undo that printer's misregistration.
        """
        slots = self.__dict__.setdefault("_back_slots", {})  # worked out once, like the fronts'
        key = (index, mode, offset_mm)
        if key not in slots:
            slots[key] = self._back_slot(index, mode, offset_mm)
        return slots[key]

    def _back_slot(self, index: int, mode: DuplexMode, offset_mm: tuple[float, float]) -> Slot:
        front = self.front_slot(index)
        page_w, page_h = self.paper.size
        x, y = front.x, front.y
        if turns_left_to_right(self.paper, mode):
            x = page_w - front.x - front.width
        else:
            y = page_h - front.y - front.height
        return Slot(x + offset_mm[0] * mm, y + offset_mm[1] * mm, front.width, front.height, front.rotated)

    def back_upside_down(self, index: int, mode: DuplexMode) -> bool:
        """Whether card ``index``'s back is drawn turned 180° so that it reads upright when the
        card is turned over about its long side, as a hand turns a card (a page of a book for an
        upright card). When the sheet turns about the card's long side the back needs no turn;
        when it turns about the short side — short-edge sheets, a card lying across the turn —
        the back would come out upside down, so it is drawn turned. (A square card turns like an
        upright one.)"""
        turns = self.__dict__.setdefault("_backs_turned", {})  # worked out once, like the slots
        key = (index, mode)
        if key not in turns:
            slot = self.front_slot(index)
            long_side_upright = slot.height >= slot.width - 1e-6
            turns[key] = turns_left_to_right(self.paper, mode) != long_side_upright
        return turns[key]

    def slots(self) -> list[Slot]:
        return [self.front_slot(i) for i in range(self.per_sheet)]
