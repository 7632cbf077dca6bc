"""Nothing a home printer cannot print: every page of every built component keeps a 5 mm band
along the paper's edges empty — read back from the rendered pages, not from the code."""

from __future__ import annotations

import pytest

from kkprint.build import BuildOptions, build_targets, resolve

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
            for box in ((0, 0, width, band), (0, height - band, width, height), (0, 0, band, height),
                        (width - band, 0, width, height)):
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
    from kkprint.calibrate import write_sheet
    from kkprint.engine.geometry import DuplexMode

    written.append(write_sheet(tmp_path, paper, DuplexMode.LONG_EDGE, "en"))
    problems = {pdf.name: found for pdf in written if "-a3" not in pdf.name
                and (found := dark_pixels_near_the_edge(pdf))}
    assert not problems, problems
