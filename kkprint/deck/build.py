"""Building a user's deck file into a PDF: home sheets (duplex, fold or fronts only) or print shop."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from itertools import chain, repeat
from pathlib import Path

from reportlab.lib.units import mm

from kkprint.base import progress
from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import N_, Msg
from kkprint.base.paths import SHEETS_DIR, output_path
from kkprint.base.printer import load_profile
from kkprint.base.records import field_values, record
from kkprint.base.yamlio import load_yaml_file
from kkprint.deck.data import CardData, as_text
from kkprint.deck.expr import CHANGES_CASE, case_variants
from kkprint.deck.load import CardRef, Deck, card_place, load_deck, select
from kkprint.deck.model import DeckFile, SheetFile
from kkprint.deck.preflight import Finding, attach, collecting, column_checks, scratch
from kkprint.deck.render import Face, RegionPainter, deck_icons, font_book, is_static
from kkprint.engine.cards import Art, CardPrint, SheetOptions, fold_layout, print_cards, print_shop_pages
from kkprint.engine.document import Document, engine_texts, open_pdf
from kkprint.engine.fonts import BASE_CHARACTERS, FontSet, bundled_coverage, collect_strings, prepare_fonts
from kkprint.engine.geometry import PAPERS, CardSize, DuplexMode, Paper, PlacedSlot, Shape, SheetLayout, card_size
from kkprint.engine.inks import Inks, check_profile
from kkprint.engine.job import BuildOptions, Target
from kkprint.engine.marks import CutMarks

SLUG_MM = 10.0
GAME_BLEED_MM = 3.0


def deck_card_size(deck: Deck) -> CardSize:
    spec = deck.spec.card
    shape = Shape(spec.shape) if spec.shape else None
    if spec.size:
        preset = card_size(spec.size)
        corner = preset.corner_mm if spec.corner_mm is None else spec.corner_mm
        return CardSize(preset.width_mm, preset.height_mm, shape or preset.shape, corner)
    width, height = spec.w or spec.width_mm, spec.h or spec.height_mm
    assert width is not None and height is not None  # CardSpec's check: without a preset, both are given
    corner = 3.0 if spec.corner_mm is None else spec.corner_mm
    return CardSize(width, height, shape or Shape.RECT, corner if shape in (None, Shape.RECT) else 0)


def stays_inside(layout, card: CardSize) -> bool:
    """Whether every region of a face lies within the card's rounded outline, so clipping each
    card to that outline would change nothing. Only what is certain counts: unrotated boxes
    (strokes included) clear of the corners' arcs; lines, polygons and rotated regions are not
    looked into."""
    if card.shape is not Shape.RECT:
        return False
    inset = card.corner_mm * (1 - 0.5**0.5)  # where a corner's arc is nearest the box's corner
    for region in layout.values():
        if region.rotation % 360 or getattr(region, "points", None) or region.dynamic:
            return False
        grow = getattr(region, "stroke_width", 0) * 25.4 / 72 / 2  # half a stroke (pt) lies outside its box
        if (
            region.x - grow < inset
            or region.y - grow < inset
            or region.x + region.w + grow > card.width_mm - inset
            or region.y + region.h + grow > card.height_mm - inset
        ):
            return False
    return True


def spec_texts(spec: DeckFile) -> set[str]:
    """Every string of a deck's file but its cards (read by their fields): its keys and values,
    as ``asdict`` would give them, without the copy it makes."""
    return collect_strings({**field_values(spec), "cards": []}, set())


def deck_texts(deck: Deck) -> set[str]:
    strings = spec_texts(deck.spec)
    for card in deck.iter_cards():
        strings.update(card.fields.values())
    for table in deck.tables.values():  # what lookup() may print
        strings.update(table.rows)
        strings.update(cell for row in table.rows.values() for cell in row)
    if any(CHANGES_CASE.search(text) for text in strings if "${" in text):  # and what upper() … make of it
        strings.add(case_variants(set().union(*strings)))
    return strings


def bundled_texts(deck: Deck) -> set[str]:
    """What the bundled font is prepared for: every character the deck prints that it has. One it
    lacks is drawn by the deck's own font (a symbol font may hold characters no Japanese font
    has), or refused where a card prints it, naming the card and the region (preparing the font
    could only name the character)."""
    return {"".join(sorted(bundled_coverage().common(set("".join(deck_texts(deck))))))}


def painter_for(deck: Deck, fonts: FontSet, bleed: float = 0.0) -> RegionPainter:
    """A painter with the deck's own fonts (subset to what the deck prints) and icons registered."""
    book = None
    if deck.spec.fonts:
        book = font_book(deck, fonts, "".join(sorted(set("".join(deck_texts(deck))) | set(BASE_CHARACTERS))))
    icons = deck_icons(deck) if deck.spec.icons else ()
    return RegionPainter(deck, fonts, bleed, book, icons)


