"""The deck file format. These models are the contract: ``kkprint schema`` prints them as JSON Schema.

Positions and sizes are millimetres measured from the card's top-left corner (x to the right,
y downwards), the way a designer measures a card.
"""

from __future__ import annotations

import re
from typing import Annotated, ClassVar, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from kkprint.engine.geometry import CARD_SIZES

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


FIELD_REF = re.compile(r"^\$\{[^}]+\}$")


def _colour(value: str | None) -> str | None:
    """A colour is ``#rrggbb``, ``none``, or ``${field}`` naming a card field that holds one."""
    if value is None or value == "none":
        return None
    if not (HEX.match(value) or FIELD_REF.match(value)):
        raise ValueError(f"colour {value!r} must look like #1a2b3c, none, or ${{field}}")
    return value


Colour = Annotated[str, AfterValidator(lambda v: _colour(v) or "#000000")]
OptionalColour = Annotated[str | None, AfterValidator(_colour)]


class Box(Strict):
    x: float = Field(0, description="Left edge, mm from the card's left")
    y: float = Field(0, description="Top edge, mm from the card's top")
    w: float = Field(..., gt=0, description="Width in mm")
    h: float = Field(..., gt=0, description="Height in mm")
    rotation: float = Field(0, description="Degrees, counter-clockwise about the region's centre")


class FixedOrField(Box):
    """A region whose content is fixed (``text``, ``icon``, ``src``) or comes from a card field."""

    fixed_key: ClassVar[str]
    field: str | None = Field(None, description="Card field holding the content")

    @model_validator(mode="after")
    def _has_content(self):
        if getattr(self, self.fixed_key) is None and self.field is None:
            raise ValueError(f"a {self.type} region needs {self.fixed_key} or field")
        return self


class TextRegion(FixedOrField):
    type: Literal["text"]
    fixed_key: ClassVar[str] = "text"
    text: str | None = Field(None, description="Text; ${field} inserts a card field, {icon} an inline icon")
    field: str | None = Field(None, description="Print this card field (same as text: ${field})")
    font: Literal["regular", "bold"] = "regular"
    size: float = Field(10, gt=0, le=200, description="Largest font size, pt")
    min_size: float | None = Field(None, gt=0, description="Smallest size before it is an error (default 60 % of size)")
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    colour: Colour = "#000000"
    leading: float = Field(1.25, gt=0.5, le=3)
    max_lines: int | None = Field(None, ge=1)


class IconRegion(FixedOrField):
    type: Literal["icon"]
    fixed_key: ClassVar[str] = "icon"
    icon: str | None = Field(None, description="Icon name, e.g. die:6 or arms:cross")
    field: str | None = Field(None, description="Card field holding the icon name")


class ShapeRegion(Box):
    type: Literal["shape"]
    shape: Literal["rect", "roundrect", "ellipse", "line"] = "rect"
    fill: OptionalColour = None
    stroke: OptionalColour = None
    stroke_width: float = Field(0.5, ge=0, le=20, description="pt")
    radius_mm: float = Field(2, ge=0)


class ImageRegion(FixedOrField):
    type: Literal["image"]
    fixed_key: ClassVar[str] = "src"
    src: str | None = Field(None, description="SVG or PNG file, relative to the deck file")
    field: str | None = Field(None, description="Card field holding the file name")
    fit: Literal["contain", "stretch"] = "contain"


Region = Annotated[Union[TextRegion, IconRegion, ShapeRegion, ImageRegion], Field(discriminator="type")]
Layout = dict[str, Region]


class CardSpec(Strict):
    size: str | None = Field(None, description=f"Preset: {', '.join(CARD_SIZES)}")
    width_mm: float | None = Field(None, gt=5, le=400)
    height_mm: float | None = Field(None, gt=5, le=400)
    corner_mm: float | None = Field(None, ge=0, le=20, description="Corner radius (default: the preset's, or 3)")

    @model_validator(mode="after")
    def _size(self) -> "CardSpec":
        if self.size is not None and self.size not in CARD_SIZES:
            raise ValueError(f"unknown card size {self.size!r}; known: {', '.join(CARD_SIZES)}")
        if self.size is None and (self.width_mm is None or self.height_mm is None):
            raise ValueError("give a size preset or both width_mm and height_mm")
        return self


class SheetSpec(Strict):
    paper: Literal["a4", "letter", "a3"] = "a4"
    gap_mm: float = Field(0, ge=0, le=30)
    margin_mm: float = Field(6, ge=0, le=40)
    cut_marks: Literal["edges", "none"] = "edges"


class PrintSpec(Strict):
    backs: Literal["long-edge", "short-edge", "fold", "none"] = Field(
        "long-edge", description="How backs are printed: duplex flipping on an edge, folded, or not at all")
    offset_mm: tuple[float, float] | None = Field(None, description="Printer profile: shift of the backs (x, y) in mm")
    scale: float = Field(1.0, gt=0.8, lt=1.2, description="Printer profile: scale of the backs")


class PrintShopSpec(Strict):
    bleed_mm: float = Field(3, ge=0, le=10)
    cmyk: bool = False


class DeckFile(Strict):
    """One deck. Keys not listed here are errors, so typos are caught."""

    name: str = Field(..., min_length=1, max_length=80, description="Output file name (made safe)")
    extends: str | None = Field(None, description="A template in templates/ or a file next to this one")
    card: CardSpec
    sheet: SheetSpec = SheetSpec()
    print: PrintSpec = PrintSpec()
    print_shop: PrintShopSpec = PrintShopSpec()
    layout: Layout
    back: Layout | None = Field(None, description="The back of every card")
    backs: dict[str, Layout] = Field(default_factory=dict, description="Named backs a card picks with its `back` field")
    fields: dict[str, str] = Field(default_factory=dict,
                                   description="Values every card has unless it sets its own; backs see only these")
    cards: list[dict[str, Union[str, int, float]]] = Field(default_factory=list, description="Card data; count: copies")
    csv: str | None = Field(None, description="CSV file with one row per card, a column per field, optional count")
    back_face_field: str | None = Field(
        None, description="A field naming another card (by its name field) whose front is this card's back: "
                          "double-faced cards; such a card may have count 0 to exist only as a back")

