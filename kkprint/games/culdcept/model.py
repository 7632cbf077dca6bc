"""The Culdcept-style game definition (``data/culdcept/game.yaml``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import model_validator

from kkprint.models import Names, Strict, load_model
from kkprint.paths import DATA_DIR


class CuldceptGame(Strict):
    id: str
    squares: int
    rounds: int
    min_players: int
    max_players: int
    support_limit: int
    start_squares: dict[str, int]
    labels: dict[str, Names]
    reference: list[dict[str, Names]]

    @model_validator(mode="after")
    def _consistent(self) -> "CuldceptGame":
        for card, square in self.start_squares.items():
            if not 1 <= square <= self.squares:
                raise ValueError(f"start square for {card} must be 1–{self.squares}")
        return self

    def label(self, key: str, lang: str) -> str:
        return self.labels[key](lang)


@lru_cache(maxsize=2)
def load_culdcept(path: Path = DATA_DIR / "culdcept" / "game.yaml") -> CuldceptGame:
    return load_model(CuldceptGame, path)
