"""The deck language a designer switches for: their own fonts and icons, rich text, conditions,
ranges, several layouts, backs from card data, spreadsheets, shapes and units — read back from
the PDFs that a build writes."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, RecordingCanvas, assert_clean_error, run_cli
from openpyxl import Workbook
from pypdf import PdfReader
from reportlab.lib.units import mm

from kkprint.base.errors import InputError
from kkprint.cli.targets import resolve
from kkprint.deck.build import check_deck
from kkprint.deck.load import load_deck
from kkprint.engine.job import BuildOptions, build_targets

EXAMPLES = ROOT / "examples" / "decks"
HEIST_FONTS = EXAMPLES / "heist" / "fonts"
COIN = EXAMPLES / "heist" / "icons" / "coin.svg"


def build(path: Path, out: Path, **options) -> list[Path]:
    return build_targets(resolve([str(path)]), BuildOptions(out_dir=out, **options))


def runs(page) -> list[tuple[str, str, float]]:
    """(text, font's BaseFont, size) for every text run drawn on a page."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip() and font is not None:
            found.append((text, str(font.get("/BaseFont")), size * tm[0] if tm else size))

    page.extract_text(visitor_text=visit)
    return found


def font_of(page, fragment: str) -> str:
    for text, font, _ in runs(page):
        if fragment in text:
            return font
    raise AssertionError(f"{fragment!r} not drawn: {runs(page)}")


@pytest.fixture
def deck_dir(tmp_path) -> Path:
    folder = tmp_path / "deck"
    (folder / "fonts").mkdir(parents=True)
    for name in ("Vera.ttf", "VeraBd.ttf", "VeraIt.ttf"):
        shutil.copy(HEIST_FONTS / name, folder / "fonts" / name)
    shutil.copy(COIN, folder / "coin.svg")
    return folder


def write(folder: Path, text: str, name: str = "d.yaml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


FONT_DECK = """\
name: fonts
card: {size: poker}
fonts:
  vera: {regular: fonts/Vera.ttf, bold: fonts/VeraBd.ttf, italic: fonts/VeraIt.ttf}
icons: {coin: coin.svg}
layout:
  rules: {type: text, x: 4, y: 4, w: 55, h: 60, font: vera, size: 10,
          text: "Plain <b>Boldrun</b> and <i>Italicrun</i> <b><i>Bothrun</i></b> pay {coin}{coin} 日本語"}
  title: {type: text, x: 4, y: 70, w: 55, h: 10, font: vera/bold, text: "${name}"}
cards: [{name: Titleword}]
"""


def test_deck_font_is_embedded_and_each_run_uses_its_face(deck_dir, tmp_path):
    [pdf] = build(write(deck_dir, FONT_DECK), tmp_path / "out", duplex=None)
    page = PdfReader(pdf).pages[0]
    assert "Vera" in font_of(page, "Plain") and "Bold" not in font_of(page, "Plain")
    assert "Bold" in font_of(page, "Boldrun")
    assert "Oblique" in font_of(page, "Italicrun") or "Italic" in font_of(page, "Italicrun")
    # no bold-italic file: the bold face, slanted (a skewed text matrix), never a blank
    assert "Bold" in font_of(page, "Bothrun")
    assert "Bold" in font_of(page, "Titleword")
    # characters Vera lacks fall back to the bundled Japanese font
    assert "Noto" in font_of(page, "日本語") or "KKSans" in font_of(page, "日本語")
    content = page.get_contents().get_data().decode("latin-1")
    forms = [page["/Resources"]["/XObject"][name].get_object() for name in page["/Resources"]["/XObject"]]
    streams = content + "".join(f.get_data().decode("latin-1") for f in forms)
    assert re.search(r"1 0 0?\.2125\d* 1 ", streams), "italic made from an upright face is slanted by 12°"
    embedded = _fonts(PdfReader(pdf))
    assert len(embedded) >= 4 and all("/FontFile2" in d for d in embedded), "every font embedded as TrueType"


def _fonts(reader):
    seen = []
    for page in reader.pages:
        for obj in _walk_fonts(page["/Resources"]):
            if obj not in seen:
                seen.append(obj)
    return seen


def _walk_fonts(resources):
    resources = resources.get_object()
    for font in (resources.get("/Font") or {}).values():
        font = font.get_object()
        if "/FontDescriptor" in font:
            yield font["/FontDescriptor"].get_object()
        for descendant in font.get("/DescendantFonts", []):
            yield descendant.get_object()["/FontDescriptor"]
    for xobject in (resources.get("/XObject") or {}).values():
        xobject = xobject.get_object()
        if "/Resources" in xobject:
            yield from _walk_fonts(xobject["/Resources"])


def test_cff_opentype_fonts_are_converted_like_the_bundled_one(deck_dir, tmp_path):
    from fontTools import subset
    from fontTools.ttLib import TTFont

    from kkprint.engine.fonts import _font_path

    font = TTFont(str(_font_path("regular")))
    options = subset.Options()
    options.name_IDs = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ")
    subsetter.subset(font)
    assert "CFF " in font
    font.save(str(deck_dir / "fonts" / "Latin.otf"))
    deck = write(
        deck_dir,
        "name: cff\ncard: {size: poker}\nfonts: {latin: {regular: fonts/Latin.otf}}\n"
        "layout:\n  t: {type: text, x: 4, y: 4, w: 55, h: 20, font: latin, text: Hello Otfworld}\n"
        "cards: [{name: a}]\n",
    )
    [pdf] = build(deck, tmp_path / "out")
    page = PdfReader(pdf).pages[0]
    assert "Otfworld" in page.extract_text()
    assert "KKDeck" in font_of(page, "Otfworld")  # the deck's font, not the bundled fallback
    descriptors = [d for d in _fonts(PdfReader(pdf)) if "KKDeck" in str(d["/FontName"])]
    assert descriptors and all("/FontFile2" in d for d in descriptors)  # CFF became TrueType outlines


def test_inline_deck_icons_sit_on_the_baseline_and_follow_span_size(monkeypatch):
    from kkprint.engine import text as text_module
    from kkprint.engine.fonts import prepare_fonts
    from kkprint.engine.icons import register_icon
    from kkprint.engine.text import ICON_DROP, ICON_SCALE, TextBox, draw_fitted, fit_text
    from kkprint.engine.typesetting import FontBook, Typesetting

    fonts = prepare_fonts(["x"])
    register_icon("deck~test~coin", lambda c, size: None)
    setting = Typesetting(FontBook(fonts.regular, fonts.bold), markup=True, icons=(("coin", "deck~test~coin"),))
    placed = []

    monkeypatch.setattr(text_module, "draw_icon", lambda c, name, x, y, s: placed.append((name, x, y, s)))
    box = TextBox(0, 0, 400, 100)
    fitted = fit_text("Pay {coin} or <span size='20'>{coin}</span> now", fonts.regular, box, 10, 10, setting=setting)
    canvas = RecordingCanvas()
    draw_fitted(canvas, fitted, fonts.regular, box)
    strings = canvas.strings
    baseline = strings[0][1]
    (n1, x1, y1, s1), (n2, x2, y2, s2) = placed
    assert n1 == n2 == "deck~test~coin"
    assert s1 == pytest.approx(10 * ICON_SCALE) and s2 == pytest.approx(20 * ICON_SCALE)
    assert y1 == pytest.approx(baseline - 10 * ICON_DROP) and y2 == pytest.approx(baseline - 20 * ICON_DROP)
    assert all(y == baseline for _, y, _, _ in strings)


CONDITION_DECK = """\
name: cond
card: {size: mini}
layout:
  name:  {type: text, x: 2, y: 2, w: 40, h: 8, text: "${name}"}
  elite: {type: text, x: 2, y: 12, w: 40, h: 8, text: ELITEMARK, when: "type == 'elite' and cost >= 3"}
  cheap: {type: text, x: 2, y: 22, w: 40, h: 8, text: CHEAPMARK, when: "not cost > 1 or type in ('free', 'gift')"}
  first: {type: text, x: 2, y: 32, w: 40, h: 8, text: RANGEMARK, cards: "2-3,6"}
back:
  name:  {type: text, x: 2, y: 2, w: 40, h: 8, text: "BACKOF ${name}"}
cards:
  - {name: Alpha, type: elite, cost: 3}
  - {name: Beta, type: elite, cost: 2, count: 2}
  - {name: Gamma, type: basic, cost: 1}
  - {name: Delta, type: gift, cost: 5}
  - {name: Eps, type: elite, cost: "07"}
"""


def test_conditions_and_ranges_select_exactly_the_right_cards(tmp_path):
    [pdf] = build(write(tmp_path, CONDITION_DECK), tmp_path / "out", card_pages=True)
    pages = PdfReader(pdf).pages
    fronts = [pages[i].extract_text() for i in range(0, len(pages), 2)]
    backs = [pages[i].extract_text() for i in range(1, len(pages), 2)]
    names = ["Alpha", "Beta", "Beta", "Gamma", "Delta", "Eps"]
    assert [next(n for n in names if n in f) for f in fronts] == names
    assert ["ELITEMARK" in f for f in fronts] == [True, False, False, False, False, True]
    assert ["CHEAPMARK" in f for f in fronts] == [False, False, False, True, True, False]
    assert ["RANGEMARK" in f for f in fronts] == [False, True, True, False, False, True]
    # every back carries its own card's name
    assert [b.strip() for b in backs] == [f"BACKOF {n}" for n in names]


def test_backs_with_card_data_land_behind_their_fronts_on_duplex_sheets(tmp_path):
    [pdf] = build(write(tmp_path, CONDITION_DECK), tmp_path / "out")
    reader = PdfReader(pdf)
    front, back = reader.pages[0], reader.pages[1]
    width = float(front.mediabox.width)

    def positions(page, prefix=""):
        found = {}

        def visit(text, cm, tm, font, size):
            for name in ("Alpha", "Beta", "Gamma", "Delta", "Eps"):
                if text.strip() == f"{prefix}{name}":
                    x = cm[4] + tm[4] * cm[0]
                    found.setdefault(name, []).append(round(x / mm))

        page.extract_text(visitor_text=visit)
        return found

    fronts, backs = positions(front), positions(back, "BACKOF ")
    assert set(fronts) == set(backs) == {"Alpha", "Beta", "Gamma", "Delta", "Eps"}
    # long-edge duplex mirrors left and right: a card's back column is its front column mirrored
    for name in fronts:
        front_columns = sorted(round(x / 10) for x in fronts[name])
        back_columns = sorted(round((width / mm - x - 40) / 10) for x in backs[name])
        assert len(front_columns) == len(back_columns)


def test_layouts_extend_each_other_and_a_field_picks_one(tmp_path):
    deck = write(
        tmp_path,
        """\
name: lay
card: {size: mini}
layouts:
  item: {extends: mini, regions: {title: {colour: "#ff0000"}, tag: {type: text, x: 2, y: 50, w: 40, h: 6, text: ITEMTAG}}}
  plan: {extends: item, regions: {tag: {text: PLANTAG}}}
cards:
  - {name: Knife, text: a, layout: item}
  - {name: Scheme, text: b, layout: plan}
""",
    )
    [pdf] = build(deck, tmp_path / "out", card_pages=True)
    pages = [p.extract_text() for p in PdfReader(pdf).pages]
    assert "ITEMTAG" in pages[0] and "Knife" in pages[0]
    assert "PLANTAG" in pages[1] and "ITEMTAG" not in pages[1] and "Scheme" in pages[1]
    bad = write(tmp_path, deck.read_text().replace("layout: plan", "layout: plans"), "bad.yaml")
    with pytest.raises(InputError, match="did you mean 'plan'"):
        build(bad, tmp_path / "out2")


def _xlsx(path: Path, rows: list[list]) -> None:
    book = Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in rows:
        sheet.append(row)
    book.save(path)


ROWS = [
    ["name", "icon", "value", "qty", "colour"],
    ["Wood", "die:1", 1, 12, "#2e7d32"],
    ["Stone", "die:2", 2.0, 10, "#616161"],
    ["Ore", "die:3", 3, 8, "#37474f"],
    ["Grain", "die:4", 1, 12, "#f9a825"],
    ["Wool", "die:5", 1, 8, "#8d6e63"],
]
DATA_DECK = """\
name: data
card: {size: mini}
data: DATA
copies_field: qty
layout:
  band:  {type: shape, shape: rect, x: 0, y: 0, w: 44, h: 10, fill: "${colour}"}
  name:  {type: text, x: 2, y: 1, w: 40, h: 8, text: "${name} ${value}"}
  icon:  {type: icon, x: 10, y: 15, w: 20, h: 20, icon: "${icon}"}
"""


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_xlsx_and_csv_give_the_same_pdf(tmp_path, delimiter):
    _xlsx(tmp_path / "cards.xlsx", ROWS)
    with open(tmp_path / "cards.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle, delimiter=delimiter).writerows(
            [[("2" if cell == 2.0 else cell) for cell in row] for row in ROWS]
        )
    (tmp_path / "cards.json").write_text("[" + ",".join(json.dumps(dict(zip(ROWS[0], r))) for r in ROWS[1:]) + "]")
    pdfs = []
    for name in ("cards.xlsx", "cards.csv", "cards.json"):
        write(tmp_path, DATA_DECK.replace("DATA", name))
        [pdf] = build(tmp_path / "d.yaml", tmp_path / name.replace(".", "-"))
        pdfs.append(pdf.read_bytes())
    assert pdfs[0] == pdfs[1] == pdfs[2]
    deck = load_deck(tmp_path / "d.yaml")
    assert deck.total == 50  # the qty column, not one card a row
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdfs[0])).pages)
    assert text.count("Wood 1") == 12 and "Stone 2" in text and "Stone 2.0" not in text


