"""Text inside SVG art, set in fonts the PDF embeds: drawn as the outlines of the deck's own font
(the family its ``font-family`` names, as the deck's ``fonts:`` names it) or of the bundled
Japanese font.

svglib, left to itself, looks a family up as a file — ``<family>.ttf`` from wherever the process
runs, ``font-family="../secret/leak"`` or an absolute path included — then asks fontconfig, and
else sets the text in Helvetica, which no PDF of ours embeds. Here it is given a font map that
opens no file: every family it asks for is a face we chose, measured for its layout of lines,
and once the SVG is read each piece of its text becomes a filled path of that face's glyphs.
Outlines need no font in the PDF at all, print the same everywhere, and a character no face has
is an error naming the picture, never a silent blank.
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.pdfbase import pdfmetrics

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.records import record
from kkprint.engine.fonts import damaged_font

if TYPE_CHECKING:  # (ReportLab's graphics load its platypus: only a picture with text needs them)
    from reportlab.graphics.shapes import Group, String

SLANT = math.tan(math.radians(12))  # italic made from an upright face, as in text regions
MAX_GLYPHS = 20_000  # characters of text in one picture (with every SVG it refers to)
FACES = ("regular", "bold", "italic", "bold_italic")


@record
class SvgFonts:
    """The fonts text in SVG art may be set in: the deck's families (name, then (face, file)
    pairs, faces as in ``fonts:``), before the bundled font. Hashable: part of a picture's key."""

    families: tuple[tuple[str, tuple[tuple[str, Path], ...]], ...] = ()

    def faces(self, family: str) -> dict[str, Path] | None:
        wanted = family.strip().strip("'\"").lower()
        for name, faces in self.families:
            if name.lower() == wanted:
                return dict(faces)
        return None


@lru_cache(maxsize=1)
def _recorder() -> type:
    """The pen that records a glyph's outline as path operations (quadratic curves made cubic by
    fontTools' BasePen), made when the first picture with text asks for one."""
    from fontTools.pens.basePen import BasePen

    class Recorder(BasePen):
        def __init__(self, glyph_set):
            super().__init__(glyph_set)
            self.operations: list[tuple[str, tuple[float, ...]]] = []

        def _moveTo(self, point):  # noqa: N802 - fontTools' pen protocol
            self.operations.append(("moveTo", point))

        def _lineTo(self, point):  # noqa: N802
            self.operations.append(("lineTo", point))

        def _curveToOne(self, first, second, third):  # noqa: N802
            self.operations.append(("curveTo", (*first, *second, *third)))

        def _closePath(self):  # noqa: N802
            self.operations.append(("closePath", ()))

        _endPath = _closePath

    return Recorder


class _Face:
    """One font file's characters, advances and outlines (read lazily: the bundled font has
    sixty thousand glyphs, a picture uses a few)."""

    def __init__(self, source: str, label: str):
        from fontTools.ttLib import TTFont

        self.label = label
        try:
            self.font = TTFont(source, lazy=True, fontNumber=0)
            self.cmap = self.font.getBestCmap() or {}
            self.units = self.font["head"].unitsPerEm or 1000
            self.metrics = self.font["hmtx"].metrics
            self.glyph_set = self.font.getGlyphSet()
        except Exception:  # noqa: BLE001 - fontTools reads a broken font however it is broken
            raise damaged_font(label) from None
        self._outlines: dict[str, tuple] = {}

    def has(self, char: str) -> bool:
        return ord(char) in self.cmap

    def advance(self, char: str) -> float:
        """The advance of ``char`` in em."""
        name = self.cmap[ord(char)]
        try:
            return self.metrics[name][0] / self.units
        except (KeyError, IndexError, TypeError):
            return 0.0

    def outline(self, char: str) -> tuple:
        """The glyph of ``char`` as path operations in em, drawn once."""
        name = self.cmap[ord(char)]
        found = self._outlines.get(name)
        if found is None:
            pen = _recorder()(self.glyph_set)
            try:
                self.glyph_set[name].draw(pen)
            except RecursionError:  # a composite glyph built from itself
                raise InputError(
                    Msg(
                        "font '{label}' is damaged: its glyph for '{char}' is built from itself",
                        label=self.label,
                        char=char,
                    )
                ) from None
            except Exception:  # noqa: BLE001 - as in __init__
                raise InputError(
                    Msg(
                        "font '{label}' is damaged: its glyph for '{char}' (U+{code:04X}) cannot be read",
                        label=self.label,
                        char=char,
                        code=ord(char),
                    )
                ) from None
            scale = 1 / self.units
            found = self._outlines[name] = tuple(
                (operation, tuple(value * scale for value in values)) for operation, values in pen.operations
            )
        return found


@lru_cache(maxsize=16)
def _face_file(path: Path, stamp: tuple) -> _Face:
    return _Face(str(path), path.name)


@lru_cache(maxsize=2)
def _bundled(bold: bool) -> _Face:
    from kkprint.engine.fonts import bundled_font_file

    return _Face(str(bundled_font_file(bold)), "Noto Sans CJK JP")


def _file_face(path: Path) -> _Face:
    info = path.stat()
    return _face_file(path, (info.st_mtime_ns, info.st_size))


@record
class _Choice:
    """The face a piece of SVG text asked for: a deck family (or none: the bundled font), bold, italic."""

    family: str | None
    bold: bool
    italic: bool


