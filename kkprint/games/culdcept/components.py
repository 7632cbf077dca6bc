"""Printed parts of the Culdcept-style game: the map mat (A3 or tiled), reference cards, record sheet."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.i18n import N_
from kkprint.engine.booklet import Picture
from kkprint.engine.cards import Art, CardPrint, bled
from kkprint.engine.colour import colour, lighten
from kkprint.engine.cover import KitFile, Printing
from kkprint.engine.document import Document, open_pdf, write_sheet
from kkprint.engine.fonts import FontSet, collect_strings
from kkprint.engine.geometry import PAPERS, card_size
from kkprint.engine.job import BuildOptions, Target
from kkprint.engine.table import Cell, draw_table
from kkprint.engine.text import TextBox, draw_text, fit_text, ink_box
from kkprint.engine.tiling import print_tiled, tiling_paper
from kkprint.games.culdcept.model import CuldceptGame, load_culdcept
from kkprint.games.kit import caption, contents, kit_file, kit_texts, write_drawn_cards, write_start

CARD_W, CARD_H, PAD = 63 * mm, 88 * mm, 2 * mm
UP_W, UP_H = CARD_W + 2 * PAD, CARD_H + 2 * PAD  # a cell holding an upright card
FRAME = 3 * mm
INK = "#2c4a7a"


def mat_cells() -> list[tuple[float, float, bool]]:
    """Cells (x, y of bottom-left in points, rotated?) clockwise from the top left: 4 along the
    top, 3 down the right, 3 along the bottom, 3 up the left — 13 squares in a loop."""
    width = 4 * UP_W
    side = 3 * UP_W
    bottom, middle, top = FRAME, FRAME + UP_H, FRAME + UP_H + side
    cells = [(FRAME + i * UP_W, top, False) for i in range(4)]
    cells += [(FRAME + width - UP_H, middle + side - (i + 1) * UP_W, True) for i in range(3)]
    left_bottom = FRAME + (width - 3 * UP_W) / 2
    cells += [(left_bottom + (2 - i) * UP_W, bottom, False) for i in range(3)]
    cells += [(FRAME, middle + i * UP_W, True) for i in range(3)]
    return cells


MAT_W = 4 * UP_W + 2 * FRAME
MAT_H = 2 * UP_H + 3 * UP_W + 2 * FRAME


class Words(NamedTuple):
    """A text of the mat as :func:`draw_text` is given it."""

    text: str
    font: str
    box: TextBox
    max_size: float
    min_size: float


def _number(number: int, x: float, y: float, ch: float, fonts: FontSet) -> Words:
    """A square's number, at its top left."""
    return Words(
        str(number),
        fonts.bold,
        TextBox(x + PAD + 2 * mm, y + ch - PAD - 9 * mm, 12 * mm, 7 * mm, "left", "middle"),
        16,
        10,
    )


def _centre_box() -> tuple[float, float, float, float]:
    """The middle of the loop (left, right, bottom, top): the title, the arrow, the set-up, the discards."""
    left, right = FRAME + UP_H + 3 * mm, FRAME + 4 * UP_W - UP_H - 3 * mm
    bottom, top = FRAME + UP_H + 3 * mm, FRAME + UP_H + 3 * UP_W - 3 * mm
    return left, right, bottom, top


ARROW_RADIUS = 22 * mm


def _arrow_centre() -> tuple[float, float]:
    left, right, bottom, top = _centre_box()
    return (left + right) / 2, top - 48 * mm


def _centre_words(game: CuldceptGame, lang: str, fonts: FontSet) -> tuple[Words, Words, Words, Words]:
    """The title, the arrow's direction, the set-up and the discards' place."""
    left, right, bottom, top = _centre_box()
    width = right - left
    cy = _arrow_centre()[1]
    return (
        Words(
            game.label("title", lang),
            fonts.bold,
            TextBox(left, top - 14 * mm, width, 12 * mm, "center", "middle"),
            16,
            9,
        ),
        Words(
            game.label("direction", lang),
            fonts.bold,
            TextBox(left, cy - 3 * mm, width, 6 * mm, "center", "middle"),
            10,
            7,
        ),
        Words(
            game.label("setup", lang),
            fonts.regular,
            TextBox(left, cy - ARROW_RADIUS - 36 * mm, width, 30 * mm, "left", "top"),
            8.5,
            6,
        ),
        Words(
            game.label("discard", lang),
            fonts.regular,
            TextBox(left + 6 * mm, bottom + 6 * mm, width - 12 * mm, 56 * mm, "center", "middle"),
            9,
            6,
        ),
    )


