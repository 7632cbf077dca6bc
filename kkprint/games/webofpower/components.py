"""Printed Web of Power components: the trump map, the board game's score pad and reference."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.i18n import N_
from kkprint.base.paths import DATA_DIR
from kkprint.base.records import record
from kkprint.deck.build import write_game_deck
from kkprint.deck.load import Deck, layout_deck
from kkprint.engine.booklet import Picture
from kkprint.engine.colour import colour, lighten
from kkprint.engine.cover import Printing
from kkprint.engine.document import Document, write_sheet
from kkprint.engine.fonts import FontSet, collect_strings
from kkprint.engine.geometry import card_size
from kkprint.engine.job import BuildOptions, Target
from kkprint.engine.table import Cell, draw_table
from kkprint.engine.text import TextBox, draw_text
from kkprint.games.kit import caption, card_printing, contents, kit_file, kit_texts, write_start
from kkprint.games.webofpower.gridmap import GridMap
from kkprint.games.webofpower.model import BoardGame, TrumpMap, load_board, load_map

CIRCLE_PITCH = 7.2 * mm
CARDINAL_DIAMETER = 5.4 * mm  # 1.8 mm between neighbours, 2 mm from the box
BAND = 22 * mm
LABEL = 4.5 * mm


@record
class CardinalBox:
    letter: str
    x: float
    width: float
    side: str  # "top", "bottom" or "extra"


def _dotted(c: Canvas) -> None:
    c.setDash(1.2, 1.4)
    c.setLineWidth(0.7)
    c.setStrokeColorRGB(0.15, 0.15, 0.15)


def cardinal_boxes(grid: GridMap, square: float) -> list[CardinalBox]:
    """One box of cardinal circles per territory, beside the territory on the map's top or
    bottom edge (or in an extra row for territories touching neither), packed without overlap."""
    sides: dict[str, list[tuple[str, float, float]]] = {"top": [], "bottom": [], "extra": []}
    for letter, cells in grid.territories.items():
        top = [c for r, c in cells if r == 0]
        bottom = [c for r, c in cells if r == grid.height - 1]
        edge, side = (
            (top, "top") if len(top) >= len(bottom) and top else ((bottom, "bottom") if bottom else ([], "extra"))
        )
        if edge:
            left, right = min(edge) * square, (max(edge) + 1) * square
        else:
            left, right = 0.0, 0.0
        need = math.ceil(len(cells) / 2) * CIRCLE_PITCH + 4 * mm
        width = max(right - left - 1.5 * mm, need)
        sides[side].append((letter, (left + right) / 2 - width / 2, width))
    boxes: list[CardinalBox] = []
    map_width = grid.width * square
    for side, wanted in sides.items():
        wanted.sort(key=lambda item: item[1])
        placed: list[list] = []
        cursor = 0.0
        for letter, left, width in wanted:
            left = max(left, cursor) if side != "extra" else cursor
            placed.append([letter, left, width])
            cursor = left + width + 1.5 * mm
        overflow = cursor - 1.5 * mm - map_width
        if overflow > 0 and side != "extra":
            limit = map_width
            for item in reversed(placed):
                item[1] = min(item[1], limit - item[2])
                limit = item[1] - 1.5 * mm
        boxes.extend(CardinalBox(letter, left, width, side) for letter, left, width in placed)
    return boxes


def square_size(game: TrumpMap, page_w: float, page_h: float) -> float:
    """The side of a map square: as large as the page allows, at most 18 mm."""
    grid = game.map
    extra_rows = any(box.side == "extra" for box in cardinal_boxes(grid, 17 * mm))
    free_h = page_h - 18 * mm - 2 * BAND - _table_height(game) - 16 * mm - (BAND if extra_rows else 0)
    return min(18 * mm, (page_w - 24 * mm) / grid.width, free_h / grid.height)


def _table_height(game: TrumpMap) -> float:
    return 8 * mm * (1 + game.players) + 6 * mm


def draw_trump_map(doc: Document, game: TrumpMap) -> None:
    """The map sheet on the document's (landscape) page."""
    draw_map_page(doc.canvas, doc.fonts, doc.lang, doc.paper.size, game)