def one_back(deck: Deck) -> bool:
    """Whether every card of ``deck`` has the same back: the deck's one back (no named backs,
    no double-faced cards) drawn from regions that are the same on every card — the drawing the
    build stores once and every card uses."""
    spec = deck.spec
    if not spec.back or spec.backs or spec.back_face_field:
        return False
    return all(is_static(region, deck.columns) for region in spec.back.values())


def card_prints(
    deck: Deck, doc, painter: RegionPainter, width: float, height: float, *, checked: bool = True
) -> Iterator[CardPrint]:
    """Every copy of every card, fronts and backs as shared art: a design used twice is stored once.

    A generator: the art of a card exists only while its sheet is drawn, so memory stays flat
    however long the deck. A card's front is the layout its ``layout`` field names (or the deck's
    ``layout``); its back is, in this order: the front of the card its ``back_face_field`` names
    (double-faced cards), the named back its ``back`` field picks, or the deck's ``back`` — and a
    back sees the card's own fields.

    The deck's preflight watches the drawing (:mod:`kkprint.deck.preflight`): a card that cannot
    be drawn is noted and the others are still drawn, so one build finds every card's problems.
    Not ``checked``: a picture of the cards (a kit's set-up), which the file printing them checks.
    """
    every = chain.from_iterable(
        copies for _, copies in prints_by_card(deck, doc, painter, width, height, checked=checked)
    )
    yield from progress.counted(every, Msg("drawing cards"), lambda: deck.total)  # a bar at a terminal


def back_kind(deck: Deck, card: CardData) -> str | None:
    """What prints behind ``card``: another card's front (``twin``, double-faced cards), one of
    the deck's named backs (``named``), the deck's one back (``default``), or nothing."""
    spec = deck.spec
    if spec.back_face_field and card.fields.get(spec.back_face_field):
        return "twin"
    if card.fields.get("back") and spec.backs:
        return "named"
    return "default" if spec.back else None


