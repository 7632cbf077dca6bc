"""Vertical text (縦書き), read back from the PDF: columns that fall from the top and follow one
another from right to left, the font's vertical forms, Latin turned, two digits side by side,
phrase breaks and 禁則, fitting, rich text and icons inside — every character real text."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pdfplumber
import pytest
from conftest import assert_clean_error
from fontTools.ttLib import TTFont
from pypdf import PdfReader
from reportlab.lib.units import mm

from kkprint.base.errors import InputError
from kkprint.cli.targets import resolve
from kkprint.engine.fonts import prepare_fonts
from kkprint.engine.job import BuildOptions, build_targets
from kkprint.engine.text import TextBox, _phrase_starts, fit_text
from kkprint.engine.typesetting import Typesetting

ROOT = Path(__file__).resolve().parent.parent
VERTICAL = Typesetting(markup=True, vertical=True)


def build_card(folder: Path, regions: dict[str, str], extra: str = "", **options) -> Path:
    """A one-card deck (80 × 100 mm) with these regions, built one card a page: the page is the card."""
    layout = "\n".join(f"  {name}: {{{body}}}" for name, body in regions.items())
    deck = folder / "deck.yaml"
    deck.write_text(
        f"name: t\ncard: {{w: 80, h: 100}}\nprint: {{backs: none}}\n{extra}layout:\n{layout}\ncards: [{{name: a}}]\n",
        encoding="utf-8",
    )
    [pdf] = build_targets(resolve([str(deck)]), BuildOptions(out_dir=folder / "out", card_pages=True, **options))
    return pdf


class Char:
    """A character as drawn: its text, font, size, orientation and box in mm from the card's
    top-left (across: x0–x1; down: top–bottom), and its origin (baseline) point."""

    def __init__(self, raw: dict, page_height: float):
        self.text, self.font, self.upright = raw["text"], raw["fontname"], raw["upright"]
        self.size = raw["size"]
        self.x0, self.x1 = raw["x0"] / mm, raw["x1"] / mm
        self.top, self.bottom = raw["top"] / mm, raw["bottom"] / mm
        self.origin = (raw["matrix"][4] / mm, (page_height - raw["matrix"][5]) / mm)
        self.colour = raw.get("non_stroking_color")

    @property
    def centre(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2


def chars_of(pdf: Path) -> list[Char]:
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        return [Char(raw, page.height) for raw in page.chars]


def columns_of(chars: list[Char]) -> list[list[Char]]:
    """Characters grouped by the column they stand in, right to left, each read top down."""
    found: dict[float, list[Char]] = {}
    for char in chars:
        key = next((k for k in found if abs(k - char.centre) < 0.3), char.centre)
        found.setdefault(key, []).append(char)
    return [sorted(found[key], key=lambda c: c.top) for key in sorted(found, reverse=True)]


def text_of(column: list[Char]) -> str:
    return "".join(char.text for char in column)


SENTENCE = "縦書きの文章は右から左へ進みます。次の列に続きます。"


def test_each_character_follows_the_last_without_gap_or_overlap(tmp_path):
    """Down a column each character's square starts where the last one's ends, whatever the faces
    it changes between (the vertical forms', a turned Latin word's, bold)."""
    text = "「縦書き」のABCテスト、<b>太字</b>です。"
    pdf = build_card(
        tmp_path, {"v": f"type: text, x: 30, y: 5, w: 20, h: 90, size: 12, direction: vertical, text: '{text}'"}
    )
    [column] = columns_of(chars_of(pdf))
    assert text_of(column) == "「縦書き」のABCテスト、太字です。"
    for before, after in zip(column, column[1:]):
        assert after.top == pytest.approx(before.bottom, abs=0.01), (before.text, after.text)
    assert all(char.bottom - char.top == pytest.approx(12 / mm) for char in column if char.upright)  # squares


def test_vertical_text_falls_in_columns_from_right_to_left(tmp_path):
    pdf = build_card(
        tmp_path, {"v": f"type: text, x: 10, y: 10, w: 40, h: 40, size: 12, direction: vertical, text: {SENTENCE}"}
    )
    chars = chars_of(pdf)
    columns = columns_of(chars)
    assert len(columns) >= 2
    assert "".join(map(text_of, columns)) == SENTENCE  # real text, every character, in reading order
    for column in columns:
        assert all(char.upright for char in column)
        assert max(c.centre for c in column) - min(c.centre for c in column) < 0.05  # one x: a column
        tops = [char.top for char in column]
        assert tops == sorted(tops) and len(set(tops)) == len(tops)  # falling, one square each
        assert column[0].top == pytest.approx(10, abs=0.05)  # read from the box's top
    # the first column stands against the box's right edge; the next ones follow to its left
    assert columns[0][0].x1 == pytest.approx(50, abs=0.05)
    centres = [column[0].centre for column in columns]
    assert centres == sorted(centres, reverse=True)
    assert centres[0] - centres[1] == pytest.approx(12 * 1.25 / mm, abs=0.01)  # the leading between columns


def glyph_boxes(pdf: Path, char: str) -> dict[str, tuple[int, int, int, int]]:
    """The outline box (font units) of the glyph each embedded font draws for ``char``: found
    through the font's ToUnicode map and its own character map."""
    boxes = {}
    for ref in PdfReader(pdf).pages[0]["/Resources"]["/Font"].values():
        font = ref.get_object()
        to_unicode = font["/ToUnicode"].get_object().get_data().decode()
        codes = [int(code, 16) for code, uni in re.findall(r"<(\w+)> <(\w+)>", to_unicode) if chr(int(uni, 16)) == char]
        if codes:
            program = TTFont(BytesIO(font["/FontDescriptor"]["/FontFile2"].get_object().get_data()))
            glyph = program["glyf"][program["cmap"].tables[0].cmap[codes[0]]]
            boxes[str(font["/BaseFont"])] = (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax)
    return boxes


