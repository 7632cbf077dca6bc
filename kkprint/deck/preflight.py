"""Preflight: what a deck is about to print wrong, found while it is drawn (SPEC §4.3).

Every region a deck draws tells its :class:`Preflight` what it drew, and the preflight notes:

- text set smaller than ``min_readable`` (6 pt unless the deck or the region says otherwise),
  at the size it was shrunk to so that it fits;
- a PNG or JPG under 150 dpi at the size it prints (300 for a print shop), deck icons included;
- text or an icon crossing the card's edge (what lies beyond is cut off); a picture or a shape
  that lies wholly off the card (pictures and shapes may bleed off the card on purpose);
- text within the safe margin, 3 mm from the trim, in print-shop mode (a cut may wander);
- a ``field:``, ``${…}`` or ``when:`` naming a column no card has (an error);
- a font that would not be embedded (a printer would set the words in a font of its own);

and every card's errors, instead of stopping at the first. Each is a :class:`Finding` — card
number and name, face, region and its YAML line, kind, a message in the catalogue — so the
command line, ``kkprint check`` and the deck studio only format them. A build ends by refusing
the PDF when a deck has errors (or, with ``--strict``, warnings), and otherwise hands the
warnings to whoever asked for the build.

The checks ride on the drawing the build does anyway (the fitted text, the picture just placed),
so they cost a small part of a build; ``kkprint check`` draws into a PDF that is never written.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import NamedTuple

from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import EmbeddedType1Face, getFont
from reportlab.pdfbase.ttfonts import TTFont

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import N_, Msg, text, tr
from kkprint.base.records import record
from kkprint.deck.data import COPIES_LIKE
from kkprint.deck.expr import SPECIAL_NAMES, compile_condition, compile_template
from kkprint.deck.load import CardRef, Deck, card_named, expressions_of, faces_of
from kkprint.deck.model import IconRegion, ImageRegion, Region, ShapeRegion, TextRegion
from kkprint.deck.render import RegionPainter, icon_square, refs_of
from kkprint.engine.cards import SAFE_MM
from kkprint.engine.document import Document
from kkprint.engine.fonts import FontSet
from kkprint.engine.geometry import CardSize, Paper, Shape
from kkprint.engine.inks import BuildCanvas
from kkprint.engine.job import BUILD_OPTIONS, BuildOptions, notice
from kkprint.engine.pictures import pixel_size
from kkprint.engine.text import FittedText, TextBox, ink_box, set_sizes, smallest_reading
from kkprint.engine.vertical import column_ink

SMALL_TEXT = "small-text"
LOW_RESOLUTION = "low-resolution"
OFF_CARD = "off-card"
SAFE_MARGIN = "safe-margin"
MISSING_COLUMN = "missing-column"
FONT_NOT_EMBEDDED = "font-not-embedded"
COPIES_COLUMN = "copies-column"
ERROR = "error"  # anything else that stops a card from printing (text that does not fit, a bad icon…)

HOME_DPI, SHOP_DPI = 150, 300  # the least resolution that prints sharp at home, and at a print shop
TOLERANCE_MM = 0.1  # nearer than this to an edge counts as on it
LISTED = 20  # problems listed in full; the rest are counted


@record
class Finding:
    """One thing a deck will print wrong. ``card`` is the printed number of the copy it was found
    on — the first copy, unless only a later one shows it (``card.number`` read) — or ``None``:
    not one card's (a region every card shares, a column no card has); ``face`` is
    the layout's section (``("layout",)``, ``("back",)``, ``("backs", "elite")``…)."""

    source: str
    kind: str
    message: Msg | str
    card: int | None = None
    name: str | None = None
    origin: str | Msg | None = None  # the card's data row ("items.csv row 5"); a game's card: its id
    face: tuple[str, ...] = ()
    region: str | None = None
    line: int | None = None
    error: bool = False

    def where(self, *, with_card: bool = True) -> str | Msg | None:
        """Card, back and region, as the reader names them (the file is said apart); without the
        card where the card is plain already (the studio's card opened large)."""
        parts: list[str | Msg] = []
        if with_card and self.card is not None:
            if isinstance(self.origin, Msg):  # a data row says where to look (as a build's errors name a card)
                parts.append(card_named(self.card, self.name, self.origin))
            else:  # a game's own cards have their name only
                parts.append(
                    Msg("card {number} '{name}'", number=self.card, name=self.name)
                    if self.name
                    else Msg("card {number}", number=self.card)
                )
        if self.face[:1] in (("back",), ("backs",)):
            parts.append(Msg("back '{name}'", name=self.face[1]) if len(self.face) > 1 else Msg("back"))
        elif self.face[:1] == ("layouts",) and len(self.face) > 1 and self.card is None:
            parts.append(Msg("layout '{name}'", name=self.face[1]))  # (a card's finding: its card says which)
        if self.region is not None:
            parts.append(
                Msg("region '{name}' (line {line})", name=self.region, line=self.line)
                if self.line
                else Msg("region '{name}'", name=self.region)
            )
        if not parts:
            return None
        place = parts[0]
        for part in parts[1:]:
            place = Msg("{where}, {region}", where=place, region=part)
        return place

    def render(self, lang: str | None = None) -> str:
        """One line: ``deck.yaml: card 3 'Knight', region 'rules' (line 12): what is wrong``."""
        return InputError(self.message, source=self.source, place=self.where()).render(lang)

    def as_json(self, lang: str | None = None) -> dict:
        """SPEC §4.3's ``{card, region, kind, message}``, and where else it is."""
        where = self.where()
        return {
            "card": self.card,
            "region": self.region,
            "kind": self.kind,
            "message": text(self.message, lang),
            "severity": "error" if self.error else "warning",
            "name": self.name,
            "row": text(self.origin, lang) if isinstance(self.origin, Msg) else None,
            "face": ".".join(self.face) or None,
            "line": self.line,
            "file": self.source,
            "where": text(where, lang) if where is not None else None,
        }


