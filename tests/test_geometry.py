import math

import pytest
from reportlab.lib.units import mm

from kkprint.base.errors import InputError
from kkprint.engine.geometry import CARD_SIZES, PAPERS, DuplexMode, SheetLayout, card_size
from kkprint.engine.marks import MARK_SHORTEST, TIGHT_SHORTEST, CutMarks, edge_positions, margins, mark_segments


def layout(card="poker", paper="a4", **kw):
    return SheetLayout(PAPERS[paper], card_size(card), **{"margin_mm": 6, **kw})


@pytest.mark.parametrize(
    "card,paper,columns,rows",
    [
        ("poker", "a4", 3, 3),
        ("poker", "letter", 3, 3),
        ("bridge", "a4", 3, 3),
        ("mini", "a4", 4, 4),
        ("tarot", "a4", 2, 2),
        ("token-25", "a4", 7, 11),
    ],
)
def test_how_many_fit(card, paper, columns, rows):
    sheet = layout(card, paper)
    assert (sheet.columns, sheet.rows) == (columns, rows)


def test_gap_reduces_what_fits():
    assert layout("poker", "letter", gap_mm=2).rows == 2


def test_cards_measure_their_size_and_are_centred():
    sheet = layout()
    slot = sheet.front_slot(0)
    assert slot.width == pytest.approx(63 * mm) and slot.height == pytest.approx(88 * mm)
    width, height = sheet.paper.size
    last = sheet.front_slot(sheet.per_sheet - 1)
    assert slot.x == pytest.approx(width - last.right)
    assert last.y == pytest.approx(height - slot.top)


def test_first_card_is_top_left_and_cards_do_not_overlap():
    sheet = layout(gap_mm=3)
    slots = sheet.slots()
    assert slots[0].y == max(s.y for s in slots) and slots[0].x == min(s.x for s in slots)
    for i, a in enumerate(slots):
        for b in slots[i + 1 :]:
            assert a.right <= b.x + 1e-6 or b.right <= a.x + 1e-6 or a.top <= b.y + 1e-6 or b.top <= a.y + 1e-6
    assert slots[1].x - slots[0].right == pytest.approx(3 * mm)


def test_long_edge_back_mirrors_across_the_vertical_axis():
    sheet = layout()
    width, _ = sheet.paper.size
    for index in range(sheet.per_sheet):
        front, back = sheet.front_slot(index), sheet.back_slot(index, DuplexMode.LONG_EDGE)
        assert back.x == pytest.approx(width - front.right)
        assert back.y == pytest.approx(front.y)
    # centred grid: the back of the top-left card is printed top-right
    assert sheet.back_slot(0, DuplexMode.LONG_EDGE).x == pytest.approx(sheet.front_slot(2).x)


def test_short_edge_back_mirrors_across_the_horizontal_axis():
    sheet = layout("mini")
    _, height = sheet.paper.size
    front, back = sheet.front_slot(1), sheet.back_slot(1, DuplexMode.SHORT_EDGE)
    assert back.x == pytest.approx(front.x)
    assert back.y == pytest.approx(height - front.top)
    assert back.y == pytest.approx(sheet.front_slot(1 + 3 * sheet.columns).y)


@pytest.mark.parametrize("mode", [DuplexMode.LONG_EDGE, DuplexMode.SHORT_EDGE])
def test_printer_offset_moves_every_back(mode):
    sheet = layout()
    plain, shifted = sheet.back_slot(4, mode), sheet.back_slot(4, mode, (1.5, -0.5))
    assert shifted.x - plain.x == pytest.approx(1.5 * mm)
    assert shifted.y - plain.y == pytest.approx(-0.5 * mm)


def test_card_too_big_for_paper_is_refused():
    with pytest.raises(InputError, match="does not fit"):
        SheetLayout(PAPERS["a4"], card_size("tarot"), margin_mm=100).require_fit()


def test_unknown_card_size():
    with pytest.raises(InputError, match="unknown card size"):
        card_size("huge")


