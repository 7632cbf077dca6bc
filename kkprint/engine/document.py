"""A PDF being written: deterministic, printed at actual size, and written atomically.

The file appears under its final name only when it is complete: the canvas writes to a
temporary file in the same folder, which is renamed over the target at the end. An exception
(or a kill) before that leaves the previous PDF, if any, untouched.
"""

from __future__ import annotations

import functools
import operator
import weakref
from collections.abc import Callable, Hashable, Iterator
from contextlib import ExitStack, contextmanager
from contextvars import ContextVar
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.choices import LANGS
from kkprint.base.i18n import N_, tr
from kkprint.base.outputs import atomic_file
from kkprint.base.settings import build_epoch
from kkprint.engine import pdfobjects
from kkprint.engine.fonts import FontSet, ensure_drawable
from kkprint.engine.geometry import Paper
from kkprint.engine.inks import BuildCanvas, InkCanvas, Inks

# Compressed streams stay binary: ASCII85 would make every PDF a quarter larger and slower to write.
rl_config.useA85 = 0
# ReportLab writes a saved PDF's objects through kkprint's faster functions (the same bytes).
pdfobjects.install()


# Words the engine itself prints on the paper (in the catalogue, like every other word).
ACTUAL_SIZE_NOTE = N_("Print at actual size (100 %, no scaling)")
BACK_PAGE_NOTE = N_("back side ({mode})")
# How each duplex mode is said on paper (the command line's ``long-edge`` is an id, not a word).
DUPLEX_WORDS = {
    "long-edge": N_("flip on the long edge"),
    "short-edge": N_("flip on the short edge"),
    "fold": N_("folded"),
    "none": N_("one-sided"),
}


def back_page_note(mode: str, lang: str) -> str:
    """The note on a page of backs (the studio finds those pages by it): the side, and how the
    printer turns the paper, said in ``lang``."""
    return tr(BACK_PAGE_NOTE, lang, mode=tr(DUPLEX_WORDS[mode], lang))


BACK_SHEET_NOTE = N_(
    "backs: glue this sheet behind the one before (turn it over its long edge) and cut, or cut and sleeve"
)
FOLD_NOTE = N_("fold along the dashed line, glue, then cut")
TILE_NOTE = N_(
    "sheet {row}-{column} / {rows}×{columns} — trim along the marks, lay the cut edge on the crosses of the sheet before, glue"
)


@functools.cache
def engine_texts() -> tuple[str, ...]:
    """... so every build prepares their characters, in every language (made when a build first
    asks: a command that builds nothing never loads the Japanese catalogue for them)."""
    words = (ACTUAL_SIZE_NOTE, BACK_PAGE_NOTE, BACK_SHEET_NOTE, FOLD_NOTE, TILE_NOTE, *DUPLEX_WORDS.values())
    return (*(tr(text, lang) for text in words for lang in LANGS), "50 mm long-edge short-edge — / × 0123456789")


NOTE_FROM_EDGE = 5.0 * mm  # nothing is printed nearer the paper's edge than this

BUILD_INKS: ContextVar[Inks] = ContextVar("BUILD_INKS", default=Inks())  # noqa: B039 - Inks is never changed in place; set by a --greyscale build
# every PDF a build has completed, in order: a target that fails half-way still says what it wrote
WRITTEN: ContextVar[list[Path] | None] = ContextVar("WRITTEN", default=None)
_PAGE_COUNTS: dict[Path, int] = {}  # every PDF this process wrote, with its number of pages


def page_count(path: Path) -> int:
    """The number of pages of the PDF at ``path``: remembered when this process wrote it (a
    kit's cover lists every file's pages; reading them back loaded pypdfium2 in every build),
    else read from the file."""
    known = _PAGE_COUNTS.get(path)
    if known is not None:
        return known
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(path))
    try:
        return len(document)
    finally:
        document.close()


_DOCUMENTS: weakref.WeakKeyDictionary[Canvas, Document] = weakref.WeakKeyDictionary()


def document_of(canvas: Canvas) -> Document | None:
    """The open document a canvas belongs to, so deep drawing code (icons inside a line of text)
    can reuse forms without every caller passing the document along."""
    return _DOCUMENTS.get(canvas)


def _complete_resources(canvas: Canvas, name: str, shading: dict, colours: dict) -> None:
    """Give a form the transparency states and gradients it uses, as ReportLab does for pages.

    ReportLab records them on a form but writes only fonts and pictures into its resources, so
    opacity or a gradient inside a form would name states the PDF never defines.
    """
    form = canvas._doc.idToObject[pdfdoc.xObjectName(name)]
    resources = pdfdoc.PDFResourceDictionary()
    resources.basicFonts()
    resources.allProcs() if getattr(form, "hasImages", 0) else resources.basicProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if getattr(form, "ExtGState", None):
        resources.ExtGState = form.ExtGState
    resources.setShading(shading)
    resources.setColorSpace(colours)
    form.Resources = resources


