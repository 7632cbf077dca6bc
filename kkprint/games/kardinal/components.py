"""The printed Kardinal & König set: land cards, rights tokens, law chips and the 決算チャート."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.build import BuildOptions, Target, register
from kkprint.deck.build import card_prints, deck_texts
from kkprint.deck.load import CardData, Deck
from kkprint.deck.model import DeckFile
from kkprint.deck.render import Palette, RegionPainter
from kkprint.engine.cards import Art, CardPrint, print_cards
from kkprint.engine.colour import colour, is_light, lighten
from kkprint.engine.document import Document, open_pdf, write_sheet
from kkprint.engine.fonts import FontSet, collect_strings
from kkprint.engine.geometry import DuplexMode, card_size
from kkprint.engine.icons import has_icon
from kkprint.engine.text import TextBox, draw_text
from kkprint.errors import InputError
from kkprint.games.kardinal import art
from kkprint.games.kardinal.model import ROADS, KardinalGame, Land, load_game
from kkprint.models import load_model
from kkprint.paths import DATA_DIR

BACK_INK = "#7a1f2b"


# --- land cards ------------------------------------------------------------------------------

LAND_CARD = DATA_DIR / "kardinal" / "land-card.yaml"


@lru_cache(maxsize=1)
def land_card_layout() -> DeckFile:
    return load_model(DeckFile, LAND_CARD)


def land_fields(game: KardinalGame, land: Land, card: list[str], lang: str) -> dict[str, str]:
    """One land card as the fields of the layout in ``data/kardinal/land-card.yaml``."""
    arms = [f"arms:{item}" for item in card if item not in ROADS] + ["", ""]
    road = next((f"road-tile:{item}" for item in card if item in ROADS), "")
    german = land.names.de if land.names.de and land.names.de != land.names(lang) else ""
    light = lighten(land.colour, 0.85)
    return {
        "name": land.names(lang), "german": german, "colour": land.colour,
        "light": "#" + "".join(f"{round(v * 255):02x}" for v in (light.red, light.green, light.blue)),
        "arms1": arms[0], "arms2": arms[1], "road": road, "value": str(land.value),
        "count_label": f"{land.value} {game.label('cards_in_deck', lang)}",
    }


def land_deck(game: KardinalGame, lang: str) -> Deck:
    """The 56 land cards as a deck: identical cards (same land, same arms and road) are one
    entry with a count, so each design is stored once."""
    entries: dict[tuple, list] = {}
    for land in game.lands:
        for card in land.cards:
            key = (land.id, tuple(sorted(card)))
            entries.setdefault(key, [land_fields(game, land, card, lang), 0])[1] += 1
    spec = land_card_layout().model_copy(update={"fields": {"title": game.title.ja}})
    cards = tuple(CardData(fields, count, f"{key[0]} card") for key, (fields, count) in entries.items())
    return Deck(spec, cards, None, LAND_CARD.parent, str(LAND_CARD))


# --- rights tokens and law chips ---------------------------------------------------------------

def rights_token(game: KardinalGame, player_index: int, lang: str, fonts: FontSet) -> Art:
    player = game.players[player_index]

    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillColor(colour(player.colour))
        c.circle(w / 2, h / 2, w / 2, stroke=0, fill=1)
        c.setStrokeColorRGB(1, 1, 1) if not is_light(player.colour) else c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.8)
        c.circle(w / 2, h / 2, w / 2 - 1.6 * mm, stroke=1, fill=0)
        c.setFillColorRGB(1, 1, 1)
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.6)
        s = 9 * mm
        c.saveState()
        c.translate((w - s) / 2, h / 2 - 1.5 * mm)
        art.symbol(c, s, player.symbol)
        c.restoreState()
        c.setFillColorRGB(1, 1, 1) if not is_light(player.colour) else c.setFillColorRGB(0, 0, 0)
        label = game.label("rights_token", lang)
        draw_text(c, label, fonts.bold, TextBox(5 * mm, 4 * mm, w - 10 * mm, 4 * mm, "center", "middle"), 7.5, 5)

    return Art(draw, key=f"kardinal-rights-{player.id}-{lang}")


def law_chip(game: KardinalGame, chip_index: int, lang: str, fonts: FontSet) -> Art:
    chip = game.law_chips[chip_index]

    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillColorRGB(1, 1, 1)
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setStrokeColor(colour(BACK_INK))
        c.setLineWidth(1.2)
        c.roundRect(1.2 * mm, 1.2 * mm, w - 2.4 * mm, h - 2.4 * mm, 1.2 * mm, stroke=1, fill=0)
        c.setFillColorRGB(0.1, 0.1, 0.1)
        draw_text(c, chip.names(lang), fonts.bold, TextBox(2.5 * mm, 8 * mm, w - 5 * mm, 12 * mm, "center", "middle"),
                  10, 5, leading=1.15)
        if chip.names.de and lang != "de":
            c.setFillColorRGB(0.4, 0.4, 0.4)
            draw_text(c, chip.names.de, fonts.regular, TextBox(2.5 * mm, 3 * mm, w - 5 * mm, 4.5 * mm, "center", "middle"),
                      5.5, 3.5, leading=1.1)

    return Art(draw, key=f"kardinal-law-{chip.id}-{lang}")


def law_back(game: KardinalGame, lang: str, fonts: FontSet) -> Art:
    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillColor(lighten(BACK_INK, 0.8))
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setFillColor(colour(BACK_INK))
        draw_text(c, game.label("law_chip", lang), fonts.bold, TextBox(2 * mm, 10 * mm, w - 4 * mm, 8 * mm, "center", "middle"), 9, 5)
        draw_text(c, "Gesetz", fonts.regular, TextBox(2 * mm, 5 * mm, w - 4 * mm, 4 * mm, "center", "middle"), 6, 4)

    return Art(draw, key=f"kardinal-law-back-{lang}")


# --- the 決算チャート --------------------------------------------------------------------------

@dataclass(frozen=True)
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
    draw_text(c, f"{label('chart', lang)} — {game.title(lang)}", fonts.bold,
              TextBox(left, height - 22 * mm, width - 2 * left, 10 * mm, "center", "middle"), 16, 10)

    rows = [("player", None)] + [("header", None)] + [("land", land) for land in game.lands] + \
           [("subtotal", None), ("roads", None), ("total", None)]
    y = top
    c.setLineWidth(0.6)
    c.setStrokeColorRGB(0, 0, 0)
    for kind, land in rows:
        height_here = row_h * (0.6 if kind == "header" else 1)
        y -= height_here
        if kind == "land":
            c.setFillColor(lighten(land.colour, 0.82))
            c.rect(left, y, label_w, height_here, stroke=0, fill=1)
        c.rect(left, y, label_w, height_here, stroke=1, fill=0)
        c.setFillColorRGB(0, 0, 0)
        text = {
            "player": label("player", lang), "header": "", "subtotal": label("subtotal", lang),
            "roads": label("roads_minus", lang), "total": label("total", lang),
        }.get(kind, "")
        if land is not None:
            text = f"{land.names(lang)}  ({land.value})"
        if text:
            draw_text(c, text, fonts.bold, TextBox(left + 2 * mm, y, label_w - 4 * mm, height_here, "left", "middle"), 11, 6, max_lines=1)
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
                    draw_text(c, label(key, lang), fonts.regular, TextBox(x + offset + 1 * mm, y, cell - 2 * mm, height_here, "center", "middle"), 8, 5, max_lines=1)
            if fill is None or p >= len(fill.names):
                continue
            values: tuple = ()
            if kind == "player":
                values = ((fill.names[p], 2 * cell),)
            elif kind == "land":
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
                draw_text(c, value, font, TextBox(x + offset + 1 * mm, y, span - 2 * mm, height_here, "center", "middle"), 13, 6, max_lines=1)
                offset += span
    c.setFillColorRGB(0.25, 0.25, 0.25)
    hint_y = y - 16 * mm
    draw_text(c, label("chart_hint", lang), fonts.regular, TextBox(left, hint_y, label_w + players * 2 * cell, 13 * mm), 8.5, 6)
    if fill is not None and fill.winners:
        c.setFillColorRGB(0, 0, 0)
        draw_text(c, f"{label('winner', lang)}: {', '.join(fill.winners)}", fonts.bold,
                  TextBox(left, hint_y - 12 * mm, label_w + players * 2 * cell, 9 * mm, "left", "middle"), 14, 8)


def write_chart(path: Path, game: KardinalGame, options: BuildOptions, fonts: FontSet, fill: ChartFill | None = None) -> Path:
    return write_sheet(path, options.paper, fonts, title=game.label("chart", options.lang), lang=options.lang,
                       draw=lambda doc: draw_chart(doc, game, fill))


# --- the target ---------------------------------------------------------------------------------

def _check_art(game: KardinalGame) -> None:
    for kind in game.arms:
        if not has_icon(f"arms:{kind}"):
            raise InputError(f"no art for arms kind {kind!r}; known: {', '.join(art.ARMS_ART)}", source="data/kardinal/game.yaml")


def texts(options: BuildOptions) -> Iterable[str]:
    game = load_game()
    return collect_strings(game.model_dump(), set()) | deck_texts(land_deck(game, options.lang))


def build(options: BuildOptions, fonts: FontSet) -> list[Path]:
    game = load_game()
    _check_art(game)
    lang, paper = options.lang, options.paper
    written = []

    path = options.path("kardinal-land-cards")
    deck = land_deck(game, lang)
    with open_pdf(path, paper, fonts, title=f"{game.title(lang)} — 56", lang=lang) as doc:
        size = card_size("poker")
        print_cards(doc, options.layout(size), card_prints(deck, doc, RegionPainter(deck, fonts, Palette()), size.width,
                                                            size.height), options.sheet_options())
    written.append(path)

    path = options.path("kardinal-rights-tokens")
    tokens = [CardPrint(rights_token(game, p, lang, fonts))
              for p in range(len(game.players)) for _ in range(game.rights_tokens_per_player)]
    with open_pdf(path, paper, fonts, title=game.label("rights_token", lang), lang=lang) as doc:
        print_cards(doc, options.layout(card_size("token-25"), gap_mm=4, margin_mm=10), tokens,
                    options.sheet_options(duplex=DuplexMode.NONE))
    written.append(path)

    path = options.path("kardinal-law-chips")
    chips = [CardPrint(law_chip(game, i, lang, fonts), law_back(game, lang, fonts))
             for i, chip in enumerate(game.law_chips) for _ in range(chip.count)]
    with open_pdf(path, paper, fonts, title=game.label("law_chip", lang), lang=lang) as doc:
        print_cards(doc, options.layout(card_size("chip-25"), gap_mm=4, margin_mm=10), chips,
                    options.sheet_options())
    written.append(path)

    written.append(write_chart(options.path("kardinal-chart"), game, options, fonts))
    return written


register(Target(
    id="kardinal",
    summary="Kardinal & König Kartenspiel: 56 land cards, 15 rights tokens, 8 law chips, 決算チャート",
    products=("kardinal-land-cards", "kardinal-rights-tokens", "kardinal-law-chips", "kardinal-chart"),
    texts=texts,
    build=build,
))
