"""The Kardinal & König definition in ``data/kardinal/game.yaml``, typed and checked."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Literal

from kkprint.base.definitions import Definition, Names, load_definition
from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.paths import DATA_DIR

ROADS = ("ship", "carriage")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


class Land(Definition):
    id: str
    names: Names
    colour: str
    mark: Literal["circle", "square", "triangle", "triangle-down", "diamond", "pentagon", "hexagon", "cross", "ring"]
    band: Literal["plain", "vertical", "horizontal"] = "plain"  # the pattern in the card's top band
    cards: list[list[str]]

    def __post_init__(self) -> None:
        if not _HEX.match(self.colour):
            raise ValueError(f"colour {self.colour!r} must look like #2b5fab")

    @property
    def value(self) -> int:
        """A land is worth its number of cards in the deck (France 8 … Denmark 4)."""
        return len(self.cards)

    def arms_on(self, card: list[str]) -> Counter:
        return Counter(item for item in card if item not in ROADS)

    def kind_total(self, kind: str) -> int:
        return sum(self.arms_on(card)[kind] for card in self.cards)

    def best_possible(self, kind: str, cards: int) -> int:
        """Most arms of ``kind`` that ``cards`` cards of this land can show together."""
        per_card = sorted((self.arms_on(card)[kind] for card in self.cards), reverse=True)
        return sum(per_card[:cards])

    def road_cards(self, road: str) -> int:
        return sum(1 for card in self.cards if road in card)


class PlayerColour(Definition):
    id: str
    names: Names
    colour: str
    symbol: str


class LawChip(Definition):
    id: str
    count: int
    names: Names


class KardinalGame(Definition):
    id: str
    title: Names
    arms: dict[str, Names]
    roads: dict[str, Names]
    lands: list[Land]
    players: list[PlayerColour]
    rights_tokens_per_player: int
    law_chips: list[LawChip]
    labels: dict[str, Names]

    def __post_init__(self) -> None:
        seen = set()
        for land in self.lands:
            if land.id in seen:
                raise ValueError(f"land id {land.id!r} is defined twice")
            seen.add(land.id)
            for number, card in enumerate(land.cards, start=1):
                for item in card:
                    if item not in self.arms and item not in ROADS:
                        raise ValueError(f"{land.id} card {number}: {item!r} is neither an arms kind nor ship/carriage")
                if sum(land.arms_on(card).values()) > 2:
                    raise ValueError(f"{land.id} card {number}: a card shows at most 2 arms")
                if "ship" in card and "carriage" in card:
                    raise ValueError(f"{land.id} card {number}: a card has a ship or a carriage, not both")
        if not 3 <= len(self.lands) <= 20:
            raise ValueError("a deck needs between 3 and 20 lands")

    @cached_property
    def land_by_name(self) -> dict[str, Land]:
        """Every way a player may name a land (id, English, Japanese, German), folded."""
        table = {}
        for land in self.lands:
            for name in (land.id, land.names.ja, land.names.en, land.names.de):
                if name:
                    table[fold(name)] = land
        return table

    def find_land(self, name: str) -> Land | None:
        return self.land_by_name.get(fold(name))

    def find_arms(self, name: str) -> str | None:
        for kind, names in self.arms.items():
            if fold(name) in {fold(kind), fold(names.ja), fold(names.en), fold(names.de or kind)}:
                return kind
        return None

    @property
    def total_cards(self) -> int:
        return sum(land.value for land in self.lands)

    def road_total(self, road: str) -> int:
        return sum(land.road_cards(road) for land in self.lands)

    def chip_count(self, chip_id: str) -> int:
        return sum(chip.count for chip in self.law_chips if chip.id == chip_id)

    def label(self, key: str, lang: str) -> str:
        return self.labels[key](lang)


def fold(name: str) -> str:
    """Case-, width- and accent-insensitive form of a name, so 'DÄNEMARK' finds Dänemark."""
    text = unicodedata.normalize("NFKC", str(name)).strip().casefold()
    return text.replace("ä", "a").replace("ö", "o").replace("ü", "u").replace("ß", "ss")


DEFAULT_PATH = DATA_DIR / "kardinal" / "game.yaml"


@lru_cache(maxsize=4)
def load_game(path: Path = DEFAULT_PATH) -> KardinalGame:
    game = load_definition(KardinalGame, path)
    if game.id != "kardinal":
        raise InputError(Msg("expected id 'kardinal', found '{id}'", id=game.id), source=str(path))
    return game