def prints_by_card(
    deck: Deck, doc, painter: RegionPainter, width: float, height: float, *, checked: bool = True
) -> Iterator[tuple[int, Iterator[CardPrint]]]:
    """:func:`card_prints` card by card: each card that prints, as its place among the deck's
    cards (counted from 0), with its copies — none for a card that cannot be laid out (the
    preflight has noted why). Copies left untaken are never drawn, and later cards keep their
    numbers."""
    spec = deck.spec
    size = deck_card_size(deck)
    if checked:
        trimmed = CardSize(
            (width - 2 * painter.bleed) / mm, (height - 2 * painter.bleed) / mm, size.shape, size.corner_mm
        )
        checks = attach(deck, doc, painter, trimmed)
        blanks = checks.blanks
    else:  # (a quarter of drawing a card went to checking it again)
        checks, blanks = None, column_checks(deck).blanks

    def face(layout, ident: str, section: tuple) -> Face:
        return Face(painter, doc, layout, ident, width, height, section, stays_inside(layout, size))

    front = face(spec.layout, "front", ("layout",)) if spec.layout is not None else None
    fronts = {name: face(entry.regions, f"layout-{name}", ("layouts", name)) for name, entry in spec.layouts.items()}
    named = {name: face(layout, f"back-{name}", ("backs", name)) for name, layout in spec.backs.items()}
    default = face(spec.back, "back", ("back",)) if spec.back else None
    for each in [*([front] if front else []), *fronts.values(), *named.values(), *([default] if default else [])]:
        each.define_shared()
        doc.on_new_file.append(each.define_shared)  # (a form lives in one file)
    faces_by_name = {c.fields.get("name"): c for c in deck.whole_deck()} if spec.back_face_field else {}

    def front_of(card: CardData) -> Face:
        chosen = card.fields.get("layout") if fronts else None
        if chosen:
            if chosen not in fronts:
                raise InputError(
                    Msg("layout '{chosen}' is not among layouts{hint}", chosen=chosen, hint=suggest(chosen, fronts)),
                    source=deck.source,
                    place=card.origin,
                )
            return fronts[chosen]
        if front is not None:
            return front
        if len(fronts) == 1:
            return next(iter(fronts.values()))
        raise InputError(
            Msg("the card has no layout field to pick one of: {names}", names=", ".join(fronts)),
            source=deck.source,
            place=card.origin,
        )

    def default_back(fields: dict[str, str], number: int, where: str | Msg, ref: CardRef) -> Art | None:
        """The deck's one back (or none), for a card that names no back of its own."""
        if default is None:
            return None
        return default.art(fields, number, Msg("{card}, back", card=where), True, ref)

    def back_for(card: CardData) -> Callable[[dict[str, str], int, str | Msg, CardRef], Art | None]:
        """The card's back, chosen now (a back that names nothing is an error of this card):
        a function giving its art for the card's fields, printed number, place in errors and
        reference for the preflight."""
        other = card.fields.get(spec.back_face_field) if spec.back_face_field else None
        chosen = card.fields.get("back")
        kind = back_kind(deck, card)
        if other and chosen and spec.backs:  # (two backs for one card: the named one, unchecked, was dropped)
            raise InputError(
                Msg(
                    "the card has two backs: {field} '{other}' (that card's front) and back '{chosen}'; "
                    "leave one of them empty",
                    field=spec.back_face_field,
                    other=other,
                    chosen=chosen,
                ),
                source=deck.source,
                place=card.origin,
            )
        if kind == "twin" and other:  # (back_kind's word, narrowed for the type checker)
            if other not in faces_by_name:
                raise InputError(
                    Msg(
                        "back face '{other}' is not the name of a card in this deck{hint}",
                        other=other,
                        hint=suggest(other, [n for n in faces_by_name if n]),
                    ),
                    source=deck.source,
                    place=card.origin,
                )
            twin = faces_by_name[other]
            twin_face, twin_fields = front_of(twin), {**spec_fields, **twin.fields}

            def twin_art(fields: dict[str, str], number: int, where: str | Msg, ref: CardRef) -> Art:
                names = {key: value for key, value in fields.items() if key.startswith("card.")}
                return twin_face.art({**twin_fields, **names}, number, twin.origin, True, ref)

            return twin_art
        if kind == "named" and chosen:
            if chosen not in named:
                raise InputError(
                    Msg("back '{chosen}' is not among backs{hint}", chosen=chosen, hint=suggest(chosen, named)),
                    source=deck.source,
                    place=card.origin,
                )
            back = named[chosen]
            return lambda fields, number, where, ref: back.art(
                fields, number, Msg("{card}, back '{name}'", card=where, name=chosen), True, ref
            )
        return default_back

    # what every card reads besides its fields: deck.name, deck.version, today; card.total; and
    # each column no card has, read as empty (the preflight has said so, and each card's other
    # problems are still found)
    spec_fields = {
        **blanks,
        **deck.deck_names(),
        **{key: as_text(value) for key, value in spec.fields.items()},
    }
    total = str(deck.card_total)
    numbered_backs = (default is not None and default.numbered) or any(f.numbered for f in named.values())
    numbered_twins = bool(spec.back_face_field) and any(
        f.numbered for f in [*fronts.values(), *([front] if front else [])]
    )

    def copies(card: CardData, layout: Face, back_of, fields: dict[str, str], first: int, ref: CardRef):
        """A card drawn copy by copy (its faces read card.number or card.copy, or have ranges)."""
        for copy in range(1, card.count + 1):
            number = first + copy - 1
            copy_fields = {**fields, "card.number": str(number), "card.copy": str(copy)}
            where = card_place(card, number)
            copy_ref = ref._replace(number=number, first=first)  # (a copy's own problems name it)
            front_art = layout.art(copy_fields, number, where, True, copy_ref)
            yield CardPrint(front_art, back_of(copy_fields, number, where, copy_ref), shape)

    shape = size.shape
    for index, (row, first, card) in enumerate(deck.numbered()):
        if card.count == 0:
            continue  # exists only as another card's back face
        number = first + card.count - 1  # the printed number of its last copy
        ref = CardRef(first, card.fields.get("name") or None, card.origin)
        try:
            layout, back_of = front_of(card), back_for(card)
        except InputError as err:
            if checks is None:
                raise
            checks.card_failed(ref, err)
            yield index, iter(())
            continue
        fields = {**spec_fields, **card.fields, "card.row": str(row), "card.total": total}
        if layout.numbered or numbered_backs or numbered_twins:
            yield index, copies(card, layout, back_of, fields, first, ref)
            continue
        fields["card.number"], fields["card.copy"] = str(first), "1"
        where = card_place(card, first)
        art = layout.art(fields, number, where, card.count > 1, ref)
        yield index, repeat(CardPrint(art, back_of(fields, number, where, ref), shape), card.count)


