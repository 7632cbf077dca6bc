"""The printed Kardinal & König set: land cards, rights tokens, law chips and the 決算チャート."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import chain
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.errors import InputError
from kkprint.base.i18n import N_, Msg
from kkprint.base.paths import DATA_DIR
from kkprint.base.records import record
from kkprint.deck.build import card_prints, deck_card_size, deck_texts, painter_for, write_game_deck
from kkprint.deck.load import Deck, layout_deck
from kkprint.engine.booklet import Picture
from kkprint.engine.cards import place_art, print_cards
from kkprint.engine.colour import colour, is_light, lighten, tint
from kkprint.engine.cover import KitFile, Printing
from kkprint.engine.document import Document, document_of, open_pdf, write_sheet
from kkprint.engine.fonts import FontSet, collect_strings
from kkprint.engine.geometry import card_size
from kkprint.engine.icons import has_icon
from kkprint.engine.job import BuildOptions, Target
from kkprint.engine.text import TextBox, draw_text
from kkprint.games.kardinal import art
from kkprint.games.kardinal.model import ROADS, KardinalGame, Land, load_game
from kkprint.games.kit import caption, card_printing, contents, kit_file, kit_texts, write_start

# --- land cards ------------------------------------------------------------------------------

LAND_CARD = DATA_DIR / "kardinal" / "land-card.yaml"


def land_fields(game: KardinalGame, land: Land, card: list[str], lang: str) -> dict[str, str]:
    """One land card as the fields of the layout in ``data/kardinal/land-card.yaml``."""
    arms = [f"arms:{item}" for item in card if item not in ROADS] + ["", ""]
    road = next((f"road-tile:{item}" for item in card if item in ROADS), "")
    german = land.names.de if land.names.de and land.names.de != land.names(lang) else ""
    return {
        "name": land.names(lang),
        "german": german,
        "colour": land.colour,
        "light": tint(land.colour, 0.85),
        "band": land.band,
        "stripe": "#000000" if is_light(land.colour) else "#ffffff",
        "arms1": arms[0],
        "arms2": arms[1],
        "road": road,
        "value": str(land.value),
        "mark": f"land:{land.mark}",
        "count_label": f"{land.value} {game.label('cards_in_deck', lang)}",
    }


@lru_cache(maxsize=8)  # (one deck for the cards, the start file's picture and the fonts)
def land_deck(game: KardinalGame, lang: str) -> Deck:
    """The 56 land cards as a deck: identical cards (same land, same arms and road) are one
    entry with a count, so each design is stored once."""
    entries: dict[tuple, list] = {}
    for land in game.lands:
        for card in land.cards:
            key = (land.id, tuple(sorted(card)))
            entries.setdefault(key, [land_fields(game, land, card, lang), 0])[1] += 1
    cards = [(fields, count, f"{key[0]} card") for key, (fields, count) in entries.items()]
    return layout_deck(LAND_CARD, {"title": game.title(lang)}, cards)


# --- rights tokens and law chips ---------------------------------------------------------------


@lru_cache(maxsize=8)  # (one deck for the cards and the fonts)
def rights_deck(game: KardinalGame, lang: str) -> Deck:
    """Three tokens per player colour; the symbol tells colours apart in black-and-white print."""
    cards = []
    for player in game.players:
        ink = "#000000" if is_light(player.colour) else "#ffffff"
        fields = {
            "colour": player.colour,
            "ink": ink,
            "symbol": f"player:{player.symbol}",
            "label": game.label("rights_token", lang),
        }
        cards.append((fields, game.rights_tokens_per_player, f"rights token {player.id}"))
    return layout_deck(DATA_DIR / "kardinal" / "rights-token.yaml", {}, cards)


AID_KEYS = (
    "aid",
    "aid_turn_title",
    "aid_turn",
    "aid_tokens_title",
    "aid_tokens",
    "aid_laws_title",
    "aid_laws",
    "aid_score_title",
    "aid_score",
)


@lru_cache(maxsize=8)  # (one deck for the cards and the fonts)
def aid_deck(game: KardinalGame, lang: str, players: int = 5) -> Deck:
    """One player aid for each player, in the build's language."""
    fields = {key: game.label(key, lang) for key in AID_KEYS}
    return layout_deck(DATA_DIR / "kardinal" / "player-aid.yaml", fields, [({}, players, "player aid")])


