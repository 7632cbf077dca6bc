"""Pictures of what a build prints, made with pypdfium2 (a pip-installed PDF renderer).

Memory stays flat whatever the page's size, the resolution or the number of pages: a page larger
than :data:`BAND_PIXELS` is rendered a band of rows at a time and each band goes straight into
the PNG file (written by pypng, which takes rows as they come), so a 2 m sheet at 300 dpi (half a
gigapixel) needs no more than a card. One page is open at a time; a long document is written
page after page.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import operator
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from kkprint.base import progress
from kkprint.base.i18n import Counted, Msg
from kkprint.base.outputs import atomic_file, check_destination, remove_leftovers
from kkprint.base.paths import safe_file_name
from kkprint.engine.job import BuildOptions, Target, built

BAND_PIXELS = 16_000_000  # pixels rendered at once (48 MB of RGB): a poker card at 1,200 dpi is 12
PNG_MAGIC = b"\x89PNG"

if TYPE_CHECKING:
    import PIL.Image
Page = tuple[Path, int]  # a page of a PDF: the file, and the page's place in it counted from 0


def page_pixels(page, scale: float) -> tuple[int, int]:
    """The size in pixels of ``page`` rendered at ``scale`` (pixels per point), as pdfium makes it."""
    return math.ceil(page.get_width() * scale), math.ceil(page.get_height() * scale)


def _bands(page, scale: float):
    """The page at ``scale``, top to bottom, a band of rows at a time: (pixels, bytes from one row
    to the next, bytes of pixels in a row, rows), each band let go when the next is asked for."""
    width, height = page_pixels(page, scale)
    band = max(1, BAND_PIXELS // width)
    for top in range(0, height, band):
        bottom = min(height, top + band)
        # pypdfium2 rounds a crop up to whole pixels: half a pixel short of a row edge is that edge
        crop = (0, (height - bottom - 0.5) / scale if bottom < height else 0, 0, (top - 0.5) / scale if top else 0)
        bitmap = page.render(scale=scale, crop=crop, rev_byteorder=True)
        try:
            # a memoryview: slicing the ctypes buffer itself makes a list of every byte's int
            with memoryview(bitmap.buffer).cast("B") as pixels:
                yield pixels, bitmap.stride, bitmap.width * bitmap.n_channels, bitmap.height
        finally:
            bitmap.close()


def _rows(page, scale: float):
    """Every row of the page at ``scale``, top to bottom, as RGB bytes, rendered band by band."""
    for pixels, stride, used, rows in _bands(page, scale):
        for row in range(rows):
            yield pixels[row * stride : row * stride + used].tobytes()


def _pieces(page, scale: float):
    """The page's RGB pixels at ``scale`` in a piece a band, its rows end to end."""
    for pixels, stride, used, rows in _bands(page, scale):
        yield (
            pixels.tobytes()
            if stride == used
            else b"".join(pixels[r * stride : r * stride + used] for r in range(rows))
        )


def _fingerprint(page, scale: float) -> bytes:
    """What tells two pages' pictures at ``scale`` apart: a card's pixels themselves (comparing
    them costs a seventh of hashing them), a page of several bands a digest of them."""
    width, height = page_pixels(page, scale)
    size = f"{width}x{height}:".encode()
    if width * height <= BAND_PIXELS:
        return b"".join([size, *_pieces(page, scale)])
    import hashlib

    digest = hashlib.sha1(size)
    for piece in _pieces(page, scale):
        digest.update(piece)
    return digest.digest()


def write_png(page, scale: float, path: Path, *, tidied: bool = False) -> Path:
    """The page as a PNG file at ``scale``, written whole or not at all: a page of one band (a
    card at 300 dpi) encoded by Pillow at C speed, a larger one row by row by pypng.
    ``tidied``: see :func:`~kkprint.base.outputs.atomic_file`."""
    width, height = page_pixels(page, scale)
    with atomic_file(path, magic=PNG_MAGIC, tidied=tidied) as temp:
        if width * height <= BAND_PIXELS:
            bitmap = page.render(scale=scale)
            try:
                image = bitmap.to_pil()  # (RGB already: pdfium's BGR unpacked as Pillow reads it)
                (image if image.mode == "RGB" else image.convert("RGB")).save(temp, format="PNG", optimize=False)
            finally:
                bitmap.close()
        else:
            import png

            with open(temp, "wb") as stream:
                png.Writer(width, height, greyscale=False, bitdepth=8, compression=6).write(stream, _rows(page, scale))
    return path


PARALLEL_FROM = 8  # pages: fewer are done before a second process would have started


def _open_pages(pages: Iterable[Page]):
    """Each page of ``pages`` in turn, one open at a time (closed when the next is asked for),
    and one file: a document is opened when the pages reach it."""
    import pypdfium2 as pdfium

    for pdf, group in itertools.groupby(pages, key=operator.itemgetter(0)):
        document = pdfium.PdfDocument(str(pdf))
        try:
            for _, index in group:
                page = document[index]
                try:
                    yield page
                finally:
                    page.close()
        finally:
            document.close()


def pictures(pages: Iterable[Page], width: int, height: int) -> Iterator[PIL.Image.Image]:
    """Each page as a picture of at most ``width`` × ``height`` pixels (for pictures made small:
    sheets of cards, a fanned hand), its proportions kept; one page open at a time."""
    for page in _open_pages(pages):
        bitmap = page.render(scale=min(width / page.get_width(), height / page.get_height()))
        try:
            yield bitmap.to_pil().convert("RGB")
        finally:
            bitmap.close()