def first_prints(
    deck: Deck, doc, painter: RegionPainter, width: float, height: float
) -> Iterator[tuple[int, CardPrint | None]]:
    """The first printed copy of each card that prints, in the deck's order, with the card's place
    among the deck's cards: one picture per card (the studio's grid), numbered as on paper; None
    for a card that cannot be laid out (the preflight says why). Later copies are never drawn."""
    for index, copies in prints_by_card(deck, doc, painter, width, height):
        yield index, next(copies, None)


def print_deck(doc, deck: Deck, layout: SheetLayout, options: SheetOptions, fonts: FontSet) -> int:
    """Print a deck onto home-printer sheets in an open document (games call this too); a card
    that does not fit the paper names the deck it comes from."""
    painter = painter_for(deck, fonts)
    try:
        layout.require_fit()
    except InputError as err:
        raise err.located(source=deck.source, place="card") from None
    printed = print_cards(doc, layout, card_prints(deck, doc, painter, layout.card.width, layout.card.height), options)
    painter.keep_resolved()
    return printed


def shop_paper(size: CardSize, bleed_mm: float, slug_mm: float) -> Paper:
    """The page of one card with its bleed and a slug for crop marks."""
    return Paper("card", size.width_mm + 2 * (bleed_mm + slug_mm), size.height_mm + 2 * (bleed_mm + slug_mm))


def print_shop_deck(doc, deck: Deck, size: CardSize, bleed_mm: float, slug_mm: float, fonts: FontSet, guides: bool):
    """Print a deck one card a page (with bleed, and a slug with crop marks for a print shop)."""
    painter = painter_for(deck, fonts, bleed=bleed_mm * mm)
    w, h = size.width + 2 * painter.bleed, size.height + 2 * painter.bleed
    printed = print_shop_pages(doc, size, bleed_mm, slug_mm, card_prints(deck, doc, painter, w, h), guides=guides)
    painter.keep_resolved()
    return printed


def write_shop_pages(
    path: Path,
    deck: Deck,
    size: CardSize,
    bleed_mm: float,
    slug_mm: float,
    fonts: FontSet,
    options: BuildOptions,
    title: str,
    inks: Inks | None = None,
) -> Path:
    """One card per page (with bleed, and a slug with crop marks for a print shop)."""
    paper, inks = shop_paper(size, bleed_mm, slug_mm), None if options.greyscale else inks
    with open_pdf(path, paper, fonts, title=title, lang=options.lang, inks=inks) as doc:
        print_shop_deck(doc, deck, size, bleed_mm, slug_mm, fonts, options.guides)
    return path


def write_game_deck(
    stem: str, deck: Deck, layout: SheetLayout, sheet: SheetOptions, fonts: FontSet, options: BuildOptions, title: str
) -> Path:
    """A game's cards: sheets for a home printer, or with ``--print-shop`` one card per page with
    3 mm bleed, TrimBox/BleedBox, crop marks and CMYK colour."""
    if options.print_shop:
        return write_shop_pages(
            options.shop_path(stem),
            deck,
            layout.card,
            GAME_BLEED_MM,
            SLUG_MM,
            fonts,
            options,
            title,
            Inks("cmyk"),
        )
    path = options.path(stem)
    with open_pdf(path, options.paper, fonts, title=title, lang=options.lang) as doc:
        print_deck(doc, deck, layout, sheet, fonts)
    return path


