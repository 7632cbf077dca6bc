"""Pictures from a user's files — SVG, PNG, JPG — read safely and drawn into a box.

An SVG may refer to other files (``<use href="other.svg#g">``, ``<image href="pic.png">``); each
reference must stay inside ``root`` (links resolved) or the SVG is refused with the reference
named: a deck from a stranger cannot print a file from elsewhere on the machine. Pictures
embedded as ``data:`` URIs are allowed (PNG and JPG). ``opacity`` on elements and groups, which
svglib ignores, is carried down to the fill and stroke opacities it does read.
"""

from __future__ import annotations

import io
import logging
import re
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.yamlio import read_bytes

MAX_PICTURE_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 40_000_000  # 40 megapixels: a poker card at 1,200 dpi is 9 MP
_XLINK = "{http://www.w3.org/1999/xlink}href"
_URL = re.compile(r"url\(\s*['\"]?([^)'\"]*)['\"]?\s*\)")
_SHAPES = {"path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text", "use", "image"}

logging.getLogger("svglib").addHandler(logging.NullHandler())
logging.getLogger("svglib").propagate = False


def _local(tag) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _style_opacity(node) -> float:
    value = node.get("opacity")
    style = node.get("style") or ""
    match = re.search(r"(?:^|;)\s*opacity\s*:\s*([0-9.]+)", style)
    if match:
        value = match.group(1)
    try:
        return min(1.0, max(0.0, float(value))) if value is not None else 1.0
    except ValueError:
        return 1.0


def _push_opacity(node, inherited: float = 1.0) -> None:
    """Multiply each element's (and its groups') ``opacity`` into its fill and stroke opacity."""
    opacity = inherited * _style_opacity(node)
    if "opacity" in node.attrib:
        del node.attrib["opacity"]
    if opacity < 1.0 and _local(node.tag) in _SHAPES:
        for key in ("fill-opacity", "stroke-opacity"):
            try:
                own = float(node.get(key, "1"))
            except ValueError:
                own = 1.0
            node.set(key, f"{own * opacity:.4f}")
    for child in node:
        _push_opacity(child, opacity)


def _check_reference(ref: str, svg: Path, root: Path | None) -> None:
    ref = ref.strip()
    if not ref or ref.startswith("#"):
        return
    if ref.startswith("data:"):
        if not re.match(r"^data:image/(png|jpe?g);base64,", ref):
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
    path = (svg.parent / target).resolve()
    if root is not None and not path.is_relative_to(root.resolve()):
        raise InputError(
            Msg("{name}: refers to '{value}', outside the deck's folder", name=svg.name, value=target[:80])
        )
    if not path.is_file():
        raise InputError(Msg("{name}: refers to '{value}', which is not there", name=svg.name, value=target[:80]))


def _read(path: Path) -> bytes:
    try:
        return read_bytes(path, limit=MAX_PICTURE_BYTES, what="pictures")
    except InputError as err:
        raise InputError(Msg("{name}: {message}", name=path.name, message=err.message)) from None


@lru_cache(maxsize=128)
def _svg(path: Path, root: Path | None, stamp: tuple):
    from lxml import etree
    from svglib.svglib import SvgRenderer

    data = _read(path)
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
        raise InputError(
            Msg("{name}: cannot read SVG: {value}", name=path.name, value=str(err).splitlines()[0][:100])
        ) from None
    if tree is None or _local(tree.tag) != "svg":
        raise InputError(Msg("{name}: is not an SVG picture (no <svg> element)", name=path.name))
    for node in tree.iter():
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
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kwargs: dict[str, Any] = {"external_reference_root": str(root)} if root is not None else {}
            try:
                renderer = SvgRenderer(str(path), **kwargs)
            except TypeError:  # an svglib without the option; our own checks above still hold
                renderer = SvgRenderer(str(path))
            drawing = renderer.render(tree)
    except InputError:
        raise
    except Exception as err:  # noqa: BLE001 - svglib raises many kinds for odd files
        raise InputError(
            Msg(
                "{name}: cannot draw SVG: {value}",
                name=path.name,
                value=str(err).splitlines()[0][:100] if str(err) else type(err).__name__,
            )
        ) from None
    if drawing is None or not drawing.width or not drawing.height:
        raise InputError(Msg("{name}: cannot read SVG (empty, or without width and height)", name=path.name))
    return drawing


