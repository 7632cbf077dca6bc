"""Pictures from a user's files — SVG, PNG, JPG — read safely and drawn into a box.

Everything an SVG can name stays where the deck's own files must stay. Its references
(``<use href="other.svg#g">``, ``<image href="pic.png">``, ``url()`` in styles) must lie inside
``root`` (links resolved) or the SVG is refused with the reference named; svglib is never left to
open a file itself: the SVGs an SVG uses are read and checked here as it was, and its pictures too.
A ``font-family`` opens no file at all: text in SVG art is drawn as outlines of the deck's own
font or the bundled one (:mod:`kkprint.engine.svgtext`), so every font of every PDF is embedded.

One budget holds for every picture wherever it comes from — a file, a picture an SVG links, a
``data:`` URI inside one: at most :data:`MAX_PIXELS` pixels and :data:`MAX_PICTURE_BYTES` bytes,
for an SVG counted over everything it holds, and checked from each picture's header before a
pixel is decoded (an 18 kB PNG may claim 169 megapixels). Pictures a workbook carries are never
decoded: data is read from its cells alone.

Odd numbers are refused, not drawn: ``viewBox="0 0 nan nan"``, ``width="1e-300"`` or a transform
of 1e300 would write ``nan`` into the PDF or stop ReportLab when it writes the page.
``opacity`` on elements and groups, which svglib ignores, is carried down to the fill and stroke
opacities it does read.
"""

from __future__ import annotations

import base64
import binascii
import io
import math
import re
import warnings
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.errors import InputError
from kkprint.base.i18n import N_, Msg
from kkprint.base.yamlio import read_bytes
from kkprint.engine.svgtext import Lettering, SvgFonts

