"""Building a user's deck file into a PDF: home sheets (duplex, fold or fronts only) or print shop."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from kkprint.build import BuildOptions, Target
from kkprint.deck.load import Deck, load_deck, select
from kkprint.deck.render import Face, Palette, RegionPainter
from kkprint.engine.cards import CardPrint, SheetOptions, print_cards, print_shop_pages
from kkprint.engine.document import open_pdf
from kkprint.engine.fonts import FontSet, collect_strings
from reportlab.lib.units import mm

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
        return CardSize(preset.width_mm, preset.height_mm, preset.shape, spec.corner_mm if spec.corner_mm != 3 else preset.corner_mm)
    return CardSize(spec.width_mm, spec.height_mm, corner_mm=spec.corner_mm)


def deck_texts(deck: Deck) -> set[str]:
    strings = collect_strings(deck.spec.model_dump(exclude={"cards"}), set())
    for card in deck.iter_cards():
        strings.update(card.fields.values())
    return strings


def card_prints(deck: Deck, doc, painter: RegionPainter, width: float, height: float) -> Iterator[CardPrint]:
    """Every copy of every card, fronts and backs as shared art: a design used twice is stored once.

    A generator: the art of a card exists only while its sheet is drawn, so memory stays flat
    however long the deck."""
    front = Face(painter, doc, deck.spec.layout, "front", width, height)
    backs = {name: Face(painter, doc, layout, f"back-{name}", width, height) for name, layout in deck.spec.backs.items()}
    default_back = Face(painter, doc, deck.spec.back, "back", width, height) if deck.spec.back else None
    for face in [front, *backs.values(), *([default_back] if default_back else [])]:
        face.define_shared()
    back_arts = {}
    for index, card in enumerate(deck.iter_cards()):
        where = card.origin
        chosen = card.fields.get("back")
        if chosen and chosen in backs:
            back_face, back_key = backs[chosen], f"back-{chosen}"
        elif chosen and deck.spec.backs:
            raise InputError(f"back {chosen!r} is not among backs: {', '.join(deck.spec.backs)}",
                             source=deck.source, place=where)
        else:
            back_face, back_key = default_back, "back"
        if back_face is not None and back_key not in back_arts:
            back_arts[back_key] = back_face.art({}, f"deck-{back_key}", f"{back_key} layout")
        # a card printed more than once is stored once; a unique card is drawn in place
        art = front.art(card.fields, f"deck-front-{index}" if card.count > 1 else None, where)
        item = CardPrint(art, back_arts.get(back_key) if back_face else None)
        for _ in range(card.count):
            yield item


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
        painter = RegionPainter(deck, fonts, Palette())
        prints = card_prints(deck, doc, painter, size.width, size.height)
        marks = options.cut_marks or CutMarks(spec.sheet.cut_marks)
        print_cards(doc, layout, prints, SheetOptions(duplex=mode, cut_marks=marks,
                                                      back_offset_mm=tuple(offset), back_scale=scale))
    return [path]


def deck_target(path: Path) -> Target:
    """A deck file as a build target; loading waits until the options (``--only``…) are known."""

    def loaded(options: BuildOptions) -> Deck:
        return select(load_deck(path, allow_outside=options.allow_outside), options.only)

    return Target(
        id=str(path),
        summary=f"custom deck {path}",
        products=(path.stem,),
        texts=lambda options: deck_texts(loaded(options)),
        build=lambda options, fonts: build_deck(loaded(options), options, fonts),
    )
