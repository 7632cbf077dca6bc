"""A print job: what the user asked for (:class:`BuildOptions`), what can be printed
(:class:`Target`: its texts and how to build it) and the building of several targets, side by side
on every core. The engine knows no game: the games and decks hand it their targets."""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar
from dataclasses import field, replace
from functools import partial
from pathlib import Path
from typing import Any

from kkprint.base import progress
from kkprint.base.choices import LANGS
from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg, tr
from kkprint.base.printer import load_profile
from kkprint.base.records import mutable, record
from kkprint.base.workers import in_fork
from kkprint.engine.cards import SheetOptions
from kkprint.engine.document import BUILD_INKS, WRITTEN, engine_texts
from kkprint.engine.fonts import FontSet, prepare_fonts
from kkprint.engine.geometry import PAPERS, CardSize, DuplexMode, Paper, SheetLayout
from kkprint.engine.inks import Inks
from kkprint.engine.marks import CutMarks


@record
class BuildOptions:
    """What the user asked for. ``None`` means "not said": a deck's own settings, then the
    saved printer profile, then the defaults apply."""

    lang: str = "ja"
    paper_name: str | None = None
    out_dir: Path = Path("output")
    duplex: DuplexMode | None = None
    back_offset_mm: tuple[float, float] | None = None
    players: int | None = None
    print_shop: bool = False
    only: str | None = None
    allow_outside: bool = False
    card_pages: bool = False  # decks: one card per page, edge to edge (single-card previews)
    gap_mm: float | None = None
    cut_marks: CutMarks | None = None
    greyscale: bool = False  # every colour and picture in shades of grey: the ink-saving proof
    guides: bool = False  # trim, bleed and safe-zone lines over every card (proofs and previews)
    card_bleed: bool = False  # decks, one card per page: include the print-shop bleed
    # decks, one card per page: go on in a new file once one has this many pages (0: one file),
    # so memory stays flat however long the deck (the export's scratch PDFs)
    pages_per_file: int = 0
    jobs: int = 1  # processes to build several targets side by side (the command line uses every core)
    strict: bool = False  # a preflight warning fails the build, as an error does: nothing is written

    @property
    def paper(self) -> Paper:
        """The games' paper: the one asked for, else the user's default (the locale's at the last)."""
        from kkprint.base import settings

        return PAPERS[self.paper_name or settings.paper()]

    def file_name(self, stem: str) -> str:
        """Output names carry language and paper so different builds never overwrite each other."""
        return f"{stem}-{self.lang}-{self.paper.name}{self.variant}.pdf"

    @property
    def variant(self) -> str:
        """What else sets a file apart: a duplex mode other than long-edge (a short-edge file printed
        long-edge puts every back behind the wrong card), greyscale."""
        mode = f"-{self.duplex.value}" if self.duplex not in (None, DuplexMode.LONG_EDGE) else ""
        return mode + ("-grey" if self.greyscale else "")

    def path(self, stem: str) -> Path:
        return self.out_dir / self.file_name(stem)

    def shop_path(self, stem: str) -> Path:
        """A print shop's file of one card a page: no duplex mode in its name, as none is used
        (a short-edge build's shop files are the long-edge build's, and keep their names)."""
        return replace(self, duplex=None).path(f"{stem}-printshop")

    def layout(self, card: CardSize, *, gap_mm: float = 0.0, margin_mm: float = 6.0) -> SheetLayout:
        """A games' card sheet on the chosen paper; ``--gap`` replaces the component's own gap."""
        return SheetLayout(self.paper, card, self.gap_mm if self.gap_mm is not None else gap_mm, margin_mm)

    def sheet_options(self, **overrides) -> SheetOptions:
        """Sheet options for the games' own cards: duplex long-edge unless asked otherwise,
        backs shifted by the command line's offset or else the saved printer profile."""
        profile = load_profile()
        settings: dict[str, Any] = dict(
            duplex=self.duplex or DuplexMode.LONG_EDGE,
            cut_marks=self.cut_marks or CutMarks.EDGES,
            back_offset_mm=self.back_offset_mm or profile.offset_mm,
            back_scale=profile.scale,
            guides=self.guides,
        )
        settings.update(overrides)
        return SheetOptions(**settings)


