"""The Culdcept-style game definition (``data/culdcept/game.yaml``)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from kkprint.base.definitions import Definition, Names, load_definition
from kkprint.base.paths import DATA_DIR


class CuldceptGame(Definition):
    id: str
    squares: int
    rounds: int
    min_players: int
    max_players: int
    support_limit: int
    labels: dict[str, Names]
    reference: list[dict[str, Names]]
    reference_back: list[dict[str, Names]]

    def label(self, key: str, lang: str) -> str:
        return self.labels[key](lang)


@lru_cache(maxsize=2)
def load_culdcept(path: Path = DATA_DIR / "culdcept" / "game.yaml") -> CuldceptGame:
    return load_definition(CuldceptGame, path)