@pytest.mark.parametrize("card", sorted(CARD_SIZES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("gap", [0, 3])
def test_cut_marks_never_touch_a_card_nor_are_specks(card, paper, gap):
    sheet = layout(card, paper, gap_mm=gap)
    segments = mark_segments(sheet, CutMarks.EDGES)
    assert segments, "some marks should be printed"
    for x1, y1, x2, y2 in segments:
        for slot in sheet.slots():
            inside_x = max(x1, x2) > slot.x and min(x1, x2) < slot.right
            inside_y = max(y1, y2) > slot.y and min(y1, y2) < slot.top
            assert not (inside_x and inside_y), (card, paper, (x1, y1, x2, y2), slot)
        # no speck: cards apart have their outlines to cut along, touching cards only the marks
        assert math.hypot(x2 - x1, y2 - y1) >= (TIGHT_SHORTEST if gap == 0 else MARK_SHORTEST) - 1e-6
    if gap == 0:  # every cut line of touching cards is marked where a margin leaves 2.5 mm for it
        room = margins(sheet)
        xs, ys = edge_positions(sheet)
        if max(room["top"], room["bottom"]) >= 7.5 * mm:
            assert {round(s[0], 3) for s in segments if s[0] == s[2]} == {round(x, 3) for x in xs}
        if max(room["left"], room["right"]) >= 7.5 * mm:
            assert {round(s[1], 3) for s in segments if s[1] == s[3]} == {round(y, 3) for y in ys}


def test_cut_marks_line_up_with_every_card_edge():
    sheet = layout()
    xs = {round(s[0], 3) for s in mark_segments(sheet, CutMarks.EDGES) if s[0] == s[2]}
    edges = {round(v, 3) for slot in sheet.slots() for v in (slot.x, slot.right)}
    assert xs == edges


def test_no_marks_when_asked():
    assert mark_segments(layout(), CutMarks.NONE) == []


@pytest.mark.parametrize("mode", [DuplexMode.LONG_EDGE, DuplexMode.SHORT_EDGE])
def test_calibration_sheet_mirrors_like_the_backs(mode):
    """The alignment sheet's rulers must sit where backs go, or the offset it reads is wrong."""
    from kkprint.engine.calibrate import mirrored

    sheet = layout()
    width, height = sheet.paper.size
    for index in range(sheet.per_sheet):
        front, back = sheet.front_slot(index), sheet.back_slot(index, mode)
        centre = (front.x + front.width / 2, front.y + front.height / 2)
        assert mirrored(centre, width, height, mode) == pytest.approx(
            (back.x + back.width / 2, back.y + back.height / 2)
        )


def test_every_ruler_number_but_zero_carries_its_sign_on_the_side_it_stands(tmp_path):
    """A user who reads a number left of (or below) zero must read a minus: the number is what
    they type after --save."""
    from pypdf import PdfReader

    from kkprint.engine.calibrate import RULER_GAP, targets, write_sheet

    reader = PdfReader(write_sheet(tmp_path, "a4", DuplexMode.LONG_EDGE, "en"))
    page = reader.pages[1]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    centre = next(p for p in targets(width, height) if p == (width / 2, height / 2))
    found = []

    def visit(text, cm, tm, font, size):
        x, y = cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3]
        if text.strip() and abs(x - centre[0]) < 8 * mm and centre[1] + RULER_GAP < y < centre[1] + 16 * mm:
            found.append((x, text.strip()))

    page.extract_text(visitor_text=visit)
    found.sort()
    assert [text for _, text in found] == ["−4", "−2", "0", "+2", "+4"]
    zero = next(x for x, text in found if text == "0")
    assert all((x < zero) == text.startswith("−") for x, text in found if text != "0")


def test_an_offset_read_off_the_ruler_moves_backs_by_that_much():
    """Tick v of a ruler is printed v mm from the perfect spot; a printer that shifts the back by
    d lands tick -d under the front line, and passing that reading as the offset cancels d."""
    shift_by_printer = 1.5 * mm
    reading = -shift_by_printer / mm
    sheet = layout()
    placed = sheet.back_slot(0, DuplexMode.LONG_EDGE, (reading, 0)).x + shift_by_printer
    assert placed == pytest.approx(sheet.back_slot(0, DuplexMode.LONG_EDGE).x)


def test_a_part_filled_sheet_gets_marks_only_for_its_cards():
    sheet = layout("token-25", gap_mm=4, margin_mm=10)
    full = mark_segments(sheet, CutMarks.EDGES)
    first_row = mark_segments(sheet, CutMarks.EDGES, sheet.columns)
    ys = {round(s[1], 3) for s in first_row if s[1] == s[3]}
    assert len(first_row) < len(full)
    assert ys == {round(v, 3) for slot in sheet.slots()[: sheet.columns] for v in (slot.y, slot.top)}


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_calibration_labels_stand_apart_and_keep_clear_of_the_instructions(tmp_path, lang):
    from pypdf import PdfReader
    from reportlab.lib.units import mm
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from kkprint.engine.calibrate import write_sheet

    reader = PdfReader(write_sheet(tmp_path, "a4", DuplexMode.LONG_EDGE, lang))
    spots = []

    def visit(text, cm, tm, font, size):
        if text.strip() and font is not None:
            x, y = cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3]
            spots.append((text.strip(), x, y, size * tm[0]))

    reader.pages[1].extract_text(visitor_text=visit)
    labels = [s for s in spots if s[0] in {"−4", "−2", "0", "+2", "+4"}]
    assert len(labels) == 5 * 2 * 5  # five targets, two rulers, five signed labels each
    rows: dict[float, list] = {}
    for text, x, y, size in labels:
        rows.setdefault(round(y, 1), []).append((x, x + stringWidth(text, "Helvetica", size)))
    for row in rows.values():
        row.sort()
        for (_, right), (next_left, _) in zip(row, row[1:]):
            assert next_left - right > 0.3 * mm, "ruler numbers touch"
    front = []
    reader.pages[0].extract_text(
        visitor_text=lambda t, cm, tm, f, s: front.append(cm[5] + tm[5]) if t.strip() else None
    )
    height = float(reader.pages[0].mediabox.height)
    crosshair_top = height - 35 * mm + 12 * mm
    instruction_lines = [y for y in front if y > height / 2]
    assert instruction_lines and min(instruction_lines) > crosshair_top


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_fold_line_needs_no_margin_so_two_95_mm_cards_fold_on_a4(paper):
    """Two 95 mm cards take 190 of A4's 210 mm: with 6 mm outer margins they fit only when the fold
    line itself keeps none (and they stay clear of it)."""
    from reportlab.lib.units import mm

    from kkprint.engine.cards import fold_layout
    from kkprint.engine.geometry import FOLD_CLEARANCE_MM, CardSize

    half = fold_layout(SheetLayout(PAPERS[paper], CardSize(95, 130), 0, 6))
    half.require_fit()
    assert (half.columns, half.rows) == (1, 2)
    fold = PAPERS[paper].width_mm / 2 * mm
    for slot in half.slots():
        assert slot.x >= 6 * mm - 1e-6 and slot.right <= fold - FOLD_CLEARANCE_MM * mm + 1e-6
    marks = mark_segments(half, CutMarks.EDGES)
    assert marks and all(max(x1, x2) <= fold - FOLD_CLEARANCE_MM * mm for x1, _, x2, _ in marks)  # none at the fold


