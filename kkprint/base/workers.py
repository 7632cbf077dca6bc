"""Work done by forked copies of the process, which never outlive the command that started them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

Result = TypeVar("Result")


class in_fork(Generic[Result]):  # noqa: N801 - used as a function that returns its answer's handle
    """``work()`` done by a forked copy of this process, beside this one: :meth:`result` waits
    for its answer, or raises what it raised. The copy inherits everything loaded and everything
    ``work`` can see, so nothing is pickled on the way in. Used as a context, the copy is
    cancelled (interrupted, then waited for) when the block ends without its answer — a caller
    whose own share failed, Ctrl-C — so no copy works on unwaited for.

    A process pool did the same for ~25 ms more (importing multiprocessing and
    concurrent.futures, starting its queues' threads, shutting them down): a tenth of ``build
    all``. The copy ends as soon as this process does (killed, it can tell no one): it is
    interrupted as Ctrl-C would, so what it was writing is removed."""

    def __init__(self, work: Callable[[], Result]) -> None:
        import os
        import sys

        reader, writer = os.pipe()
        life = _life_line()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:  # (the copy: it never returns from here)
            os.close(reader)
            os.close(life[1])
            _answer(work, writer, life[0])
        os.close(writer)
        self.reader: int | None = reader

    def __enter__(self) -> in_fork[Result]:
        return self

    def __exit__(self, *failure: object) -> None:
        self.cancel()

    def result(self) -> Result:
        import os
        import pickle

        assert self.reader is not None  # (an answer is read once)
        with os.fdopen(self.reader, "rb") as pipe:
            self.reader, answer = None, pipe.read()
        _, status = os.waitpid(self.pid, 0)
        try:
            done, value = pickle.loads(answer)
        except Exception:  # (none, or cut short: the copy was killed, or ran out of memory)
            raise RuntimeError(
                f"a forked worker (process {self.pid}) ended without an answer, {os.waitstatus_to_exitcode(status)}"
            ) from None
        if done:
            return value
        raise value

    def cancel(self) -> None:
        """Interrupt the copy, if it has not answered yet, and wait until it has ended."""
        import os
        import signal

        if self.reader is None:
            return
        try:
            os.kill(self.pid, signal.SIGUSR1)  # (what its parent's end would do)
        except ProcessLookupError:
            pass
        os.close(self.reader)  # (an answer it is still writing meets a closed pipe and is dropped)
        self.reader = None
        os.waitpid(self.pid, 0)


def _answer(work: Callable[[], object], writer: int, life: int) -> None:
    """In the copy: do the work, write its answer, end — never return into the code that forked."""
    import os
    import pickle
    import signal
    import sys

    status = 1
    try:
        _interrupted_when_closed(life)
        try:
            answer = pickle.dumps((True, work()))
        except BaseException as error:  # (Ctrl-C too: its answer is that it was interrupted)
            answer = _pickled_error(error)
        with os.fdopen(writer, "wb") as pipe:
            pipe.write(answer)
        status = 0
    except BaseException:  # (a reader gone, a second signal: the copy ends all the same)
        pass
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, _stop_signals())  # (nothing may raise between here and the end)
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)


def _stop_signals() -> set[int]:
    """The signals that end or interrupt a copy: Ctrl-C, a closed terminal, a kill, its parent's cancel."""
    import signal

    return {signal.SIGINT, signal.SIGHUP, signal.SIGTERM, signal.SIGUSR1}


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
    """Ctrl-C for this copy's main thread once ``life`` closes or its parent cancels it: a
    signal of its own (SIGUSR1, so a copy keeps its parent's way with Ctrl-C itself), sent to
    the main thread so a wait in the kernel ends too. Whichever comes first interrupts, once:
    the rest are let through and do nothing, so the tidying up they set off is not itself cut
    short. (Not ignored: a signal already on its way when its handler became SIG_IGN is one
    Python reports on stderr, "ignored due to race condition", inside whatever was running.)"""
    import os
    import signal
    import threading

    main = threading.main_thread().ident
    assert main is not None  # (this runs in the main thread)
    interrupted = False

    def interrupt_once(signum, frame) -> None:
        nonlocal interrupted
        if not interrupted:
            interrupted = True
            raise KeyboardInterrupt

    signal.signal(signal.SIGUSR1, interrupt_once)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, interrupt_once)

    def watch() -> None:
        while os.read(life, 1):
            pass
        signal.pthread_kill(main, signal.SIGUSR1)

    # The watcher is born with the stops blocked, so the kernel hands a Ctrl-C sent to the whole
    # process to the main thread, ending its wait, and never to the watcher's read.
    before = signal.pthread_sigmask(signal.SIG_BLOCK, _stop_signals())
    try:
        threading.Thread(target=watch, daemon=True).start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _pickled_error(error: BaseException) -> bytes:
    """The error as its answer; one that cannot travel — or cannot be made again from what
    pickle keeps of it — is told by its name and words."""
    import pickle

    try:
        answer = pickle.dumps((False, error))
        pickle.loads(answer)
        return answer
    except Exception:
        return pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))
