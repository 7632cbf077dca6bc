"""The tiled Culdcept mat (SPEC §3: a map larger than the paper prints tiled, with overlap and
registration marks): no seam runs through the mat's words, and no registration cross stands on
them. The trim runs through the crosses, so half of each stays on the glued mat; the middle cross
of the first seam stood on the set-up text of sheets 1 and 2, and on A4 that seam cut the set-up
text's second line in two. Read back from the PDFs with pdfplumber."""

from __future__ import annotations

import math
from typing import NamedTuple

import pdfplumber
import pytest
from reportlab.lib.units import mm

from kkprint.cli.targets import resolve
from kkprint.engine.job import BuildOptions, build_targets
from kkprint.engine.tiling import Tiling
from kkprint.games.culdcept.components import MAT_H, MAT_W

ARM = 3.5 * mm  # a cross's arms, from its centre
MARGIN, LABEL_ZONE, OVERLAP = 10 * mm, 6 * mm, 12 * mm  # print_tiled's: around each window, below it; the strip


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


def tiled_mat(tmp_path, lang: str, paper: str):
    written = build_targets(resolve(["culdcept"]), BuildOptions(out_dir=tmp_path, lang=lang, paper_name=paper))
    return next(path for path in written if "mat-tiled" in path.name)


class Seen(NamedTuple):
    text: str
    box: tuple[float, float, float, float]  # left, top, right, bottom: mm from the mat's top left


def sheets_in_mat_coordinates(tiled) -> tuple[set[Seen], set[Seen], set[float], set[float]]:
    """What the tiled mat's sheets show, moved into the mat's own coordinates: the words seen in
    a sheet's window, those seen whole in one, the seams' x (where a sheet's trim marks above its
    window say it is trimmed on its left) and y (trim marks left of the window: trimmed on top).
    Each sheet draws the whole mat, clipped to its window: its outline, a rounded rectangle of the
    mat's size, says where the mat lies on the sheet."""
    seen: set[Seen] = set()
    whole: set[Seen] = set()
    seams_x: set[float] = set()
    seams_y: set[float] = set()
    with pdfplumber.open(tiled) as document:
        for page in document.pages:
            frame = next(c for c in page.curves if abs(c["width"] - MAT_W) < 0.5 and abs(c["height"] - MAT_H) < 0.5)
            left, top = frame["x0"], frame["top"]
            right, bottom = page.width - MARGIN, page.height - MARGIN - LABEL_ZONE  # the window
            for word in page.extract_words():
                if word["x1"] > MARGIN and word["x0"] < right and word["bottom"] > MARGIN and word["top"] < bottom:
                    box = (word["x0"] - left, word["top"] - top, word["x1"] - left, word["bottom"] - top)
                    words = Seen(word["text"], (*(round(v / mm, 2) for v in box),))
                    seen.add(words)
                    if (
                        MARGIN <= word["x0"]
                        and word["x1"] <= right
                        and MARGIN <= word["top"]
                        and word["bottom"] <= bottom
                    ):
                        whole.add(words)
            for line in page.lines:
                # (a trim mark stands in the 5 mm between the printer's reach and the window,
                # where no cross fits: one drawn off the window, clipped, is still read)
                if line["x0"] == line["x1"] and 5 * mm <= line["top"] and line["bottom"] < MARGIN:  # above the window
                    seams_x.add(round((line["x0"] - left) / mm, 2))
                if line["top"] == line["bottom"] and 5 * mm <= line["x0"] and line["x1"] < MARGIN:  # left of it
                    seams_y.add(round((line["top"] - top) / mm, 2))
    return seen, whole, seams_x, seams_y


def met(seen: set[Seen], seams_x: set[float], seams_y: set[float], reach: float) -> list[tuple[str, str]]:
    """The words that come within ``reach`` (mm) of a seam: (the seam, the words)."""
    return [
        (f"{'xy'[axis]} = {seam} mm", words.text)
        for axis, seams in enumerate((seams_x, seams_y))
        for seam in sorted(seams)
        for words in sorted(seen)
        if words.box[axis] < seam + reach and seam - reach < words.box[axis + 2]
    ]


@pytest.mark.parametrize("lang, paper", [("ja", "a4"), ("en", "a4"), ("ja", "letter"), ("en", "letter")])
def test_no_seam_runs_through_the_tiled_mats_words(tmp_path, lang, paper):
    """Each seam (where a sheet is trimmed and laid over its neighbour) runs between the mat's
    words: a line cut there and taped back together has a seam through it (on A4 the first seam
    cut the set-up's second line). The strip the sheets overlap in keeps clear of them too, where
    a hand's trim may wander and the crosses stand; and every word stands whole on one sheet:
    nothing lost at the edges."""
    tiled = tiled_mat(tmp_path, lang, paper)
    seen, whole, seams_x, seams_y = sheets_in_mat_coordinates(tiled)
    assert (len(seams_x), len(seams_y)) == ((1, 1) if paper == "letter" else (0, 2))  # A4 lies on its side
    assert len(seen) >= 17  # (13 square numbers, the title, the direction, the set-up's lines, the discards)
    assert not met(seen, seams_x, seams_y, 0), (tiled.name, "cut")
    assert not met(seen, seams_x, seams_y, OVERLAP / mm / 2), (tiled.name, "in an overlap strip")
    assert seen == whole, (tiled.name, "cut off", sorted(seen - whole))


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
