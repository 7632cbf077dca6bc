"""``kkprint watch DECK``: rebuild the PDF and its previews whenever the deck, its data or its
art changes — the designer's loop of edit, look, edit.

Changes are noticed by watchfiles (the operating system's file events, not a polling loop of
ours). A broken edit is reported as one line and watching goes on; the next good save builds.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from kkprint.base import pathnames
from kkprint.base.errors import InputError
from kkprint.base.i18n import ntr, tr
from kkprint.base.yamlio import check_readable
from kkprint.deck.build import deck_target
from kkprint.engine.job import BuildOptions, build_targets

IGNORED_SUFFIXES = (".part", ".pdf", ".png~", ".swp", ".tmp")


def _relevant(out_dirs: tuple[Path, ...]) -> Callable:
    """Changes the build did not make itself: not inside an output folder, nor one of the folders
    an output folder lies in (a failed build takes away the folders it made for its files)."""
    resolved = tuple(d.resolve() for d in out_dirs)

    def keep(change, path: str) -> bool:
        target = Path(path)
        if target.name.startswith(".") or target.name.endswith(IGNORED_SUFFIXES) or target.name.endswith("~"):
            return False
        try:
            changed = target.resolve()
        except OSError:
            return False
        return not any(changed.is_relative_to(d) or d.is_relative_to(changed) for d in resolved)

    return keep


def build_once(
    deck: Path, options: BuildOptions, preview_dir: Path | None, dpi: int, say: Callable[[str], None]
) -> bool:
    """Build the deck (and its previews); report the files written or the error, in one line each."""
    started = time.perf_counter()
    try:
        written = build_targets([deck_target(deck)], options)
        pictures = []
        if preview_dir is not None:
            from kkprint.engine.preview import render_pages

            for pdf in written:
                pictures.extend(render_pages(pdf, preview_dir, dpi))
    except InputError as err:
        for each in err.each():
            say(tr("kkprint: error: {message}", message=each))
        return False
    seconds = time.perf_counter() - started
    shown = tr(", ").join(pathnames.shown(p) for p in written)
    if pictures:
        say(
            ntr(
                "rebuilt {files} and {count} preview in {seconds:.1f} s",
                "rebuilt {files} and {count} previews in {seconds:.1f} s",
                len(pictures),
                files=shown,
                count=len(pictures),
                seconds=seconds,
            )
        )
    else:
        say(tr("rebuilt {files} in {seconds:.1f} s", files=shown, seconds=seconds))
    return True


def watch_deck(
    deck: Path,
    options: BuildOptions,
    preview_dir: Path | None,
    dpi: int = 60,
    say: Callable[[str], None] | None = None,
    stop_event=None,
) -> None:
    """Build now, then after every change in the deck's folder, until interrupted."""
    from watchfiles import watch

    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    check_readable(deck)  # (what build says of a folder, a FIFO or a missing file)
    folder = deck.resolve().parent
    build_once(deck, options, preview_dir, dpi, say)
    say(tr("watching {folder} (Ctrl-C to stop)", folder=pathnames.shown(folder)))
    keep = _relevant(tuple(d for d in (options.out_dir, preview_dir) if d is not None))
    for _ in watch(folder, watch_filter=keep, debounce=150, step=50, stop_event=stop_event, raise_interrupt=True):
        build_once(deck, options, preview_dir, dpi, say)
