"""The duplex alignment sheet: lines on the front, rulers behind them on the back.

Print both pages double-sided, hold the sheet against a window and read, on each back ruler,
the number the front line falls on. That number is the offset to give as ``--back-offset-x/-y``
(or to save with ``kkprint calibrate --save X --save Y``): tick ``v`` is printed where the
back would land if the printer needed an offset of ``v`` mm.
"""

from __future__ import annotations

import math
from pathlib import Path

from reportlab.lib.units import mm

from kkprint.base.choices import LANGS
from kkprint.base.errors import InputError
from kkprint.base.i18n import N_, Msg, tr
from kkprint.base.paths import output_path
from kkprint.base.printer import PrinterProfile, load_profile, save_profile
from kkprint.engine.document import DUPLEX_WORDS, engine_texts, open_pdf
from kkprint.engine.fonts import prepare_fonts
from kkprint.engine.geometry import PAPERS, DuplexMode, Paper, turns_left_to_right
from kkprint.engine.text import TextBox, draw_text

RULER_MM = 5
INSTRUCTIONS = N_(
    "Print double-sided ({mode}), hold against a window and read the back rulers: the number under the "
    "front line, with its sign, is your offset in mm (half-way ticks are halves). Save it with "
    "kkprint calibrate --save X --save Y, e.g. --save -1.5 --save 0.5."
)


def targets(width: float, height: float) -> list[tuple[float, float]]:
    inset = 35 * mm
    return [
        (width / 2, height / 2),
        (inset, inset),
        (width - inset, inset),
        (inset, height - inset),
        (width - inset, height - inset),
    ]


def mirrored(point: tuple[float, float], width: float, height: float, duplex: DuplexMode) -> tuple[float, float]:
    x, y = point
    paper = Paper("sheet", width / mm, height / mm)
    return (width - x, y) if turns_left_to_right(paper, duplex) else (x, height - y)


def write_sheet(out_dir: Path, paper_name: str, duplex: DuplexMode, lang: str) -> Path:
    if paper_name not in PAPERS:
        raise InputError(Msg("unknown paper '{paper_name}'", paper_name=paper_name), source="--paper")
    if duplex not in (DuplexMode.LONG_EDGE, DuplexMode.SHORT_EDGE):
        raise InputError(Msg("calibration is for duplex printing: long-edge or short-edge"), source="--duplex")
    paper = PAPERS[paper_name]
    fonts = prepare_fonts(
        [
            *engine_texts(),
            *(tr(INSTRUCTIONS, lang, mode=tr(DUPLEX_WORDS[duplex.value], lang)) for lang in LANGS),
            "−+0123456789 XY",
        ]
    )
    path = output_path(out_dir, f"calibration-{duplex.value}-{lang}-{paper_name}.pdf")
    width, height = paper.size
    with open_pdf(path, paper, fonts, title="kkprint calibration", lang=lang) as doc:
        c = doc.canvas
        c.setFillColorRGB(0, 0, 0)
        text = tr(INSTRUCTIONS, lang, mode=tr(DUPLEX_WORDS[duplex.value], lang))
        # above the top crosshairs (35 mm in, arms of 12 mm), below the 5 mm the printer cannot reach
        draw_text(c, text, fonts.regular, TextBox(20 * mm, height - 21 * mm, width - 40 * mm, 12 * mm), 10, 7)
        c.setLineWidth(0.3)
        for x, y in targets(width, height):
            c.line(x, y - 12 * mm, x, y + 12 * mm)
            c.line(x - 12 * mm, y, x + 12 * mm, y)
        doc.margin_note("bottom")
        doc.end_page()
        for point in targets(width, height):
            bx, by = mirrored(point, width, height, duplex)
            _ruler(c, fonts.regular, bx, by, horizontal=True)
            _ruler(c, fonts.regular, bx, by, horizontal=False)
        doc.margin_note("bottom", "X / Y")
        doc.end_page()
    return path


RULER_GAP = 6 * mm  # from the target's centre to its rulers: the two rulers never meet


def signed(value: int) -> str:
    """A ruler's number as it is typed after --save: −2, 0, +2 (a true minus sign on paper)."""
    return f"{value:+d}".replace("-", "−") if value else "0"


def _ruler(c, font: str, x: float, y: float, horizontal: bool) -> None:
    """Ticks every 0.5 mm from −5 to +5; tick v sits v mm from the spot where the front line
    falls on a perfect printer. Every even millimetre is numbered with its sign, so nobody reads
    "2" left of zero and types --save 2 for −2. Along a horizontal ruler the signed numbers are
    wider than 2 mm, so they stand in two staggered rows and never touch."""
    c.saveState()
    c.setLineWidth(0.25)
    c.setFont(font, 6)

    def tick(value: float, length: float) -> None:
        if horizontal:  # reads the x offset of the front's vertical line
            c.line(x + value * mm, y + RULER_GAP, x + value * mm, y + RULER_GAP + length)
        else:  # reads the y offset of the front's horizontal line
            c.line(x + RULER_GAP, y + value * mm, x + RULER_GAP + length, y + value * mm)

    def label(value: int) -> None:
        if horizontal:
            row = 4.2 if value % 4 == 0 else 6.6
            c.drawCentredString(x + value * mm, y + RULER_GAP + row * mm, signed(value))
        else:
            c.drawString(x + RULER_GAP + 4.2 * mm, y + value * mm - 0.75 * mm, signed(value))

    for half in range(-2 * RULER_MM, 2 * RULER_MM + 1):
        value = half / 2
        tick(value, (3.4 if half % 4 == 0 else 2.6 if half % 2 == 0 else 1.6) * mm)
        if half % 4 == 0:
            label(int(value))
    c.restoreState()


def save_offset(values: list[float]) -> Path:
    if len(values) != 2:
        raise InputError(Msg("give the x and the y offset: --save X --save Y"), source="--save")
    x, y = values
    if not (math.isfinite(x) and math.isfinite(y)) or abs(x) > 20 or abs(y) > 20:
        raise InputError(Msg("an offset beyond ±20 mm is not a printer's misregistration"), source="--save")
    return save_profile(PrinterProfile((x, y), load_profile().scale))
