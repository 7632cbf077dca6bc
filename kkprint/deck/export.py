"""``kkprint export``: pictures of a deck's cards for screens and print-on-demand shops.

- one PNG per card, front and back, named by a template over the card's fields
  (``--name '${id}-${name}'``), at a chosen dpi, optionally with the print-shop bleed;
- Tabletop Simulator deck sheets: grids of at most 10 × 7 cards and 4096 px a side, the back
  as its own image (or a sheet of backs when they differ);
- a showcase: chosen cards fanned like a hand, for a rulebook or a post.

The pictures are rendered from the same PDF a build writes (one card per page), so what a
screen shows is what the printer prints; page by page, each written as soon as it is made, and
the PDF itself in files of a few hundred pages, so a thousand cards at 1,200 dpi need the memory
of one.
"""

from __future__ import annotations

import hashlib
import math
import re
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Msg
from kkprint.base.outputs import atomic_file
from kkprint.base.paths import safe_file_name
from kkprint.base.records import record
from kkprint.deck.build import bundled_texts, deck_card_size, first_prints, loaded_target, one_back, painter_for
from kkprint.deck.load import CardData, Deck, load_deck, select
from kkprint.deck.preflight import Finding, collecting
from kkprint.engine.cards import CardPrint, print_shop_pages
from kkprint.engine.document import open_pdf, page_count
from kkprint.engine.fonts import prepare_fonts
from kkprint.engine.geometry import Paper
from kkprint.engine.job import BuildOptions, build_targets
from kkprint.engine.preview import PNG_MAGIC, Page, page_size, pages_alike, pictures, write_pngs

if TYPE_CHECKING:
    import PIL.Image

TTS_COLUMNS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096
SHOWCASE_PIXELS = 40_000_000
CARDS_PER_FILE = 8  # single-card pictures are drawn this many cards to a PDF
PAGES_PER_FILE = 200  # the export's PDF goes on in a new file once one has this many pages: memory stays flat
FIELD = re.compile(r"\$\{([^}]*)\}")


@record
class ExportOptions:
    out_dir: Path
    dpi: int = 300
    name: str | None = None  # default: ${n}-${name}, or ${n} for cards without a name
    png: bool = True
    tts: bool = False
    showcase: str | None = None  # --only-style selection of the cards to fan
    bleed: bool = False
    lang: str = "ja"
    allow_outside: bool = False
    only: str | None = None


class _Pages:
    """The deck as it prints, one card per page (copies and numbered regions as on paper), in the
    files the build wrote it to (:data:`PAGES_PER_FILE` each): every page named by its file and
    place, for :mod:`kkprint.engine.preview` to render."""

    def __init__(self, pdfs: list[Path], cards: list[CardData]):
        self.pages: list[Page] = [(pdf, index) for pdf in pdfs for index in range(page_count(pdf))]
        self.cards = cards
        total = sum(card.count for card in cards)
        self.per_card = 2 if len(self.pages) == 2 * total else 1
        self.first = []  # the page of each card's first copy
        copies = 0
        for card in cards:
            self.first.append(copies * self.per_card)
            copies += card.count

    def copies(self):
        """(card, page of its front, page of its back or None) for every copy of every card."""
        for card, first in zip(self.cards, self.first):
            for copy in range(card.count):
                front = first + copy * self.per_card
                yield card, front, front + 1 if self.per_card == 2 else None

    def size(self, scale: float) -> tuple[int, int]:
        """A card's size in pixels at ``scale`` (every page of the deck has its card's size)."""
        return page_size(self.pages[0], scale)


def _name(template: str, card: CardData, number: int, taken: set[str], source: str) -> str:
    fields = {**card.fields, "n": f"{number:03d}", "count": str(card.count)}

    def value(match: re.Match) -> str:
        key = match.group(1).strip()
        if key not in fields:
            raise InputError(
                Msg("the card has no field '{key}'{hint}", key=key, hint=suggest(key, fields)),
                source="--name",
                place=card.origin,
            )
        return fields[key]

    made = FIELD.sub(value, template)
    try:
        stem = safe_file_name(made)
    except InputError:  # (an empty name, or one of dots and slashes: which card made it is what helps)
        raise InputError(
            Msg(
                "--name '{template}' gives this card no usable file name ('{made}'): fill in the fields it "
                "reads, or put ${{n}} in it",
                template=template,
                made=made,
            ),
            source=source,
            place=card.origin,
        ) from None
    name, suffix = stem, 2
    while name in taken:
        name, suffix = f"{stem}-{suffix}", suffix + 1
    taken.add(name)
    return name


