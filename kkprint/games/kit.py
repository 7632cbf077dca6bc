"""Each game as a complete print-and-play kit: a start file that opens the build with a cover
sheet (what is in the set, how to print each file, what to cut, what to bring, the set-up) and
the game's rules on paper.

The words are data beside each game (``data/GAME/rules.yaml``: the rules as headings,
paragraphs, lists, worked examples and tables, and the kit's lists), in Japanese and English;
the cover's own words and the layout are the engine's (:mod:`kkprint.engine.cover`,
:mod:`kkprint.engine.booklet`). A game's ``build`` writes its components, describes each as a
:class:`~kkprint.engine.cover.KitFile`, and calls :func:`write_start`, which writes the start
file and lists it first.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import is_dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.lib.units import mm

from kkprint.base import progress
from kkprint.base.choices import DuplexMode
from kkprint.base.definitions import Definition, Names, load_definition
from kkprint.base.i18n import N_, Msg, tr
from kkprint.base.paths import DATA_DIR
from kkprint.base.records import field_values
from kkprint.engine import booklet
from kkprint.engine.booklet import BookletStyle, Picture, Section
from kkprint.engine.cards import CardPrint
from kkprint.engine.cover import Kit, KitFile, Printing, cover, cover_texts, listed
from kkprint.engine.fonts import FontSet
from kkprint.engine.geometry import CardSize
from kkprint.engine.job import BuildOptions

# --- the rules file ------------------------------------------------------------------------------


class TableSpec(Definition):
    widths: list[float]
    rows: list[list[Names]]


BLOCK_KINDS = ("heading", "subheading", "text", "items", "steps", "example", "table")


class RuleBlock(Definition):
    """One block of the rules: exactly one of its keys (an example may have a title)."""

    heading: Names | None = None
    subheading: Names | None = None
    text: Names | None = None
    items: list[Names] | None = None
    steps: list[Names] | None = None
    example: Names | None = None
    title: Names | None = None  # an example's title
    table: TableSpec | None = None

    def __post_init__(self) -> None:
        kinds = [key for key in BLOCK_KINDS if getattr(self, key)]
        if len(kinds) != 1:
            raise ValueError(
                Msg(
                    "a rules block is one of {names}, not {found}",
                    names=", ".join(BLOCK_KINDS),
                    found=" + ".join(kinds) or "—",
                )
            )
        if self.title is not None and self.example is None:
            raise ValueError(Msg("a title belongs to an example"))

    def block(self, lang: str) -> booklet.Block:
        if self.heading:
            return booklet.Heading(self.heading(lang))
        if self.subheading:
            return booklet.Heading(self.subheading(lang), level=2)
        if self.text:
            return booklet.Paragraph(self.text(lang))
        if self.items or self.steps:
            return booklet.Items(tuple(item(lang) for item in (self.items or self.steps or [])), bool(self.steps))
        if self.example:
            return booklet.Example(self.example(lang), self.title(lang) if self.title else "")
        assert self.table is not None  # (the one kind left)
        rows = tuple(tuple(cell(lang) for cell in row) for row in self.table.rows)
        return booklet.Table(rows, tuple(self.table.widths))


class KitSpec(Definition):
    contents: dict[str, Names]  # a product's stem -> what is in it ({count} where the build decides)
    cut: list[Names]
    bring: list[Names]
    setup: list[Names]
    picture: Names | None = None  # the caption of the picture of the laid-out game


class RulesFile(Definition):
    game: Names  # the game's name on the cover and at the foot of every page
    title: Names
    subtitle: Names
    accent: str = "#7a1f2b"
    kit: KitSpec
    rules: list[RuleBlock]


# Each build target's rules and kit, beside its game's definition in data/.
RULES_FILES = {
    "kardinal": "kardinal/rules.yaml",
    "webofpower": "webofpower/rules.yaml",
    "webofpower-board": "webofpower/board-rules.yaml",
    "court": "court/rules.yaml",
    "culdcept": "culdcept/rules.yaml",
}


@lru_cache(maxsize=8)
def load_rules(game_id: str) -> RulesFile:
    """The rules and kit of build target ``game_id``."""
    return load_definition(RulesFile, DATA_DIR / RULES_FILES[game_id])


def rules_section(game_id: str, lang: str) -> Section:
    rules = load_rules(game_id)
    return Section(rules.title(lang), [block.block(lang) for block in rules.rules], rules.subtitle(lang), columns=2)


def kit_texts(game_id: str, lang: str) -> set[str]:
    """What a start file may print in ``lang``: its rules, its kit and the cover's words."""
    words = _words_in(load_rules(game_id), lang)
    notes = {tr(note, lang) for note in (PRINT_SHOP_NOTE, CONTENT_BACKS_NOTE)}
    return words | cover_texts(lang) | notes


def _words_in(value: object, lang: str) -> set[str]:
    """Every word of the data in ``lang`` (a {ja, en} pair gives its ``lang`` side only); a
    dataclass is read as ``asdict`` would give it, without the copy it makes."""
    if is_dataclass(value):
        value = field_values(value)
    if isinstance(value, dict):
        if "ja" in value and "en" in value:
            return {value[lang]}
        return set().union(*(_words_in(item, lang) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_words_in(item, lang) for item in value))
    return set()


def contents(game_id: str, stem: str, lang: str, **values: object) -> str:
    return load_rules(game_id).kit.contents[stem](lang).format(**values)


def caption(game_id: str, lang: str) -> str:
    picture = load_rules(game_id).kit.picture
    return picture(lang) if picture else ""


