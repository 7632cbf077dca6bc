"""The deck file format. These models are the contract: ``kkprint schema`` prints them as JSON Schema.

Positions and sizes are measured from the card's top-left corner (x to the right, y downwards),
the way a designer measures a card. A bare number is millimetres; ``"0.5in"``, ``"12pt"``,
``"1cm"`` and ``"3mm"`` say their unit.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Annotated, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, model_validator

from kkprint.base.i18n import Msg
from kkprint.engine.geometry import CARD_SIZES

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
FIELD_REF = re.compile(r"\$\{[^}]*\}")
UNITS = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
_LENGTH = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+))\s*(mm|cm|in|pt)?\s*$")
ICON_NAME = r"^[A-Za-z0-9_\-:]+$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, populate_by_name=True)


def to_mm(value) -> float:
    """A length: a number of millimetres, or a string with a unit (mm, cm, in, pt)."""
    if isinstance(value, bool):
        raise ValueError(Msg("a length is a number of mm or a string like '2.5in'"))
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str) and (match := _LENGTH.match(value)):
        number = float(match.group(1)) * UNITS[match.group(2) or "mm"]
    else:
        raise ValueError(Msg("length '{value}' must be a number of mm or have a unit: mm, cm, in, pt", value=value))
    if not math.isfinite(number) or abs(number) > 2000:
        raise ValueError(Msg("length '{value}' is not a sane size (at most 2 m)", value=value))
    return number


_LENGTH_SCHEMA = {
    "anyOf": [{"type": "number"}, {"type": "string", "pattern": _LENGTH.pattern}],
    "description": "mm, or a string with a unit: '2.5in', '12pt', '1cm'",
}
Length = Annotated[float, BeforeValidator(to_mm), WithJsonSchema(_LENGTH_SCHEMA)]


def _colour(value: str | None) -> str | None:
    """A colour is ``#rrggbb``, ``none``, or contains ``${field}`` naming card fields."""
    if value is None or value == "none":
        return None
    if not (HEX.match(value) or FIELD_REF.search(value)):
        raise ValueError(Msg("colour '{value}' must look like #1a2b3c, none, or ${{field}}", value=value))
    return value


Colour = Annotated[str, AfterValidator(lambda v: _colour(v) or "#000000")]
OptionalColour = Annotated[str | None, AfterValidator(_colour)]


class Gradient(Strict):
    gradient: Literal["linear", "radial"]
    from_: Colour = Field(..., alias="from", description="Colour at the start (linear) or centre (radial)")
    to: Colour = Field(..., description="Colour at the end (linear) or rim (radial)")
    angle: float = Field(90, ge=-360, le=360, description="Linear: direction in degrees, 90 = top to bottom")


class Region(Strict):
    """What every region has: a box, a rotation, and when it is drawn."""

    x: Length = Field(0, description="Left edge from the card's left")
    y: Length = Field(0, description="Top edge from the card's top")
    w: Length = Field(..., gt=0, description="Width")
    h: Length = Field(..., gt=0, description="Height")
    rotation: float = Field(0, ge=-3600, le=3600, description="Degrees, counter-clockwise about the region's centre")
    when: str | None = Field(
        None,
        max_length=500,
        description="Draw only where this condition over the card's fields holds: type == 'elite' and cost >= 3",
    )
    cards: str | None = Field(None, max_length=500, description="Draw only on these printed card numbers: '1-10,15'")
    bleed: bool = Field(
        True,
        description="Print shop: a region touching the card's edge grows into the bleed; "
        "false keeps it inside the trim",
    )
    opacity: float = Field(1.0, ge=0, le=1, description="0 transparent … 1 opaque")


class FixedOrField(Region):
    """A region whose content is fixed (``text``, ``icon``, ``src``) or comes from a card field."""

    fixed_key: ClassVar[str]
    field: str | None = Field(None, description="Card field holding the content")
    if TYPE_CHECKING:  # every kind of region declares its own ``type`` literal
        type: str

    @model_validator(mode="after")
    def _has_content(self):
        if getattr(self, self.fixed_key) is None and not self.field:  # an empty field names no column
            raise ValueError(
                Msg("a {type} region needs {fixed_key} or field", type=self.type, fixed_key=self.fixed_key)
            )
        return self


class TextRegion(FixedOrField):
    type: Literal["text"]
    fixed_key: ClassVar[str] = "text"
    text: str | None = Field(
        None,
        description="Text; ${field} inserts a card field, {icon} an inline icon, {base|reading} a reading (ruby), "
        "<b> <i> <span color size font> <br> <ruby> style it",
    )
    field: str | None = Field(None, description="Print this card field (same as text: ${field})")
    font: str = Field(
        "regular",
        max_length=80,
        description="regular, bold, italic, bold-italic, a family of `fonts:` or FAMILY/FACE (heist/bold)",
    )
    size: float = Field(10, gt=0, le=200, description="Largest font size, pt")
    min_size: float | None = Field(
        None, gt=0, le=200, description="Smallest size before it is an error (default 60 % of size)"
    )
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    colour: Colour = "#000000"
    leading: float = Field(1.25, gt=0.5, le=3)
    max_lines: int | None = Field(None, ge=1, le=200)
    markup: bool = Field(True, description="Read <b>, <i>, <span>, <br> as markup (false prints them as written)")
    direction: Literal["horizontal", "vertical"] = Field(
        "horizontal",
        description="vertical: columns from right to left (tategaki); align then runs down the column "
        "(left = top) and valign across the columns (top = the right edge)",
    )


