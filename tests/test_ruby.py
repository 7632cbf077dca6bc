"""Ruby (furigana), read back from the PDF: the reading at half the size, centred over its base
(beside it in vertical text), lines making room, wide readings reaching over plain neighbours
and never over another reading; the three ways of writing it; its mistakes."""

from __future__ import annotations

from io import BytesIO

import pdfplumber
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from test_vertical import ROOT, Char, assert_refused, build_card, chars_of

from kkprint.base.errors import InputError
from kkprint.engine.fonts import prepare_fonts
from kkprint.engine.text import TextBox, draw_text, fit_text, tokenize
from kkprint.engine.typesetting import Typesetting

MARKUP = Typesetting(markup=True)
KANA = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"
KANJI = "漢字勉強話承読書山川日月火水木金土雨花空"
FONTS = prepare_fonts([KANA + KANJI + "".join(map(chr, range(0x3041, 0x3097))) + "。、「」（）"])
SIZE = 12.0


def em_box(char: Char) -> tuple[float, float]:
    """(top, bottom) in mm of the em square a horizontal character stands in (0.88 above its
    baseline, 0.12 below)."""
    baseline = char.origin[1]
    return baseline - 0.88 * char.size / mm, baseline + 0.12 * char.size / mm


def set_horizontally(text: str, width: float = 70, height: float = 40, size: float = SIZE) -> list[Char]:
    """``text`` drawn in a box of ``width`` × ``height`` mm at ``size`` pt, read back in drawing order."""
    out = BytesIO()
    canvas = Canvas(out, pagesize=(100 * mm, 100 * mm), invariant=1)
    draw_text(canvas, text, FONTS.regular, TextBox(0, 0, width * mm, height * mm), size, size, setting=MARKUP)
    canvas.save()
    out.seek(0)
    with pdfplumber.open(out) as pdf:
        page = pdf.pages[0]
        return [Char(raw, page.height) for raw in page.chars]


def split(chars: list[Char], readings: list[str], size: float = SIZE) -> tuple[list[Char], list[list[Char]]]:
    """The characters at the text's size, and the half-size ones cut into ``readings``: the
    text is drawn first, as written (so it copies and searches as one), the readings after it
    in the text's order."""
    bases = [char for char in chars if char.size >= size * 0.75]
    small = [char for char in chars if char.size < size * 0.75]
    assert chars[: len(bases)] == bases  # no reading in the middle of the text
    assert "".join(char.text for char in small) == "".join(readings)  # real text, in order
    cut, start = [], 0
    for reading in readings:
        cut.append(small[start : start + len(reading)])
        start += len(reading)
    return bases, cut


def span(chars: list[Char]) -> tuple[float, float]:
    return min(c.x0 for c in chars), max(c.x1 for c in chars)


def centre(chars: list[Char]) -> float:
    start, end = span(chars)
    return (start + end) / 2


def test_a_group_reading_is_half_size_and_centred_over_its_word():
    chars = set_horizontally("{漢字|かんじ}を読む")
    bases, [reading] = split(chars, ["かんじ"])
    assert "".join(c.text for c in bases) == "漢字を読む"
    assert all(c.size == pytest.approx(SIZE / 2) for c in reading)
    word = bases[:2]
    assert centre(reading) == pytest.approx(centre(word), abs=0.01)
    assert em_box(reading[0])[1] == pytest.approx(em_box(word[0])[0], abs=0.01)  # standing on the word's em box
    assert len({c.origin[1] for c in reading}) == 1


def test_per_character_ruby_sits_over_each_character_and_all_three_spellings_agree():
    spellings = ["{漢|かん}{字|じ}を", "{漢字|かん|じ}を", "<ruby>漢<rt>かん</rt>字<rt>じ</rt></ruby>を"]
    drawn = [set_horizontally(text) for text in spellings]
    placed = [[(c.text, round(c.x0, 4), round(c.origin[1], 4), c.size) for c in chars] for chars in drawn]
    assert placed[0] == placed[1] == placed[2]
    bases, readings = split(drawn[0], ["かん", "じ"])
    for base, reading in zip(bases, readings):
        assert centre(reading) == pytest.approx((base.x0 + base.x1) / 2, abs=0.01)
    group_bases, [group] = split(set_horizontally("<ruby>漢字<rt>かんじ</rt></ruby>を"), ["かんじ"])
    assert centre(group) == pytest.approx(centre(group_bases[:2]), abs=0.01)
    rp = set_horizontally("<ruby>漢字<rp>（</rp><rt>かんじ</rt><rp>）</rp></ruby>")
    assert "".join(c.text for c in rp) == "漢字かんじ"  # <rp> is for readers without ruby


