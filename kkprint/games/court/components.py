"""Printed To Court the King set: character cards with tier backs, summary cards, start marker."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.errors import InputError
from kkprint.base.i18n import N_, Msg
from kkprint.base.paths import DATA_DIR
from kkprint.deck.build import card_prints, deck_texts, painter_for, write_game_deck
from kkprint.deck.load import Deck, layout_deck
from kkprint.engine.booklet import Picture
from kkprint.engine.cards import Art, CardPrint, bled, place_art
from kkprint.engine.colour import colour, lighten, tint
from kkprint.engine.cover import KitFile
from kkprint.engine.document import document_of
from kkprint.engine.fonts import FontSet, collect_strings
from kkprint.engine.geometry import CardSize, card_size
from kkprint.engine.icons import die_body, draw_icon, register_icon, star_path
from kkprint.engine.job import BuildOptions, Target
from kkprint.engine.text import TextBox, draw_text
from kkprint.games.court.model import CHARLATAN, FOOL, Character, CourtGame, load_court
from kkprint.games.kit import caption, card_printing, contents, kit_file, kit_texts, write_drawn_cards, write_start

# One colour per tier, each on its own step of lightness (luma .22 … .77, about 11 L* apart), so
# the tiers stay apart printed in grey and for colour-blind players; the numeral says it too.
TIER_COLOURS = {None: "#9d6631", "I": "#8fb992", "II": "#5a99d1", "III": "#452b58", "IV": "#9f3434", "V": "#e3c66c"}
DARK_INK = "#1a1a1a"


def _is_dark(value: str) -> bool:
    """Whether white text reads on this colour (its luma below a half); darker text otherwise."""
    ink = colour(value)
    return 0.299 * ink.red + 0.587 * ink.green + 0.114 * ink.blue < 0.5


def _text_colour(value: str) -> str:
    """The tier's colour for words on white: itself when dark enough, else mixed halfway to black."""
    if _is_dark(value):
        return value
    ink = colour(value)
    return "#" + "".join(f"{round(part * 0.45 * 255):02x}" for part in (ink.red, ink.green, ink.blue))


SUMMARY_CARD = CardSize(95, 130, corner_mm=3)
ONLY_ICONS = re.compile(r"(\{[a-z0-9:]+\}\s*)+")  # conditions drawn purely as dice get large dice


def _marked_die(mark: str):
    """A die whose face carries a shape instead of pips: equal shapes mean equal values."""

    def draw(c: Canvas, s: float) -> None:
        die_body(c, s)
        if mark == "star":
            c.drawPath(star_path(c, s / 2, s * 0.48, s * 0.32, s * 0.14), stroke=0, fill=1)
        elif mark == "ring":
            c.setLineWidth(s * 0.1)
            c.circle(s / 2, s / 2, s * 0.22, stroke=1, fill=0)
        else:
            p = c.beginPath()
            p.moveTo(s / 2, s * 0.78)
            p.lineTo(s * 0.22, s * 0.26)
            p.lineTo(s * 0.78, s * 0.26)
            p.close()
            c.drawPath(p, stroke=0, fill=1)

    return draw


register_icon("same", _marked_die("star"))
register_icon("other", _marked_die("ring"))
register_icon("third", _marked_die("triangle"))


def _tier_name(character: Character) -> str:
    return character.tier or "–"


CARD_LAYOUT = DATA_DIR / "court" / "cards.yaml"


def character_fields(game: CourtGame, character: Character, lang: str) -> dict[str, str]:
    """One character as the fields of the deck layout in ``data/court/cards.yaml``."""
    shows = character.shows(lang)
    colour_of_tier = TIER_COLOURS[character.tier]
    fields = {
        "name": character.name(lang),
        "german": character.de,
        "tier": _tier_name(character),
        "tier_colour": colour_of_tier,
        "tier_light": tint(colour_of_tier, 0.5),
        "tier_ink": "#ffffff" if _is_dark(colour_of_tier) else DARK_INK,  # the name on the band
        "tier_text": _text_colour(colour_of_tier),  # the numeral in its badge, the labels on white
        "condition_label": game.label("condition", lang),
        "effect_label": game.label("effect", lang),
        "condition_dice": shows if ONLY_ICONS.fullmatch(shows) else "",
        "condition_words": "" if ONLY_ICONS.fullmatch(shows) else shows,
        "effect": character.effect(lang),
        "dice_label": f"{game.tiers[character.tier]} {game.label('dice', lang)}" if character.tier else "",
        "back": character.tier or "",
        "back_face": game.character(CHARLATAN).name(lang) if character.en == FOOL else "",
    }
    return fields


