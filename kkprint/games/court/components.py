"""Printed To Court the King set: character cards with tier backs, summary cards, start marker."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Iterator

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.build import BuildOptions, Target, register
from kkprint.engine.cards import Art, CardPrint, print_cards
from kkprint.engine.colour import colour, lighten
from kkprint.engine.document import open_pdf
from kkprint.engine.fonts import FontSet, collect_strings
from kkprint.engine.geometry import CardSize, DuplexMode, card_size
from kkprint.engine.icons import die_body, draw_icon, register_icon, star_path
from kkprint.engine.text import TextBox, draw_text
from kkprint.errors import InputError
from kkprint.games.court.model import CHARLATAN, FOOL, Character, CourtGame, load_court

TIER_COLOURS = {None: "#8b5a2b", "I": "#4f7f52", "II": "#2f6fa8", "III": "#7d4fa0", "IV": "#b03a3a", "V": "#c9a227"}
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


def character_front(game: CourtGame, character: Character, lang: str, fonts: FontSet) -> Art:
    tint = TIER_COLOURS[character.tier]

    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillGray(1)
        c.rect(0, 0, w, h, stroke=0, fill=1)
        band = 17 * mm
        c.setFillColor(colour(tint))
        c.rect(0, h - band, w, band, stroke=0, fill=1)
        c.setFillGray(1)
        c.circle(9 * mm, h - band / 2, 5.5 * mm, stroke=0, fill=1)
        c.setFillColor(colour(tint))
        draw_text(c, _tier_name(character), fonts.bold, TextBox(3.5 * mm, h - band / 2 - 4 * mm, 11 * mm, 8 * mm, "center", "middle"), 13, 7)
        c.setFillGray(1)
        draw_text(c, character.name(lang), fonts.bold, TextBox(16 * mm, h - 10.5 * mm, w - 19 * mm, 8 * mm, "left", "middle"), 15, 8, max_lines=1)
        draw_text(c, character.de, fonts.regular, TextBox(16 * mm, h - 15.5 * mm, w - 19 * mm, 4.5 * mm, "left", "middle"), 8.5, 6, max_lines=1)
        label_size = 7.5
        c.setFillColor(colour(tint))
        draw_text(c, game.label("condition", lang), fonts.bold, TextBox(4 * mm, h - band - 7 * mm, w - 8 * mm, 4 * mm, "left", "middle"), label_size, 6)
        c.setFillColorRGB(0.1, 0.1, 0.1)
        draw_text(c, character.shows(lang), fonts.regular, TextBox(4 * mm, h - band - 26 * mm, w - 8 * mm, 18 * mm, "center", "middle"),
                  24 if ONLY_ICONS.fullmatch(character.shows(lang)) else 14, 6)
        c.setStrokeColor(lighten(tint, 0.5))
        c.setLineWidth(0.6)
        c.line(4 * mm, h - band - 28 * mm, w - 4 * mm, h - band - 28 * mm)
        c.setFillColor(colour(tint))
        draw_text(c, game.label("effect", lang), fonts.bold, TextBox(4 * mm, h - band - 34 * mm, w - 8 * mm, 4 * mm, "left", "middle"), label_size, 6)
        c.setFillColorRGB(0.1, 0.1, 0.1)
        draw_text(c, character.effect(lang), fonts.regular, TextBox(4 * mm, 9 * mm, w - 8 * mm, h - band - 44 * mm), 11, 6.5)
        if character.tier:
            c.setFillColorRGB(0.4, 0.4, 0.4)
            draw_text(c, f"{game.tiers[character.tier]} {game.label('dice', lang)}", fonts.regular,
                      TextBox(4 * mm, 3.5 * mm, w - 8 * mm, 4 * mm, "right", "middle"), 7, 5)

    return Art(draw, key=f"court-front-{character.en}-{lang}")


def tier_back(game: CourtGame, tier: str, lang: str, fonts: FontSet) -> Art:
    tint = TIER_COLOURS[tier]

    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillColor(lighten(tint, 0.82))
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setStrokeColor(colour(tint))
        c.setLineWidth(2)
        c.roundRect(4 * mm, 4 * mm, w - 8 * mm, h - 8 * mm, 2 * mm, stroke=1, fill=0)
        c.setFillColor(colour(tint))
        draw_text(c, tier, fonts.bold, TextBox(6 * mm, h / 2 - 5 * mm, w - 12 * mm, 30 * mm, "center", "middle"), 54, 20)
        dice = game.tiers[tier]
        size = min(6.5 * mm, (w - 14 * mm) / dice)
        for i in range(dice):
            draw_icon(c, "die:any", (w - dice * size) / 2 + i * size, h / 2 - 14 * mm, size * 0.92)
        draw_text(c, game.labels["title"](lang), fonts.bold, TextBox(6 * mm, 9 * mm, w - 12 * mm, 6 * mm, "center", "middle"), 10, 6)

    return Art(draw, key=f"court-back-{tier}-{lang}")


def character_cards(game: CourtGame, lang: str, fonts: FontSet, players: int | None) -> Iterator[CardPrint]:
    charlatan = character_front(game, game.character(CHARLATAN), lang, fonts)
    for character in game.characters:
        if character.en == CHARLATAN:
            continue  # printed on the back of each Fool
        back = charlatan if character.en == FOOL else tier_back(game, character.tier, lang, fonts)
        front = character_front(game, character, lang, fonts)
        for _ in range(game.copies(character, players)):
            yield CardPrint(front, back)


def summary_card(game: CourtGame, lang: str, fonts: FontSet) -> Art:
    """Every character by tier: name, condition, effect — enough to play without the cards."""

    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillGray(1)
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setFillGray(0)
        draw_text(c, f"{game.labels['title'](lang)} — {game.label('summary', lang)}", fonts.bold,
                  TextBox(4 * mm, h - 9 * mm, w - 8 * mm, 6 * mm, "left", "middle"), 10, 7)
        rows = [ch for ch in game.characters]
        row_h = (h - 13 * mm) / len(rows)
        y = h - 11 * mm
        for character in rows:
            y -= row_h
            tint = TIER_COLOURS[character.tier]
            c.setFillColor(lighten(tint, 0.85))
            c.rect(3 * mm, y + 0.3 * mm, w - 6 * mm, row_h - 0.6 * mm, stroke=0, fill=1)
            c.setFillColor(colour(tint))
            draw_text(c, _tier_name(character), fonts.bold, TextBox(3.5 * mm, y, 5 * mm, row_h, "center", "middle"), 6.5, 4.5)
            c.setFillGray(0)
            draw_text(c, character.name(lang), fonts.bold, TextBox(9 * mm, y, 15 * mm, row_h, "left", "middle"), 6.5, 4, max_lines=2)
            draw_text(c, character.shows(lang), fonts.regular, TextBox(25 * mm, y, 28 * mm, row_h, "left", "middle"), 6.5, 3.6, leading=1.1)
            draw_text(c, character.effect(lang), fonts.regular, TextBox(54 * mm, y, w - 57 * mm, row_h, "left", "middle"), 6.3, 3.6, leading=1.1)

    return Art(draw, key=f"court-summary-{lang}")


def start_marker(game: CourtGame, lang: str, fonts: FontSet) -> Art:
    def draw(c: Canvas, w: float, h: float) -> None:
        c.setFillColor(lighten(TIER_COLOURS["V"], 0.75))
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setFillColor(colour("#7a5a00"))
        c.drawPath(star_path(c, w / 2, h / 2 + 10 * mm, 14 * mm, 6 * mm), stroke=0, fill=1)
        draw_text(c, game.label("start_player", lang), fonts.bold, TextBox(4 * mm, h / 2 - 16 * mm, w - 8 * mm, 10 * mm, "center", "middle"), 14, 7)
        c.setFillColorRGB(0.3, 0.3, 0.3)
        draw_text(c, game.label("start_hint", lang), fonts.regular, TextBox(6 * mm, 8 * mm, w - 12 * mm, 14 * mm, "center", "middle"), 8, 5.5)

    return Art(draw, key=f"court-start-{lang}")


def texts(options: BuildOptions) -> Iterable[str]:
    game = load_court()
    return collect_strings(game.model_dump(), set()) | {"–"}


def build(options: BuildOptions, fonts: FontSet) -> list[Path]:
    game = load_court()
    if options.players is not None and not 2 <= options.players <= 5:
        raise InputError(f"To Court the King is for 2–5 players, not {options.players}", source="--players")
    lang, paper = options.lang, options.paper
    suffix = f"-{options.players}p" if options.players else ""
    written = []
    path = options.path(f"court-characters{suffix}")
    with open_pdf(path, paper, fonts, title=game.labels["title"](lang), lang=lang) as doc:
        print_cards(doc, options.layout(card_size("poker")),
                    character_cards(game, lang, fonts, options.players),
                    options.sheet_options())
    written.append(path)
    path = options.path("court-summary")
    with open_pdf(path, paper, fonts, title=game.label("summary", lang), lang=lang) as doc:
        summary = summary_card(game, lang, fonts)
        print_cards(doc, options.layout(SUMMARY_CARD), [CardPrint(summary)] * 5,
                    options.sheet_options(duplex=DuplexMode.NONE))
        print_cards(doc, options.layout(card_size("poker")), [CardPrint(start_marker(game, lang, fonts))],
                    options.sheet_options(duplex=DuplexMode.NONE))
    written.append(path)
    return written


register(Target("court", "To Court the King: 60 character cards (or --players N), 5 summary cards, start marker",
                ("court-characters", "court-summary"), texts, build))