class IconRegion(FixedOrField):
    type: Literal["icon"]
    fixed_key: ClassVar[str] = "icon"
    icon: str | None = Field(None, description="Icon name: a deck icon, die:6, arms:cross … or ${field}")
    field: str | None = Field(None, description="Card field holding the icon name")


Point = tuple[Length, Length]


class ShapeRegion(Region):
    type: Literal["shape"]
    shape: Literal["rect", "roundrect", "ellipse", "circle", "line", "polygon", "hexagon", "star"] = "rect"
    fill: OptionalColour | Gradient = Field(None, description="#rrggbb, ${field}, or a gradient")
    stroke: OptionalColour = None
    stroke_width: float = Field(0.5, ge=0, le=20, description="pt")
    dash: Length | list[Length] | None = Field(None, description="Dash length, or [dash, gap, …]")
    radius_mm: Length = Field(2, ge=0, description="roundrect: corner radius")
    points: list[Point] | None = Field(
        None,
        min_length=2,
        max_length=500,
        description="polygon: corners; line: its two ends (from the region's top-left)",
    )
    sides: int | None = Field(
        None, ge=3, le=64, description="polygon without points: a regular polygon; star: its points"
    )
    inner: float = Field(0.5, gt=0, lt=1, description="star: inner radius as a fraction of the outer")

    @model_validator(mode="after")
    def _geometry(self):
        if self.shape == "line" and self.points is not None and len(self.points) != 2:
            raise ValueError(Msg("a line has exactly two points"))
        if self.shape == "polygon" and self.points is None and self.sides is None:
            raise ValueError(Msg("a polygon needs points or sides"))
        return self


class ImageRegion(FixedOrField):
    type: Literal["image"]
    fixed_key: ClassVar[str] = "src"
    src: str | None = Field(None, description="SVG, PNG or JPG file inside the deck's folder; may use ${field}")
    field: str | None = Field(None, description="Card field holding the file name")
    fit: Literal["contain", "cover", "stretch"] = Field(
        "contain", description="contain: whole picture, kept in proportion; cover: fills the box, cropped; stretch"
    )


AnyRegion = Annotated[TextRegion | IconRegion | ShapeRegion | ImageRegion, Field(discriminator="type")]
Layout = dict[str, AnyRegion]


class LayoutDef(Strict):
    """One of several layouts; ``extends`` names another of ``layouts`` or a template."""

    extends: str | None = Field(None, description="Another layout of this deck, or a template (poker, mini, a file)")
    regions: Layout = Field(default_factory=dict)


class CardSpec(Strict):
    size: str | None = Field(None, description=f"Preset: {', '.join(CARD_SIZES)}")
    w: Length | None = Field(None, gt=5, le=400, description="Width (instead of a preset)")
    h: Length | None = Field(None, gt=5, le=400, description="Height (instead of a preset)")
    width_mm: float | None = Field(None, gt=5, le=400, description="Same as w")
    height_mm: float | None = Field(None, gt=5, le=400, description="Same as h")
    corner_mm: Length | None = Field(None, ge=0, le=20, description="Corner radius (default: the preset's, or 3)")
    shape: Literal["rect", "circle", "hexagon"] | None = Field(
        None, description="Outline: rect (rounded by corner_mm), circle, or hexagon (flat top)"
    )

    @model_validator(mode="after")
    def _size(self) -> CardSpec:
        if self.size is not None and self.size not in CARD_SIZES:
            raise ValueError(
                Msg("unknown card size '{size}'; known: {names}", size=self.size, names=", ".join(CARD_SIZES))
            )
        width, height = self.w or self.width_mm, self.h or self.height_mm
        if self.size is None and (width is None or height is None):
            raise ValueError(Msg("give a size preset or both w and h"))
        return self


class PaperSize(Strict):
    w: Length = Field(..., ge=50, le=2000, description="Paper width")
    h: Length = Field(..., ge=50, le=2000, description="Paper height")


PaperChoice = Literal["a4", "letter", "a3"] | PaperSize


class SheetSpec(Strict):
    paper: PaperChoice = Field(default="a4", description="a4, letter, a3, or {w: 300mm, h: 450mm}")
    layout: str | None = Field(
        default=None,
        description="A sheet layout: a built-in (templates/sheets) or a YAML file of slots next to the deck",
    )
    rotate: Literal["auto", "never", "always"] = Field(
        default="auto",
        description="Turn cards on their side when more fit that way (a landscape poker deck: 9 a sheet)",
    )
    gap_mm: Length = Field(default=0, ge=0, le=30)
    margin_mm: Length = Field(default=6, ge=0, le=40)
    cut_marks: Literal["edges", "none"] = "edges"