def mat_words(game: CuldceptGame, lang: str, fonts: FontSet) -> list[tuple[float, float, float, float]]:
    """Where the mat's words stand (x, y, width, height; each text's lines, not its whole box):
    no seam of the tiled mat may run through them, nor a registration cross stand on them
    (half of each stays on the glued mat)."""
    numbers = [_number(n, x, y, UP_W if rotated else UP_H, fonts) for n, (x, y, rotated) in enumerate(mat_cells(), 1)]
    boxes = []
    for words in (*numbers, *_centre_words(game, lang, fonts)):
        ink = ink_box(fit_text(*words), words.box)
        if ink is not None:
            boxes.append((ink[0], ink[1], ink[2] - ink[0], ink[3] - ink[1]))
    return boxes


def mat_art(game: CuldceptGame, lang: str, fonts: FontSet):
    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillColor(lighten(INK, 0.93))
        c.setStrokeColor(colour(INK))
        c.setLineWidth(1.2)
        c.roundRect(0, 0, w, h, 4 * mm, stroke=1, fill=1)
        for number, (x, y, rotated) in enumerate(mat_cells(), start=1):
            cw, ch = (UP_H, UP_W) if rotated else (UP_W, UP_H)
            c.setFillColor(colour("#ffffff"))  # every square alike: the shuffled map decides where J, Q, K lie
            c.setStrokeColor(colour(INK))
            c.setLineWidth(0.8)
            c.rect(x, y, cw, ch, stroke=1, fill=1)
            c.saveState()
            c.setDash(2, 2)
            c.setLineWidth(0.5)
            c.roundRect(x + PAD, y + PAD, cw - 2 * PAD, ch - 2 * PAD, 3 * mm, stroke=1, fill=0)
            c.restoreState()
            c.setFillColor(colour(INK))
            draw_text(c, *_number(number, x, y, ch, fonts))
        _centre(c, game, lang, fonts)

    return draw


def _centre(c: Canvas, game: CuldceptGame, lang: str, fonts: FontSet) -> None:
    left, right, bottom, top = _centre_box()
    width = right - left
    title, direction, setup, discard = _centre_words(game, lang, fonts)
    c.setFillColor(colour(INK))
    draw_text(c, *title)
    # a clockwise arrow
    (cx, cy), radius = _arrow_centre(), ARROW_RADIUS
    c.setStrokeColor(colour(INK))
    c.setLineWidth(3)
    c.arc(cx - radius, cy - radius, cx + radius, cy + radius, startAng=100, extent=-300)
    angle = math.radians(100 - 300)  # where the arc ends; the head points along the clockwise tangent
    tip_x, tip_y = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
    along = (math.sin(angle), -math.cos(angle))
    across = (math.cos(angle), math.sin(angle))
    path = c.beginPath()
    path.moveTo(tip_x + 6 * mm * along[0], tip_y + 6 * mm * along[1])
    path.lineTo(tip_x + 4 * mm * across[0], tip_y + 4 * mm * across[1])
    path.lineTo(tip_x - 4 * mm * across[0], tip_y - 4 * mm * across[1])
    path.close()
    c.setFillColor(colour(INK))
    c.drawPath(path, stroke=0, fill=1)
    draw_text(c, *direction)
    c.setFillColorRGB(0.2, 0.2, 0.2)
    draw_text(c, *setup)
    c.saveState()
    c.setDash(3, 2)
    c.setStrokeColor(colour(INK))
    c.setLineWidth(0.8)
    c.roundRect(left + 4 * mm, bottom + 4 * mm, width - 8 * mm, 60 * mm, 3 * mm, stroke=1, fill=0)
    c.restoreState()
    c.setFillColor(colour(INK))
    draw_text(c, *discard)


