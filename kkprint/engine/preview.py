"""Pictures of what a build prints, made with pypdfium2 (a pip-installed PDF renderer).

Memory stays flat whatever the page's size, the resolution or the number of pages: a page larger
than :data:`BAND_PIXELS` is rendered a band of rows at a time and each band goes straight into
the PNG file (written by pypng, which takes rows as they come), so a 2 m sheet at 300 dpi (half a
gigapixel) needs no more than a card. One page is open at a time; a long document is written
page after page.
"""

from __future__ import annotations

import math
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from kkprint.base import progress
from kkprint.base.i18n import Counted, Msg
from kkprint.base.outputs import atomic_file, check_destination
from kkprint.base.paths import safe_file_name
from kkprint.engine.job import BuildOptions, Target, build_targets

BAND_PIXELS = 16_000_000  # pixels rendered at once (48 MB of RGB): a poker card at 1,200 dpi is 12
PNG_MAGIC = b"\x89PNG"


def page_pixels(page, scale: float) -> tuple[int, int]:
    """The size in pixels of ``page`` rendered at ``scale`` (pixels per point), as pdfium makes it."""
    return math.ceil(page.get_width() * scale), math.ceil(page.get_height() * scale)


def _rows(page, scale: float):
    """Every row of the page at ``scale``, top to bottom, as RGB bytes, rendered band by band."""
    width, height = page_pixels(page, scale)
    band = max(1, BAND_PIXELS // width)
    for top in range(0, height, band):
        bottom = min(height, top + band)
        # pypdfium2 rounds a crop up to whole pixels: half a pixel short of a row edge is that edge
        crop = (0, (height - bottom - 0.5) / scale if bottom < height else 0, 0, (top - 0.5) / scale if top else 0)
        bitmap = page.render(scale=scale, crop=crop, rev_byteorder=True)
        try:
            buffer, stride, used = bitmap.buffer, bitmap.stride, bitmap.width * bitmap.n_channels
            for row in range(bitmap.height):
                yield bytes(buffer[row * stride : row * stride + used])
        finally:
            bitmap.close()


def write_png(page, scale: float, path: Path) -> Path:
    """The page as a PNG file at ``scale``, written whole or not at all: a page of one band (a
    card at 300 dpi) encoded by Pillow at C speed, a larger one row by row by pypng."""
    width, height = page_pixels(page, scale)
    with atomic_file(path, magic=PNG_MAGIC) as temp:
        if width * height <= BAND_PIXELS:
            bitmap = page.render(scale=scale)
            try:
                bitmap.to_pil().convert("RGB").save(temp, format="PNG", optimize=False)
            finally:
                bitmap.close()
        else:
            import png

            with open(temp, "wb") as stream:
                png.Writer(width, height, greyscale=False, bitdepth=8, compression=6).write(stream, _rows(page, scale))
    return path


def page_image(page, width: int, height: int):
    """The page as a picture of at most ``width`` × ``height`` pixels (for pictures made small:
    sheets of cards, a fanned hand); its proportions kept."""
    scale = min(width / page.get_width(), height / page.get_height())
    bitmap = page.render(scale=scale)
    try:
        return bitmap.to_pil().convert("RGB")
    finally:
        bitmap.close()


PARALLEL_FROM = 8  # pages: fewer are done before a second process would have started


def _each_page(pdf: Path, work, items: list, step: Callable[[int], None] = progress.nothing, weight: int = 1) -> list:
    """``work(page, item)`` for every (page index, …) item, one page open at a time; ``step``
    hears ``weight`` pages done after each (two when another process does every other one)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    done = []
    try:
        for item in items:
            page = document[item[0]]
            try:
                done.append(work(page, item))
            finally:
                page.close()
            step(weight)
    finally:
        document.close()
    return done


def _on_two_cores(pdf: Path, work, items: list) -> list:
    """:func:`_each_page` over ``items``, in order. Rendering takes nearly all the time, so with
    enough pages a second process (forked: it has everything loaded already, and opens the PDF
    for itself) does every other one; each holds one page at a time. Not from a process with
    other threads (a server's): a fork copies none of them, nor what they hold."""
    import multiprocessing
    import os
    import threading

    if (
        len(items) < PARALLEL_FROM
        or threading.active_count() > 1
        or (os.cpu_count() or 1) < 2
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        with progress.steps(Msg("writing pictures"), len(items)) as step:
            return _each_page(pdf, work, items, step)
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) as pool:
        theirs = pool.submit(_each_page, pdf, work, items[1::2])
        with progress.steps(Msg("writing pictures"), len(items)) as step:  # the other process keeps pace with this one
            mine = _each_page(pdf, work, items[0::2], step, weight=2)
        other = theirs.result()
    done: list = [None] * len(items)
    done[0::2], done[1::2] = mine, other
    return done


def _write(page, job: tuple[int, float, Path]) -> Path:
    return write_png(page, job[1], job[2])


def _digest(page, job: tuple[int, float]) -> str:
    import hashlib

    width, height = page_pixels(page, job[1])
    digest = hashlib.sha1(f"{width}x{height}".encode())
    for row in _rows(page, job[1]):
        digest.update(row)
    return digest.hexdigest()


def write_pngs(pdf: Path, jobs: list[tuple[int, float, Path]]) -> list[Path]:
    """Every (page index, scale, file) of ``jobs`` written, in that order (on both cores when
    there are enough). Every destination is checked first: a name kkprint may not write stops
    the command before any picture is made."""
    for _, _, path in jobs:
        check_destination(path, PNG_MAGIC)
    began = time.perf_counter()
    written = _on_two_cores(pdf, _write, jobs)
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


def page_digests(pdf: Path, pages: list[int], scale: float) -> list[str]:
    """A digest of each page's pixels at ``scale``: equal digests, equal pictures (rendered and
    let go, nothing written)."""
    return _on_two_cores(pdf, _digest, [(page, scale) for page in pages])


def render_pages(pdf: Path, out_dir: Path, dpi: int) -> list[Path]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        count = len(document)
    finally:
        document.close()
    stem = safe_file_name(pdf.stem)
    return write_pngs(pdf, [(index, dpi / 72, out_dir / f"{stem}-{index + 1:03d}.png") for index in range(count)])


def preview_targets(targets: list[Target], options: BuildOptions, out_dir: Path, dpi: int) -> list[Path]:
    with tempfile.TemporaryDirectory(prefix="kkprint-preview-") as temp:
        build = BuildOptions(**{**options.__dict__, "out_dir": Path(temp)})
        pictures = []
        for pdf in build_targets(targets, build):
            pictures.extend(render_pages(pdf, out_dir, dpi))
    return pictures
