"""The cover sheet that opens a print-and-play kit: what is in it, how to print each file, what
to cut, what else to bring and how to set up — in the build's language.

The engine knows no game: a game hands it a :class:`Kit` (its words, its files as written, a
picture of the laid-out game) and gets back the cover as a :class:`~kkprint.engine.booklet.Section`.
How each file is printed follows from how it was made (:class:`Printing`), so the cover always
says what the build actually wrote: its duplex mode, its paper, greyscale or print shop.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from pathlib import Path

from kkprint.base.choices import LANGS
from kkprint.base.i18n import N_, tr
from kkprint.base.records import record
from kkprint.engine.booklet import Block, ColumnBreak, Columns, Heading, Items, Paragraph, Picture, Section, Table
from kkprint.engine.geometry import DuplexMode


class Printing(Enum):
    """How a file of a kit is printed."""

    START = "start"  # the cover and the rules
    DUPLEX = "duplex"  # cards and their backs, two-sided
    FRONTS = "fronts"  # cards without backs, one-sided
    BACKS_LEFT_OUT = "backs-left-out"  # duplex none: fronts only, backs that carry no content left out
    BACK_SHEETS = "back-sheets"  # duplex none: backs that carry content as sheets of their own
    FOLD = "fold"  # fronts and backs side by side, folded
    SHEET = "sheet"  # a chart, a record, a score pad: one-sided, copied for each game
    TILED = "tiled"  # a large sheet in pieces, trimmed and glued
    LARGE = "large"  # a large sheet in one piece (A3)
    SHOP = "shop"  # one card a page for a print shop


HOW = {
    Printing.START: N_("one- or two-sided, as you like"),
    Printing.FRONTS: N_("one-sided, then cut"),
    Printing.BACKS_LEFT_OUT: N_(
        "one-sided, then cut: the fronts only, their backs (which carry no game content) left out"
    ),
    Printing.BACK_SHEETS: N_(
        "one-sided: every second page holds the backs of the page before — glue it behind that sheet "
        "(turned over its long edge) before cutting, or cut both and sleeve each card with its back"
    ),
    Printing.FOLD: N_("one-sided; fold each sheet along the dashed line, glue the halves together, then cut"),
    Printing.SHEET: N_("one-sided; print or copy one for each game"),
    Printing.TILED: N_(
        "one-sided; trim each sheet along the marks in its margin and glue it over the crosses of the one before"
    ),
    Printing.LARGE: N_("one-sided on A3 paper (a copy shop prints it)"),
    Printing.SHOP: N_(
        "send to a print shop as it is: one card a page with 3 mm bleed and crop marks, backs after fronts"
    ),
}
DUPLEX_HOW = {
    DuplexMode.LONG_EDGE: N_("two-sided, flip on the long edge (each back page follows its fronts)"),
    DuplexMode.SHORT_EDGE: N_("two-sided, flip on the short edge (each back page follows its fronts)"),
}
AT_ACTUAL_SIZE = N_("{how}, at actual size (100 %)")

TITLE = N_("{game} — print-and-play kit")
SUBTITLE = N_(
    "Start here: what to print and how, what to cut, what to bring, how to set up. Built for {paper}; {backs}."
)
BACKS = {
    DuplexMode.LONG_EDGE: N_("backs printed two-sided, long edge"),
    DuplexMode.SHORT_EDGE: N_("backs printed two-sided, short edge"),
    DuplexMode.FOLD: N_("fronts and backs side by side, folded"),
    DuplexMode.NONE: N_("one-sided: backs that carry game content on sheets of their own"),
}
SHOP_BACKS = N_("the cards as a print shop's pages, the sheets for your printer")
GREY = N_("{backs}; in shades of grey")
CONTENTS = N_("What is in this kit")
HEADER = (N_("File"), N_("Pages"), N_("What is in it"), N_("How to print"))
THIS_FILE = N_("this file: the cover and the rules (pages {first}–{last})")
THIS_FILE_ONE = N_("this file: the cover and the rules (page {first})")
ALWAYS = N_(
    'Print every page at actual size: in the print dialogue choose 100 % or "actual size", never "fit to '
    'page". The 50 mm bar at the foot of each page must measure 50 mm.'
)
DUPLEX_TIP = N_(
    "Two-sided printers shift the back a little: kkprint calibrate prints a test sheet that measures your "
    "printer's offset once for all builds."
)
CUT = N_("What to cut")
BRING = N_("What else you need")
SETUP = N_("Set-up")
PAGES = N_("{first}–{last}")

COVER_WORDS = (
    *HOW.values(),
    *DUPLEX_HOW.values(),
    *BACKS.values(),
    SHOP_BACKS,
    AT_ACTUAL_SIZE,
    TITLE,
    SUBTITLE,
    GREY,
    CONTENTS,
    *HEADER,
    THIS_FILE,
    THIS_FILE_ONE,
    ALWAYS,
    DUPLEX_TIP,
    CUT,
    BRING,
    SETUP,
)


def cover_texts(lang: str) -> set[str]:
    """Every word a cover may print in ``lang`` (for preparing the fonts)."""
    return {tr(word, lang) for word in COVER_WORDS} | {"0123456789–—·., ", tr(LIST_SEPARATOR, lang)}


LIST_SEPARATOR = N_(", ")  # between the names in a list


def listed(names: Sequence[str], lang: str) -> str:
    return tr(LIST_SEPARATOR, lang).join(names)


@record
class KitFile:
    """One file of a build as written: its name, what is in it, how it is printed, its pages."""

    path: Path
    contents: str
    printing: Printing
    pages: int


@record
class Kit:
    """A game's kit in the build's language: what the cover says besides the files."""

    game: str
    files: Sequence[KitFile]
    cut: Sequence[str]
    bring: Sequence[str]
    setup: Sequence[str]
    picture: Picture | None = None
    notes: Sequence[str] = ()


def cover(kit: Kit, lang: str, paper: str, duplex: DuplexMode, greyscale: bool, rules: tuple[int, int]) -> Section:
    """The cover as the first section of the start file; ``rules`` are the rules' first and last page."""
    assert lang in LANGS
    shop = any(file.printing is Printing.SHOP for file in kit.files)
    backs = tr(SHOP_BACKS if shop else BACKS[duplex], lang)
    if greyscale:
        backs = tr(GREY, lang, backs=backs)
    rows: list[tuple[str, ...]] = [tuple(tr(word, lang) for word in HEADER)]
    for file in kit.files:
        if file.printing is Printing.START:
            what = tr(THIS_FILE if rules[1] > rules[0] else THIS_FILE_ONE, lang, first=rules[0], last=rules[1])
        else:
            what = file.contents
        pages = tr(PAGES, lang, first=1, last=file.pages) if file.pages > 1 else "1"
        rows.append((file.path.name, pages, what, how_to_print(file.printing, duplex, lang)))
    blocks: list[Block] = [
        Heading(tr(CONTENTS, lang)),
        Table(tuple(rows), (3.6, 0.8, 3.0, 4.0), whole=(0, 1)),  # (a file's name and its pages read whole)
        Paragraph(f"<b>{tr(ALWAYS, lang)}</b>"),
    ]
    if any(file.printing is Printing.DUPLEX for file in kit.files):
        blocks.append(Paragraph(tr(DUPLEX_TIP, lang)))
    blocks += [Paragraph(note) for note in kit.notes]
    blocks += [
        Columns(2),
        Heading(tr(CUT, lang)),
        Items(tuple(kit.cut)),
        Heading(tr(BRING, lang)),
        Items(tuple(kit.bring)),
        ColumnBreak(),
        Heading(tr(SETUP, lang)),
        Items(tuple(kit.setup), numbered=True),
    ]
    if kit.picture is not None:
        blocks += [Columns(1), kit.picture]
    return Section(
        tr(TITLE, lang, game=kit.game), blocks, subtitle=tr(SUBTITLE, lang, paper=paper, backs=backs), columns=1
    )


def how_to_print(printing: Printing, duplex: DuplexMode, lang: str) -> str:
    if printing is Printing.DUPLEX:
        how = tr(DUPLEX_HOW[duplex], lang)
    else:
        how = tr(HOW[printing], lang)
    if printing in (Printing.START, Printing.SHOP):
        return how
    return tr(AT_ACTUAL_SIZE, lang, how=how)