def test_vertical_text_draws_the_fonts_vertical_forms_and_still_reads_as_written(tmp_path):
    text = "「ゲーム」、です。"
    pdf = build_card(
        tmp_path,
        {
            "h": f"type: text, x: 5, y: 5, w: 70, h: 10, size: 12, text: {text}",
            "v": f"type: text, x: 40, y: 20, w: 20, h: 70, size: 12, direction: vertical, text: {text}",
        },
    )
    chars = chars_of(pdf)
    vertical = [c for c in chars if c.top >= 19]
    assert text_of(sorted(vertical, key=lambda c: c.top)) == text  # copies and searches as written
    for char in "「ー":
        boxes = glyph_boxes(pdf, char)
        assert len(boxes) == 2, boxes  # one glyph in the horizontal text's font, another in the vertical forms'
        (h_name, h_box), (v_name, v_box) = sorted(boxes.items(), key=lambda item: item[0].endswith("-V"))
        assert v_name.endswith("-V") and not h_name.endswith("-V")
        width, height = h_box[2] - h_box[0], h_box[3] - h_box[1]
        v_width, v_height = v_box[2] - v_box[0], v_box[3] - v_box[1]
        # the vertical form is the horizontal one turned: 「 is tall and narrow, ﹁ wide and flat; ー the reverse
        assert (width < height) == (v_width > v_height), (char, h_box, v_box)
    drawn = {c.text: c.font for c in vertical}
    assert drawn["「"].endswith("-V") and drawn["、"].endswith("-V") and drawn["。"].endswith("-V")


def test_latin_words_turn_and_two_digits_stand_side_by_side(tmp_path):
    pdf = build_card(
        tmp_path,
        {"v": "type: text, x: 30, y: 5, w: 20, h: 90, size: 12, direction: vertical, text: RPGを12回と2024年"},
    )
    chars = chars_of(pdf)
    by_text = {}
    for char in chars:
        by_text.setdefault(char.text, []).append(char)
    column_centre = by_text["を"][0].centre
    latin = [by_text[letter][0] for letter in "RPG"]
    assert not any(char.upright for char in latin)  # turned a quarter
    assert [c.top for c in latin] == sorted(c.top for c in latin)  # read down the column
    assert all(abs(char.centre - column_centre) < 0.05 for char in latin)
    one, two = by_text["1"][0], by_text["2"][0]  # 縦中横: side by side in one upright square
    assert one.upright and two.upright
    assert one.top == pytest.approx(two.top) and one.x1 == pytest.approx(two.x0)
    assert (one.x0 + two.x1) / 2 == pytest.approx(column_centre, abs=0.05)
    assert two.x1 - one.x0 <= 12 / mm + 1e-6  # no wider than a square
    year = [c for c in chars if c.text in "024" and not c.upright]
    assert len(year) == 4  # four digits are a word: turned, not squeezed


