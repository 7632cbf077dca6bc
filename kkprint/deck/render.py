"""Drawing a deck's regions onto a card: text, icons, shapes and pictures, for fronts and backs.

A :class:`Face` is one layout; it knows which card fields its regions read, so the art of two
cards that read the same values is the same drawing, stored once (a back that shows only the
card's colour is stored once per colour, not once per card).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping
from functools import cached_property
from itertools import count, islice
from pathlib import Path
from typing import Any, NamedTuple, Protocol, cast

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.definitions import keep, recalled
from kkprint.base.errors import InputError, LimitReached, suggest
from kkprint.base.i18n import N_, Msg
from kkprint.base.records import mutable
from kkprint.deck.expr import PER_COPY_NAMES, Expression, Table, compile_condition, compile_template, parse_ranges
from kkprint.deck.load import CardRef, Deck, expressions_of
from kkprint.deck.model import Gradient, IconRegion, ImageRegion, Layout, Region, ShapeRegion, TextRegion
from kkprint.engine.cards import Art
from kkprint.engine.colours import hex_colour
from kkprint.engine.document import Document, do_form, restore_state, save_state
from kkprint.engine.fonts import FontSet, register_font_file
from kkprint.engine.icons import PRIVATE, draw_icon, has_icon, icon_metrics, icon_names, register_icon
from kkprint.engine.pictures import SvgFonts, check_picture, draw_picture
from kkprint.engine.text import FittedText, TextBox, draw_text, fit_for
from kkprint.engine.typesetting import FontBook, Typeface, Typesetting, parse_font
from kkprint.engine.vertical import draw_vertical

EDGE = 0.01  # mm: a region this close to the card edge bleeds past it
MAX_RESOLVED = 2048  # regions made for one card's values, kept for the cards that share them


def refs_of(region: Region, columns: frozenset[str] = frozenset(), *, required: bool = False) -> frozenset[str]:
    """The card fields (and card./deck. names) a region reads — through field:, ${…} in any key,
    or its condition; ``"*"`` when an expression may read any field. ``required``: only those it
    cannot be drawn without (what ``get()`` reads may be missing: it has a default)."""
    names = set()
    field = getattr(region, "field", None)  # (a shape region has none)
    if field:
        names.add(field)
    for _, text in expressions_of(region):
        template = compile_template(text)
        names.update(template.required(columns) if required else template.names(columns))
    if region.when is not None:
        condition = compile_condition(region.when)
        names.update(condition.required if required else condition.names)
        if condition.reads_all and not required:
            names.add("*")
    return frozenset(names)


def is_static(region: Region, columns: frozenset[str] = frozenset()) -> bool:
    """A region that looks the same on every card."""
    return not refs_of(region, columns) and region.when is None and region.cards is None


# --- the deck's own fonts and icons -----------------------------------------------------------


def font_book(deck: Deck, fonts: FontSet, characters: str) -> FontBook:
    """Register the deck's font families for the characters the build prints."""
    families = []
    for family, files in deck.spec.fonts.items():
        names = {}
        for face in ("regular", "bold", "italic", "bold_italic"):
            name = getattr(files, face)
            if name:
                place = f"fonts.{family}.{face.replace('_', '-')}"
                path = deck.resolve(name, N_("font"), place)
                try:
                    names[face] = register_font_file(path, characters, name)
                except InputError as err:
                    raise err.located(source=deck.source, place=place) from None
        families.append((family, Typeface(**names)))
    return FontBook(fonts.regular, fonts.bold, tuple(families))


def art_fonts(deck: Deck) -> SvgFonts:
    """The deck's font families for text inside its SVG art (which is drawn in them, else in the
    bundled font, and never in a font the SVG names by a file)."""
    families = []
    for family, files in deck.spec.fonts.items():
        faces = []
        for face in ("regular", "bold", "italic", "bold_italic"):
            name = getattr(files, face)
            if name:
                faces.append((face, deck.resolve(name, N_("font"), f"fonts.{family}.{face.replace('_', '-')}")))
        families.append((family, tuple(faces)))
    return SvgFonts(tuple(families))


