"""Deck output a designer uses every day: sheets as data, turned cards, exports for screens and
shops, the watch loop, proofing guides, greyscale and CMYK — all read back from what was written."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, assert_clean_error
from PIL import Image
from pypdf import PdfReader
from reportlab.lib.units import mm

from kkprint.cli.targets import resolve
from kkprint.engine.job import BuildOptions, build_targets

ICC = Path("/usr/share/color/icc/ghostscript/default_cmyk.icc")
NAMES = "ABCDEFGHIJ"
NAMED_FRONT = "card: {size: mini}\nlayout:\n  t: {type: text, x: 2, y: 2, w: 30, h: 9, text: '${name}'}\n"  # a mini card showing its name
LANDSCAPE = """\
name: land
card: {w: 88, h: 63}
sheet: {paper: PAPER}
layout:
  t: {type: text, x: 4, y: 2, w: 80, h: 9, text: "F${name}", size: 12}
back:
  t: {type: text, x: 4, y: 2, w: 80, h: 9, text: "B${name}", size: 12}
cards: [CARDS]
""".replace("CARDS", ", ".join(f"{{name: {n}}}" for n in NAMES))


def build(path: Path, out: Path, **options) -> list[Path]:
    return build_targets(resolve([str(path)]), BuildOptions(out_dir=out, **options))


def placements(page, prefix: str) -> dict[str, tuple[float, float, float]]:
    """Where each text starting with ``prefix`` is drawn: (x, y) in mm and its direction in degrees."""
    import math

    found = {}

    def visit(text, cm, tm, font, size):
        text = text.strip()
        if text.startswith(prefix):
            a, b = cm[0] * tm[0] + cm[2] * tm[1], cm[1] * tm[0] + cm[3] * tm[1]
            x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
            y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
            found[text[len(prefix) :]] = (x / mm, y / mm, round(math.degrees(math.atan2(b, a))) % 360)

    page.extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_landscape_cards_are_turned_to_fit_nine_a_sheet(tmp_path, paper):
    deck = tmp_path / "land.yaml"
    deck.write_text(LANDSCAPE.replace("PAPER", paper), encoding="utf-8")
    [pdf] = build(deck, tmp_path / "out")
    reader = PdfReader(pdf)
    fronts = placements(reader.pages[0], "F")
    assert len(fronts) == 9 and all(angle == 90 for _, _, angle in fronts.values())
    assert len(reader.pages) == 4  # 10 cards: two sheets, each with its backs


COLOURED = """\
name: c
card: {w: W, h: H}
SHEET
layout:
  f: {type: shape, x: 0, y: 0, w: W, h: H, fill: "${colour}"}
  mark: {type: shape, x: 2, y: 2, w: 8, h: 8, fill: "#000000"}
back:
  f: {type: shape, x: 0, y: 0, w: W, h: H, fill: "${colour}"}
