"""The names a user gives ``build`` and ``preview``: game ids, ``all``, or deck files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Msg
from kkprint.engine.job import Target
from kkprint.games import targets as game_targets


def resolve(names: Iterable[str], command: str = "build") -> list[Target]:
    """Game ids (in any case), ``all``, or paths of deck files (anything ending in .yaml/.yml);
    an unknown name is refused naming ``command``."""
    names = list(names or ["all"])
    decks_only = all(name.lower().endswith((".yaml", ".yml")) for name in names)
    known = {} if decks_only else game_targets()  # a deck build never loads the games
    chosen: list[Target] = []
    for name in names:
        game = name.strip().lower()  # game ids in any case, as everywhere (``Kardinal``)
        if name.lower().endswith((".yaml", ".yml")):
            from kkprint.deck.build import deck_target

            chosen.append(deck_target(Path(name)))
        elif game == "all":
            chosen.extend(t for t in known.values() if t not in chosen)
        elif game in known:
            if known[game] not in chosen:
                chosen.append(known[game])
        else:
            raise InputError(
                Msg("unknown target '{name}'{hint}", name=name, hint=suggest(name, ["all", *known])), source=command
            )
    return chosen