def _copies_in_every_format(folder: Path, written: str, number: float) -> list[Path]:
    """A deck of one card whose copies are ``number`` as each kind of data file holds it: an
    .xlsx cell (openpyxl gives a float), a CSV's text as written, JSON and the deck's own cards."""
    _xlsx(folder / "cards.xlsx", [["name", "count"], ["A", number]])
    (folder / "cards.csv").write_text(f"name,count\nA,{written}\n", encoding="utf-8")
    (folder / "cards.json").write_text(f'[{{"name": "A", "count": {written}}}]', encoding="utf-8")
    layout = "layout:\n  name: {type: text, x: 2, y: 1, w: 40, h: 8, text: '${name} ${card.number}'}\n"
    decks = []
    for data in ("data: cards.xlsx", "data: cards.csv", "data: cards.json", f"cards: [{{name: A, count: {written}}}]"):
        stem = data.split(".")[-1] if "." in data else "inline"
        decks.append(write(folder, f"name: d\ncard: {{size: mini}}\n{data}\n{layout}", f"{stem}.yaml"))
    return decks


def test_copies_written_as_a_whole_number_with_a_point_are_read_alike_from_every_format(tmp_path):
    """``count: 3.0`` was refused in a CSV ("copies must be a whole number") and accepted from an
    .xlsx, where openpyxl gives 3.0: every format takes a whole number written with a point."""
    pdfs = []
    for deck in _copies_in_every_format(tmp_path, "3.0", 3.0):
        assert load_deck(deck).total == 3, deck.name
        [pdf] = build(deck, tmp_path / deck.stem)
        pdfs.append(pdf.read_bytes())
    assert pdfs[0] == pdfs[1] == pdfs[2] == pdfs[3]
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdfs[1])).pages)
    assert "A 1" in text and "A 2" in text and "A 3" in text and "A 4" not in text


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_copies_that_are_not_whole_are_refused_alike_from_every_format(tmp_path, lang):
    for deck in _copies_in_every_format(tmp_path, "3.5", 3.5):
        result = run_cli("check", str(deck), "--lang", lang)
        said = "copies must be a whole number, not '3.5'" if lang == "en" else "枚数は整数にしてください"
        assert_clean_error(result, said)


