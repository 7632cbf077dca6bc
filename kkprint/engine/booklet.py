"""A document of headings and paragraphs flowed over pages: rules sheets and cover sheets.

The engine knows no game: a document is a list of sections, each a title and :data:`Block`\\ s
(headings, paragraphs, lists, worked examples, tables, pictures drawn by the caller), flowed down
one or more columns and over as many pages as they need. Text is set by the same engine as the
cards (:mod:`kkprint.engine.text`, whose kinsoku sets this module shares): icons such as
``{die:6}`` stand in the line, ``<b>`` marks bold runs; Japanese running text breaks between any
two characters, as books set it. Body text is 9 pt and never smaller than 8 pt, for reading at
the table.

Layout runs before drawing, so a document knows how many pages it has (a cover says "pages 2–4")
before a single one is drawn; :func:`fitted` lays it out again, set tighter (never under 8 pt),
when that saves a page, so a few last lines do not spill onto a page of their own.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import field, replace
from typing import NamedTuple

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.records import mutable, record
from kkprint.engine.colour import colour, lighten
from kkprint.engine.document import NOTE_FROM_EDGE, Document
from kkprint.engine.fonts import FontSet
from kkprint.engine.text import (
    _NO_LINE_END,
    _NO_LINE_START,
    Atom,
    FittedText,
    Frag,
    Piece,
    TextBox,
    _is_cjk,
    draw_fitted,
    has_cjk,
    line_width,
    tokenize,
    wrap,
)
from kkprint.engine.typesetting import FontBook, Typesetting

# --- what a document is made of -----------------------------------------------------------------


class Heading(NamedTuple):
    text: str
    level: int = 1  # 1: a section of the rules, 2: a part of one


class Paragraph(NamedTuple):
    text: str


class Items(NamedTuple):
    """A list: bullets, or numbers for steps done in order."""

    items: tuple[str, ...]
    numbered: bool = False


class Example(NamedTuple):
    """A worked example on a tint, so a reader looking for the rule can skip it."""

    text: str
    title: str = ""


class Table(NamedTuple):
    """Rows of cells; ``widths`` are the columns' shares of the width; the first row is a header.
    The cells of the ``whole`` columns are never broken (file names, page spans): such a column
    widens to its longest cell when its share is narrower, and the others share what is left."""

    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...]
    whole: tuple[int, ...] = ()


class Picture(NamedTuple):
    """A drawing the caller makes (``draw(canvas, width, height)`` into a box at the origin),
    as wide as the column at most, with a caption under it."""

    width_mm: float
    height_mm: float
    draw: Callable[[Canvas, float, float], None]
    caption: str = ""


class Columns(NamedTuple):
    """From here on, flow in this many columns (below everything placed so far on the page)."""

    number: int


class ColumnBreak(NamedTuple):
    """Go on at the top of the next column."""


Block = Heading | Paragraph | Items | Example | Table | Picture | Columns | ColumnBreak


@record
class Section:
    """A part of the document that starts on a new page under its own title band."""

    title: str
    blocks: Sequence[Block]
    subtitle: str = ""
    columns: int = 2


@record
class BookletStyle:
    size: float = 9.0  # body text, pt
    small: float = 8.0  # examples, tables, captions: the least a player reads at the table
    leading: float = 1.32
    heading: float = 12.5  # a section of the rules
    subheading: float = 10.0  # a part of one
    spacing: float = 1.0  # the gaps between blocks, as a share of their usual height
    margin_mm: float = 12.0
    gutter_mm: float = 6.0
    accent: str = "#7a1f2b"
    footer: str = ""  # before the page number at the foot of every page (else the section's title)

    @property
    def tint(self):
        return lighten(self.accent, 0.9)


# --- layout: rows placed in columns ------------------------------------------------------------

WHOLE_LEAVES = 0.4  # the least share of a table's width its broken columns keep
WHOLE_EXAMPLE_ROWS = 12  # an example of this many rows or fewer (its pads and title counted) is never split
_AFTER_HYPHEN = re.compile(r"(?<=\w-)(?=\w)")  # kardinal-|land-|cards: where a file name may break


def _by_character(pieces: Sequence[Piece]) -> tuple:
    """Japanese running text broken between any two characters, as books set it, rather than only
    between phrases (which suits a card's few words but leaves a column's right edge ragged).
    Kinsoku holds: a closing mark stays with the character before it, an opening one with the
    one after; a Latin word, a number or an icon inside the Japanese stays whole."""
    out: list = []
    for piece in pieces:
        if isinstance(piece, str) or piece.space or not any(has_cjk(frag.text) for frag in piece.frags):
            out.append(piece)
            continue
        groups: list[list[Frag]] = []
        glue = True  # the first unit opens the first group
        for frag in piece.frags:
            units = [frag] if frag.icon is not None else [Frag(ch, None, frag.style) for ch in frag.text]
            for unit in units:
                wide = unit.icon is None and _is_cjk(unit.text)
                previous = groups[-1][-1] if groups else None
                latin_run = previous is not None and not wide and previous.icon is None and not _is_cjk(previous.text)
                if glue or unit.text in _NO_LINE_START or latin_run:
                    if not groups:
                        groups.append([])
                    groups[-1].append(unit)
                else:
                    groups.append([unit])
                glue = unit.text in _NO_LINE_END
        out += [Atom(tuple(group)) for group in groups]
    return tuple(out)


@mutable
class _Row:
    """One line (or table row, or picture) of a column: its height and how to draw it."""

    height: float
    draw: Callable[[Canvas, float, float, float], None] | None = None  # (canvas, x, top, width)
    background: object | None = None  # a tint behind the row, across the column
    keep_with_next: int = 0  # rows of what follows that must stand in the same column
    space: bool = False  # a gap: dropped at the top of a column
    shrink: float = 1.0  # a picture may be made this much smaller to fit where it stands


@mutable
class _Page:
    placed: list[tuple[float, float, float, _Row]] = field(default_factory=list)  # x, top, width, row
    section: int = 0


@mutable
class _Setter:
    """Turns blocks into rows for one column width."""

    fonts: FontSet
    style: BookletStyle
    page_height: float  # the most a row may take: a page's height less its margins and footer

    def lines(
        self, text: str, width: float, size: float, bold: bool = False, hyphens: bool = False
    ) -> list[list[Atom]]:
        """``text`` broken into lines of ``width``; with ``hyphens`` a word may also break after a
        hyphen inside it (a long file name in a table)."""
        setting = Typesetting(FontBook(self.fonts.regular, self.fonts.bold), bold=bold, markup=True)
        font = self.fonts.bold if bold else self.fonts.regular
        parts = _AFTER_HYPHEN.split(text) if hyphens else [text]
        pieces: Sequence[Piece] = [piece for part in parts for piece in tokenize(part, font, setting, size)]
        if not text.isascii() or "&" in text:  # (Japanese, or a character reference that may be)
            pieces = _by_character(pieces)
        for break_words in (0, 1, 2):
            lines = wrap(pieces, size, width, break_words)
            if lines is not None:
                return lines
        raise AssertionError("a text wraps at the latest when broken between letters")

    def text_rows(
        self,
        text: str,
        width: float,
        size: float,
        *,
        bold: bool = False,
        ink=None,
        indent: float = 0.0,
        background=None,
        align: str = "left",
    ) -> list[_Row]:
        rows = []
        for line in self.lines(text, width - indent, size, bold):
            scale = max((atom.scale for atom in line), default=1.0)
            height = size * self.style.leading * scale
            rows.append(_Row(height, _line_drawer(line, size, scale, height, indent, ink, align), background))
        return rows

    def rows(self, block: Block, width: float) -> list[_Row]:
        style = self.style
        if isinstance(block, Heading):
            size = style.heading if block.level == 1 else style.subheading
            ink = colour(style.accent) if block.level == 1 else None
            rows = [_Row(size * 0.55 * style.spacing, space=True)]
            rows += self.text_rows(block.text, width, size, bold=True, ink=ink)
            if block.level == 1:
                rows.append(_Row(2.2 * mm, _rule(colour(style.accent))))
            else:
                rows.append(_Row(0.8 * mm * style.spacing, space=True))
            for row in rows:
                row.keep_with_next = 2
            return rows
        if isinstance(block, Paragraph):
            return [*self.text_rows(block.text, width, style.size), _Row(style.size * 0.45 * style.spacing, space=True)]
        if isinstance(block, Items):
            return self.item_rows(block, width)
        if isinstance(block, Example):
            return self.example_rows(block, width)
        if isinstance(block, Table):
            return self.table_rows(block, width)
        if isinstance(block, Picture):
            return self.picture_rows(block, width)
        return []

    def item_rows(self, block: Items, width: float) -> list[_Row]:
        size = self.style.size
        rows: list[_Row] = []
        indent = 4.2 * mm if block.numbered else 3.2 * mm
        for number, item in enumerate(block.items, 1):
            mark = f"{number}." if block.numbered else "•"
            lines = self.text_rows(item, width, size, indent=indent)
            first = lines[0]
            lines[0] = _Row(first.height, _with_mark(first.draw, mark, self.fonts.bold, size), first.background)
            rows += lines
            rows.append(_Row(size * 0.2 * self.style.spacing, space=True))
        rows.append(_Row(size * 0.3 * self.style.spacing, space=True))
        return rows

    def example_rows(self, block: Example, width: float) -> list[_Row]:
        size, tint = self.style.small, self.style.tint
        pad = 2.2 * mm
        rows = [_Row(1.6 * mm, background=tint, keep_with_next=2)]
        if block.title:
            rows += self.text_rows(block.title, width - 2 * pad, size, bold=True, indent=0, background=tint)
        rows += self.text_rows(block.text, width - 2 * pad, size, background=tint)
        rows.append(_Row(1.6 * mm, background=tint))
        if len(rows) <= WHOLE_EXAMPLE_ROWS:  # a short example stands whole: split, its end had no title
            rows[0].keep_with_next = len(rows) - 1
        for row in rows:
            if row.draw is not None:
                row.draw = _shifted(row.draw, pad)
        return [*rows, _Row(self.style.size * 0.6 * self.style.spacing, space=True)]

    def table_rows(self, block: Table, width: float) -> list[_Row]:
        size = self.style.small
        pad = 1.4 * mm
        widths = self.column_widths(block, width, size, pad)
        rows = []
        for number, cells in enumerate(block.rows):
            header = number == 0
            cell_lines = [
                self.lines(text, cell_width - 2 * pad, size, bold=header or column == 0, hyphens=True)
                for column, (text, cell_width) in enumerate(zip(cells, widths))
            ]
            pitch = size * self.style.leading
            height = max(len(lines) for lines in cell_lines) * pitch + 2 * pad - (self.style.leading - 1) * size
            rows.append(_Row(height, _table_row(cell_lines, widths, size, pitch, pad, header, self.style)))
        rows[0].keep_with_next = 2
        rows.append(_Row(self.style.size * 0.8 * self.style.spacing, space=True))
        return rows

    def column_widths(self, block: Table, width: float, size: float, pad: float) -> list[float]:
        """Each column's share of ``width``, a ``whole`` column widened to its longest cell (and
        the others narrowed to make room) — unless that leaves the others less than
        :data:`WHOLE_LEAVES` of the width: then a long name breaks after a hyphen, as it can."""
        total = sum(block.widths)
        shares = [width * share / total for share in block.widths]
        if not block.whole:
            return shares
        kept = {
            column: max(
                shares[column],
                max(
                    self.natural_width(row[column], size, bold=number == 0 or column == 0)
                    for number, row in enumerate(block.rows)
                )
                + 2 * pad
                + 0.5,  # (not at the edge of its line to the last hundredth)
            )
            for column in block.whole
        }
        left = width - sum(kept.values())
        if left < WHOLE_LEAVES * width:
            return shares
        others = sum(share for column, share in enumerate(block.widths) if column not in kept)
        return [kept[column] if column in kept else left * share / others for column, share in enumerate(block.widths)]

    def natural_width(self, text: str, size: float, *, bold: bool) -> float:
        """How wide ``text`` is set on one line."""
        lines = self.lines(text, 10_000.0, size, bold)
        return max(line_width(line, size) for line in lines)

    def picture_rows(self, block: Picture, width: float) -> list[_Row]:
        """The picture as wide as the column allows (and no taller than a page); where it stands
        it may shrink to half that rather than leave a page for itself."""
        natural_w, natural_h = block.width_mm * mm, block.height_mm * mm
        pad = 1.5 * mm
        fitted = min(1.0, width / natural_w, self.page_height / natural_h)
        smallest = max(0.3, min(1.0, 60 * mm / (natural_h * fitted)))  # never below 60 mm tall, or a third
        row = _Row(natural_h * fitted + pad, keep_with_next=1 if block.caption else 0, shrink=smallest)

        def draw(c: Canvas, x: float, top: float, column_width: float) -> None:
            scale = min(fitted, (row.height - pad) / natural_h)  # the row's height as laid out
            c.saveState()
            c.translate(x + (column_width - natural_w * scale) / 2, top - natural_h * scale)
            c.scale(scale, scale)
            block.draw(c, natural_w, natural_h)
            c.restoreState()

        row.draw = draw
        rows = [row]
        if block.caption:
            grey = colour("#555555")
            rows += self.text_rows(block.caption, width, self.style.small, ink=grey, align="center")
        return [*rows, _Row(self.style.size * 0.6 * self.style.spacing, space=True)]


def _line_drawer(line: list[Atom], size: float, scale: float, height: float, indent: float, ink, align: str):
    fitted = FittedText([line], size, 1.0, [scale])

    def draw(c: Canvas, x: float, top: float, width: float) -> None:
        c.saveState()
        if ink is not None:
            c.setFillColor(ink)
        else:
            c.setFillGray(0.08)
        if align == "center":
            x += (width - indent - line_width(line, size)) / 2
        draw_fitted(c, fitted, None, TextBox(x + indent, top - height, width - indent, height, "left", "top"))
        c.restoreState()

    return draw


def _with_mark(draw, mark: str, font: str, size: float):
    def both(c: Canvas, x: float, top: float, width: float) -> None:
        draw(c, x, top, width)
        c.saveState()
        c.setFillGray(0.08)
        c.setFont(font, size)
        c.drawString(x, top - size * 0.88, mark)
        c.restoreState()

    return both


def _shifted(draw, pad: float):
    return lambda c, x, top, width: draw(c, x + pad, top, width - 2 * pad)


def _rule(ink):
    def draw(c: Canvas, x: float, top: float, width: float) -> None:
        c.saveState()
        c.setStrokeColor(ink)
        c.setLineWidth(0.8)
        c.line(x, top - 0.9 * mm, x + width, top - 0.9 * mm)
        c.restoreState()

    return draw


def _table_row(cell_lines, widths, size: float, pitch: float, pad: float, header: bool, style: BookletStyle):
    def draw(c: Canvas, x: float, top: float, width: float) -> None:
        height = max(len(lines) for lines in cell_lines) * pitch + 2 * pad - (style.leading - 1) * size
        c.saveState()
        if header:
            c.setFillColor(style.tint)
            c.rect(x, top - height, sum(widths), height, stroke=0, fill=1)
        c.setStrokeGray(0.55)
        c.setLineWidth(0.5)
        left = x
        for lines, cell_width in zip(cell_lines, widths):
            c.rect(left, top - height, cell_width, height, stroke=1, fill=0)
            line_top = top - pad
            c.setFillGray(0.08)
            for line in lines:
                fitted = FittedText([line], size, 1.0, [1.0])
                draw_fitted(c, fitted, None, TextBox(left + pad, line_top - pitch, cell_width - 2 * pad, pitch))
                line_top -= pitch
            left += cell_width
        c.restoreState()

    return draw


# --- the document --------------------------------------------------------------------------------

TITLE_BAND = 21 * mm
FOOTER_ZONE = 13 * mm  # from the paper's bottom edge: the margin note, then the page number above it


@mutable
class Booklet:
    """Sections laid out on ``doc``'s paper; :attr:`pages` is known before anything is drawn."""

    sections: Sequence[Section]
    fonts: FontSet
    page_size: tuple[float, float]
    style: BookletStyle = BookletStyle()

    def __post_init__(self) -> None:
        self._pages = self._lay_out()

    @property
    def pages(self) -> int:
        return len(self._pages)

    def then(self, other: Booklet) -> Booklet:
        """This booklet's sections and then ``other``'s, as each was laid out: a section begins
        on a page of its own, under its own title, so where its rows fall does not depend on
        what comes before it (a start file's rules are laid out once, though its cover, which
        lists the rules' pages, may be laid out twice)."""
        assert (other.fonts, other.page_size) == (self.fonts, self.page_size)
        assert _furniture(other.style) == _furniture(self.style)  # (its text may be set tighter: fitted)
        joined = copy.copy(self)  # (not laid out again: a copy's __init__ is not called)
        joined.sections = [*self.sections, *other.sections]
        after = len(self.sections)
        joined._pages = [*self._pages, *(_Page(page.placed, page.section + after) for page in other._pages)]
        return joined

    def section_pages(self) -> list[tuple[int, int]]:
        """(first, last) page of each section, counted from 1."""
        spans: dict[int, list[int]] = {}
        for number, page in enumerate(self._pages, 1):
            spans.setdefault(page.section, []).append(number)
        return [(min(spans[i]), max(spans[i])) for i in range(len(self.sections))]

    def _lay_out(self) -> list[_Page]:
        width, height = self.page_size
        margin = self.style.margin_mm * mm
        bottom = FOOTER_ZONE + 4 * mm
        setter = _Setter(self.fonts, self.style, height - margin - TITLE_BAND - bottom)
        pages: list[_Page] = []
        for index, section in enumerate(self.sections):
            page = _Page(section=index)
            pages.append(page)
            page_top = band_top = height - margin - TITLE_BAND  # (a section's first page: under its title)
            columns = section.columns
            column, y = 0, band_top
            deepest = band_top

            def column_box(count: int, number: int) -> tuple[float, float]:
                gutter = self.style.gutter_mm * mm
                column_width = (width - 2 * margin - (count - 1) * gutter) / count
                return margin + number * (column_width + gutter), column_width

            groups = _bands(section.blocks, columns)
            for count, blocks in groups:
                if count != columns:  # a new band below everything placed so far
                    columns, column, band_top = count, 0, min(deepest, y)
                    y = band_top
                x, column_width = column_box(columns, column)
                rows = [row for block in blocks for row in _rows_or_break(setter, block, column_width)]
                for number, row in enumerate(rows):
                    following = _kept_height(rows, number)
                    if row.space and y == band_top:
                        continue
                    room = y - bottom - following
                    if row.space and row.height > room:  # a gap at the foot of a column is not needed
                        continue
                    if row.height > room >= row.height * row.shrink:
                        row.height = room
                    # a row too tall for a fresh column stands there all the same, or nothing would end
                    if row is _BREAK or (row.height > room and y < page_top):
                        column += 1
                        if column == columns:
                            page = _Page(section=index)
                            pages.append(page)
                            column, page_top = 0, height - margin
                            band_top = deepest = page_top
                        y = band_top
                        x, column_width = column_box(columns, column)
                        if row.space or row is _BREAK:
                            continue
                    page.placed.append((x, y, column_width, row))
                    y -= row.height
                    deepest = min(deepest, y)
        return pages

    def draw(self, doc: Document) -> None:
        """Draw every page into the open document, each numbered "n / pages"."""
        c = doc.canvas
        width, height = self.page_size
        margin = self.style.margin_mm * mm
        started = set()
        for number, page in enumerate(self._pages):
            section = self.sections[page.section]
            if page.section not in started:
                started.add(page.section)
                self._title_band(c, section, width, height, margin)
            for x, top, column_width, row in page.placed:
                if row.background is not None:
                    c.saveState()
                    c.setFillColor(row.background)
                    c.rect(x, top - row.height, column_width, row.height + 0.01, stroke=0, fill=1)
                    c.restoreState()
                if row.draw is not None:
                    row.draw(c, x, top, column_width)
            self._footer(c, section, number + 1, self.pages, width, margin)
            doc.margin_note("bottom")
            doc.end_page()

    def _title_band(self, c: Canvas, section: Section, width: float, height: float, margin: float) -> None:
        top = height - margin
        c.saveState()
        c.setFillColor(colour(self.style.accent))
        c.rect(margin, top - 12 * mm, width - 2 * margin, 12 * mm, stroke=0, fill=1)
        c.setFillGray(1)
        box = TextBox(margin + 4 * mm, top - 12 * mm, width - 2 * margin - 8 * mm, 12 * mm, "left", "middle")
        draw_fitted(c, _fit_one_line(section.title, self.fonts.bold, box, 17), None, box)
        if section.subtitle:
            c.setFillGray(0.25)
            box = TextBox(margin, top - 19.5 * mm, width - 2 * margin, 6 * mm, "left", "middle")
            draw_fitted(c, _fit_one_line(section.subtitle, self.fonts.regular, box, 9.5), None, box)
        c.restoreState()

    def _footer(self, c: Canvas, section: Section, number: int, total: int, width: float, margin: float) -> None:
        c.saveState()
        c.setFillGray(0.35)
        text = f"{self.style.footer or section.title}  ·  {number} / {total}"
        box = TextBox(margin, NOTE_FROM_EDGE + 4.6 * mm, width - 2 * margin, 4 * mm, "right", "middle")
        draw_fitted(c, _fit_one_line(text, self.fonts.regular, box, 8), None, box)
        c.restoreState()


