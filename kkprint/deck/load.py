"""Reading a deck: ``extends`` resolution, CSV data, limits, and paths kept inside the deck folder."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from kkprint.deck.model import DeckFile
from kkprint.errors import InputError
from kkprint.models import validate
from kkprint.paths import TEMPLATES_DIR
from kkprint.yamlio import LineDict, load_yaml_file, read_text

MAX_CARDS = 50_000
MAX_EXTENDS = 8


@dataclass(frozen=True)
class CardData:
    """One distinct card: its fields, how many copies, and where it was defined."""

    fields: dict[str, str]
    count: int
    origin: str


@dataclass(frozen=True)
class Deck:
    """A loaded deck. Its cards are read again from the CSV each time they are walked, so a deck
    of ten thousand cards is never held in memory all at once."""

    spec: DeckFile
    inline: tuple[CardData, ...]
    csv_path: Path | None
    folder: Path
    source: str
    allow_outside: bool = False
    chosen: tuple[CardData, ...] | None = None  # set by --only

    def iter_cards(self) -> Iterator[CardData]:
        if self.chosen is not None:
            yield from self.chosen
            return
        yield from self.inline
        if self.csv_path is not None:
            yield from _csv_cards(self.csv_path)

    @property
    def cards(self) -> list[CardData]:
        """All distinct cards as a list (for --only and inspection; builds walk iter_cards)."""
        return list(self.iter_cards())

    @property
    def total(self) -> int:
        return sum(card.count for card in self.iter_cards())

    def resolve(self, name: str, what: str, place: str) -> Path:
        """A file the deck names, which must stay inside the deck's folder unless allowed."""
        path = (self.folder / name).resolve()
        if not self.allow_outside and not path.is_relative_to(self.folder.resolve()):
            raise InputError(f"{what} {name!r} is outside the deck's folder (use --allow-outside to permit)",
                             source=self.source, place=place)
        if not path.is_file():
            raise InputError(f"{what} {name!r} not found", source=self.source, place=place)
        return path


def merge(base: Any, override: Any) -> Any:
    """Field-by-field override: mappings merge recursively, anything else replaces; ``null``
    in the override removes the key (so a child can drop a region its template has)."""
    if isinstance(base, dict) and isinstance(override, dict):
        merged = dict(base)
        for key, value in override.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = merge(base.get(key), value)
        return merged
    return override


def _template_path(name: str, folder: Path, source: str, allow_outside: bool) -> Path:
    if "/" not in name and "\\" not in name and not name.endswith((".yaml", ".yml")):
        for candidate in (folder / f"{name}.yaml", TEMPLATES_DIR / f"{name}.yaml"):
            if candidate.is_file():
                return candidate
        known = ", ".join(sorted(p.stem for p in TEMPLATES_DIR.glob("*.yaml")))
        raise InputError(f"unknown template {name!r}; known: {known}", source=source, place="extends")
    path = (folder / name).resolve()
    if not allow_outside and not path.is_relative_to(folder.resolve()):
        raise InputError(f"template {name!r} is outside the deck's folder", source=source, place="extends")
    if not path.is_file():
        raise InputError(f"template {name!r} not found", source=source, place="extends")
    return path


def resolve_extends(data: Any, path: Path, allow_outside: bool = False, depth: int = 0, seen: tuple = ()) -> dict:
    """The deck's data with every ``extends`` applied, the furthest ancestor first."""
    source = str(path)
    if not isinstance(data, dict):
        raise InputError("a deck file is a mapping of keys (name, card, layout, cards …)", source=source)
    parent = data.get("extends")
    if parent is None:
        return dict(data)
    if not isinstance(parent, str):
        raise InputError("extends names one template", source=source, place="extends")
    if depth >= MAX_EXTENDS:
        raise InputError(f"extends is nested more than {MAX_EXTENDS} deep", source=source, place="extends")
    parent_path = _template_path(parent, path.parent, source, allow_outside)
    if parent_path.resolve() in seen:
        raise InputError(f"extends loops back to {parent_path.name}", source=source, place="extends")
    parent_data = resolve_extends(load_yaml_file(parent_path), parent_path, allow_outside, depth + 1,
                                  seen + (path.resolve(),))
    child = {k: v for k, v in data.items() if k != "extends"}
    return merge(parent_data, child)


