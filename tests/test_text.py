"""Text that fits its box, wraps Japanese by character, and carries icons on its baseline."""

import pytest
from conftest import RecordingCanvas

from kkprint.base.errors import InputError
from kkprint.engine import text as text_module
from kkprint.engine.fonts import prepare_fonts
from kkprint.engine.text import ICON_DROP, ICON_SCALE, TextBox, draw_fitted, fit_text, tokenize

FONTS = prepare_fonts(["王と枢機卿の決算チャートを印刷します。紋章権利証を戻す"])


def record(monkeypatch, text, size, box=TextBox(0, 0, 300, 100)):
    icons = []
    monkeypatch.setattr(text_module, "draw_icon", lambda c, name, x, y, s: icons.append((name, x, y, s)))
    canvas = RecordingCanvas()
    fitted = fit_text(text, FONTS.regular, box, size, size)
    draw_fitted(canvas, fitted, FONTS.regular, box)
    return canvas.strings, icons


@pytest.mark.parametrize("size", [8, 16])
def test_icon_sits_on_the_baseline_and_scales_with_the_font(monkeypatch, size):
    strings, icons = record(monkeypatch, "Roll {die:5} now", size)
    baseline = strings[0][1]
    assert all(y == baseline for _, y, _, _ in strings)
    [(name, x, y, icon_size)] = icons
    assert name == "die:5"
    assert icon_size == pytest.approx(size * ICON_SCALE)
    assert y == pytest.approx(baseline - size * ICON_DROP)
    before, after = strings[0], strings[1]
    assert before[0] < x < after[0]  # between the words, in reading order


def test_long_text_shrinks_to_fit():
    box = TextBox(0, 0, 100, 30)
    fitted = fit_text("a fairly long sentence that will need to wrap onto several lines", FONTS.regular, box, 14, 5)
    assert fitted.size < 14
    height = fitted.size + (len(fitted.lines) - 1) * fitted.size * fitted.leading
    assert height <= 30 + 1e-6


def test_text_that_cannot_fit_is_an_error():
    with pytest.raises(InputError, match="does not fit"):
        fit_text("word " * 200, FONTS.regular, TextBox(0, 0, 60, 20), 10, 8)


def test_japanese_wraps_between_characters_and_keeps_punctuation():
    fitted = fit_text("王と枢機卿の決算チャートを印刷します。", FONTS.regular, TextBox(0, 0, 60, 200), 10, 10)
    lines = ["".join(a.text for a in line) for line in fitted.lines]
    assert len(lines) > 1
    assert not any(line.startswith("。") for line in lines)
    assert "".join(lines) == "王と枢機卿の決算チャートを印刷します。"


def test_literal_braces_and_unknown_icons():
    assert [a.text for a in tokenize("{{x}}", FONTS.regular)] == ["{x}"]
    with pytest.raises(InputError, match="unknown icon"):
        tokenize("{nosuch:icon}", FONTS.regular)


def test_hard_line_breaks():
    fitted = fit_text("one\ntwo", FONTS.regular, TextBox(0, 0, 300, 100), 10, 10)
    assert len(fitted.lines) == 2


def test_a_lone_character_on_the_last_line_is_avoided():
    box = TextBox(0, 0, 20 * 2.8346, 12 * 2.8346)
    fitted = fit_text("権利証を戻す", FONTS.regular, box, 10, 5)
    assert len("".join(a.text for a in fitted.lines[-1])) > 1 or len(fitted.lines) == 1


def test_a_word_wider_than_its_box_is_broken_as_a_last_resort():
    box = TextBox(0, 0, 40, 60)
    fitted = fit_text("Konstantinopoulou", FONTS.regular, box, 10, 8)
    lines = ["".join(a.text for a in line) for line in fitted.lines]
    assert len(lines) > 1 and "".join(lines) == "Konstantinopoulou"
    words = fit_text("short words wrap whole", FONTS.regular, TextBox(0, 0, 60, 60), 10, 8)
    pieces = [piece for line in words.lines for piece in "".join(a.text for a in line).split()]
    assert pieces == ["short", "words", "wrap", "whole"]  # words that fit are never split


JAPANESE = ["−2勝利ポイントを失う", "リンカネーション使用", "（自分の道化師を裏返す）", "5つ同じでも可"]
WORDS = ["ポイント", "リンカネーション", "道化師", "同じ"]


@pytest.mark.parametrize("width_mm", [14, 18, 22, 26, 30])
def test_japanese_breaks_between_phrases_never_inside_a_word(width_mm):
    from reportlab.pdfbase.pdfmetrics import stringWidth

    fonts = prepare_fonts(JAPANESE)
    for text, word in zip(JAPANESE, WORDS):
        if stringWidth(word, fonts.regular, 6) > width_mm * 2.8346:
            continue  # narrower than the word at the smallest size: only then may it be split
        fitted = fit_text(text, fonts.regular, TextBox(0, 0, width_mm * 2.8346, 200), 9, 6)
        lines = ["".join(a.text for a in line) for line in fitted.lines]
        assert "".join(lines) == text
        for line, following in zip(lines, lines[1:]):
            joined = line + following
            start = joined.find(word)
            if start >= 0:
                assert not (start < len(line) < start + len(word)), (text, lines)


def test_a_booklet_breaks_japanese_between_characters_however_it_is_written():
    """Latin paragraphs skip the breaking between characters; Japanese written as character
    references (ASCII in the file) is still broken as the same Japanese written out."""
    from kkprint.engine.booklet import BookletStyle, _Setter
    from kkprint.engine.document import engine_texts

    japanese = "ボードゲームを家庭のプリンターで刷るためのPDFと、遊んだゲームの得点計算。" * 3
    referenced = "".join(c if c.isascii() else f"&#{ord(c)};" for c in japanese)
    assert referenced.isascii()
    setter = _Setter(prepare_fonts([*engine_texts(), japanese]), BookletStyle(), 500.0)

    def shown(text: str) -> list[str]:
        return ["".join(atom.text for atom in line) for line in setter.lines(text, 120.0, 9.0)]

    written = shown(japanese)
    assert len(written) > 3 and shown(referenced) == written
    assert shown("Roll all your dice. The dice you just rolled are your <b>active dice</b>.")[0].startswith("Roll")


def test_no_line_starts_with_a_small_kana_in_a_booklet_or_on_a_card():
    """Small kana (ゃ ょ ッ …) are kinsoku like closing marks: 'しょう。' is never set as 'しま' /
    'ょう。', whether a booklet breaks between characters or a card's word is cut by letters."""
    from kkprint.engine.booklet import BookletStyle, _Setter
    from kkprint.engine.document import engine_texts

    small = "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
    texts = [
        "強いカードがないときは、リンカネーションで引き直しましょう。",
        "キャッシュ・ジャックポット、ちょっとチェック",
    ]
    fonts = prepare_fonts([*engine_texts(), *texts])
    setter = _Setter(fonts, BookletStyle(), 500.0)
    for text in texts:
        for width in range(40, 200, 3):
            booklet = ["".join(atom.text for atom in line) for line in setter.lines(text, float(width), 9.0)]
            card = fit_text(text, fonts.regular, TextBox(0, 0, width, 400), 9, 9).lines
            for lines in (booklet, ["".join(atom.text for atom in line) for line in card]):
                assert "".join(lines) == text
                assert not any(line[0] in small for line in lines), (width, lines)
