"""Building a user's deck file into a PDF: home sheets (duplex, fold or fronts only) or print shop."""

from __future__ import annotations

from itertools import repeat
from pathlib import Path
from typing import Iterator

from reportlab.lib.units import mm

from kkprint.build import BuildOptions, Target
from kkprint.deck.data import CardData, as_text
from kkprint.deck.load import Deck, load_deck, select
from kkprint.deck.render import Face, Palette, RegionPainter, deck_icons, font_book
from kkprint.engine.cards import Art, CardPrint, SheetOptions, print_cards, print_shop_pages
from kkprint.engine.document import open_pdf
from kkprint.engine.fonts import BASE_CHARACTERS, FontSet, collect_strings
from kkprint.engine.geometry import PAPERS, CardSize, DuplexMode, Paper, Shape, SheetLayout, card_size
from kkprint.engine.marks import CutMarks
from kkprint.errors import InputError, suggest
from kkprint.paths import output_path
from kkprint.printer import load_profile

SLUG_MM = 10.0


def deck_card_size(deck: Deck) -> CardSize:
    spec = deck.spec.card
    shape = Shape(spec.shape) if spec.shape else None
    if spec.size:
        preset = card_size(spec.size)
        corner = preset.corner_mm if spec.corner_mm is None else spec.corner_mm
        return CardSize(preset.width_mm, preset.height_mm, shape or preset.shape, corner)
    width, height = spec.w or spec.width_mm, spec.h or spec.height_mm
    corner = 3.0 if spec.corner_mm is None else spec.corner_mm
    return CardSize(width, height, shape or Shape.RECT, corner if shape in (None, Shape.RECT) else 0)


def deck_texts(deck: Deck) -> set[str]:
    strings = collect_strings(deck.spec.model_dump(exclude={"cards"}), set())
    for card in deck.iter_cards():
        strings.update(card.fields.values())
    return strings


def painter_for(deck: Deck, fonts: FontSet, palette: Palette, bleed: float = 0.0) -> RegionPainter:
    """A painter with the deck's own fonts (subset to what the deck prints) and icons registered."""
    book = None
    if deck.spec.fonts:
        book = font_book(deck, fonts, "".join(sorted(set("".join(deck_texts(deck))) | set(BASE_CHARACTERS))))
    icons = deck_icons(deck) if deck.spec.icons else ()
    return RegionPainter(deck, fonts, palette, bleed, book, icons)


def card_prints(deck: Deck, doc, painter: RegionPainter, width: float, height: float) -> Iterator[CardPrint]:
    """Every copy of every card, fronts and backs as shared art: a design used twice is stored once.

    A generator: the art of a card exists only while its sheet is drawn, so memory stays flat
    however long the deck. A card's front is the layout its ``layout`` field names (or the deck's
    ``layout``); its back is, in this order: the front of the card its ``back_face_field`` names
    (double-faced cards), the named back its ``back`` field picks, or the deck's ``back`` — and a
    back sees the card's own fields.
    """
    spec = deck.spec

    def face(layout, ident: str, section: tuple) -> Face:
        return Face(painter, doc, layout, ident, width, height, section)

    front = face(spec.layout, "front", ("layout",)) if spec.layout is not None else None
    fronts = {name: face(entry.regions, f"layout-{name}", ("layouts", name)) for name, entry in spec.layouts.items()}
    named = {name: face(layout, f"back-{name}", ("backs", name)) for name, layout in spec.backs.items()}
    default = face(spec.back, "back", ("back",)) if spec.back else None
    for each in [*([front] if front else []), *fronts.values(), *named.values(), *([default] if default else [])]:
        each.define_shared()
    faces_by_name = {c.fields.get("name"): c for c in deck.iter_cards()} if spec.back_face_field else {}

    def front_of(card: CardData) -> Face:
        chosen = card.fields.get("layout") if fronts else None
        if chosen:
            if chosen not in fronts:
                raise InputError(f"layout {chosen!r} is not among layouts{suggest(chosen, fronts)}",
                                 source=deck.source, place=card.origin)
            return fronts[chosen]
        if front is not None:
            return front
        if len(fronts) == 1:
            return next(iter(fronts.values()))
        raise InputError(f"the card has no layout field to pick one of: {', '.join(fronts)}",
                         source=deck.source, place=card.origin)

    def back_of(card: CardData, fields: dict[str, str], number: int) -> Art | None:
        other = card.fields.get(spec.back_face_field) if spec.back_face_field else None
        if other:
            if other not in faces_by_name:
                raise InputError(f"back face {other!r} is not the name of a card in this deck"
                                 f"{suggest(other, [n for n in faces_by_name if n])}",
                                 source=deck.source, place=card.origin)
            twin = faces_by_name[other]
            return front_of(twin).art({**spec_fields, **twin.fields}, number, twin.origin, shared=True)
        chosen = card.fields.get("back")
        if chosen and spec.backs:
            if chosen not in named:
                raise InputError(f"back {chosen!r} is not among backs{suggest(chosen, named)}",
                                 source=deck.source, place=card.origin)
            return named[chosen].art(fields, number, f"{card.origin}, back {chosen}", shared=True)
        if default is None:
            return None
        return default.art(fields, number, f"{card.origin}, back", shared=True)

    spec_fields = {key: as_text(value) for key, value in spec.fields.items()}
    number = 0
    for card in deck.iter_cards():
        if card.count == 0:
            continue  # exists only as another card's back face
        fields = {**spec_fields, **card.fields}
        layout = front_of(card)
        per_copy = layout.numbered or (default is not None and default.numbered) or any(f.numbered for f in named.values())
        if not per_copy:
            number += card.count
            art = layout.art(fields, number, card.origin, shared=card.count > 1)
            yield from repeat(CardPrint(art, back_of(card, fields, number)), card.count)
            continue
        for _ in range(card.count):
            number += 1
            yield CardPrint(layout.art(fields, number, f"{card.origin}, card {number}", shared=True),
                            back_of(card, fields, number))