def _count(value: Any, source: str, place: str) -> int:
    try:
        number = int(str(value).strip() or "1")
    except ValueError:
        raise InputError(f"count must be a whole number, not {value!r}", source=source, place=place) from None
    if number < 0:
        raise InputError(f"count cannot be negative ({number})", source=source, place=place)
    if number > MAX_CARDS:
        raise InputError(f"count {number:,} is more than the {MAX_CARDS:,} cards a deck may have", source=source, place=place)
    return number


def _csv_path(deck_folder: Path, name: str, source: str, allow_outside: bool) -> Path:
    path = (deck_folder / name).resolve()
    if not allow_outside and not path.is_relative_to(deck_folder.resolve()):
        raise InputError(f"CSV file {name!r} is outside the deck's folder (use --allow-outside to permit)",
                         source=source, place="csv")
    return path


def _csv_cards(path: Path) -> Iterator[CardData]:
    """The CSV's cards, one at a time: a column per field, ``count`` for copies."""
    text = read_text(path)
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames:
        raise InputError("the CSV file has no header row", source=str(path))
    for row_number, row in enumerate(reader, start=2):
        if None in row:
            raise InputError("this row has more cells than the header", source=str(path), place=f"row {row_number}")
        fields = {k.strip(): (v or "").strip() for k, v in row.items() if k}
        if not any(fields.values()):
            continue
        count = _count(fields.pop("count", "1"), str(path), f"row {row_number}, count")
        yield CardData(fields, count, f"{path.name} row {row_number}")


def load_deck(path: Path, *, allow_outside: bool = False) -> Deck:
    source = str(path)
    raw = load_yaml_file(path)
    data = resolve_extends(raw, path, allow_outside)
    spec = validate(DeckFile, data, source, lines=raw)
    cards = []
    for index, entry in enumerate(spec.cards):
        fields = {str(k): str(v) for k, v in entry.items() if k != "count"}
        line = None
        raw_cards = raw.get("cards") if isinstance(raw, dict) else None
        if isinstance(raw_cards, list) and index < len(raw_cards) and isinstance(raw_cards[index], LineDict):
            line = raw_cards[index].line
        place = f"cards[{index}]" + (f" (line {line})" if line else "")
        cards.append(CardData(fields, _count(entry.get("count", 1), source, place), place))
    csv_path = _csv_path(path.parent, spec.csv, source, allow_outside) if spec.csv else None
    deck = Deck(spec, tuple(cards), csv_path, path.parent, source, allow_outside)
    total = 0
    for card in deck.iter_cards():  # one pass that checks every row and the total
        total += card.count
        if total > MAX_CARDS:
            break
    if total > MAX_CARDS:
        raise InputError(f"the deck asks for more than {MAX_CARDS:,} cards, the most that are printed", source=source)
    if total == 0:
        raise InputError("the deck has no cards (add cards: or csv:)", source=source)
    return deck


@lru_cache(maxsize=16)
def _layout(path: Path) -> DeckFile:
    return validate(DeckFile, load_yaml_file(path), str(path))


def layout_deck(path: Path, fields: dict[str, str], cards: list[tuple[dict[str, str], int, str]]) -> Deck:
    """A deck from a layout file and card data made by code (a game's own cards): ``cards`` are
    (fields, count, origin) triples, ``fields`` the deck-wide fields."""
    spec = _layout(path).model_copy(update={"fields": fields})
    return Deck(spec, tuple(CardData(f, count, origin) for f, count, origin in cards), None, path.parent, str(path))


def select(deck: Deck, only: str | None) -> Deck:
    """Keep the cards picked by ``--only``: names (the ``name`` field) and 1-based numbers or
    ranges, comma-separated (``1-3,Knight``)."""
    if not only:
        return deck
    cards = deck.cards
    chosen: list[CardData] = []
    for part in (p.strip() for p in only.split(",") if p.strip()):
        if part.replace("-", "").isdigit() and not part.startswith("-"):
            first, _, last = part.partition("-")
            start, stop = int(first), int(last or first)
            if not 1 <= start <= stop <= len(cards):
                raise InputError(f"--only {part}: the deck has cards 1–{len(cards)}", source="--only")
            picked = cards[start - 1:stop]
        else:
            picked = [c for c in cards if c.fields.get("name") == part]
            if not picked:
                raise InputError(f"--only: no card is named {part!r}", source="--only")
        chosen.extend(c for c in picked if c not in chosen)
    return replace(deck, chosen=tuple(chosen))
