"""The tiled Culdcept mat (SPEC §3: a map larger than the paper prints tiled, with overlap and
registration marks): no registration cross stands on the mat's words. The trim runs through the
crosses, so half of each stays on the glued mat; the middle cross of the first seam stood on the
set-up text of sheets 1 and 2. Read back from the PDFs with pdfplumber."""

from __future__ import annotations

import math

import pdfplumber
import pytest
from reportlab.lib.units import mm

from kkprint.cli.targets import resolve
from kkprint.engine.job import BuildOptions, build_targets
from kkprint.engine.tiling import Tiling

ARM = 3.5 * mm  # a cross's arms, from its centre


def crosses(page) -> list[tuple[float, float]]:
    """The centre of every registration cross on a page: a level 7 mm line and an upright one
    crossing at their middles."""
    level = [ln for ln in page.lines if abs(ln["top"] - ln["bottom"]) < 0.01 and abs(ln["width"] - 2 * ARM) < 0.1]
    upright = [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01 and abs(ln["height"] - 2 * ARM) < 0.1]
    return [
        ((h["x0"] + h["x1"]) / 2, h["top"])
        for h in level
        for v in upright
        if abs(v["x0"] - (h["x0"] + h["x1"]) / 2) < 0.1 and abs((v["top"] + v["bottom"]) / 2 - h["top"]) < 0.1
    ]


@pytest.mark.parametrize("lang, paper", [("ja", "a4"), ("en", "a4"), ("ja", "letter"), ("en", "letter")])
def test_no_registration_cross_stands_on_the_tiled_mats_words(tmp_path, lang, paper):
    written = build_targets(resolve(["culdcept"]), BuildOptions(out_dir=tmp_path, lang=lang, paper_name=paper))
    tiled = next(path for path in written if "mat-tiled" in path.name)
    found = 0
    with pdfplumber.open(tiled) as document:
        for number, page in enumerate(document.pages, 1):
            words = page.extract_words()
            for x, y in crosses(page):
                found += 1
                on = [
                    word["text"]
                    for word in words
                    if word["x0"] < x + ARM
                    and x - ARM < word["x1"]
                    and word["top"] < y + ARM
                    and y - ARM < word["bottom"]
                ]
                assert not on, (tiled.name, number, (round(x / mm), round(y / mm)), on)
            points = crosses(page)
            assert all(math.dist(a, b) >= 2 * ARM for a in points for b in points if a != b)  # none on another
    assert found >= 8  # (both sides of every seam have their crosses)


def test_a_cross_moves_along_its_seam_off_a_box_kept_clear():
    from kkprint.engine.tiling import REACH

    tiling = Tiling(700, 500, 720, 300, 30)  # one seam, across
    plain = tiling.registration_points()
    seam_y = tiling.step_y + tiling.overlap / 2
    assert {y for _, y in plain} == {seam_y}
    middle = plain[len(plain) // 2][0]
    words = (middle - 20, 500 - seam_y - 10, 40, 20)  # (the art's own coordinates: from the bottom)
    moved = tiling.registration_points([words])
    left, right = words[0] - REACH, words[0] + words[2] + REACH
    assert all(not left < x < right for x, _ in moved) and len(moved) >= 2  # clear, and the seam still registers
    assert [p for p in plain if not left < p[0] < right] == [p for p in moved if p in plain]  # the others stay
