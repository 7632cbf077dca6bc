"""Decks that compute, read back from the PDFs they build: expression results in the text,
positions, sizes and colours where the data and tables put them, icons at their own scale, and
every bad expression refused, each card it fails on said in one line naming the file, card,
region and key."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import assert_clean_error, assert_deck_refused, run_cli
from openpyxl import Workbook
from PIL import Image, ImageChops
from pypdf import PdfReader
from test_deck_language import build, runs, write
from test_messages import english_words

DPI = 300
PX = 25.4 / DPI  # mm a pixel


def card_pages(deck: Path, out: Path) -> Path:
    """One card per page, edge to edge: a page's top-left corner is the card's."""
    [pdf] = build(deck, out, card_pages=True)
    return pdf


def picture(pdf: Path, page: int) -> Image.Image:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return document[page].render(scale=DPI / 72).to_pil().convert("RGB")
    finally:
        document.close()


def box_of(image: Image.Image, colour: str, area: tuple[float, float, float, float] | None = None):
    """(left, top, right, bottom) in mm from the card's top-left of what is painted in ``colour``
    (inside ``area``, in mm, when given)."""
    if area is not None:
        image = image.crop(tuple(round(v / PX) for v in area))
    solid = Image.new("RGB", image.size, colour)
    red, green, blue = ImageChops.difference(image, solid).split()
    farthest = ImageChops.lighter(ImageChops.lighter(red, green), blue)  # each channel within 60
    mask = farthest.point(lambda v: 255 if v < 60 else 0)
    found = mask.getbbox()
    assert found is not None, f"nothing in {colour}"
    left, top = (area[0], area[1]) if area else (0, 0)
    return tuple(round(v * PX + offset, 2) for v, offset in zip(found, (left, top, left, top)))


def texts(pdf: Path) -> list[list[tuple[str, str, float]]]:
    return [runs(page) for page in PdfReader(pdf).pages]


def size_of(page_runs, fragment: str) -> float:
    return next(size for text, _, size in page_runs if fragment in text)


SQUARE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="{}"/></svg>'


# --- numbers, colours and text from data and tables ---------------------------------------------

GEOMETRY = """\
name: geometry
card: {w: 60, h: 80}
tables:
  tint: {attack: "#ff0000", defend: "#0000ff"}
  lane: lanes.csv
layout:
  bar:   {type: shape, shape: rect, x: "${left}", y: "${lookup('lane', lane, 'top')}", w: "${width}mm",
          h: "${lookup('lane', lane, 'height') * 2}", fill: "${lookup('tint', side)}"}
  dot:   {type: shape, shape: circle, x: "${width + 10 if width < 30 else 40}", y: 50, w: "${size / 2}", h: "${size / 2}",
          fill: "#00aa00"}
  label: {type: text, x: 5, y: 64, w: 50, h: 14, text: "${upper(name)} costs ${cost * 2}", size: "${size}", font: bold}
cards:
  - {name: alpha, side: attack, lane: a, left: 5, width: 20, size: 12, cost: 3}
  - {name: beta, side: defend, lane: b, left: 1cm, width: 35.5, size: 8, cost: 1.5}