cards: [CARDS]
""".replace(
    "CARDS",
    ", ".join(
        f"{{name: c{i}, colour: '#{(37 * i) % 256:02x}{(91 * i) % 256:02x}{(157 * i) % 256:02x}'}}"
        for i in range(1, 10)
    ),
)


def _pages(pdf: Path, dpi: int = 30):
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return [document[i].render(scale=dpi / 72).to_pil().convert("RGB") for i in range(len(document))]
    finally:
        document.close()


@pytest.mark.parametrize("size, sheet", [((88, 63), ""), ((63, 88), ""), ((63, 88), "sheet: {layout: sprue.yaml}")])
@pytest.mark.parametrize("mode", ["long-edge", "short-edge"])
def test_each_back_lands_exactly_behind_its_front(tmp_path, mode, size, sheet):
    """Rendered, the back page turned over as the printer turns it is the front page: every card's
    colour on both sides of the same spot (the little black mark aside)."""
    from PIL import ImageChops, ImageOps

    from kkprint.engine.geometry import DuplexMode

    (tmp_path / "sprue.yaml").write_text(
        "paper: a4\nslots:\n  - {x: 10, y: 10}\n  - {x: 100, y: 30, rotate: 90}\n  - {x: 20, y: 150}\n",
        encoding="utf-8",
    )
    deck = tmp_path / "c.yaml"
    deck.write_text(
        COLOURED.replace("SHEET", sheet).replace("W", str(size[0])).replace("H", str(size[1])), encoding="utf-8"
    )
    [pdf] = build(
        deck,
        tmp_path / "out",
        duplex=DuplexMode(mode),
        cut_marks=__import__("kkprint.engine.marks", fromlist=["CutMarks"]).CutMarks.NONE,
    )
    front, back = _pages(pdf)[:2]
    turned = ImageOps.mirror(back) if mode == "long-edge" else ImageOps.flip(back)
    band = int(front.height * 0.06)  # the margin notes differ on purpose; the cards are what counts
    box = (0, band, front.width, front.height - band)
    difference = (
        ImageChops.difference(front.crop(box), turned.crop(box)).convert("L").point(lambda v: 255 if v > 60 else 0)
    )
    changed = difference.histogram()[255]
    pixels = 30 / 25.4
    marks = 9 * (8 * pixels) ** 2  # the black marks are on the fronts only
    outlines = 9 * 2 * (size[0] + size[1]) * pixels  # so is the thin trim outline
    one_card = size[0] * size[1] * pixels**2  # a single back in the wrong place would differ by this much
    assert changed < marks * 1.3 + outlines < one_card + marks, changed


def test_folded_turned_cards_meet_their_backs_across_the_fold(tmp_path):
    from PIL import ImageChops, ImageOps

    from kkprint.engine.geometry import DuplexMode
    from kkprint.engine.marks import CutMarks

    deck = tmp_path / "c.yaml"
    deck.write_text(COLOURED.replace("SHEET", "").replace("W", "88").replace("H", "63"), encoding="utf-8")
    [pdf] = build(deck, tmp_path / "out", duplex=DuplexMode.FOLD, cut_marks=CutMarks.NONE)
    page = _pages(pdf)[0]
    half = page.width // 2
    band = int(page.height * 0.06)
    left = page.crop((0, band, half, page.height - band))
    right = ImageOps.mirror(page.crop((page.width - half, band, page.width, page.height - band)))
    difference = ImageChops.difference(left, right).convert("L").point(lambda v: 255 if v > 60 else 0)
    one_card = 88 * 63 * (30 / 25.4) ** 2
    assert difference.histogram()[255] < one_card


def test_a_frame_stays_on_the_card_while_fills_grow_into_the_bleed(tmp_path):
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: f\ncard: {size: poker}\nlayout:\n"
        "  bg: {type: shape, x: 0, y: 0, w: 63, h: 88, fill: '#ff0000'}\n"
        "  frame: {type: shape, x: 0, y: 0, w: 63, h: 88, stroke: '#0000ff', stroke_width: 2}\n"
        "cards: [{name: A}]\n",
        encoding="utf-8",
    )
    [pdf] = build(deck, tmp_path / "out", print_shop=True)
    page = PdfReader(pdf).pages[0]
    forms = "".join(
        x.get_object().get_data().decode("latin-1") for x in (page["/Resources"].get("/XObject") or {}).values()
    )
    content = page.get_contents().get_data().decode("latin-1") + forms
    rects = [
        tuple(float(v) / mm for v in m) for m in re.findall(r"([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re", content)
    ]
    assert any(abs(w - 69) < 0.01 and abs(h - 94) < 0.01 for _, _, w, h in rects)  # the fill, grown 3 mm a side
    assert any(abs(w - 63) < 0.01 and abs(h - 88) < 0.01 for _, _, w, h in rects)  # the frame, on the trim


def test_a_sheet_layout_file_places_and_turns_cards(tmp_path):
    (tmp_path / "sprue.yaml").write_text(
        "paper: {w: 300mm, h: 200mm}\ncard: {w: 63, h: 88}\nslots:\n"
        "  - {x: 10, y: 10}\n  - {x: 100, y: 10, rotate: 90}\n  - {x: 200, y: 100}\n",
        encoding="utf-8",
    )
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: s\ncard: {size: poker}\nsheet: {layout: sprue.yaml}\nlayout:\n"
        "  t: {type: text, x: 0, y: 0, w: 40, h: 6, text: 'F${name}', size: 10}\n"
        "cards: [{name: A}, {name: B}, {name: C}, {name: D}]\n",
        encoding="utf-8",
    )
    [pdf] = build(deck, tmp_path / "out")
    reader = PdfReader(pdf)
    page = reader.pages[0]
    assert float(page.mediabox.width) / mm == pytest.approx(300, abs=0.01)
    assert float(page.mediabox.height) / mm == pytest.approx(200, abs=0.01)
    spots = placements(page, "F")
    assert set(spots) == {"A", "B", "C"} and "FD" in reader.pages[1].extract_text()
    ax, ay, aa = spots["A"]
    assert (
        aa == 0
        and ax == pytest.approx(10, abs=0.2)
        and 200 - ay == pytest.approx(10 + 10 * 0.88 / mm * mm / 2.8346, abs=4)
    )
    bx, by, ba = spots["B"]
    assert ba == 90  # the second slot lies on its side: its text runs upwards
    cx, cy, ca = spots["C"]
    assert ca == 0 and cx == pytest.approx(200, abs=0.2)


def test_built_in_sheet_layouts_and_their_errors(tmp_path, english, cli):
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: s\ncard: {size: poker}\nsheet: {layout: poker-9-letter}\nlayout: {}\ncards: [{name: A, count: 10}]\n",
        encoding="utf-8",
    )
    [pdf] = build(deck, tmp_path / "out")
    assert pdf.name == "s-letter.pdf" and len(PdfReader(pdf).pages) == 2
    deck.write_text(deck.read_text().replace("poker-9-letter", "poker-9-leter"), encoding="utf-8")
    assert_clean_error(cli("build", str(deck), "--out", str(tmp_path / "o")), "did you mean 'poker-9-letter'")
    deck.write_text(deck.read_text().replace("poker-9-leter", "mini-16-a4"), encoding="utf-8")
    assert_clean_error(cli("build", str(deck), "--out", str(tmp_path / "o")), "made for 44×63 mm cards")


def test_export_writes_one_back_only_when_every_back_is_the_same_picture(tmp_path, cli):
    """Ten cards (both cores compare the backs, every other one each): one back for all when the
    deck's back is the same on every card, or when the cards' backs come out alike; when the
    ninth card's back differs by one word, every card gets its own back, as it prints."""
    from kkprint.deck.build import one_back
    from kkprint.deck.load import load_deck

    def exported(label: str, back: str, ninth: str = "same") -> Path:
        deck = tmp_path / f"{label}.yaml"
        marks = ", ".join(f"{{name: C{n}, mark: {ninth if n == 9 else 'same'}}}" for n in range(1, 11))
        deck.write_text(
            f"name: b\n{NAMED_FRONT}"
            f"back:\n  t: {{type: text, x: 2, y: 20, w: 30, h: 9, text: '{back}'}}\ncards: [{marks}]\n",
            encoding="utf-8",
        )
        assert one_back(load_deck(deck)) is (back == "back")  # the deck says so: no back rendered to find out
        out = tmp_path / label
        assert cli("export", str(deck), "--dpi", "100", "--out", str(out)).returncode == 0
        return out

    for alike in (exported("said", "back"), exported("seen", "${mark}")):
        assert sorted(p.name for p in alike.glob("*back*")) == ["b-back.png"] and len(list(alike.iterdir())) == 11
    own = exported("own", "${mark}", ninth="odd")
    backs = sorted(own.glob("*-back.png"))
    assert len(backs) == 10 and not (own / "b-back.png").exists()
    pictures = {p.name: Image.open(p).tobytes() for p in backs}
    assert pictures["009-C9-back.png"] != pictures["001-C1-back.png"] == pictures["010-C10-back.png"]


