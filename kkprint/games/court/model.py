"""The To Court the King character list (``data/court/characters.yaml``), typed and checked."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from kkprint.base.definitions import Definition, Names, load_definition
from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.paths import DATA_DIR
from kkprint.games.court.rules import CONDITION_KINDS

FOOL, CHARLATAN = "Fool", "Charlatan"


class Character(Definition):
    en: str
    de: str
    ja: str
    tier: str | None
    copies: int
    condition: dict[str, Any]
    shows: Names
    effect: Names

    def name(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


class CourtGame(Definition):
    id: str
    tiers: dict[str, int]
    copies_by_players: dict[str, dict[int, int]]
    characters: list[Character]
    labels: dict[str, Names]

    def __post_init__(self) -> None:
        for character in self.characters:
            if character.condition.get("kind") not in CONDITION_KINDS:
                raise ValueError(f"{character.en}: unknown condition kind {character.condition.get('kind')!r}")
            if character.tier is not None and character.tier not in self.tiers:
                raise ValueError(f"{character.en}: unknown tier {character.tier!r}")
        names = [c.en for c in self.characters]
        if FOOL not in names or CHARLATAN not in names:
            raise ValueError("the Fool and the Charlatan must be defined")

    def character(self, name: str) -> Character:
        return next(c for c in self.characters if c.en == name)

    def copies(self, character: Character, players: int | None) -> int:
        """Copies an N-player game uses (RULES §4 table); the full set without N."""
        if players is None:
            return character.copies
        if character.en == FOOL:
            return players
        if character.tier is None:
            return 0
        return self.copies_by_players[character.tier][players]

    def label(self, key: str, lang: str) -> str:
        return self.labels[key](lang)


@lru_cache(maxsize=2)
def load_court(path: Path = DATA_DIR / "court" / "characters.yaml") -> CourtGame:
    game = load_definition(CourtGame, path)
    if game.id != "court":
        raise InputError(Msg("expected id 'court', found '{id}'", id=game.id), source=str(path))
    return game