def deck_icons(deck: Deck) -> tuple[tuple[str, str], ...]:
    """Register the deck's icons under private names; returns (name in the deck, registered name)."""
    aliases = []
    root = None if deck.allow_outside else deck.folder.resolve()
    fonts = art_fonts(deck)
    for name, icon in deck.spec.icon_specs.items():
        path = deck.resolve(icon.src, N_("icon"), f"icons.{name}")
        digest = hashlib.sha1(f"{path}|{path.stat().st_mtime_ns}|{icon.scale}|{icon.dy}".encode()).hexdigest()[:12]
        registered = f"{PRIVATE}{digest}~{name}"

        def draw(c: Canvas, size: float, path=path) -> None:
            draw_picture(c, path, root, 0, 0, size, size, "contain", fonts)

        try:  # read it now, so a broken icon is named here and not on some card later
            check_picture(path, root, fonts)
        except InputError as err:
            raise err.located(source=deck.source, place=f"icons.{name}") from None
        register_icon(registered, draw, scale=icon.scale, dy=icon.dy)
        aliases.append((name, registered))
    return tuple(aliases)


def icon_square(registered: str, x: float, y: float, w: float, h: float) -> tuple[float, float, float]:
    """Where an icon region draws its icon in its box (points, y up): (x, y, side) of a square
    centred in the box, at a deck icon's own scale of the box and lowered by its nudge."""
    scale, nudge = icon_metrics(registered)
    side = min(w, h) * (scale or 1.0)
    return x + (w - side) / 2, y + (h - side) / 2 - nudge, side


# --- painting regions -------------------------------------------------------------------------


class RegionWatcher(Protocol):
    """Told what each region drew, card by card: the deck's preflight (``deck.preflight``)."""

    card: CardRef | None  # the card being drawn; None while what cards share is drawn

    def failed(self, face: tuple[str, ...], name: str, err: InputError) -> None:
        """Region ``name`` could not be drawn on this card; drawing goes on with the next."""

    def drawn(self, face: tuple[str, ...], name: str, region: Region, drawn) -> None:
        """What :meth:`RegionPainter.draw` returned for region ``name``."""


def region_for_card(region: Region, fields: dict[str, str], tables: Mapping[str, Table]) -> Region:
    """The region as one card has it: its dynamic keys (positions, sizes … from ``${…}``)
    worked out from the card's fields and checked as if written so."""
    if not region.dynamic:
        return region
    return _resolved(region, dynamic_values(region, fields, tables))


def dynamic_values(region: Region, fields: dict[str, str], tables: Mapping[str, Table]) -> dict[str, Any]:
    """A region's dynamic keys for one card; an error names the key."""
    values = {}
    for key in region.dynamic:
        try:
            values[key] = _value(region.written(key), fields, tables)
        except InputError as err:
            raise InputError(Msg("{key}: {problem}", key=key, problem=err.message)) from None
    return values


def _value(written, fields: dict[str, str], tables: Mapping[str, Table]):
    """A dynamic key's value for a card: a lone ``${…}`` keeps its result's kind (a number
    is mm, or pt for a font size), any other text is filled in (``"${wx}mm"``)."""
    if isinstance(written, str):
        return compile_template(written).value(fields, tables) if "${" in written else written
    if isinstance(written, dict):
        return {key: _value(value, fields, tables) for key, value in written.items()}
    if isinstance(written, list):
        return [_value(value, fields, tables) for value in written]
    return written


def _resolved(region: Region, values: dict[str, Any]) -> Region:
    """The region with ``values`` for its dynamic keys, checked as if written so (by pydantic:
    a deck with such keys imports it, whether or not the deck itself came from the cache)."""
    from pydantic import ValidationError

    from kkprint.base.models import describe_location, explain

    try:
        return region.for_card(values)
    except ValidationError as err:
        location, problem = explain(err, type(region))
        key = location[0] if location else ""
        shown = repr(values.get(key, ""))[:60] if not isinstance(values.get(key), str) else values[key][:60]
        raise InputError(
            Msg(
                "{key} {written} = {value}: {problem}",
                key=describe_location(location),
                written=str(region.written(key))[:60] if key in values else "",
                value=shown,
                problem=problem,
            )
        ) from None


class ResolvedRegions(dict):
    """Regions placed from cards' data as one build of a deck resolved them: by the kind of
    region, the region as written and the values a card gave it."""


