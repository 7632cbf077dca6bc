"""Showing To Court the King answers: eligibility lists and the final round."""

from __future__ import annotations

from kkprint.base.i18n import text, tr
from kkprint.games.court.model import CourtGame
from kkprint.games.court.rules import FinalResult
from kkprint.games.court.service import Eligibility
from kkprint.scoring.screen import Line, Screen, Table


def eligibility_text(game: CourtGame, result: Eligibility, lang: str) -> Screen:
    name = {c.en: c.name(lang) for c in game.characters}
    tier = {c.en: c.tier or "–" for c in game.characters}
    lines = [
        tr("dice: {dice}  (total {total})", lang, dice=" ".join(map(str, result.dice)), total=sum(result.dice)),
        "",
        tr("may take:", lang),
    ]
    lines += [f"  {tier[n]:<4}{name[n]}" for n in result.eligible]
    lines += ["", tr("may not take:", lang)]
    lines += [f"  {tier[n]:<4}{name[n]} — {text(why, lang)}" for n, why in result.refused.items()]
    return Screen([Line(line) for line in lines])


def eligibility_json(result: Eligibility, lang: str = "en") -> dict:
    return {
        "dice": result.dice,
        "eligible": result.eligible,
        "refused": {name: text(why, lang) for name, why in result.refused.items()},
    }


def final_text(result: FinalResult, lang: str = "en") -> Screen:
    header = [tr("order", lang), tr("player", lang), tr("dice", lang), tr("strength", lang)]
    rows = []
    by_name = {roll.name: roll for roll in result.rolls}
    for order, name in enumerate(result.rolling_order, start=1):
        roll = by_name[name]
        rows.append([str(order), roll.name, " ".join(map(str, roll.dice)), str(roll.strength)])
    winner = {result.rolling_order.index(result.winner)}
    return Screen(
        [
            Table(header, rows, ["right", "left", "left", "left"], winner_rows=winner),
            Line(""),
            Line(tr("The King goes to {name}: {reason}", lang, name=result.winner, reason=result.reason), winner=True),
        ]
    )


def final_json(result: FinalResult, lang: str = "en") -> dict:
    return {
        "game": "court",
        "players": [
            {
                "name": r.name,
                "total": r.strength.count,
                "dice": list(r.dice),
                "strength": {"count": r.strength.count, "value": r.strength.value},
            }
            for r in result.rolls
        ],
        "winners": [result.winner],
        "rolling_order": result.rolling_order,
        "reason": text(result.reason, lang),
    }