# Ever tighter settings a booklet may take to save a page, the least change first; the body text
# never goes under the style's small size (8 pt: what a player reads at the table), and the title
# bands, margins and footers stay as they are.
TIGHTER = (  # size, leading, heading, subheading, spacing (each no looser than the style's own)
    (9.0, 1.25, 12.5, 10.0, 0.8),
    (8.5, 1.25, 11.5, 9.5, 0.7),
    (8.0, 1.25, 11.0, 9.0, 0.6),
)


def fitted(
    sections: Sequence[Section], fonts: FontSet, page_size: tuple[float, float], style: BookletStyle = BookletStyle()
) -> Booklet:
    """``sections`` laid out as ``style`` sets them, unless a tighter setting (:data:`TIGHTER`)
    takes fewer pages: then in the first that does. Rules whose last few lines would spill onto a
    page of their own fit their pages instead; rules that need the pages keep their size."""
    loose = Booklet(sections, fonts, page_size, style)
    if loose.pages == 1:  # (nothing to save: no setting is laid out in vain)
        return loose
    for size, leading, heading, subheading, spacing in TIGHTER:
        tighter = replace(
            style,
            size=min(size, style.size),
            leading=min(leading, style.leading),
            heading=min(heading, style.heading),
            subheading=min(subheading, style.subheading),
            spacing=min(spacing, style.spacing),
        )
        if tighter.size < style.small:
            continue
        tight = Booklet(sections, fonts, page_size, tighter)
        if tight.pages < loose.pages:
            return tight
    return loose


