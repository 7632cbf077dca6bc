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
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    WithJsonSchema,
    model_validator,
)

from kkprint.base.errors import did_you_mean
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
Length = Annotated[float, BeforeValidator(to_mm), WithJsonSchema(_LENGTH_SCHEMA)]
# a region's lengths: each may be an expression over the card's fields
RegionLength = Annotated[
    float,
    BeforeValidator(to_mm),
    WithJsonSchema({**_LENGTH_SCHEMA, "anyOf": [*_LENGTH_SCHEMA["anyOf"], _EXPRESSION_SCHEMA]}),
]
Points = Annotated[float, BeforeValidator(to_pt)]


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

    x: RegionLength = Field(0, description="Left edge from the card's left")
    y: RegionLength = Field(0, description="Top edge from the card's top")
    w: RegionLength = Field(..., gt=0, description="Width")
    h: RegionLength = Field(..., gt=0, description="Height")
    rotation: float = Field(0, ge=-3600, le=3600, description="Degrees, counter-clockwise about the region's centre")
    when: str | None = Field(
        None,
        max_length=1000,
        description="Draw only where this condition over the card's fields holds: type == 'elite' and cost >= 3",
    )
    cards: str | None = Field(None, max_length=500, description="Draw only on these printed card numbers: '1-10,15'")
    bleed: bool = Field(
        True,
        description="Print shop: a region touching the card's edge grows into the bleed; "
        "false keeps it inside the trim",
    )
    opacity: float = Field(1.0, ge=0, le=1, description="0 transparent … 1 opaque")
    extends: str | None = Field(
        None, max_length=80, description="Another region of this layout to start from (its keys, overridden by these)"
    )
    dx: RegionLength = Field(0, description="Shift to the right of where x (or the extended region) puts it")
    dy: RegionLength = Field(0, description="Shift downwards of where y (or the extended region) puts it")

    # what was written, when a key holds an expression: the region is checked again per card
    _dynamic: tuple[str, ...] = PrivateAttr(default=())
    _written: dict = PrivateAttr(default_factory=dict)

    @model_validator(mode="wrap")
    @classmethod
    def _expressions(cls, data: Any, handler):
        dynamic = _dynamic_keys(data) if isinstance(data, dict) else ()
        if not dynamic:
            return handler(data)
        stand_ins = {}
        for key in dynamic:
            value = data[key]
            known = cls.model_fields.get(key)
            if not isinstance(value, str) or known is None:
                stand_ins[key] = _stand_in(value)
            elif key in _STAND_INS:
                stand_ins[key] = _STAND_INS[key]
            else:
                stand_ins[key] = 1 if known.is_required() else known.get_default(call_default_factory=True)
        region = handler({**data, **stand_ins})
        region._dynamic, region._written = dynamic, dict(data)
        return region

    @model_validator(mode="after")
    def _shifted(self):
        if self.dx or self.dy:
            self.x, self.y, self.dx, self.dy = self.x + self.dx, self.y + self.dy, 0.0, 0.0
        return self

    @property
    def dynamic(self) -> tuple[str, ...]:
        """The keys (besides text ones) whose values come from each card."""
        return self._dynamic

    def for_card(self, values: dict[str, Any]):
        """This region with its dynamic keys set to one card's ``values`` and checked again
        (a pydantic ValidationError says which key is wrong and why)."""
        return type(self).model_validate({**self._written, **values})

    def written(self, key: str) -> Any:
        """A dynamic key as it was written."""
        return self._written[key]


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
    size: Points = Field(10, gt=0, le=200, description="Largest font size, pt (or with a unit: '4mm')")
    min_size: Points | None = Field(
        None, gt=0, le=200, description="Smallest size before it is an error (default 60 % of size)"
    )
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    colour: Colour = "#000000"
    leading: float = Field(1.25, gt=0.5, le=3)
    max_lines: int | None = Field(None, ge=1, le=200)
    markup: bool = Field(True, description="Read <b>, <i>, <span>, <br> as markup (false prints them as written)")
    min_readable: float | None = Field(
        None, gt=0, le=200, description="Preflight: this region's smallest readable size, pt (default: the deck's)"
    )
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


Point = tuple[RegionLength, RegionLength]


class ShapeRegion(Region):
    type: Literal["shape"]
    shape: Literal["rect", "roundrect", "ellipse", "circle", "line", "polygon", "hexagon", "star"] = "rect"
    fill: OptionalColour | Gradient = Field(None, description="#rrggbb, ${field}, or a gradient")
    stroke: OptionalColour = None
    stroke_width: Points = Field(0.5, ge=0, le=20, description="pt")
    dash: RegionLength | Annotated[list[RegionLength], Field(max_length=50)] | None = Field(
        None, description="Dash length, or [dash, gap, …]"
    )
    radius_mm: RegionLength = Field(2, ge=0, description="roundrect: corner radius")
    radius: RegionLength | None = Field(None, ge=0, description="Same as radius_mm")
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
        if self.radius is not None:
            self.radius_mm, self.radius = self.radius, None
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
    content_backs: bool = Field(
        default=False,
        description="The backs carry content (rules, a second side): printed even when backs are none, "
        "as sheets of their own to glue or sleeve behind the fronts",
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


class IconSpec(Strict):
    """An icon with its own size and nudge, for icons whose art is drawn smaller or lower than
    the text around it."""

    src: str = Field(..., description="SVG or PNG file inside the deck's folder")
    scale: float | None = Field(
        None,
        gt=0,
        le=5,
        description="Inline: the icon's size as a multiple of the text size (default 0.82); "
        "in an icon region: of the region's box (default 1)",
    )
    dy: float = Field(0, ge=-50, le=50, description="Nudge downwards, in points (negative: upwards)")


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


TableRow = Annotated[dict[str, CardValue | None], BeforeValidator(_text_keys)]
InlineTable = Annotated[dict[str, CardValue | TableRow | None], BeforeValidator(_text_keys)]


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
    icons: dict[Annotated[str, Field(pattern=ICON_NAME)], str | IconSpec] = Field(
        default_factory=dict,
        description="The deck's own icons: {name: file.svg or file.png} or {name: {src: FILE, scale: 1.4, dy: -0.5}}; "
        "{name} in text, icon: name",
    )
    tables: dict[
        Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]+$")],
        Annotated[str | DataSpec | InlineTable, Field(union_mode="left_to_right")],  # {file: …} is a file
    ] = Field(
        default_factory=dict,
        description="Look-up tables for lookup(TABLE, KEY, COLUMN): {key: value} or {key: {column: value}} "
        "inline, or a .csv/.xlsx/.json file inside the deck's folder whose first column is the key",
    )
    version: str | int | float | None = Field(None, description="The deck's version, printed with ${deck.version}")
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
    min_readable: float = Field(
        6,
        gt=0,
        le=200,
        description="Preflight: text set smaller than this, pt (after shrinking to fit), is warned about",
    )
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

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The schema of a deck file as its author writes it, for editors (``kkprint schema``):
        before templates and ``extends`` are applied, so a region may override a few keys of
        the template's, any region key may hold ``${…}``, and a deck that extends a template
        need not repeat its name and card."""
        return editor_schema(super().model_json_schema(*args, **kwargs))

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


def _about(schema: dict) -> dict:
    return {key: schema[key] for key in ("description", "title", "default") if key in schema}
