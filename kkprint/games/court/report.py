"""Showing To Court the King answers: eligibility lists and the final round."""

from __future__ import annotations

from kkprint.games.court.model import CourtGame
from kkprint.games.court.rules import FinalResult
from kkprint.games.court.service import Eligibility
from kkprint.textgrid import render


def eligibility_text(game: CourtGame, result: Eligibility, lang: str) -> str:
    name = {c.en: c.name(lang) for c in game.characters}
    tier = {c.en: c.tier or "–" for c in game.characters}
    lines = [f"dice: {' '.join(map(str, result.dice))}  (total {sum(result.dice)})", "", "may take:"]
    lines += [f"  {tier[n]:<4}{name[n]}" for n in result.eligible]
    lines += ["", "may not take:"]
    lines += [f"  {tier[n]:<4}{name[n]} — {why}" for n, why in result.refused.items()]
    return "\n".join(lines)


def eligibility_json(result: Eligibility) -> dict:
    return {"dice": result.dice, "eligible": result.eligible, "refused": result.refused}


def final_text(result: FinalResult) -> str:
    rows: list = [["rolls", "player", "dice", "strength"], None]
    by_name = {roll.name: roll for roll in result.rolls}
    for order, name in enumerate(result.rolling_order, start=1):
        roll = by_name[name]
        rows.append([str(order), roll.name, " ".join(map(str, roll.dice)), str(roll.strength)])
    return f"{render(rows, ['right', 'left', 'left', 'left'])}\n\nThe King goes to {result.winner}: {result.reason}"


def final_json(result: FinalResult) -> dict:
    return {
        "game": "court",
        "players": [{"name": r.name, "total": r.strength.count, "dice": list(r.dice),
                     "strength": {"count": r.strength.count, "value": r.strength.value}} for r in result.rolls],
        "winners": [result.winner],
        "rolling_order": result.rolling_order,
        "reason": result.reason,
    }