class KeptRegions:
    """The regions a deck places from its cards' data (``x: ${col * 9}``), each checked by
    pydantic as if written so, and kept in the cache folder for the next build of the deck: a
    deck whose data has not changed is drawn again without importing pydantic (a fifth of such
    a deck's build). What a region makes of its values depends on nothing else (the checks know
    no deck), and the kept regions are thrown away with the kkprint that made them. A build
    keeps what it used, so an edited deck's old regions go."""

    def __init__(self, source: str) -> None:
        self.path = Path(source)
        self.before: ResolvedRegions | None = None  # (read on the first region: most decks have none)
        self.used, self.new = ResolvedRegions(), False

    def resolved(self, region: Region, values: dict[str, Any]) -> Region:
        if self.before is None:
            kept = recalled(ResolvedRegions, self.path, b"") if self.path.is_file() else None
            self.before = kept if kept is not None else ResolvedRegions()
        key = repr((type(region).__name__, region._written, values))
        found = self.before.get(key)
        if found is None:
            found, self.new = _resolved(region, values), True
        if len(self.used) < MAX_RESOLVED:
            self.used[key] = found
        return found

    def keep(self) -> None:
        if self.new and self.path.is_file():
            keep(ResolvedRegions, self.path, b"", self.used)
            self.before, self.new = self.used, False