def test_one_back_only_for_the_deck_s_one_back_that_reads_nothing_of_a_card(tmp_path):
    from kkprint.deck.build import one_back
    from kkprint.deck.load import load_deck

    head = f"name: o\n{NAMED_FRONT}"
    cards = "cards: [{name: A, colour: '#ff0000'}, {name: B, colour: '#00ff00', back: plain}]\n"
    cases = {
        "back:\n  f: {type: shape, shape: rect, x: 0, y: 0, w: 44, h: 63, fill: '#123456'}\n": True,
        "back:\n  f: {type: shape, shape: rect, x: 0, y: 0, w: 44, h: 63, fill: '${colour}'}\n": False,
        "back:\n  f: {type: shape, shape: rect, x: 0, y: 0, w: 9, h: 9, when: \"name == 'A'\"}\n": False,
        "back:\n  f: {type: shape, shape: rect, x: 0, y: 0, w: 9, h: 9, cards: '1'}\n": False,
        "backs:\n  plain:\n    f: {type: shape, shape: rect, x: 0, y: 0, w: 9, h: 9}\n": False,
        "": False,
    }
    for number, (back, expected) in enumerate(cases.items()):
        path = tmp_path / f"o{number}.yaml"
        path.write_text(head + back + cards, encoding="utf-8")
        assert one_back(load_deck(path)) is expected, back


def test_pages_alike_compares_pixels_or_digests_of_bands(tmp_path, monkeypatch):
    from kkprint.engine import preview

    deck = tmp_path / "d.yaml"
    deck.write_text(
        f"name: p\n{NAMED_FRONT}cards: [{{name: A}}, {{name: A}}, {{name: B}}]\n",
        encoding="utf-8",
    )
    [pdf] = build(deck, tmp_path / "out", card_pages=True)
    for band in (preview.BAND_PIXELS, 5_000):  # one band a card; a few rows a band
        monkeypatch.setattr(preview, "BAND_PIXELS", band)
        a, a_again, b = (pdf, 0), (pdf, 1), (pdf, 2)
        assert preview._shared_picture(2, [a, a_again]) == preview._shared_picture(2, [a_again, a]) is not None
        assert preview._shared_picture(2, [a, a_again, b]) is None and preview._shared_picture(2, [b]) is not None
        assert preview.pages_alike([a, a_again], 2) and not preview.pages_alike([a, a_again, b], 2)