"""


def test_positions_sizes_colours_and_text_come_from_columns_and_tables(tmp_path):
    (tmp_path / "lanes.csv").write_text("lane,top,height\na,10,2.5\nb,30,6\n", encoding="utf-8")
    pdf = card_pages(write(tmp_path, GEOMETRY), tmp_path / "out")
    alpha, beta = picture(pdf, 0), picture(pdf, 1)
    assert box_of(alpha, "#ff0000") == pytest.approx((5, 10, 25, 15), abs=0.2)
    assert box_of(beta, "#0000ff") == pytest.approx((10, 30, 45.5, 42), abs=0.2)  # x: "1cm" from the data
    assert box_of(alpha, "#00aa00") == pytest.approx((30, 50, 36, 56), abs=0.2)
    assert box_of(beta, "#00aa00") == pytest.approx((40, 50, 44, 54), abs=0.2)
    first, second = texts(pdf)
    assert size_of(first, "ALPHA costs 6") == pytest.approx(12)
    assert size_of(second, "BETA costs 3") == pytest.approx(8)  # 1.5 * 2 prints 3, not 3.0


def test_a_value_with_a_unit_and_a_font_size_in_mm(tmp_path):
    deck = write(
        tmp_path,
        "name: units\ncard: {w: 60, h: 80}\nlayout:\n"
        '  a: {type: shape, shape: rect, x: "${inch}in", y: "${pts}pt", w: 10, h: "${3 * 2}", fill: "#ff0000"}\n'
        '  t: {type: text, x: 2, y: 40, w: 56, h: 20, text: Sized, size: "${mm}mm"}\n'
        "cards: [{inch: 0.5, pts: 72, mm: 5}]\n",
    )
    pdf = card_pages(deck, tmp_path / "out")
    assert box_of(picture(pdf, 0), "#ff0000") == pytest.approx((12.7, 25.4, 22.7, 31.4), abs=0.2)
    assert size_of(texts(pdf)[0], "Sized") == pytest.approx(5 / 25.4 * 72)


def test_the_names_every_card_has_and_reproducible_dates(tmp_path):
    deck = write(
        tmp_path,
        'name: Named\nversion: "1.10"\ncard: {size: mini}\nprint: {backs: none}\nlayout:\n'
        "  t: {type: text, x: 2, y: 2, w: 40, h: 30, size: 7,\n"
        '      text: "${name} n${card.number} c${card.copy} r${card.row} of ${card.total} ${deck.name} v${deck.version} ${today}"}\n'
        "cards: [{name: A, count: 2}, {name: B, count: 0}, {name: C}]\n",
    )
    outputs = []
    for attempt in ("one", "two"):
        result = subprocess.run(
            [sys.executable, "-m", "kkprint", "build", str(deck), "--out", str(tmp_path / attempt)],
            capture_output=True,
            text=True,
            env={**os.environ, "SOURCE_DATE_EPOCH": str(365 * 86400)},  # 1971-01-01
        )
        assert result.returncode == 0, result.stderr
        outputs.append(next((tmp_path / attempt).glob("*.pdf")))
    assert outputs[0].read_bytes() == outputs[1].read_bytes()  # same input, same date, same bytes
    text = PdfReader(outputs[0]).pages[0].extract_text()
    for line in (
        "A n1 c1 r1 of 3 Named v1.10 1971-01-01",
        "A n2 c2 r1 of 3",  # the second copy of A is its own card
        "C n3 c1 r3 of 3",  # B (no copies, row 2) prints nothing but still counts as a row
    ):
        assert line in " ".join(text.split()), text


@pytest.mark.parametrize("epoch", ["abc", "1e30", "-5", "99999999999999"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_date_for_reproducible_builds_that_is_no_date_is_refused_by_name(tmp_path, epoch, lang):
    """SOURCE_DATE_EPOCH is the date every PDF carries (ReportLab stopped at one that is no
    whole number, an internal error): a deck and a game alike refuse it, naming it, in one line
    of the user's language, and write nothing."""
    deck = write(
        tmp_path,
        "name: d\ncard: {size: poker}\ncards: [{name: a}]\nlayout:\n  t: {type: text, x: 2, y: 2, w: 40, h: 9, text: x}\n",
    )
    for target in (str(deck), "court"):
        result = subprocess.run(
            [sys.executable, "-m", "kkprint", "--lang", lang, "build", target, "--out", str(tmp_path / "out")],
            capture_output=True,
            text=True,
            env={**os.environ, "SOURCE_DATE_EPOCH": epoch},
        )
        assert_clean_error(result, "SOURCE_DATE_EPOCH", epoch)
        assert ("seconds since 1970" in result.stderr) == (lang == "en"), result.stderr
        if lang == "ja":
            assert not english_words(result.stderr, typed=["SOURCE_DATE_EPOCH", epoch]), result.stderr
        assert not (tmp_path / "out").exists()