@record
class Target:
    """Something ``kkprint build`` can make: what it prints, what text it needs, how to build it."""

    id: str
    summary: str | Msg  # in the catalogue: shown in the reader's language
    products: tuple[str, ...]
    texts: Callable[[BuildOptions], Iterable[str]]
    build: Callable[[BuildOptions, FontSet], list[Path]]
    # the names of the pictures of one of its PDFs, page by page (a deck's one-card pages are
    # named by card: 001, 001-back…); None, or no function: numbered by page
    page_names: Callable[[BuildOptions, Path], list[str] | None] | None = None


@contextmanager
def _no_collector_pauses():
    """A build makes many objects and frees few until its PDF is written; the cycle collector's
    passes over that growing heap cost a tenth of a big deck's time and find nothing (measured:
    the same peak memory without them). It runs again once the targets are built. (Also a
    decorator, as every context manager made by ``contextmanager`` is.)"""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@mutable
class Outcome:
    """What building one target came to: the PDFs it wrote (all of them, even when it failed
    half-way), what it noticed that the user should hear (preflight warnings: anything that
    ``render(lang)`` shows as one line), and the error that stopped it."""

    target: str
    paths: list[Path] = field(default_factory=list)
    notes: list = field(default_factory=list)
    error: InputError | None = None
    seconds: float = 0.0  # how long it took (``-v`` says it, for a forked worker's targets too)


_NOTES: ContextVar[list | None] = ContextVar("BUILD_NOTES", default=None)
# the build under way, for checks deep inside it that depend on it (a deck's preflight: --strict)
BUILD_OPTIONS: ContextVar[BuildOptions | None] = ContextVar("BUILD_OPTIONS", default=None)


def notice(note) -> None:
    """Tell the user of the build, once it is over, something it noticed (a preflight warning).
    Outside a build (a test, the deck studio) there is nobody to tell: it is left out."""
    notes = _NOTES.get()
    if notes is not None:
        notes.append(note)


def build_targets(chosen: list[Target], options: BuildOptions) -> list[Path]:
    """Build every chosen target; the files written (see :func:`built`)."""
    return [path for outcome in built(chosen, options) for path in outcome.paths]


def built(chosen: list[Target], options: BuildOptions) -> list[Outcome]:
    """Build every chosen target; their outcomes, in the order chosen. Warnings go to stderr,
    each as one line, and the first target's error is raised — after every other target has
    been built. (The command line's ``build`` shows every outcome itself: :func:`run_targets`.)"""
    import sys

    outcomes = run_targets(chosen, options)
    for outcome in outcomes:
        for note in outcome.notes:
            sys.stderr.write(tr("kkprint: warning: {message}", message=note) + "\n")
    failed = next((outcome.error for outcome in outcomes if outcome.error is not None), None)
    if failed is not None:
        raise failed
    return outcomes


@_no_collector_pauses()
def run_targets(chosen: list[Target], options: BuildOptions) -> list[Outcome]:
    """Build every chosen target, each with the fonts for its own texts (a PDF has the same
    bytes whether it was built alone or with everything else); one that fails does not stop
    the others. One outcome per target, in the order chosen."""
    if options.lang not in LANGS:
        raise InputError(Msg("unknown language '{lang}'; use ja or en", lang=options.lang), source="--lang")
    if options.paper_name is not None and options.paper_name not in PAPERS:
        raise InputError(
            Msg("unknown paper '{paper_name}'; use {names}", paper_name=options.paper_name, names=" or ".join(PAPERS)),
            source="--paper",
        )
    with progress.steps(Msg("building targets"), len(chosen) if len(chosen) > 1 else 0) as step:  # (one: its cards say)
        if options.jobs > 1 and len(chosen) > 1 and hasattr(os, "fork"):
            return _build_forked(chosen, min(options.jobs, len(chosen)) - 1, options, step)
        return _build_each(chosen, options, step)