def test_export_names_pngs_by_card_fields_at_the_chosen_dpi(tmp_path, english, cli):
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: ex\ncard: {size: poker}\nlayout:\n  t: {type: text, x: 2, y: 2, w: 50, h: 9, text: '${name}'}\n"
        "back:\n  t: {type: text, x: 2, y: 2, w: 50, h: 9, text: 'back'}\n"
        "cards: [{id: 7, name: Knight, count: 2}, {id: 9, name: Healer}]\n",
        encoding="utf-8",
    )
    out = tmp_path / "png"
    result = cli("export", str(deck), "--name", "${id}-${name}", "--dpi", "150", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["7-Knight.png", "9-Healer.png", "ex-back.png"]
    with Image.open(out / "7-Knight.png") as image:
        assert abs(image.width - 63 / 25.4 * 150) <= 1 and abs(image.height - 88 / 25.4 * 150) <= 1
    # with the bleed into the same folder: pictures of their own (-bleed), the first export's kept
    result = cli("export", str(deck), "--name", "${id}-${name}", "--bleed", "--dpi", "100", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["7-Knight.png", "9-Healer.png", "ex-back.png", "7-Knight-bleed.png", "9-Healer-bleed.png", "ex-back-bleed.png"]
    )
    with Image.open(out / "7-Knight-bleed.png") as image:  # 3 mm bleed each side
        assert abs(image.width - 69 / 25.4 * 100) <= 1 and abs(image.height - 94 / 25.4 * 100) <= 1
    with Image.open(out / "7-Knight.png") as image:  # (the picture without bleed, as it was)
        assert abs(image.width - 63 / 25.4 * 150) <= 1
    bleed = tmp_path / "bleed"
    result = cli(
        "export", str(deck), "--bleed", "--tts", "--showcase", "1,3", "--png", "--dpi", "40", "--out", str(bleed)
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in bleed.iterdir()) == [
        "001-Knight-bleed.png",
        "003-Healer-bleed.png",
        "ex-back-bleed.png",
        "ex-showcase-bleed.png",
        "ex-tts-back-bleed.png",
        "ex-tts-bleed.png",
    ]
    assert_clean_error(
        cli("export", str(deck), "--name", "${nmae}", "--out", str(tmp_path / "x")), "did you mean 'name'"
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "d.yaml: items.csv row 3: --name '${name}' gives this card no usable file name ('')"),
        ("ja", "d.yaml: items.csv の3行目: --name「${name}」からはこのカードに使えるファイル名ができません（「」）"),
    ],
)
def test_export_names_the_card_whose_file_name_comes_out_empty(tmp_path, cli, lang, said):
    """One card's name empty with --name '${name}': the error said only "output name '' has no
    usable characters", not which card; it names the deck, the card's data row, and what to do."""
    (tmp_path / "items.csv").write_text("id,name\n7,Knight\n8,\n9,Healer\n", encoding="utf-8")
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: ex\ncard: {size: mini}\ndata: items.csv\n"
        "layout:\n  t: {type: text, x: 2, y: 2, w: 40, h: 9, text: 'card ${id}'}\n",
        encoding="utf-8",
    )
    out = tmp_path / "png"
    result = cli("export", str(deck), "--name", "${name}", "--out", str(out), "--lang", lang)
    assert_clean_error(result, said)
    assert not out.exists()  # every name is made before a picture is


