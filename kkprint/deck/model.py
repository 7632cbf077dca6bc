"""The deck file format. These models are the contract: ``kkprint schema`` prints them as JSON Schema.

Positions and sizes are measured from the card's top-left corner (x to the right, y downwards),
the way a designer measures a card. A bare number is millimetres (points for font sizes and
strokes); ``"0.5in"``, ``"12pt"``, ``"1cm"`` and ``"3mm"`` say their unit.

Any key of a region may hold ``${…}`` (an expression over the card's fields, ``kkprint.deck.expr``).
Keys that are text anyway (``text``, ``src``, colours …) keep it and are filled in when a card is
drawn; any other key — a position, a size, an alignment — is *dynamic*: the region is checked
here with a stand-in value, remembers what was written, and is checked again, with the card's
values, for each card (:meth:`Region.for_card`).
"""

from __future__ import annotations

import math
import re
from dataclasses import MISSING, field, fields
from dataclasses import Field as DataclassField
from functools import lru_cache
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, TypeVar

from kkprint.base.definitions import Definition
from kkprint.base.errors import did_you_mean
from kkprint.base.i18n import Msg
from kkprint.engine.colours import hex_colour
from kkprint.engine.geometry import CARD_SIZES

if TYPE_CHECKING:  # at run time, put here by _checks() the first time a deck is checked
    from pydantic import Field

FIELD_REF = re.compile(r"\$\{[^}]*\}")
UNITS = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72}
_LENGTH = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+))\s*(mm|cm|in|pt)?\s*$")
ICON_NAME = r"^[A-Za-z0-9_\-:]+$"
SomeRegion = TypeVar("SomeRegion", bound="Region")


class Strict(Definition):
    """Base of the deck file's parts: each a dataclass by inheriting from it (as a game's
    definition is), so that a deck checked before is read back from the cache without pydantic
    (:func:`kkprint.deck.load.load_deck`). Unknown keys are typos, so they are errors; ``inf``
    and ``nan`` are no sizes; a key may be written by its alias (``from``) or its name."""

    __pydantic_config__: ClassVar[dict[str, Any]] = {
        "extra": "forbid",
        "allow_inf_nan": False,
        "populate_by_name": True,
    }

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        """Pydantic reads a part's annotations only after this: the first time it does,
        :func:`_checks` gives them pydantic's side."""
        _checks()
        return handler(source)


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


def to_pt(value) -> float:
    """A font size or a stroke: a number of points, or a string with a unit (pt, mm, cm, in)."""
    if isinstance(value, str):
        match = _LENGTH.match(value)
        if match is None:
            raise ValueError(
                Msg("size '{value}' must be a number of points or have a unit: pt, mm, cm, in", value=value)
            )
        return to_mm(value) / UNITS["pt"] if match.group(2) else float(match.group(1))
    return value


EXPRESSION = re.compile(r"\$\{")
_EXPRESSION_SCHEMA = {"type": "string", "pattern": EXPRESSION.pattern, "description": "an expression: ${cost * 2}"}
_LENGTH_SCHEMA = {
    "anyOf": [{"type": "number"}, {"type": "string", "pattern": _LENGTH.pattern}],
    "description": "mm, or a string with a unit: '2.5in', '12pt', '1cm'",
}
# What each kind of value is, once checked; _checks() adds how pydantic reads and checks it.
Length = float  # mm, from a number or a string with a unit
RegionLength = float  # a region's length: the same, or an expression over the card's fields
Points = float  # a font size or a stroke


def _colour(value: str | None) -> str | None:
    """A colour is ``#rrggbb``, ``none``, or contains ``${field}`` naming card fields."""
    if value is None or value == "none":
        return None
    if FIELD_REF.search(value):
        return value
    colour = hex_colour(value)
    if colour is None:
        raise ValueError(Msg("colour '{value}' must look like #1a2b3c, none, or ${{field}}", value=value))
    return colour


Colour = str  # #rrggbb or ${field}; none is black
OptionalColour = str | None  # #rrggbb or ${field}; none is None