def test_columns_break_between_phrases_and_never_before_closing_punctuation():
    fonts = prepare_fonts([SENTENCE * 3])
    text = SENTENCE * 3
    for height in (20, 27, 33, 41):
        fitted = fit_text(text, fonts.regular, TextBox(0, 0, 150 * mm, height * mm), 10, 10, setting=VERTICAL)
        columns = ["".join(atom.text for atom in column) for column in fitted.lines]
        assert "".join(columns) == text
        starts, position = _phrase_starts(text), 0
        for column in columns:
            assert column[0] not in "、。」", columns
            assert position in starts or position == 0, (position, columns)  # a phrase is never cut
            position += len(column)


CLOSING = "、。」』）ーょっャ"  # a line may not start with these (行頭禁則)
OPENING = "「『（"  # nor end with these (行末禁則)


def assert_kinsoku(lines: list[str], text: str) -> None:
    assert "".join(lines) == text
    for line in lines:
        assert line[0] not in CLOSING and line[-1] not in OPENING, lines


def test_kinsoku_holds_where_a_phrase_too_long_for_its_line_is_split(tmp_path):
    """A phrase longer than its line is split by script, then by letters, as a last resort:
    the split keeps an opening bracket with what follows it and a closing mark with what comes
    before, across lines and down columns alike (it left 「 at a line's end, 」。 at a column's
    top)."""
    horizontal = "明日は雨が降るでしょう。「東京特許許可局」へ行きました。"
    vertical = "「あいうえおかきく」、「けこさしすせそたち」。「なにぬねのはひふ」ー"
    pdf = build_card(
        tmp_path,
        {
            "h": f"type: text, x: 5, y: 5, w: 30, h: 35, size: 10, min_size: 10, text: '{horizontal}'",
            "v": f"type: text, x: 40, y: 5, w: 28, h: 21.3, size: 10, min_size: 6, direction: vertical, "
            f"text: '{vertical}'",
        },
    )
    chars = chars_of(pdf)
    rows: dict[float, list[Char]] = {}
    for char in (c for c in chars if c.x1 < 36):
        rows.setdefault(round(char.top, 1), []).append(char)
    lines = [text_of(sorted(rows[top], key=lambda c: c.x0)) for top in sorted(rows)]
    assert len(lines) > 2
    assert_kinsoku(lines, horizontal)
    columns = [text_of(column) for column in columns_of([c for c in chars if c.x0 > 38])]
    assert len(columns) > 2
    assert_kinsoku(columns, vertical)


@pytest.mark.parametrize("vertical", [False, True])
def test_kinsoku_holds_at_every_width_and_size_in_both_directions(vertical):
    texts = [
        "明日は雨が降るでしょう。「東京特許許可局」へ行きました。",
        "「あいうえおかきく」、「けこさしすせそたち」。「なにぬねのはひふ」ー",
        "『キャッシュフロー』（ちょっとまって）「ジャックポット」",
    ]
    fonts = prepare_fonts(texts)
    setting = VERTICAL if vertical else Typesetting(markup=True)
    for text in texts:
        for length in range(20, 50, 3):
            box = TextBox(0, 0, 150 * mm, length * mm) if vertical else TextBox(0, 0, length * mm, 150 * mm)
            fitted = fit_text(text, fonts.regular, box, 12, 10, setting=setting)
            assert_kinsoku(["".join(atom.text for atom in line) for line in fitted.lines], text)


def test_an_opening_bracket_ending_a_phrase_goes_to_the_next_one(monkeypatch):
    """Should BudouX end a phrase with 「, the break moves before the bracket: the two phrases
    are not glued into one long word, and the bracket opens the line it belongs to."""
    from kkprint.engine import text as text_module

    monkeypatch.setattr(text_module, "japanese_phrases", lambda text: ["明日は「", "雨」が", "降る"])
    breaks = text_module._break_before("明日は「雨」が降る")
    assert [i for i, allowed in enumerate(breaks) if allowed] == [3, 7]


