"""Showing a Web of Power scoring: a terminal table with the reasons, and the JSON contract."""

from __future__ import annotations

from kkprint.games.webofpower.scoring import Phase, Result
from kkprint.textgrid import render


def table(result: Result) -> str:
    final = result.phase is Phase.FINAL
    header = ["player", "monasteries"] + (["cardinals", "roads", "total", "interim"] if final else []) + ["game total"]
    rows: list = [header, None]
    for p in result.players:
        rows.append([p.name, str(p.monasteries)] + ([str(p.cardinals), str(p.roads), str(p.total), str(p.interim)]
                                                  if final else []) + [str(p.game_total)])
    lines = [f"{'Final' if final else 'Interim'} scoring", render(rows, ["left", "right"])]
    names = [p.name for p in result.players]
    for alliance in result.alliances:
        if alliance.scorers:
            a, b = alliance.areas
            who = ", ".join(names[i] for i in alliance.scorers)
            lines.append(f"  alliance [{alliance.number}] {a}–{b}: {who} +{alliance.total_cardinals}")
    idle = sum(1 for alliance in result.alliances if not alliance.scorers)
    if idle:
        lines.append(f"  {idle} other alliance(s): nobody leads both sides")
    for road in result.roads:
        start, end = road.cells[0], road.cells[-1]
        lines.append(f"  road: {names[road.player]} +{road.length} ({road.direction}, "
                     f"r{start[0] + 1}c{start[1] + 1}–r{end[0] + 1}c{end[1] + 1})")
    lines.append(f"\nWinner: {', '.join(result.winners)}")
    return "\n".join(lines)


def as_json(result: Result) -> dict:
    names = [p.name for p in result.players]
    return {
        "game": result.game,
        "phase": result.phase.value,
        "players": [
            {"name": p.name, "total": p.total, "monasteries": p.monasteries, "cardinals": p.cardinals,
             "roads": p.roads, "interim": p.interim, "game_total": p.game_total, "monasteries_by_area": p.monastery_detail}
            for p in result.players
        ],
        "winners": result.winners,
        "alliances": [{"number": a.number, "areas": list(a.areas), "cardinals": a.total_cardinals,
                       "scorers": [names[i] for i in a.scorers]} for a in result.alliances],
        "roads": [{"player": names[r.player], "length": r.length, "direction": r.direction,
                   "cells": [list(c) for c in r.cells]} for r in result.roads],
    }
