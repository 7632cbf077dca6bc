"""The deck as it will print: the sheets a build writes (paper, cut marks, margin notes, backs
mirrored for the duplex side chosen), made when the page asks for them and shown page by page.

They are built from the deck as the studio last read it, by the same build as ``kkprint build``,
into the studio's own temporary folder, and drawn with PDFium on the studio's worker thread.
A deck that does not build (its errors are listed above the sheets) shows the last sheets that
did, for the same paper and backs, said to be out of date. A build is kept by its key, whether it
made sheets or failed: asked again for the same version of the deck, the view answers with what
that build said, and only a new version is built (or tried) again.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import tempfile
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kkprint.base.choices import DuplexMode
from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.deck.build import loaded_target
from kkprint.engine.document import back_page_note
from kkprint.engine.geometry import PAPERS
from kkprint.engine.job import BuildOptions, build_targets
from kkprint.web.studio.state import Studio

PAGE_WIDTH_PX = 1100  # a sheet's picture: its cut marks still visible when it fills a tablet
KEPT_BUILDS = 3
KEPT_FAILURES = 16  # builds that failed, by key (an error is small: a few papers and languages' worth)
KEPT_PAGES = 80


class Sheets:
    """Built sheets by their key (deck version, paper, duplex mode, language) and their pictures."""

    def __init__(self, studio: Studio):
        self.studio = studio
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kkprint-studio")
        self._folder = tempfile.TemporaryDirectory(prefix="kkprint-studio-")
        self._built: OrderedDict[str, tuple[Path, list[dict]]] = OrderedDict()
        self._failed: OrderedDict[str, InputError] = OrderedDict()  # key -> why its build failed
        self._pictures: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._last_good: dict[tuple[str, str, str], str] = {}  # (paper, backs, language) -> its last build

    def close(self) -> None:
        self.worker.shutdown(wait=True, cancel_futures=True)
        self._folder.cleanup()

    async def pages(self, paper: str, backs: str, lang: str) -> dict:
        """The sheets for ``paper`` (empty: the deck's) and ``backs`` (empty: the deck's mode)."""
        if paper and paper not in PAPERS:
            raise InputError(
                Msg("unknown paper '{paper_name}'; use {names}", paper_name=paper[:20], names=" or ".join(PAPERS))
            )
        modes = [mode.value for mode in DuplexMode]
        if backs and backs not in modes:
            raise InputError(Msg("backs are printed {modes}, not '{backs}'", modes=", ".join(modes), backs=backs[:20]))
        snapshot = self.studio.snapshot
        deck = snapshot.deck
        if deck is None:
            raise InputError(snapshot.error.message if snapshot.error else Msg("the deck has not been read yet"))
        key = hashlib.sha256(f"{snapshot.version}|{paper}|{backs}|{lang}".encode()).hexdigest()[:16]
        kept: str | None = None  # the error the deck has now, when the sheets shown are older
        if snapshot.error is not None:  # (the deck's file cannot be read now: ``deck`` is the one read before)
            key, kept = self._kept(paper, backs, lang, snapshot.error)
        elif key in self._failed:  # (this version did not build: it would fail again)
            key, kept = self._kept(paper, backs, lang, self._failed[key])
        elif key not in self._built:
            try:
                await self._build(key, deck, paper, backs, lang)
            except InputError as err:
                self._failed[key] = err
                while len(self._failed) > KEPT_FAILURES:
                    self._failed.popitem(last=False)
                key, kept = self._kept(paper, backs, lang, err)
            else:
                self._last_good[(paper, backs, lang)] = key
        pdf, pages = self._built[key]
        self._built.move_to_end(key)
        return {
            "key": key,
            "paper": paper or None,
            "backs": backs or deck.spec.print.backs,
            "pages": [{**info, "url": f"/sheets/{key}/{number}.png"} for number, info in enumerate(pages)],
            "stale": kept is not None,
            "error": kept,
        }

    def _kept(self, paper: str, backs: str, lang: str, error: InputError) -> tuple[str, str]:
        """The last sheets built for this paper and backs, and the error that keeps them on
        screen; the error itself when there are none."""
        last = self._last_good.get((paper, backs, lang))
        if last is None or last not in self._built:
            raise error
        return last, error.render(lang)

    async def _build(self, key: str, deck, paper: str, backs: str, lang: str) -> None:
        """Build the sheets and read their pages' sides (an InputError: the deck does not build)."""
        mode = DuplexMode(backs) if backs else DuplexMode(deck.spec.print.backs)
        options = BuildOptions(
            lang=lang,
            paper_name=paper or None,
            duplex=mode,
            out_dir=Path(self._folder.name) / key,
            allow_outside=deck.allow_outside,
        )
        loop = asyncio.get_running_loop()
        [pdf] = await loop.run_in_executor(self.worker, build_targets, [loaded_target(deck)], options)
        pages = await loop.run_in_executor(
            self.worker, _page_sides, pdf, back_page_note(mode.value, lang), mode is DuplexMode.FOLD
        )
        self._built[key] = (pdf, pages)
        good = set(self._last_good.values())  # (the last good sheets stay while the deck has errors)
        spare = [old for old in self._built if old not in good and old != key]
        for old in spare[: max(0, len(self._built) - KEPT_BUILDS)]:
            del self._built[old]

    async def picture(self, key: str, number: int) -> bytes | None:
        """A built sheet's page as a PNG, or None for one that is not (or no longer) built."""
        built = self._built.get(key)
        if built is None or not 0 <= number < len(built[1]):
            return None
        found = self._pictures.get((key, number))
        if found is None:
            loop = asyncio.get_running_loop()
            found = await loop.run_in_executor(self.worker, _render_page, built[0], number)
            self._pictures[(key, number)] = found
            while len(self._pictures) > KEPT_PAGES:
                self._pictures.popitem(last=False)
        return found


def _page_sides(pdf: Path, back_note: str, folded: bool) -> list[dict]:
    """Each page's sheet number, size (mm) and side, read back from the PDF: a page of backs
    carries the build's "back side" note; a folded sheet holds both sides."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        pages, sheet = [], 0
        for index in range(len(document)):
            page = document[index]
            width, height = page.get_size()
            textpage = page.get_textpage()
            back = back_note in textpage.get_text_range()
            textpage.close()
            sheet += 0 if back else 1
            pages.append(
                {
                    "sheet": sheet,
                    "side": "back" if back else "fold" if folded else "front",
                    "w": round(width / 72 * 25.4, 1),
                    "h": round(height / 72 * 25.4, 1),
                }
            )
        return pages
    finally:
        document.close()


def _render_page(pdf: Path, number: int) -> bytes:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[number]
        picture = page.render(scale=PAGE_WIDTH_PX / page.get_width()).to_pil().convert("RGB")
    finally:
        document.close()
    out = io.BytesIO()
    picture.save(out, format="PNG", compress_level=1)
    return out.getvalue()
