"""Building a user's deck file into a PDF: home sheets (duplex, fold or fronts only) or print shop."""

from __future__ import annotations

from itertools import repeat
from pathlib import Path
from typing import Iterator

from reportlab.lib.units import mm

from kkprint.build import BuildOptions, Target
from kkprint.deck.load import CardData, Deck, load_deck, select
from kkprint.deck.render import Face, Palette, RegionPainter
from kkprint.engine.cards import Art, CardPrint, SheetOptions, print_cards, print_shop_pages
from kkprint.engine.document import open_pdf
from kkprint.engine.fonts import FontSet, collect_strings
from kkprint.engine.geometry import PAPERS, CardSize, DuplexMode, Paper, SheetLayout, card_size
from kkprint.engine.marks import CutMarks
from kkprint.errors import InputError
from kkprint.paths import output_path
from kkprint.printer import load_profile

SLUG_MM = 10.0


def deck_card_size(deck: Deck) -> CardSize:
    spec = deck.spec.card
    if spec.size:
        preset = card_size(spec.size)
        corner = preset.corner_mm if spec.corner_mm is None else spec.corner_mm
        return CardSize(preset.width_mm, preset.height_mm, preset.shape, corner)
    return CardSize(spec.width_mm, spec.height_mm, corner_mm=3.0 if spec.corner_mm is None else spec.corner_mm)


def deck_texts(deck: Deck) -> set[str]:
    strings = collect_strings(deck.spec.model_dump(exclude={"cards"}), set())
    for card in deck.iter_cards():
        strings.update(card.fields.values())
    return strings


def card_prints(deck: Deck, doc, painter: RegionPainter, width: float, height: float) -> Iterator[CardPrint]:
    """Every copy of every card, fronts and backs as shared art: a design used twice is stored once.

    A generator: the art of a card exists only while its sheet is drawn, so memory stays flat
    however long the deck. A card's back is, in this order: the front of the card its
    ``back_face_field`` names (double-faced cards), the named back its ``back`` field picks,
    or the deck's ``back``.
    """
    spec = deck.spec
    front = Face(painter, doc, spec.layout, "front", width, height)
    named = {name: Face(painter, doc, layout, f"back-{name}", width, height) for name, layout in spec.backs.items()}
    default = Face(painter, doc, spec.back, "back", width, height) if spec.back else None
    for face in [front, *named.values(), *([default] if default else [])]:
        face.define_shared()
    faces_by_name = {c.fields.get("name"): c for c in deck.iter_cards()} if spec.back_face_field else {}
    shared: dict[str, Art] = {}

    def once(key: str, make) -> Art:
        if key not in shared:
            shared[key] = make()
        return shared[key]

    def back_of(card: CardData) -> Art | None:
        other = card.fields.get(spec.back_face_field) if spec.back_face_field else None
        if other:
            if other not in faces_by_name:
                raise InputError(f"back face {other!r} is not the name of a card in this deck",
                                 source=deck.source, place=card.origin)
            twin = faces_by_name[other]
            return once(f"face-{other}", lambda: front.art({**spec.fields, **twin.fields}, f"deck-face-{other}", twin.origin))
        chosen = card.fields.get("back")
        if chosen and spec.backs:
            if chosen not in named:
                raise InputError(f"back {chosen!r} is not among backs: {', '.join(spec.backs)}",
                                 source=deck.source, place=card.origin)
            return once(f"back-{chosen}", lambda: named[chosen].art(dict(spec.fields), f"deck-back-{chosen}", f"back {chosen}"))
        if default is None:
            return None
        return once("back", lambda: default.art(dict(spec.fields), "deck-back", "back layout"))

    for index, card in enumerate(deck.iter_cards()):
        if card.count == 0:
            continue  # exists only as another card's back face
        fields = {**spec.fields, **card.fields}
        art = front.art(fields, f"deck-front-{index}" if card.count > 1 else None, card.origin)
        yield from repeat(CardPrint(art, back_of(card)), card.count)


def print_deck(doc, deck: Deck, layout: SheetLayout, options: SheetOptions, fonts: FontSet) -> int:
    """Print a deck onto home-printer sheets in an open document (games call this too)."""
    painter = RegionPainter(deck, fonts, Palette())
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
            painter = RegionPainter(deck, fonts, Palette(cmyk=spec.print_shop.cmyk), bleed=bleed * mm)
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