def _save(image, path: Path) -> Path:
    with atomic_file(path, magic=PNG_MAGIC) as temp:
        image.save(temp, format="PNG", optimize=False)
    return path


def _publish(staged: Path, path: Path) -> Path:
    """A picture made aside (before it was known whether it is wanted), put in its place whole."""
    import shutil

    with atomic_file(path, magic=PNG_MAGIC) as temp:
        shutil.copyfile(staged, temp)
    return path


def export_deck(deck_path: Path, options: ExportOptions) -> list[Path]:
    """Every picture asked for, card by card: each is rendered, written and let go, so memory
    holds one card (or one Tabletop Simulator sheet) whatever the deck's length or the dpi.
    Everything a user can get wrong (a name template, a showcase's cards) is checked before the
    first file is written."""
    deck = select(load_deck(deck_path, allow_outside=options.allow_outside), options.only)
    stem = safe_file_name(deck.spec.name)
    numbered = [(number, card) for _, number, card in deck.numbered() if card.count > 0]
    printed = [card for _, card in numbered]
    names = _names(numbered, options.name, deck.source) if options.png else []
    picks = _picks(numbered, options.showcase, deck) if options.showcase is not None else []
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="kkprint-export-") as temp:
        build = BuildOptions(
            lang=options.lang,
            out_dir=Path(temp) / "pdf",
            card_pages=True,
            card_bleed=options.bleed,
            allow_outside=options.allow_outside,
            pages_per_file=PAGES_PER_FILE,
        )
        pdfs = build_targets([loaded_target(deck)], build)
        staging = Path(temp) / "staged"
        staging.mkdir()
        pages = _Pages(pdfs, printed)
        if options.png:
            written.extend(_pngs(pages, names, stem, options, one_back(deck)))
        if options.tts:
            written.extend(_tts(pages, stem, options, staging))
        if picks:
            written.append(_showcase(pages, picks, stem, options))
    return written


def _out(options: ExportOptions, name: str) -> Path:
    """Where a picture named ``name`` is written: pictures with the print-shop bleed end in
    ``-bleed``, so an export with bleed never writes over one without (the same cards, another
    size) — as a grey build's files end in ``-grey``."""
    return options.out_dir / f"{name}{'-bleed' if options.bleed else ''}.png"


def _names(cards: list[tuple[int, CardData]], template: str | None, source: str) -> list[str]:
    """Each card's file name, all made before anything is rendered; ``${n}`` is the printed
    number of the card's first copy (001, 002, 004 … for cards of two copies), as the studio and
    ``check`` number it."""
    template = template or ("${n}-${name}" if all("name" in card.fields for _, card in cards) else "${n}")
    taken: set[str] = set()
    return [_name(template, card, number, taken, source) for number, card in cards]


def _pngs(pages: _Pages, names: list[str], stem: str, options: ExportOptions, same_backs: bool) -> list[Path]:
    """One PNG per card's front; the backs as one picture when the deck has one back design
    (``same_backs``: the deck says so; else seen from their pixels first), else one per card."""
    scale = options.dpi / 72
    jobs = [(pages.pages[first], scale, _out(options, name)) for name, first in zip(names, pages.first)]
    if pages.per_card == 2:
        backs = [pages.pages[first + 1] for first in pages.first]
        if same_backs or pages_alike(backs, scale):  # one design: one picture of it, as shops ask for
            jobs.append((backs[0], scale, _out(options, f"{stem}-back")))
        else:
            jobs.extend((back, scale, _out(options, f"{name}-back")) for back, name in zip(backs, names))
    return write_pngs(jobs)


def tts_grid(count: int, width: int, height: int) -> tuple[int, int, int, int]:
    """(columns, rows, card width, card height) of a Tabletop Simulator sheet for ``count`` cards:
    at most 10 × 7, at most 4096 px a side, cards kept in proportion."""
    columns = min(TTS_COLUMNS, max(2, count))
    rows = min(TTS_ROWS, max(2, math.ceil(count / columns)))
    scale = min(1.0, TTS_MAX_PX / (columns * width), TTS_MAX_PX / (rows * height))
    return columns, rows, max(1, int(width * scale)), max(1, int(height * scale))


