"""Players across games: what each played and won, and a leaderboard per game.

Statistics count finished games only (a half-filled game's "score" means nothing yet); the
pages list games in progress apart. Scores come from the scorers, through the pad's cache, so a
player page says exactly what the game's own page says.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kkprint.base.records import record
from kkprint.web.pad.charts import score
from kkprint.web.pad.store import SavedGame, Store, player_key

Scored = Callable[[SavedGame], dict | None]


@record
class Play:
    game_id: str
    game: str
    name: str
    score: int | None  # None: the game does not score yet
    won: bool
    when: float
    finished: bool


@record
class Record:
    """A player's figures in one game (or one player's line of a leaderboard)."""

    key: str
    name: str
    game: str
    games: int
    wins: int
    average: float
    best: int

    @property
    def win_rate(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


def plays(store: Store, key: str, scored: Scored) -> list[Play]:
    """Every game the player sat in, oldest first."""
    found = []
    for seat in store.seats(key):
        saved = store.get(seat.game_id)
        if saved is None:
            continue
        result = scored(saved)
        players = (result or {}).get("players") or []
        player = players[seat.seat] if seat.seat < len(players) else None
        found.append(
            Play(
                saved.id,
                saved.game,
                seat.name,
                score(player) if player else None,
                player is not None and player.get("name") in (result or {}).get("winners", []),
                saved.finished or saved.updated,
                saved.finished is not None,
            )
        )
    return found


def records(key: str, played: list[Play]) -> list[Record]:
    """The player's figures per game, over finished games that score."""
    by_game: dict[str, list[Play]] = {}
    for play in played:
        if play.finished and play.score is not None:
            by_game.setdefault(play.game, []).append(play)
    return [_record(key, plays[-1].name, game, plays) for game, plays in by_game.items()]


def leaderboard(store: Store, game: str, scored: Scored) -> list[Record]:
    """Every player of one game's finished games: most wins first, then the better average."""
    by_player: dict[str, list[Play]] = {}
    for saved in store.finished_games(game):
        result = scored(saved)
        if not result:
            continue
        for player in result.get("players") or []:
            name = str(player.get("name", ""))
            if not player_key(name):
                continue
            play = Play(saved.id, game, name, score(player), name in result.get("winners", []), saved.updated, True)
            by_player.setdefault(player_key(name), []).append(play)
    rows = [_record(key, plays[-1].name, game, plays) for key, plays in by_player.items()]
    return sorted(rows, key=lambda r: (-r.wins, -r.average, -r.games, r.name))


def _record(key: str, name: str, game: str, plays: list[Play]) -> Record:
    scores = [p.score for p in plays if p.score is not None]
    return Record(
        key,
        name,
        game,
        len(plays),
        sum(p.won for p in plays),
        round(sum(scores) / len(scores), 1) if scores else 0.0,
        max(scores) if scores else 0,
    )


def day(seconds: float) -> str:
    """A date as the lists show it, in this computer's time."""
    return time.strftime("%Y-%m-%d", time.localtime(seconds))
