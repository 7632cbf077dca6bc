"""Hostile files made on demand for the hardening tests: fonts with broken or telltale glyphs,
pictures whose headers claim more pixels than they hold, workbooks that declare a million rows,
documents nested a hundred thousand deep. Made here rather than kept in tests/corpus/ where a file
would be large or binary and its recipe says more than its bytes."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from pathlib import Path


def claimed_png(width: int, height: int) -> bytes:
    """A one-pixel PNG whose header claims ``width`` × ``height`` pixels (a few dozen bytes)."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("L", (1, 1)).save(buffer, "PNG")
    data = bytearray(buffer.getvalue())
    ihdr = data.index(b"IHDR")
    data[ihdr + 4 : ihdr + 12] = struct.pack(">II", width, height)
    data[ihdr + 17 : ihdr + 21] = struct.pack(">I", zlib.crc32(bytes(data[ihdr : ihdr + 17])))
    return bytes(data)


def font(path: Path, family: str, *, box_x: bool = False, broken: str | None = None) -> Path:
    """A small TrueType font of the letters A, B and X. ``box_x``: its X is a box filling the em,
    so a page shows which font drew it. ``broken``: B is a composite glyph made of a glyph the font
    does not have ("missing") or of itself ("self")."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

    def box(left, bottom, right, top):
        pen = TTGlyphPen(None)
        pen.moveTo((left, bottom))
        pen.lineTo((left, top))
        pen.lineTo((right, top))
        pen.lineTo((right, bottom))
        pen.closePath()
        return pen.glyph()

    order = [".notdef", "A", "B", "X"]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(order)
    builder.setupCharacterMap({ord(name): name for name in "ABX"})
    composite = Glyph()
    composite.numberOfContours = -1
    part = GlyphComponent()
    part.glyphName, part.x, part.y, part.flags = "A", 0, 0, 0
    composite.components = [part]
    composite.xMin = composite.yMin = 0
    composite.xMax = composite.yMax = 500
    glyphs = {
        ".notdef": box(100, 0, 500, 700),
        "A": box(100, 0, 500, 700),
        "B": composite,
        "X": box(0, -200, 1000, 800) if box_x else box(400, 0, 600, 700),
    }
    builder.setupGlyf(glyphs, calcGlyphBounds=False)
    builder.setupHorizontalMetrics({name: (1000 if name == "X" else 600, 0) for name in order})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": family, "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    builder.save(str(path))
    if broken:
        _point_component_elsewhere(path, 999 if broken == "missing" else order.index("B"))
    return path


def _point_component_elsewhere(path: Path, glyph_index: int) -> None:
    """Make B's one component name glyph ``glyph_index``, in the file's bytes (fontTools would not
    write a font so broken)."""
    from fontTools.ttLib import TTFont

    data = bytearray(path.read_bytes())
    parsed = TTFont(str(path))
    glyf = parsed.reader.tables["glyf"].offset
    loca = parsed.reader.tables["loca"].offset
    if parsed["head"].indexToLocFormat == 0:
        start = struct.unpack(">H", data[loca + 4 : loca + 6])[0] * 2  # glyph 2 (B)
    else:
        start = struct.unpack(">I", data[loca + 8 : loca + 12])[0]
    at = glyf + start + 12  # header (10 bytes), flags (2), then the component's glyph index
    data[at : at + 2] = struct.pack(">H", glyph_index)
    path.write_bytes(bytes(data))


def workbook(
    path: Path,
    *,
    dimension: str | None = None,
    far_cell: bool = False,
    number: str | None = None,
    picture: tuple[int, int] | None = None,
) -> Path:
    """A small .xlsx of two cards (name, count), then changed inside: its worksheet declaring
    ``dimension``, a cell far to the right, ``number`` as the first count's stored digits, or a
    picture whose header claims ``picture`` pixels."""
    import re

    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["name", "count"])
    sheet.append(["A", 2])
    sheet.append(["B", 1])
    if picture:
        from openpyxl.drawing.image import Image as SheetImage
        from PIL import Image

        buffer = io.BytesIO()
        Image.new("RGB", (4, 4), "red").save(buffer, "PNG")
        buffer.seek(0)
        sheet.add_image(SheetImage(buffer), "D2")
    plain = io.BytesIO()
    book.save(plain)
    changed = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(plain.getvalue())) as source,
        zipfile.ZipFile(changed, "w", zipfile.ZIP_DEFLATED) as out,
    ):
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename == "xl/worksheets/sheet1.xml":
                if dimension is not None:
                    data = re.sub(rb'<dimension ref="[^"]*"/>', f'<dimension ref="{dimension}"/>'.encode(), data)
                if far_cell:
                    data = re.sub(rb'<dimension ref="[^"]*"/>', b"", data).replace(
                        b"</sheetData>", b'<row r="9"><c r="XFD9" t="inlineStr"><is><t>x</t></is></c></row></sheetData>'
                    )
                if number is not None:
                    data = data.replace(b"<v>2</v>", f"<v>{number}</v>".encode(), 1)
            if picture and info.filename.startswith("xl/media/") and info.filename.endswith(".png"):
                data = claimed_png(*picture)
            out.writestr(info, data)
    path.write_bytes(changed.getvalue())
    return path