class PreflightError(InputError):
    """A deck that must not print: every one of its problems (its errors, or with ``--strict`` its
    warnings too). Shown as one line, it is the first problem and how many more there are; the
    command line lists them."""

    def __init__(self, source: str, findings: list[Finding], strict: bool = False):
        self.findings, self.strict = findings, strict
        self.problems = [f for f in findings if f.error or strict]
        first = self.problems[0]
        super().__init__(first.message, source=first.source or source, place=first.where())

    def render(self, lang: str | None = None, *, with_source: bool = True) -> str:
        line = super().render(lang, with_source=with_source)
        more = len(self.problems) - 1
        return line + tr(" (and {count} more)", lang, count=more) if more else line

    def __reduce__(self):  # keeps every finding when a worker process sends it back
        return (PreflightError, (str(self.source), self.findings, self.strict))

    def located(self, *, source: str | None = None, place: str | Msg | None = None) -> InputError:
        return self  # every finding knows its file and place already


def counted(findings: list[Finding], strict: bool = False) -> Msg:
    """'3 warnings', '2 errors, 1 warning' — with --strict every warning counts as an error."""
    errors = sum(1 for f in findings if f.error or strict)
    warnings = len(findings) - errors
    said = []
    if errors:
        said.append(Msg("{count} error", count=errors) if errors == 1 else Msg("{count} errors", count=errors))
    if warnings or not errors:
        said.append(
            Msg("{count} warning", count=warnings) if warnings == 1 else Msg("{count} warnings", count=warnings)
        )
    return said[0] if len(said) == 1 else Msg("{errors}, {warnings}", errors=said[0], warnings=said[1])


class ColumnChecks(NamedTuple):
    """What :func:`column_checks` finds."""

    findings: list[Finding]
    blanks: dict[str, str]  # each column no card has, as an empty field
    # (face, region) of each region reading one, with the keys that read it ("fill", "when"…)
    reading_blanks: dict[tuple[tuple[str, ...], str], frozenset[str]]
    # the same, with the keys naming a file (a picture, an icon) from those columns alone
    naming_blanks: dict[tuple[tuple[str, ...], str], frozenset[str]]