def do_form(canvas: Canvas, name: str) -> None:
    """``canvas.doForm(name)``, naming the form among the page's (or the enclosing form's)
    resources once: ReportLab notes it at every use and makes its resource entry again for each
    when the page ends — a sheet of nine cards placing one back nine times. The same PDF."""
    canvas._code.append(f"/{pdfdoc.xObjectName(name)} Do")
    if name not in canvas._formsinuse:
        canvas._formsinuse.append(name)


_CANVAS_STATE = operator.itemgetter(*Canvas.STATE_ATTRIBUTES)  # what Canvas.saveState keeps


def save_state(canvas: Canvas) -> tuple:
    """``canvas.saveState()``: the same ``q``, the same state kept, as one tuple taken at once
    rather than ReportLab's dictionary filled attribute by attribute (a card's shapes save and
    restore it hundreds of times a sheet). Undone by :func:`restore_state`, not restoreState."""
    saved = _CANVAS_STATE(canvas.__dict__)
    canvas._extgstate = canvas._extgstate.pushCopy()  # (drawing may change transparency in place)
    canvas._code.append("q")
    return saved


def restore_state(canvas: Canvas, saved: tuple) -> None:
    """``canvas.restoreState()`` for a state :func:`save_state` kept."""
    canvas._code.append("Q")  # (where the canvas writes now: a form defined meanwhile has ended)
    canvas.__dict__.update(zip(Canvas.STATE_ATTRIBUTES, saved))


