"""Worker processes that never outlive the command that started them."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor


def process_pool(workers: int, fork: bool = False) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (forked from this one when ``fork``: they inherit what it
    has loaded) that end as soon as this process is gone. Killed (``kill -9``, the OOM killer),
    a process can tell no one, and its workers would wait forever: each holds the other ends of
    the pool's pipes too, so none of them ever closes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork") if fork else None
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_end_with_parent)


def _end_with_parent() -> None:
    import os
    import threading
    from multiprocessing import parent_process
    from multiprocessing.connection import wait

    parent = parent_process()
    if parent is not None:
        sentinel = parent.sentinel  # (readable once the parent has ended)
        threading.Thread(target=lambda: (wait([sentinel]), os._exit(1)), daemon=True).start()
