"""What ``kkprint scorer kardinal`` does, without the command line around it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kkprint.games.kardinal.model import KardinalGame
from kkprint.games.kardinal.report import chart_fill
from kkprint.games.kardinal.scoring import KardinalResult, score_game
from kkprint.games.kardinal.tally import land_refs, parse_tally


def score(data: Any, source: str, game: KardinalGame, check: str = "cards") -> KardinalResult:
    return score_game(land_refs(game), parse_tally(data, source, game, check))


def write_sheet(path: Path, game: KardinalGame, result: KardinalResult, lang: str, paper: str) -> Path:
    """The 決算チャート with every name and number filled in, written atomically."""
    from kkprint.build import BuildOptions  # the PDF engine is loaded only to write a sheet
    from kkprint.engine.document import ENGINE_TEXTS
    from kkprint.engine.fonts import prepare_fonts
    from kkprint.games.kardinal.components import texts, write_chart

    options = BuildOptions(lang=lang, paper_name=paper)
    names = [p.name for p in result.players]
    fonts = prepare_fonts([*ENGINE_TEXTS, *texts(options), *names, "0123456789−-, :"])
    return write_chart(path, game, options, fonts, chart_fill(game, result))