def test_a_copies_like_column_that_is_not_used_is_a_warning(tmp_path):
    (tmp_path / "cards.csv").write_text("name,qty\nA,3\nB,2\n", encoding="utf-8")
    write(
        tmp_path,
        DATA_DECK.replace("DATA", "cards.csv")
        .replace("copies_field: qty\n", "")
        .replace('"${colour}"', '"#000000"')
        .replace('"${icon}"', "die:1")
        .replace(" ${value}", ""),
    )
    deck = load_deck(tmp_path / "d.yaml")
    assert deck.total == 2
    [finding] = check_deck(deck)  # the preflight says it: in the build's warnings and `kkprint check`
    assert (finding.kind, finding.card, finding.region) == ("copies-column", None, None)
    assert "column 'qty' looks like a number of copies" in finding.render("en")


def test_xlsx_picks_a_named_sheet_and_names_a_missing_one(tmp_path):
    _xlsx(tmp_path / "cards.xlsx", ROWS)
    write(tmp_path, DATA_DECK.replace("data: DATA", "data: {file: cards.xlsx, sheet: Cards}"))
    assert load_deck(tmp_path / "d.yaml").total == 50
    write(tmp_path, DATA_DECK.replace("data: DATA", "data: {file: cards.xlsx, sheet: Card}"))
    with pytest.raises(InputError, match="no worksheet 'Card'; did you mean 'Cards'"):
        load_deck(tmp_path / "d.yaml")