class Gradient(Strict):
    gradient: Literal["linear", "radial"]
    from_: Annotated[Colour, Field(alias="from", description="Colour at the start (linear) or centre (radial)")]
    to: Annotated[Colour, Field(description="Colour at the end (linear) or rim (radial)")]
    angle: Annotated[float, Field(ge=-360, le=360, description="Linear: direction in degrees, 90 = top to bottom")] = 90


# Keys whose text is filled in when a card is drawn; every other key holding ${…} is dynamic.
STRING_KEYS = ("text", "src", "icon", "colour", "fill", "stroke", "font")
_NOT_DYNAMIC = frozenset({"type", "when", "cards", "field", "extends", *STRING_KEYS})
_STAND_INS = {"sides": 5}  # where a key's default would not do as a stand-in


def mentions_expression(value: Any) -> bool:
    if isinstance(value, str):
        return "${" in value
    if isinstance(value, dict):
        return any(mentions_expression(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(mentions_expression(v) for v in value)
    return False


def _dynamic_keys(data: dict) -> tuple[str, ...]:
    keys = []
    for key, value in data.items():
        if key in _NOT_DYNAMIC:
            # a gradient's colours are text; its angle (or kind) from an expression makes it dynamic
            gradient = value if key == "fill" and isinstance(value, dict) else {}
            if any(mentions_expression(v) for k, v in gradient.items() if k not in ("from", "to")):
                keys.append(key)
            continue
        if mentions_expression(value):
            keys.append(key)
    return tuple(keys)


def _stand_in(value: Any) -> Any:
    """Inside a list or a mapping (points, dash, a gradient), an expression stands as 1."""
    if isinstance(value, str):
        return 1 if "${" in value else value
    if isinstance(value, dict):
        return {k: _stand_in(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_stand_in(v) for v in value]
    return value


class Region(Strict):
    """What every region has: a box, a rotation, and when it is drawn."""

    x: Annotated[RegionLength, Field(description="Left edge from the card's left")] = 0
    y: Annotated[RegionLength, Field(description="Top edge from the card's top")] = 0
    w: Annotated[RegionLength, Field(gt=0, description="Width")]
    h: Annotated[RegionLength, Field(gt=0, description="Height")]
    rotation: Annotated[
        float, Field(ge=-3600, le=3600, description="Degrees, counter-clockwise about the region's centre")
    ] = 0
    when: Annotated[
        str | None,
        Field(
            max_length=1000,
            description="Draw only where this condition over the card's fields holds: type == 'elite' and cost >= 3",
        ),
    ] = None
    cards: Annotated[
        str | None, Field(max_length=500, description="Draw only on these printed card numbers: '1-10,15'")
    ] = None
    bleed: Annotated[
        bool,
        Field(
            description="Print shop: a region touching the card's edge grows into the bleed; "
            "false keeps it inside the trim"
        ),
    ] = True
    opacity: Annotated[float, Field(ge=0, le=1, description="0 transparent … 1 opaque")] = 1.0
    extends: Annotated[
        str | None,
        Field(max_length=80, description="Another region of this layout to start from (its keys, overridden by these)"),
    ] = None
    dx: Annotated[RegionLength, Field(description="Shift to the right of where x (or the extended region) puts it")] = 0
    dy: Annotated[RegionLength, Field(description="Shift downwards of where y (or the extended region) puts it")] = 0

    # what was written, when a key holds an expression: the region is checked again per card
    # what was written, when a key holds an expression (set on the region once it is checked)
    _dynamic: ClassVar[tuple[str, ...]] = ()
    _written: ClassVar[dict] = {}

    @classmethod
    def _expressions(cls, data: Any, handler: Any) -> Any:
        """Pydantic checks a region with stand-ins for its expressions (a wrap validator, made
        one by :func:`_checks`)."""
        dynamic = _dynamic_keys(data) if isinstance(data, dict) else ()
        if not dynamic:
            return handler(data)
        stand_ins = {}
        known = {key.name: key for key in fields(cls)}
        for key in dynamic:
            value = data[key]
            if not isinstance(value, str) or key not in known:
                stand_ins[key] = _stand_in(value)
            elif key in _STAND_INS:
                stand_ins[key] = _STAND_INS[key]
            else:
                stand_ins[key] = _default(known[key])
        region = handler({**data, **stand_ins})
        object.__setattr__(region, "_dynamic", dynamic)
        object.__setattr__(region, "_written", dict(data))
        return region

    def __post_init__(self) -> None:
        if self.dx or self.dy:
            for key, value in (("x", self.x + self.dx), ("y", self.y + self.dy), ("dx", 0.0), ("dy", 0.0)):
                object.__setattr__(self, key, value)

    @property
    def dynamic(self) -> tuple[str, ...]:
        """The keys (besides text ones) whose values come from each card."""
        return self._dynamic

    def for_card(self: SomeRegion, values: dict[str, Any]) -> SomeRegion:
        """This region with its dynamic keys set to one card's ``values`` and checked again
        (a pydantic ValidationError says which key is wrong and why)."""
        from kkprint.base.models import adapter

        return adapter(type(self)).validate_python({**self._written, **values})  # type: ignore[arg-type]  # (a class: hashable)

    def written(self, key: str) -> Any:
        """A dynamic key as it was written."""
        return self._written[key]


class FixedOrField(Region):
    """A region whose content is fixed (``text``, ``icon``, ``src``) or comes from a card field."""

    fixed_key: ClassVar[str]
    field: Annotated[str | None, Field(description="Card field holding the content")] = None
    if TYPE_CHECKING:  # every kind of region declares its own ``type`` literal
        type: str

    def __post_init__(self) -> None:
        super().__post_init__()
        if getattr(self, self.fixed_key) is None and not self.field:  # an empty field names no column
            raise ValueError(
                Msg("a {type} region needs {fixed_key} or field", type=self.type, fixed_key=self.fixed_key)
            )
        if getattr(self, self.fixed_key) is not None and self.field is not None:  # (one would be ignored)
            raise ValueError(
                Msg(
                    "a {type} region shows {fixed_key} or field, not both",
                    type=self.type,
                    fixed_key=self.fixed_key,
                )
            )


class TextRegion(FixedOrField):
    type: Literal["text"]
    fixed_key: ClassVar[str] = "text"
    text: Annotated[
        str | None,
        Field(
            description="Text; ${field} inserts a card field, {icon} an inline icon, {base|reading} a reading (ruby), "
            "<b> <i> <span color size font> <br> <ruby> style it"
        ),
    ] = None
    field: Annotated[str | None, Field(description="Print this card field (same as text: ${field})")] = None
    font: Annotated[
        str,
        Field(
            max_length=80,
            description="regular, bold, italic, bold-italic, a family of `fonts:` or FAMILY/FACE (heist/bold)",
        ),
    ] = "regular"
    size: Annotated[Points, Field(gt=0, le=200, description="Largest font size, pt (or with a unit: '4mm')")] = 10
    min_size: Annotated[
        Points | None, Field(gt=0, le=200, description="Smallest size before it is an error (default 60 % of size)")
    ] = None
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    colour: Colour = "#000000"
    leading: Annotated[float, Field(gt=0.5, le=3)] = 1.25
    max_lines: Annotated[int | None, Field(ge=1, le=200)] = None
    markup: Annotated[
        bool, Field(description="Read <b>, <i>, <span>, <br> as markup (false prints them as written)")
    ] = True
    min_readable: Annotated[
        float | None,
        Field(gt=0, le=200, description="Preflight: this region's smallest readable size, pt (default: the deck's)"),
    ] = None
    direction: Annotated[
        Literal["horizontal", "vertical"],
        Field(
            description="vertical: columns from right to left (tategaki); align then runs down the column "
            "(left = top) and valign across the columns (top = the right edge)"
        ),
    ] = "horizontal"


class IconRegion(FixedOrField):
    type: Literal["icon"]
    fixed_key: ClassVar[str] = "icon"
    icon: Annotated[str | None, Field(description="Icon name: a deck icon, die:6, arms:cross … or ${field}")] = None
    field: Annotated[str | None, Field(description="Card field holding the icon name")] = None


Point = tuple[RegionLength, RegionLength]


class ShapeRegion(Region):
    type: Literal["shape"]
    shape: Literal["rect", "roundrect", "ellipse", "circle", "line", "polygon", "hexagon", "star"] = "rect"
    fill: Annotated[OptionalColour | Gradient, Field(description="#rrggbb, ${field}, or a gradient")] = None
    stroke: OptionalColour = None
    stroke_width: Annotated[Points, Field(ge=0, le=20, description="pt")] = 0.5
    dash: Annotated[
        RegionLength | Annotated[list[RegionLength], Field(max_length=50)] | None,
        Field(description="Dash length, or [dash, gap, …]"),
    ] = None
    radius_mm: Annotated[RegionLength, Field(ge=0, description="roundrect: corner radius")] = 2
    radius: Annotated[RegionLength | None, Field(ge=0, description="Same as radius_mm")] = None
    points: Annotated[
        list[Point] | None,
        Field(
            min_length=2,
            max_length=500,
            description="polygon: corners; line: its two ends (from the region's top-left)",
        ),
    ] = None
    sides: Annotated[
        int | None, Field(ge=3, le=64, description="polygon without points: a regular polygon; star: its points")
    ] = None
    inner: Annotated[float, Field(gt=0, lt=1, description="star: inner radius as a fraction of the outer")] = 0.5

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.radius is not None:
            object.__setattr__(self, "radius_mm", self.radius)
            object.__setattr__(self, "radius", None)
        if self.shape == "line" and self.points is not None and len(self.points) != 2:
            raise ValueError(Msg("a line has exactly two points"))
        if self.shape == "polygon" and self.points is None and self.sides is None:
            raise ValueError(Msg("a polygon needs points or sides"))


class ImageRegion(FixedOrField):
    type: Literal["image"]
    fixed_key: ClassVar[str] = "src"
    src: Annotated[str | None, Field(description="SVG, PNG or JPG file inside the deck's folder; may use ${field}")] = (
        None
    )
    field: Annotated[str | None, Field(description="Card field holding the file name")] = None
    fit: Annotated[
        Literal["contain", "cover", "stretch"],
        Field(description="contain: whole picture, kept in proportion; cover: fills the box, cropped; stretch"),
    ] = "contain"


AnyRegion = TextRegion | IconRegion | ShapeRegion | ImageRegion  # told apart by their type
Layout = dict[str, AnyRegion]


class LayoutDef(Strict):
    """One of several layouts; ``extends`` names another of ``layouts`` or a template."""

    extends: Annotated[
        str | None, Field(description="Another layout of this deck, or a template (poker, mini, a file)")
    ] = None
    regions: Layout = field(default_factory=dict)


class CardSpec(Strict):
    size: Annotated[str | None, Field(description=f"Preset: {', '.join(CARD_SIZES)}")] = None
    w: Annotated[Length | None, Field(gt=5, le=400, description="Width (instead of a preset)")] = None
    h: Annotated[Length | None, Field(gt=5, le=400, description="Height (instead of a preset)")] = None
    width_mm: Annotated[float | None, Field(gt=5, le=400, description="Same as w")] = None
    height_mm: Annotated[float | None, Field(gt=5, le=400, description="Same as h")] = None
    corner_mm: Annotated[
        Length | None, Field(ge=0, le=20, description="Corner radius (default: the preset's, or 3)")
    ] = None
    shape: Annotated[
        Literal["rect", "circle", "hexagon"] | None,
        Field(description="Outline: rect (rounded by corner_mm), circle, or hexagon (flat top)"),
    ] = None

    def __post_init__(self) -> None:
        if self.size is not None and self.size not in CARD_SIZES:
            raise ValueError(
                Msg(
                    "unknown card size '{size}'; known: {names}{hint}",
                    size=self.size,
                    names=", ".join(CARD_SIZES),
                    hint=did_you_mean(self.size, CARD_SIZES),
                )
            )
        width, height = self.w or self.width_mm, self.h or self.height_mm
        if self.size is None and (width is None or height is None):
            raise ValueError(Msg("give a size preset or both w and h"))


class PaperSize(Strict):
    w: Annotated[Length, Field(description="Paper width, 50 mm to 2 m")]
    h: Annotated[Length, Field(description="Paper height, 50 mm to 2 m")]

    def __post_init__(self) -> None:  # (said in mm: pydantic's bound would say "at least 50" of "1in")
        if not (50 <= self.w <= 2000 and 50 <= self.h <= 2000):
            raise ValueError(
                Msg(
                    "a paper of its own size is 50 mm to 2 m a side, not {w:g} × {h:g} mm",
                    w=round(self.w, 1),
                    h=round(self.h, 1),
                )
            )


PaperChoice = Literal["a4", "letter", "a3"] | PaperSize


class SheetSpec(Strict):
    paper: Annotated[PaperChoice, Field(description="a4, letter, a3, or {w: 300mm, h: 450mm}")] = "a4"
    layout: Annotated[
        str | None,
        Field(description="A sheet layout: a built-in (templates/sheets) or a YAML file of slots next to the deck"),
    ] = None
    rotate: Annotated[
        Literal["auto", "never", "always"],
        Field(description="Turn cards on their side when more fit that way (a landscape poker deck: 9 a sheet)"),
    ] = "auto"
    gap_mm: Annotated[Length, Field(ge=0, le=30)] = 0
    margin_mm: Annotated[Length, Field(ge=0, le=40)] = 6
    cut_marks: Literal["edges", "none"] = "edges"


class SlotSpec(Strict):
    x: Annotated[Length, Field(description="The card's left edge, from the paper's left")]
    y: Annotated[Length, Field(description="The card's top edge, from the paper's top")]
    rotate: Annotated[Literal[0, 90], Field(description="90: the card lies on its side")] = 0


class CardDims(Strict):
    w: Annotated[Length, Field(gt=5, le=400)]
    h: Annotated[Length, Field(gt=5, le=400)]


class SheetFile(Strict):
    """A sheet layout file (like a Squib sprue): where each card goes on the paper."""

    paper: PaperChoice = "a4"
    card: Annotated[CardDims | None, Field(description="The card size the slots are made for (checked)")] = None
    slots: Annotated[list[SlotSpec], Field(min_length=1, max_length=500)]


class PrintSpec(Strict):
    backs: Annotated[
        Literal["long-edge", "short-edge", "fold", "none"],
        Field(description="How backs are printed: duplex flipping on an edge, folded, or not at all"),
    ] = "long-edge"
    content_backs: Annotated[
        bool,
        Field(
            description="The backs carry content (rules, a second side): printed even when backs are none, "
            "as sheets of their own to glue or sleeve behind the fronts"
        ),
    ] = False
    offset_mm: Annotated[
        tuple[float, float] | None, Field(description="Printer profile: shift of the backs (x, y) in mm")
    ] = None
    scale: Annotated[float, Field(gt=0.8, lt=1.2, description="Printer profile: scale of the backs")] = 1.0

    def __post_init__(self) -> None:
        if self.offset_mm is not None and any(abs(v) > 20 for v in self.offset_mm):
            raise ValueError(Msg("a printer's back offset is a few millimetres, at most 20"))


class PrintShopSpec(Strict):
    bleed_mm: Annotated[Length, Field(ge=0, le=10)] = 3
    cmyk: Annotated[bool, Field(description="Every colour and picture in CMYK")] = False
    icc: Annotated[
        str | None,
        Field(
            description="The shop's CMYK ICC profile (inside the deck's folder): colours "
            "and pictures converted through it, and it becomes the PDF's output intent"
        ),
    ] = None


class FontFamily(Strict):
    """A family's files (TTF or OTF) inside the deck's folder; only ``regular`` is required."""

    regular: str
    bold: str | None = None
    italic: str | None = None
    bold_italic: Annotated[str | None, Field(alias="bold-italic")] = None


class DataSpec(Strict):
    file: Annotated[str, Field(description=".csv, .xlsx or .json inside the deck's folder")]
    sheet: Annotated[str | None, Field(description=".xlsx: the worksheet (default: the first)")] = None


CardValue = str | int | float


class IconSpec(Strict):
    """An icon with its own size and nudge, for icons whose art is drawn smaller or lower than
    the text around it."""

    src: Annotated[str, Field(description="SVG or PNG file inside the deck's folder")]
    scale: Annotated[
        float | None,
        Field(
            gt=0,
            le=5,
            description="Inline: the icon's size as a multiple of the text size (default 0.82); "
            "in an icon region: of the region's box (default 1)",
        ),
    ] = None
    dy: Annotated[float, Field(ge=-50, le=50, description="Nudge downwards, in points (negative: upwards)")] = 0


def _text_keys(value: Any) -> Any:
    """A table's keys as text, as a spreadsheet's column of keys would read (1 → "1")."""
    if isinstance(value, dict):
        return {(k if isinstance(k, str) else _key_text(k)): v for k, v in value.items()}
    return value


def _key_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


TableRow = dict[str, CardValue | None]  # keys as text
InlineTable = dict[str, CardValue | TableRow | None]  # keys as text


class DeckFile(Strict):
    """One deck. Keys not listed here are errors, so typos are caught."""

    name: Annotated[str, Field(min_length=1, max_length=80, description="Output file name (made safe)")]
    extends: Annotated[str | None, Field(description="A template in templates/ or a file next to this one")] = None
    card: CardSpec
    sheet: SheetSpec = SheetSpec()
    print: PrintSpec = PrintSpec()
    print_shop: PrintShopSpec = PrintShopSpec()
    fonts: Annotated[
        dict[Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]+$")], FontFamily],
        Field(description="The deck's own font families: {name: {regular: F, bold: F, italic: F, bold-italic: F}}"),
    ] = field(default_factory=dict)
    icons: Annotated[
        dict[Annotated[str, Field(pattern=ICON_NAME)], str | IconSpec],
        Field(
            description="The deck's own icons: {name: file.svg or file.png} or {name: {src: FILE, scale: 1.4, dy: -0.5}}; "
            "{name} in text, icon: name"
        ),
    ] = field(default_factory=dict)
    tables: Annotated[
        dict[
            Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]+$")],
            Annotated[str | DataSpec | InlineTable, Field(union_mode="left_to_right")],  # {file: …} is a file
        ],
        Field(
            description="Look-up tables for lookup(TABLE, KEY, COLUMN): {key: value} or {key: {column: value}} "
            "inline, or a .csv/.xlsx/.json file inside the deck's folder whose first column is the key"
        ),
    ] = field(default_factory=dict)
    version: Annotated[
        str | int | float | None, Field(description="The deck's version, printed with ${deck.version}")
    ] = None
    layout: Annotated[
        Layout | None, Field(description="The front of every card (or the default when `layouts` is used)")
    ] = None
    layouts: Annotated[dict[str, LayoutDef], Field(description="Several fronts; a card's `layout` field picks one")] = (
        field(default_factory=dict)
    )
    back: Annotated[Layout | None, Field(description="The back of every card; may use the card's fields")] = None
    backs: Annotated[dict[str, Layout], Field(description="Named backs a card picks with its `back` field")] = field(
        default_factory=dict
    )
    fields: Annotated[dict[str, CardValue], Field(description="Values every card has unless it sets its own")] = field(
        default_factory=dict
    )
    cards: Annotated[list[dict[str, CardValue]], Field(description="Card data; count (or copies_field): copies")] = (
        field(default_factory=list)
    )
    data: Annotated[str | DataSpec | None, Field(description="Card data file: .csv (, ; or tab), .xlsx, .json")] = None
    csv: Annotated[str | None, Field(description="Older spelling of data: for a CSV file")] = None
    copies_field: Annotated[str, Field(min_length=1, max_length=80, description="The column holding copies")] = "count"
    min_readable: Annotated[
        float,
        Field(
            gt=0,
            le=200,
            description="Preflight: text set smaller than this, pt (after shrinking to fit), is warned about",
        ),
    ] = 6
    back_face_field: Annotated[
        str | None,
        Field(
            description="A field naming another card (by its name field) whose front is this card's back: "
            "double-faced cards; such a card may have count 0 to exist only as a back"
        ),
    ] = None

    def __post_init__(self) -> None:
        if self.layout is None and not self.layouts:
            raise ValueError(Msg("a deck needs a layout (or layouts)"))
        if self.data is not None and self.csv is not None:
            raise ValueError(Msg("give data or csv, not both"))

    @property
    def icon_specs(self) -> dict[str, IconSpec]:
        """Every deck icon with its size and nudge (a bare file name has neither)."""
        return {
            name: IconSpec(src=icon, scale=None, dy=0) if isinstance(icon, str) else icon
            for name, icon in self.icons.items()
        }

    @property
    def version_text(self) -> str:
        if self.version is None:
            return ""
        return self.version if isinstance(self.version, str) else str(self.version)

    @property
    def data_file(self) -> DataSpec | None:
        if isinstance(self.data, DataSpec):
            return self.data
        name = self.data or self.csv
        return DataSpec(file=name) if name else None


# --- pydantic's side ------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _checks() -> None:
    """How pydantic reads and checks a length, a size, a colour, a region's type and a table's
    keys. The classes' annotations name these, and pydantic reads the annotations only when it
    first checks a deck; made then, and not when this module loads, a build whose deck was
    checked before never imports pydantic. A region's stand-ins for its expressions are pydantic's
    wrap validator too (made one here: a class's own schema hook would be kept only where pydantic
    first meets the class, and a deck names each kind of region in several places)."""
    from pydantic import AfterValidator, BeforeValidator, Field, WithJsonSchema, model_validator

    Region._expressions = model_validator(mode="wrap")(Region.__dict__["_expressions"])  # type: ignore[method-assign,assignment]

    region_length = Annotated[
        float,
        BeforeValidator(to_mm),
        WithJsonSchema({**_LENGTH_SCHEMA, "anyOf": [*_LENGTH_SCHEMA["anyOf"], _EXPRESSION_SCHEMA]}),
    ]
    any_region = Annotated[TextRegion | IconRegion | ShapeRegion | ImageRegion, Field(discriminator="type")]
    table_row = Annotated[dict[str, CardValue | None], BeforeValidator(_text_keys)]
    globals().update(
        Field=Field,
        Length=Annotated[float, BeforeValidator(to_mm), WithJsonSchema(_LENGTH_SCHEMA)],
        RegionLength=region_length,
        Points=Annotated[float, BeforeValidator(to_pt)],
        Colour=Annotated[str, AfterValidator(lambda v: _colour(v) or "#000000")],
        OptionalColour=Annotated[str | None, AfterValidator(_colour)],
        Point=tuple[region_length, region_length],
        AnyRegion=any_region,
        Layout=dict[str, any_region],
        TableRow=table_row,
        InlineTable=Annotated[dict[str, CardValue | table_row | None], BeforeValidator(_text_keys)],
    )


def deck_schema() -> dict[str, Any]:
    """The schema of a deck file as its author writes it, for editors (``kkprint schema``):
    before templates and ``extends`` are applied, so a region may override a few keys of
    the template's, any region key may hold ``${…}``, and a deck that extends a template
    need not repeat its name and card."""
    from kkprint.base.models import adapter

    return editor_schema(adapter(DeckFile).json_schema())


def _default(key: DataclassField) -> Any:
    """A key's default as its stand-in; 1 when it has none."""
    if key.default is not MISSING:
        return key.default
    return 1 if key.default_factory is MISSING else key.default_factory()


# --- the schema an editor checks a deck file with -----------------------------------------------

REGION_TYPES = {"text": "TextRegion", "icon": "IconRegion", "shape": "ShapeRegion", "image": "ImageRegion"}


def _allows_expression(schema: dict) -> bool:
    free_text = schema.get("type") == "string" and not {"pattern", "enum", "const"} & set(schema)
    return free_text or _EXPRESSION_SCHEMA in schema.get("anyOf", [])


def _with_expressions(properties: dict, fixed: frozenset[str] = frozenset()) -> None:
    for key, value in properties.items():
        if key not in fixed and not _allows_expression(value):
            properties[key] = {"anyOf": [value, _EXPRESSION_SCHEMA], "description": value.get("description", "")}


def editor_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Pydantic's schema of the resolved deck, widened to every file that resolves to one."""
    _bounds_in_json_schema_words(schema)
    defs = schema["$defs"]
    ref = "#/$defs/{}".format
    every_key: dict[str, Any] = {}
    typed = []
    _with_expressions(defs["Gradient"]["properties"])
    for name in REGION_TYPES.values():
        keys = defs[name]["properties"]
        _with_expressions(keys, _NOT_DYNAMIC)
        # every key may be left out (the template or the extended region has it) or null (removed)
        defs[f"{name}Keys"] = {
            "type": "object",
            "additionalProperties": False,
            "properties": {key: {"anyOf": [value, {"type": "null"}]} for key, value in keys.items()},
            "required": ["type"],
        }
        typed.append({"$ref": ref(f"{name}Keys")})
        for key, value in keys.items():
            if key != "type":
                every_key.setdefault(key, {"anyOf": [value, {"type": "null"}]})
    defs["RegionOverride"] = {
        "type": "object",
        "additionalProperties": False,
        "properties": every_key,
        "description": "Keys changing a region of the template (or of the region it extends)",
    }
    defs["RegionEntry"] = {
        "anyOf": [{"oneOf": typed}, {"$ref": ref("RegionOverride")}, {"type": "null"}],
        "description": "A region: text, icon, shape or image; a few keys overriding the template's; null removes it",
    }
    defs["Regions"] = {
        "type": "object",
        "properties": {"extends": {"type": "string", "description": "A front layout to start from"}},
        "additionalProperties": {"$ref": ref("RegionEntry")},
    }
    defs["LayoutDef"]["properties"]["regions"] = {"$ref": ref("Regions")}
    face = {"anyOf": [{"$ref": ref("Regions")}, {"$ref": ref("LayoutDef")}, {"type": "null"}]}
    properties = schema["properties"]
    properties["layout"] = {"anyOf": [{"$ref": ref("Regions")}, {"type": "null"}], **_about(properties["layout"])}
    properties["back"] = {**face, **_about(properties["back"])}
    properties["backs"] = {"type": "object", "additionalProperties": face, **_about(properties["backs"])}
    schema["required"] = [key for key in schema.get("required", []) if key not in ("name", "card")]
    schema["anyOf"] = [{"required": ["extends"]}, {"required": ["name", "card"]}]
    return schema


_BOUNDS = {"gt": "exclusiveMinimum", "ge": "minimum", "lt": "exclusiveMaximum", "le": "maximum"}


def _bounds_in_json_schema_words(schema: Any) -> None:
    """Pydantic leaves a dataclass's bounds on a value read by a function (a size in pt, from
    "4mm") in its own words; an editor knows only JSON Schema's."""
    if isinstance(schema, dict):
        if schema.get("type") in ("number", "integer"):
            for bound, word in _BOUNDS.items():
                if bound in schema:
                    schema[word] = schema.pop(bound)
        for value in schema.values():
            _bounds_in_json_schema_words(value)
    elif isinstance(schema, list):
        for value in schema:
            _bounds_in_json_schema_words(value)


def _about(schema: dict) -> dict:
    return {key: schema[key] for key in ("description", "title", "default") if key in schema}