@record
class DeckJob:
    """How a deck prints under a build's options: its file, paper and inks, and what goes on
    the pages of an open document (a build's, or the never-written one of ``kkprint check``)."""

    path: Path
    paper: Paper
    inks: Inks | None
    draw: Callable[[Document, FontSet], object]


def deck_job(deck: Deck, options: BuildOptions) -> DeckJob:
    spec = deck.spec
    size = deck_card_size(deck)
    out_dir = options.out_dir
    grey = "-grey" if options.greyscale else ""  # (the duplex mode joins it for sheets, below)
    if options.print_shop or options.card_pages:
        bleed = spec.print_shop.bleed_mm if options.print_shop or options.card_bleed else 0.0
        slug = SLUG_MM if options.print_shop else 0.0
        return DeckJob(
            output_path(out_dir, f"{spec.name}-{'printshop' if options.print_shop else 'cards'}{grey}.pdf"),
            shop_paper(size, bleed, slug),
            shop_inks(deck) if options.print_shop and not options.greyscale else None,
            lambda doc, fonts: print_shop_deck(doc, deck, size, bleed, slug, fonts, options.guides),
        )
    mode = options.duplex or DuplexMode(spec.print.backs)
    profile = load_profile()
    offset = options.back_offset_mm or spec.print.offset_mm or profile.offset_mm
    scale = spec.print.scale if spec.print.scale != 1.0 else profile.scale
    layout = sheet_layout(deck, options, size, mode)
    marks = options.cut_marks or CutMarks(spec.sheet.cut_marks)
    sheet = SheetOptions(
        duplex=mode,
        cut_marks=marks,
        back_offset_mm=offset,
        back_scale=scale,
        guides=options.guides,
        content_backs=spec.print.content_backs,
    )
    mode_name = f"-{mode.value}" if mode is not DuplexMode.LONG_EDGE else ""
    return DeckJob(
        output_path(out_dir, f"{spec.name}-{layout.paper.name}{mode_name}{grey}.pdf"),
        layout.paper,
        None,
        lambda doc, fonts: print_deck(doc, deck, layout, sheet, fonts),
    )


def build_deck(deck: Deck, options: BuildOptions, fonts: FontSet) -> list[Path]:
    job = deck_job(deck, options)
    with open_pdf(
        job.path,
        job.paper,
        fonts,
        title=deck.spec.name,
        lang=options.lang,
        inks=job.inks,
        pages_per_file=options.pages_per_file,
    ) as doc:
        job.draw(doc, fonts)
    return doc.paths


def check_deck(deck: Deck, options: BuildOptions | None = None, fonts: FontSet | None = None) -> list[Finding]:
    """Every preflight finding of a deck (:mod:`kkprint.deck.preflight`), exactly as a build with
    ``options`` would make them: the same drawing, into a PDF that is never written. A deck that
    cannot be drawn at all (a font that cannot be read, cards that fit no sheet) raises its error."""
    options = options or BuildOptions()
    fonts = fonts or prepare_fonts([*engine_texts(), *bundled_texts(deck)])
    job = deck_job(deck, options)
    with collecting(options) as found, scratch(job.paper, fonts, options.lang) as doc:
        job.draw(doc, fonts)
    return [finding for checks in found for finding in checks.findings]


def _paper(choice) -> Paper:
    return PAPERS[choice] if isinstance(choice, str) else Paper.custom(round(choice.w, 2), round(choice.h, 2))