SHAPES_DECK = """\
name: shapes
card: {w: 2.5in, h: 3.5in, shape: hexagon}
layout:
  grad:  {type: shape, shape: rect, x: 0, y: 0, w: 2.5in, h: 20, fill: {gradient: linear, from: "#ff0000", to: "#0000ff", angle: 0}}
  glow:  {type: shape, shape: circle, x: 10, y: 22, w: 20, h: 20, fill: {gradient: radial, from: "#ffffff", to: "#00aa00"}}
  hex:   {type: shape, shape: hexagon, x: 32, y: 22, w: 20, h: 18, fill: "#ffaa00", opacity: 0.5}
  star:  {type: shape, shape: star, sides: 6, inner: 0.4, x: 10, y: 45, w: 15, h: 15, fill: "#222222"}
  poly:  {type: shape, shape: polygon, points: [[0, 0], ["10mm", 0], [5, "0.5cm"]], x: 30, y: 45, w: 10, h: 10, fill: "#123456"}
  oct:   {type: shape, shape: polygon, sides: 8, x: 45, y: 45, w: 10, h: 10, stroke: "#000000"}
  line:  {type: shape, shape: line, points: [[0, 0], [20, 10]], x: 10, y: 65, w: 20, h: 10, stroke: "#ff0000", dash: [2, 1]}
cards: [{name: a}]
"""


def test_shapes_gradients_dashes_opacity_and_units_are_in_the_pdf(tmp_path):
    [pdf] = build(write(tmp_path, SHAPES_DECK), tmp_path / "out", card_pages=True)
    reader = PdfReader(pdf)
    page = reader.pages[0]
    assert float(page.mediabox.width) == pytest.approx(2.5 * 72, abs=0.01)  # units: 2.5in
    assert float(page.mediabox.height) == pytest.approx(3.5 * 72, abs=0.01)
    forms = list(_all_forms(page["/Resources"]))
    content = page.get_contents().get_data().decode("latin-1") + "".join(f.get_data().decode("latin-1") for f in forms)
    assert re.search(r"/\w+ sh", content)  # shadings (gradients)
    assert re.search(r"\[[\d. ]+\] 0 d", content)  # dash pattern
    assert re.search(r"/\w+ gs", content)  # a graphics state: the opacity
    shading = {k: v for f in forms for k, v in (f.get("/Resources", {}).get("/Shading") or {}).items()}
    kinds = sorted(int(s.get_object()["/ShadingType"]) for s in shading.values())
    assert kinds == [2, 3]  # one axial (linear), one radial
    states = [s.get_object() for f in forms for s in (f.get("/Resources", {}).get("/ExtGState") or {}).values()]
    assert any(abs(float(s.get("/ca", 1)) - 0.5) < 1e-6 for s in states)


