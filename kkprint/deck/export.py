"""``kkprint export``: pictures of a deck's cards for screens and print-on-demand shops.

- one PNG per card, front and back, named by a template over the card's fields
  (``--name '${id}-${name}'``), at a chosen dpi, optionally with the print-shop bleed;
- Tabletop Simulator deck sheets: grids of at most 10 × 7 cards and 4096 px a side, the back
  as its own image (or a sheet of backs when they differ);
- a showcase: chosen cards fanned like a hand, for a rulebook or a post.

The pictures are rendered from the same PDF a build writes (one card per page), so what a
screen shows is what the printer prints; page by page, each written as soon as it is made, so a
thousand cards at 1,200 dpi need the memory of one.
"""

from __future__ import annotations

import hashlib
import math
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Msg
from kkprint.base.outputs import atomic_file
from kkprint.base.paths import safe_file_name
from kkprint.deck.build import loaded_target
from kkprint.deck.load import CardData, load_deck, select
from kkprint.engine.job import BuildOptions, build_targets
from kkprint.engine.preview import PNG_MAGIC, page_digests, page_image, page_pixels, write_pngs

TTS_COLUMNS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096
SHOWCASE_PIXELS = 40_000_000
FIELD = re.compile(r"\$\{([^}]*)\}")


@dataclass(frozen=True)
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
    """The deck as it prints, one card per page (copies and numbered regions as on paper), open
    for rendering one page at a time: nothing rendered is kept beyond the file it goes into."""

    def __init__(self, pdf: Path, document, cards: list[CardData]):
        self.pdf, self.document, self.cards = pdf, document, cards
        total = sum(card.count for card in cards)
        self.per_card = 2 if len(document) == 2 * total else 1
        self.first = []  # the page of each card's first copy
        number = 0
        for card in cards:
            self.first.append(number * self.per_card)
            number += card.count

    def page(self, index: int):
        return self.document[index]

    def copies(self):
        """(card, page of its front, page of its back or None) for every copy of every card."""
        for card, first in zip(self.cards, self.first):
            for copy in range(card.count):
                front = first + copy * self.per_card
                yield card, front, front + 1 if self.per_card == 2 else None

    def size(self, scale: float) -> tuple[int, int]:
        """A card's size in pixels at ``scale`` (every page of the deck has its card's size)."""
        page = self.page(0)
        try:
            return page_pixels(page, scale)
        finally:
            page.close()


def _image(pages: _Pages, index: int, width: int, height: int):
    page = pages.page(index)
    try:
        return page_image(page, width, height)
    finally:
        page.close()


def _name(template: str, card: CardData, number: int, taken: set[str]) -> str:
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

    stem = safe_file_name(FIELD.sub(value, template))
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
    import pypdfium2 as pdfium

    deck = select(load_deck(deck_path, allow_outside=options.allow_outside), options.only)
    stem = safe_file_name(deck.spec.name)
    printed = [card for card in deck.iter_cards() if card.count > 0]
    names = _names(printed, options.name) if options.png else []
    picks = _picks(printed, options.showcase) if options.showcase is not None else []
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="kkprint-export-") as temp:
        build = BuildOptions(
            lang=options.lang,
            out_dir=Path(temp) / "pdf",
            card_pages=True,
            card_bleed=options.bleed,
            allow_outside=options.allow_outside,
        )
        [pdf] = build_targets([loaded_target(deck)], build)
        staging = Path(temp) / "staged"
        staging.mkdir()
        document = pdfium.PdfDocument(str(pdf))
        try:
            pages = _Pages(pdf, document, printed)
            if options.png:
                written.extend(_pngs(pages, names, stem, options))
            if options.tts:
                written.extend(_tts(pages, stem, options, staging))
            if picks:
                written.append(_showcase(pages, picks, stem, options))
        finally:
            document.close()
    return written


def _names(cards: list[CardData], template: str | None) -> list[str]:
    """Each card's file name, all made before anything is rendered."""
    template = template or ("${n}-${name}" if all("name" in card.fields for card in cards) else "${n}")
    taken: set[str] = set()
    return [_name(template, card, number, taken) for number, card in enumerate(cards, start=1)]