# --- describing what a build wrote -----------------------------------------------------------------


def card_printing(options: BuildOptions, *, backs: bool = True, content_backs: bool = False) -> Printing:
    """How a file of cards built with ``options`` is printed."""
    if options.print_shop:
        return Printing.SHOP
    mode = options.duplex or DuplexMode.LONG_EDGE
    if not backs:
        return Printing.FRONTS
    if mode is DuplexMode.FOLD:
        return Printing.FOLD
    if mode is DuplexMode.NONE:
        return Printing.BACK_SHEETS if content_backs else Printing.BACKS_LEFT_OUT
    return Printing.DUPLEX


def write_drawn_cards(
    game_id: str,
    stem: str,
    card: CardSize,
    cards: Callable[[float], list[CardPrint]],
    options: BuildOptions,
    fonts: FontSet,
    title: str,
) -> KitFile:
    """Cards a game draws itself rather than through a deck layout (Court's summary cards, the
    Culdcept reference), whose backs carry content: home sheets that keep their backs in every
    duplex mode, or with ``--print-shop`` one card a page with bleed, crop marks and CMYK.
    ``cards(bleed)`` makes them for a bleed of that many points (0 at home)."""
    from kkprint.deck.build import GAME_BLEED_MM, SLUG_MM
    from kkprint.engine.cards import print_cards, write_print_shop_cards
    from kkprint.engine.document import open_pdf
    from kkprint.engine.inks import Inks

    lang = options.lang
    if options.print_shop:
        path = write_print_shop_cards(
            options.shop_path(stem),
            card,
            cards(GAME_BLEED_MM * mm),
            fonts,
            title=title,
            lang=lang,
            bleed_mm=GAME_BLEED_MM,
            slug_mm=SLUG_MM,
            inks=None if options.greyscale else Inks("cmyk"),
            guides=options.guides,
        )
        return kit_file(path, contents(game_id, f"{stem}-printshop", lang), Printing.SHOP)
    path = options.path(stem)
    with open_pdf(path, options.paper, fonts, title=title, lang=lang) as doc:
        print_cards(doc, options.layout(card), cards(0.0), options.sheet_options(content_backs=True))
    return kit_file(path, contents(game_id, stem, lang), card_printing(options, content_backs=True))


def kit_file(path: Path, contents: str, printing: Printing) -> KitFile:
    """A file as written, with its number of pages."""
    from kkprint.engine.document import page_count

    return KitFile(path, contents, printing, page_count(path))


# --- the start file ------------------------------------------------------------------------------

PRINT_SHOP_NOTE = N_(
    "For the print shop only the cards are made as print-shop pages; these sheets are to print at home as they are: {files}."
)
CONTENT_BACKS_NOTE = N_(
    "Printed one-sided: the backs of {files} carry game content, so they come as sheets of their own "
    "(every second page)."
)


def notes(files: Sequence[KitFile], options: BuildOptions) -> list[str]:
    """What a player must know about this build beyond the table of files: also said on stderr."""
    said = []
    sheets = [f.path.name for f in files if f.printing in (Printing.SHEET, Printing.TILED, Printing.LARGE)]
    if options.print_shop and sheets:
        said.append(tr(PRINT_SHOP_NOTE, options.lang, files=listed(sheets, options.lang)))
    backs = [f.path.name for f in files if f.printing is Printing.BACK_SHEETS]
    if backs:
        said.append(tr(CONTENT_BACKS_NOTE, options.lang, files=listed(backs, options.lang)))
    return said


def write_start(
    game_id: str,
    files: Sequence[KitFile],
    options: BuildOptions,
    fonts: FontSet,
    picture: Picture | None = None,
) -> list[Path]:
    """Write ``GAME-start-LANG-PAPER.pdf`` — the cover, then the rules — and return every file of
    the build with the start file first. What the cover notes is also said on stderr, once."""
    from kkprint.engine.document import open_pdf

    rules = load_rules(game_id)
    lang = options.lang
    game_title = rules.game(lang)
    path = options.path(f"{game_id}-start")
    style = BookletStyle(accent=rules.accent, footer=game_title)
    said = notes(files, options)
    the_rules = rules_section(game_id, lang)
    rules_booklet = booklet.fitted([the_rules], fonts, options.paper.size, style)
    paper_name = {"a4": "A4", "a3": "A3"}.get(options.paper.name, options.paper.name.capitalize())
    cover_pages = 1
    while True:  # the cover lists the start file's own pages, which depend on the cover's length
        start = KitFile(path, "", Printing.START, cover_pages + rules_booklet.pages)
        kit = Kit(
            game_title,
            [start, *files],
            [item(lang) for item in rules.kit.cut],
            [item(lang) for item in rules.kit.bring],
            [item(lang) for item in rules.kit.setup],
            picture,
            said,
        )
        rules_span = (cover_pages + 1, cover_pages + rules_booklet.pages)
        kit_cover = cover(kit, lang, paper_name, options.duplex or DuplexMode.LONG_EDGE, options.greyscale, rules_span)
        front = booklet.fitted([kit_cover], fonts, options.paper.size, style)
        if front.pages == cover_pages:
            break
        cover_pages = front.pages
    document = front.then(rules_booklet)
    with open_pdf(path, options.paper, fonts, title=kit_cover.title, lang=lang) as doc:
        document.draw(doc)
    for line in said if progress.level() != progress.QUIET else ():  # (-q: errors and warnings only)
        sys.stderr.write(tr("kkprint: note: {message}", lang, message=line) + "\n")
    return [path, *(file.path for file in files)]
