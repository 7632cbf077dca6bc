"""``kkprint export``: pictures of a deck's cards for screens and print-on-demand shops.

- one PNG per card, front and back, named by a template over the card's fields
  (``--name '${id}-${name}'``), at a chosen dpi, optionally with the print-shop bleed;
- Tabletop Simulator deck sheets: grids of at most 10 × 7 cards and 4096 px a side, the back
  as its own image (or a sheet of backs when they differ);
- a showcase: chosen cards fanned like a hand, for a rulebook or a post.

The pictures are rendered from the same PDF a build writes (one card per page), so what a
screen shows is what the printer prints.
"""

from __future__ import annotations

import hashlib
import math
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Msg
from kkprint.base.outputs import atomic_file
from kkprint.base.paths import safe_file_name
from kkprint.deck.build import bundled_texts, deck_card_size, first_prints, loaded_target, painter_for
from kkprint.deck.load import CardData, Deck, load_deck, select
from kkprint.engine.cards import CardPrint, print_shop_pages
from kkprint.engine.document import open_pdf
from kkprint.engine.fonts import prepare_fonts
from kkprint.engine.geometry import Paper
from kkprint.engine.job import BuildOptions, build_targets

if TYPE_CHECKING:
    import PIL.Image

TTS_COLUMNS, TTS_ROWS, TTS_MAX_PX = 10, 7, 4096
CARDS_PER_FILE = 8  # single-card pictures are drawn this many cards to a PDF
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


@dataclass
class Picture:
    """One distinct card: its first printed copy's front and back, and every copy's front."""

    card: CardData
    front: PIL.Image.Image
    back: PIL.Image.Image | None
    copies: list


def _pictures(deck_path: Path, options: ExportOptions, every_copy: bool) -> list[Picture]:
    """Render the deck as it prints (one card per page, copies and numbered regions as on paper);
    only the pages asked for are rendered."""
    import pypdfium2 as pdfium

    deck = select(load_deck(deck_path, allow_outside=options.allow_outside), options.only)
    with tempfile.TemporaryDirectory(prefix="kkprint-export-") as temp:
        build = BuildOptions(
            lang=options.lang,
            out_dir=Path(temp),
            card_pages=True,
            card_bleed=options.bleed,
            allow_outside=options.allow_outside,
        )
        [pdf] = build_targets([loaded_target(deck)], build)
        document = pdfium.PdfDocument(str(pdf))
        try:
            printed = [card for card in deck.iter_cards() if card.count > 0]
            total = sum(card.count for card in printed)
            per_card = 2 if len(document) == 2 * total else 1

            def render(page: int):
                return document[page].render(scale=options.dpi / 72).to_pil().convert("RGB")

            pictures, number = [], 0
            for card in printed:
                first = number * per_card
                front = render(first)
                back = render(first + 1) if per_card == 2 else None
                copies = [front] + (
                    [render((number + k) * per_card) for k in range(1, card.count)] if every_copy else []
                )
                pictures.append(Picture(card, front, back, copies))
                number += card.count
        finally:
            document.close()
    return pictures


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
    with atomic_file(path, magic=b"\x89PNG") as temp:
        image.save(temp, format="PNG", optimize=False)
    return path


def export_deck(deck_path: Path, options: ExportOptions) -> list[Path]:
    cards = _pictures(deck_path, options, every_copy=options.tts)
    stem = safe_file_name(load_deck(deck_path, allow_outside=options.allow_outside).spec.name)
    written: list[Path] = []
    if options.png:
        taken: set[str] = set()
        backs = {hashlib.sha1(p.back.tobytes()).hexdigest() for p in cards if p.back is not None}
        template = options.name or ("${n}-${name}" if all("name" in p.card.fields for p in cards) else "${n}")
        for number, picture in enumerate(cards, start=1):
            name = _name(template, picture.card, number, taken)
            written.append(_save(picture.front, options.out_dir / f"{name}.png"))
            if picture.back is not None and len(backs) > 1:
                written.append(_save(picture.back, options.out_dir / f"{name}-back.png"))
        if len(backs) == 1:  # one back design: one picture of it, as shops ask for
            written.append(_save(cards[0].back, options.out_dir / f"{stem}-back.png"))
    if options.tts:
        written.extend(_tts(cards, stem, options.out_dir))
    if options.showcase is not None:
        written.append(_showcase(cards, options.showcase, stem, options.out_dir))
    return written


def tts_grid(count: int, width: int, height: int) -> tuple[int, int, int, int]:
    """(columns, rows, card width, card height) of a Tabletop Simulator sheet for ``count`` cards:
    at most 10 × 7, at most 4096 px a side, cards kept in proportion."""
    columns = min(TTS_COLUMNS, max(2, count))
    rows = min(TTS_ROWS, max(2, math.ceil(count / columns)))
    scale = min(1.0, TTS_MAX_PX / (columns * width), TTS_MAX_PX / (rows * height))
    return columns, rows, max(1, int(width * scale)), max(1, int(height * scale))