@lru_cache(maxsize=8)  # (one deck for the cards, the start file's picture and the fonts)
def law_deck(game: KardinalGame, lang: str) -> Deck:
    cards = [
        ({"name": chip.names(lang), "german": chip.names.de or ""}, chip.count, f"law chip {chip.id}")
        for chip in game.law_chips
    ]
    return layout_deck(DATA_DIR / "kardinal" / "law-chip.yaml", {"title": game.label("law_chip", lang)}, cards)


# --- the 決算チャート --------------------------------------------------------------------------


@record
class ChartFill:
    """Numbers to write into the chart: one entry per player, lands in chart order."""

    names: Sequence[str]
    land_points: Sequence[Sequence[int]]  # [player][land]
    arms_points: Sequence[Sequence[int]]
    subtotals: Sequence[int]
    roads: Sequence[int]
    minus: Sequence[int]
    totals: Sequence[int]
    winners: Sequence[str]


def draw_chart(doc: Document, game: KardinalGame, fill: ChartFill | None = None) -> None:
    """One 決算チャート per page: a name row, 国 | 紋章 per player and land, then the sums."""
    c, fonts, lang = doc.canvas, doc.fonts, doc.lang
    width, height = doc.paper.size
    players = 5
    label_w = 38 * mm
    left = (width - (label_w + players * 30 * mm)) / 2
    cell = 15 * mm
    row_h = 12.5 * mm
    top = height - 32 * mm
    label = game.label

    c.setFillColorRGB(0, 0, 0)
    draw_text(
        c,
        f"{label('chart', lang)} — {game.title(lang)}",
        fonts.bold,
        TextBox(left, height - 22 * mm, width - 2 * left, 10 * mm, "center", "middle"),
        16,
        10,
    )

    rows = (
        [("player", None)]
        + [("header", None)]
        + [("land", land) for land in game.lands]
        + [("subtotal", None), ("roads", None), ("total", None)]
    )
    y = top
    c.setLineWidth(0.6)
    c.setStrokeColorRGB(0, 0, 0)
    for kind, land in rows:
        height_here = row_h * (0.6 if kind == "header" else 1)
        y -= height_here
        if kind == "land":
            assert land is not None  # a land row carries its land
            c.setFillColor(lighten(land.colour, 0.82))
            c.rect(left, y, label_w, height_here, stroke=0, fill=1)
        c.rect(left, y, label_w, height_here, stroke=1, fill=0)
        c.setFillColorRGB(0, 0, 0)
        text = {
            "player": label("player", lang),
            "header": "",
            "subtotal": label("subtotal", lang),
            "roads": label("roads_minus", lang),
            "total": label("total", lang),
        }.get(kind, "")
        if land is not None:
            text = f"{land.names(lang)}  ({land.value})"
        if text:
            draw_text(
                c,
                text,
                fonts.bold,
                TextBox(left + 2 * mm, y, label_w - 4 * mm, height_here, "left", "middle"),
                11,
                6,
                max_lines=1,
            )
        for p in range(players):
            x = left + label_w + p * 2 * cell
            split = kind in ("header", "land", "roads")
            if split:
                c.rect(x, y, cell, height_here, stroke=1, fill=0)
                c.rect(x + cell, y, cell, height_here, stroke=1, fill=0)
            else:
                c.setLineWidth(1.4 if kind == "total" else 0.6)
                c.rect(x, y, 2 * cell, height_here, stroke=1, fill=0)
                c.setLineWidth(0.6)
            if kind == "header":
                for offset, key in ((0, "land"), (cell, "arms")):
                    draw_text(
                        c,
                        label(key, lang),
                        fonts.regular,
                        TextBox(x + offset + 1 * mm, y, cell - 2 * mm, height_here, "center", "middle"),
                        8,
                        5,
                        max_lines=1,
                    )
            if kind == "roads":  # a caption in each cell, so nobody writes roads under −2
                c.setFillColorRGB(0.45, 0.45, 0.45)
                for offset, key in ((0, "roads"), (cell, "minus_two")):
                    draw_text(
                        c,
                        label(key, lang),
                        fonts.regular,
                        TextBox(
                            x + offset + 0.8 * mm, y + height_here - 3.6 * mm, cell - 1.6 * mm, 3 * mm, "left", "middle"
                        ),
                        6.5,
                        5,
                        max_lines=1,
                    )
            if fill is None or p >= len(fill.names):
                continue
            values: tuple = ()
            if kind == "player":
                values = ((fill.names[p], 2 * cell),)
            elif kind == "land":
                assert land is not None  # a land row carries its land
                index = game.lands.index(land)
                values = ((str(fill.land_points[p][index]), cell), (str(fill.arms_points[p][index]), cell))
            elif kind == "roads":
                values = ((str(fill.roads[p]), cell), (f"−{2 * fill.minus[p]}" if fill.minus[p] else "0", cell))
            elif kind in ("subtotal", "total"):
                values = ((str((fill.subtotals if kind == "subtotal" else fill.totals)[p]), 2 * cell),)
            offset = 0.0
            font = fonts.bold if kind in ("player", "total") else fonts.regular
            for value, span in values:
                c.setFillColor(colour("#1a3d8f"))
                # a long player name may take two lines; numbers always fit on one
                lines, smallest = (2, 5) if kind == "player" else (1, 6)
                draw_text(
                    c,
                    value,
                    font,
                    TextBox(x + offset + 1 * mm, y, span - 2 * mm, height_here, "center", "middle"),
                    13,
                    smallest,
                    leading=1.1,
                    max_lines=lines,
                )
                offset += span
    c.setFillColorRGB(0.25, 0.25, 0.25)
    hint_y = y - 16 * mm
    draw_text(
        c,
        label("chart_hint", lang),
        fonts.regular,
        TextBox(left, hint_y, label_w + players * 2 * cell, 13 * mm),
        8.5,
        6,
    )
    if fill is not None and fill.winners:
        c.setFillColorRGB(0, 0, 0)
        draw_text(
            c,
            f"{label('winner', lang)}: {', '.join(fill.winners)}",
            fonts.bold,
            TextBox(left, hint_y - 12 * mm, label_w + players * 2 * cell, 9 * mm, "left", "middle"),
            14,
            8,
        )