@lru_cache(maxsize=8)  # (one deck for the cards, the start file's picture and the fonts)
def character_deck(game: CourtGame, lang: str, players: int | None) -> Deck:
    """The character cards as a deck: the same machinery that builds any user's deck."""
    cards = [
        (character_fields(game, character, lang), game.copies(character, players), f"character {character.en}")
        for character in game.characters
    ]
    return layout_deck(CARD_LAYOUT, {"title": game.labels["title"](lang)}, cards)


def summary_card(game: CourtGame, lang: str, fonts: FontSet, back: bool = False) -> Art:
    """Every character by tier — name, what it needs, what it does — on a two-sided card: the
    lower tiers on the front, III–V on the back, so the text is at least 7 pt and the dice big
    enough to count. A legend says what the marked dice mean."""
    split = next(i for i, ch in enumerate(game.characters) if ch.tier == "III")
    rows = game.characters[split:] if back else game.characters[:split]

    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillGray(1)
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setFillGray(0)
        draw_text(
            c,
            f"{game.labels['title'](lang)} — {game.label('summary', lang)}",
            fonts.bold,
            TextBox(4 * mm, h - 10 * mm, w - 8 * mm, 7 * mm, "left", "middle"),
            11,
            8,
        )
        legend = 8 * mm
        row_h = (h - 13 * mm - legend) / len(rows)
        y = h - 12 * mm
        for character in rows:
            y -= row_h
            tier_colour = TIER_COLOURS[character.tier]
            c.setFillColor(lighten(tier_colour, 0.85))
            c.rect(3 * mm, y + 0.3 * mm, w - 6 * mm, row_h - 0.6 * mm, stroke=0, fill=1)
            c.setFillColor(colour(_text_colour(tier_colour)))
            # columns: tier 5 mm, name 20 mm, what it needs 27 mm, what it does the rest — each wide
            # enough for its longest entry at 8 pt or more (the names were squeezed to 7 pt)
            draw_text(
                c, _tier_name(character), fonts.bold, TextBox(3.5 * mm, y, 5 * mm, row_h, "center", "middle"), 9, 7
            )
            c.setFillGray(0)
            draw_text(
                c,
                character.name(lang),
                fonts.bold,
                TextBox(9 * mm, y, 20 * mm, row_h, "left", "middle"),
                8.5,
                7,
                max_lines=2,
            )
            draw_text(
                c,
                character.shows(lang),
                fonts.regular,
                TextBox(30 * mm, y, 27 * mm, row_h, "left", "middle"),
                9,
                7,
                leading=1.15,
            )
            draw_text(
                c,
                character.effect(lang),
                fonts.regular,
                TextBox(58 * mm, y, w - 61 * mm, row_h, "left", "middle"),
                8.5,
                7,
                leading=1.1,
            )
        c.setFillColorRGB(0.25, 0.25, 0.25)
        draw_text(
            c,
            game.label("legend", lang),
            fonts.regular,
            TextBox(4 * mm, 2 * mm, w - 8 * mm, legend - 2 * mm, "left", "middle"),
            9,
            7,
        )

    return Art(draw, key=f"court-summary-{'back' if back else 'front'}-{lang}")


def start_marker(game: CourtGame, lang: str, fonts: FontSet) -> Art:
    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillColor(lighten(TIER_COLOURS["V"], 0.75))
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setFillColor(colour("#7a5a00"))
        c.drawPath(star_path(c, w / 2, h / 2 + 14 * mm, 22 * mm, 9 * mm), stroke=0, fill=1)
        draw_text(
            c,
            game.label("start_player", lang),
            fonts.bold,
            TextBox(6 * mm, h / 2 - 22 * mm, w - 12 * mm, 14 * mm, "center", "middle"),
            20,
            10,
        )
        c.setFillColorRGB(0.3, 0.3, 0.3)
        draw_text(
            c,
            game.label("start_hint", lang),
            fonts.regular,
            TextBox(8 * mm, 10 * mm, w - 16 * mm, 18 * mm, "center", "middle"),
            11,
            7,
        )

    return Art(draw, key=f"court-start-{lang}")


