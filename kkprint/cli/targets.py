"""The names a user gives ``build`` and ``preview``: game ids, ``all``, or deck files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Msg
from kkprint.engine.job import Target
from kkprint.games import BUILD_TARGETS, target


def resolve(names: Iterable[str], command: str = "build") -> list[Target]:
    """Game ids (in any case), ``all``, or paths of deck files (anything ending in .yaml/.yml);
    an unknown name is refused naming ``command``."""
    names = list(names or ["all"])
    chosen: list[Target] = []  # (a game's module is imported only when it is named: a deck build loads none)
    for name in names:
        game = name.strip().lower()  # game ids in any case, as everywhere (``Kardinal``)
        if name.lower().endswith((".yaml", ".yml")):
            from kkprint.deck.build import deck_target

            chosen.append(deck_target(Path(name)))
        elif game == "all":
            chosen.extend(t for t in map(target, BUILD_TARGETS) if t not in chosen)
        elif game in BUILD_TARGETS:
            chosen.extend(found for found in [target(game)] if found not in chosen)
        else:
            raise InputError(
                Msg("unknown target '{name}'{hint}", name=name, hint=suggest(name, ["all", *BUILD_TARGETS])),
                source=command,
            )
    return chosen
