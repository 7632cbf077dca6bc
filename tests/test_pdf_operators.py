"""The drawing shortcuts kkprint takes for speed write exactly what ReportLab's own calls write.

Placing a card's art, naming a form and setting a line of text each go around a slow part of
ReportLab (a copy of the canvas state attribute by attribute, a resource entry per use, a text
object that looks its font up for every line). Each test here draws the same thing both ways, on
two fresh canvases, and compares the operators written and the canvas state left behind.
"""

import io

import pytest
from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from kkprint.engine import text as text_module
from kkprint.engine import vertical as vertical_module
from kkprint.engine.document import Document, do_form
from kkprint.engine.fonts import prepare_fonts
from kkprint.engine.geometry import PAPERS
from kkprint.engine.text import TextBox, draw_fitted, fit_text
from kkprint.engine.typesetting import FontBook, Typesetting
from kkprint.engine.vertical import draw_vertical

# more than 256 different characters, so a face needs a second subset
KANJI = "".join(chr(code) for code in range(0x4E00, 0x4E00 + 400))
VERTICAL_TEXTS = [
    "山",  # one character: a stack of one
    "「縦書き」、テストです。ー",  # the font's vertical forms beside ordinary characters
    "第12回 Tokyo 大会",  # two digits side by side (narrowed) and a word lying turned
    "<i>斜め</i>の<span color='#aa0000'>赤い</span>字<b>太字</b>",  # slanted, coloured and bold runs
    "{漢字|かんじ}と{火山|か|ざん}",  # readings in thin columns of their own
    KANJI[:300],  # past the first subset of 256 codes, over many columns
]
FONTS = prepare_fonts(["Roll the die: 6 wins. ±½ — «déjà»\u00a0ok", KANJI, "王と枢機卿", *VERTICAL_TEXTS])


def _canvas() -> Canvas:
    return Canvas(io.BytesIO(), invariant=1)


class _ReportLabsTextObject:
    """What text was drawn with before kkprint wrote its own operators: ReportLab's text object,
    with the state kkprint's reads (its face, size and leading)."""

    def __init__(self, canvas, x, y):
        self.canvas, self.own, self.font = canvas, canvas.beginText(x, y), None

    def setFont(self, name, size):
        self.own.setFont(name, size)
        self.font = text_module.getFont(name)

    size = property(lambda self: self.own._fontsize)
    leading = property(lambda self: self.own._leading)

    def __getattr__(self, name):  # the text operators themselves: setTextOrigin, textLine, textOut …
        return getattr(self.own, name)

    def close(self):
        self.canvas.drawText(self.own)


TEXTS = [
    "Card 1",  # one plain run: the shortcut of all shortcuts
    "Roll the die: 6 wins. ±½ — «déjà»\u00a0ok",  # Latin-1 and beyond, and a no-break space
    "王と枢機卿",  # Japanese on one line
    KANJI[:300],  # past the first subset of 256 codes, over many lines
    "Pay <b>two</b> coins, <i>then</i> <span color='#aa0000'>draw</span> a card<br>and pass",  # runs of styles
]


@pytest.mark.parametrize("text", TEXTS, ids=range(len(TEXTS)))
@pytest.mark.parametrize("align", ["left", "center", "right"])
def test_fitted_text_is_written_as_reportlabs_text_object_writes_it(monkeypatch, text, align):
    setting = Typesetting(FontBook(FONTS.regular, FONTS.bold), markup=True)
    box = TextBox(10, 20, 160, 120, align, "middle")
    fitted = fit_text(text, FONTS.regular, box, 12, 4, setting=setting)
    ours, theirs = _canvas(), _canvas()
    for line in ["Card 2", "王"]:  # characters already given codes in the document, and new ones
        draw_fitted(ours, fit_text(line, FONTS.regular, box, 10), FONTS.regular, box)
    draw_fitted(ours, fitted, FONTS.regular, box)
    monkeypatch.setattr(text_module, "TextObject", _ReportLabsTextObject)
    for line in ["Card 2", "王"]:
        draw_fitted(theirs, fit_text(line, FONTS.regular, box, 10), FONTS.regular, box)
    draw_fitted(theirs, fitted, FONTS.regular, box)
    assert ours._code == theirs._code
    assert any(" Tj" in entry for entry in ours._code)  # (text was written at all)


