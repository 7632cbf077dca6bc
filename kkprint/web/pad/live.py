"""Pushed updates: every phone with a game open listens on ``/api/games/ID/events`` (Server-Sent
Events) and hears of each change the moment it is saved.

A listener is told only *that* its game changed; it then reads the game once and sends it in its
own language. Several changes in a burst reach a slow phone as one, the latest, so a phone that
cannot keep up is never sent a backlog.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator


class Hub:
    """Who listens to which game, on this server's one event loop."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[asyncio.Event]] = defaultdict(set)

    def publish(self, game_id: str) -> None:
        for changed in self._listeners.get(game_id, ()):
            changed.set()

    def listening(self, game_id: str) -> int:
        return len(self._listeners.get(game_id, ()))

    async def changes(self, game_id: str) -> AsyncIterator[None]:
        """Yields once at once (the game as it is), then after each change (bursts as one)."""
        changed = asyncio.Event()
        changed.set()
        self._listeners[game_id].add(changed)
        try:
            while True:
                await changed.wait()
                changed.clear()
                yield
        finally:
            self._listeners[game_id].discard(changed)
            if not self._listeners[game_id]:
                del self._listeners[game_id]
