"""Showing a Kardinal & König result: terminal table in chart order, JSON, the filled chart."""

from __future__ import annotations

from kkprint.base.i18n import text, tr
from kkprint.games.kardinal.model import KardinalGame
from kkprint.games.kardinal.scoring import KardinalResult
from kkprint.scoring.screen import Line, Screen, Table


def table(game: KardinalGame, result: KardinalResult, lang: str = "ja") -> Screen:
    """The chart on screen: for every land what each player counted and what it scored
    (``cards/arms → land+arms``), the roads with their counts, the totals and the winner."""
    label = game.label
    players = result.players
    winners = {index + 1 for index, p in enumerate(players) if p.name in result.winners}
    rows: list = []
    for land in game.lands:
        row = [f"{land.names(lang)} ({land.value})"]
        for player in players:
            score = player.lands[land.id]
            counted = f"{score.cards}/{score.counted_arms}" if score.cards else "–"
            row.append(f"{counted} → {score.land}+{score.arms}")
        rows.append(row)
    rows.append(None)
    rows.append([label("subtotal", lang)] + [str(p.subtotal) for p in players])
    rows.append([tr("Ships", lang)] + [f"{p.ships} → {p.ship_points}" for p in players])
    rows.append([tr("Carriages", lang)] + [f"{p.carriages} → {p.carriage_points}" for p in players])
    rows.append([tr("−2 chips", lang)] + [f"{p.minus_two} → −{p.penalty}" if p.minus_two else "0" for p in players])
    rows.append(None)
    rows.append([label("total", lang)] + [str(p.total) for p in players])
    header = [tr("Land (cards in deck)", lang)] + [p.name for p in players]
    return Screen(
        [
            Table(header, rows, ["left", "right"], winners=winners),
            Line(
                tr(
                    "cards/arms → land points + arms points. Land: most cards score the land's value, the others the "
                    "count of the player above; arms: most identical arms, first place only; ships and carriages "
                    "score their number from 5 on.",
                    lang,
                )
            ),
            Line(f"{label('winner', lang)}: {', '.join(result.winners)} — {text(result.reason, lang)}", winner=True),
        ]
    )


def as_json(result: KardinalResult, lang: str = "en") -> dict:
    """The contract object; reasons are words for people, so they are in ``lang``."""
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
                    land_id: {
                        "land": s.land,
                        "arms": s.arms,
                        "land_reason": text(s.land_reason, lang),
                        "arms_reason": text(s.arms_reason, lang),
                    }
                    for land_id, s in p.lands.items()
                },
            }
            for p in result.players
        ],
        "winners": list(result.winners),
        "reason": text(result.reason, lang),
    }