def draw_map_page(c: Canvas, fonts: FontSet, lang: str, page: tuple[float, float], game: TrumpMap) -> None:
    """The map, its cardinal circles and score table as laid out on a ``page``-sized sheet (also
    the picture on the kit's cover)."""
    page_w, page_h = page
    grid = game.map
    extra_rows = any(box.side == "extra" for box in cardinal_boxes(grid, 17 * mm))
    table_h = _table_height(game)
    square = square_size(game, page_w, page_h)
    map_w, map_h = grid.width * square, grid.height * square
    left = (page_w - map_w) / 2
    title_y = page_h - 14 * mm
    c.setFillColorRGB(0, 0, 0)
    draw_text(c, game.label("title", lang), fonts.bold, TextBox(left, title_y, map_w, 8 * mm, "left", "middle"), 14, 9)
    map_top = title_y - 2 * mm - BAND
    map_bottom = map_top - map_h

    def cell_xy(r: int, col: int) -> tuple[float, float]:
        return left + col * square, map_top - (r + 1) * square

    # squares: tint by rank group, monastery circle, thin square borders
    for letter, cells in grid.territories.items():
        territory = game.territories[letter]
        group = game.groups[territory.group]
        for index, (r, col) in enumerate(cells):
            x, y = cell_xy(r, col)
            c.setFillColor(lighten(group.colour, 0.8))
            c.rect(x, y, square, square, stroke=0, fill=1)
            c.saveState()
            _dotted(c)
            c.setFillColorRGB(1, 1, 1)
            c.circle(x + square / 2, y + square / 2, square * 0.27, stroke=1, fill=1)  # clear of the [n] badges
            c.restoreState()
            if index == 0:
                c.setFillColorRGB(0, 0, 0)
                draw_text(
                    c,
                    f"{letter} {group.names(lang)}",
                    fonts.bold,
                    TextBox(
                        x + 0.8 * mm, y + square - 0.6 * mm - 2.6 * mm, square - 1.6 * mm, 2.6 * mm, "left", "middle"
                    ),
                    6.5,
                    4.5,
                )
    c.saveState()
    c.setStrokeGray(0.55)
    c.setLineWidth(0.35)
    for r in range(grid.height):
        for col in range(grid.width):
            x, y = cell_xy(r, col)
            c.rect(x, y, square, square, stroke=1, fill=0)
    # territory borders, heavy
    c.setStrokeGray(0)
    c.setLineWidth(2.4)
    c.setLineCap(2)
    for r in range(grid.height):
        for col in range(grid.width):
            x, y = cell_xy(r, col)
            if grid.is_border((r, col), (r - 1, col)):
                c.line(x, y + square, x + square, y + square)
            if grid.is_border((r, col), (r + 1, col)):
                c.line(x, y, x + square, y)
            if grid.is_border((r, col), (r, col - 1)):
                c.line(x, y, x, y + square)
            if grid.is_border((r, col), (r, col + 1)):
                c.line(x + square, y, x + square, y + square)
    c.restoreState()
    # alliance numbers on the middle edge each pair shares
    for number, pair in enumerate(grid.alliances, start=1):
        edges = grid.border_edges[pair]
        (r1, c1), (r2, _) = edges[len(edges) // 2]
        x1, y1 = cell_xy(r1, c1)
        if r1 == r2:
            mx, my = x1 + square, y1 + square / 2
        else:
            mx, my = x1 + square / 2, y1
        w, h = 5.6 * mm, 4.2 * mm
        c.setFillColorRGB(1, 1, 1)
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.8)
        c.roundRect(mx - w / 2, my - h / 2, w, h, 1 * mm, stroke=1, fill=1)
        c.setFillColorRGB(0, 0, 0)
        draw_text(c, str(number), fonts.bold, TextBox(mx - w / 2, my - h / 2, w, h, "center", "middle"), 8.5, 6)
    # cardinal circles beside each territory
    for box in cardinal_boxes(grid, square):
        if box.side == "top":
            y = map_top + 1.5 * mm
        elif box.side == "bottom":
            y = map_bottom - 1.5 * mm - (BAND - 3 * mm)
        else:
            y = map_bottom - BAND - (BAND - 3 * mm)
        _draw_cardinal_box(c, fonts, game, box, left + box.x, y, BAND - 3 * mm, lang)
    # the score table at the foot
    table_top = map_bottom - BAND - (BAND if extra_rows else 0) - 3 * mm
    table_w = min(max(map_w, 200 * mm), page_w - 24 * mm)  # a small map still gets a usable table
    table_left = (page_w - table_w) / 2
    _score_table(c, fonts, game, table_left, table_top, table_w, lang)
    c.setFillColorRGB(0.3, 0.3, 0.3)
    draw_text(
        c,
        game.label("legend", lang),
        fonts.regular,
        TextBox(table_left, table_top - table_h - 8 * mm, table_w, 6 * mm, "left", "top"),
        7,
        5,
    )