@mutable
class RegionPainter:
    """Draws regions of one deck into a card box; knows the deck (for files), fonts and icons.
    Colours are drawn as RGB: the document's inks turn them grey or CMYK where asked."""

    deck: Deck
    fonts: FontSet
    bleed: float = 0.0  # points
    book: FontBook | None = None
    icons: tuple[tuple[str, str], ...] = ()
    checks: RegionWatcher | None = None  # told what each region drew; collects errors instead of stopping

    def __post_init__(self):
        self.book = self.book or FontBook(self.fonts.regular, self.fonts.bold)
        self._icon_names = dict(self.icons)
        self._root = None if self.deck.allow_outside else self.deck.folder.resolve()
        self._art_fonts = art_fonts(self.deck)
        # a deck's text regions name a few fonts and colours thousands of times: each is
        # looked up once per value
        self._faces: dict[tuple[str, bool, bool], tuple[Typesetting, str]] = {}
        self._colours: dict[str, Color] = {}
        self._boxes: dict[tuple[int, float, float], tuple] = {}
        self._resolved: dict[tuple[int, str], Region] = {}
        self._kept = KeptRegions(self.deck.source)

    def for_card(self, region: Region, fields: dict[str, str]) -> Region:
        """The region as one card has it (:func:`region_for_card`); cards giving the same values
        share one region."""
        if not region.dynamic:
            return region
        values = dynamic_values(region, fields, self.deck.tables)
        known = (id(region), repr(values))
        resolved = self._resolved.get(known)
        if resolved is None:
            resolved = self._kept.resolved(region, values)
            if len(self._resolved) >= MAX_RESOLVED:  # (a box is kept per region: both go together)
                self._resolved.clear()
                self._boxes.clear()
            self._resolved[known] = resolved
        return resolved

    def keep_resolved(self) -> None:
        """Keep the regions this build placed from cards' data for the next build of the deck."""
        self._kept.keep()

    def _box(self, region, card_w: float, card_h: float) -> tuple[float, float, float, float]:
        """ReportLab box (x, y, w, h) of a region, grown into the bleed where it touches an edge."""
        x, y = region.x * mm, card_h - (region.y + region.h) * mm
        w, h = region.w * mm, region.h * mm
        grows = isinstance(region, ImageRegion) or (isinstance(region, ShapeRegion) and region.fill is not None)
        if self.bleed and region.bleed and grows:  # a frame (an outline only) stays on the card
            if region.x <= EDGE:
                x, w = x - self.bleed, w + self.bleed
            if region.y <= EDGE:
                h += self.bleed
            if (region.x + region.w) * mm >= card_w - EDGE * mm:
                w += self.bleed
            if (region.y + region.h) * mm >= card_h - EDGE * mm:
                y, h = y - self.bleed, h + self.bleed
        return x, y, w, h

    def draw(self, c: Canvas, region, fields: dict[str, str], card_w: float, card_h: float, place: str | Msg):
        """Draw a region as the card has it (:meth:`for_card`); returns what it drew, for the
        preflight: a text's fit, an image's file, an icon's registered name (None for a shape,
        or for nothing drawn)."""
        # (the deck's regions live as long as the painter; those made for a card, as long as their box)
        known = (id(region), card_w, card_h)
        box = self._boxes.get(known)
        if box is None:  # a text region's box is where its text goes
            box = self._box(region, card_w, card_h)
            if isinstance(region, TextRegion):
                box = TextBox(*box, region.align, region.valign)
            self._boxes[known] = box
        x, y, w, h = box[:4]
        # text sets its own colour and font and leaves nothing a later region relies on: it needs
        # no saved state of its own unless it is turned or see-through; an icon places a form and
        # changes nothing the canvas keeps, so its "q … Q" needs no copy of the canvas's state
        # (which ReportLab's saveState makes: a third of placing an icon)
        turned = bool(region.rotation) or region.opacity < 1
        isolated = turned or not isinstance(region, TextRegion | IconRegion)
        bracketed = not turned and isinstance(region, IconRegion)
        if isolated:
            saved = save_state(c)
        elif bracketed:
            c._code.append("q")
        if region.rotation:
            c.translate(x + w / 2, y + h / 2)
            c.rotate(region.rotation)
            c.translate(-(x + w / 2), -(y + h / 2))
        if region.opacity < 1:
            c.setFillAlpha(region.opacity)
            c.setStrokeAlpha(region.opacity)

        drawn: FittedText | Path | str | None = None
        try:
            if isinstance(region, TextRegion):
                drawn = self._text(c, region, fields, cast(TextBox, box), place)  # a TextBox, made above
            elif isinstance(region, IconRegion):
                # FixedOrField checks that icon or field is given (though `field: ""` slips past it)
                icon = (
                    fields.get(region.field, "")
                    if region.field
                    else self._text_of(cast(str, region.icon), "icon", fields)
                )
                if icon:  # a card whose field is empty simply has no icon there
                    registered = self._icon_names.get(icon, icon)
                    if not has_icon(registered):
                        raise InputError(
                            Msg(
                                "unknown icon '{icon}'{hint}",
                                icon=icon,
                                hint=suggest(icon, [*self._icon_names, *icon_names()]),
                            )
                        )
                    x, y, size = icon_square(registered, x, y, w, h)
                    draw_icon(c, registered, x, y, size)
                    drawn = registered
            elif isinstance(region, ShapeRegion):
                self._shape(c, region, x, y, w, h, fields, place)
            elif isinstance(region, ImageRegion):
                # as for icons: src or field is given (though `field: ""` slips past the check)
                src = (
                    fields.get(region.field, "")
                    if region.field
                    else self._text_of(cast(str, region.src), "src", fields)
                )
                if src:
                    drawn = self.deck.resolve(src, N_("image"), place)
                    draw_picture(c, drawn, self._root, x, y, w, h, region.fit, self._art_fonts)
        except InputError as err:
            raise err.located(source=self.deck.source, place=place) from None
        finally:
            if isolated:
                restore_state(c, saved)
            elif bracketed:
                c._code.append("Q")  # (where the canvas writes now: a form the icon defined has ended)
        return drawn

    def _text_of(self, value: str, key: str, fields: dict[str, str]) -> str:
        """A key's value as the card has it: its ``${…}`` expanded with the card's fields."""
        if "${" not in value:
            return value
        try:
            return compile_template(value).expand(fields, self.deck.tables)
        except InputError as err:
            raise InputError(Msg("{key}: {problem}", key=key, problem=err.message)) from None

    def _paint(self, value: str, key: str, fields: dict[str, str], place: str | Msg) -> Color:
        """A colour key's colour for the card (``${…}`` expanded: a colour may come from a field)."""
        value = self._text_of(value, key, fields)
        colour = self._colours.get(value)
        if colour is None:
            written = hex_colour(value)
            if written is None:
                raise InputError(
                    Msg(
                        "{key}: {problem}",
                        key=key,
                        problem=Msg("colour '{value}' from the card's fields must look like #1a2b3c", value=value),
                    ),
                    source=self.deck.source,
                    place=place,
                )
            colour = self._colours[value] = HexColor(written)  # RGB here; the canvas's inks make it grey or CMYK
        return colour

    def _text(self, c: Canvas, region: TextRegion, fields, box: TextBox, place: str | Msg) -> FittedText:
        if region.field:
            if region.field not in fields:
                raise InputError(
                    Msg("the card has no field '{field}'{hint}", field=region.field, hint=suggest(region.field, fields))
                )
            text = fields[region.field]
        else:
            text = self._text_of(cast(str, region.text), "text", fields)  # (FixedOrField: text when no field)
        if "{}" in text:
            _refuse_an_empty_icon(text, "field" if region.field else "text")
        vertical = region.direction == "vertical"
        setting, font = self._face(self._text_of(region.font, "font", fields), region.markup, vertical)
        # (the region's opacity given with its colour: a colour without alpha would reset it to 1)
        c.setFillColor(self._paint(region.colour, "colour", fields, place), region.opacity)
        fitting = (text, font, box, region.size, region.min_size, region.leading, region.max_lines, setting)
        if vertical:
            fitted = fit_for(c, *fitting)
            draw_vertical(c, fitted, box, HexColor)
            return fitted
        return draw_text(c, *fitting, HexColor)

    def _face(self, font: str, markup: bool, vertical: bool = False) -> tuple[Typesetting, str]:
        """How a text region's font setting reads, and its base face's registered font."""
        found = self._faces.get((font, markup, vertical))
        if found is None:
            assert self.book is not None  # __post_init__ gave the painter a book
            family, bold, italic = parse_font(font)
            face, _ = self.book.family(family).face(
                bold, italic
            )  # an unknown family is an error here, with the region named
            found = self._faces[(font, markup, vertical)] = (
                Typesetting(self.book, family, bold, italic, markup, self.icons, vertical),
                face,
            )
        return found

    def _shape(
        self,
        c: Canvas,
        region: ShapeRegion,
        x: float,
        y: float,
        w: float,
        h: float,
        fields: dict[str, str],
        place: str | Msg,
    ) -> None:
        gradient = region.fill if isinstance(region.fill, Gradient) else None
        if region.fill and not isinstance(region.fill, Gradient):  # the region's opacity kept: a colour resets it
            c.setFillColor(self._paint(region.fill, "fill", fields, place), region.opacity)
        if region.stroke:
            c.setStrokeColor(self._paint(region.stroke, "stroke", fields, place), region.opacity)
        c.setLineWidth(region.stroke_width)
        if region.dash is not None:
            dashes = region.dash if isinstance(region.dash, list) else [region.dash]
            c.setDash([max(0.01, d) * mm for d in dashes])
        stroke = int(bool(region.stroke) or region.shape == "line")  # a line with no colour is black
        fill = int(bool(region.fill) and not gradient and region.shape != "line")
        path = self._outline(c, region, x, y, w, h)
        if gradient:
            c.saveState()
            c.clipPath(path, stroke=0, fill=0)
            colours = (
                self._paint(gradient.from_, "fill", fields, place),
                self._paint(gradient.to, "fill", fields, place),
            )
            if gradient.gradient == "radial":
                c.radialGradient(x + w / 2, y + h / 2, max(w, h) / 2, colours, extend=True)
            else:
                angle = math.radians(-gradient.angle)  # 90° runs from the top down
                reach = (abs(w * math.cos(angle)) + abs(h * math.sin(angle))) / 2
                cx, cy = x + w / 2, y + h / 2
                dx, dy = math.cos(angle) * reach, math.sin(angle) * reach
                c.linearGradient(cx - dx, cy - dy, cx + dx, cy + dy, colours, extend=True)
            c.restoreState()
            path = self._outline(c, region, x, y, w, h)
        if stroke or fill:
            c.drawPath(path, stroke=stroke, fill=fill)

    @staticmethod
    def _outline(c: Canvas, region: ShapeRegion, x: float, y: float, w: float, h: float):
        path = c.beginPath()
        shape = region.shape
        if shape == "rect":
            path.rect(x, y, w, h)
        elif shape == "roundrect":
            path.roundRect(x, y, w, h, min(region.radius_mm * mm, w / 2, h / 2))
        elif shape == "ellipse":
            path.ellipse(x, y, w, h)
        elif shape == "circle":
            path.circle(x + w / 2, y + h / 2, min(w, h) / 2)
        elif shape == "line":
            (x1, y1), (x2, y2) = region.points or ((0, region.h / 2), (region.w, region.h / 2))
            path.moveTo(x + x1 * mm, y + h - y1 * mm)
            path.lineTo(x + x2 * mm, y + h - y2 * mm)
        elif shape == "polygon" and region.points:
            for index, (px, py) in enumerate(region.points):
                point = (x + px * mm, y + h - py * mm)
                path.moveTo(*point) if index == 0 else path.lineTo(*point)
            path.close()
        else:  # regular polygon, hexagon or star, inscribed in the box, first corner at the top
            sides = region.sides or (6 if shape == "hexagon" else 5)
            corners = _star(sides, region.inner) if shape == "star" else _regular(sides, shape == "hexagon")
            for index, (px, py) in enumerate(corners):
                point = (x + w / 2 + px * w / 2, y + h / 2 + py * h / 2)
                path.moveTo(*point) if index == 0 else path.lineTo(*point)
            path.close()
        return path


