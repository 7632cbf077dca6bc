"""The filled 決算チャート: a scored game's names and numbers on the printed chart (``kkprint
scorer kardinal --sheet``, the score pad's chart.pdf). Scoring never imports this module, so a
score without a sheet never loads the PDF engine."""

from __future__ import annotations

from pathlib import Path

from kkprint.engine.document import engine_texts
from kkprint.engine.fonts import prepare_fonts
from kkprint.engine.job import BuildOptions
from kkprint.games.kardinal.components import ChartFill, texts, write_chart
from kkprint.games.kardinal.model import KardinalGame
from kkprint.games.kardinal.scoring import KardinalResult


def write_sheet(path: Path, game: KardinalGame, result: KardinalResult, lang: str, paper: str) -> Path:
    """The 決算チャート with every name and number filled in, written atomically."""
    options = BuildOptions(lang=lang, paper_name=paper)
    names = [p.name for p in result.players]
    fonts = prepare_fonts([*engine_texts(), *texts(options), *names, "0123456789−-, :"])
    return write_chart(path, game, options, fonts, chart_fill(game, result))


def chart_fill(game: KardinalGame, result: KardinalResult):
    """The numbers for the filled chart."""
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