def test_every_graphics_state_and_shading_a_form_uses_is_defined(deck_dir, tmp_path):
    """Forms (repeated art) carry their own resources: opacity and gradients inside a back or a
    static region must still resolve."""
    deck = write(
        deck_dir,
        SHAPES_DECK.replace(
            "cards: [{name: a}]",
            "back:\n  g: {type: shape, shape: rect, x: 0, y: 0, "
            "w: 20, h: 20, opacity: 0.3, fill: {gradient: radial, from: '#ffffff', to: '${colour}'}}\n"
            "cards: [{name: a, colour: '#ff0000', count: 3}, {name: b, colour: '#00ff00', count: 2}]",
        ),
    )
    [pdf] = build(deck, tmp_path / "out")
    reader = PdfReader(pdf)
    for page in reader.pages:
        for xobject in _all_forms(page["/Resources"]):
            data = xobject.get_data().decode("latin-1")
            resources = xobject.get("/Resources", {})
            for state in re.findall(r"/(\w+) gs", data):
                assert state in [k.lstrip("/") for k in resources.get("/ExtGState", {})], state
            for shade in re.findall(r"/(\w+) sh", data):
                assert shade in [k.lstrip("/") for k in resources.get("/Shading", {})], shade


def _all_forms(resources):
    for xobject in (resources.get_object().get("/XObject") or {}).values():
        xobject = xobject.get_object()
        if xobject.get("/Subtype") == "/Form":
            yield xobject
            if "/Resources" in xobject:
                yield from _all_forms(xobject["/Resources"])


def test_svg_opacity_and_embedded_pictures_are_drawn(tmp_path):
    import base64

    from PIL import Image

    picture = io.BytesIO()
    Image.new("RGB", (8, 8), (255, 0, 0)).save(picture, "PNG")
    data = base64.b64encode(picture.getvalue()).decode()
    (tmp_path / "art.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="20" height="20">'
        '<g opacity="0.4"><rect width="20" height="20" fill="#0000ff"/></g>'
        f'<image x="0" y="0" width="10" height="10" xlink:href="data:image/png;base64,{data}"/></svg>'
    )
    write(
        tmp_path,
        "name: svg\ncard: {size: mini}\nlayout:\n  a: {type: image, x: 2, y: 2, w: 40, h: 40, src: art.svg}\n"
        "cards: [{name: a, count: 2}]\n",
    )
    [pdf] = build(tmp_path / "d.yaml", tmp_path / "out")
    page = PdfReader(pdf).pages[0]
    forms = list(_all_forms(page["/Resources"]))
    images = [
        x
        for f in forms
        for x in (f.get("/Resources", {}).get("/XObject") or {}).values()
        if x.get_object().get("/Subtype") == "/Image"
    ]
    assert images, "the embedded PNG is an image in the PDF"
    alphas = [
        float(s.get_object().get("/ca", 1))
        for f in forms
        for s in (f.get("/Resources", {}).get("/ExtGState") or {}).values()
    ]
    assert any(abs(a - 0.4) < 1e-3 for a in alphas), alphas


def test_the_example_decks_build(tmp_path):
    counts = {}
    for deck in sorted(EXAMPLES.glob("*/*.yaml")):
        [pdf] = build(deck, tmp_path / deck.stem)
        counts[deck.stem] = len(PdfReader(pdf).pages)
        assert load_deck(deck).total > 0
    # minis turned: 18 a sheet, not 16
    assert counts == {"counters": 2, "heist": 6, "kanji": 4, "lanterns": 2, "resources": 6, "summits": 2}
    assert load_deck(EXAMPLES / "resources" / "resources.yaml").total == 50
    assert load_deck(EXAMPLES / "heist" / "heist.yaml").total == 21


# --- errors: the file, the line, the card, the region, and the closest known name --------------