_BRACES = re.compile(r"\{\{|\}\}|\{\}")  # literal braces as text writes them, and an icon of no name


def _refuse_an_empty_icon(text: str, key: str) -> None:
    """``{}`` names no icon: ``pay {${res}} now`` on a card whose ``res`` is empty printed a literal
    ``{}``. Refused as an unknown icon is (``{{}}`` prints braces). The empty name is a value of
    the message, so a card that read a column no card has is not told again (the preflight has
    said that column once)."""
    if any(match.group() == "{}" for match in _BRACES.finditer(text)):
        raise InputError(
            Msg(
                "{key}: {problem}",
                key=key,
                problem=Msg(
                    "empty icon {{{name}}}: no icon is named between the braces (is the field it comes from "
                    "empty?); write {{{{}}}} to print braces",
                    name="",
                ),
            )
        )


def _regular(sides: int, flat_top: bool) -> list[tuple[float, float]]:
    start = 0.0 if flat_top and sides == 6 else math.pi / 2
    return [
        (math.cos(start + i * 2 * math.pi / sides), math.sin(start + i * 2 * math.pi / sides)) for i in range(sides)
    ]


def _star(points: int, inner: float) -> list[tuple[float, float]]:
    return [
        (
            (1 if i % 2 == 0 else inner) * math.cos(math.pi / 2 + i * math.pi / points),
            (1 if i % 2 == 0 else inner) * math.sin(math.pi / 2 + i * math.pi / points),
        )
        for i in range(points * 2)
    ]