def _furniture(style: BookletStyle) -> tuple:
    """What a page of ``style`` draws around its text: the same for every section of a booklet."""
    return style.accent, style.footer, style.margin_mm, style.gutter_mm


_BREAK = _Row(0.0)  # a column break among the rows


def _kept_height(rows: list[_Row], index: int) -> float:
    """The height of the rows that must stand in the same column as row ``index`` after it: its
    ``keep_with_next`` rows, and further while those keep rows of their own (a heading followed
    by a subheading keeps the subheading's first lines too)."""
    total, remaining, at = 0.0, rows[index].keep_with_next, index
    while remaining > 0 and at + 1 < len(rows) and rows[at + 1] is not _BREAK:
        at += 1
        total += rows[at].height
        remaining = max(remaining - 1, rows[at].keep_with_next)
    return total


def _rows_or_break(setter: _Setter, block: Block, width: float) -> list[_Row]:
    return [_BREAK] if isinstance(block, ColumnBreak) else setter.rows(block, width)


def _bands(blocks: Sequence[Block], columns: int) -> list[tuple[int, list[Block]]]:
    """The blocks grouped by the column count they flow in."""
    bands: list[tuple[int, list[Block]]] = [(columns, [])]
    for block in blocks:
        if isinstance(block, Columns):
            bands.append((block.number, []))
        else:
            bands[-1][1].append(block)
    return bands


def _fit_one_line(text: str, font: str, box: TextBox, size: float) -> FittedText:
    from kkprint.engine.text import fit_text

    return fit_text(text, font, box, size, size * 0.6, max_lines=1)