def _pngs(pages: _Pages, names: list[str], stem: str, options: ExportOptions) -> list[Path]:
    """One PNG per card's front; the backs as one picture when the deck has one back design
    (seen from the digests of their pixels first), else one per card."""
    scale = options.dpi / 72
    jobs = [(first, scale, options.out_dir / f"{name}.png") for name, first in zip(names, pages.first)]
    if pages.per_card == 2:
        backs = [first + 1 for first in pages.first]
        if len(set(page_digests(pages.pdf, backs, scale))) == 1:  # one design: one picture of it, as shops ask for
            jobs.append((backs[0], scale, options.out_dir / f"{stem}-back.png"))
        else:
            jobs.extend((back, scale, options.out_dir / f"{name}-back.png") for back, name in zip(backs, names))
    return write_pngs(pages.pdf, jobs)


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
    back_sheets: list[tuple[Path, str]] = []
    digests: set[str] = set()
    for sheet, start in enumerate(range(0, len(copies), per_sheet), start=1):
        chunk = copies[start : start + per_sheet]
        columns, rows, cw, ch = tts_grid(len(chunk), width, height)
        faces = Image.new("RGB", (columns * cw, rows * ch), "white")
        backs = Image.new("RGB", (columns * cw, rows * ch), "white") if pages.per_card == 2 else None
        for slot, (_, front, back) in enumerate(chunk):
            x, y = (slot % columns) * cw, (slot // columns) * ch
            faces.paste(_image(pages, front, cw, ch).resize((cw, ch)), (x, y))
            if backs is not None and back is not None:
                picture = _image(pages, back, cw, ch).resize((cw, ch))
                digests.add(hashlib.sha1(picture.tobytes()).hexdigest())
                backs.paste(picture, (x, y))
        suffix = f"-{sheet}" if len(copies) > per_sheet else ""
        written.append(_save(faces, options.out_dir / f"{stem}-tts{suffix}.png"))
        if backs is not None:
            back_sheets.append((_save(backs, staging / f"backs-{sheet}.png"), f"{stem}-tts{suffix}-backs.png"))
        del faces, backs
    if len(digests) > 1:
        written.extend(_publish(staged, options.out_dir / name) for staged, name in back_sheets)
    elif back_sheets:
        scale = min(1.0, TTS_MAX_PX / max(width, height))
        back = _image(pages, copies[0][2], int(width * scale), int(height * scale))
        written.append(_save(back, options.out_dir / f"{stem}-tts-back.png"))
    return written


def _picks(cards: list[CardData], chosen: str) -> list[int]:
    """The cards a showcase fans (names or numbers, as --only), as indexes into ``cards``."""
    picks = []
    names = [card.fields.get("name", "") for card in cards]
    for part in (p.strip() for p in chosen.split(",") if p.strip()):
        if part.isascii() and part.isdigit() and 1 <= int(part) <= len(cards):
            picks.append(int(part) - 1)
        elif part in names:
            picks.append(names.index(part))
        else:
            raise InputError(
                Msg("no card '{part}' to show{hint}", part=part, hint=suggest(part, [n for n in names if n])),
                source="--showcase",
            )
    if not picks:
        raise InputError(Msg("names no card; give names or numbers like 1,3,Knight"), source="--showcase")
    return picks


def _showcase(pages: _Pages, chosen: list[int], stem: str, options: ExportOptions) -> Path:
    """The chosen cards fanned like a hand, on a transparent ground; at the dpi asked for, or less
    where the fan would pass :data:`SHOWCASE_PIXELS` (it is a picture for a screen)."""
    from PIL import Image, ImageFilter

    width, height = pages.size(options.dpi / 72)
    spread_by = 1.6 + 0.25 * len(chosen)
    fan = max(width, height) * spread_by * height * 1.9
    shrink = min(1.0, math.sqrt(SHOWCASE_PIXELS / fan))
    width, height = max(1, int(width * shrink)), max(1, int(height * shrink))
    picks = [_image(pages, pages.first[index], width, height).resize((width, height)) for index in chosen]
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
    return _save(canvas.crop(box), options.out_dir / f"{stem}-showcase.png")