def texts(options: BuildOptions) -> Iterable[str]:
    game = load_court()
    strings = collect_strings(game, set()) | deck_texts(character_deck(game, options.lang, None))
    return strings | {"–"} | kit_texts("court", options.lang)


def write_summary(game: CourtGame, options: BuildOptions, fonts: FontSet) -> KitFile:
    """Five summary cards and the start marker, made the same size: two sheets at home, or
    print-shop pages with their bleed."""
    lang = options.lang

    def cards(bleed: float) -> list[CardPrint]:
        front = bled(summary_card(game, lang, fonts), bleed, "#ffffff")
        back = bled(summary_card(game, lang, fonts, back=True), bleed, "#ffffff")
        marker = bled(start_marker(game, lang, fonts), bleed, tint(TIER_COLOURS["V"], 0.75))
        return [CardPrint(front, back)] * 5 + [CardPrint(marker, marker)]

    return write_drawn_cards("court", "court-summary", SUMMARY_CARD, cards, options, fonts, game.label("summary", lang))


def court_picture(game: CourtGame, lang: str, fonts: FontSet) -> Picture:
    """The court as a game starts: one pile per character, a row per tier (the Fools with tier
    I), the dice beside — drawn from the cards themselves."""
    deck = character_deck(game, lang, None)
    card = card_size("poker")
    rows = [[FOOL], *([c.en for c in game.characters if c.tier == tier] for tier in game.tiers)]
    rows[0] += rows.pop(1)
    gap, step = 6 * mm, 2.2 * mm  # between piles; between the cards of a pile
    columns = max(len(row) for row in rows)
    width = columns * (card.width + gap) + 2 * card.width
    height = len(rows) * (card.height + gap + 2 * step)

    def draw(c: Canvas, w: float, h: float) -> None:
        doc = document_of(c)
        assert doc is not None  # a picture is drawn on a page of an open document
        fronts: dict[str, Art] = {}
        for print_, character in zip(
            card_prints(deck, doc, painter_for(deck, fonts), card.width, card.height, checked=False), _copies(game)
        ):
            fronts.setdefault(character, print_.front)
        for number, row in enumerate(rows):
            y = h - (number + 1) * (card.height + gap + 2 * step) + gap
            for column, name in enumerate(row):
                x = column * (card.width + gap)
                for layer in (2, 1, 0):  # a pile: two cards showing under the top one
                    place_art(doc, fronts[name], x + layer * step, y + layer * step, card.width, card.height)
                    c.saveState()
                    c.setStrokeGray(0.4)
                    c.setLineWidth(1.5)
                    c.rect(x + layer * step, y + layer * step, card.width, card.height, stroke=1, fill=0)
                    c.restoreState()
        die = 22 * mm
        for index in range(12):
            line, column = divmod(index, 2)
            draw_icon(
                c,
                f"die:{index % 6 + 1}",
                w - 2 * card.width + 12 * mm + column * (die + 8 * mm),
                h - (line + 1) * (die + 8 * mm),
                die,
            )

    return Picture(width / mm, height / mm, draw, caption("court", lang))


def _copies(game: CourtGame) -> list[str]:
    """The character of every printed card, in the deck's order."""
    return [character.en for character in game.characters for _ in range(game.copies(character, None))]


def build(options: BuildOptions, fonts: FontSet) -> list[Path]:
    game = load_court()
    if options.players is not None and not 2 <= options.players <= 5:
        raise InputError(
            Msg("To Court the King is for 2–5 players, not {players}", players=options.players), source="--players"
        )
    lang = options.lang
    suffix = f"-{options.players}p" if options.players else ""
    deck = character_deck(game, lang, options.players)
    path = write_game_deck(
        f"court-characters{suffix}",
        deck,
        options.layout(card_size("poker")),
        options.sheet_options(content_backs=True),
        fonts,
        options,
        game.labels["title"](lang),
    )
    count = sum(card.count for card in deck.iter_cards())
    written = [
        kit_file(
            path, contents("court", "court-characters", lang, count=count), card_printing(options, content_backs=True)
        ),
        write_summary(game, options, fonts),
    ]
    return write_start("court", written, options, fonts, court_picture(game, lang, fonts))


# What `kkprint build` makes of this game (listed by id in kkprint.games.BUILD_TARGETS).
TARGETS = (
    Target(
        "court",
        N_("To Court the King: rules, 60 character cards (or --players N), 5 summary cards, start marker"),
        ("court-start", "court-characters", "court-summary"),
        texts,
        build,
    ),
)