MAX_PICTURE_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 40_000_000  # 40 megapixels: a poker card at 1,200 dpi is 9 MP
MAX_ELEMENTS = 100_000  # elements of one SVG: far more than any drawing on a card
MAX_NUMBER = 1e9  # a coordinate or size in SVG art; ReportLab cannot write 1e21 at all
MIN_SIZE = 0.01  # points: an SVG's width and height
CACHE_BYTES = 96 * 1024 * 1024  # what the pictures kept for the next card may hold, together
_XLINK = "{http://www.w3.org/1999/xlink}href"
_URL = re.compile(r"url\(\s*['\"]?([^)'\"]*)['\"]?\s*\)")
_DATA = re.compile(r"^data:image/(png|jpe?g);base64,", re.IGNORECASE)
_SHAPES = {"path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "use", "image"}

__all__ = ["SvgFonts", "check_picture", "draw_picture", "load_raster", "load_svg"]


# --- the budget ------------------------------------------------------------------------------


class Budget:
    """What one picture may cost, whatever it holds: a PNG on its own, or an SVG together with
    every SVG and picture it refers to."""

    def __init__(self, name: str):
        self.name, self.pixels, self.bytes = name, 0, 0
        self.files: list[tuple[Path, tuple]] = []  # every file read, as it was: what the picture is made of

    def read(self, path: Path) -> bytes:
        """A file of the picture (the SVG, or one it refers to), counted in."""
        try:
            self.files.append((path, _stamp(path)))
        except OSError:
            pass  # (reading it says what is wrong)
        try:
            data = read_bytes(path, limit=MAX_PICTURE_BYTES, what=N_("pictures"))
        except InputError as err:
            raise InputError(Msg("{name}: {message}", name=path.name, message=err.message)) from None
        self.bytes += len(data)
        if self.bytes > MAX_PICTURE_BYTES:
            raise InputError(
                Msg(
                    "{name}: the files it refers to come to more than {value} MB, the most one picture may hold",
                    name=self.name,
                    value=MAX_PICTURE_BYTES // 2**20,
                )
            )
        return data

    def spend(self, what: Msg | None, width: int, height: int) -> None:
        """Count a raster picture in, from its header; refuse it if the picture grows too large."""
        if width * height > MAX_PIXELS:
            raise self.refusal(
                what,
                N_("{name}: is {width}×{height} pixels; pictures are limited to {value} megapixels"),
                N_("{name}: {what} is {width}×{height} pixels; pictures are limited to {value} megapixels"),
                width=width,
                height=height,
                value=MAX_PIXELS // 1_000_000,
            )
        self.pixels += width * height
        if self.pixels > MAX_PIXELS:
            raise InputError(
                Msg(
                    "{name}: the pictures in it come to more than {value} megapixels, the most one picture may hold",
                    name=self.name,
                    value=MAX_PIXELS // 1_000_000,
                )
            )

    def refusal(self, what: Msg | None, alone: str, inside: str, **values: Any) -> InputError:
        """The error for the picture itself (``what`` None) or for ``what`` inside it."""
        if what is None:
            return InputError(Msg(alone, name=self.name, **values))
        return InputError(Msg(inside, name=self.name, what=what, **values))


def _probe(data: bytes, budget: Budget, what: Msg | None = None) -> tuple[int, int]:
    """The size of a PNG or JPG (the picture itself, or ``what`` inside it), counted into
    ``budget`` from its header before any pixel is decoded; then decoded once, and let go, so
    that a broken file is said now and not while a page is being written."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as probe:
                if probe.format not in ("PNG", "JPEG"):
                    raise budget.refusal(
                        what,
                        N_("{name}: is a {format} picture; use PNG or JPG"),
                        N_("{name}: {what} is a {format} picture; use PNG or JPG"),
                        format=probe.format,
                    )
                budget.spend(what, probe.width, probe.height)
                probe.load()
                return probe.size
    except InputError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise budget.refusal(  # (Pillow's own limit, met before ours for pictures beyond 89 megapixels)
            what,
            N_("{name}: is larger than {value} megapixels, the most a picture may have"),
            N_("{name}: {what} has more than {value} megapixels, the most a picture may have"),
            value=MAX_PIXELS // 1_000_000,
        ) from None
    except Exception:  # noqa: BLE001 - Pillow's many errors for a broken file
        raise budget.refusal(
            what,
            N_("{name}: not a readable PNG or JPG picture"),
            N_("{name}: {what} is not a readable PNG or JPG picture"),
        ) from None


class _Pictures:
    """Recently used pictures, kept while together they hold at most :data:`CACHE_BYTES`: a deck
    draws one picture on many cards, but a thousand cards each with its own picture must not
    keep them all."""

    def __init__(self, limit: int):
        self.limit, self.held = limit, 0
        self.items: OrderedDict[Any, tuple[Any, int]] = OrderedDict()

    def get(self, key) -> Any:
        found = self.items.get(key)
        if found is not None:
            self.items.move_to_end(key)
            return found[0]
        return None

    def put(self, key, value, weight: int) -> Any:
        replaced = self.items.pop(key, None)  # (a picture read again: its files changed)
        if replaced is not None:
            self.held -= replaced[1]
        self.items[key] = (value, weight)
        self.held += weight
        while self.held > self.limit and len(self.items) > 1:
            _, (_, dropped) = self.items.popitem(last=False)
            self.held -= dropped
        return value


_KEPT = _Pictures(CACHE_BYTES)


def _stamp(path: Path) -> tuple:
    info = path.stat()
    return (info.st_mtime_ns, info.st_size)


# --- raster pictures -------------------------------------------------------------------------


class Raster:
    """A PNG or JPG, checked and kept as its file's bytes: decoded only while it is drawn."""

    def __init__(self, data: bytes, size: tuple[int, int]):
        self.data, self.size = data, size

    def reader(self) -> ImageReader:
        return ImageReader(io.BytesIO(self.data))


def load_raster(path: Path) -> Raster:
    key = ("raster", path, _stamp(path))
    found = _KEPT.get(key)
    if found is None:
        budget = Budget(path.name)
        data = budget.read(path)
        found = _KEPT.put(key, Raster(data, _probe(data, budget)), len(data))
    return found


# --- SVG: reading and checking -----------------------------------------------------------------


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _style_opacity(node) -> float:
    value = node.get("opacity")
    style = node.get("style") or ""
    match = re.search(r"(?:^|;)\s*opacity\s*:\s*([0-9.]+)", style)
    if match:
        value = match.group(1)
    try:
        opacity = float(value) if value is not None else 1.0
    except ValueError:
        return 1.0
    return min(1.0, max(0.0, opacity)) if math.isfinite(opacity) else 1.0


def _push_opacity(tree) -> None:
    """Multiply each element's (and its groups') ``opacity`` into its fill and stroke opacity
    (walked without recursion: the parser allows deep documents)."""
    pending = [(tree, 1.0)]
    while pending:
        node, inherited = pending.pop()
        opacity = inherited * _style_opacity(node)
        if "opacity" in node.attrib:
            del node.attrib["opacity"]
        if opacity < 1.0 and _local(node.tag) in _SHAPES:
            for key in ("fill-opacity", "stroke-opacity"):
                try:
                    own = float(node.get(key, "1"))
                except ValueError:
                    own = 1.0
                node.set(key, f"{(own if math.isfinite(own) else 1.0) * opacity:.4f}")
        pending.extend((child, opacity) for child in node)


def _check_reference(ref: str, svg: Path, root: Path | None) -> None:
    ref = ref.strip()
    if not ref or ref.startswith("#"):
        return
    if ref.lower().startswith("data:"):
        if not _DATA.match(ref):
            raise InputError(Msg("{name}: an embedded picture must be a base64 PNG or JPG", name=svg.name))
        return
    target = ref.split("#", 1)[0]
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith(("/", "\\")):
        raise InputError(
            Msg(
                "{name}: refers to '{value}': only files next to it may be referred to",
                name=svg.name,
                value=target[:80],
            )
        )
    try:
        path = (svg.parent / target).resolve()
        inside = root is None or path.is_relative_to(root.resolve())
        there = path.is_file()
    except (OSError, RuntimeError, ValueError):
        raise InputError(
            Msg("{name}: refers to '{value}', which cannot be resolved", name=svg.name, value=target[:80])
        ) from None
    if not inside:
        raise InputError(
            Msg("{name}: refers to '{value}', outside the deck's folder", name=svg.name, value=target[:80])
        )
    if not there:
        raise InputError(Msg("{name}: refers to '{value}', which is not there", name=svg.name, value=target[:80]))


def _unreadable(path: Path, err) -> InputError:
    """An SVG file libxml2 cannot read, in kkprint's words with the line and column it stopped
    at: libxml2's own ("Excessive depth in document: 256, use XML_PARSE_HUGE option", "Couldn't
    find end of Start Tag") is English, and offers a parser option the user does not have."""
    line, column = err.position if err.position and err.position[0] else (err.lineno or 0, 0)
    if "depth" in str(err).lower():  # (libxml2's limit of 256 levels; the code for it differs by release)
        return InputError(Msg("{name}: is nested too deeply to read (line {line})", name=path.name, line=line))
    if not line:
        return InputError(Msg("{name}: is not a well-formed SVG (XML) file", name=path.name))
    return InputError(
        Msg(
            "{name}: is not a well-formed SVG (XML) file: a mistake at line {line}, column {column}",
            name=path.name,
            line=line,
            column=column,
        )
    )


def _parse(path: Path, root: Path | None, budget: Budget):
    """An SVG file as an element tree, every reference it makes checked."""
    from lxml import etree

    data = budget.read(path)
    if b"<!ENTITY" in data:
        raise InputError(
            Msg("{name}: declares XML entities, which pictures may not (they can read other files)", name=path.name)
        )
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, remove_comments=True, huge_tree=False, load_dtd=False
    )
    try:
        tree = etree.parse(io.BytesIO(data), parser=parser).getroot()
    except etree.XMLSyntaxError as err:
        raise _unreadable(path, err) from None
    if tree is None or _local(tree.tag) != "svg":
        raise InputError(Msg("{name}: is not an SVG picture (no <svg> element)", name=path.name))
    elements = 0
    for node in tree.iter():
        elements += 1
        if elements > MAX_ELEMENTS:
            raise InputError(
                Msg(
                    "{name}: has more than {limit:,} elements; simplify the drawing", name=path.name, limit=MAX_ELEMENTS
                )
            )
        for key in (_XLINK, "href"):
            if key in node.attrib:
                _check_reference(node.get(key), path, root)
        for text in (node.get("style") or "", node.text if _local(node.tag) == "style" else "") or ():
            for ref in _URL.findall(text or ""):
                _check_reference(ref, path, root)
            if "@import" in (text or ""):
                raise InputError(
                    Msg("{name}: uses @import in its style; write the styles into the file", name=path.name)
                )
        for key, value in node.attrib.items():
            if key not in (_XLINK, "href", "style"):
                for ref in _URL.findall(value):
                    _check_reference(ref, path, root)
    _push_opacity(tree)
    return tree