def reference_card(game: CuldceptGame, lang: str, fonts: FontSet, back: bool = False, bleed: float = 0.0) -> Art:
    """The quick reference: the rules on the front, setup and the turn on the back; each section
    gets room in proportion to its text, so none is squeezed below what reads at the table. With
    a print shop's ``bleed`` its header band runs past the card's top and sides by that much."""
    sections = game.reference_back if back else game.reference

    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillColorRGB(1, 1, 1)
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setFillColor(colour(INK))
        c.rect(-bleed, h - 11 * mm, w + 2 * bleed, 11 * mm + bleed, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        draw_text(
            c,
            game.label("reference", lang),
            fonts.bold,
            TextBox(4 * mm, h - 10 * mm, w - 8 * mm, 9 * mm, "left", "middle"),
            11,
            7,
        )
        y = h - 13 * mm
        weights = [len(section["text"](lang)) + 40 for section in sections]
        for section, weight in zip(sections, weights):
            block = (h - 16 * mm) * weight / sum(weights)
            c.setFillColor(colour(INK))
            draw_text(
                c,
                section["heading"](lang),
                fonts.bold,
                TextBox(3.5 * mm, y - 3.6 * mm, w - 7 * mm, 3.6 * mm, "left", "middle"),
                8,
                7,
            )
            c.setFillColorRGB(0.1, 0.1, 0.1)
            draw_text(
                c,
                section["text"](lang),
                fonts.regular,
                TextBox(3.5 * mm, y - block + 1.6 * mm, w - 7 * mm, block - 5.4 * mm),
                10 if back else 8.5,
                7,
                leading=1.2,
            )
            y -= block

    return Art(draw, key=f"culdcept-reference-{'back' if back else 'front'}-{lang}-{bleed:g}")


def draw_record(doc: Document, game: CuldceptGame) -> None:
    c, fonts, lang = doc.canvas, doc.fonts, doc.lang
    page_w, page_h = doc.paper.size
    x, width = 15 * mm, page_w - 30 * mm
    label = game.label
    c.setFillColorRGB(0, 0, 0)
    draw_text(
        c,
        f"{game.label('title', lang)} — {label('record', lang)}",
        fonts.bold,
        TextBox(x, page_h - 25 * mm, width, 10 * mm, "left", "middle"),
        15,
        9,
    )
    players = game.max_players
    first = 27 * mm  # wide enough for リンカネーション使用 at 7.5 pt
    per = (width - first) / players
    widths = [first] + [per * 0.38, per * 0.62] * players
    shade = lighten(INK, 0.85)
    rows = [
        [Cell(label("player", lang), bold=True, size=9, fill=shade)] + [Cell("", span=2) for _ in range(players)],
        [Cell(label("round", lang), bold=True, size=8.5, fill=shade)]
        + [
            cell
            for _ in range(players)
            for cell in (
                Cell(label("squares_owned", lang), size=7.5, fill=shade),
                Cell(label("notes", lang), size=7.5, fill=shade),
            )
        ],
    ]
    for number in range(1, game.rounds + 1):
        rows.append([Cell(str(number), bold=True, size=11)] + [Cell("") for _ in range(2 * players)])
    rows.append(
        [Cell(label("reincarnation_used", lang), size=7.5, align="left")]
        + [Cell("□", span=2, size=14) for _ in range(players)]
    )
    rows.append([Cell(label("winner", lang), bold=True, size=9, heavy=True)] + [Cell("", span=2 * players, heavy=True)])
    heights = [12 * mm, 9 * mm] + [17 * mm] * game.rounds + [11 * mm, 12 * mm]
    draw_table(c, fonts, x, page_h - 30 * mm, widths, heights, rows)


def texts(options: BuildOptions) -> Iterable[str]:
    return collect_strings(load_culdcept(), set()) | {"JQK□—"} | kit_texts("culdcept", options.lang)


RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def mat_picture(game: CuldceptGame, lang: str, fonts: FontSet) -> Picture:
    """The mat as a game starts: one suit shuffled onto the 13 squares, pawns on J, Q and K."""
    dealt = list(RANKS)
    random.Random(4).shuffle(dealt)  # dealt the same way on every build
    draw_mat = mat_art(game, lang, fonts)

    def draw(c: Canvas, w: float, h: float) -> None:
        draw_mat(c, w, h)
        for (x, y, rotated), rank in zip(mat_cells(), dealt):
            cw, ch = (UP_H, UP_W) if rotated else (UP_W, UP_H)
            _playing_card(c, fonts, x + cw / 2, y + ch / 2, rank, rotated)
            if rank in ("J", "Q", "K"):  # the pawn stands on the card, below its rank
                player = "JQK".index(rank) + 1
                below = 22 * mm
                _pawn(c, fonts, x + cw / 2 + (below if rotated else 0), y + ch / 2 - (0 if rotated else below), player)

    return Picture(MAT_W / mm, MAT_H / mm, draw, caption("culdcept", lang))


def _playing_card(c: Canvas, fonts: FontSet, cx: float, cy: float, rank: str, rotated: bool) -> None:
    """A plain playing card (a spade of the map suit) lying on a square."""
    c.saveState()
    c.translate(cx, cy)
    if rotated:
        c.rotate(90)
    c.setFillGray(1)
    c.setStrokeColor(colour(INK))
    c.setLineWidth(1)
    c.roundRect(-CARD_W / 2, -CARD_H / 2, CARD_W, CARD_H, 3 * mm, stroke=1, fill=1)
    c.setFillGray(0.1)
    draw_text(c, rank, fonts.bold, TextBox(-CARD_W / 2, 0, CARD_W, 30 * mm, "center", "middle"), 60, 30)
    c.restoreState()


def _pawn(c: Canvas, fonts: FontSet, x: float, y: float, player: int) -> None:
    c.saveState()
    c.setFillColor(colour(("#c0392b", "#2b5fab", "#2e8b57")[player - 1]))
    c.setStrokeGray(1)
    c.setLineWidth(2)
    c.circle(x, y, 9 * mm, stroke=1, fill=1)
    c.setFillGray(1)
    draw_text(c, str(player), fonts.bold, TextBox(x - 9 * mm, y - 9 * mm, 18 * mm, 18 * mm, "center", "middle"), 36, 20)
    c.restoreState()


def write_reference(game: CuldceptGame, options: BuildOptions, fonts: FontSet) -> KitFile:
    """One reference card a player (rules on the front, set-up and the turn on the back): home
    sheets, or print-shop pages with their bleed."""
    lang = options.lang

    def cards(bleed: float) -> list[CardPrint]:
        front, back = (bled(reference_card(game, lang, fonts, side, bleed), bleed, "#ffffff") for side in (False, True))
        return [CardPrint(front, back)] * game.max_players

    title = game.label("reference", lang)
    return write_drawn_cards("culdcept", "culdcept-reference", card_size("tarot"), cards, options, fonts, title)


def build(options: BuildOptions, fonts: FontSet) -> list[Path]:
    game = load_culdcept()
    lang = options.lang
    written = []
    draw = mat_art(game, lang, fonts)
    a3 = PAPERS["a3"]
    # the mat in one piece, on A3, for A-paper countries (copy shops print it); a Letter user
    # gets it only by asking for A3 — the tiled mat below prints on their own paper
    if options.paper.name != "letter":
        path = options.out_dir / f"culdcept-mat-{lang}-a3{options.variant}.pdf"
        with open_pdf(path, a3, fonts, title=game.label("mat", lang), lang=lang) as doc:
            page_w, page_h = a3.size
            doc.canvas.saveState()
            doc.canvas.translate((page_w - MAT_W) / 2, (page_h - MAT_H) / 2 + 3 * mm)
            draw(doc.canvas, MAT_W, MAT_H)
            doc.canvas.restoreState()
            doc.margin_note("bottom")
            doc.end_page()
        written.append(kit_file(path, contents("culdcept", "culdcept-mat", lang), Printing.LARGE))
    path = options.path("culdcept-mat-tiled")
    tiled_paper = tiling_paper(options.paper, MAT_W, MAT_H)
    with open_pdf(path, tiled_paper, fonts, title=game.label("mat", lang), lang=lang) as doc:
        tiling = print_tiled(doc, MAT_W, MAT_H, draw, keep_clear=mat_words(game, lang, fonts))
    sheets = tiling.rows * tiling.columns
    written.append(kit_file(path, contents("culdcept", "culdcept-mat-tiled", lang, sheets=sheets), Printing.TILED))
    written.append(write_reference(game, options, fonts))
    record = write_sheet(
        options.path("culdcept-record"),
        options.paper,
        fonts,
        title=game.label("record", lang),
        lang=lang,
        draw=lambda doc: draw_record(doc, game),
    )
    written.append(kit_file(record, contents("culdcept", "culdcept-record", lang), Printing.SHEET))
    return write_start("culdcept", written, options, fonts, mat_picture(game, lang, fonts))


# What `kkprint build` makes of this game (listed by id in kkprint.games.BUILD_TARGETS).
TARGETS = (
    Target(
        "culdcept",
        N_(
            "Culdcept-style card game: rules, map mat (tiled; and A3 beside A4, not Letter), reference cards, record sheet"
        ),
        ("culdcept-start", "culdcept-mat-LANG-a3.pdf", "culdcept-mat-tiled", "culdcept-reference", "culdcept-record"),
        texts,
        build,
    ),
)