def sheet_layout(deck: Deck, options: BuildOptions, size: CardSize, mode: DuplexMode) -> SheetLayout:
    """Where the cards go: the deck's sheet layout file, or the grid that holds the most cards —
    turned on their side when that holds more (``sheet: {rotate: auto}``)."""
    sheet = deck.spec.sheet
    gap = options.gap_mm if options.gap_mm is not None else sheet.gap_mm
    if sheet.layout:
        slots_file = load_sheet_file(deck, sheet.layout)
        if mode is DuplexMode.FOLD:
            raise InputError(
                Msg("fold mode lays cards out itself; drop sheet.layout or choose a duplex mode"),
                source=deck.source,
                place="sheet.layout",
            )
        if slots_file.card is not None and (
            abs(slots_file.card.w - size.width_mm) > 0.5 or abs(slots_file.card.h - size.height_mm) > 0.5
        ):
            raise InputError(
                Msg(
                    "sheet layout '{layout}' is made for {w:g}×{h:g} mm cards, not {width_mm:g}×{height_mm:g}",
                    layout=sheet.layout,
                    w=slots_file.card.w,
                    h=slots_file.card.h,
                    width_mm=size.width_mm,
                    height_mm=size.height_mm,
                ),
                source=deck.source,
                place="sheet.layout",
            )
        placed = tuple(PlacedSlot(slot.x, slot.y, slot.rotate == 90) for slot in slots_file.slots)
        layout = SheetLayout(_paper(slots_file.paper), size, gap, sheet.margin_mm, placed=placed)
        try:
            layout.require_fit()
        except InputError as err:
            raise err.located(source=deck.source, place="sheet.layout") from None
        return layout
    paper = PAPERS[options.paper_name] if options.paper_name else _paper(sheet.paper)
    upright = SheetLayout(paper, size, gap, sheet.margin_mm)
    turned = replace(upright, rotated=True)
    if sheet.rotate == "always":
        return turned
    if sheet.rotate == "never":
        return upright
    count = (
        (lambda layout: fold_layout(layout).per_sheet) if mode is DuplexMode.FOLD else (lambda layout: layout.per_sheet)
    )
    return turned if count(turned) > count(upright) else upright


def load_sheet_file(deck: Deck, name: str) -> SheetFile:
    """A sheet layout: a file next to the deck, or a built-in one (templates/sheets)."""
    builtin = SHEETS_DIR / f"{name}.yaml"
    if "/" not in name and not name.endswith((".yaml", ".yml")) and builtin.is_file():
        path = builtin
    elif "/" not in name and not name.endswith((".yaml", ".yml")):
        known = sorted(p.stem for p in SHEETS_DIR.glob("*.yaml"))
        raise InputError(
            Msg("unknown sheet layout '{name}'{hint}", name=name, hint=suggest(name, known)),
            source=deck.source,
            place="sheet.layout",
        )
    else:
        path = deck.resolve(name, N_("sheet layout"), "sheet.layout")
    from kkprint.base.models import validate

    return validate(SheetFile, load_yaml_file(path), str(path))


def shop_inks(deck: Deck) -> Inks | None:
    """CMYK through the deck's ICC profile, or by the plain formula; None keeps RGB."""
    shop = deck.spec.print_shop
    if shop.icc:
        path = deck.resolve(shop.icc, N_("ICC profile"), "print_shop.icc")
        try:
            check_profile(path)
        except InputError as err:
            raise err.located(source=deck.source, place="print_shop.icc") from None
        return Inks("cmyk", path)
    return Inks("cmyk") if shop.cmyk else None


def loaded_target(deck: Deck) -> Target:
    """An already loaded (perhaps narrowed) deck as a build target."""
    return Target(
        id=deck.source,
        summary=Msg("custom deck {path}", path=deck.source),
        products=(deck.spec.name,),
        texts=lambda options: bundled_texts(deck),
        build=lambda options, fonts: build_deck(deck, options, fonts),
    )


def deck_target(path: Path) -> Target:
    """A deck file as a build target; loading waits until the options (``--only``…) are known."""

    decks: dict[BuildOptions, Deck] = {}

    def loaded(options: BuildOptions) -> Deck:  # read once per build, for its texts and its pages
        if options not in decks:
            decks[options] = select(load_deck(path, allow_outside=options.allow_outside), options.only)
        return decks[options]

    return Target(
        id=str(path),
        summary=Msg("custom deck {path}", path=path),
        products=(path.stem,),
        texts=lambda options: bundled_texts(loaded(options)),
        build=lambda options, fonts: build_deck(loaded(options), options, fonts),
        page_names=lambda options, pdf: card_page_names(loaded(options), pdf) if options.card_pages else None,
    )


def card_page_names(deck: Deck, pdf: Path) -> list[str]:
    """The pages of a deck printed one card a page, named by the card each shows, by its number
    as printed (every copy counted, as ``check``, the studio and export's ``${n}`` number it):
    ``004`` for the front of card 4, ``004-back`` for its back. (Names that do not fit the PDF's
    pages are left for page numbers by ``preview.render_pages``.)"""
    return [
        f"{number + copy:03d}{side}"
        for _, number, card in deck.numbered()
        for copy in range(card.count)
        for side in ("", "-back")[: 2 if back_kind(deck, card) else 1]
    ]