@lru_cache(maxsize=1)
def _renderer_class():
    """svglib's renderer, with every file it would open opened here instead (made on first use:
    svglib is only loaded by decks with SVG art), and its log silenced: what it would say, a
    reading here has said first, in the user's words."""
    import logging

    from PIL import Image
    from svglib.svglib import CircularRefError, NodeTracker, SvgRenderer, node_name

    logging.getLogger("svglib").addHandler(logging.NullHandler())
    logging.getLogger("svglib").propagate = False

    class SafeRenderer(SvgRenderer):
        def __init__(self, path: Path, root: Path | None, budget: Budget, lettering: Lettering, parents=None):
            super().__init__(str(path), parent_svgs=parents, font_map=lettering)
            self.root, self.budget, self.lettering = root, budget, lettering
            self._external: dict[str, External] = {}

        def xlink_href_target(self, node, group=None):
            href = (node.attrib.get(_XLINK) or node.attrib.get("href") or "").strip()
            if href.lower().startswith("data:"):
                return self._embedded(href)
            iri, _, fragment = href.partition("#")
            if not iri:
                return super().xlink_href_target(node, group)  # within this document
            path = (Path(str(self.source_path)).parent / iri).resolve()  # checked when the SVG was read
            if str(path) == self.source_path:
                return super().xlink_href_target(node, group)  # svglib reads it as a fragment of this one
            if path.suffix.lower() != ".svg":
                if node_name(node) == "use":  # svglib skips a <use> of a bitmap when given its name
                    return str(path)
                return self._picture(self.budget.read(path), Msg("'{value}'", value=iri[:80]))
            if str(path) in self._parent_chain:
                raise CircularRefError()
            if str(path) not in self._external:
                self._external[str(path)] = External(path, self)
            external = self._external[str(path)]
            if not fragment:
                return external.renderer, NodeTracker.from_xml_root(external.root_node)
            found = external.get_fragment(fragment)
            return (external.renderer, found) if found is not None else None

        def _embedded(self, href: str):
            match = _DATA.match(href)
            if match is None:  # (the reading refused it already: kept for what svglib reaches itself)
                return None
            try:
                data = base64.b64decode(href[match.end() :].encode("ascii"))
            except (binascii.Error, UnicodeEncodeError, ValueError):
                raise InputError(
                    Msg("{name}: an embedded picture is not valid base64", name=self.budget.name)
                ) from None
            return self._picture(data, Msg("an embedded picture"))  # (its bytes were counted with the SVG's)

        def _picture(self, data: bytes, what: Msg):
            """A picture the SVG holds, within the budget, for svglib (which asks its size) and
            for drawing (which decodes it from these bytes only while the page is written)."""
            size = _probe(data, self.budget, what)
            image = Image.open(io.BytesIO(data))  # (only its header is read)
            image.kk_raster = Raster(data, size)  # type: ignore[attr-defined]  # what the PDF renderer draws
            return image

    class External:
        """An SVG that another one uses (``<use href="parts.svg#a">``), read as safely as the first."""

        def __init__(self, path: Path, parent: SafeRenderer):
            self.root_node = _parse(path, parent.root, parent.budget)
            self.renderer = SafeRenderer(
                path, parent.root, parent.budget, parent.lettering, [*parent._parent_chain, str(parent.source_path)]
            )
            self.renderer._use_expansions = parent._use_expansions
            self.rendered: bool = False

        def get_fragment(self, fragment: str):
            if not self.rendered:
                self.renderer.render(self.root_node)
                self.rendered = True
            return self.renderer.definitions.get(fragment)

    return SafeRenderer


