"""Showing a Kardinal & König result: terminal table in chart order, JSON, the filled chart."""

from __future__ import annotations

from kkprint.games.kardinal.model import KardinalGame
from kkprint.games.kardinal.scoring import KardinalResult
from kkprint.textgrid import render


def table(game: KardinalGame, result: KardinalResult, lang: str = "ja") -> str:
    label = game.label
    header = [""]
    sub = [""]
    for player in result.players:
        header += [player.name, ""]
        sub += [label("land", lang), label("arms", lang)]
    rows: list = [header, sub, None]
    for land in game.lands:
        row = [f"{land.names(lang)} ({land.value})"]
        for player in result.players:
            score = player.lands[land.id]
            row += [str(score.land), str(score.arms)]
        rows.append(row)
    rows.append(None)
    rows.append([label("subtotal", lang)] + [c for p in result.players for c in (str(p.subtotal), "")])
    rows.append([label("roads_minus", lang)] + [c for p in result.players
                                                for c in (str(p.roads), f"-{p.penalty}" if p.penalty else "0")])
    rows.append([label("total", lang)] + [c for p in result.players for c in (str(p.total), "")])
    text = render(rows, ["left", "right"])
    winners = ", ".join(result.winners)
    return f"{text}\n\n{label('winner', lang)}: {winners}  ({result.reason})"


def as_json(result: KardinalResult) -> dict:
    return {
        "game": "kardinal",
        "players": [
            {
                "name": p.name,
                "total": p.total,
                "subtotal": p.subtotal,
                "roads": p.roads,
                "ships_points": p.ship_points,
                "carriages_points": p.carriage_points,
                "minus_two_chips": p.minus_two,
                "penalty": -p.penalty,
                "land_cards": p.land_cards,
                "lands": {
                    land_id: {"land": s.land, "arms": s.arms, "land_reason": s.land_reason, "arms_reason": s.arms_reason}
                    for land_id, s in p.lands.items()
                },
            }
            for p in result.players
        ],
        "winners": list(result.winners),
        "reason": result.reason,
    }


def chart_fill(game: KardinalGame, result: KardinalResult):
    """The numbers for the filled chart (a ChartFill of the components module, which loads the
    PDF engine: imported here, so scoring without --sheet never pays for it)."""
    from kkprint.games.kardinal.components import ChartFill

    return ChartFill(
        names=[p.name for p in result.players],
        land_points=[[p.lands[land.id].land for land in game.lands] for p in result.players],
        arms_points=[[p.lands[land.id].arms for land in game.lands] for p in result.players],
        subtotals=[p.subtotal for p in result.players],
        roads=[p.roads for p in result.players],
        minus=[p.minus_two for p in result.players],
        totals=[p.total for p in result.players],
        winners=list(result.winners),
    )