@pytest.mark.parametrize("text", VERTICAL_TEXTS, ids=range(len(VERTICAL_TEXTS)))
def test_vertical_text_is_written_as_reportlabs_text_object_writes_it(monkeypatch, text):
    setting = Typesetting(FontBook(FONTS.regular, FONTS.bold), markup=True, vertical=True)
    box = TextBox(10, 20, 120, 160, "left", "top")
    fitted = fit_text(text, FONTS.regular, box, 12, 4, setting=setting)
    ours, theirs = _canvas(), _canvas()
    before = fit_text("王と", FONTS.regular, box, 10, setting=setting)  # codes already given, and new ones
    for canvas in (ours, theirs):
        if canvas is theirs:
            monkeypatch.setattr(vertical_module, "TextObject", _ReportLabsTextObject)
        draw_vertical(canvas, before, box, HexColor)
        draw_vertical(canvas, fitted, box, HexColor)
    assert ours._code == theirs._code
    assert sum(entry.count(" T*") for entry in ours._code) > len(before.lines)  # (characters were stacked)


def test_a_character_split_matches_reportlabs_for_known_new_and_later_subsets():
    font = text_module.getFont(FONTS.regular)
    ours, theirs = _canvas(), _canvas()
    for text in ["", "abc", "abc", "王と", KANJI, KANJI[::-1], "x\u00a0y", "王と abc"]:
        assert text_module._split(font, text, ours._doc) == font.splitString(text, theirs._doc)
    assert len(font.state[ours._doc].subsets) > 1  # the later subsets were reached


def test_a_form_placed_again_and_again_is_named_once_and_the_pdf_is_the_same():
    pdfs = []
    for place in (do_form, Canvas.doForm):
        buffer = io.BytesIO()
        canvas = Canvas(buffer, invariant=1, pageCompression=1)
        canvas.beginForm("back")
        canvas.rect(0, 0, 10, 10, fill=1)
        canvas.endForm()
        for _page in range(2):
            for _ in range(9):
                place(canvas, "back")
            if place is do_form:
                assert canvas._formsinuse == ["back"]
            canvas.showPage()
        canvas.save()
        pdfs.append(buffer.getvalue())
    assert b"/FormXob.back" in pdfs[0]
    assert pdfs[0] == pdfs[1]


def _art(canvas, width, height):
    """Art that changes everything a card's regions may change, and reads where it is."""
    canvas.setFillColor(HexColor("#336699"), 0.5)
    canvas.setStrokeColor(HexColor("#993366"))
    canvas.setLineWidth(3)
    canvas.setDash(2, 1)
    canvas.setFont(FONTS.bold, 9)
    canvas.drawString(1, 2, "Card")
    canvas.rect(0, 0, width, height)
    canvas.where = canvas.absolutePosition(0, 0)


def test_art_drawn_where_it_goes_writes_and_leaves_what_savestate_and_translate_would():
    ours, theirs = _canvas(), _canvas()
    for canvas in (ours, theirs):
        canvas.translate(5, 7)  # a page already moved: the art's position is relative to it
        canvas.setFillAlpha(0.8)
    Document(ours, PAPERS["a4"], FONTS, "en").draw_moved(_art, 30.5, 40.25, 63, 88)
    theirs.saveState()
    theirs.translate(30.5, 40.25)
    _art(theirs, 63, 88)
    theirs.restoreState()
    assert ours._code == theirs._code
    assert ours.where == theirs.where == (35.5, 47.25)
    for name in Canvas.STATE_ATTRIBUTES:
        if name == "_extgstate":
            assert ours._extgstate._d == theirs._extgstate._d == {"ca": 0.8}
        else:
            assert getattr(ours, name) == getattr(theirs, name), name
    assert ours._fillColorObj != HexColor("#336699")  # (what the art set is undone)


def test_a_state_kept_by_save_state_is_what_savestate_keeps_and_restorestate_gives_back():
    from kkprint.engine.document import restore_state, save_state

    ours, theirs = _canvas(), _canvas()
    for canvas in (ours, theirs):
        canvas.translate(5, 7)
        canvas.setFillAlpha(0.8)
    saved = save_state(ours)
    _art(ours, 63, 88)
    restore_state(ours, saved)
    theirs.saveState()
    _art(theirs, 63, 88)
    theirs.restoreState()
    assert ours._code == theirs._code and ours._code[-1] == "Q"
    for name in Canvas.STATE_ATTRIBUTES:
        if name == "_extgstate":
            assert ours._extgstate._d == theirs._extgstate._d == {"ca": 0.8}
        else:
            assert getattr(ours, name) == getattr(theirs, name), name
    assert ours._fillColorObj != HexColor("#336699") and ours._lineWidth != 3  # (what the art set is undone)


