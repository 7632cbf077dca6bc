"""The games kkprint prints and scores. Each is a package: its model (the definitions in
``data/``), its rules and scoring (pure: no PDF, no terminal, no web), its components (what is
printed, through :mod:`kkprint.engine`) and its report (what a person reads).

What ``kkprint build`` can make of them is listed here, once, as data: a target's id and the
module whose ``TARGETS`` holds it, in the order ``build all`` and ``kkprint list`` give them.
A module is imported only when its targets are asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kkprint.engine.job import Target

BUILD_TARGETS = {
    "kardinal": "kkprint.games.kardinal.components",
    "webofpower": "kkprint.games.webofpower.components",
    "webofpower-board": "kkprint.games.webofpower.components",
    "court": "kkprint.games.court.components",
    "culdcept": "kkprint.games.culdcept.components",
}


def targets() -> dict[str, Target]:
    """Every game's build target, by id."""
    return {target_id: target(target_id) for target_id in BUILD_TARGETS}


def target(target_id: str) -> Target:
    """One game's build target, importing its module alone: ``build court`` never loads the
    other games (a sixth of a small build's start-up)."""
    import importlib

    return next(found for found in importlib.import_module(BUILD_TARGETS[target_id]).TARGETS if found.id == target_id)