def test_tabletop_simulator_sheets_have_a_ten_by_seven_grid_within_4096_pixels(tmp_path, cli):
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: tts\ncard: {size: poker}\nlayout:\n  t: {type: text, x: 2, y: 2, w: 50, h: 9, text: '${name}'}\n"
        "back:\n  f: {type: shape, x: 0, y: 0, w: 63, h: 88, fill: '#224488'}\n"
        "cards: [{name: A, count: 75}, {name: B, count: 5}]\n",
        encoding="utf-8",
    )
    out = tmp_path / "tts"
    result = cli("export", str(deck), "--tts", "--dpi", "200", "--out", str(out))
    assert result.returncode == 0, result.stderr
    names = sorted(p.name for p in out.iterdir())
    assert names == ["tts-tts-1.png", "tts-tts-2.png", "tts-tts-back.png"]
    with Image.open(out / "tts-tts-1.png") as first, Image.open(out / "tts-tts-2.png") as second:
        assert max(first.size) <= 4096 and max(second.size) <= 4096
        card_w, card_h = first.width // 10, first.height // 7  # 69 cards: a full 10 × 7 grid
        assert abs(card_w / card_h - 63 / 88) < 0.02
        assert second.width // card_w == 10 and second.height // card_h == 2  # the other 11 cards
    with Image.open(out / "tts-tts-back.png") as back:
        assert back.getpixel((back.width // 2, back.height // 2))[:3] == (0x22, 0x44, 0x88)


def test_showcase_fans_the_chosen_cards(tmp_path, english, cli):
    deck = ROOT / "examples" / "decks" / "heist" / "heist.yaml"
    out = tmp_path / "show"
    result = cli("export", str(deck), "--showcase", "1,Master Key,9", "--dpi", "60", "--out", str(out))
    assert result.returncode == 0, result.stderr
    with Image.open(out / "heist-items-showcase.png") as image:
        assert image.mode == "RGBA" and image.width > image.height  # three cards fanned sideways
        assert image.getpixel((0, 0))[3] == 0  # on a transparent ground
    assert_clean_error(
        cli("export", str(deck), "--showcase", "Master Kye", "--out", str(out)), "did you mean 'Master Key'"
    )


def _xobjects(page):
    """Every XObject a page uses, forms inside forms included."""
    stack = [page["/Resources"]]
    while stack:
        resources = stack.pop().get_object()
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            yield xobject
            if xobject.get("/Subtype") == "/Form" and "/Resources" in xobject:
                stack.append(xobject["/Resources"])


def _colour_operators(reader: PdfReader) -> str:
    streams = []
    for page in reader.pages:
        streams.append(page.get_contents().get_data().decode("latin-1"))
        streams += [x.get_data().decode("latin-1") for x in _xobjects(page) if x.get("/Subtype") == "/Form"]
    return "\n".join(streams)


def _images(reader: PdfReader) -> list:
    return [x for page in reader.pages for x in _xobjects(page) if x.get("/Subtype") == "/Image"]


def test_a_cmyk_print_shop_pdf_has_only_cmyk_colours_and_pictures(tmp_path):
    deck = ROOT / "examples" / "decks" / "heist" / "heist.yaml"
    text = deck.read_text(encoding="utf-8").replace(
        "card: {size: poker}", "card: {size: poker}\nprint_shop: {cmyk: true}"
    )
    folder = tmp_path / "heist"
    import shutil

    shutil.copytree(deck.parent, folder)
    (folder / "heist.yaml").write_text(text, encoding="utf-8")
    [pdf] = build(folder / "heist.yaml", tmp_path / "out", print_shop=True, only="1,9")
    reader = PdfReader(pdf)
    operators = _colour_operators(reader)
    assert not re.search(r"(^|\s)[\d.]+ [\d.]+ [\d.]+ (rg|RG)\b", operators), "no RGB colour anywhere"
    assert not re.search(r"(^|\s)[\d.]+ (g|G)\b", operators), "no grey colour anywhere"
    assert re.search(r"[\d.]+ [\d.]+ [\d.]+ [\d.]+ (k|K)\b", operators)
    images = _images(reader)
    assert images and all(
        image["/ColorSpace"] == "/DeviceCMYK"
        for image in images
        if "/ColorSpace" in image and image.get("/SMask") is not None or image.get("/ColorSpace") != "/DeviceGray"
    )


@pytest.mark.skipif(not ICC.is_file(), reason=f"no CMYK ICC profile at {ICC} (Debian's libgs-common ships it)")
def test_an_icc_profile_converts_colours_and_becomes_the_output_intent(tmp_path):
    import shutil

    shutil.copy(ICC, tmp_path / "shop.icc")
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: icc\ncard: {size: poker}\nprint_shop: {icc: shop.icc}\nlayout:\n"
        "  f: {type: shape, x: 0, y: 0, w: 63, h: 88, fill: '#808080'}\ncards: [{name: A}]\n",
        encoding="utf-8",
    )
    [pdf] = build(deck, tmp_path / "out", print_shop=True)
    reader = PdfReader(pdf)
    intents = reader.trailer["/Root"]["/OutputIntents"]
    profile = intents[0].get_object()["/DestOutputProfile"].get_object()
    assert profile.get_data() == ICC.read_bytes() and profile["/N"] == 4
    operators = _colour_operators(reader)
    grey = re.findall(r"(?:^|\s)([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) k", operators)
    assert grey and all(float(c) > 0.3 for c, m, y, k in grey)  # the profile's rich grey, not 0 0 0 .5 of the formula


def test_greyscale_builds_of_games_and_decks_use_no_colour(tmp_path):
    written = build_targets(
        resolve(["kardinal", str(ROOT / "examples/decks/counters/counters.yaml")]),
        BuildOptions(out_dir=tmp_path, greyscale=True),
    )
    assert written and all(p.name.endswith("-grey.pdf") for p in written)
    for pdf in written:
        operators = _colour_operators(PdfReader(pdf))
        for r, g, b in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) (?:rg|RG)\b", operators):
            assert float(r) == float(g) == float(b), (pdf.name, r, g, b)
        assert not re.search(r"[\d.]+ [\d.]+ [\d.]+ [\d.]+ (k|K)\b", operators)


