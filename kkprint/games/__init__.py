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
    import importlib

    found = {}
    for target_id, module in BUILD_TARGETS.items():
        by_id = {target.id: target for target in importlib.import_module(module).TARGETS}
        found[target_id] = by_id[target_id]
    return found
