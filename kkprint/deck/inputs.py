"""What each card's pictures depend on, so a tool that shows a deck as it is edited (the studio)
draws again only the cards whose inputs changed.

A face's inputs are the part of the deck file that draws it (its layout's regions, or its back),
what the whole deck shares (card size, fonts, icons, deck-wide fields), the card fields its
regions read, which of its regions print on the card's number, and the files it draws (the
deck's fonts and icons it names, the art its image regions pick). Each is summed up in one
digest: equal digests are equal pictures. Files are known by their size and modification time
(a save changes both or at least the time), so nothing is read to notice that nothing changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import asdict
from functools import lru_cache
from pathlib import Path

from kkprint.base.errors import InputError
from kkprint.base.i18n import N_
from kkprint.base.models import as_written
from kkprint.base.records import record
from kkprint.base.yamlio import read_bytes
from kkprint.deck.data import CardData, as_text
from kkprint.deck.expr import compile_template, parse_ranges
from kkprint.deck.load import Deck
from kkprint.deck.model import ImageRegion, Layout, Region
from kkprint.deck.preflight import column_checks
from kkprint.deck.render import refs_of
from kkprint.engine.pictures import MAX_PICTURE_BYTES

# What no card's picture depends on: how the cards go on paper, where the data comes from (the
# cards' own values are counted card by card), and the faces (counted one by one).
NOT_DRAWN = {"sheet", "print", "print_shop", "cards", "data", "csv", "layout", "layouts", "back", "backs"}
LOOKUP = re.compile(r"\blookup\s*\(")  # a face that looks a value up depends on the deck's tables
HREF = re.compile(rb"""href\s*=\s*["']([^"']*)["']""")


@record
class CardInputs:
    """One card that prints, as its first copy prints: where it is, which faces draw it and the
    digests of what its front and back depend on."""

    index: int  # its place among the deck's cards (rows), counted from 0
    number: int  # the printed number of its first copy
    fields: dict[str, str]  # what its first copy's front reads: its fields, the deck's, card.* and deck.*
    card: CardData
    front: tuple  # the section of the deck file that draws the front: ("layout",), ("layouts", name)
    back: tuple | None  # the back's section (a twin's front for double-faced cards), None when it has none
    back_fields: dict[str, str] | None  # the fields the back shows (the twin's for double-faced cards)
    front_digest: str
    back_digest: str | None


class _Inputs:
    """The deck-wide parts of every digest, worked out once per deck."""

    def __init__(self, deck: Deck):
        self.deck = deck
        spec = deck.spec
        self.shared = json.dumps(as_written(spec, exclude=NOT_DRAWN), sort_keys=True, ensure_ascii=False)
        # what every card reads besides its own fields, as a build gives it (deck.name, today …)
        self.spec_fields = {
            **column_checks(deck).blanks,  # (a column no card has reads as empty, as in a build)
            **deck.deck_names(),
            **{key: as_text(value) for key, value in spec.fields.items()},
        }
        self.total = str(deck.card_total)
        self.tables = hashlib.sha256(  # the tables' contents (lookup() reads them), summed up once
            json.dumps(
                {name: [table.columns, table.rows] for name, table in sorted(deck.tables.items())},
                ensure_ascii=False,
                default=str,
            ).encode("utf-8")
        ).hexdigest()
        self._stamps: dict[Path, str] = {}
        self._faces: dict[tuple, tuple[str, frozenset[str] | None, list, bool]] = {}

    def section(self, section: tuple) -> Layout:
        spec = self.deck.spec
        if section[0] == "layout":
            return spec.layout or {}
        if section[0] == "layouts":
            return spec.layouts[section[1]].regions
        if section[0] == "back":
            return spec.back or {}
        return spec.backs[section[1]]

    def face(self, section: tuple) -> tuple[str, frozenset[str] | None, list, bool]:
        """A section's regions as text, the fields they read (None: an expression reads them, so
        any field may matter), their card ranges, and whether the card's number shows."""
        known = self._faces.get(section)
        if known is None:
            layout = self.section(section)
            text = json.dumps(
                {name: _as_written(region) for name, region in layout.items()},
                sort_keys=True,
                ensure_ascii=False,
                default=str,
            )
            columns = self.deck.columns
            reads: frozenset[str] | None = frozenset().union(*(refs_of(region, columns) for region in layout.values()))
            if reads is not None and "*" in reads:  # get() of a name worked out: any field may matter
                reads = None
            ranges = [parse_ranges(region.cards) for region in layout.values() if region.cards is not None]
            known = self._faces[section] = (text, reads, ranges, bool(LOOKUP.search(text)))
        return known

    def stamp(self, path: Path) -> str:
        """A file as the digest sees it (:func:`file_stamp`), once per deck."""
        found = self._stamps.get(path)
        if found is None:
            found = self._stamps[path] = file_stamp(path)
        return found

    def files(self, section: tuple, text: str, fields: dict[str, str], shown: dict) -> list[tuple[str, str]]:
        """The files a face draws with these fields: the deck's fonts and icons it names (in its
        regions or the fields it shows), and the art its image regions pick."""
        spec, folder = self.deck.spec, self.deck.folder
        values = " ".join(value for value in shown.values() if value)
        used = []
        for family, files in spec.fonts.items():
            if family in text or family in values:
                for name in asdict(files).values():
                    if name is not None:
                        used.append((name, self.stamp(folder / name)))
        for icon, found in spec.icon_specs.items():
            if icon in text or icon in values:
                used.extend(self.picture(folder / found.src))
        for region in self.section(section).values():
            if isinstance(region, ImageRegion):
                try:
                    src = region.src or ""
                    if region.field:
                        src = fields.get(region.field, "")
                    elif "${" in src:
                        src = compile_template(src).expand(fields, self.deck.tables)
                except InputError:
                    continue  # drawing the card says what is wrong with it
                if src:
                    used.extend(self.picture(folder / src))
        return used

    def picture(self, path: Path) -> list[tuple[str, str]]:
        """The stamps of a picture and of the files it refers to (:func:`picture_files`)."""
        return [(str(found), self.stamp(found)) for found in picture_files(path, self.stamp)]

    def digest(self, section: tuple, fields: dict[str, str], number: int) -> str:
        """``fields`` hold card.number, card.row … as the face reads them: a face that shows its
        number or the deck's total is drawn again when they change, and only then."""
        text, reads, ranges, looks_up = self.face(section)
        shown = fields if reads is None else {name: fields.get(name) for name in sorted(reads)}
        material = [
            self.shared,
            list(section),
            text,
            shown,
            [number in spans for spans in ranges],
            self.tables if looks_up else None,
            self.files(section, text, fields, shown),
        ]
        encoded = json.dumps(material, sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
        return hashlib.sha256(encoded).hexdigest()[:32]


def file_stamp(path: Path) -> str:
    """A file as a digest sees it: its size and time of change, or that it is missing."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return "missing"
    return f"{info.st_size}:{info.st_mtime_ns}"


def picture_files(path: Path, stamp: Callable[[Path], str] = file_stamp, depth: int = 0) -> list[Path]:
    """A picture and, for an SVG, the files it refers to (``<image href>``, ``<use href>``),
    theirs in turn, a few deep: what drawing it reads, each named from the folder of the picture
    naming it, and listed after that picture."""
    found = [path]
    if path.suffix.lower() == ".svg" and depth < 4:
        known = stamp(path)
        if known != "missing":
            for name in _references(path, known):
                found.extend(picture_files(path.parent / name, stamp, depth + 1))
    return found


def _as_written(region: Region) -> dict:
    """A region as the deck writes it: its keys worked out from ``${…}`` as written, not the
    stand-in values they are checked with (an edited expression is a changed face)."""
    return {**as_written(region), **{key: region.written(key) for key in region.dynamic}}


@lru_cache(maxsize=512)
def _references(path: Path, stamp: str) -> tuple[str, ...]:
    """The files an SVG names (not ``data:`` pictures, not ``#`` fragments of itself); reading it
    as a picture is what checks them (:mod:`kkprint.engine.pictures`)."""
    try:
        data = read_bytes(path, limit=MAX_PICTURE_BYTES, what=N_("pictures"))
    except InputError:
        return ()
    names = (match.decode("utf-8", "replace").split("#", 1)[0].strip() for match in HREF.findall(data))
    return tuple(dict.fromkeys(name for name in names if name and not name.startswith("data:")))


def front_section(deck: Deck, card: CardData) -> tuple:
    """The part of the deck file that draws a card's front: the layout its ``layout`` field
    names, else the deck's ``layout``, else its only layout (as a build chooses it)."""
    spec = deck.spec
    chosen = card.fields.get("layout") if spec.layouts else None
    if chosen:
        return ("layouts", chosen)
    if spec.layout is not None or not spec.layouts:
        return ("layout",)
    return ("layouts", next(iter(spec.layouts)))


def card_inputs(deck: Deck) -> list[CardInputs]:
    """Every card that prints, with its faces and their digests (a card with no copies prints
    only as another card's back, and is left out). Each face sees what a build gives its first
    copy: the card's fields and the deck's, card.number, card.copy, card.row and card.total."""
    spec = deck.spec
    inputs = _Inputs(deck)
    rows = list(deck.numbered())
    by_name = {card.fields.get("name"): card for card in deck.whole_deck()} if spec.back_face_field else {}
    found: list[CardInputs] = []
    for index, (row, number, card) in enumerate(rows):
        if card.count == 0:
            continue
        names = {"card.number": str(number), "card.copy": "1", "card.row": str(row), "card.total": inputs.total}
        fields = {**inputs.spec_fields, **card.fields, **names}
        front = front_section(deck, card)
        twin = by_name.get(card.fields.get(spec.back_face_field)) if spec.back_face_field else None
        back: tuple | None
        back_fields = fields
        if twin is not None:  # (a twin's front shows its own fields, and this card's number)
            back, back_fields = front_section(deck, twin), {**inputs.spec_fields, **twin.fields, **names}
        elif card.fields.get("back") in spec.backs:
            back = ("backs", card.fields["back"])
        else:
            back = ("back",) if spec.back else None
        known = front[0] == "layout" or front[1] in spec.layouts
        found.append(
            CardInputs(
                index,
                number,
                fields,
                card,
                front,
                back,
                back_fields if back else None,
                inputs.digest(front, fields, number) if known else "",
                inputs.digest(back, back_fields, number) if back else None,
            )
        )
    return found
