"""Long work, told as it goes: the code that does it says how much there is and when a piece is
done; the command line decides whether anyone sees it (a bar at a terminal, nothing in a pipe
or with ``-q``), and how much else to say (``-v``).

The rooms that do the work (the engine, the decks) call :func:`steps` and :func:`detail` and
know nothing of terminals; :mod:`kkprint.cli.terminal` installs the :class:`Reporter` that
draws. Without one (a test, the score pad, the studio, a forked worker) both cost a look-up.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Protocol, TypeVar

from kkprint.base.i18n import Msg, text, tr

QUIET, NORMAL, VERBOSE = 0, 1, 2
Item = TypeVar("Item")


class Reporter(Protocol):
    """Draws the work under way (the command line's progress bars)."""

    def begin(self, what: str, total: int) -> object: ...

    def advance(self, task: object, count: int) -> None: ...

    def end(self, task: object) -> None: ...


class _State:
    level = NORMAL
    reporter: Reporter | None = None
    owner = 0  # the process that installed the reporter: a forked worker's copy must not draw


_state = _State()


def set_level(level: int) -> None:
    _state.level = level


def level() -> int:
    return _state.level


def install(reporter: Reporter | None) -> None:
    """Draw progress with ``reporter`` from now on (None: draw nothing)."""
    _state.reporter, _state.owner = reporter, os.getpid()


def _reporter() -> Reporter | None:
    reporter = _state.reporter
    return reporter if reporter is not None and _state.owner == os.getpid() else None


def nothing(count: int = 1) -> None:
    """A step nobody watches."""


@contextmanager
def steps(what: Msg | str, total: int) -> Iterator[Callable[[int], None]]:
    """``with steps(Msg("cards"), 500) as step:`` … ``step(1)`` after each card. Nothing is
    drawn when nobody is watching; the bar goes when the work is done (or fails)."""
    reporter = _reporter()
    if reporter is None or total <= 0:
        yield nothing
        return
    task = reporter.begin(text(what), total)

    def step(count: int = 1) -> None:
        if _state.owner == os.getpid():  # a forked worker handed this step draws nothing
            reporter.advance(task, count)

    try:
        yield step
    finally:
        reporter.end(task)


def counted(items: Iterable[Item], what: Msg | str, total: Callable[[], int]) -> Iterator[Item]:
    """``items`` as they come, each one a step of ``what``; ``total`` is asked only when a
    reporter is watching (counting may cost a pass over the data)."""
    if _reporter() is None:
        yield from items
        return
    with steps(what, total()) as step:
        for item in items:
            yield item
            step(1)


def watched() -> bool:
    """Whether progress is being drawn (so that counting the work is worth its cost)."""
    return _reporter() is not None


def detail(message: Msg | str) -> None:
    """A line for ``-v``: what is being done, and how long it took."""
    if _state.level >= VERBOSE and (_state.owner in (0, os.getpid())):
        sys.stderr.write(tr("kkprint: {message}", message=text(message)) + "\n")
        sys.stderr.flush()