def print_deck(doc, deck: Deck, layout: SheetLayout, options: SheetOptions, fonts: FontSet) -> int:
    """Print a deck onto home-printer sheets in an open document (games call this too)."""
    painter = painter_for(deck, fonts, Palette())
    return print_cards(doc, layout, card_prints(deck, doc, painter, layout.card.width, layout.card.height), options)


def build_deck(deck: Deck, options: BuildOptions, fonts: FontSet) -> list[Path]:
    spec = deck.spec
    size = deck_card_size(deck)
    out_dir = options.out_dir
    if options.print_shop or options.card_pages:
        bleed = spec.print_shop.bleed_mm if options.print_shop else 0.0
        slug = SLUG_MM if options.print_shop else 0.0
        path = output_path(out_dir, f"{spec.name}-{'printshop' if options.print_shop else 'cards'}.pdf")
        page = (size.width_mm + 2 * (bleed + slug), size.height_mm + 2 * (bleed + slug))
        with open_pdf(path, Paper("card", *page), fonts, title=spec.name, lang=options.lang) as doc:
            painter = painter_for(deck, fonts, Palette(cmyk=spec.print_shop.cmyk), bleed=bleed * mm)
            w, h = size.width + 2 * painter.bleed, size.height + 2 * painter.bleed
            print_shop_pages(doc, size, bleed, slug, card_prints(deck, doc, painter, w, h))
        return [path]
    paper = PAPERS[options.paper_name or spec.sheet.paper]
    mode = options.duplex or DuplexMode(spec.print.backs)
    profile = load_profile()
    offset = options.back_offset_mm or spec.print.offset_mm or profile.offset_mm
    scale = spec.print.scale if spec.print.scale != 1.0 else profile.scale
    gap = options.gap_mm if options.gap_mm is not None else spec.sheet.gap_mm
    layout = SheetLayout(paper, size, gap, spec.sheet.margin_mm)
    path = output_path(out_dir, f"{spec.name}-{options.paper_name or spec.sheet.paper}.pdf")
    with open_pdf(path, paper, fonts, title=spec.name, lang=options.lang) as doc:
        marks = options.cut_marks or CutMarks(spec.sheet.cut_marks)
        print_deck(doc, deck, layout, SheetOptions(duplex=mode, cut_marks=marks, back_offset_mm=tuple(offset),
                                                   back_scale=scale), fonts)
    return [path]


def deck_target(path: Path) -> Target:
    """A deck file as a build target; loading waits until the options (``--only``…) are known."""

    decks: dict[BuildOptions, Deck] = {}

    def loaded(options: BuildOptions) -> Deck:  # read once per build, for its texts and its pages
        if options not in decks:
            decks[options] = select(load_deck(path, allow_outside=options.allow_outside), options.only)
        return decks[options]

    return Target(
        id=str(path),
        summary=f"custom deck {path}",
        products=(path.stem,),
        texts=lambda options: deck_texts(loaded(options)),
        build=lambda options, fonts: build_deck(loaded(options), options, fonts),
    )