def _draw_cardinal_box(
    c: Canvas, fonts: FontSet, game: TrumpMap, box: CardinalBox, x: float, y: float, height: float, lang: str
) -> None:
    territory = game.territories[box.letter]
    group = game.groups[territory.group]
    c.saveState()
    c.setFillColor(lighten(group.colour, 0.88))
    c.setStrokeColor(colour(group.colour))
    c.setLineWidth(0.8)
    c.roundRect(x, y, box.width, height, 1.5 * mm, stroke=1, fill=1)
    c.setFillColorRGB(0, 0, 0)
    draw_text(
        c,
        f"{box.letter}  {territory.names(lang)}  {group.names(lang)}",
        fonts.bold,
        TextBox(x + 1.2 * mm, y + height - LABEL - 0.4 * mm, box.width - 2.4 * mm, LABEL, "left", "middle"),
        7,
        4.5,
    )
    squares = len(game.map.territories[box.letter])
    per_row = max(1, int((box.width - 4 * mm) // CIRCLE_PITCH))
    rows = math.ceil(squares / per_row)
    _dotted(c)
    c.setFillColorRGB(1, 1, 1)
    area_h = height - LABEL - 1 * mm
    for index in range(squares):
        row, col = divmod(index, per_row)
        in_row = min(per_row, squares - row * per_row)
        row_w = in_row * CIRCLE_PITCH
        cx = x + (box.width - row_w) / 2 + (col + 0.5) * CIRCLE_PITCH
        cy = y + area_h - (area_h - rows * CIRCLE_PITCH) / 2 - (row + 0.5) * CIRCLE_PITCH
        c.circle(cx, cy, CARDINAL_DIAMETER / 2, stroke=1, fill=1)
    c.restoreState()


def _score_table(c: Canvas, fonts: FontSet, game: TrumpMap, x: float, top: float, width: float, lang: str) -> None:
    label = game.label
    keys = ["player", "symbol", "interim", "monasteries", "cardinals", "roads", "total"]
    shares = [3.0, 1.2, 1.5, 1.5, 1.5, 1.5, 1.6]
    widths = [width * s / sum(shares) for s in shares]
    header = [Cell(label(k, lang), bold=True, size=8.5, fill=lighten("#888888", 0.75)) for k in keys]
    header[3] = Cell(
        f"{label('final', lang)}: {label('monasteries', lang)}", bold=True, size=8.5, fill=lighten("#888888", 0.75)
    )
    rows = [header]
    for symbol in game.symbols[: game.players]:
        rows.append(
            [Cell(""), Cell(symbol.mark, size=16, bold=True)] + [Cell("") for _ in keys[2:-1]] + [Cell("", heavy=True)]
        )
    draw_table(c, fonts, x, top, widths, [8 * mm] + [9 * mm] * game.players, rows)


# --- board game: score pad and quick reference ------------------------------------------------


def draw_score_pad(doc: Document, game: BoardGame, blocks: int = 3) -> None:
    """Score pad: per game a row for each player (up to five) and the columns of both scorings."""
    c, fonts, lang = doc.canvas, doc.fonts, doc.lang
    page_w, page_h = doc.paper.size
    x, width = 15 * mm, page_w - 30 * mm
    label = game.label
    title_h = 10 * mm
    top = page_h - 14 * mm
    block_h = (top - 16 * mm) / blocks
    shade = lighten("#7a1f2b", 0.85)
    header_h = 14 * mm
    row_h = (block_h - title_h - header_h - 6 * mm) / game.max_players
    shares = [2.6, 1.4, 1.4, 1.4, 1.2, 1.3, 1.5]
    widths = [width * part / sum(shares) for part in shares]
    columns = ["player", "interim", "final_monasteries", "alliances", "roads", "total", "game_total"]
    shaded = {"interim", "game_total"}
    for block in range(blocks):
        block_top = top - block * block_h
        c.setFillColorRGB(0, 0, 0)
        draw_text(
            c,
            label("title", lang),
            fonts.bold,
            TextBox(x, block_top - title_h, width * 0.6, title_h, "left", "middle"),
            13,
            9,
        )
        draw_text(
            c,
            f"{label('game', lang)} ____   {label('date', lang)} ______",
            fonts.regular,
            TextBox(x + width * 0.6, block_top - title_h, width * 0.4, title_h, "right", "middle"),
            9,
            6,
        )
        header = [Cell(label(key, lang), bold=True, size=8, fill=shade if key in shaded else None) for key in columns]
        rows = [header] + [[Cell("") for _ in columns] for _ in range(game.max_players)]
        draw_table(c, fonts, x, block_top - title_h - 1 * mm, widths, [header_h] + [row_h] * game.max_players, rows)


def draw_worksheet(doc: Document, game: BoardGame) -> None:
    """The final tally as the board scorer takes it: per region each player's monasteries and
    cardinals, the alliance pairs, each player's road runs."""
    c, fonts, lang = doc.canvas, doc.fonts, doc.lang
    page_w, page_h = doc.paper.size
    x, width = 15 * mm, page_w - 30 * mm
    label = game.label
    shade = lighten("#7a1f2b", 0.85)
    c.setFillColorRGB(0, 0, 0)
    draw_text(
        c, label("worksheet", lang), fonts.bold, TextBox(x, page_h - 24 * mm, width, 9 * mm, "left", "middle"), 14, 9
    )
    c.setFillColorRGB(0.25, 0.25, 0.25)
    draw_text(c, label("worksheet_hint", lang), fonts.regular, TextBox(x, page_h - 38 * mm, width, 13 * mm), 8.5, 7)
    players = game.max_players
    first = width * 0.22
    widths = [first] + [(width - first) / (2 * players)] * (2 * players)
    names = [Cell(label("player", lang), bold=True, size=8, fill=shade)] + [
        Cell(f"{label('player', lang)} {n + 1}", span=2, size=8, fill=shade) for n in range(players)
    ]
    kinds = [Cell(label("region", lang), bold=True, size=8, fill=shade)] + [
        Cell(label(key, lang), size=8) for _ in range(players) for key in ("monastery_short", "cardinal_short")
    ]
    rows = [names, kinds] + [
        [Cell(f"{n + 1}", size=8, align="left")] + [Cell("") for _ in range(2 * players)] for n in range(game.regions)
    ]
    rows.append(
        [Cell(label("road_runs", lang), bold=True, size=8, fill=shade)] + [Cell("", span=2) for _ in range(players)]
    )
    bottom = draw_table(
        c, fonts, x, page_h - 40 * mm, widths, [7 * mm, 6 * mm] + [9 * mm] * game.regions + [12 * mm], rows
    )
    per_column = (game.alliances + 1) // 2
    half = width / 2 - 2 * mm
    alliance_widths = [half * 0.16, half * 0.42, half * 0.42]
    for column in range(2):
        numbers = range(column * per_column + 1, min(game.alliances, (column + 1) * per_column) + 1)
        table = [[Cell(label("alliance", lang), bold=True, size=8, fill=shade, span=3)]] + [
            [Cell(f"[{n}]", size=8), Cell(""), Cell("")] for n in numbers
        ]
        draw_table(
            c,
            fonts,
            x + column * (half + 4 * mm),
            bottom - 6 * mm,
            alliance_widths,
            [6 * mm] + [7.5 * mm] * len(numbers),
            table,
        )


def draw_reference(doc: Document, game: BoardGame) -> None:
    """The one-page summary in the chosen language only, set large enough to read across the
    table (it had the other language under it as well: English in a Japanese kit)."""
    c, fonts, lang = doc.canvas, doc.fonts, doc.lang
    page_w, page_h = doc.paper.size
    x, width = 18 * mm, page_w - 36 * mm
    y = page_h - 16 * mm
    c.setFillColorRGB(0, 0, 0)
    draw_text(
        c,
        game.label("reference_title", lang),
        fonts.bold,
        TextBox(x, y - 10 * mm, width, 10 * mm, "left", "middle"),
        19,
        13,
    )
    y -= 14 * mm
    for section in game.reference:
        c.setFillColor(colour("#7a1f2b"))
        draw_text(
            c, section["heading"](lang), fonts.bold, TextBox(x, y - 8 * mm, width, 8 * mm, "left", "middle"), 14.5, 10
        )
        y -= 9 * mm
        c.setFillColorRGB(0.1, 0.1, 0.1)
        fitted = draw_text(
            c, section["text"](lang), fonts.regular, TextBox(x, y - 40 * mm, width, 40 * mm, "left", "top"), 13, 9
        )
        y -= fitted.size + (len(fitted.lines) - 1) * fitted.size * fitted.leading + 6 * mm


# --- targets -------------------------------------------------------------------------------------


def map_texts(options: BuildOptions) -> Iterable[str]:
    game = load_map()
    numbers = {str(n) for n in range(1, 40)} | {":"}
    return collect_strings(game, set()) | numbers | kit_texts("webofpower", options.lang)


RULES_KEYS = (
    "rules",
    "rules_groups_title",
    "rules_turn_title",
    "rules_turn",
    "rules_limits_title",
    "rules_limits",
    "rules_score_title",
    "rules_score",
)


def rules_deck(game: TrumpMap, lang: str) -> Deck:
    """One quick-rules card a player; which territories take which rank group comes from the map."""
    lines = []
    for key, group in game.groups.items():
        letters = " ".join(letter for letter, territory in sorted(game.territories.items()) if territory.group == key)
        lines.append(f"{group.names(lang)}: {letters}")
    fields = {key: game.label(key, lang) for key in RULES_KEYS} | {"groups": "\n".join(lines)}
    return layout_deck(DATA_DIR / "webofpower" / "rules-card.yaml", fields, [({}, game.players, "rules card")])


def map_picture(game: TrumpMap, lang: str, fonts: FontSet, paper: tuple[float, float]) -> Picture:
    """The printed map sheet itself, small: what the players write on."""
    width, height = paper

    def draw(c: Canvas, w: float, h: float) -> None:
        c.saveState()
        c.setStrokeGray(0.5)
        c.setFillGray(1)
        c.rect(0, 0, w, h, stroke=1, fill=1)
        c.restoreState()
        draw_map_page(c, fonts, lang, (w, h), game)

    return Picture(width / mm, height / mm, draw, caption("webofpower", lang))


def build_map(options: BuildOptions, fonts: FontSet) -> list[Path]:
    game = load_map()
    lang = options.lang
    paper = options.paper.landscape()
    sheet = write_sheet(
        options.path("webofpower-map"),
        paper,
        fonts,
        title=game.label("title", lang),
        lang=lang,
        draw=lambda doc: draw_trump_map(doc, game),
    )
    cards = write_game_deck(
        "webofpower-rules",
        rules_deck(game, lang),
        options.layout(card_size("poker"), gap_mm=3),
        options.sheet_options(content_backs=True),
        fonts,
        options,
        game.label("rules", lang),
    )
    written = [
        kit_file(sheet, contents("webofpower", "webofpower-map", lang), Printing.SHEET),
        kit_file(cards, contents("webofpower", "webofpower-rules", lang), card_printing(options, content_backs=True)),
    ]
    return write_start("webofpower", written, options, fonts, map_picture(game, lang, fonts, paper.size))


def board_texts(options: BuildOptions) -> Iterable[str]:
    words = collect_strings(load_board(), set()) | {"____ ______", "[]0123456789"}
    return words | kit_texts("webofpower-board", options.lang)


def build_board(options: BuildOptions, fonts: FontSet) -> list[Path]:
    game = load_board()
    lang = options.lang
    sheets = (
        ("webofpower-board-score-pad", "title", draw_score_pad),
        ("webofpower-board-reference", "reference_title", draw_reference),
        ("webofpower-board-worksheet", "worksheet", draw_worksheet),
    )
    written = []
    for stem, title, draw in sheets:

        def fill(doc: Document, draw: Callable[[Document, BoardGame], None] = draw) -> None:
            draw(doc, game)

        path = write_sheet(
            options.path(stem), options.paper, fonts, title=game.label(title, lang), lang=lang, draw=fill
        )
        written.append(kit_file(path, contents("webofpower-board", stem, lang), Printing.SHEET))
    return write_start("webofpower-board", written, options, fonts)


# What `kkprint build` makes of this game (listed by id in kkprint.games.BUILD_TARGETS).
TARGETS = (
    Target(
        "webofpower",
        N_("Web of Power with a standard deck: rules, the 4×12 trump map with its score table, 3 quick-rules cards"),
        ("webofpower-start", "webofpower-map", "webofpower-rules"),
        map_texts,
        build_map,
    ),
    Target(
        "webofpower-board",
        N_(
            "Web of Power (the board game): rules summary, score pad (3–5 players), quick reference and a final tally worksheet"
        ),
        (
            "webofpower-board-start",
            "webofpower-board-score-pad",
            "webofpower-board-reference",
            "webofpower-board-worksheet",
        ),
        board_texts,
        build_board,
    ),
)
