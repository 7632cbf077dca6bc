"""Showing a Web of Power scoring: a terminal table with the reasons, and the JSON contract."""

from __future__ import annotations

from kkprint.base.i18n import ntr, tr
from kkprint.games.webofpower.scoring import Phase, Result
from kkprint.scoring.screen import Line, Part, Screen, Table


def table(result: Result, lang: str = "en") -> Screen:
    final = result.phase is Phase.FINAL
    header = [tr("player", lang), tr("monasteries", lang)]
    if final:
        header += [tr("cardinals", lang), tr("roads", lang), tr("total", lang), tr("interim", lang)]
    header.append(tr("game total", lang))
    rows = []
    for p in result.players:
        rows.append(
            [p.name, str(p.monasteries)]
            + ([str(p.cardinals), str(p.roads), str(p.total), str(p.interim)] if final else [])
            + [str(p.game_total)]
        )
    winners = {index for index, p in enumerate(result.players) if p.name in result.winners}
    parts: list[Part] = [
        Line(tr("Final scoring", lang) if final else tr("Interim scoring", lang)),
        Table(header, rows, ["left", "right"], winner_rows=winners),
    ]
    parts += [Line(line) for line in reasons(result, lang)]
    parts.append(Line(tr("Winner: {names}", lang, names=", ".join(result.winners)), winner=True))
    return Screen(parts)


def reasons(result: Result, lang: str = "en") -> list[str]:
    """Where the points beyond the monasteries came from: alliances and roads."""
    names = [p.name for p in result.players]
    lines = []
    for player in result.players:
        areas = ", ".join(f"{area} {points}" for area, points in player.monastery_detail.items() if points)
        lines.append("  " + tr("monasteries of {name}: {areas}", lang, name=player.name, areas=areas or "–"))
    for alliance in result.alliances:
        if alliance.scorers:
            a, b = alliance.areas
            lines.append(
                "  "
                + tr(
                    "alliance [{number}] {a}–{b}: {names} +{points}",
                    lang,
                    number=alliance.number,
                    a=a,
                    b=b,
                    names=", ".join(names[i] for i in alliance.scorers),
                    points=alliance.total_cardinals,
                )
            )
    idle = sum(1 for alliance in result.alliances if not alliance.scorers)
    if idle:
        idle_line = ntr(
            "{count} other alliance: nobody leads both sides",
            "{count} other alliances: nobody leads both sides",
            idle,
            lang,
            count=idle,
        )
        lines.append("  " + idle_line)
    for road in result.roads:
        start, end = road.cells[0], road.cells[-1]
        lines.append(
            "  "
            + tr(
                "road: {name} +{length} ({direction}, r{r1}c{c1}–r{r2}c{c2})",
                lang,
                name=names[road.player],
                length=road.length,
                direction=tr("row", lang) if road.direction == "row" else tr("column", lang),
                r1=start[0] + 1,
                c1=start[1] + 1,
                r2=end[0] + 1,
                c2=end[1] + 1,
            )
        )
    return lines


def as_json(result: Result, lang: str = "en") -> dict:
    names = [p.name for p in result.players]
    return {
        "game": result.game,
        "phase": result.phase.value,
        "players": [
            {
                "name": p.name,
                "total": p.total,
                "monasteries": p.monasteries,
                "cardinals": p.cardinals,
                "roads": p.roads,
                "interim": p.interim,
                "game_total": p.game_total,
                "monasteries_by_area": p.monastery_detail,
            }
            for p in result.players
        ],
        "winners": result.winners,
        "alliances": [
            {
                "number": a.number,
                "areas": list(a.areas),
                "cardinals": a.total_cardinals,
                "scorers": [names[i] for i in a.scorers],
            }
            for a in result.alliances
        ],
        "roads": [
            {
                "player": names[r.player],
                "length": r.length,
                "direction": r.direction,
                "cells": [list(c) for c in r.cells],
            }
            for r in result.roads
        ],
    }