@pytest.mark.parametrize("card", sorted(CARD_SIZES))
def test_every_card_that_fits_two_up_folds(card):
    from kkprint.engine.cards import fold_layout

    size = card_size(card)
    fits_two_up = 2 * (size.width_mm + 6) <= PAPERS["a4"].width_mm
    assert fits_two_up <= (fold_layout(layout(card)).per_sheet > 0)


def test_landscape_paper_turns_long_edge_about_its_horizontal_axis():
    from kkprint.engine.geometry import Paper

    wide = SheetLayout(Paper("wide", 297, 210), card_size("poker"), margin_mm=6)
    front, back = wide.front_slot(0), wide.back_slot(0, DuplexMode.LONG_EDGE)
    assert back.x == pytest.approx(front.x)
    assert back.y == pytest.approx(210 * mm - front.top)


@pytest.mark.parametrize(
    "card, rotated, mode, upside_down",
    [
        ("poker", False, DuplexMode.LONG_EDGE, False),  # turned like a book page, as the sheet turns
        ("poker", False, DuplexMode.SHORT_EDGE, True),  # the sheet turns top over bottom: the back turned
        ("poker", False, DuplexMode.FOLD, False),
        ("poker", True, DuplexMode.LONG_EDGE, True),  # lying across the turn
        ("poker", True, DuplexMode.SHORT_EDGE, False),
        ("square", False, DuplexMode.SHORT_EDGE, True),
    ],
)
def test_a_back_reads_upright_when_its_card_is_turned_over_about_its_long_side(card, rotated, mode, upside_down):
    sheet = layout(card, rotated=rotated)
    assert all(sheet.back_upside_down(index, mode) is upside_down for index in range(sheet.per_sheet))