def _build_forked(
    chosen: list[Target], workers: int, options: BuildOptions, step: Callable[[int], None]
) -> list[Outcome]:
    """The targets built side by side by this process and ``workers`` forked copies of it, each
    taking the next target nobody has taken yet — so a long target does not hold up a short one
    queued behind it — and preparing that target's fonts itself (a font's subset read and parsed
    is work for every core too). The copies inherit the loaded definitions and the targets (whose
    functions could not be pickled), so each only builds."""
    with ExitStack() as stack:
        tickets = _Tickets(len(chosen))
        stack.callback(os.close, tickets.reader)
        work = partial(_take_and_build, chosen, tickets, options)
        theirs = [stack.enter_context(in_fork(work)) for _ in range(workers)]
        outcomes = _take_and_build(chosen, tickets, options, step)  # (the copies' counted as they come back)
        for copy in theirs:
            done = copy.result()
            step(len(done))
            for outcome in done:
                _tell(outcome)  # (a copy's own -v lines are not drawn: it is not the terminal's)
            outcomes.extend(done)
    by_target = {outcome.target: outcome for outcome in outcomes}
    return [by_target[target.id] for target in chosen]


class _Tickets:
    """The targets' numbers in a pipe that every copy of this process reads: reading a ticket is
    taking its targets (the kernel hands each ticket to one reader). All are written before the
    first fork, so a long list is cut into at most ``MOST`` tickets (a pipe holds 64 KB)."""

    MOST = 1024
    SIZE = 2  # bytes a ticket

    def __init__(self, count: int) -> None:
        self.each = -(-count // self.MOST)  # targets a ticket
        self.count = count
        self.reader, writer = os.pipe()
        tickets = range(-(-count // self.each))
        os.write(writer, b"".join(ticket.to_bytes(self.SIZE, "little") for ticket in tickets))
        os.close(writer)

    def take(self) -> range:
        """The next targets nobody has taken; none once all are."""
        ticket = os.read(self.reader, self.SIZE)
        if not ticket:
            return range(0)
        first = int.from_bytes(ticket, "little") * self.each
        return range(first, min(first + self.each, self.count))


def _take_and_build(
    chosen: list[Target], tickets: _Tickets, options: BuildOptions, step: Callable[[int], None] = progress.nothing
) -> list[Outcome]:
    """Build targets of the shared list, one ticket after the other, until none is left to take."""
    outcomes: list[Outcome] = []
    while taken := tickets.take():
        outcomes += _build_each([chosen[index] for index in taken], options, step)
    return outcomes


def _build_each(
    group: list[Target], options: BuildOptions, step: Callable[[int], None] = progress.nothing
) -> list[Outcome]:
    """Build the targets of ``group`` one after the other, each to its own outcome; ``step``
    hears each one done (the progress bar), ``-v`` how long each took."""
    inks, build = BUILD_INKS.set(Inks("grey") if options.greyscale else Inks()), BUILD_OPTIONS.set(options)
    try:
        outcomes = []
        for target in group:
            began = time.perf_counter()
            outcome = _build_one(target, options)
            outcome.seconds = time.perf_counter() - began
            outcomes.append(outcome)
            step(1)
            _tell(outcome)
        return outcomes
    finally:
        BUILD_INKS.reset(inks)
        BUILD_OPTIONS.reset(build)


def _tell(outcome: Outcome) -> None:
    progress.detail(Msg("built {target} in {seconds:.1f} s", target=outcome.target, seconds=outcome.seconds))


def _build_one(target: Target, options: BuildOptions) -> Outcome:
    """One target, with the fonts for its own texts (a PDF has the same bytes whether it was
    built alone or with everything else); a deck that cannot even be read is its outcome's error."""
    outcome = Outcome(target.id)
    try:
        fonts = prepare_fonts([*engine_texts(), *target.texts(options)])
    except InputError as err:
        outcome.error = err
        return outcome
    completed: list[Path] = []
    written, notes = WRITTEN.set(completed), _NOTES.set(outcome.notes)
    try:
        outcome.paths = target.build(options, fonts)  # in the target's own order
    except InputError as err:
        outcome.paths, outcome.error = completed, err  # what it wrote before it failed
    finally:
        WRITTEN.reset(written)
        _NOTES.reset(notes)
    return outcome