def test_games_print_shop_pages_have_trim_and_bleed_boxes(tmp_path):
    written = build_targets(resolve(["court"]), BuildOptions(out_dir=tmp_path, print_shop=True, lang="en"))
    [cards] = [p for p in written if p.name.startswith("court-characters-printshop")]
    page = PdfReader(cards).pages[0]
    trim, bleed = page.trimbox, page.bleedbox
    assert (float(trim.width) / mm, float(trim.height) / mm) == (
        pytest.approx(63, abs=0.01),
        pytest.approx(88, abs=0.01),
    )
    assert float(bleed.width) / mm == pytest.approx(69, abs=0.01)
    assert len(PdfReader(cards).pages) == 120  # 60 characters, each with its back


def test_guides_draw_trim_bleed_and_safe_lines(tmp_path):
    deck = tmp_path / "d.yaml"
    deck.write_text("name: g\ncard: {size: poker}\nlayout: {}\ncards: [{name: A}]\n", encoding="utf-8")
    [plain] = build(deck, tmp_path / "a", print_shop=True)
    [guided] = build(deck, tmp_path / "b", print_shop=True, guides=True)
    plain_ops, guided_ops = (PdfReader(p).pages[0].get_contents().get_data().decode("latin-1") for p in (plain, guided))
    for colour in (".85 .1 .1 RG", ".1 .3 .9 RG", ".1 .6 .2 RG"):
        assert colour in guided_ops and colour not in plain_ops


def test_watch_rebuilds_on_save_and_survives_a_broken_edit(english, tmp_path):
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: w\ncard: {size: mini}\nlayout:\n  t: {type: text, x: 2, y: 2, w: 40, h: 9, text: '${name}'}\n"
        "cards: [{name: First}]\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "kkprint", "watch", str(deck), "--out", str(out), "--no-previews"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    pdf = out / "w-a4.pdf"

    def wait_for(condition, seconds=30):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.1)
        return False

    try:
        assert wait_for(lambda: pdf.exists() and "First" in PdfReader(pdf).pages[0].extract_text())
        time.sleep(0.5)
        deck.write_text(deck.read_text().replace("First", "Second"), encoding="utf-8")
        assert wait_for(lambda: "Second" in PdfReader(pdf).pages[0].extract_text(), 10)
        deck.write_text(deck.read_text().replace("cards:", "cards: [oops"), encoding="utf-8")
        time.sleep(2)
        deck.write_text(deck.read_text().replace("cards: [oops", "cards:").replace("Second", "Third"), encoding="utf-8")
        assert wait_for(lambda: "Third" in PdfReader(pdf).pages[0].extract_text(), 10)
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    assert "not valid YAML" in err and err.count("rebuilt") >= 3
    assert len([line for line in err.splitlines() if "error" in line]) == 1
    assert "Traceback" not in err
    assert not [p for p in out.iterdir() if p.name.startswith(".")]
    assert os.path.getsize(pdf) > 0


def test_watch_is_not_woken_by_what_the_build_does_to_its_own_folders(tmp_path):
    """A failed build takes away the folders it made for its output (``--out gen/out``): that
    change, and any inside the output folder, starts no build — or a broken deck would rebuild
    without end. The deck's own files still do."""
    from watchfiles import Change

    from kkprint.deck.watch import _relevant

    keep = _relevant((tmp_path / "gen" / "out",))
    assert not keep(Change.deleted, str(tmp_path / "gen"))
    assert not keep(Change.added, str(tmp_path / "gen" / "out" / "d-a4.pdf"))
    assert keep(Change.modified, str(tmp_path / "d.yaml")) and keep(Change.added, str(tmp_path / "general.csv"))


