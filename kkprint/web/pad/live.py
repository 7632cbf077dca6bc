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
from typing import Protocol


class Stop(Protocol):
    """An event that ends a listener (the server shutting down)."""

    def is_set(self) -> bool: ...

    async def wait(self) -> object: ...


class Hub:
    """Who listens to which game, on this server's one event loop."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[asyncio.Event]] = defaultdict(set)

    def publish(self, game_id: str) -> None:
        for changed in self._listeners.get(game_id, ()):
            changed.set()

    def listening(self, game_id: str) -> int:
        return len(self._listeners.get(game_id, ()))

    async def changes(self, game_id: str, stop: Stop) -> AsyncIterator[None]:
        """Yields once at once (the game as it is), then after each change (bursts as one),
        until ``stop`` is set: then it ends, so the stream's answer ends properly."""
        changed = asyncio.Event()
        changed.set()
        self._listeners[game_id].add(changed)
        stopping = asyncio.ensure_future(stop.wait())
        try:
            while not stop.is_set():
                waiting = asyncio.ensure_future(changed.wait())
                await asyncio.wait((waiting, stopping), return_when=asyncio.FIRST_COMPLETED)
                if stop.is_set():
                    waiting.cancel()
                    return
                changed.clear()
                yield
        finally:
            stopping.cancel()
            self._listeners[game_id].discard(changed)
            if not self._listeners[game_id]:
                del self._listeners[game_id]