def test_only_keeps_each_cards_data_row_and_number(tmp_path):
    deck = write(
        tmp_path,
        "name: rows\ncard: {size: mini}\nprint: {backs: none}\nlayout:\n"
        '  t: {type: text, x: 2, y: 2, w: 40, h: 10, text: "${name} row ${card.row} no ${card.number}"}\n'
        "cards: [{name: A}, {name: B, count: 2}, {name: C}]\n",
    )
    [pdf] = build(deck, tmp_path / "out", only="C,1")
    text = " ".join(PdfReader(pdf).pages[0].extract_text().split())
    assert "C row 3 no 4" in text and "A row 1 no 1" in text


def test_tables_from_csv_xlsx_and_json(tmp_path):
    (tmp_path / "prices.csv").write_text("item;price;tax\nsword;12;2\n007;5;1\n", encoding="utf-8")
    book = Workbook()
    sheet = book.active
    sheet.title = "Ranks"
    sheet.append(["rank", "title"])
    sheet.append([1, "Squire"])
    sheet.append([2, "Knight"])
    book.save(tmp_path / "ranks.xlsx")
    (tmp_path / "colours.json").write_text(json.dumps([{"key": "red", "hex": "#ff0000"}]), encoding="utf-8")
    deck = write(
        tmp_path,
        "name: tables\ncard: {size: poker}\nprint: {backs: none}\n"
        "tables: {prices: prices.csv, ranks: {file: ranks.xlsx, sheet: Ranks}, colours: colours.json,"
        " moves: {forest: {cost: 2}, hill: {cost: 3}}}\n"
        "layout:\n"
        "  t: {type: text, x: 2, y: 2, w: 59, h: 30, size: 9,\n"
        "      text: \"${lookup('ranks', rank)}: ${lookup('prices', item) + lookup('prices', item, 'tax')}"
        " ${lookup('prices', 7)} ${lookup('moves', land, 'cost')} ${lookup('colours', 'red')}\"}\n"
        "cards: [{rank: 2, item: sword, land: hill}]\n",
    )
    [pdf] = build(deck, tmp_path / "out")
    assert "Knight: 14 5 3 #ff0000" in PdfReader(pdf).pages[0].extract_text()


# --- icons at their own size and nudge --------------------------------------------------------

ICONS = """\
name: icons
card: {w: 60, h: 80}
icons:
  big:   {src: green.svg, scale: 1.4}
  plain: blue.svg
  half:  {src: red.svg, scale: 0.5}
  low:   {src: red.svg, dy: 5.6693}
layout:
  inline: {type: text, x: 2, y: 5, w: 56, h: 15, size: 10, text: "Pay {big} and {plain} now"}
  region: {type: icon, icon: half, x: 5, y: 40, w: 10, h: 10}
  nudged: {type: icon, icon: low, x: 30, y: 40, w: 10, h: 10}
cards: [{name: A}]
"""


def test_icons_carry_their_scale_and_nudge_inline_and_in_regions(tmp_path):
    for name, colour in (("green", "#00ff00"), ("blue", "#0000ff"), ("red", "#ff0000")):
        (tmp_path / f"{name}.svg").write_text(SQUARE.format(colour), encoding="utf-8")
    image = picture(card_pages(write(tmp_path, ICONS), tmp_path / "out"), 0)
    big, plain = box_of(image, "#00ff00"), box_of(image, "#0000ff")
    assert big[3] - big[1] == pytest.approx(14 * 25.4 / 72, abs=0.15)  # 1.4 × the 10 pt text
    assert plain[3] - plain[1] == pytest.approx(8.2 * 25.4 / 72, abs=0.15)  # the usual 0.82 ×
    assert (big[1] + big[3]) / 2 == pytest.approx((plain[1] + plain[3]) / 2, abs=0.15)  # one middle line
    assert box_of(image, "#ff0000", (0, 30, 20, 60)) == pytest.approx((7.5, 42.5, 12.5, 47.5), abs=0.15)
    assert box_of(image, "#ff0000", (20, 30, 60, 60)) == pytest.approx(
        (30, 42, 40, 52), abs=0.15
    )  # 5.67 pt = 2 mm lower


