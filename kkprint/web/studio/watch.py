"""The studio's life: draw the deck, then again after every change in its folder.

Changes are noticed by watchfiles, as ``kkprint watch`` notices them (the operating system's file
events; editors' swap and backup files are left out by its default filter). A change that comes
while the deck is being drawn stops that drawing at its next picture, and the deck is read again.
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import Executor

from watchfiles import DefaultFilter, awatch

from kkprint.web.studio.state import Studio

DEBOUNCE_MS = 300  # at most this long to gather the files of one save
STEP_MS = 30  # a save is over when nothing more changed for this long


async def keep_watching(studio: Studio, worker: Executor, *, watch: bool = True) -> None:
    """Draw ``studio``'s deck on ``worker``, then again after each change, until cancelled."""
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()
    wake.set()
    stop = asyncio.Event()

    async def notice() -> None:
        folder = studio.path.resolve().parent
        async for _ in awatch(
            folder, watch_filter=DefaultFilter(), debounce=DEBOUNCE_MS, step=STEP_MS, stop_event=stop
        ):
            studio.changed.set()
            wake.set()

    watcher = asyncio.create_task(notice()) if watch else None
    try:
        while True:
            await wake.wait()
            wake.clear()
            studio.changed.clear()
            await loop.run_in_executor(worker, studio.refresh)
    finally:
        stop.set()
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