def column_checks(deck: Deck) -> ColumnChecks:
    """What the deck's columns say before any card is drawn — a column that looks like copies but
    is not the deck's ``copies_field`` (a warning: the copies would silently be 1 each); a column
    no card has, named by a region (an error, once per region and line: a region a layout
    inherits unchanged is the same mistake, at the same place) — and those missing columns as
    blank fields: the build goes on reading them as empty, so each card's other problems are
    still found. Cheap: the studio asks it at every change."""
    columns = deck.columns  # (the deck's fields: among them)
    copies = deck.spec.copies_field
    found: list[Finding] = []
    for column in sorted(columns):
        if column.strip().lower() in COPIES_LIKE and column != copies:
            message = Msg(
                "column '{name}' looks like a number of copies, but copies come from '{field}'; add "
                "copies_field: {name} to use it",
                name=column,
                field=copies,
            )
            found.append(Finding(deck.source, COPIES_COLUMN, message))
    missing: dict[str, str] = {}
    reading: dict[tuple[tuple[str, ...], str], frozenset[str]] = {}
    naming: dict[tuple[tuple[str, ...], str], frozenset[str]] = {}
    said: set[tuple[str, tuple[str, ...], str]] = set()
    for section, layout in faces_of(deck.spec):
        for name, region in layout.items():
            # what deck.expr says a ${…} or when: reads by name; card.*, deck.* and today are no columns
            absent = refs_of(region, columns, required=True) - columns - SPECIAL_NAMES
            if not absent:
                continue
            reading[(section, name)], naming[(section, name)] = _keys_reading(region, absent, columns)
            written, line = deck.written_at(section, name)  # (a region inherited: where it is written, or brought in)
            for column in sorted(absent):
                missing[column] = ""
                if (column, written, name) in said:  # (the same mistake, in the same place)
                    continue
                said.add((column, written, name))
                message = Msg("no card has a column '{column}'{hint}", column=column, hint=suggest(column, columns))
                found.append(
                    Finding(deck.source, MISSING_COLUMN, message, face=written, region=name, line=line, error=True)
                )
    return ColumnChecks(found, missing, reading, naming)


# a picture or an icon named from a column no card has, and what finding no such file says
_FILE_KEYS = frozenset({"src", "icon", "field"})
_NO_FILE = frozenset({"{what} '{shown}' not found", "{what} '{shown}' is not a regular file"})


def _keys_reading(
    region: Region, absent: frozenset[str], columns: frozenset[str]
) -> tuple[frozenset[str], frozenset[str]]:
    """The keys of ``region`` whose value reads one of the ``absent`` columns; and of them, those
    that name a file (its picture, its icon) from ``absent`` columns alone: the same name on every
    card, made of the blank (``art/${atr}.svg``, not ``art/${atr or kind}.svg``, whose name is the
    card's)."""
    reading, naming = set(), set()
    for key, written in expressions_of(region):
        read = compile_template(written).required(columns)
        if read & absent:
            reading.add(key)
            if key in _FILE_KEYS and read <= absent:
                naming.add(key)
    if region.when is not None and compile_condition(region.when).required & absent:
        reading.add("when")
    if getattr(region, "field", None) in absent:
        naming.add("field")
    return frozenset(reading), frozenset(naming)


def _from_a_blank(err: InputError, keys: frozenset[str], naming: frozenset[str] = frozenset()) -> bool:
    """Whether ``err`` is what one of ``keys``, which read a column no card has, made of the empty
    value it read: it names the key ("fill: colour '' …", "x ${…} = '': …") and an empty value,
    or it finds no file that one of ``naming`` named from the blank alone ("image 'art/.svg' not
    found"). Another key's error, or one about a value the card does have, is the card's own."""
    message = err.message
    if isinstance(message, Msg) and message.msgid in _NO_FILE and naming:
        return True
    if not isinstance(message, Msg) or str(message.values.get("key", "")).split("[", 1)[0].split(".", 1)[0] not in keys:
        return False
    return _says_empty(message)


def _says_empty(message: Msg) -> bool:
    return any(value == "" or (isinstance(value, Msg) and _says_empty(value)) for value in message.values.values())


