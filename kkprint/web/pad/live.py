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

import anyio


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
        until ``stop`` is set: then it ends, so the stream's answer ends properly. A listener
        that goes (the phone reloads, the server cancels it) leaves nothing waiting behind."""
        changed = asyncio.Event()
        changed.set()
        self._listeners[game_id].add(changed)
        try:
            while not stop.is_set():
                await _first(changed, stop)
                if stop.is_set():
                    return
                changed.clear()
                yield
        finally:
            self._listeners[game_id].discard(changed)
            if not self._listeners[game_id]:
                del self._listeners[game_id]


async def _first(changed: asyncio.Event, stop: Stop) -> None:
    """Waits for a change or the stop, whichever comes first. Both waits run in a task group,
    which ends them both before it returns, however it is left: a wait started on its own and
    forgotten when its listener was cancelled stayed pending for ever, and Python said so on
    stderr ("Task was destroyed but it is pending!") when it collected it, as the server
    stopped."""
    async with anyio.create_task_group() as waits:

        async def wait_then_end(event: Stop | asyncio.Event) -> None:
            await event.wait()
            waits.cancel_scope.cancel()

        waits.start_soon(wait_then_end, stop)
        waits.start_soon(wait_then_end, changed)
