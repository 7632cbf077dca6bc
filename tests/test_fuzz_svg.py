"""Fuzzing SVG art (hypothesis): the attributes a stranger's SVG may carry, odd numbers and file
references included, through the reader and into a PDF.

The contract under fuzzing: an SVG is drawn, or refused with InputError — nothing else; whatever
is drawn writes only finite numbers into the PDF and no font; nothing outside the picture's folder
is read (a font named LeakedSecret and a picture beside the folder are waiting to be).
Run longer with:  .venv/bin/python -m pytest tests/test_fuzz_svg.py --hypothesis-profile=fuzz
"""

from __future__ import annotations

import base64
import io
import os
import re
from pathlib import Path

import hostile
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SANE = st.integers(0, 200).map(str)
ODD = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(
        ["nan", "inf", "-inf", "1e-300", "1e300", "1e400", "-0", "", "10px", "5mm", "50%", "1e21", "3 4", "-7"]
    ),
)


def mostly(good, odd):
    """Mostly sane, so fuzzing reaches drawing and the PDF, not only the refusals."""
    return st.one_of(good, good, good, odd)


NUMBER = mostly(SANE, ODD)
LENGTH = st.one_of(NUMBER, NUMBER.map(lambda n: n + "pt"))
REFERENCE = mostly(
    st.sampled_from(["#a", "pic.png", "other.svg#a"]),
    st.sampled_from(
        [
            "#missing",
            "../outside.png",
            "/etc/passwd",
            "file:///etc/passwd",
            "other.svg",
            "art.svg#a",
            "bomb.png",
            "data:image/png;base64,AAAA",
            "data:image/png;base64," + base64.b64encode(hostile.claimed_png(13000, 13000)).decode(),
            "http://example.invalid/x.png",
        ]
    ),
)
FAMILY = st.sampled_from(
    [
        "../secret/leak",
        "/tmp/leak",
        "sans-serif",
        "deckfont",
        "'deckfont', serif",
        "Helvetica",
        "",
        "'unclosed",
        "a,b,,",
    ]
)
TRANSFORM = st.one_of(
    st.builds(lambda a, b: f"scale({a},{b})", NUMBER, NUMBER),
    st.builds(lambda a, b: f"translate({a} {b})", NUMBER, NUMBER),
    st.builds(lambda a: f"rotate({a})", NUMBER),
    st.builds(lambda *m: "matrix({})".format(",".join(m)), *([NUMBER] * 6)),
    st.sampled_from(["skewX(90)", "scale(", "nonsense"]),
)


ATTRIBUTES = {
    "x": LENGTH,
    "y": LENGTH,
    "width": LENGTH,
    "height": LENGTH,
    "r": LENGTH,
    "transform": TRANSFORM,
    "opacity": NUMBER,
    "stroke-width": LENGTH,
    "stroke-dasharray": st.lists(NUMBER, max_size=3).map(",".join),
    "font-size": LENGTH,
    "font-family": FAMILY,
    "font-weight": st.sampled_from(["bold", "900", "normal", "x"]),
    "href": REFERENCE,
    "points": st.lists(NUMBER, max_size=6).map(" ".join),
    "d": mostly(st.just("M0 0 L10 10 Z"), st.sampled_from(["M nan nan L 1 1", "M0 0 C 1e300 0 0 0 5 5", "garbage"])),
    "style": mostly(st.just("fill:red"), st.sampled_from(["fill:url(#g)", "fill:url(../x.svg#g)", "opacity:nan"])),
}


@st.composite
def svgs(draw) -> str:
    """An SVG document of a few elements, each with a few fuzzed attributes (escaped: the XML
    itself is well formed, so the fuzzing reaches past the parser)."""
    elements = []
    for number in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["rect", "circle", "text", "image", "use", "g", "path", "polygon"]))
        keys = draw(st.lists(st.sampled_from(sorted(ATTRIBUTES)), max_size=4, unique=True))
        attributes = " ".join(f'{key}="{escape(draw(ATTRIBUTES[key]))}"' for key in keys)
        body = draw(st.sampled_from(["AB", "日本", "x😀", ""])) if kind == "text" else ""
        elements.append(f'<{kind} id="{"a" if number == 0 else f"e{number}"}" {attributes}>{escape(body)}</{kind}>')
    size = mostly(st.integers(1, 300).map(str), LENGTH)
    view_box = draw(
        st.one_of(st.just(""), st.lists(NUMBER, min_size=4, max_size=4).map(lambda n: f' viewBox="{" ".join(n)}"'))
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{escape(draw(size))}" height="{escape(draw(size))}"{view_box}>{"".join(elements)}</svg>'
    )


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