def test_vertical_text_shrinks_to_fit_as_horizontal_text_does():
    fonts = prepare_fonts([SENTENCE * 2])
    text = SENTENCE * 2
    box = TextBox(0, 0, 30 * mm, 45 * mm)
    vertical = fit_text(text, fonts.regular, box, 14, 6, setting=VERTICAL)
    turned = fit_text(text, fonts.regular, TextBox(0, 0, 45 * mm, 30 * mm), 14, 6, setting=Typesetting(markup=True))
    assert vertical.size < 14  # shrunk
    assert vertical.size == turned.size  # columns as long as the box is high fit as lines as wide would
    assert [len(c) for c in vertical.lines] == [len(line) for line in turned.lines]
    with pytest.raises(InputError, match="30×45 mm"):  # the region's own box, not the turned one
        fit_text(text * 4, fonts.regular, box, 14, 12, setting=VERTICAL)


def test_rich_text_and_icons_stand_in_the_column(tmp_path):
    pdf = build_card(
        tmp_path,
        {
            "v": "type: text, x: 30, y: 5, w: 20, h: 90, size: 14, direction: vertical, "
            "text: \"普通<b>太字</b>と<span color='#c00000'>赤</span>{die:3}で\""
        },
    )
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        chars = [Char(raw, page.height) for raw in page.chars]
        shapes = [*page.rects, *page.curves]
    by_text = {c.text: c for c in chars}
    assert "bold" in by_text["太"].font.lower() and "bold" not in by_text["普"].font.lower()  # (fresh or cached face)
    assert by_text["赤"].colour == pytest.approx((0.7529, 0, 0), abs=0.01)
    assert by_text["普"].colour in ((0,), (0, 0, 0), [0], [0, 0, 0], None)
    centre = by_text["普"].centre
    assert all(abs(c.centre - centre) < 0.05 for c in chars)  # one column
    # the die stands upright in the column between 赤 and で
    red, after = by_text["赤"], by_text["で"]
    die = [s for s in shapes if red.bottom * mm - 1 <= s["top"] and s["bottom"] <= after.top * mm + 1]
    assert die, shapes
    assert all(abs((s["x0"] + s["x1"]) / 2 / mm - centre) < 2 for s in die)


def test_alignment_runs_along_the_column_and_across_the_columns(tmp_path):
    regions = {
        "a": "type: text, x: 5, y: 5, w: 30, h: 40, size: 12, direction: vertical, text: 上, align: left, valign: top",
        "b": "type: text, x: 45, y: 5, w: 30, h: 40, size: 12, direction: vertical, text: 中, align: center, "
        "valign: middle",
        "c": "type: text, x: 5, y: 55, w: 30, h: 40, size: 12, direction: vertical, text: 下, align: right, "
        "valign: bottom",
    }
    chars = {c.text: c for c in chars_of(build_card(tmp_path, regions))}
    side = 12 / mm
    assert (chars["上"].top, chars["上"].x1) == pytest.approx((5, 35), abs=0.05)  # top, against the right
    assert (chars["中"].middle, chars["中"].centre) == pytest.approx((25, 60), abs=0.05)
    assert (chars["下"].bottom, chars["下"].x0) == pytest.approx((95, 5), abs=0.05)  # bottom, against the left
    assert chars["上"].x1 - chars["上"].x0 == pytest.approx(side)