def _numbers(value):
    """The numbers in an attribute of a drawn shape: a number, or a list of them (a path's
    points, a transform, a dash pattern that may hold a list of its own)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, (list, tuple)):
                yield from (number for number in item if isinstance(number, (int, float)))
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                yield item


def _check_numbers(drawing, name: str) -> None:
    """Every number of the drawing finite and of a size a PDF can hold."""
    pending = [drawing]
    while pending:
        node = pending.pop()
        for key, value in vars(node).items():
            if key == "contents":
                pending.extend(value)
                continue
            for number in _numbers(value):
                if not math.isfinite(number) or abs(number) > MAX_NUMBER:
                    raise InputError(
                        Msg("{name}: holds the number {value}, which cannot be drawn", name=name, value=f"{number:g}")
                    )


def _svg(path: Path, root: Path | None, fonts: SvgFonts):
    """The SVG drawn once as a ReportLab drawing, its text outlined and its numbers checked."""
    path = path.resolve()
    budget = Budget(path.name)
    tree = _parse(path, root, budget)
    lettering = Lettering(fonts, path.name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            drawing = _renderer_class()(path, root, budget, lettering).render(tree)
    except (InputError, RecursionError) as err:
        if isinstance(err, InputError):
            raise
        raise InputError(Msg("{name}: is nested too deeply to draw", name=path.name)) from None
    except Exception as err:  # noqa: BLE001 - svglib raises many kinds for odd files
        raise InputError(
            Msg(
                "{name}: cannot draw SVG: {value}",
                name=path.name,
                value=str(err).splitlines()[0][:100] if str(err) else type(err).__name__,
            )
        ) from None
    if drawing is None:
        raise InputError(Msg("{name}: cannot read SVG (empty, or without width and height)", name=path.name))
    for size in (drawing.width, drawing.height):
        if not isinstance(size, (int, float)) or not math.isfinite(size) or not MIN_SIZE <= size <= MAX_NUMBER:
            raise InputError(
                Msg(
                    "{name}: its size ({value}) cannot be drawn; give it a width, height or viewBox of ordinary numbers",
                    name=path.name,
                    value=f"{drawing.width:g}×{drawing.height:g}"
                    if isinstance(drawing.width, (int, float)) and isinstance(drawing.height, (int, float))
                    else "?",
                )
            )
    lettering.outline_strings(drawing)
    _check_numbers(drawing, path.name)
    return drawing, budget


def load_svg(path: Path, root: Path | None, fonts: SvgFonts = SvgFonts()):
    """The SVG as a ReportLab drawing; ``root`` is the folder its references must stay in
    (``None``: anywhere, for --allow-outside), ``fonts`` the deck's, for its text. Kept until
    the file or a picture or SVG it refers to changes (a PNG inside it repainted, a part it uses
    mended while the studio or ``watch`` runs), or other pictures need the room."""
    key = ("svg", path, root, fonts, _stamp(path))
    found = _KEPT.get(key)
    if found is None or not _unchanged(found[1]):
        drawing, budget = _svg(path, root, fonts)  # (its first file is the SVG, whose stamp is in the key)
        found = _KEPT.put(key, (drawing, budget.files[1:]), budget.bytes)
    return found[0]


def _unchanged(files: list[tuple[Path, tuple]]) -> bool:
    try:
        return all(_stamp(file) == stamp for file, stamp in files)
    except OSError:  # (gone: read again, to say so)
        return False


# --- drawing ---------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _renderer():
    """renderPDF, but pictures inside an SVG become image XObjects: stored once, and allowed
    inside forms (the inline images renderPDF writes break a form's text stream), and no font is
    ever named. Made on first use: ReportLab's graphics package is only loaded by decks with SVG
    art."""
    from reportlab.graphics import renderPDF

    class Renderer(renderPDF._PDFRenderer):
        def applyStateChanges(self, delta, newState):  # noqa: N802 - renderPDF's name
            """Everything but the font: the art's text is outlines, and renderPDF would name
            Helvetica (never embedded) in every picture only to set its default state."""
            super().applyStateChanges({k: v for k, v in delta.items() if k not in ("fontName", "fontSize")}, newState)

        def drawImage(self, image):  # noqa: N802 - renderPDF's name
            raster = getattr(image.path, "kk_raster", None)
            if raster is not None:
                self._canvas.drawImage(raster.reader(), image.x, image.y, image.width, image.height, mask="auto")

    return Renderer, renderPDF.renderScaledDrawing


def _render(drawing, c: Canvas) -> None:
    renderer, scaled = _renderer()
    renderer().draw(scaled(drawing), c, 0, 0)


def pixel_size(path: Path) -> tuple[int, int] | None:
    """A PNG's or JPG's width and height in pixels (read once, as for drawing: the preflight's
    resolution check); None for SVG, which has no pixels of its own."""
    if path.suffix.lower() in (".png", ".jpg", ".jpeg"):
        return load_raster(path).size
    return None


def check_picture(path: Path, root: Path | None, fonts: SvgFonts = SvgFonts()) -> None:
    """Read a picture now, so that a broken one is reported where it is named."""
    if path.suffix.lower() == ".svg":
        load_svg(path, root, fonts)
    elif path.suffix.lower() in (".png", ".jpg", ".jpeg"):
        load_raster(path)
    else:
        raise InputError(Msg("{name}: pictures are .svg, .png or .jpg", name=path.name))


def draw_picture(
    c: Canvas,
    path: Path,
    root: Path | None,
    x: float,
    y: float,
    w: float,
    h: float,
    fit: str = "contain",
    fonts: SvgFonts = SvgFonts(),
) -> None:
    """Draw an SVG, PNG or JPG into the box: ``contain`` (whole, in proportion, centred),
    ``cover`` (fills the box in proportion, cropped to it) or ``stretch``."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        drawing = load_svg(path, root, fonts)
        natural = (drawing.width, drawing.height)
    elif suffix in (".png", ".jpg", ".jpeg"):
        raster = load_raster(path)
        natural = raster.size
    else:
        raise InputError(Msg("{name}: pictures are .svg, .png or .jpg", name=path.name))
    sx, sy = w / natural[0], h / natural[1]
    if fit == "contain":
        sx = sy = min(sx, sy)
    elif fit == "cover":
        sx = sy = max(sx, sy)
    dw, dh = natural[0] * sx, natural[1] * sy
    c.saveState()
    if fit == "cover":
        clip = c.beginPath()
        clip.rect(x, y, w, h)
        c.clipPath(clip, stroke=0, fill=0)
    left, bottom = x + (w - dw) / 2, y + (h - dh) / 2
    if suffix == ".svg":
        c.translate(left, bottom)
        c.scale(sx, sy)
        _render(drawing, c)
    else:
        c.drawImage(raster.reader(), left, bottom, dw, dh, mask="auto")
    c.restoreState()