# --- faces ------------------------------------------------------------------------------------


class Run(NamedTuple):
    """Consecutive regions of a face, drawn alike: ``STATIC`` ones are the same on every card (one
    form for all); ``BY_VALUES`` ones are the same on every card that gives ``refs`` the same
    values (one form for each such group of cards: the band, name and value of a card's suit,
    say); ``OWN`` ones are drawn for each card."""

    kind: str
    regions: list[tuple[str, Region]]
    refs: tuple[str, ...] = ()


STATIC, BY_VALUES, OWN = "static", "by-values", "own"
VALUES_SAMPLE = 64  # the deck's first cards, by which its runs are cut (a long deck is not read twice over)


def runs_of(layout: Layout, columns: frozenset[str] = frozenset(), cards: Iterable[dict] | None = None) -> list[Run]:
    """Consecutive regions grouped by whether they are the same on every card (keeps draw order);
    with the deck's ``cards`` (their fields), the others further by the values they read."""
    runs: list[Run] = []
    for name, region in layout.items():
        kind = STATIC if is_static(region, columns) else OWN
        if runs and runs[-1].kind == kind:
            runs[-1].regions.append((name, region))
        else:
            runs.append(Run(kind, [(name, region)]))
    if cards is None or not any(run.kind == OWN and len(run.regions) > 1 for run in runs):
        return runs
    sample = list(islice(cards, VALUES_SAMPLE))
    return [part for run in runs for part in (_cut_by_values(run, columns, sample) if run.kind == OWN else (run,))]


def _cut_by_values(run: Run, columns: frozenset[str], cards: list[dict]) -> list[Run]:
    """A run of regions drawn for each card, cut by what its regions read: consecutive regions
    whose values few cards make (at most one set for every two cards: a suit's colour and name)
    become a ``BY_VALUES`` run, stored once for each set, as long as each region adds nothing
    to tell the run's cards apart (a suit's motto does; a card's own mark would not); the rest
    stay each card's own. A run of one region is no gain (an icon is a stored form already)."""
    distinct: dict[tuple[str, ...], int] = {}

    def variety(refs: tuple[str, ...]) -> int:
        if refs not in distinct:
            distinct[refs] = len({tuple(map(card.get, refs)) for card in cards})
        return distinct[refs]

    groups: list[tuple[list[tuple[str, Region]], tuple[str, ...] | None]] = []  # (regions, refs when stored)
    for name, region in run.regions:
        read = refs_of(region, columns)
        shared = region.cards is None and "*" not in read and not any(ref.startswith("card.") for ref in read)
        refs = tuple(sorted(read)) if shared and 2 * variety(tuple(sorted(read))) <= len(cards) else None
        last = groups[-1] if groups else None
        if last is not None and refs is None and last[1] is None:
            last[0].append((name, region))
        elif last is not None and refs is not None and last[1] is not None:
            together = tuple(sorted({*last[1], *refs}))
            if variety(together) == variety(last[1]):
                last[0].append((name, region))
                groups[-1] = (last[0], together)
            else:
                groups.append(([(name, region)], refs))
        else:
            groups.append(([(name, region)], refs))
    parts: list[Run] = []
    for regions, refs in groups:
        if refs is not None and len(regions) > 1:
            parts.append(Run(BY_VALUES, regions, refs))
        elif parts and parts[-1].kind == OWN:
            parts[-1].regions.extend(regions)
        else:
            parts.append(Run(OWN, regions))
    return parts


