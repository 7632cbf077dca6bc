"""Worker processes that never outlive the command that started them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

Result = TypeVar("Result")


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that end as soon as this process is gone. Killed (``kill
    -9``, the OOM killer), a process can tell no one, and its workers would wait forever: each
    holds the other ends of the pool's pipes too, so none of them ever closes."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers, initializer=_end_with_parent)


def _end_with_parent() -> None:
    import os
    import threading
    from multiprocessing import parent_process
    from multiprocessing.connection import wait

    parent = parent_process()
    if parent is not None:
        sentinel = parent.sentinel  # (readable once the parent has ended)
        threading.Thread(target=lambda: (wait([sentinel]), os._exit(1)), daemon=True).start()


def in_fork(work: Callable[[], Result]) -> Callable[[], Result]:
    """``work()`` done by a forked copy of this process, beside this one: the function returned
    waits for its result, or raises what it raised. The copy inherits everything loaded and
    everything ``work`` can see, so nothing is pickled on the way in.

    A one-worker pool did the same for ~25 ms more (importing multiprocessing and
    concurrent.futures, starting its queues' threads, shutting them down): a tenth of ``build
    all``. Like the pool's workers, the copy ends as soon as this process does (killed, it can
    tell no one): it is interrupted as Ctrl-C would, so what it was writing is removed."""
    import os
    import pickle
    import sys

    reader, writer = os.pipe()
    life = _life_line()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # (the copy: it never returns from here)
        status = 1
        try:
            os.close(reader)
            os.close(life[1])
            _interrupted_when_closed(life[0])
            try:
                answer = pickle.dumps((True, work()))
            except BaseException as error:  # (Ctrl-C too: its result is that it was interrupted)
                answer = _pickled_error(error)
            with os.fdopen(writer, "wb") as pipe:
                pipe.write(answer)
            status = 0
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
    os.close(writer)

    def result() -> Result:
        with os.fdopen(reader, "rb") as pipe:
            answer = pipe.read()
        os.waitpid(pid, 0)
        if not answer:
            raise ChildProcessError(f"a forked worker (process {pid}) ended without an answer")
        done, value = pickle.loads(answer)
        if done:
            return value
        raise value

    return result


_LIFE: tuple[int, int, int] = (0, -1, -1)  # (this process, the two ends of its life line)


def _life_line() -> tuple[int, int]:
    """A pipe whose writing end only this process keeps open (each copy closes its own), so its
    reading end sees the end of the file when this process ends, however it ends."""
    import os

    global _LIFE
    if _LIFE[0] != os.getpid():  # (a copy makes its own for its own copies)
        _LIFE = (os.getpid(), *os.pipe())
    return _LIFE[1], _LIFE[2]


def _interrupted_when_closed(life: int) -> None:
    """Ctrl-C for this copy's main thread once ``life`` closes: a signal of its own, so a wait
    in the kernel ends too, with Python's own handler even where the parent ignored Ctrl-C."""
    import os
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.default_int_handler)
    main = threading.main_thread().ident
    assert main is not None  # (this runs in the main thread)

    def watch() -> None:
        while os.read(life, 1):
            pass
        signal.pthread_kill(main, signal.SIGINT)

    threading.Thread(target=watch, daemon=True).start()


def _pickled_error(error: BaseException) -> bytes:
    import pickle

    try:
        return pickle.dumps((False, error))
    except Exception:  # (an exception that cannot travel is told by its name and words)
        return pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))
