"""Tiled printing: windows cover the drawing, neighbours overlap, marks sit in both sheets."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kkprint.engine.tiling import Tiling


@pytest.mark.parametrize("width,height", [(780, 1100), (500, 400), (1500, 300)])
def test_windows_cover_everything_and_overlap(width, height):
    tiling = Tiling(width, height, 540, 760, 34)
    right = (tiling.columns - 1) * tiling.step_x + tiling.window_w
    bottom = (tiling.rows - 1) * tiling.step_y + tiling.window_h
    assert right >= width and bottom >= height
    if tiling.columns > 1:
        a, b = tiling.window(0, 0), tiling.window(0, 1)
        assert a[0] + tiling.window_w - b[0] == pytest.approx(34)


def test_registration_marks_are_seen_on_both_neighbours():
    tiling = Tiling(780, 1100, 540, 760, 34)
    assert tiling.registration_points()
    for x, y in tiling.registration_points():
        windows = [
            (r, c)
            for r in range(tiling.rows)
            for c in range(tiling.columns)
            if tiling.window(r, c)[0] <= x <= tiling.window(r, c)[0] + tiling.window_w
            and tiling.window(r, c)[1] <= y <= tiling.window(r, c)[1] + tiling.window_h
        ]
        assert len(windows) >= 2, (x, y)


def test_small_art_needs_one_sheet():
    tiling = Tiling(300, 300, 540, 760, 34)
    assert (tiling.rows, tiling.columns) == (1, 1) and tiling.registration_points() == []


def test_trim_marks_stand_in_the_margins_and_never_cross_the_art(tmp_path):
    """Where a sheet is trimmed, marks in its margin show the line; across the art a line would run
    through whatever is drawn there (the mat's square numbers)."""
    import pypdfium2 as pdfium
    from reportlab.lib.units import mm

    from kkprint.engine.document import engine_texts, open_pdf
    from kkprint.engine.fonts import prepare_fonts
    from kkprint.engine.geometry import PAPERS
    from kkprint.engine.tiling import print_tiled

    def grey_art(c, w, h):  # a plain light grey drawing: any dark line on it is ours
        c.setFillGray(0.9)
        c.rect(0, 0, w, h, stroke=0, fill=1)

    width, height = 300 * mm, 200 * mm
    path = tmp_path / "tiles.pdf"
    with open_pdf(path, PAPERS["a4"], prepare_fonts(engine_texts()), title="t", lang="en") as doc:
        tiling = print_tiled(doc, width, height, grey_art)
    assert tiling.columns == 2
    document = pdfium.PdfDocument(str(path))
    image = document[1].render(scale=100 / 72).to_pil().convert("L")  # sheet 1-2: trimmed on its left
    document.close()
    scale = 100 / 72
    trim_x = round((10 * mm + tiling.overlap / 2) * scale)
    window_top, window_bottom = round(10 * mm * scale), round((10 * mm + tiling.window_h) * scale)
    crosses = {round((10 * mm + y) * scale) for _, y in tiling.registration_points()}
    inside = [
        image.getpixel((trim_x, y))
        for y in range(window_top + 3, min(window_bottom, round(200 * mm * scale)) - 3)
        if all(abs(y - c) > 16 for c in crosses)  # (a cross reaches 3.5 mm, 14 px)
    ]
    assert inside and min(inside) > 200  # only the art's grey where the sheet is trimmed
    above = [image.getpixel((trim_x, y)) for y in range(round(5.6 * mm * scale), window_top - 2)]
    assert min(above) < 160  # the mark in the top margin (a thin line, anti-aliased)
    assert all(image.getpixel((x, y)) > 250 for x in range(image.width) for y in range(round(5 * mm * scale) - 1))


def windows(tiling: Tiling) -> tuple[list[float], list[float]]:
    """Each column's window's left edge and each row's top edge."""
    return (
        [tiling.window(0, column)[0] for column in range(tiling.columns)],
        [tiling.window(row, 0)[1] for row in range(tiling.rows)],
    )


def assert_sheets_cover_and_register(tiling: Tiling) -> None:
    """Every window reaches over the next one's overlap strip, the first starts at the drawing's
    edge and the last reaches its end; the seams are the strips' middles, and where they were
    moved each sheet keeps an overlap's width of its own between its strips."""
    overlap = tiling.overlap
    for starts, window, length, seams, moved in zip(
        windows(tiling),
        (tiling.window_w, tiling.window_h),
        (tiling.width, tiling.height),
        (tiling.seams_x, tiling.seams_y),
        (tiling.lefts, tiling.tops),
    ):
        assert starts[0] == 0 and starts[-1] + window >= length - 1e-6
        for start, after in zip(starts, starts[1:]):
            assert after <= start + window - overlap + 1e-6
        assert seams == pytest.approx([start + overlap / 2 for start in starts[1:]])
        strips = [
            (-overlap, 0),
            *((seam - overlap / 2, seam + overlap / 2) for seam in seams),
            (length, length + overlap),
        ]
        assert not moved or all(after[0] - before[1] >= overlap - 1e-5 for before, after in zip(strips, strips[1:]))


def test_seams_move_between_the_words_and_the_sheets_stay_as_many():
    """A box of words where the even steps put a seam: the seam moves to the nearest place where
    its overlap strip and a millimetre either side are clear of every box, the sheets as many;
    the next seam comes along as far as a window reaches."""
    from reportlab.lib.units import mm

    from kkprint.engine.tiling import STRIP_ROOM

    plain = Tiling(780, 1000, 540, 400, 34)  # three rows: seams at y = 383 and 749
    assert plain.seams_y == [383, 749]
    words = [(100, 1000 - 400, 300, 30)]  # y from 370 to 400 (from the top); the box is the art's: y from the bottom
    moved = plain.clear_of(words)
    assert (moved.rows, moved.columns) == (plain.rows, plain.columns) and moved.seams_x == plain.seams_x
    first = 370 - plain.overlap / 2 - STRIP_ROOM  # (below the words no seam lets the first sheet reach it)
    assert moved.seams_y == [pytest.approx(first), pytest.approx(first + plain.step_y)]
    assert_sheets_cover_and_register(moved)
    assert moved.registration_points(words) and all(
        not 370 - 4.5 * mm < y < 400 + 4.5 * mm for _, y in moved.registration_points(words)
    )


def test_a_seam_that_no_strip_can_clear_keeps_its_trim_line_off_the_words():
    from kkprint.engine.tiling import SEAM_ROOM

    plain = Tiling(1000, 300, 540, 760, 34)  # two columns: the seam at x = 523
    words = [(490, 100, 20, 10), (525, 100, 20, 10)]  # 15 pt apart: no 34 pt strip fits between
    moved = plain.clear_of(words)
    assert moved.seams_x == [pytest.approx(525 - SEAM_ROOM)]
    assert_sheets_cover_and_register(moved)


def test_seams_stay_even_where_they_are_clear_or_nothing_is():
    plain = Tiling(780, 1100, 540, 760, 34)
    assert plain.clear_of([(10, 10, 50, 20)]) == plain  # (far from the seam: nothing moves)
    everywhere = [(0, y, 780, 5) for y in range(0, 1100, 10)]  # words all down the drawing
    assert plain.clear_of(everywhere) == plain


@given(
    st.lists(
        st.tuples(st.floats(0, 1500), st.floats(0, 1100), st.floats(1, 200), st.floats(1, 60)),
        max_size=12,
    ),
    st.floats(300, 1500),
    st.floats(200, 1100),
)
@settings(max_examples=200, deadline=None)
def test_seams_off_the_words_never_lose_a_sheets_worth(boxes, width, height):
    """Whatever the words, the sheets are as many, cover the drawing and overlap by their strip;
    a moved seam keeps its room from every word."""
    from kkprint.engine.tiling import SEAM_ROOM

    plain = Tiling(width, height, 540, 400, 34)
    moved = plain.clear_of(boxes)
    assert (moved.rows, moved.columns) == (plain.rows, plain.columns)
    assert_sheets_cover_and_register(moved)
    for seams, even, stretches in (
        (moved.seams_x, plain.seams_x, [(x, x + w) for x, y, w, h in boxes]),
        (moved.seams_y, plain.seams_y, [(height - y - h, height - y) for x, y, w, h in boxes]),
    ):
        if seams != even:
            assert all(not start - SEAM_ROOM < seam < end + SEAM_ROOM for seam in seams for start, end in stretches)
