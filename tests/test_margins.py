"""Nothing a home printer cannot print: every page of every built component keeps a 5 mm band
along the paper's edges empty — read back from the rendered pages, not from the code."""

from __future__ import annotations

import pytest

from kkprint.cli.targets import resolve
from kkprint.engine.job import BuildOptions, build_targets

BAND_MM = 5.0
DPI = 60


def dark_pixels_near_the_edge(pdf) -> list[tuple[int, int, int]]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    found = []
    try:
        for index in range(len(document)):
            image = document[index].render(scale=DPI / 72).to_pil().convert("L")
            band = round(BAND_MM / 25.4 * DPI)
            width, height = image.size
            for box in (
                (0, 0, width, band),
                (0, height - band, width, height),
                (0, 0, band, height),
                (width - band, 0, width, height),
            ):
                histogram = image.crop(box).histogram()
                dark = sum(histogram[:200])
                if dark:
                    found.append((index + 1, box[0], dark))
    finally:
        document.close()
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_page_keeps_five_millimetres_clear(tmp_path, paper):
    written = build_targets(resolve(["all"]), BuildOptions(out_dir=tmp_path, paper_name=paper, lang="en"))
    from kkprint.engine.calibrate import write_sheet
    from kkprint.engine.geometry import DuplexMode

    written.append(write_sheet(tmp_path, paper, DuplexMode.LONG_EDGE, "en"))
    problems = {
        pdf.name: found for pdf in written if "-a3" not in pdf.name and (found := dark_pixels_near_the_edge(pdf))
    }
    assert not problems, problems


def test_touching_cards_have_no_white_notches_and_no_grey_line_between_them(tmp_path):
    import pypdfium2 as pdfium
    from reportlab.lib.units import mm

    from kkprint.engine.geometry import PAPERS, SheetLayout, card_size

    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: poker}\nlayout:\n  f: {type: shape, x: 0, y: 0, w: 63, h: 88, fill: '#2040a0'}\n"
        "cards: [{name: A, count: 9}]\n",
        encoding="utf-8",
    )
    [pdf] = build_targets(resolve([str(deck)]), BuildOptions(out_dir=tmp_path / "out"))
    document = pdfium.PdfDocument(str(pdf))
    image = document[0].render(scale=150 / 72).to_pil().convert("RGB")
    document.close()
    layout = SheetLayout(PAPERS["a4"], card_size("poker"), 0, 6)
    slot = layout.front_slot(4)  # the middle card: all four corners meet other cards
    scale = 150 / 72
    height = image.height
    for x, y in ((slot.x, slot.y), (slot.right, slot.top), (slot.x, slot.top), (slot.right, slot.y)):
        px, py = round(x * scale), round(height - y * scale)
        for dx in range(-3, 4):
            for dy in range(-3, 4):
                r, g, b = image.getpixel((px + dx, py + dy))
                # the fill's blue (a renderer's soft seam at most), never a white notch or a grey line
                assert b - r > 60 and min(r, g, b) < 200, (x / mm, y / mm, (r, g, b))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_card_a_player_reads_has_text_of_seven_points_at_least(tmp_path, lang):
    from pypdf import PdfReader

    written = build_targets(resolve(["all"]), BuildOptions(out_dir=tmp_path, lang=lang))
    cards = [
        p
        for p in written
        if not any(
            part in p.name
            for part in ("chart", "mat", "map", "record", "score-pad", "reference-", "worksheet", "-start-")
        )
        or "culdcept-reference" in p.name
    ]
    assert len(cards) >= 7
    small = {}
    for pdf in cards:
        for page in PdfReader(pdf).pages:

            def visit(text, cm, tm, font, size, name=pdf.name):
                effective = size * (tm[3] or 1) * (cm[3] or 1)
                note = (
                    "50 mm" in text or "実寸" in text or "actual size" in text or "裏面" in text or "back side" in text
                )
                if text.strip() and not note and effective < 6.95:
                    small.setdefault(name, set()).add((text.strip()[:20], round(effective, 1)))

            page.extract_text(visitor_text=visit)
    assert not small, small