class _Told:
    """What a preflight hears while a ``BY_VALUES`` run is drawn: passed on, and kept to be told
    again for every later card that shows the run (each card's findings stay its own)."""

    def __init__(self, checks: RegionWatcher) -> None:
        self.checks = checks
        self.heard: list[tuple[str, tuple]] = []

    @property
    def card(self) -> CardRef | None:
        return self.checks.card

    @card.setter
    def card(self, card: CardRef | None) -> None:
        self.checks.card = card

    def failed(self, face: tuple[str, ...], name: str, err: InputError) -> None:
        self.heard.append(("failed", (face, name, err)))
        self.checks.failed(face, name, err)

    def drawn(self, face: tuple[str, ...], name: str, region: Region, drawn) -> None:
        self.heard.append(("drawn", (face, name, region, drawn)))
        self.checks.drawn(face, name, region, drawn)

    def tell(self, checks: RegionWatcher) -> None:
        """Say it all again to ``checks``, for the card it is drawing now."""
        for what, told in self.heard:
            getattr(checks, what)(*told)


_FACES = count(1)  # each Face's number: the names of its forms are its own


class Face:
    """One layout (a front, or a back) of a deck, ready to make the art of any card.

    Its regions are drawn in runs (:func:`runs_of`): those that never change once, as shared
    forms (:meth:`define_shared`, again in each file of a long document); those that many cards
    draw alike (a suit's band, name and value) as a form for each set of values they read,
    drawn by the first card that has it; the rest for each card. A form starts from PDF's own
    graphics state, as a card's own stored art always has.
    """

    def __init__(
        self,
        painter: RegionPainter,
        doc: Document,
        layout: Layout,
        ident: str,
        width: float,
        height: float,
        section: tuple = (),
        inside: bool = False,
    ):
        self.painter, self.doc, self.ident, self.inside = painter, doc, ident, inside
        self.prefix = f"deck-{ident}-{next(_FACES)}"  # (two decks in one file both have a "front")
        self.width, self.height = width, height
        columns = painter.deck.columns
        self.runs = runs_of(layout, columns, (card.fields for card in painter.deck.iter_cards()))
        self.section = section
        self.places = {name: painter.deck.region_place(section, name) for name in layout}
        self.refs = sorted(set().union(*(refs_of(r, columns) for r in layout.values())) if layout else set())
        self.ranges = [(name, parse_ranges(r.cards)) for name, r in layout.items() if r.cards is not None]
        self.conditions = {name: compile_condition(r.when) for name, r in layout.items() if r.when is not None}
        self.shared: dict[int, str] = {}
        self._told: dict[tuple, _Told | None] = {}  # what the preflight heard as each by-values form was drawn
        self._same: Art | None = None

    @cached_property
    def numbered(self) -> bool:
        """Whether copies of one card may differ: ``cards:`` ranges, or card.number/card.copy read."""
        return bool(self.ranges) or not PER_COPY_NAMES.isdisjoint(self.refs)

    @cached_property
    def uniform(self) -> bool:
        """The same on every card: it reads no field and depends on no card number."""
        return not self.refs and not self.ranges

    def _holds(self, condition: Expression, fields: dict[str, str]) -> bool:
        """A region's ``when:`` for one card; its errors say they are the condition's."""
        try:
            return condition.holds(fields, self.painter.deck.tables)
        except InputError as err:
            raise InputError(Msg("{key}: {problem}", key="when", problem=err.message)) from None

    def _draw(self, c: Canvas, regions: Iterable, fields: dict[str, str], number: int, where: str | Msg) -> None:
        bleed = self.painter.bleed
        if bleed:  # (without bleed the caller's saved state already bounds what the regions change)
            c.saveState()
            c.translate(bleed, bleed)
        checks = self.painter.checks
        verdicts: dict[str, bool] = {}  # (regions often share a condition: worked out once a card)
        for name, region in regions:
            if region.cards is not None and number not in parse_ranges(region.cards):
                continue
            place = Msg("{where}, {region}", where=where, region=self.places[name])
            condition = self.conditions.get(name)
            try:
                if condition is not None:
                    if condition.text not in verdicts:
                        verdicts[condition.text] = self._holds(condition, fields)
                    if not verdicts[condition.text]:
                        continue
                # the region as this card has it: the preflight measures the box it is drawn in
                region = self.painter.for_card(region, fields)
                drawn = self.painter.draw(c, region, fields, self.width - 2 * bleed, self.height - 2 * bleed, place)
            except InputError as err:
                if checks is None or isinstance(err, LimitReached):  # (a whole document's bound ends it here)
                    raise err.located(source=self.painter.deck.source, place=place) from None
                checks.failed(self.section, name, err)  # the other regions and cards are still checked
                continue
            if checks is not None:
                checks.drawn(self.section, name, region, drawn)
        if bleed:
            c.restoreState()

    def define_shared(self) -> None:
        for index, (kind, regions, _) in enumerate(self.runs):
            if kind == STATIC:
                # a def, not a lambda: mypy cannot type a lambda with a default argument
                def draw(c: Canvas, w: float, h: float, regions=regions) -> None:
                    self._draw(c, regions, {}, 0, Msg("what every card of '{face}' shares", face=self.ident))

                self.shared[index] = self.doc.use_form(f"{self.prefix}-shared-{index}", self.width, self.height, draw)

    def _by_values(self, c: Canvas, index: int, run: Run, fields: dict[str, str], number: int, where) -> None:
        """A ``BY_VALUES`` run: a form drawn by the first card giving its regions their values, and
        placed for every card giving the same. The preflight hears of its regions for each card
        all the same (a problem is that card's too), drawn or not."""
        key = (self, index, tuple(fields.get(name) for name in run.refs))
        checks = self.painter.checks
        if checks is not None and key not in self._told and self.doc.has_form(key):
            # what the preflight heard of it is no longer kept (a long deck of many values): this
            # card draws the run as its own, and the preflight hears of it anew
            self._draw(c, run.regions, fields, number, where)
            return
        if len(self._told) >= MAX_RESOLVED:  # (a deck of many values: memory stays flat)
            self._told.clear()
        heard_now = False

        def draw(canvas: Canvas, w: float, h: float) -> None:
            nonlocal heard_now
            told = self._told[key] = _Told(checks) if checks is not None else None
            self.painter.checks = told
            try:
                self._draw(canvas, run.regions, fields, number, where)
            finally:
                self.painter.checks = checks
            heard_now = not self.doc.drawing_again  # (drawn again for a later file: said, not heard)

        do_form(c, self.doc.use_form(key, self.width, self.height, draw))
        told = self._told.get(key)
        if checks is not None and told is not None and not heard_now:
            told.tell(checks)

    def key(self, fields: dict[str, str], number: int) -> str:
        """Names the drawing by what it depends on: equal keys are equal pictures."""
        if self.uniform:
            return f"{self.prefix}-same"
        values = sorted(fields.items()) if "*" in self.refs else [fields.get(name) for name in self.refs]
        mask = [number in ranges for _, ranges in self.ranges]
        digest = hashlib.sha1(json.dumps([values, mask], ensure_ascii=False).encode("utf-8")).hexdigest()[:16]
        return f"{self.prefix}-{digest}"

    def art(self, fields: dict[str, str], number: int, where: str | Msg, shared: bool, card: CardRef) -> Art:
        """The face of one card; the preflight hears of ``card`` (its :class:`CardRef`) while it
        is drawn. Art with a key is drawn once, by the first card that has it: a stored form."""
        checks = self.painter.checks

        def draw(c: Canvas, w: float, h: float) -> None:
            if checks is not None:
                checks.card = card
            try:
                for index, run in enumerate(self.runs):
                    if run.kind == STATIC:
                        do_form(c, self.shared[index])
                    elif run.kind == BY_VALUES:
                        self._by_values(c, index, run, fields, number, where)
                    else:
                        self._draw(c, run.regions, fields, number, where)
            finally:
                if checks is not None:
                    checks.card = None

        if shared and self.uniform:  # one Art serves every card (what it draws, cards share: no card to name)
            if self._same is None:
                self._same = Art(draw, key=self.key(fields, number), inside=self.inside)
            return self._same
        return Art(draw, key=self.key(fields, number) if shared else None, inside=self.inside)