def _face_for(fonts: SvgFonts, choice: _Choice) -> tuple[_Face, bool]:
    """The face for ``choice`` and whether it must be slanted (an italic the family lacks)."""
    faces = fonts.faces(choice.family) if choice.family else None
    if not faces:
        return _bundled(choice.bold), choice.italic
    wanted = ("bold_" if choice.bold else "") + ("italic" if choice.italic else "regular")
    for face, slanted in ((wanted, False), ("bold" if choice.bold else "regular", choice.italic)):
        if face in faces:
            return _file_face(faces[face]), slanted
    return _file_face(next(iter(faces.values()))), choice.italic


def _glyphs(fonts: SvgFonts, text: str, choice: _Choice):
    """(character, face or None, slanted) for each character to draw: the chosen face where it
    has the character, else the bundled font; None where neither has it."""
    face, slanted = _face_for(fonts, choice)
    fallback = _bundled(choice.bold)
    for char in text:
        if char in "\n\r\t":
            continue
        if face.has(char):
            yield char, face, slanted
        elif fallback.has(char):
            yield char, fallback, choice.italic
        else:
            yield char, None, False


class _Measure:
    """What svglib measures text with while it lays out the lines of an SVG: the advances of the
    faces the text will be drawn in. Registered with ReportLab under a name of its own, but never
    used to write a PDF — every string becomes outlines before anything is drawn."""

    _dynamicFont = 0
    _multiByte = 0

    def __init__(self, name: str, fonts: SvgFonts, choice: _Choice):
        self.fontName, self.fonts, self.choice = name, fonts, choice

    def stringWidth(self, text: str, size: float, encoding=None) -> float:  # noqa: N802 - ReportLab's name
        return sum(face.advance(char) for char, face, _ in _glyphs(self.fonts, text, self.choice) if face) * size


@lru_cache(maxsize=256)
def _measure_name(fonts: SvgFonts, choice: _Choice) -> str:
    """The font name svglib is told for ``choice``, registered with ReportLab on first use."""
    import hashlib

    name = "KKSvgText-" + hashlib.sha1(repr((fonts, choice)).encode("utf-8")).hexdigest()[:16]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(_Measure(name, fonts, choice))
    return name


class Lettering:
    """The text of one picture: svglib's font map while it reads the SVG (``find_font``), then
    the outlines its strings become (:meth:`outline_strings`)."""

    def __init__(self, fonts: SvgFonts, picture: str):
        self.fonts, self.picture = fonts, picture

    def find_font(self, family: str, weight: str = "normal", style: str = "normal") -> tuple[str, bool]:
        """svglib's question for each name of a ``font-family`` list: (a font name, whether it is
        the family asked for). No name opens a file: a family the deck does not have is the
        bundled font, and the next name of the list is asked about."""
        weight = str(weight).strip().lower()
        bold = weight in ("bold", "bolder") or (weight.isdigit() and int(weight) >= 600)
        italic = str(style).strip().lower() in ("italic", "oblique")
        known = self.fonts.faces(family) is not None
        choice = _Choice(family.strip().strip("'\"").lower() if known else None, bold, italic)
        return _measure_name(self.fonts, choice), known

    def outline_strings(self, drawing: Group) -> None:
        """Replace every string of ``drawing`` (at any depth) by the outlines of its glyphs."""
        from reportlab.graphics.shapes import Group, String

        count = 0
        groups = [drawing]
        while groups:
            group = groups.pop()
            for index, item in enumerate(group.contents):
                if isinstance(item, Group):
                    groups.append(item)
                elif isinstance(item, String):
                    count += len(item.text)
                    if count > MAX_GLYPHS:
                        raise InputError(
                            Msg(
                                "{name}: has more than {limit:,} characters of text",
                                name=self.picture,
                                limit=MAX_GLYPHS,
                            )
                        )
                    group.contents[index] = self._outlined(item)

    def _outlined(self, string: String) -> Group:
        """The glyphs of ``string`` as one filled path, placed as svglib placed the string."""
        from reportlab.graphics.shapes import FILL_NON_ZERO, Group
        from reportlab.graphics.shapes import Path as ShapePath

        measure = pdfmetrics.getFont(string.fontName)
        choice = measure.choice if isinstance(measure, _Measure) else _Choice(None, False, False)
        glyphs = list(_glyphs(self.fonts, string.text, choice))
        for char, face, _ in glyphs:
            if face is None:
                raise InputError(
                    Msg(
                        "{name}: its text has '{char}' (U+{code:04X}), which neither the deck's fonts nor the bundled one can draw",
                        name=self.picture,
                        char=char,
                        code=ord(char),
                    )
                )
        if string.fillColor is None:  # fill="none": nothing to see
            return Group()
        size = string.fontSize
        width = sum(face.advance(char) for char, face, _ in glyphs) * size
        pen_x = string.x - {"middle": width / 2, "end": width}.get(string.textAnchor, 0.0)
        path = ShapePath(
            fillColor=string.fillColor,
            fillOpacity=getattr(string.fillColor, "alpha", 1),  # (svglib gives a string's opacity to its colour)
            strokeColor=None,
            strokeWidth=0,
            fillMode=FILL_NON_ZERO,  # as fonts are drawn
        )
        for char, face, slanted in glyphs:
            lean = SLANT if slanted else 0.0
            for operation, values in face.outline(char):
                points = []
                for gx, gy in zip(values[::2], values[1::2]):
                    points += [pen_x + (gx + gy * lean) * size, string.y + gy * size]
                getattr(path, operation)(*points)
            pen_x += face.advance(char) * size
        return Group(path)
