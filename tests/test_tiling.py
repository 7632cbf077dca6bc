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