def page_size(page: Page, scale: float) -> tuple[int, int]:
    """:func:`page_pixels` of a page not open yet."""
    with contextlib.closing(_open_pages([page])) as opened:
        return page_pixels(next(opened), scale)


def _each_page(work, items: list, step: Callable[[int], None] = progress.nothing, weight: int = 1) -> list:
    """``work(page, item)`` for every (page, …) item, one page open at a time; ``step`` hears
    ``weight`` pages done after each (two when another process does every other one)."""
    done = []
    for page, item in zip(_open_pages(item[0] for item in items), items):
        done.append(work(page, item))
        step(weight)
    return done


def _halves(run, items: list, mine=None) -> list:
    """``[run(items)]``, or where it pays ``[run(items[0::2]), run(items[1::2])]`` with the second
    in a second process. Rendering takes nearly all the time, so with enough pages a forked
    process (it has everything loaded already, and opens the PDFs for itself) does every other
    one. Not from a process with other threads (a server's): a fork copies none of them, nor
    what they hold. ``mine`` (default ``run``) does this process's share."""

    mine = mine or run  # (this process's own runner may report progress)
    if not _pays_to_split(items):
        return [mine(items)]
    from kkprint.base.workers import in_fork

    with in_fork(lambda: run(items[1::2])) as theirs:
        return [mine(items[0::2]), theirs.result()]


def _pays_to_split(items: list) -> bool:
    """Whether :func:`_halves` hands every other item to a second process."""
    import os
    import threading

    return not (
        len(items) < PARALLEL_FROM
        or threading.active_count() > 1
        or (os.cpu_count() or 1) < 2
        or not hasattr(os, "fork")
    )


def _on_two_cores(work, items: list) -> list:
    """:func:`_each_page` over ``items``, in order, on both cores where it pays; each process
    holds one page at a time. The bar counts this process's pages twice when the other process
    keeps pace with it (it does every other one)."""
    with progress.steps(Msg("writing pictures"), len(items)) as step:
        weight = 2 if _pays_to_split(items) else 1
        watched = functools.partial(_each_page, work, step=step, weight=weight)
        halves = _halves(functools.partial(_each_page, work), items, mine=watched)
    if len(halves) == 1:
        return halves[0]
    done: list = [None] * len(items)
    done[0::2], done[1::2] = halves
    return done


def _write(page, job: tuple[Page, float, Path]) -> Path:
    return write_png(page, job[1], job[2], tidied=True)


def write_pngs(jobs: list[tuple[Page, float, Path]]) -> list[Path]:
    """Every (page, scale, file) of ``jobs`` written, in that order (on both cores when
    there are enough). Every destination is checked first: a name kkprint may not write stops
    the command before any picture is made."""
    for _, _, path in jobs:
        check_destination(path, PNG_MAGIC)
    for folder in {path.parent for _, _, path in jobs}:
        remove_leftovers(folder, [path.name for _, _, path in jobs if path.parent == folder])
    began = time.perf_counter()
    written = _on_two_cores(_write, jobs)
    progress.detail(
        Counted(
            "wrote {count} picture in {seconds:.1f} s",
            "wrote {count} pictures in {seconds:.1f} s",
            len(written),
            count=len(written),
            seconds=time.perf_counter() - began,
        )
    )
    return written


def _shared_picture(scale: float, pages: list[Page]) -> bytes | None:
    """A digest of the picture every page of ``pages`` makes at ``scale``, or None as soon as
    one differs from the first."""
    import hashlib

    first = None
    for page in _open_pages(pages):
        seen = _fingerprint(page, scale)
        if first is None:
            first = seen
        elif seen != first:
            return None
    return hashlib.sha1(first or b"").digest()


def pages_alike(pages: list[Page], scale: float) -> bool:
    """Whether every page of ``pages`` makes the same picture at ``scale``, pixel for pixel
    (rendered and let go, nothing written; each process stops at the first that differs)."""
    if len(pages) < 2:
        return True
    found = _halves(functools.partial(_shared_picture, scale), pages)
    return None not in found and len(set(found)) == 1


def render_pages(pdf: Path, out_dir: Path, dpi: int, names: list[str] | None = None) -> list[Path]:
    """A PNG of every page of ``pdf``, named after it and the page's number, or the page's name
    in ``names`` (one for each page)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        count = len(document)
    finally:
        document.close()
    stem = safe_file_name(pdf.stem)
    names = names if names is not None and len(names) == count else [f"{index + 1:03d}" for index in range(count)]
    return write_pngs([((pdf, index), dpi / 72, out_dir / f"{stem}-{name}.png") for index, name in enumerate(names)])


def preview_targets(targets: list[Target], options: BuildOptions, out_dir: Path, dpi: int) -> list[Path]:
    """Pictures of every page the targets print, each target's pages named as it names them;
    none unless every target built."""
    with tempfile.TemporaryDirectory(prefix="kkprint-preview-") as temp:
        build = BuildOptions(**{**options.__dict__, "out_dir": Path(temp)})
        pictures = []
        for target, outcome in zip(targets, built(targets, build)):
            for pdf in outcome.paths:
                names = target.page_names(build, pdf) if target.page_names is not None else None
                pictures.extend(render_pages(pdf, out_dir, dpi, names))
    return pictures
