"""Every game that has a scorer, behind one door: tally data in, the ``--json`` object (or the
text for people) out. The command line and the score pad both score through here, so the page
and ``kkprint scorer GAME --json`` cannot disagree.

Game modules are imported only when a game is scored: scoring never loads the PDF engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Msg
from kkprint.base.records import record

if TYPE_CHECKING:
    from kkprint.scoring.screen import Screen


@record
class Scorer:
    id: str
    example: str  # the tally/state file in examples/ that `kkprint new tally` copies
    title: Msg
    load: Callable[..., GameScorer]  # the game's rules, loaded when first scored


@record
class GameScorer:
    """A game's rules for one scoring: ``score(data, source)`` validates and scores (raising
    :class:`InputError`), ``as_json`` gives the contract object, ``as_text`` the terminal table."""

    score: Callable[[Any, str], Any]
    as_json: Callable[[Any, str], dict]
    as_text: Callable[[Any, str], Screen]


def _kardinal(deck=None, check: str = "cards", other_edition: Msg | None = None) -> GameScorer:
    """``other_edition``: what a refusal by our card list adds (the door's way to check against
    the sources alone); by default it only asks."""
    from kkprint.games.kardinal import report, service
    from kkprint.games.kardinal.model import DEFAULT_PATH, load_game
    from kkprint.games.kardinal.tally import OTHER_EDITION

    game = load_game(deck or DEFAULT_PATH)
    return GameScorer(
        lambda data, source: service.score(data, source, game, check, other_edition or OTHER_EDITION),
        lambda result, lang: report.as_json(result, lang),
        lambda result, lang: report.table(game, result, lang),
    )


def _webofpower() -> GameScorer:
    from kkprint.games.webofpower import report
    from kkprint.games.webofpower.model import load_map
    from kkprint.games.webofpower.state import score_trump_map

    grid = load_map()
    return GameScorer(lambda data, source: score_trump_map(data, source, grid), report.as_json, report.table)


def _webofpower_board() -> GameScorer:
    from kkprint.games.webofpower import report
    from kkprint.games.webofpower.model import load_board
    from kkprint.games.webofpower.state import score_board

    board = load_board()
    return GameScorer(lambda data, source: score_board(data, source, board), report.as_json, report.table)


def _court() -> GameScorer:
    from kkprint.games.court import report, service

    return GameScorer(service.score_final, report.final_json, report.final_text)


def _culdcept() -> GameScorer:
    from kkprint.games.culdcept import state
    from kkprint.games.culdcept.model import load_culdcept

    game = load_culdcept()
    return GameScorer(lambda data, source: state.score_state(data, source, game), state.as_json, state.as_text)


SCORERS = {
    scorer.id: scorer
    for scorer in (
        Scorer("kardinal", "kardinal-tally.yaml", Msg("Kardinal & König"), _kardinal),
        Scorer("webofpower", "webofpower-state.yaml", Msg("Web of Power — trump map"), _webofpower),
        Scorer("webofpower-board", "webofpower-board-tally.yaml", Msg("Web of Power — board game"), _webofpower_board),
        Scorer("court", "court-final.yaml", Msg("To Court the King — final round"), _court),
        Scorer("culdcept", "culdcept-state.yaml", Msg("Culdcept-style game"), _culdcept),
    )
}


def scorer(name: str, source: str = "scorer") -> Scorer:
    """The scorer called ``name`` (any case), or an error with a suggestion."""
    found = SCORERS.get(str(name).strip().lower())
    if found is None:
        raise InputError(
            Msg("no scorer for '{name}'{hint}", name=name, hint=suggest(str(name), SCORERS)), source=source
        )
    return found


def score_json(game: str, data: Any, source: str, lang: str) -> dict:
    """Exactly what ``kkprint scorer GAME --json --lang LANG`` prints for ``data``."""
    rules = scorer(game).load()
    return rules.as_json(rules.score(data, source), lang)