def _tts(cards, stem: str, out_dir: Path) -> list[Path]:
    """Deck sheets with every copy of every card; the last slot of a full sheet stays free, as
    Tabletop Simulator uses it for the hidden card."""
    from PIL import Image

    copies = [(p.card, front, p.back) for p in cards for front in p.copies]
    per_sheet = TTS_COLUMNS * TTS_ROWS - 1
    written = []
    backs = {hashlib.sha1(p.back.tobytes()).hexdigest() for p in cards if p.back is not None}
    for sheet, start in enumerate(range(0, len(copies), per_sheet), start=1):
        chunk = copies[start : start + per_sheet]
        width, height = chunk[0][1].size
        columns, rows, cw, ch = tts_grid(len(chunk), width, height)
        faces = Image.new("RGB", (columns * cw, rows * ch), "white")
        back_sheet = Image.new("RGB", (columns * cw, rows * ch), "white") if len(backs) > 1 else None
        for slot, (_, front, back) in enumerate(chunk):
            x, y = (slot % columns) * cw, (slot // columns) * ch
            faces.paste(front.resize((cw, ch)), (x, y))
            if back_sheet is not None and back is not None:
                back_sheet.paste(back.resize((cw, ch)), (x, y))
        suffix = f"-{sheet}" if len(copies) > per_sheet else ""
        written.append(_save(faces, out_dir / f"{stem}-tts{suffix}.png"))
        if back_sheet is not None:
            written.append(_save(back_sheet, out_dir / f"{stem}-tts{suffix}-backs.png"))
    if len(backs) == 1:
        back = cards[0].back
        scale = min(1.0, TTS_MAX_PX / max(back.size))
        written.append(
            _save(back.resize((int(back.width * scale), int(back.height * scale))), out_dir / f"{stem}-tts-back.png")
        )
    return written


def _showcase(cards, chosen: str, stem: str, out_dir: Path) -> Path:
    """The chosen cards (names or numbers, as --only) fanned like a hand, on a transparent ground."""
    from PIL import Image, ImageFilter

    picks = []
    names = [p.card.fields.get("name", "") for p in cards]
    for part in (p.strip() for p in chosen.split(",") if p.strip()):
        if part.isascii() and part.isdigit() and 1 <= int(part) <= len(cards):
            picks.append(cards[int(part) - 1].front)
        elif part in names:
            picks.append(cards[names.index(part)].front)
        else:
            raise InputError(
                Msg("no card '{part}' to show{hint}", part=part, hint=suggest(part, [n for n in names if n])),
                source="--showcase",
            )
    if not picks:
        raise InputError(Msg("names no card; give names or numbers like 1,3,Knight"), source="--showcase")
    width, height = picks[0].size
    spread = 10.0 if len(picks) > 1 else 0.0
    side = int(max(width, height) * (1.6 + 0.25 * len(picks)))
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
    return _save(canvas.crop(box), out_dir / f"{stem}-showcase.png")


class _FaceFailed(Exception):
    """One face could not be drawn: its PDF is given up and written again without it."""

    def __init__(self, index: int, side: str, error: InputError):
        super().__init__(index, side, error)
        self.index, self.side, self.error = index, side, error


def card_pictures(
    deck: Deck, wanted: Mapping[int, tuple[str, ...]], dpi: float
) -> Iterator[tuple[int, str, PIL.Image.Image | InputError]]:
    """Pictures of chosen faces of chosen cards, each as its first copy prints, edge to edge:
    ``wanted`` maps a card's place among the deck's cards to its sides (``front``, ``back``).
    Yields (place, side, picture), or the error that keeps that face from being drawn: a face
    that cannot be drawn does not stop the others (its PDF is written again without it). An
    error that is not one face's (the deck's fonts, a card naming a layout it lacks) is raised.
    """
    import pypdfium2 as pdfium

    fonts = prepare_fonts(bundled_texts(deck))
    painter = painter_for(deck, fonts)
    size = deck_card_size(deck)
    printing = [index for index, card in enumerate(deck.iter_cards()) if card.count]
    pending = [index for index in printing if index in wanted]
    with tempfile.TemporaryDirectory(prefix="kkprint-cards-") as temp:
        path = Path(temp) / "cards.pdf"
        while pending:
            batch = set(pending[:CARDS_PER_FILE])
            chosen = set(batch)
            faces: list[tuple[int, str]] = []
            try:
                with open_pdf(
                    path, Paper("card", size.width_mm, size.height_mm), fonts, title=deck.spec.name, lang="en"
                ) as doc:
                    for index, prints in zip(printing, first_prints(deck, doc, painter, size.width, size.height)):
                        if index in batch:
                            for side, art in (("front", prints.front), ("back", prints.back)):
                                if art is not None and side in wanted[index]:
                                    try:
                                        print_shop_pages(doc, size, 0.0, 0.0, [CardPrint(art, None, prints.shape)])
                                    except InputError as err:
                                        raise _FaceFailed(index, side, err) from None
                                    faces.append((index, side))
                            batch.discard(index)
                        if not batch:
                            break
            except _FaceFailed as failed:
                yield failed.index, failed.side, failed.error
                pending.remove(failed.index)
                continue
            document = pdfium.PdfDocument(str(path))
            try:
                pictures = [document[page].render(scale=dpi / 72).to_pil().convert("RGB") for page in range(len(faces))]
            finally:
                document.close()
            yield from ((index, side, picture) for (index, side), picture in zip(faces, pictures))
            pending = [index for index in pending if index not in chosen]