class Document:
    """One open PDF: the canvas plus the reusable forms (XObjects) defined in it so far. (A
    long card-per-page one may go on in further files: see :meth:`between_cards`.)"""

    def __init__(
        self,
        canvas: Canvas,
        paper: Paper,
        fonts: FontSet,
        lang: str,
        go_on: Callable[[], Canvas] | None = None,
        pages_per_file: int = 0,
    ):
        self.paper = paper
        self.fonts = fonts
        self.lang = lang
        self.pages = 0
        self.paths: list[Path] = []  # its files, in order, written when it closes (see open_pdf)
        # run when everything is drawn, before the PDF is saved: a check may still refuse it
        self.closing: list[Callable[[], None]] = []
        # run when the pages go on in a new file (:meth:`between_cards`): what a file defines up
        # front (art every card shares), or counts of it (the fonts a preflight has seen)
        self.on_new_file: list[Callable[[], None]] = []
        self._go_on, self._pages_per_file, self._file_began = go_on, pages_per_file, 0
        self._earlier: set[Hashable] = set()  # the forms of earlier files
        # True while a form of an earlier file is drawn again for this one: what drawing it
        # finds (a preflight's warnings) was found the first time
        self.drawing_again = False
        self._forms: dict[Hashable, str] = {}
        self._adopt(canvas)

    def _adopt(self, canvas: Canvas) -> None:
        _DOCUMENTS[canvas] = self
        self.canvas = canvas
        self._earlier.update(self._forms)
        self._forms = {}  # (a form lives in one file)

    def between_cards(self) -> None:
        """Where the pages may go on in a new file: in a document opened with ``pages_per_file``
        (see :func:`open_pdf`), once the file has at least that many, it is saved and let go,
        and the next card begins a fresh one. ReportLab holds every page of a file until it is
        saved, so this is what keeps a long card-per-page document's memory flat. Forms are
        defined again in each file as they are used (:attr:`drawing_again`); ``on_new_file``
        redoes what was defined up front. Called only between pages."""
        if self._go_on is None or self.pages - self._file_began < self._pages_per_file:
            return
        self._file_began = self.pages
        self._adopt(self._go_on())
        for again in self.on_new_file:
            again()

    def use_form(self, key: Hashable, width: float, height: float, draw: Callable[[Canvas, float, float], None]) -> str:
        """Define art ``key`` as a form on first use (drawing it once); return the form's name.

        Repeated art — one back design under a thousand cards — is stored once in the PDF.
        Keys may be any hashable value; the PDF gets plain generated names, numbered in order of
        use.
        """
        if key not in self._forms:
            name = f"KKForm{len(self._forms) + 1}"
            self._forms[key] = name  # reserved first: drawing it may define other forms inside
            self.canvas.beginForm(name, lowerx=0, lowery=0, upperx=width, uppery=height)
            again, self.drawing_again = self.drawing_again, self.drawing_again or key in self._earlier
            try:
                draw(self.canvas, width, height)
            finally:
                self.drawing_again = again
            shading, colours = dict(self.canvas._shadingUsed), dict(self.canvas._colorsUsed)
            self.canvas.endForm()
            _complete_resources(self.canvas, name, shading, colours)
        return self._forms[key]

    def has_form(self, key: Hashable) -> bool:
        """Whether art ``key`` is a form of this file already (:meth:`use_form` would not draw it)."""
        return key in self._forms

    def draw_form(self, name: str, x: float, y: float, scale: float = 1.0) -> None:
        """Place a stored form with its corner at (x, y), scaled. The operators are those of
        saveState, translate, scale, doForm and restoreState, written as they are: placing a form
        changes nothing the canvas keeps track of, so ReportLab's copy of its whole state (a third
        of the cost of placing a card) is not needed."""
        code = self.canvas._code
        code.append("q")
        code.append(f"{fp_str(scale, 0, 0, scale, x, y)} cm")
        do_form(self.canvas, name)
        code.append("Q")

    def draw_moved(
        self, draw: Callable[[Canvas, float, float], None], x: float, y: float, width: float, height: float
    ) -> None:
        """``draw(canvas, width, height)`` with the origin moved to (x, y): what saveState,
        translate and restoreState do — the same operators, the same canvas state after (and,
        while ``draw`` runs, the same matrix and transparency) — without ReportLab's copy of its
        state attribute by attribute, which with its matrix arithmetic cost a card of its own art
        (a name on each) a twelfth of its drawing."""
        c = self.canvas
        saved = save_state(c)
        a, b, c_, d, e, f = c._currentMatrix  # moved by (x, y), as Canvas.translate tracks it
        c._currentMatrix = (a, b, c_, d, a * x + c_ * y + e, b * x + d * y + f)
        c._code.append(f"{fp_str(1, 0, 0, 1, x, y)} cm")
        draw(c, width, height)
        restore_state(c, saved)

    def margin_note(self, side: str = "bottom", extra: str = "") -> None:
        """The 'print at actual size' line and a 50 mm scale bar, in the outer strip of one margin.

        The same on every page of a side, so it is drawn once as a form and placed on each.
        """
        note = tr(ACTUAL_SIZE_NOTE, self.lang)
        if extra:
            note = f"{note}   {extra}"
        width, height = self.paper.size
        name = self.use_form(
            f"margin-note:{side}:{note}", width, height, lambda c, w, h: self._draw_margin_note(c, side, note)
        )
        do_form(self.canvas, name)

    def _draw_margin_note(self, c: Canvas, side: str, note: str) -> None:
        """On a side margin the strip is turned 90° so it still runs along the paper edge."""
        width, height = self.paper.size
        c.saveState()
        # the strip runs along the paper edge, its text between 5 and 8.5 mm from it, where
        # every home printer prints; away from the edge is up for the bottom strip, down for the rest
        baseline = NOTE_FROM_EDGE + 1.0 * mm if side == "bottom" else -(NOTE_FROM_EDGE + 2.6 * mm)
        if side == "top":
            c.translate(0, height)
        elif side == "left":
            c.rotate(90)
            width = height
        elif side == "right":
            c.translate(width, height)
            c.rotate(-90)
            width = height
        c.setFillGray(0.35)
        c.setStrokeGray(0.35)
        c.setLineWidth(0.4)
        ensure_drawable(note, self.fonts.regular)
        bar_right = width - 12 * mm
        bar_left = bar_right - 50 * mm
        # a long note (a back sheet's instructions, in either language) is set smaller rather
        # than run into the scale bar's label
        room = bar_left - 1.5 * mm - stringWidth("50 mm", self.fonts.regular, 6.5) - 3 * mm - 12 * mm
        size = min(6.5, 6.5 * room / max(stringWidth(note, self.fonts.regular, 6.5), 1.0))
        c.setFont(self.fonts.regular, size)
        c.drawString(12 * mm, baseline, note)
        c.setFont(self.fonts.regular, 6.5)
        c.line(bar_left, baseline + 0.6 * mm, bar_right, baseline + 0.6 * mm)
        for tick in range(6):
            x = bar_left + tick * 10 * mm
            c.line(x, baseline + 0.6 * mm, x, baseline + (1.8 if tick in (0, 5) else 1.4) * mm)
        c.drawRightString(bar_left - 1.5 * mm, baseline, "50 mm")
        c.restoreState()

    def end_page(self) -> None:
        self.canvas.showPage()
        self.pages += 1
        _compress_last_page(self.canvas)