# --- collecting while a deck is drawn --------------------------------------------------------

_COLLECTING: ContextVar[list[Preflight] | None] = ContextVar("PREFLIGHT_COLLECTING", default=None)


class Preflight:
    """One deck's checks while it is drawn into one document. Made by :func:`attach`."""

    def __init__(self, deck: Deck, doc: Document, painter: RegionPainter, size: CardSize, options: BuildOptions):
        self.deck, self.doc, self.painter = deck, doc, painter
        self.source = deck.source
        self.strict = options.strict
        self.min_dpi = SHOP_DPI if options.print_shop else HOME_DPI
        self.safe = SAFE_MM * mm if options.print_shop else None
        self.width = size.width_mm * mm  # the trimmed card, in points
        self.height = size.height_mm * mm
        self.shape = size.shape
        self.card: CardRef | None = None  # the card being drawn; None while shared art is drawn
        self.findings: list[Finding] = []
        self._seen: set[tuple] = set()
        self._depths: dict[tuple, tuple[float, int]] = {}
        self._clear_boxes: dict[TextRegion, bool] = {}  # (regions compare and hash as themselves)
        self._fonts = len(doc.canvas._doc.fontMapping)
        self._raster_icons = self._deck_rasters()
        columns = column_checks(deck)  # (the deck as a whole, before any card)
        self.findings.extend(columns.findings)
        self.blanks, self._reading_blanks, self._naming_blanks = (
            columns.blanks,
            columns.reading_blanks,
            columns.naming_blanks,
        )
        doc.on_new_file.append(self._new_file)

    def _new_file(self) -> None:
        """The document goes on in a fresh file, which maps no font yet: count its fonts anew."""
        self._fonts = len(self.doc.canvas._doc.fontMapping)

    def _deck_rasters(self) -> dict[str, tuple[Path, tuple[int, int]]]:
        """The deck's PNG and JPG icons by their registered names, with their pixels."""
        rasters = {}
        for name, registered in self.painter.icons:
            path = self.deck.resolve(self.deck.spec.icon_specs[name].src, N_("icon"), f"icons.{name}")
            pixels = pixel_size(path)
            if pixels is not None:
                rasters[registered] = (path, pixels)
        return rasters

    # told by the drawing

    def failed(self, face: tuple[str, ...], name: str, err: InputError) -> None:
        """A region that could not be drawn on this card: an error, and the build goes on to
        find the others. Not what a key reading a column no card has makes of its blank: that
        error is said once, for the region, not again for every card (the card's other errors
        are said)."""
        if not _from_a_blank(
            err, self._reading_blanks.get((face, name), frozenset()), self._naming_blanks.get((face, name), frozenset())
        ):
            self._add(ERROR, err.message, face, name, self.card, error=True)

    def card_failed(self, card: CardRef, err: InputError) -> None:
        """A card that could not be laid out at all (its layout or back names nothing)."""
        self._add(ERROR, err.message, (), None, card, error=True)

    def drawn(self, face: tuple[str, ...], name: str, region: Region, drawn) -> None:
        """What one region drew on the current card (see :meth:`RegionPainter.draw`)."""
        if isinstance(region, TextRegion) and drawn is not None:
            self._text(face, name, region, drawn)
        elif isinstance(region, IconRegion) and drawn is not None:
            self._icon(face, name, region, drawn)
        elif isinstance(region, ImageRegion) and drawn is not None:
            self._picture(face, name, region, drawn)
        elif isinstance(region, ShapeRegion):
            self._wholly_off(face, name, region)
        if len(self.doc.canvas._doc.fontMapping) != self._fonts:
            self._new_fonts(face, name)

    def _text(self, face, name: str, region: TextRegion, fitted: FittedText) -> None:
        sizes = set_sizes(fitted)
        smallest = None
        for icon, size in sizes:
            if icon is None and (smallest is None or size < smallest):
                smallest = size
        self._small_text(face, name, region, fitted, smallest)
        for icon, size in sizes if self._raster_icons else ():
            if icon in self._raster_icons:
                path, pixels = self._raster_icons[icon]
                self._resolution(face, name, path, pixels, (size / mm, size / mm), "contain")
        if self._clear(region):
            return  # text stays inside its box, and the box clear of the edge (and the safe margin)
        box = _region_box(region, self.height)
        ink = (column_ink if region.direction == "vertical" else ink_box)(
            fitted, TextBox(*box, region.align, region.valign)
        )
        if ink is not None:
            left, bottom, right, top = ink
            corners = self._corners(region, (left, bottom, right - left, top - bottom))
            self._edges(face, name, min(self._inside_by(point) for point in corners), text=True)

    def _small_text(self, face, name: str, region: TextRegion, fitted: FittedText, smallest: float | None) -> None:
        """Words set under the region's (or the deck's) ``min_readable``; else readings (ruby),
        half their base, set under it: said as the readings', since the base itself reads."""
        least = region.min_readable or self.deck.spec.min_readable
        shrunk = fitted.size < region.size
        if smallest is not None and smallest < least - 1e-6:
            message = (
                Msg(
                    "text shrinks to {size:g} pt to fit its box, below the {least:g} pt that still reads; "
                    "give it a larger box or fewer words",
                    size=round(smallest, 2),
                    least=least,
                )
                if shrunk
                else Msg(
                    "text is set at {size:g} pt, below the {least:g} pt that still reads",
                    size=round(smallest, 2),
                    least=least,
                )
            )
            self._add(SMALL_TEXT, message, face, name, self.card)
            return
        reading = smallest_reading(fitted)
        if reading is not None and reading < least - 1e-6:
            message = (
                Msg(
                    "text shrinks to {base:g} pt to fit its box, which sets its readings (ruby) at {size:g} pt, "
                    "below the {least:g} pt that still reads; give it a larger box or fewer words",
                    base=round(fitted.size, 2),
                    size=round(reading, 2),
                    least=least,
                )
                if shrunk
                else Msg(
                    "its readings (ruby) are set at {size:g} pt, below the {least:g} pt "
                    "that still reads; give the text a size of at least {base:g} pt",
                    size=round(reading, 2),
                    least=least,
                    base=math.ceil(region.size * least / reading * 100) / 100,
                )
            )
            self._add(SMALL_TEXT, message, face, name, self.card)

    def _icon(self, face, name: str, region: IconRegion, registered: str) -> None:
        x, y, side = icon_square(registered, *_region_box(region, self.height))  # (at the icon's own scale)
        square = (x, y, side, side)
        if registered in self._raster_icons:
            path, pixels = self._raster_icons[registered]
            self._resolution(face, name, path, pixels, (side / mm, side / mm), "contain")
        self._edges(face, name, self._depth(region, square), text=False)

    def _picture(self, face, name: str, region: ImageRegion, path: Path) -> None:
        pixels = pixel_size(path)
        if pixels is not None:
            self._resolution(face, name, path, pixels, (region.w, region.h), region.fit)
        self._wholly_off(face, name, region)

    def _resolution(self, face, name: str, path: Path, pixels: tuple[int, int], box_mm, fit: str) -> None:
        """A raster picture's resolution at the size it prints: fit into its box (contain),
        filling it (cover, cropped) or stretched."""
        across, down = pixels[0] / box_mm[0], pixels[1] / box_mm[1]  # pixels per mm of the box
        # contained, the tighter side sets the scale; filling or stretched, the looser one
        dpi = (max if fit == "contain" else min)(across, down) * 25.4
        if dpi < self.min_dpi - 0.5:
            printed = (pixels[0] / dpi * 25.4, pixels[1] / dpi * 25.4) if fit == "contain" else box_mm
            self._add(
                LOW_RESOLUTION,
                Msg(
                    "{file} is {width}×{height} px, {dpi} dpi at the {w:.0f}×{h:.0f} mm it prints; "
                    "{least} dpi prints sharp",
                    file=path.name,
                    width=pixels[0],
                    height=pixels[1],
                    dpi=int(dpi),
                    w=printed[0],
                    h=printed[1],
                    least=self.min_dpi,
                ),
                face,
                name,
                self.card,
            )

    # geometry: corners in the card's points, y up, rotation applied

    def _corners(self, region, box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
        """The four corners of ``box`` as they print: turned with the region about its centre."""
        x, y, w, h = box
        points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        if not region.rotation % 360:
            return points
        rx, ry, rw, rh = _region_box(region, self.height)
        cx, cy = rx + rw / 2, ry + rh / 2
        turn = math.radians(region.rotation)
        cos, sin = math.cos(turn), math.sin(turn)
        return [(cx + (px - cx) * cos - (py - cy) * sin, cy + (px - cx) * sin + (py - cy) * cos) for px, py in points]

    def _inside_by(self, point: tuple[float, float]) -> tuple[float, int]:
        """How far (points) ``point`` lies inside the card's outline — negative outside — and
        which side of a rectangle is nearest (0 left, 1 right, 2 bottom, 3 top; -1 otherwise)."""
        px, py = point
        if self.shape is Shape.CIRCLE:
            radius = min(self.width, self.height) / 2
            return radius - math.hypot(px - self.width / 2, py - self.height / 2), -1
        if self.shape is Shape.HEXAGON:  # flat top, corners left and right (as engine.cards draws it)
            rx, ry = self.width / 2, self.height / 2
            dx, dy = abs(px - rx), abs(py - ry)
            slanted = (ry * (rx - dx) - (rx / 2) * dy) / math.hypot(ry, rx / 2)
            return min(ry - dy, slanted), -1
        distances = (px, self.width - px, py, self.height - py)
        side = min(range(4), key=distances.__getitem__)
        return distances[side], side

    def _clear(self, region: TextRegion) -> bool:
        """Whether a text region's box lies clear of the card's edge and of the safe margin, so
        its text does too: asked of one region card after card, so kept by the region itself."""
        clear = self._clear_boxes.get(region)
        if clear is None:
            if len(self._clear_boxes) >= 4096:  # (regions made for single cards come and go)
                self._clear_boxes.clear()
            depth = self._depth(region, _region_box(region, self.height))[0]
            clear = self._clear_boxes[region] = depth >= (self.safe or 0.0) - TOLERANCE_MM * mm
        return clear

    def _depth(self, region, box: tuple[float, float, float, float]) -> tuple[float, int]:
        """:meth:`_inside_by` of the box's shallowest corner, turned with its region; worked out
        once for each box (a region's box is the same card after card)."""
        key = (box, region.rotation, region.x, region.y, region.w, region.h)
        found = self._depths.get(key)
        if found is None:
            found = self._depths[key] = min(self._inside_by(point) for point in self._corners(region, box))
        return found

    def _edges(self, face, name: str, depth_and_side: tuple[float, int], text: bool) -> None:
        """Text or an icon over the card's edge (cut off), or text in the safe margin."""
        depth, side = depth_and_side
        if depth < -TOLERANCE_MM * mm:
            past = round(-depth / mm, 1)
            edge = EDGES[side] if side >= 0 else Msg("the card's outline")
            message = (
                Msg("text runs {mm:g} mm past {edge}: what lies beyond is cut off", mm=past, edge=edge)
                if text
                else Msg("the icon runs {mm:g} mm past {edge}: what lies beyond is cut off", mm=past, edge=edge)
            )
            self._add(OFF_CARD, message, face, name, self.card)
        elif text and self.safe is not None and depth < self.safe - TOLERANCE_MM * mm:
            self._add(
                SAFE_MARGIN,
                Msg(
                    "text comes within {mm:g} mm of the trim; keep it {safe:g} mm inside, as a cut may wander",
                    mm=round(depth / mm, 1),
                    safe=SAFE_MM,
                ),
                face,
                name,
                self.card,
            )

    def _wholly_off(self, face, name: str, region) -> None:
        """A picture or shape none of which is on the card: surely a slip of a number."""
        corners = self._corners(region, _region_box(region, self.height))
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        if min(xs) >= self.width or max(xs) <= 0 or min(ys) >= self.height or max(ys) <= 0:
            self._add(OFF_CARD, Msg("the region lies wholly off the card: nothing of it prints"), face, name, self.card)

    def _new_fonts(self, face, name: str) -> None:
        mapping = self.doc.canvas._doc.fontMapping
        for font in list(mapping)[self._fonts :]:
            if not _embedded(font):
                self._add(
                    FONT_NOT_EMBEDDED,
                    Msg(
                        "the font '{font}' would not be embedded: a printer would set the words in a font of its own",
                        font=font,
                    ),
                    face,
                    name,
                    self.card,
                )
        self._fonts = len(mapping)

    def _add(self, kind: str, message, face, region, card: CardRef | None, error: bool = False) -> None:
        """Note a finding once for its card (a card's copies may each be drawn: numbered faces),
        and once for art drawn again in a later file of the document (the card that drew it
        first has it)."""
        if self.doc.drawing_again:
            return
        key = (kind, face, region, message, card.identity if card is not None else None)
        if key in self._seen:
            return
        self._seen.add(key)
        line = self.deck.lines.get((*face, region)) if region is not None else None
        number, name, origin = (card.number, card.name, card.origin) if card is not None else (None, None, None)
        self.findings.append(Finding(self.source, kind, message, number, name, origin, face, region, line, error))

    def finish(self) -> None:
        """The deck is drawn: refuse the PDF if it must not print; else hand on the warnings."""
        if any(f.error for f in self.findings) or (self.strict and self.findings):
            raise PreflightError(self.source, self.findings, self.strict)
        for finding in self.findings:
            notice(finding)


EDGES = (
    Msg("the card's left edge"),
    Msg("the card's right edge"),
    Msg("the card's bottom edge"),
    Msg("the card's top edge"),
)


def _region_box(region, card_height: float) -> tuple[float, float, float, float]:
    """A region's box in the card's points (x, y from the bottom, w, h), as it is drawn."""
    return region.x * mm, card_height - (region.y + region.h) * mm, region.w * mm, region.h * mm


def _embedded(font: str) -> bool:
    """Whether a font goes into the PDF: TrueType (every font kkprint registers) and embedded
    Type 1 do; the standard fonts (Helvetica…) and CID fonts are left to the reader."""
    found = getFont(font)
    return isinstance(found, TTFont) or isinstance(getattr(found, "face", None), EmbeddedType1Face)


def attach(deck: Deck, doc: Document, painter: RegionPainter, size: CardSize) -> Preflight:
    """Start checking a deck drawn into ``doc`` by ``painter``: the preflight is told what every
    region draws. In a build, the document's closing runs its verdict before the PDF is saved;
    under :func:`check_deck`, the findings are only collected."""
    checks = Preflight(deck, doc, painter, size, BUILD_OPTIONS.get() or BuildOptions())
    painter.checks = checks
    collecting = _COLLECTING.get()
    if collecting is not None:
        collecting.append(checks)
    else:
        doc.closing.append(checks.finish)
    return checks


# --- checking without building ---------------------------------------------------------------


@contextmanager
def collecting(options: BuildOptions) -> Iterator[list[Preflight]]:
    """Within the block, decks drawn as under ``options`` are checked and their preflights
    gathered in the list given, instead of judging the PDF (see ``deck.build.check_deck``)."""
    found: list[Preflight] = []
    gathering, building = _COLLECTING.set(found), BUILD_OPTIONS.set(options)
    try:
        yield found
    finally:
        _COLLECTING.reset(gathering)
        BUILD_OPTIONS.reset(building)


@contextmanager
def scratch(paper: Paper, fonts: FontSet, lang: str) -> Iterator[Document]:
    """A document drawn as a build draws it, into memory, and dropped: nothing is written."""
    canvas = BuildCanvas(io.BytesIO(), pagesize=paper.size, invariant=1, initialFontName=fonts.regular)
    yield Document(canvas, paper, fonts, lang)


def check_card(findings: Iterable[Finding], number: int, count: int) -> list[Finding]:
    """The findings (of ``deck.build.check_deck``, or of the studio's drawing) that are on one card
    — the one whose first copy prints as ``number``, with ``count`` copies: its own, and those of
    what every card shares."""
    numbers = range(number, number + max(1, count))
    return [finding for finding in findings if finding.card is None or finding.card in numbers]