@pytest.fixture(scope="module")
def art(tmp_path_factory):
    """A picture's folder with what it may use, beside what it may not."""
    from PIL import Image

    root = tmp_path_factory.mktemp("svgfuzz")
    (root / "secret").mkdir()
    hostile.font(root / "secret" / "leak.ttf", "LeakedSecret")
    Image.new("RGB", (4, 4), "blue").save(root / "outside.png")
    folder = root / "art"
    folder.mkdir()
    Image.new("RGB", (8, 8), "green").save(folder / "pic.png")
    (folder / "bomb.png").write_bytes(hostile.claimed_png(13000, 13000))
    (folder / "other.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="5" height="5"><rect id="a" width="5" height="5"/></svg>'
    )
    hostile.font(folder / "deck.ttf", "DeckFont")
    return folder


DRAWN: list[str] = []


@settings(
    max_examples=int(os.environ.get("KKPRINT_FUZZ_EXAMPLES", "200")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(svg=svgs())
def test_fuzzed_svg_is_drawn_or_refused_and_writes_only_what_a_pdf_can_hold(art, svg):
    from reportlab.pdfgen.canvas import Canvas

    from kkprint.base.errors import InputError
    from kkprint.engine.pictures import SvgFonts, draw_picture

    path = art / "art.svg"
    path.write_text(svg, encoding="utf-8")
    os.utime(path, ns=(len(DRAWN) + 1, hash(svg) & 0xFFFFFFFF))  # a new version: the cache reads it again
    fonts = SvgFonts((("deckfont", (("regular", art / "deck.ttf"),)),))
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pageCompression=0)
    cwd = Path.cwd()
    os.chdir(art)  # svglib looked fonts up beside the working folder
    try:
        draw_picture(canvas, path, art, 10, 10, 100, 100, "contain", fonts)
        canvas.showPage()
        canvas.save()
    except InputError as err:
        assert "\n" not in str(err) and str(err)
        return
    finally:
        os.chdir(cwd)
    DRAWN.append(svg)
    pdf = buffer.getvalue()
    assert b"LeakedSecret" not in pdf
    assert set(re.findall(rb"/BaseFont\s*/([^\s/>]+)", pdf)) <= {b"Helvetica"}  # (the bare canvas's own default)
    tokens = set(re.findall(rb"[-+]?\b(?:nan|inf)\b", pdf.lower()))
    assert not tokens, tokens


def test_the_svg_fuzzer_reaches_drawing():
    """Run after the fuzzer: some of its SVGs must have been drawn, or it only tested refusals."""
    if not DRAWN:
        pytest.skip(
            "runs after test_fuzzed_svg_is_drawn_or_refused_and_writes_only_what_a_pdf_can_hold in the same session"
        )
    assert len(DRAWN) >= 10


def test_an_svg_read_again_for_a_changed_picture_inside_it_is_counted_once(tmp_path):
    """A PNG the SVG holds, repainted five times while a studio runs: each time the SVG is read
    again with the new picture, and the cache counts the one drawing it keeps once (it added each
    new weight on top of the one it replaced, until it could hold one picture only)."""
    from PIL import Image

    from kkprint.engine import pictures

    def paint(colour: str, size: int) -> None:
        out = io.BytesIO()
        Image.new("RGB", (size, size), colour).save(out, format="PNG")
        (tmp_path / "p.png").write_bytes(out.getvalue())
        stamp = (tmp_path / "p.png").stat().st_mtime + size  # (a new time whatever the clock's grain)
        os.utime(tmp_path / "p.png", (stamp, stamp))

    (tmp_path / "a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><image width="20" height="20" href="p.png"/></svg>'
    )
    kept = pictures._Pictures(pictures.CACHE_BYTES)
    original, pictures._KEPT = pictures._KEPT, kept
    try:
        seen = []
        for size in range(10, 15):
            paint("#%02x0000" % (50 * (size - 9)), size)
            drawing = pictures.load_svg(tmp_path / "a.svg", tmp_path)
            seen.append(_rasters(drawing))
            assert len(kept.items) == 1 and kept.held == next(iter(kept.items.values()))[1], kept.held
        assert seen == [[(size, size)] for size in range(10, 15)]  # (each time the new picture)
    finally:
        pictures._KEPT = original


def _rasters(node) -> list:
    """The sizes of the pictures a drawing holds, in order."""
    raster = getattr(getattr(node, "path", None), "kk_raster", None)
    found = [raster.size] if raster is not None else []
    for child in getattr(node, "contents", []):
        found += _rasters(child)
    return found
