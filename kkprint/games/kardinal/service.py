"""What ``kkprint scorer kardinal`` does, without the command line around it."""

from __future__ import annotations

from typing import Any

from kkprint.base.i18n import Msg
from kkprint.games.kardinal.model import KardinalGame
from kkprint.games.kardinal.scoring import KardinalResult, score_game
from kkprint.games.kardinal.tally import OTHER_EDITION, land_refs, parse_tally


def score(
    data: Any, source: str, game: KardinalGame, check: str = "cards", other_edition: Msg = OTHER_EDITION
) -> KardinalResult:
    return score_game(land_refs(game), parse_tally(data, source, game, check, other_edition))