# --- what goes wrong, said in one line --------------------------------------------------------

BAD = [
    # a column no card has is the preflight's error, said once for the region (not for each card)
    ('text: "${cots * 2}"', ["region 'r' (line 6)", "no card has a column 'cots'; did you mean 'cost'?"]),
    (
        'text: "${name}", x: "${name}"',
        ["card 1 'Alpha'", "region 'r' (line 6)", "x ${name} = Alpha: length 'Alpha' must be"],
    ),
    (
        'text: hi, w: "${cost - 4}"',
        ["card 1 'Alpha' (cards[0] (line 8))", "w ${cost - 4} = -1: must be greater than 0"],
    ),
    ('text: "${name.__class__}"', ["region 'r' (line 6)", "text: ${name.__class__}: attribute access (.__class__)"]),
    ('text: "${cost ** 9 ** 9}"', ["card 1 'Alpha'", "text: ${cost ** 9 ** 9}: 3 ** 387420489 makes a number of more"]),
    ('text: "${name * 10 ** 9}"', ["card 1 'Alpha'", "would make 5,000,000,000 characters; at most 10,000"]),
    ('text: "${' + "lookup('t', " * 40 + "name" + ")" * 40 + '}"', ["region 'r' (line 6)", "is too complex"]),
    ("text: \"${lookup('t', name)}\"", ["card 2 'Beta'", "text: ${lookup('t', name)}: table 't' has no key 'Beta'"]),
    ("text: \"${lookup('tt', name)}\"", ["region 'r' (line 6)", "text: no table 'tt'; did you mean 't'?"]),
    ('text: hi, when: "len(cost) > 1"', ["card 1 'Alpha'", "when: len() needs text or a list, not a number"]),
    ('text: "${name:03d}"', ["card 1 'Alpha'", "the format ':03d' does not fit text 'Alpha'"]),
    ('text: "${upper(name, 1)}"', ["region 'r' (line 6)", "upper() is written upper(text) (2 given)"]),
    ("type: shape, fill: \"${lookup('t', name)}\"", ["card 1 'Alpha'", "fill: colour 'A' from the card's fields"]),
    ("text: hi, align: \"${'middle' if cost else 'left'}\"", ["card 1 'Alpha'", "= middle: must be one of"]),
]


def bad_deck(folder: Path, region: str) -> Path:
    defaults = {"type": "text", "x": "1", "y": "1", "w": "30", "h": "9"}
    given = ", ".join(
        f"{key}: {value}"
        for key, value in defaults.items()
        if not region.startswith(f"{key}:") and f", {key}:" not in region
    )
    return write(
        folder,
        "name: bad\ncard: {size: poker}\ntables:\n  t: {Alpha: A}\nlayout:\n"
        f"  r: {{{given}, {region}}}\n"
        "cards:\n  - {name: Alpha, cost: 3}\n  - {name: Beta, cost: 5}\n",
    )