@pytest.mark.parametrize(
    "region, fragments",
    [
        (
            "{type: text, x: 1, y: 1, w: 9, h: 9, text: a, font: vera/bold}",
            ["line 5", "region 'r'", "unknown font family 'vera'"],
        ),
        ("{type: icon, x: 1, y: 1, w: 9, h: 9, icon: coinn}", ["line 5", "did you mean 'coin'"]),
        (
            '{type: text, x: 1, y: 1, w: 9, h: 9, text: a, when: "cost >"}',
            ["line 5", "when: 'cost >' is not a valid expression"],
        ),
        (
            "{type: text, x: 1, y: 1, w: 9, h: 9, text: a, when: \"__import__('os').system('x')\"}",
            ["attribute access (.system) is not allowed"],
        ),
        ("{type: text, x: 1, y: 1, w: 9, h: 9, text: a, when: \"__import__('os')\"}", ["no function '__import__'"]),
        ("{type: text, x: 1, y: 1, w: 9, h: 9, text: a, when: \"name.upper() == 'A'\"}", ["is not allowed"]),
        ('{type: text, x: 1, y: 1, w: 9, h: 9, text: a, cards: "3-1"}', ["'3-1' runs backwards; write 1-3"]),
        ('{type: text, x: 1, y: 1, w: 9, h: 9, text: a, cards: "0-2"}', ["must count up from 1"]),
        ('{type: text, x: 1, y: 1, w: 9, h: 9, text: a, cards: "1-9999999999999999"}', ["has too large a number"]),
        ('{type: text, x: 1, y: 1, w: 9, h: 9, text: a, cards: "x"}', ["is not a number or a range"]),
        (
            '{type: text, x: 1, y: 1, w: 9, h: 9, text: "<blink>${name}</blink>"}',
            ["cards[0]", "region 'r'", "unknown markup <blink>"],
        ),
        (
            '{type: text, x: 1, y: 1, w: 9, h: 9, text: "<blink>a</blink>"}',
            ["region 'r' (line 5)", "unknown markup <blink>"],
        ),
        ('{type: text, x: 1, y: 1, w: 9, h: 9, text: "<b>a"}', ["<b> is never closed"]),
        ('{type: text, x: 1, y: 1, w: 9, h: 9, text: "a {coinz}"}', ["unknown icon {coinz}; did you mean 'coin'"]),
        ('{type: text, x: 1, y: 1, w: 9, h: 9, text: "${nmae}"}', ["no card has a column 'nmae'; did you mean 'name'"]),
        (
            "{type: text, x: 1, y: 1, w: 9, h: 9, text: a, when: \"nmae == 'x'\"}",
            ["region 'r' (line 5)", "no card has a column 'nmae'; did you mean 'name'"],
        ),
        ('{type: text, x: 1, y: 1, w: 9, h: 9, text: a, when: "name > 3"}', ["compares a number with text"]),
        ("{type: text, x: 1furlong, y: 1, w: 9, h: 9, text: a}", ["line 5", "length '1furlong'"]),
        ('{type: image, x: 1, y: 1, w: 9, h: 9, src: "${name}.svg"}', ["image 'A.svg' not found"]),
        ("{type: shape, x: 1, y: 1, w: 9, h: 9, shape: line, points: [[0, 0]]}", ["at least 2"]),
    ],
)
def test_errors_name_file_line_card_region_and_suggest(tmp_path, english, cli, region, fragments):
    shutil.copy(COIN, tmp_path / "coin.svg")
    deck = write(
        tmp_path,
        f"name: e\ncard: {{size: mini}}\nicons: {{coin: coin.svg}}\nlayout:\n  r: {region}\ncards: [{{name: A}}]\n",
    )
    result = cli("build", str(deck), "--out", str(tmp_path / "out"))
    assert_clean_error(result, str(deck), *fragments)
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.pdf"))


@pytest.mark.parametrize("command", ["build", "check"])
def test_every_region_mistake_is_told_at_once_each_in_a_line(tmp_path, english, cli, command):
    """Three regions with a mistake each: all three are told, in the deck's order, each in one
    line naming its region and line (a designer mended them one run at a time: only the first was
    said); nothing is written, and the mistakes a forked worker meets travel back with it."""
    shutil.copy(COIN, tmp_path / "coin.svg")
    deck = write(
        tmp_path,
        "name: e\ncard: {size: mini}\nicons: {coin: coin.svg}\nlayout:\n"
        "  a: {type: text, x: 1, y: 1, w: 9, h: 9, text: '${1 +}'}\n"
        "  b: {type: text, x: 1, y: 1, w: 9, h: 9, text: ok}\n"
        "  c: {type: icon, x: 1, y: 1, w: 9, h: 9, icon: coinn}\n"
        '  d: {type: text, x: 1, y: 1, w: 9, h: 9, text: a, when: "name =="}\n'
        "cards: [{name: A}]\n",
    )
    result = cli(command, str(deck), *(["--out", str(tmp_path / "out"), "kardinal"] if command == "build" else []))
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    told = [line for line in result.stderr.splitlines() if "kkprint: error: " in line]
    assert [line.split("region ")[1][:11] for line in told] == ["'a' (line 5", "'c' (line 7", "'d' (line 8"], told
    assert "'1 +' is not a valid expression" in told[0] and "did you mean 'coin'" in told[1]
    assert "'name ==' is not a valid expression" in told[2]
    assert not list(tmp_path.glob("out/e-*.pdf"))


def test_a_region_mistake_a_layout_inherits_is_told_once_where_it_is_written(tmp_path, english, cli):
    """``plan`` extends ``item``: item's broken region is told once, as item's at its line (it was
    told again as plan's, or as the first face met), and plan's own broken region as plan's."""
    deck = write(
        tmp_path,
        "name: inh\ncard: {size: mini}\nlayouts:\n  item:\n    regions:\n"
        "      t: {type: text, x: 1, y: 1, w: 9, h: 9, text: '${1 +}'}\n"
        "  plan:\n    extends: item\n    regions:\n"
        "      u: {type: text, x: 1, y: 1, w: 9, h: 9, text: '${2 *}'}\n"
        "cards: [{name: A, layout: item}, {name: B, layout: plan}]\n",
    )
    result = cli("check", str(deck))
    told = [line.split(": ")[3] for line in result.stderr.splitlines() if "kkprint: error: " in line]
    assert told == ["layouts.item, region 't' (line 6)", "layouts.plan, region 'u' (line 10)"], result.stderr
    # the deck's own layout extending item meets the region first: it is still item's, at its line
    deck.write_text(
        deck.read_text(encoding="utf-8").replace("layouts:", "layout:\n  extends: item\nlayouts:", 1),
        encoding="utf-8",
    )
    result = cli("check", str(deck))
    told = [line.split(": ")[3] for line in result.stderr.splitlines() if "kkprint: error: " in line]
    assert told == ["layouts.item, region 't' (line 8)", "layouts.plan, region 'u' (line 12)"], result.stderr