@pytest.mark.parametrize("rotation", [0, 30])
def test_an_icon_region_writes_and_leaves_what_a_saved_state_around_its_icon_would(rotation):
    """An icon region brackets its icon in ``q … Q`` without ReportLab's copy of the canvas state
    (placing a form changes none of it), also when its first use defines the form meanwhile."""
    from pathlib import Path

    from kkprint.deck.build import painter_for
    from kkprint.deck.load import load_deck
    from kkprint.deck.model import IconRegion
    from kkprint.deck.render import icon_square
    from kkprint.engine.icons import draw_icon

    deck = load_deck(Path(__file__).parent / "preflight" / "clean.yaml")
    region = IconRegion(type="icon", x=50, y=4, w=8, h=8, icon="die:3", rotation=rotation)
    ours, theirs = _canvas(), _canvas()
    documents = [Document(canvas, PAPERS["a4"], FONTS, "en") for canvas in (ours, theirs)]
    painter = painter_for(deck, FONTS)
    for canvas in (ours, theirs):
        canvas.setFillColor(HexColor("#336699"))
    for _card in range(2):  # (the first defines the icon's form, the second places it again)
        assert painter.draw(ours, region, {}, 63 * 2.8346, 88 * 2.8346, "cost") == "die:3"
        x, y, w, h = painter._box(region, 63 * 2.8346, 88 * 2.8346)
        theirs.saveState()
        if rotation:
            theirs.translate(x + w / 2, y + h / 2)
            theirs.rotate(rotation)
            theirs.translate(-(x + w / 2), -(y + h / 2))
        draw_icon(theirs, "die:3", *icon_square("die:3", x, y, w, h))
        theirs.restoreState()
    assert ours._code == theirs._code and ours._code[0] == ".2 .4 .6 rg" and ours._code[1] == "q"
    assert ours._formsinuse == theirs._formsinuse and len(documents[0]._forms) == 1
    for name in Canvas.STATE_ATTRIBUTES:
        if name == "_extgstate":
            assert ours._extgstate._d == theirs._extgstate._d
        else:
            assert getattr(ours, name) == getattr(theirs, name), name


def test_the_build_canvas_sets_transparency_as_reportlabs_canvas_does():
    """Colours carry their alpha: the build's canvas skips ReportLab's work when it stays the same,
    and writes the same operators, states and PDF (version 1.4 from the first colour) otherwise."""
    from kkprint.engine.inks import BuildCanvas

    pdfs, codes = [], []
    for kind in (BuildCanvas, Canvas):
        buffer = io.BytesIO()
        canvas = kind(buffer, invariant=1)
        for colour, alpha in [("#336699", None), ("#336699", 1.0), ("#993366", 0.5), ("#993366", 0.5), ("#000000", 1)]:
            canvas.setFillColor(HexColor(colour), alpha)
            canvas.setStrokeColor(HexColor(colour), alpha)
            canvas.rect(0, 0, 10, 10, fill=1)
        canvas.saveState()
        canvas.setStrokeAlpha(0.25)
        canvas.restoreState()
        canvas.setStrokeAlpha(0.25)  # (the state restored above: written again)
        for wrong in (1.5, -0.1, "0.5"):
            with pytest.raises(ValueError, match="setFillAlpha invalid value"):
                canvas.setFillAlpha(wrong)
            with pytest.raises(ValueError, match="setStrokeAlpha invalid value"):
                canvas.setStrokeAlpha(wrong)
        codes.append(list(canvas._code))
        canvas.showPage()
        canvas.save()
        pdfs.append(buffer.getvalue())
    assert codes[0] == codes[1] and sum("gs" in line for line in codes[0]) == 6
    assert pdfs[0] == pdfs[1] and pdfs[0].startswith(b"%PDF-1.4")
    plain = io.BytesIO()
    untouched = BuildCanvas(plain, invariant=1)
    untouched.rect(0, 0, 10, 10)
    untouched.save()
    assert plain.getvalue().startswith(b"%PDF-1.3")  # (no colour set: no transparency asked for)