def _tts(pages: _Pages, stem: str, options: ExportOptions, staging: Path) -> list[Path]:
    """Deck sheets with every copy of every card, filled card by card and written when full; the
    last slot of a full sheet stays free, as Tabletop Simulator uses it for the hidden card.
    Backs: one picture when the deck has one back design, else a sheet of backs beside each
    sheet (made aside until that is known)."""
    from PIL import Image

    copies = list(pages.copies())
    per_sheet = TTS_COLUMNS * TTS_ROWS - 1
    width, height = pages.size(options.dpi / 72)
    written: list[Path] = []
    back_sheets: list[tuple[Path, Path]] = []
    digests: set[str] = set()
    for sheet, start in enumerate(range(0, len(copies), per_sheet), start=1):
        chunk = copies[start : start + per_sheet]
        columns, rows, cw, ch = tts_grid(len(chunk), width, height)
        faces = Image.new("RGB", (columns * cw, rows * ch), "white")
        backs = Image.new("RGB", (columns * cw, rows * ch), "white") if pages.per_card == 2 else None
        places = [((slot % columns) * cw, (slot // columns) * ch) for slot in range(len(chunk))]
        # (the pictures first in zip: they end, closing their file, before the places run out)
        for picture, place in zip(pictures([pages.pages[front] for _, front, _ in chunk], cw, ch), places):
            faces.paste(picture.resize((cw, ch)), place)
        if backs is not None:
            for picture, place in zip(pictures([pages.pages[back] for _, _, back in chunk], cw, ch), places):
                picture = picture.resize((cw, ch))
                digests.add(hashlib.sha1(picture.tobytes()).hexdigest())
                backs.paste(picture, place)
        suffix = f"-{sheet}" if len(copies) > per_sheet else ""
        written.append(_save(faces, _out(options, f"{stem}-tts{suffix}")))
        if backs is not None:
            back_sheets.append(
                (_save(backs, staging / f"backs-{sheet}.png"), _out(options, f"{stem}-tts{suffix}-backs"))
            )
        del faces, backs
    if len(digests) > 1:
        written.extend(_publish(staged, path) for staged, path in back_sheets)
    elif back_sheets:
        scale = min(1.0, TTS_MAX_PX / max(width, height))
        [back] = pictures([pages.pages[copies[0][2]]], int(width * scale), int(height * scale))
        written.append(_save(back, _out(options, f"{stem}-tts-back")))
    return written


def _picks(cards: list[tuple[int, CardData]], chosen: str, deck: Deck) -> list[tuple[int, int]]:
    """The cards a showcase fans, as (index into ``cards``, copy from 0): a name is that card's
    first copy, a number the card printed with that number (copies counted, as the studio, ``check``
    and ``card.number`` count it: the copy itself, which may show its own number)."""
    picks = []
    names = [card.fields.get("name", "") for _, card in cards]
    for part in (p.strip() for p in chosen.split(",") if p.strip()):
        if part.isascii() and part.isdigit():
            number = int(part)
            if not 1 <= number <= deck.card_total:
                raise InputError(
                    Msg("{part}: the deck has cards 1–{count}", part=part, count=deck.card_total),
                    source="--showcase",
                )
            found = [
                (index, number - first)
                for index, (first, card) in enumerate(cards)
                if first <= number < first + card.count
            ]
            if not found:
                raise InputError(
                    Msg("card {number} is not among the cards --only keeps", number=number), source="--showcase"
                )
            picks.append(found[0])
        elif part in names:
            picks.append((names.index(part), 0))
        else:
            raise InputError(
                Msg("no card '{part}' to show{hint}", part=part, hint=suggest(part, [n for n in names if n])),
                source="--showcase",
            )
    if not picks:
        raise InputError(Msg("names no card; give names or numbers like 1,3,Knight"), source="--showcase")
    return picks


def _showcase(pages: _Pages, chosen: list[tuple[int, int]], stem: str, options: ExportOptions) -> Path:
    """The chosen cards fanned like a hand, on a transparent ground; at the dpi asked for, or less
    where the fan would pass :data:`SHOWCASE_PIXELS` (it is a picture for a screen)."""
    from PIL import Image, ImageFilter

    width, height = pages.size(options.dpi / 72)
    spread_by = 1.6 + 0.25 * len(chosen)
    fan = max(width, height) * spread_by * height * 1.9
    shrink = min(1.0, math.sqrt(SHOWCASE_PIXELS / fan))
    width, height = max(1, int(width * shrink)), max(1, int(height * shrink))
    shown = pictures([pages.pages[pages.first[index] + copy * pages.per_card] for index, copy in chosen], width, height)
    picks = [picture.resize((width, height)) for picture in shown]
    spread = 10.0 if len(picks) > 1 else 0.0
    side = int(max(width, height) * spread_by)
    canvas = Image.new("RGBA", (side, int(height * 1.9)), (0, 0, 0, 0))
    pivot = (side // 2, int(height * 1.75))  # the hand's wrist, below the cards
    for index, picture in enumerate(picks):
        angle = spread * (index - (len(picks) - 1) / 2)
        card = picture.convert("RGBA")
        layer = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
        shadow = Image.new("RGBA", card.size, (0, 0, 0, 90))
        left, top = pivot[0] - width // 2, pivot[1] - int(height * 1.3)
        layer.paste(shadow, (left + 6, top + 8))
        layer = layer.filter(ImageFilter.GaussianBlur(6))
        layer.paste(card, (left, top))
        canvas.alpha_composite(layer.rotate(-angle, center=pivot, resample=Image.Resampling.BICUBIC))
    box = canvas.getbbox() or (0, 0, *canvas.size)
    return _save(canvas.crop(box), _out(options, f"{stem}-showcase"))


@record
class FacePicture:
    """One face of one card as :func:`card_pictures` draws it, with what the deck's preflight
    found while drawing it (:mod:`kkprint.deck.preflight`): that card's warnings and errors.
    A face with an error has no picture: what it would show is not what the deck means."""

    index: int  # the card's place among the deck's cards, counted from 0
    side: str  # front or back
    picture: PIL.Image.Image | None
    findings: tuple[Finding, ...]

    @property
    def error(self) -> InputError | None:
        """The first error found on the face, as one line names it."""
        for finding in self.findings:
            if finding.error:
                return InputError(finding.message, source=finding.source, place=finding.where())
        return None


def card_pictures(
    deck: Deck, wanted: Mapping[int, tuple[str, ...]], dpi: float, shared: list[Finding] | None = None
) -> Iterator[FacePicture]:
    """Pictures of chosen faces of chosen cards, each as its first copy prints, edge to edge:
    ``wanted`` maps a card's place among the deck's cards to its sides (``front``, ``back``).

    The cards are drawn as a build draws them, a few to a PDF, with the deck's preflight
    collecting (nothing refused, nothing written but a scratch file): each face comes with the
    findings made while it was drawn, so a face that cannot be drawn — a region that fails, a
    card whose layout or back names nothing — does not stop the others. An error that is not
    one face's (the deck's fonts, a bound on the whole document) is raised. A face's findings
    are its card's own; what is found on what every card shares (regions drawn once for all,
    the deck's columns) is added to ``shared``, once each, before the faces are yielded.
    """
    import pypdfium2 as pdfium

    fonts = prepare_fonts(bundled_texts(deck))
    painter = painter_for(deck, fonts)
    size = deck_card_size(deck)
    pending = [index for index, card in enumerate(deck.iter_cards()) if card.count and index in wanted]
    with tempfile.TemporaryDirectory(prefix="kkprint-cards-") as temp:
        path = Path(temp) / "cards.pdf"
        for start in range(0, len(pending), CARDS_PER_FILE):
            batch = set(pending[start : start + CARDS_PER_FILE])
            faces: list[tuple[int, str, list[Finding], bool]] = []  # (card, side, findings, drawn on a page)
            with (
                collecting(BuildOptions()) as found,
                open_pdf(
                    path, Paper("card", size.width_mm, size.height_mm), fonts, title=deck.spec.name, lang="en"
                ) as doc,
            ):

                def made() -> list[Finding]:
                    return [finding for checks in found for finding in checks.findings if finding.card is not None]

                mark = 0  # the findings made before this card was reached
                for index, prints in first_prints(deck, doc, painter, size.width, size.height):
                    if index in batch:
                        if prints is None:  # the card cannot be laid out: what stops it stops every face
                            faces.extend((index, side, made()[mark:], False) for side in wanted[index])
                        else:
                            for side, art in (("front", prints.front), ("back", prints.back)):
                                if art is not None and side in wanted[index]:
                                    before = len(made())
                                    print_shop_pages(doc, size, 0.0, 0.0, [CardPrint(art, None, prints.shape)])
                                    faces.append((index, side, made()[before:], True))
                        batch.discard(index)
                        if not batch:
                            break
                    mark = len(made())
                if shared is not None:
                    known = set(shared)
                    shared.extend(f for p in found for f in p.findings if f.card is None and f not in known)
            document = pdfium.PdfDocument(str(path))
            try:
                page = 0
                for index, side, findings, drawn in faces:
                    picture = None
                    if drawn:
                        if not any(finding.error for finding in findings):
                            bitmap = document[page].render(scale=dpi / 72)
                            try:
                                picture = bitmap.to_pil().convert("RGB")
                            finally:
                                bitmap.close()
                        page += 1
                    yield FacePicture(index, side, picture, tuple(findings))
            finally:
                document.close()