def write_chart(
    path: Path, game: KardinalGame, options: BuildOptions, fonts: FontSet, fill: ChartFill | None = None
) -> Path:
    return write_sheet(
        path,
        options.paper,
        fonts,
        title=game.label("chart", options.lang),
        lang=options.lang,
        draw=lambda doc: draw_chart(doc, game, fill),
    )


# --- the target ---------------------------------------------------------------------------------


def _check_art(game: KardinalGame) -> None:
    for kind in game.arms:
        if not has_icon(f"arms:{kind}"):
            raise InputError(
                Msg("no art for arms kind '{kind}'; known: {names}", kind=kind, names=", ".join(art.ARMS_ART)),
                source="data/kardinal/game.yaml",
            )


def texts(options: BuildOptions) -> Iterable[str]:
    game = load_game()
    decks = (
        land_deck(game, options.lang),
        rights_deck(game, options.lang),
        law_deck(game, options.lang),
        aid_deck(game, options.lang),
    )
    strings = collect_strings(game, set()).union(*(deck_texts(deck) for deck in decks))
    return strings | kit_texts("kardinal", options.lang)


def write_tokens_and_chips(game: KardinalGame, options: BuildOptions, fonts: FontSet) -> list[KitFile]:
    """The 15 rights tokens and 8 law chips share one sheet (each 25 mm, each with its own
    outline; the chips' backs behind them); a print shop gets each as pages of its own."""
    lang = options.lang
    tokens, chips = rights_deck(game, lang), law_deck(game, lang)
    title = f"{game.title(lang)} — {game.label('tokens_chips', lang)}"
    if options.print_shop:
        return [
            kit_file(
                write_game_deck(
                    stem, deck, options.layout(deck_card_size(deck)), options.sheet_options(), fonts, options, title
                ),
                contents("kardinal", f"{stem}-printshop", lang),
                Printing.SHOP,
            )
            for stem, deck in (("kardinal-rights-tokens", tokens), ("kardinal-law-chips", chips))
        ]
    layout = options.layout(card_size("chip-25"), gap_mm=4, margin_mm=10)
    path = options.path("kardinal-tokens-chips")
    with open_pdf(path, options.paper, fonts, title=title, lang=lang) as doc:
        prints = chain(
            card_prints(tokens, doc, painter_for(tokens, fonts), layout.card.width, layout.card.height),
            card_prints(chips, doc, painter_for(chips, fonts), layout.card.width, layout.card.height),
        )
        print_cards(doc, layout, prints, options.sheet_options())
    return [kit_file(path, contents("kardinal", "kardinal-tokens-chips", lang), card_printing(options))]


