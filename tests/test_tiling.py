"""Tiled printing: windows cover the drawing, neighbours overlap, marks sit in both sheets."""

import pytest

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