def test_lines_make_room_for_their_readings():
    plain = set_horizontally("漢字の<br>勉強")
    rubied = set_horizontally("{漢字|かんじ}の<br>{勉強|べんきょう}")
    lines = sorted({c.origin[1] for c in plain})
    ruby_bases, readings = split(rubied, ["かんじ", "べんきょう"])
    ruby_lines = sorted({c.origin[1] for c in ruby_bases})
    half = SIZE / 2 / mm
    assert ruby_lines[0] - lines[0] == pytest.approx(half, abs=0.01)  # the first line drops by a reading
    # a later line gains only what the leading (1.25) does not already leave free
    assert (ruby_lines[1] - ruby_lines[0]) - (lines[1] - lines[0]) == pytest.approx(half - 0.25 * SIZE / mm, abs=0.01)
    assert em_box(readings[0][0])[0] >= -0.01  # the first reading stays inside the box
    first_line = [c for c in ruby_bases if c.origin[1] == ruby_lines[0]]
    assert em_box(readings[1][0])[0] >= em_box(first_line[0])[1] - 0.01  # and the second clears the first line


def test_ruby_makes_a_tight_text_shrink():
    box = TextBox(0, 0, 40 * mm, 6 * mm)
    plain = fit_text("漢字を勉強する", FONTS.regular, box, 14, 6, setting=MARKUP)
    rubied = fit_text("{漢字|かんじ}を{勉強|べんきょう}する", FONTS.regular, box, 14, 6, setting=MARKUP)
    assert rubied.size < plain.size
    assert plain.size == 14 and rubied.size * (1 + rubied.rooms[0]) <= 6 * mm + 1e-6


def test_a_wide_reading_reaches_over_half_a_plain_neighbour_and_no_further():
    chars = set_horizontally("よ{承|うけたまわ}る")
    bases, [reading] = split(chars, ["うけたまわ"])
    before, base, after = bases
    start, end = span(reading)
    assert centre(reading) == pytest.approx((base.x0 + base.x1) / 2, abs=0.01)
    assert start == pytest.approx((before.x0 + before.x1) / 2, abs=0.01)  # over half of よ
    assert end == pytest.approx((after.x0 + after.x1) / 2, abs=0.01)  # and half of る
    # the rest of its width is space around the base: (2.5 - 1) em less two halves, shared
    assert base.x0 - before.x1 == pytest.approx(0.25 * SIZE / mm, abs=0.01)
    assert after.x0 - base.x1 == pytest.approx(0.25 * SIZE / mm, abs=0.01)


def test_two_wide_readings_side_by_side_never_touch():
    chars = set_horizontally("{承|うけたまわ}{承|うけたまわ}")
    bases, readings = split(chars, ["うけたまわ", "うけたまわ"])
    assert span(readings[0])[1] <= span(readings[1])[0] + 1e-6
    for base, reading in zip(bases, readings):
        assert centre(reading) == pytest.approx((base.x0 + base.x1) / 2, abs=0.01)