@pytest.mark.parametrize("mode", ["cmyk", "grey"])
def test_converted_pictures_keep_their_transparency(tmp_path, mode):
    picture = Image.new("RGBA", (20, 20), (0, 0, 0, 0))
    for x in range(5, 15):
        for y in range(5, 15):
            picture.putpixel((x, y), (200, 40, 40, 255))
    picture.save(tmp_path / "dot.png")
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: t\ncard: {size: mini}\nprint_shop: {cmyk: true}\nlayout:\n"
        "  p: {type: image, x: 2, y: 2, w: 20, h: 20, src: dot.png}\ncards: [{name: A}]\n",
        encoding="utf-8",
    )
    options = {"print_shop": True} if mode == "cmyk" else {"greyscale": True}
    [pdf] = build(deck, tmp_path / "out", **options)
    images = [i for i in _images(PdfReader(pdf)) if "/SMask" in i]
    assert images, "the picture keeps a soft mask"
    assert images[0]["/ColorSpace"] == ("/DeviceCMYK" if mode == "cmyk" else "/DeviceGray")


def test_a_face_clear_of_the_corners_is_not_clipped_card_by_card():
    """Clipping every card to its rounded outline is needed only where art reaches the corners."""
    from kkprint.base.models import adapter
    from kkprint.deck.build import stays_inside
    from kkprint.deck.model import DeckFile
    from kkprint.engine.geometry import CardSize, Shape

    def layout(**region):
        spec = adapter(DeckFile).validate_python(
            {
                "name": "d",
                "card": {"size": "poker"},
                "cards": [{"name": "A"}],
                "layout": {"r": {"type": "shape", "shape": "rect", **region}},
            }
        )
        return spec.layout

    card = CardSize(63, 88, Shape.RECT, 3)
    assert stays_inside(layout(x=2, y=2, w=59, h=84, stroke_width=1), card)
    assert not stays_inside(layout(x=0, y=0, w=63, h=88), card)  # a full-card fill reaches the corners
    assert not stays_inside(layout(x=0.5, y=2, w=10, h=10), card)  # inside the card, but not clear of the arc
    assert not stays_inside(layout(x=2, y=2, w=59, h=84, rotation=10), card)
    assert not stays_inside(layout(x=2, y=2, w=59, h=84), CardSize(63, 88, Shape.CIRCLE, 0))