def test_mistakes_found_together_travel_whole_through_a_workers_answer():
    """A forked worker sends its target's error back pickled: every mistake found with the first
    comes with it, each with its place."""
    import pickle

    from kkprint.base.errors import InputError

    together = InputError.together(
        [InputError("first", source="d.yaml", place="region 'a'"), InputError("second", source="d.yaml", place="b")]
    )
    back = pickle.loads(pickle.dumps(together))
    assert [(each.message, each.source, each.place) for each in back.each()] == [
        ("first", "d.yaml", "region 'a'"),
        ("second", "d.yaml", "b"),
    ]


def test_unknown_keys_suggest_the_closest(tmp_path, english, cli):
    deck = write(tmp_path, "name: e\ncard: {size: mini}\ncopies_feild: qty\nlayout: {}\ncards: [{name: A}]\n")
    assert_clean_error(cli("build", str(deck)), "line 3", "unknown key 'copies_feild'", "did you mean 'copies_field'")


# --- every file reference stays inside the deck's folder, links resolved -----------------------


@pytest.mark.parametrize("key", ["font", "icon", "data", "image", "svg-use", "svg-image", "extends-link"])
def test_references_outside_the_folder_are_refused(english, tmp_path, cli, key):
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "x.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><g id="g"><text>SECRETTEXT</text></g></svg>'
    )
    (secret / "x.png").write_bytes((ROOT / "examples/decks/heist/icons/loot.png").read_bytes())
    (secret / "t.yaml").write_text("name: t\ncard: {size: mini}\nlayout: {}\n")
    shutil.copy(HEIST_FONTS / "Vera.ttf", secret / "Vera.ttf")
    folder = tmp_path / "deck"
    folder.mkdir()
    lines = {
        "font": "fonts: {v: {regular: ../secret/Vera.ttf}}\n",
        "icon": "icons: {x: ../secret/x.svg}\n",
        "data": "data: ../secret/t.yaml\n",
        "image": "",
        "svg-use": "",
        "svg-image": "",
        "extends-link": "extends: linked\n",
    }
    (folder / "linked.yaml").symlink_to(secret / "t.yaml")
    (folder / "use.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="9" height="9"><use xlink:href="../secret/x.svg#g"/></svg>'
    )
    (folder / "img.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="9" height="9"><image width="9" height="9" xlink:href="../secret/x.png"/></svg>'
    )
    (folder / "link.png").symlink_to(secret / "x.png")
    src = {"image": "link.png", "svg-use": "use.svg", "svg-image": "img.svg"}.get(key, "")
    region = (
        f"  a: {{type: image, x: 1, y: 1, w: 9, h: 9, src: {src}}}\n"
        if src
        else "  a: {type: text, x: 1, y: 1, w: 9, h: 9, text: hi}\n"
    )
    deck = write(folder, f"name: d\ncard: {{size: mini}}\n{lines[key]}layout:\n{region}cards: [{{name: A}}]\n")
    result = cli("build", str(deck), "--out", str(tmp_path / "out"))
    assert_clean_error(result, "outside the deck's folder")
    assert "SECRETTEXT" not in result.stdout + result.stderr


def test_a_fifo_as_data_is_refused_at_once(tmp_path, cli):
    os.mkfifo(tmp_path / "cards.csv")
    deck = write(tmp_path, "name: d\ncard: {size: mini}\ndata: cards.csv\nlayout: {}\n")
    assert_clean_error(cli("build", str(deck), "--lang", "en"), "not a regular file")


def test_conditions_never_run_code(tmp_path):
    from kkprint.deck.expr import compile_condition

    for text in (
        "open('/etc/passwd').read()",
        "().__class__.__bases__",
        "[x for x in (1,)]",
        "lambda: 1",
        "9 ** 9 ** 9",
        "(x := 1)",
    ):
        with pytest.raises(InputError):
            compile_condition(text).holds({"x": "1"})
    assert compile_condition("cost == '7'").holds({"cost": "7"})
    assert compile_condition("cost == 7").holds({"cost": "07"})
    assert compile_condition("tag in ['a', 'b']").holds({"tag": "b"})