def _compress_last_page(canvas: Canvas) -> None:
    """Compress the finished page's content now instead of when the file is saved.

    ReportLab keeps every page's content as uncompressed text until ``save()``, so memory grows
    with every page of a big deck. The stream is encoded exactly as ReportLab would encode it
    at save time (same filter, same bytes); only the moment changes. If ReportLab's internals
    ever differ from what this expects, the page is simply left for ReportLab to handle.
    """
    pages = getattr(getattr(canvas._doc, "Pages", None), "pages", None)
    if not pages:
        return
    page = pages[-1]
    if getattr(page, "Contents", None) or not getattr(page, "stream", None) or not getattr(page, "compression", 0):
        return
    stream = pdfdoc.PDFStream()
    stream.content = pdfdoc.PDFZCompress.encode(page.stream)
    stream.dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(pdfdoc.PDFZCompress.pdfname)])
    stream.__Comment__ = "page stream"
    page.Contents = stream
    page.stream = None


@contextmanager
def open_pdf(
    path: Path,
    paper: Paper,
    fonts: FontSet,
    *,
    title: str,
    lang: str,
    inks: Inks | None = None,
    pages_per_file: int = 0,
) -> Iterator[Document]:
    """Open ``path`` for writing as a :class:`Document`; the file appears only on success, and
    only over a PDF (see :mod:`kkprint.base.outputs`). ``inks`` (else the build's, see
    :data:`BUILD_INKS`) converts every colour and picture: greyscale or CMYK.

    ``pages_per_file``: the pages go on in ``<stem>-2.pdf``, ``<stem>-3.pdf``… at the first
    :meth:`Document.between_cards` once a file has that many (one card per page: the export's
    scratch PDFs, in a folder of their own). None is put in its place before the last is
    complete, and a failure before then leaves none; the document's ``paths`` names them."""
    build_epoch()  # (the date the PDF will carry, checked before anything is written)
    inks = inks or BUILD_INKS.get()
    make = BuildCanvas if inks.plain else functools.partial(InkCanvas, inks=inks)
    paths: list[Path] = []
    pages: list[int] = []  # of each file saved
    with ExitStack() as files:

        def begin() -> Canvas:
            part = path if not paths else path.with_name(f"{path.stem}-{len(paths) + 1}{path.suffix}")
            temp_name = files.enter_context(atomic_file(part, magic=b"%PDF"))
            paths.append(part)
            canvas = make(
                temp_name,
                pagesize=paper.size,
                invariant=1,
                pageCompression=1,
                initialFontName=fonts.regular,
                initialFontSize=10,
            )
            canvas.setTitle(title)
            canvas.setAuthor("kkprint")
            canvas.setCreator("kkprint")
            canvas.setSubject(title)
            canvas.setViewerPreference("PrintScaling", "None")
            if inks.mode == "cmyk" and inks.icc is not None:
                _output_intent(canvas, inks.icc)
            return canvas

        def save() -> None:
            document.canvas.save()
            pages.append(document.canvas.getPageNumber() - 1)  # (the number of the page after the last)

        def go_on() -> Canvas:
            save()
            return begin()

        document = Document(begin(), paper, fonts, lang, go_on if pages_per_file else None, pages_per_file)
        document.paths = paths
        yield document
        for check in document.closing:
            check()
        save()
    _PAGE_COUNTS.update(zip(paths, pages))
    written = WRITTEN.get()
    if written is not None:
        written.extend(paths)


def _output_intent(canvas: Canvas, icc: Path) -> None:
    """Name the shop's ICC profile as the PDF's output intent (what PDF/X readers check)."""
    profile = pdfdoc.PDFStream(
        content=icc.read_bytes(), dictionary=pdfdoc.PDFDictionary({"N": 4}), filters=[pdfdoc.PDFZCompress]
    )
    intent = pdfdoc.PDFDictionary(
        {
            "Type": pdfdoc.PDFName("OutputIntent"),
            "S": pdfdoc.PDFName("GTS_PDFX"),
            "OutputConditionIdentifier": pdfdoc.PDFString(icc.stem),
            "Info": pdfdoc.PDFString(icc.stem),
            "DestOutputProfile": canvas._doc.Reference(profile),
        }
    )
    catalog = canvas._doc.Catalog
    catalog.OutputIntents = pdfdoc.PDFArray([intent])
    catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]


def write_sheet(
    path: Path, paper: Paper, fonts: FontSet, *, title: str, lang: str, draw: Callable[[Document], None]
) -> Path:
    """A one-page PDF (a chart, a score pad, a reference): ``draw`` fills the page, the margin
    note is added, the file is written atomically."""
    with open_pdf(path, paper, fonts, title=title, lang=lang) as doc:
        draw(doc)
        doc.margin_note("bottom")
        doc.end_page()
    return path