@pytest.mark.parametrize("region, fragments", BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_expressions_end_with_one_line_naming_file_card_region_and_key(tmp_path, english, region, fragments):
    deck = bad_deck(tmp_path, region)
    result = run_cli("build", str(deck), "--out", str(tmp_path / "out"))
    assert_deck_refused(result, str(deck), *fragments)  # (each card that fails is listed: the preflight)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("case", [0, 1, 4, 7, 8])
def test_expression_errors_in_japanese_have_no_english(tmp_path, monkeypatch, case):
    monkeypatch.setenv("KKPRINT_LANG", "ja")
    deck = bad_deck(tmp_path, BAD[case][0])
    result = run_cli("build", str(deck), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    line = re.sub(
        r"使えるのは: .*|\blayout\b", " ", result.stderr.strip().replace(str(deck), " ")
    )  # the deck's own words
    assert english_words(line) == [], line


@pytest.mark.parametrize(
    "lang, too_long", [("en", "makes a number of more than 77 digits"), ("ja", "77桁を超える数になります")]
)
def test_round_keeps_as_many_digits_as_a_large_number_has(tmp_path, lang, too_long):
    """round(1e308, 15) said "round() needs a number, not '1e+308'": rounding ran out of the
    decimal module's 28 digits. It gives the number (as Python and a spreadsheet do); a whole
    number longer than any other expression may make is refused as they are."""
    text = "${round(1e308, 15)}|${round(1e20, 15)}"
    deck = write(
        tmp_path,
        "name: r\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n"
        f"  t: {{type: text, x: 2, y: 2, w: 59, h: 20, text: '{text}'}}\n",
    )
    result = run_cli("build", str(deck), "--out", str(tmp_path / "out"), "--lang", lang)
    assert result.returncode == 0, result.stderr
    [pdf] = (tmp_path / "out").glob("*.pdf")
    assert "1e+308|1e+20" in PdfReader(pdf).pages[0].extract_text()
    deck.write_text(deck.read_text(encoding="utf-8").replace("round(1e308, 15)", "round(1e308)"), encoding="utf-8")
    result = run_cli("build", str(deck), "--out", str(tmp_path / "refused"), "--lang", lang)
    assert_clean_error(result, "d.yaml", "${round(1e308)}", too_long)
    assert not (tmp_path / "refused").exists()


def test_a_table_outside_the_decks_folder_is_refused(tmp_path, english):
    (tmp_path / "secret.csv").write_text("k,v\na,SECRET\n", encoding="utf-8")
    folder = tmp_path / "deck"
    folder.mkdir()
    deck = write(
        folder,
        "name: t\ncard: {size: mini}\ntables: {s: ../secret.csv}\nlayout:\n"
        "  t: {type: text, x: 1, y: 1, w: 20, h: 9, text: \"${lookup('s', 'a')}\"}\ncards: [{name: A}]\n",
    )
    result = run_cli("build", str(deck), "--out", str(tmp_path / "out"))
    assert_clean_error(result, "tables.s", "outside the deck's folder")
    assert "SECRET" not in result.stderr


def test_a_table_with_a_key_twice_is_refused_with_its_row(tmp_path, english):
    (tmp_path / "t.csv").write_text("k,v\na,1\nb,2\na,3\n", encoding="utf-8")
    deck = write(
        tmp_path,
        "name: t\ncard: {size: mini}\ntables: {t: t.csv}\nlayout:\n"
        "  t: {type: text, x: 1, y: 1, w: 20, h: 9, text: \"${lookup('t', 'a')}\"}\ncards: [{name: A}]\n",
    )
    assert_clean_error(run_cli("build", str(deck)), "t.csv", "row 4", "key 'a' appears twice")


def test_expressions_never_reach_files_the_deck_may_not_read(tmp_path, english):
    """An expression may build a file name, but the file must still lie in the deck's folder."""
    shutil.copy(Path(__file__).parent.parent / "examples/decks/heist/icons/coin.svg", tmp_path / "coin.svg")
    deck = write(
        tmp_path,
        "name: t\ncard: {size: mini}\nlayout:\n"
        "  p: {type: image, x: 1, y: 1, w: 20, h: 20, src: \"${'../' * 5 + 'etc/passwd'}\"}\ncards: [{name: A}]\n",
    )
    assert_clean_error(run_cli("build", str(deck), "--out", str(tmp_path / "out")), "outside the deck's folder")


# --- the worked examples compute what their data says ---------------------------------------------

EXAMPLES = Path(__file__).parent.parent / "examples" / "decks"


def test_summits_draws_each_mountain_from_its_row(tmp_path):
    pdf = card_pages(EXAMPLES / "summits" / "summits.yaml", tmp_path / "out")
    pages = texts(pdf)
    everest = next(i for i, page in enumerate(pages) if any("EVEREST" in text for text, _, _ in page))
    fuji = next(i for i, page in enumerate(pages) if any("MOUNT FUJI" in text for text, _, _ in page))
    words = " ".join(text for text, _, _ in pages[everest])
    assert "8,849 m" in words and "No. 04" in words and "Himalaya · Asia" in words and "60 days" in words
    assert size_of(pages[everest], "EVEREST") == 15 and size_of(pages[fuji], "MOUNT FUJI") == 12  # by length
    tall, low = picture(pdf, everest), picture(pdf, fuji)
    for image, ink, height, peak_at in ((tall, "#7a2e3a", 8849, 0.46), (low, "#a23b2a", 3776, 0.5)):
        summit = 4 + 55 * peak_at
        column = (summit - 0.5, 17, summit + 0.5, 51)  # (the altitude's digits end further left)
        snow = 4 if height >= 4000 else 0  # white over the top 4 mm of the high ones
        assert box_of(image, ink, column)[1] == pytest.approx(51 - height / 9000 * 30 + snow, abs=0.3)
    below = (0, 14.5, 63, 88)  # (under the title band)
    assert box_of(tall, "#22333b", below) == pytest.approx((2.15, 15.25, 60.85, 85.85), abs=0.2)  # 8 thousand m
    assert box_of(low, "#a7c957", below) == pytest.approx((2.15, 15.25, 60.85, 85.85), abs=0.2)  # 3 thousand
    bar = (20, 54, 58, 58)
    assert box_of(tall, "#7a2e3a", bar)[2] - 21 == pytest.approx(36 * 8849 / 9000, abs=0.3)
    assert box_of(low, "#a23b2a", bar)[2] - 21 == pytest.approx(36 * 3776 / 9000, abs=0.3)


def test_lanterns_puts_one_frame_on_every_face(tmp_path):
    pdf = card_pages(EXAMPLES / "lanterns" / "lanterns.yaml", tmp_path / "out")
    reader = PdfReader(pdf)
    assert len(reader.pages) == 18  # nine cards (Long Night twice), each with its back
    faces = [picture(pdf, page) for page in range(18)]
    for image, ink in ((faces[0], "#27406f"), (faces[1], "#27406f"), (faces[12], "#6b2c22"), (faces[13], "#6b2c22")):
        for corner in ((0, 0, 8, 8), (55, 0, 63, 8), (0, 80, 8, 88), (55, 80, 63, 88)):  # one star, extended thrice
            left, top, right, bottom = box_of(image, ink, corner)
            assert right - left == pytest.approx(6.8, abs=0.3) and bottom - top == pytest.approx(6.8, abs=0.3)
    spell_backs = [faces[page] for page in (1, 3, 5, 7, 9, 11)]
    assert all(ImageChops.difference(spell_backs[0], back).getbbox() is None for back in spell_backs)
    assert "Kindle" in reader.pages[0].extract_text() and "SPELL" in reader.pages[1].extract_text()
    assert "Light one lantern" not in reader.pages[1].extract_text()  # what the back drops


def test_what_upper_and_lookup_make_is_in_the_font_subset(tmp_path):
    """Characters no field holds as written — an upper-case é, a table's Japanese — still print."""
    (tmp_path / "names.csv").write_text("key,ja\nknight,騎士\n", encoding="utf-8")
    deck = write(
        tmp_path,
        "name: glyphs\ncard: {size: poker}\nprint: {backs: none}\ntables: {names: names.csv}\nlayout:\n"
        "  t: {type: text, x: 2, y: 2, w: 59, h: 20, text: \"${upper(name)} ${lookup('names', role)}\"}\n"
        "cards: [{name: élan ßø, role: knight}]\n",
    )
    [pdf] = build(deck, tmp_path / "out")
    assert "ÉLAN SSØ 騎士" in PdfReader(pdf).pages[0].extract_text()