class SlotSpec(Strict):
    x: Length = Field(..., description="The card's left edge, from the paper's left")
    y: Length = Field(..., description="The card's top edge, from the paper's top")
    rotate: Literal[0, 90] = Field(0, description="90: the card lies on its side")


class CardDims(Strict):
    w: Length = Field(..., gt=5, le=400)
    h: Length = Field(..., gt=5, le=400)


class SheetFile(Strict):
    """A sheet layout file (like a Squib sprue): where each card goes on the paper."""

    paper: PaperChoice = "a4"
    card: CardDims | None = Field(None, description="The card size the slots are made for (checked)")
    slots: list[SlotSpec] = Field(..., min_length=1, max_length=500)


class PrintSpec(Strict):
    backs: Literal["long-edge", "short-edge", "fold", "none"] = Field(
        default="long-edge", description="How backs are printed: duplex flipping on an edge, folded, or not at all"
    )
    offset_mm: tuple[float, float] | None = Field(
        default=None, description="Printer profile: shift of the backs (x, y) in mm"
    )
    scale: float = Field(default=1.0, gt=0.8, lt=1.2, description="Printer profile: scale of the backs")

    @model_validator(mode="after")
    def _offset(self):
        if self.offset_mm is not None and any(abs(v) > 20 for v in self.offset_mm):
            raise ValueError(Msg("a printer's back offset is a few millimetres, at most 20"))
        return self


class PrintShopSpec(Strict):
    bleed_mm: Length = Field(default=3, ge=0, le=10)
    cmyk: bool = Field(default=False, description="Every colour and picture in CMYK")
    icc: str | None = Field(
        default=None,
        description="The shop's CMYK ICC profile (inside the deck's folder): colours "
        "and pictures converted through it, and it becomes the PDF's output intent",
    )


class FontFamily(Strict):
    """A family's files (TTF or OTF) inside the deck's folder; only ``regular`` is required."""

    regular: str
    bold: str | None = None
    italic: str | None = None
    bold_italic: str | None = Field(None, alias="bold-italic")


class DataSpec(Strict):
    file: str = Field(..., description=".csv, .xlsx or .json inside the deck's folder")
    sheet: str | None = Field(default=None, description=".xlsx: the worksheet (default: the first)")


CardValue = str | int | float


class DeckFile(Strict):
    """One deck. Keys not listed here are errors, so typos are caught."""

    name: str = Field(..., min_length=1, max_length=80, description="Output file name (made safe)")
    extends: str | None = Field(None, description="A template in templates/ or a file next to this one")
    card: CardSpec
    sheet: SheetSpec = SheetSpec()
    print: PrintSpec = PrintSpec()
    print_shop: PrintShopSpec = PrintShopSpec()
    fonts: dict[Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]+$")], FontFamily] = Field(
        default_factory=dict,
        description="The deck's own font families: {name: {regular: F, bold: F, italic: F, bold-italic: F}}",
    )
    icons: dict[Annotated[str, Field(pattern=ICON_NAME)], str] = Field(
        default_factory=dict,
        description="The deck's own icons: {name: file.svg or file.png}; {name} in text, icon: name",
    )
    layout: Layout | None = Field(None, description="The front of every card (or the default when `layouts` is used)")
    layouts: dict[str, LayoutDef] = Field(
        default_factory=dict, description="Several fronts; a card's `layout` field picks one"
    )
    back: Layout | None = Field(None, description="The back of every card; may use the card's fields")
    backs: dict[str, Layout] = Field(default_factory=dict, description="Named backs a card picks with its `back` field")
    fields: dict[str, CardValue] = Field(
        default_factory=dict, description="Values every card has unless it sets its own"
    )
    cards: list[dict[str, CardValue]] = Field(
        default_factory=list, description="Card data; count (or copies_field): copies"
    )
    data: str | DataSpec | None = Field(None, description="Card data file: .csv (, ; or tab), .xlsx, .json")
    csv: str | None = Field(None, description="Older spelling of data: for a CSV file")
    copies_field: str = Field("count", min_length=1, max_length=80, description="The column holding copies")
    back_face_field: str | None = Field(
        None,
        description="A field naming another card (by its name field) whose front is this card's back: "
        "double-faced cards; such a card may have count 0 to exist only as a back",
    )

    @model_validator(mode="after")
    def _fronts(self):
        if self.layout is None and not self.layouts:
            raise ValueError(Msg("a deck needs a layout (or layouts)"))
        if self.data is not None and self.csv is not None:
            raise ValueError(Msg("give data or csv, not both"))
        return self

    @property
    def data_file(self) -> DataSpec | None:
        if isinstance(self.data, DataSpec):
            return self.data
        name = self.data or self.csv
        return DataSpec(file=name) if name else None
