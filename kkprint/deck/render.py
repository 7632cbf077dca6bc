"""Drawing a deck's regions onto a card: text, icons, shapes and images, for fronts and backs."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from reportlab.graphics import renderPDF
from reportlab.lib.colors import CMYKColor, Color, HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.deck.load import Deck
from kkprint.deck.model import ImageRegion, IconRegion, Layout, ShapeRegion, TextRegion
from kkprint.engine.cards import Art
from kkprint.engine.document import Document
from kkprint.engine.fonts import FontSet
from kkprint.engine.icons import draw_icon, get_icon
from kkprint.engine.text import TextBox, draw_text
from kkprint.errors import InputError

FIELD = re.compile(r"\$\{([^}]+)\}")
HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
EDGE = 0.01  # mm: a region this close to the card edge bleeds past it


@dataclass(frozen=True)
class Palette:
    """Colours as the output needs them: RGB for home printing, CMYK for a print shop."""

    cmyk: bool = False

    def __call__(self, value: str) -> Color:
        rgb = HexColor(value)
        if not self.cmyk:
            return rgb
        k = 1 - max(rgb.red, rgb.green, rgb.blue)
        if k >= 1:
            return CMYKColor(0, 0, 0, 1)
        return CMYKColor((1 - rgb.red - k) / (1 - k), (1 - rgb.green - k) / (1 - k), (1 - rgb.blue - k) / (1 - k), k)


def fill_fields(text: str, fields: dict[str, str], where: str, source: str) -> str:
    def value(match: re.Match) -> str:
        name = match.group(1)
        if name not in fields:
            raise InputError(f"the card has no field {name!r} (fields: {', '.join(fields) or 'none'})",
                             source=source, place=where)
        return fields[name]

    return FIELD.sub(value, text)


def is_static(region) -> bool:
    """A region that looks the same on every card (no field, no ${…} in text or colours)."""
    if getattr(region, "field", None):
        return False
    return not any(value and FIELD.search(value) for value in
                   (getattr(region, key, None) for key in ("text", "colour", "fill", "stroke")))


@lru_cache(maxsize=64)
def _svg(path: str):
    from svglib.svglib import svg2rlg

    try:
        drawing = svg2rlg(path)
    except Exception as err:  # svglib raises many kinds for broken files  # noqa: BLE001
        raise InputError(f"cannot read SVG: {err}", source=path) from None
    if drawing is None or not drawing.width or not drawing.height:
        raise InputError("cannot read SVG (empty or not SVG)", source=path)
    return drawing


@dataclass
class RegionPainter:
    """Draws regions of one deck into a card box; knows the deck (for files) and the fonts."""

    deck: Deck
    fonts: FontSet
    palette: Palette
    bleed: float = 0.0  # points

    def _box(self, region, card_w: float, card_h: float) -> tuple[float, float, float, float]:
        """ReportLab box (x, y, w, h) of a region, grown into the bleed where it touches an edge."""
        x, y = region.x * mm, card_h - (region.y + region.h) * mm
        w, h = region.w * mm, region.h * mm
        if self.bleed and isinstance(region, (ShapeRegion, ImageRegion)):
            if region.x <= EDGE:
                x, w = x - self.bleed, w + self.bleed
            if region.y <= EDGE:
                h += self.bleed
            if (region.x + region.w) * mm >= card_w - EDGE * mm:
                w += self.bleed
            if (region.y + region.h) * mm >= card_h - EDGE * mm:
                y, h = y - self.bleed, h + self.bleed
        return x, y, w, h

    def draw(self, c: Canvas, name: str, region, fields: dict[str, str], card_w: float, card_h: float, where: str) -> None:
        x, y, w, h = self._box(region, card_w, card_h)
        c.saveState()
        if region.rotation:
            c.translate(x + w / 2, y + h / 2)
            c.rotate(region.rotation)
            c.translate(-(x + w / 2), -(y + h / 2))
        place = f"{where}, region {name!r}"

        def paint(value: str) -> Color:
            value = fill_fields(value, fields, place, self.deck.source)
            if not HEX_COLOUR.match(value):
                raise InputError(f"colour {value!r} from the card's fields must look like #1a2b3c",
                                 source=self.deck.source, place=place)
            return self.palette(value)

        try:
            if isinstance(region, TextRegion):
                text = fields.get(region.field, None) if region.field else fill_fields(region.text, fields, place, self.deck.source)
                if region.field and text is None:
                    raise InputError(f"the card has no field {region.field!r}", source=self.deck.source, place=place)
                c.setFillColor(paint(region.colour))
                font = self.fonts.bold if region.font == "bold" else self.fonts.regular
                draw_text(c, text, font, TextBox(x, y, w, h, region.align, region.valign), region.size,
                          region.min_size, region.leading, region.max_lines)
            elif isinstance(region, IconRegion):
                icon = fields.get(region.field, "") if region.field else region.icon
                if icon:  # a card whose field is empty simply has no icon there
                    get_icon(icon)
                    size = min(w, h)
                    draw_icon(c, icon, x + (w - size) / 2, y + (h - size) / 2, size)
            elif isinstance(region, ShapeRegion):
                self._shape(c, region, x, y, w, h, paint)
            elif isinstance(region, ImageRegion):
                src = fields.get(region.field, "") if region.field else region.src
                self._image(c, region, src, x, y, w, h, place)
        except InputError as err:
            raise err.located(source=self.deck.source, place=place) from None
        c.restoreState()

    def _shape(self, c: Canvas, region: ShapeRegion, x: float, y: float, w: float, h: float,
               paint: Callable[[str], Color]) -> None:
        if region.fill:
            c.setFillColor(paint(region.fill))
        if region.stroke:
            c.setStrokeColor(paint(region.stroke))
        c.setLineWidth(region.stroke_width)
        stroke, fill = int(bool(region.stroke)), int(bool(region.fill))
        if region.shape == "rect":
            c.rect(x, y, w, h, stroke=stroke, fill=fill)
        elif region.shape == "roundrect":
            c.roundRect(x, y, w, h, region.radius_mm * mm, stroke=stroke, fill=fill)
        elif region.shape == "ellipse":
            c.ellipse(x, y, x + w, y + h, stroke=stroke, fill=fill)
        else:
            c.line(x, y + h / 2, x + w, y + h / 2)

    def _image(self, c: Canvas, region: ImageRegion, src: str, x: float, y: float, w: float, h: float, place: str) -> None:
        if not src:
            return
        path = self.deck.resolve(src, "image", place)
        suffix = path.suffix.lower()
        if suffix == ".svg":
            drawing = _svg(str(path))
            sx, sy = w / drawing.width, h / drawing.height
            if region.fit == "contain":
                sx = sy = min(sx, sy)
            c.translate(x + (w - drawing.width * sx) / 2, y + (h - drawing.height * sy) / 2)
            c.scale(sx, sy)
            renderPDF.draw(drawing, c, 0, 0)
        elif suffix == ".png":
            try:
                c.drawImage(str(path), x, y, w, h, preserveAspectRatio=region.fit == "contain", anchor="c", mask="auto")
            except Exception as err:  # noqa: BLE001 - PIL's many errors for a broken file
                raise InputError(f"cannot read PNG {src!r}: {err}", source=self.deck.source, place=place) from None
        else:
            raise InputError(f"image {src!r}: only .svg and .png are supported", source=self.deck.source, place=place)


def runs_of(layout: Layout) -> list[tuple[bool, list[tuple[str, object]]]]:
    """Consecutive regions grouped by whether they are the same on every card (keeps draw order)."""
    runs: list[tuple[bool, list]] = []
    for name, region in layout.items():
        static = is_static(region)
        if runs and runs[-1][0] == static:
            runs[-1][1].append((name, region))
        else:
            runs.append((static, [(name, region)]))
    return runs


class Face:
    """One layout (the front, or a back) of a deck, ready to make the art of any card.

    Runs of regions that never change are drawn once as shared forms; they must be defined
    (:meth:`define_shared`) before card forms are, because PDF forms cannot be defined inside
    one another — only used.
    """

    def __init__(self, painter: RegionPainter, doc: Document, layout: Layout, ident: str, width: float, height: float):
        self.painter, self.doc, self.ident = painter, doc, ident
        self.width, self.height = width, height
        self.runs = runs_of(layout)
        self.shared: dict[int, str] = {}

    def _draw(self, c: Canvas, regions: list, fields: dict[str, str], where: str) -> None:
        bleed = self.painter.bleed
        c.saveState()
        c.translate(bleed, bleed)
        for name, region in regions:
            self.painter.draw(c, name, region, fields, self.width - 2 * bleed, self.height - 2 * bleed, where)
        c.restoreState()

    def define_shared(self) -> None:
        for index, (static, regions) in enumerate(self.runs):
            if static:
                self.shared[index] = self.doc.use_form(
                    f"deck-{self.ident}-shared-{index}", self.width, self.height,
                    lambda c, w, h, regions=regions: self._draw(c, regions, {}, f"{self.ident} layout"))

    def art(self, fields: dict[str, str], key: str | None, where: str) -> Art:
        def draw(c: Canvas, w: float, h: float) -> None:
            for index, (static, regions) in enumerate(self.runs):
                if static:
                    c.doForm(self.shared[index])
                else:
                    self._draw(c, regions, fields, where)

        return Art(draw, key=key)