def setup_picture(game: KardinalGame, lang: str, fonts: FontSet) -> Picture:
    """The four rows of 14 land cards as a game starts, law chips face down on the 4th and 11th
    card of each row — drawn from the cards themselves."""
    lands, chips = land_deck(game, lang), law_deck(game, lang)
    card, chip = card_size("poker"), card_size("chip-25")
    gap = 5 * mm
    width, height = 14 * card.width + 13 * gap, 4 * card.height + 3 * 2 * gap

    def draw(c: Canvas, w: float, h: float) -> None:
        doc = document_of(c)
        assert doc is not None  # a picture is drawn on a page of an open document
        cards = list(card_prints(lands, doc, painter_for(lands, fonts), card.width, card.height, checked=False))
        random.Random(2001).shuffle(cards)  # dealt the same way on every build
        backs = card_prints(chips, doc, painter_for(chips, fonts), chip.width, chip.height, checked=False)
        for index, print_ in enumerate(cards):
            row, column = divmod(index, 14)
            x, y = column * (card.width + gap), h - (row + 1) * card.height - row * 2 * gap
            place_art(doc, print_.front, x, y, card.width, card.height)
            if column in (3, 10):  # a law chip, face down, below the arms
                law = next(backs).back
                assert law is not None  # every law chip has its back
                chip_x = x + (card.width - chip.width) / 2
                place_art(doc, law, chip_x, y + 12 * mm, chip.width, chip.height)
                c.saveState()
                c.setStrokeGray(0.15)
                c.setLineWidth(1.6)
                c.rect(chip_x, y + 12 * mm, chip.width, chip.height, stroke=1, fill=0)
                c.restoreState()

    return Picture(width / mm, height / mm, draw, caption("kardinal", lang))


def build(options: BuildOptions, fonts: FontSet) -> list[Path]:
    game = load_game()
    _check_art(game)
    lang = options.lang
    written: list[KitFile] = []

    decks = (
        ("kardinal-land-cards", land_deck(game, lang), options.layout(card_size("poker")), False),
        ("kardinal-player-aid", aid_deck(game, lang), options.layout(card_size("poker"), gap_mm=3), True),
    )
    for stem, deck, layout, content_backs in decks:
        part = game.label(stem.removeprefix("kardinal-").replace("-", "_"), lang)
        sheet = options.sheet_options(content_backs=content_backs)
        path = write_game_deck(stem, deck, layout, sheet, fonts, options, f"{game.title(lang)} — {part}")
        written.append(
            kit_file(path, contents("kardinal", stem, lang), card_printing(options, content_backs=content_backs))
        )
    written.extend(write_tokens_and_chips(game, options, fonts))
    chart = write_chart(options.path("kardinal-chart"), game, options, fonts)
    written.append(kit_file(chart, contents("kardinal", "kardinal-chart", lang), Printing.SHEET))
    return write_start("kardinal", written, options, fonts, setup_picture(game, lang, fonts))


# What `kkprint build` makes of this game (listed by id in kkprint.games.BUILD_TARGETS).
TARGETS = (
    Target(
        id="kardinal",
        summary=N_(
            "Kardinal & König — The Card Game: rules, 56 land cards, 15 rights tokens, 8 law chips, 5 player aids, the scoring chart"
        ),
        products=(
            "kardinal-start",
            "kardinal-land-cards",
            "kardinal-player-aid",
            "kardinal-tokens-chips",
            "kardinal-chart",
        ),
        texts=texts,
        build=build,
    ),
)