def _symbol_font(path: Path) -> None:
    """A tiny TrueType font whose only glyph (a square) sits at U+E000, which Noto lacks."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    square = TTGlyphPen(None)
    square.moveTo((100, 0)), square.lineTo((100, 700)), square.lineTo((800, 700)), square.lineTo((800, 0))
    square.closePath()
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "square"])
    builder.setupCharacterMap({0xE000: "square"})
    builder.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "square": square.glyph()})
    builder.setupHorizontalMetrics({".notdef": (500, 0), "square": (900, 100)})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "Sym", "styleName": "Regular"})
    builder.setupOS2()
    builder.setupPost()
    builder.save(str(path))


def test_a_symbol_only_the_decks_font_has_prints_in_that_font(tmp_path):
    _symbol_font(tmp_path / "sym.ttf")
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: sym\ncard: {size: mini}\nfonts: {sym: {regular: sym.ttf}}\nlayout:\n"
        "  t: {type: text, x: 2, y: 2, w: 40, h: 10, text: \"Cost <span font='sym'>\ue000</span> 3\"}\n"
        "cards: [{name: A}]\n",
        encoding="utf-8",
    )
    [pdf] = build(deck, tmp_path / "out")
    page = PdfReader(pdf).pages[0]
    assert "Sym" in font_of(page, "\ue000")
    assert "Sym" not in font_of(page, "Cost")  # the rest in the bundled font


@pytest.mark.parametrize(
    "deck",
    [
        "card: {size: poker}\nlayout:\n  t: {type: text, x: eight, y: 2, w: 4, h: 4, text: a}\n",
        "card: {size: poker}\nlayout:\n  t: {type: text, x: 2, y: 2, w: 4, h: 4, text: a, colour: '#zzzzzz'}\n",
        "card: {size: pokr}\nlayout:\n  t: {type: text, x: 2, y: 2, w: 4, h: 4, text: a}\n",
    ],
    ids=["length", "colour", "card size"],
)
def test_a_deck_checked_in_one_language_is_refused_in_the_readers(tmp_path, deck):
    """The studio checks a deck as it is saved, in no reader's language, and says what is wrong
    in each reader's: a validator's own words (a length, a colour, a card size) were fixed in
    the language of the check, English on a Japanese page."""
    from test_messages import english_words, japanese

    from kkprint.base import i18n

    path = write(tmp_path, "name: x\ncards: [{name: a}]\n" + deck)
    before = i18n.current()
    i18n.use("en")
    try:
        with pytest.raises(InputError) as refused:
            load_deck(path)
    finally:
        i18n.use(before)
    problem = refused.value.render("ja", with_source=False).split(": ", 1)[-1]  # (after the keys the user wrote)
    names = ["eight", "pokr", "none", "field", "poker", "bridge", "mini", "tarot", "square", "chip", "token"]
    assert japanese(problem) and not english_words(problem, typed=names), problem
    assert not japanese(refused.value.render("en"))


def test_every_built_in_icon_the_guide_lists_is_there_for_a_deck_in_a_process_of_its_own(tmp_path):
    """The games' icons (arms, roads, marked dice) were registered only by a game's own modules:
    a deck built in a process that had loaded no game was told {arms:cross} was unknown. They
    are loaded when a deck first names an icon kkprint has not loaded yet (and a misspelt one
    is matched against them)."""
    names = ["die:1", "die:any", "arms:cross", "arms:fan", "arms:star", "arms:crown", "arms:moon"]
    names += ["road:ship", "road:carriage", "same", "other", "third"]
    text = "".join(f"{{{name}}}" for name in names)
    deck = write(
        tmp_path,
        f'name: icons\ncard: {{size: poker}}\nlayout:\n  t: {{type: text, x: 5, y: 5, w: 53, h: 20, text: "{text}"}}\n'
        '  i: {type: icon, x: 5, y: 30, w: 10, h: 10, icon: "road:ship"}\ncards: [{name: A}]\n',
    )
    built = run_cli("build", str(deck), "--out", str(tmp_path / "out"), "--lang", "en")
    assert built.returncode == 0, built.stderr
    deck.write_text(deck.read_text(encoding="utf-8").replace("{same}", "{smae}"), encoding="utf-8")
    refused = run_cli("build", str(deck), "--out", str(tmp_path / "out2"), "--lang", "en")
    assert_clean_error(refused, "unknown icon {smae}; did you mean 'same'")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_formula_without_its_saved_value_is_refused_and_one_with_it_prints_its_value(tmp_path, lang):
    """A workbook written by a script keeps formulas with no value (only a spreadsheet program
    computes and saves them): they read as empty cells, and a card printed without its cost, and
    ``=2*3`` copies as 1, in silence. The cell is named; a formula saved with its value prints it."""
    import zipfile

    book = Workbook()
    book.active.append(["name", "cost", "count"])
    book.active.append(["A", "=1+2", 1])
    book.save(tmp_path / "cards.xlsx")
    deck = write(
        tmp_path,
        "name: x\ncard: {size: poker}\ndata: cards.xlsx\ncopies_field: count\nlayout:\n"
        '  t: {type: text, x: 5, y: 5, w: 50, h: 10, text: "${name} costs ${cost}"}\n',
    )
    refused = run_cli("build", str(deck), "--out", str(tmp_path / "out"), "--lang", lang)
    assert_clean_error(refused, "cards.xlsx", "B2")
    assert not (tmp_path / "out").exists()
    with zipfile.ZipFile(tmp_path / "cards.xlsx") as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = "xl/worksheets/sheet1.xml"
    assert b"<f>1+2</f><v></v>" in parts[sheet] or b"<f>1+2</f><v />" in parts[sheet], parts[sheet]
    parts[sheet] = (
        parts[sheet]
        .replace(b"<f>1+2</f><v></v>", b"<f>1+2</f><v>3</v>")
        .replace(b"<f>1+2</f><v />", b"<f>1+2</f><v>3</v>")
    )
    with zipfile.ZipFile(tmp_path / "cards.xlsx", "w") as archive:  # (as a spreadsheet program saves it)
        for name, data in parts.items():
            archive.writestr(name, data)
    built = run_cli("build", str(deck), "--out", str(tmp_path / "out"), "--lang", lang)
    assert built.returncode == 0, built.stderr
    assert "A costs 3" in PdfReader(next((tmp_path / "out").glob("*.pdf"))).pages[0].extract_text()