def test_export_removes_what_a_dead_writer_left_of_its_files_and_nothing_else(tmp_path, cli):
    """A killed export leaves ``.NAME-PID-XXXX.part`` files; the next export into the folder
    removes those of the files it writes (their writer is gone), in one listing of the folder,
    and leaves anything else alone: another name's leftover, or one whose writer still runs."""
    import os

    deck = tmp_path / "d.yaml"
    deck.write_text(
        f"name: l\n{NAMED_FRONT}cards: [{{name: A}}, {{name: B}}]\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    out.mkdir()
    gone = 2**22 + 12345  # above Linux's largest pid: no process has it
    dead = [out / f".001-A.png-{gone}-x1.part", out / f".002-B.png-{gone}-x2.part"]
    kept = [out / f".notes.txt-{gone}-x3.part", out / f".001-A.png-{os.getpid()}-x4.part"]
    for path in dead + kept:
        path.write_bytes(b"half")
    assert cli("export", str(deck), "--dpi", "50", "--out", str(out)).returncode == 0
    assert not any(path.exists() for path in dead) and all(path.exists() for path in kept)
    assert (out / "001-A.png").read_bytes().startswith(b"\x89PNG")


SPLIT_DECK = """\
name: split
card: {size: mini}
icons: {coin: coin.svg}
layout:
  frame: {type: shape, shape: rect, x: 1, y: 1, w: 39, h: 61, stroke: "#2f5fa8", stroke_width: 1}
  title: {type: text, x: 3, y: 3, w: 35, h: 9, text: "${name} {coin}"}
  fine: {type: text, x: 3, y: 20, w: 12, h: 3, text: "${rule}", min_size: 2}
NUMBERED
back:
  word: {type: text, x: 3, y: 25, w: 35, h: 9, text: "SPLIT {coin}", size: 14}
  side: {type: text, x: 3, y: 40, w: 8, h: 2.5, text: "${faction}", min_size: 2}
cards:
  - {name: Ace, faction: the northern kingdoms, rule: short}
  - {name: Bridge, count: 3, faction: the northern kingdoms, rule: a rule far too long for the little box it is given here}
  - {name: Crown, count: 2, faction: south, rule: short}
  - {name: Dune, faction: the northern kingdoms, rule: another rule far too long for its little box}
  - {name: Eel, faction: south, rule: short}
"""


@pytest.mark.parametrize("numbered", [False, True], ids=["copies-share-a-form", "each-copy-numbered"])
def test_an_export_drawn_into_several_files_makes_the_same_pictures_and_warnings(
    tmp_path, monkeypatch, capsys, numbered
):
    """The export's PDF goes on in a new file every few hundred pages, so its memory stays flat:
    what every card shares (the frame, an icon) is defined again in each file, a card whose
    copies straddle two files is drawn in both, a back shared by cards of one faction is drawn
    again in a later file without its warning said twice, and backs are compared across files."""
    from kkprint.deck import export
    from kkprint.engine.document import page_count

    (tmp_path / "coin.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#d4a017"/></svg>',
        encoding="utf-8",
    )
    deck = tmp_path / "split.yaml"
    numbers = '  count: {type: text, x: 3, y: 50, w: 35, h: 6, text: "${card.number} / ${card.total}"}'
    deck.write_text(SPLIT_DECK.replace("NUMBERED", numbers if numbered else ""), encoding="utf-8")
    files: list[list[int]] = []
    built = export.build_targets

    def counted(*args, **kwargs):
        pdfs = built(*args, **kwargs)
        files.append([page_count(pdf) for pdf in pdfs])
        return pdfs

    monkeypatch.setattr(export, "build_targets", counted)
    pictures, warnings = {}, {}
    one_file = export.PAGES_PER_FILE
    for per_file in (one_file, 3):
        monkeypatch.setattr(export, "PAGES_PER_FILE", per_file)
        out = tmp_path / f"out-{per_file}"
        options = export.ExportOptions(out_dir=out, dpi=72, lang="en", tts=True, showcase="2,4")
        written = export.export_deck(deck, options)
        pictures[per_file] = {path.name: path.read_bytes() for path in written}
        warnings[per_file] = capsys.readouterr().err.splitlines()
    # 8 cards, front and back: one file, then a new file at each card once one has 3 pages
    # (Bridge's three copies go to two files; Dune, in the fourth, has Ace's back)
    assert files == [[16], [4, 4, 4, 4]]
    assert warnings[3] == warnings[one_file] and len(warnings[3]) == 3, warnings
    assert "card 1 'Ace'" in warnings[3][0] and "region 'side'" in warnings[3][0]
    names = {  # (each by the printed number of its first copy)
        f"00{n}-{name}{side}.png"
        for n, name in [(1, "Ace"), (2, "Bridge"), (5, "Crown"), (7, "Dune"), (8, "Eel")]
        for side in ("", "-back")
    }
    assert set(pictures[3]) == names | {"split-tts.png", "split-tts-backs.png", "split-showcase.png"}
    assert pictures[3] == pictures[one_file]


def test_a_document_goes_on_in_new_files_each_complete_and_all_or_none_written(tmp_path):
    """``open_pdf(…, pages_per_file=N)``: a new file at the first card boundary past N pages,
    each a PDF of its own with the forms its pages use; the files appear together, and a
    failure leaves none of them."""
    from kkprint.engine.document import WRITTEN, open_pdf, page_count
    from kkprint.engine.fonts import prepare_fonts
    from kkprint.engine.geometry import PAPERS

    fonts = prepare_fonts(["card"])

    def draw(path: Path, cards: int, fail: str = "") -> tuple[list[Path], int]:
        began = 0
        with open_pdf(path, PAPERS["a4"], fonts, title="t", lang="en", pages_per_file=4) as doc:

            def count() -> None:
                nonlocal began
                began += 1

            doc.on_new_file.append(count)
            if fail == "at the end":
                doc.closing.append(lambda: 1 / 0)
            for card in range(cards):
                doc.between_cards()
                for _ in range(2):  # a front and a back
                    name = doc.use_form("frame", 100, 100, lambda c, w, h: c.rect(0, 0, w, h))
                    doc.draw_form(name, 10, 10)
                    doc.canvas.drawString(20, 20, f"card {card}")
                    doc.end_page()
                if fail == "half-way" and card == 3:
                    raise ZeroDivisionError("stopped")
        return doc.paths, began

    written: list[Path] = []
    token = WRITTEN.set(written)
    try:
        paths, began = draw(tmp_path / "d.pdf", 5)
    finally:
        WRITTEN.reset(token)
    assert [path.name for path in paths] == ["d.pdf", "d-2.pdf", "d-3.pdf"] and written == paths and began == 2
    assert [page_count(path) for path in paths] == [4, 4, 2]
    for path in paths:
        reader = PdfReader(path)
        assert len(reader.pages) == page_count(path)
        for page in reader.pages:
            assert "card" in page.extract_text()
            [form] = page["/Resources"]["/XObject"].values()  # defined in this file
            assert form.get_object()["/BBox"] == [0, 0, 100, 100]
    for fail in ("half-way", "at the end"):  # (after the first file is saved; after every one)
        with pytest.raises(ZeroDivisionError):
            draw(tmp_path / "f.pdf", 5, fail=fail)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["d-2.pdf", "d-3.pdf", "d.pdf"]