@lru_cache(maxsize=1)
def _renderer():
    """renderPDF, but pictures inside an SVG become image XObjects: stored once, and allowed
    inside forms (the inline images renderPDF writes break a form's text stream). Made on first
    use: ReportLab's graphics package is only loaded by decks with SVG art."""
    from reportlab.graphics import renderPDF

    class Renderer(renderPDF._PDFRenderer):
        def applyStateChanges(self, delta, newState):
            # a font is named in the PDF only where text is drawn: set from the state at once, an
            # SVG without a word of text put an unembedded Helvetica into every PDF it was in
            kept = {key: value for key, value in delta.items() if key not in ("fontName", "fontSize")}
            super().applyStateChanges(kept, newState)

        def drawString(self, stringObj):
            state = self._tracker.getState()
            self._canvas.setFont(state["fontName"], state["fontSize"])
            super().drawString(stringObj)

        def drawImage(self, image):
            if image.path is not None:
                self._canvas.drawImage(
                    ImageReader(image.path), image.x, image.y, image.width, image.height, mask="auto"
                )

    return Renderer, renderPDF.renderScaledDrawing


def _render(drawing, c: Canvas) -> None:
    renderer, scaled = _renderer()
    renderer().draw(scaled(drawing), c, 0, 0)


def load_svg(path: Path, root: Path | None):
    """The SVG as a ReportLab drawing; ``root`` is the folder its references must stay in
    (``None``: anywhere, for --allow-outside). Cached until the file changes."""
    info = path.stat()
    return _svg(path, root, (info.st_mtime_ns, info.st_size))


@lru_cache(maxsize=128)
def _raster(path: Path, stamp: tuple) -> ImageReader:
    from PIL import Image

    data = _read(path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as probe:
                if probe.format not in ("PNG", "JPEG"):
                    raise InputError(
                        Msg("{name}: is a {format} picture; use PNG or JPG", name=path.name, format=probe.format)
                    )
                if probe.width * probe.height > MAX_PIXELS:
                    raise InputError(
                        Msg(
                            "{name}: is {width}×{height} pixels; pictures are limited to {value} megapixels",
                            name=path.name,
                            width=probe.width,
                            height=probe.height,
                            value=MAX_PIXELS // 1_000_000,
                        )
                    )
                probe.load()
    except InputError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise InputError(
            Msg(
                "{name}: is larger than {value} megapixels, the most a picture may have",
                name=path.name,
                value=MAX_PIXELS // 1_000_000,
            )
        ) from None
    except Exception:  # noqa: BLE001 - Pillow's many errors for a broken file
        raise InputError(Msg("{name}: not a readable PNG or JPG picture", name=path.name)) from None
    return ImageReader(io.BytesIO(data))


def load_raster(path: Path) -> ImageReader:
    info = path.stat()
    return _raster(path, (info.st_mtime_ns, info.st_size))


def pixel_size(path: Path) -> tuple[int, int] | None:
    """A PNG's or JPG's width and height in pixels (read once, as for drawing); None for SVG,
    which has no pixels of its own."""
    if path.suffix.lower() in (".png", ".jpg", ".jpeg"):
        return load_raster(path).getSize()
    return None


def check_picture(path: Path, root: Path | None) -> None:
    """Read a picture now, so that a broken one is reported where it is named."""
    if path.suffix.lower() == ".svg":
        load_svg(path, root)
    elif path.suffix.lower() in (".png", ".jpg", ".jpeg"):
        load_raster(path)
    else:
        raise InputError(Msg("{name}: pictures are .svg, .png or .jpg", name=path.name))


def draw_picture(
    c: Canvas, path: Path, root: Path | None, x: float, y: float, w: float, h: float, fit: str = "contain"
) -> None:
    """Draw an SVG, PNG or JPG into the box: ``contain`` (whole, in proportion, centred),
    ``cover`` (fills the box in proportion, cropped to it) or ``stretch``."""
    suffix = path.suffix.lower()
    if suffix == ".svg":
        drawing = load_svg(path, root)
        natural = (drawing.width, drawing.height)
    elif suffix in (".png", ".jpg", ".jpeg"):
        image = load_raster(path)
        natural = image.getSize()
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
        c.drawImage(image, left, bottom, dw, dh, mask="auto")
    c.restoreState()