WORDS = st.lists(
    st.one_of(
        st.text(KANA + "。、", min_size=1, max_size=4),
        st.tuples(st.text(KANJI, min_size=1, max_size=3), st.text(KANA, min_size=1, max_size=7)),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(WORDS)
def test_readings_are_centred_over_their_bases_and_never_overlap(words):
    text = "".join(w if isinstance(w, str) else f"{{{w[0]}|{w[1]}}}" for w in words)
    rubies = [w for w in words if not isinstance(w, str)]
    try:
        chars = set_horizontally(text, width=45, height=90, size=10)
    except InputError:  # (a text too long for the box is refused: not what this test is about)
        return
    bases, readings = split(chars, [reading for _, reading in rubies], 10)
    assert "".join(c.text for c in bases) == "".join(w if isinstance(w, str) else w[0] for w in words)
    position, found = 0, iter(readings)
    for word in words:
        if isinstance(word, str):
            position += len(word)
            continue
        base, reading = bases[position : position + len(word[0])], next(found)
        position += len(word[0])
        assert centre(reading) == pytest.approx(centre(base), abs=0.01)
    by_line: dict[float, list[tuple[float, float]]] = {}
    for reading in readings:
        by_line.setdefault(round(reading[0].origin[1], 3), []).append(span(reading))
    for spans in by_line.values():
        spans.sort()
        for (_, end), (start, _) in zip(spans, spans[1:]):
            assert end <= start + 1e-6, spans
    for reading in readings:  # and nothing reaches outside the box
        assert span(reading)[0] >= -1e-6 and span(reading)[1] <= 45 + 1e-6


def test_vertical_readings_stand_beside_their_base_on_the_right(tmp_path):
    pdf = build_card(
        tmp_path,
        {
            "v": "type: text, x: 30, y: 5, w: 20, h: 90, size: 14, direction: vertical, text: '{漢字|かんじ}を{承|うけたまわ}る'"
        },
    )
    chars = chars_of(pdf)
    bases, readings = split(chars, ["かんじ", "うけたまわ"], 14)
    for reading, base in ((readings[0], bases[:2]), (readings[1], bases[3:4])):
        assert all(c.size == pytest.approx(7) for c in reading)
        assert all(c.upright for c in reading)
        assert min(c.x0 for c in reading) == pytest.approx(max(c.x1 for c in base), abs=0.01)  # beside, to the right
        middle = (min(c.top for c in reading) + max(c.bottom for c in reading)) / 2
        assert middle == pytest.approx((min(c.top for c in base) + max(c.bottom for c in base)) / 2, abs=0.01)
    # the column made room on its right for the readings: they stay inside the box
    assert max(c.x1 for c in chars) == pytest.approx(50, abs=0.01)
    # the wide reading reaches over half of を and る, the rest is space around 承
    wo, shou, ru = bases[2], bases[3], bases[4]
    assert min(c.top for c in readings[1]) == pytest.approx(wo.middle, abs=0.01)
    assert max(c.bottom for c in readings[1]) == pytest.approx(ru.middle, abs=0.01)
    assert shou.top - wo.bottom == pytest.approx(0.25 * 14 / mm, abs=0.01)


def test_a_reading_the_decks_font_lacks_is_set_in_the_bundled_font(tmp_path):
    fonts = tmp_path / "fonts"
    fonts.mkdir()
    (fonts / "Vera.ttf").write_bytes((ROOT / "examples/decks/heist/fonts/Vera.ttf").read_bytes())
    pdf = build_card(
        tmp_path,
        {
            "t": "type: text, x: 5, y: 5, w: 70, h: 20, size: 14, font: vera, text: '{Tokyo|とうきょう} and {Kyoto|きょうと}'"
        },
        extra="fonts: {vera: {regular: fonts/Vera.ttf}}\n",
    )
    chars = chars_of(pdf)
    bases, readings = split(chars, ["とうきょう", "きょうと"], 14)
    assert all("Vera" in c.font for c in bases)
    assert all("Noto" in c.font or "KKSans" in c.font for reading in readings for c in reading)


def test_markup_off_keeps_the_braces_short_form_and_prints_tags_as_written():
    pieces = tokenize("<ruby>漢<rt>かん</rt></ruby>{字|じ}", FONTS.regular, Typesetting(markup=False))
    frags = [frag for piece in pieces if not isinstance(piece, str) for frag in piece.frags]
    assert "".join(f.text for f in frags).startswith("<ruby>漢<rt>")
    assert [(f.text, f.ruby.text) for f in frags if f.ruby is not None] == [("字", "じ")]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("{漢字|か|ん|じ}", "3 readings for 2 characters"),
        ("{漢字|かん|}", "empty reading"),
        ("{漢字|}", "empty reading"),
        ("{|かんじ}", "no base"),
        ("<rt>かん</rt>", "<rt> belongs inside <ruby>"),
        ("<ruby><b>漢</b><rt>かん</rt></ruby>", "not <b>"),
        ("<ruby>漢<rt>かん</rt>", "<ruby> is never closed"),
        ("<ruby><rt>かん</rt></ruby>", "needs a base"),
        ("<ruby>漢<rt>か{ん</rt></ruby>", "braces"),
        ("{<b>漢</b>|かん}です", "ruby {漢|かん} has markup inside its braces"),
        ("{漢|<b>かん</b>}です", "as in <b>{漢|かん}</b>"),
        ('{漢<span color="#c00">字</span>|かんじ}', "ruby {漢字|かんじ} has markup inside its braces"),
        ("<i>{漢|かん</i>}", "ruby {漢|かん} has markup inside its braces"),
    ],
)
def test_a_broken_ruby_is_one_clear_error_naming_its_card_and_region(tmp_path, english, cli, text, expected):
    deck = (
        f"name: t\ncard: {{size: poker}}\nlayout:\n  title: {{type: text, x: 1, y: 1, w: 40, h: 20, text: '{text}'}}\n"
        "cards: [{name: first}]\n"
    )
    assert_refused(tmp_path, cli, deck, "title", expected)


def test_markup_around_a_ruby_styles_its_base_and_its_reading(tmp_path):
    """``<b>{漢字|かんじ}</b>`` is how a ruby is made bold (markup inside its braces is refused
    above, pointing here): the base and its reading both bold, what follows it not."""
    pdf = build_card(
        tmp_path, {"t": "type: text, x: 5, y: 5, w: 60, h: 30, size: 12, text: '<b>{漢字|かんじ}</b>です'"}
    )
    drawn = [(char.text, "bold" in char.font.lower(), round(char.size)) for char in chars_of(pdf)]
    assert sorted(drawn) == sorted(
        [("漢", True, 12), ("字", True, 12), ("で", False, 12), ("す", False, 12)]
        + [("か", True, 6), ("ん", True, 6), ("じ", True, 6)]
    )