def test_a_decks_own_latin_font_turns_and_japanese_falls_back_to_vertical_forms(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    for name in ("Vera.ttf",):
        (fonts / name).write_bytes((ROOT / "examples/decks/heist/fonts" / name).read_bytes())
    pdf = build_card(
        tmp_path,
        {"v": "type: text, x: 30, y: 5, w: 20, h: 90, size: 12, font: vera, direction: vertical, text: 「Vera」の文字"},
        extra="fonts: {vera: {regular: fonts/Vera.ttf}}\n",
    )
    chars = {c.text: c for c in chars_of(pdf)}
    assert "Vera" in chars["V"].font and not chars["V"].upright  # the deck's font, turned
    assert chars["「"].font.endswith("-V") and "KKSans" in chars["「"].font  # the bundled font's vertical form
    assert chars["文"].upright


def test_a_build_without_vertical_text_carries_no_vertical_forms(tmp_path):
    pdf = build_card(tmp_path, {"h": "type: text, x: 5, y: 5, w: 70, h: 10, size: 12, text: 「ゲーム」です。"})
    fonts = [str(ref.get_object()["/BaseFont"]) for ref in PdfReader(pdf).pages[0]["/Resources"]["/Font"].values()]
    assert fonts and not any(name.endswith("-V") for name in fonts)


def test_vertical_builds_are_byte_identical_with_a_cold_or_a_warm_font_cache(tmp_path):
    """The vertical forms are made on the first build and read from the font cache after it:
    the PDF is the same either way."""
    deck = ROOT / "examples/decks/kanji/kanji.yaml"
    outputs = []
    for run, cache in enumerate(("warm", "warm", "cold")):  # the first run fills the cache the second reads
        result = subprocess.run(
            [sys.executable, "-m", "kkprint", "build", str(deck), "--out", str(tmp_path / f"out{run}")],
            capture_output=True,
            text=True,
            env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / cache), "SOURCE_DATE_EPOCH": "1700000000"},
        )
        assert result.returncode == 0, result.stderr
        outputs.append((tmp_path / f"out{run}" / "kanji-a4.pdf").read_bytes())
    assert (tmp_path / "warm").exists()
    assert outputs[0] == outputs[1] == outputs[2]


def assert_refused(folder: Path, cli, deck: str, *fragments: str) -> None:
    """Building the deck ``deck`` (its YAML) ends with exit 2 and one line holding ``fragments``,
    and writes nothing."""
    path = folder / "deck.yaml"
    path.write_text(deck, encoding="utf-8")
    result = cli("build", str(path), "--out", str(folder / "out"))
    assert_clean_error(result, "deck.yaml", *fragments)
    assert not (folder / "out").exists() or not any((folder / "out").iterdir())


def test_an_unknown_direction_is_refused_with_its_place(tmp_path, english, cli):
    deck = (
        "name: t\ncard: {size: poker}\nlayout:\n  v: {type: text, x: 1, y: 1, w: 20, h: 20, text: x, "
        "direction: sideways}\ncards: [{name: a}]\n"
    )
    assert_refused(tmp_path, cli, deck, "line 4", "direction")


def test_a_decks_font_with_broken_layout_tables_is_named_when_vertical_text_asks_for_it(tmp_path, english, cli):
    from fontTools.ttLib.tables.DefaultTable import DefaultTable

    font = TTFont(ROOT / "examples/decks/heist/fonts/Vera.ttf")
    broken = DefaultTable("GSUB")
    broken.data = b"\x00\x01\x00\x00\x00\x0a\xff\xff\x00\x00garbage"  # a script list pointing past the table
    font["GSUB"] = broken
    (tmp_path / "fonts").mkdir()
    font.save(tmp_path / "fonts" / "Broken.ttf")
    deck = (
        "name: t\ncard: {size: poker}\nfonts: {broken: {regular: fonts/Broken.ttf}}\nlayout:\n"
        "  v: {type: text, x: 5, y: 5, w: 30, h: 60, font: broken, direction: vertical, text: Vera 縦}\n"
        "cards: [{name: a}]\n"
    )
    assert_refused(tmp_path, cli, deck, "region 'v'", "font 'fonts/Broken.ttf' is damaged", "vertical forms")


def test_a_pdf_viewer_finds_words_across_a_column_and_their_readings(tmp_path):
    """PDFium (Chromium's PDF engine) searches the page as a reader would: a phrase that runs
    down a column of ruby'd words is found whole, and so is a reading."""
    import pypdfium2 as pdfium

    text = "{地面|じめん}が{高|たか}く{盛|も}り{上|あ}がったところ。"
    pdf = build_card(
        tmp_path, {"v": f"type: text, x: 30, y: 5, w: 20, h: 60, size: 12, direction: vertical, text: '{text}'"}
    )
    document = pdfium.PdfDocument(pdf)
    try:
        page = document[0].get_textpage()
        for wanted in ("地面が高く盛り上がったところ。", "じめん", "たか"):
            assert page.search(wanted).get_next() is not None, wanted
        assert page.search("地面じめん").get_next() is None  # the reading is not wedged into the text
    finally:
        document.close()
