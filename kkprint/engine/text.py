"""Text that fits its box: wrapping (Latin by word, Japanese by character), shrinking, icons.

``{name}`` in a text stands for the icon registered under ``name``; it sits on the baseline and
scales with the font. ``{{`` and ``}}`` print literal braces. Text that does not fit even at the
smallest allowed size is an error — never a silent overflow.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from kkprint.engine.fonts import ensure_drawable
from kkprint.engine.icons import draw_icon, get_icon
from kkprint.errors import InputError

ICON_SCALE = 0.82  # icon square side, as a fraction of the font size
ICON_DROP = 0.06  # how far below the baseline an icon sits, as a fraction of the font size
_TOKEN = re.compile(r"\{\{|\}\}|\{([a-z0-9_\-:]+)\}", re.IGNORECASE)
_NO_LINE_START = set("、。，．・：；？！ー〜）」』】〕,.;:!?)]}%")
_NO_LINE_END = set("（「『【〔([{")


@dataclass(frozen=True)
class Atom:
    """An unbreakable piece of a line: a word, one CJK character, a space or an icon."""

    text: str = ""
    icon: str | None = None

    @property
    def is_space(self) -> bool:
        return self.icon is None and self.text.isspace()

    def width(self, font: str, size: float) -> float:
        if self.icon:
            return size * (ICON_SCALE + 0.08)
        return stringWidth(self.text, font, size)


def _is_cjk(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def tokenize(text: str) -> list[Atom | str]:
    """Split ``text`` into atoms; ``"\\n"`` items mark hard line breaks."""
    pieces: list[Atom | str] = []
    pos = 0
    plain = []
    for match in _TOKEN.finditer(text):
        plain.append(text[pos:match.start()])
        token = match.group(0)
        if token in ("{{", "}}"):
            plain.append(token[0])
        else:
            pieces.extend(_split_plain("".join(plain)))
            plain = []
            get_icon(match.group(1))  # unknown icons are an error now, not a blank later
            pieces.append(Atom(icon=match.group(1)))
        pos = match.end()
    plain.append(text[pos:])
    pieces.extend(_split_plain("".join(plain)))
    return _glue_punctuation(pieces)


def _split_plain(text: str) -> list[Atom | str]:
    pieces: list[Atom | str] = []
    word = ""
    for char in text:
        if char == "\n" or char.isspace() or _is_cjk(char):
            if word:
                pieces.append(Atom(word))
                word = ""
            pieces.append("\n" if char == "\n" else Atom(" " if char.isspace() else char))
        else:
            word += char
    if word:
        pieces.append(Atom(word))
    return pieces


def _glue_punctuation(pieces: list[Atom | str]) -> list[Atom | str]:
    """Keep closing punctuation with what precedes it and opening brackets with what follows."""
    glued: list[Atom | str] = []
    for piece in pieces:
        previous = glued[-1] if glued else None
        joinable = (
            isinstance(piece, Atom) and piece.icon is None
            and isinstance(previous, Atom) and previous.icon is None and not previous.is_space
        )
        if joinable and (piece.text[:1] in _NO_LINE_START or previous.text[-1:] in _NO_LINE_END):
            glued[-1] = Atom(previous.text + piece.text)
        else:
            glued.append(piece)
    return glued


def wrap(pieces: list[Atom | str], font: str, size: float, width: float,
         break_words: bool = False) -> list[list[Atom]] | None:
    """Greedy line breaking; ``None`` if a single atom is wider than the box.

    With ``break_words`` a word wider than the box is split between letters instead — the last
    resort for a long name, tried only when no font size fits it whole.
    """
    lines: list[list[Atom]] = [[]]
    used = 0.0
    queue = list(pieces)
    while queue:
        piece = queue.pop(0)
        if (break_words and piece != "\n" and piece.icon is None and len(piece.text) > 1
                and piece.width(font, size) > width + 1e-6):
            queue[:0] = [Atom(char) for char in piece.text]
            continue
        if piece == "\n":
            lines.append([])
            used = 0.0
            continue
        atom_width = piece.width(font, size)
        if piece.is_space and not lines[-1]:
            continue
        if used + atom_width > width + 1e-6 and lines[-1]:
            if piece.is_space:
                continue
            while lines[-1] and lines[-1][-1].is_space:
                lines[-1].pop()
            lines.append([])
            used = 0.0
        if atom_width > width + 1e-6:
            return None
        lines[-1].append(piece)
        used += atom_width
    return lines


def line_width(line: list[Atom], font: str, size: float) -> float:
    return sum(atom.width(font, size) for atom in line)


def _orphan(lines: list[list[Atom]]) -> bool:
    """A last line of one short word or at most two Japanese characters reads as a stray."""
    last = [atom for atom in lines[-1] if not atom.is_space]
    if len(lines) < 2 or not last or any(atom.icon for atom in last):
        return False
    return sum(len(atom.text) for atom in last) <= 2


@dataclass(frozen=True)
class TextBox:
    """Where text goes, in points; ``align`` is left/center/right, ``valign`` top/middle/bottom."""

    x: float
    y: float
    width: float
    height: float
    align: str = "left"
    valign: str = "top"


@dataclass(frozen=True)
class FittedText:
    lines: list[list[Atom]]
    size: float
    leading: float


def fit_text(text: str, font: str, box: TextBox, max_size: float, min_size: float | None = None,
             leading: float = 1.25, max_lines: int | None = None) -> FittedText:
    """The largest size from ``max_size`` down to ``min_size`` at which ``text`` fits ``box``."""
    min_size = min_size if min_size is not None else max_size * 0.6
    pieces = tokenize(text)
    for break_words in (False, True):
        fitted = _fit(pieces, font, box, max_size, min_size, leading, max_lines, break_words)
        if fitted is not None:
            return fitted
    raise InputError(f"text {text[:40]!r} does not fit its {box.width / 2.8346:.0f}×{box.height / 2.8346:.0f} mm box "
                     f"even at {min_size:g} pt")


def _fit(pieces: list[Atom | str], font: str, box: TextBox, max_size: float, min_size: float, leading: float,
         max_lines: int | None, break_words: bool) -> FittedText | None:
    size = max_size
    orphaned: FittedText | None = None
    while size >= min_size - 1e-6:
        lines = wrap(pieces, font, size, box.width, break_words)
        if lines is not None and (max_lines is None or len(lines) <= max_lines):
            height = size + (len(lines) - 1) * size * leading
            if height <= box.height + 1e-6:
                fitted = FittedText(lines, size, leading)
                if not _orphan(lines):
                    return fitted
                # one lone character on the last line reads badly; a slightly smaller size may avoid it
                orphaned = orphaned or fitted
                if size <= orphaned.size * 0.8:
                    return orphaned
        size = round(size - 0.25, 4)
    return orphaned


def draw_fitted(canvas: Canvas, fitted: FittedText, font: str, box: TextBox) -> None:
    for line in fitted.lines:
        ensure_drawable("".join(atom.text for atom in line), font)
    size, leading = fitted.size, fitted.leading
    block = size + (len(fitted.lines) - 1) * size * leading
    ascent = size * 0.88
    if box.valign == "middle":
        top = box.y + (box.height + block) / 2
    elif box.valign == "bottom":
        top = box.y + block
    else:
        top = box.y + box.height
    baseline = top - ascent
    for line in fitted.lines:
        width = line_width(line, font, size)
        if box.align == "center":
            x = box.x + (box.width - width) / 2
        elif box.align == "right":
            x = box.x + box.width - width
        else:
            x = box.x
        run = ""
        for atom in [*line, Atom(icon="")]:  # the empty icon flushes the last run of text
            if atom.icon is None:
                run += atom.text
                continue
            if run:
                canvas.setFont(font, size)
                canvas.drawString(x, baseline, run)
                x += stringWidth(run, font, size)
                run = ""
            if atom.icon:
                draw_icon(canvas, atom.icon, x + size * 0.04, baseline - size * ICON_DROP, size * ICON_SCALE)
                x += atom.width(font, size)
        baseline -= size * leading


def draw_text(canvas: Canvas, text: str, font: str, box: TextBox, max_size: float, min_size: float | None = None,
              leading: float = 1.25, max_lines: int | None = None) -> FittedText:
    """Fit ``text`` into ``box`` and draw it; returns the fit so callers can inspect it."""
    fitted = fit_text(text, font, box, max_size, min_size, leading, max_lines)
    draw_fitted(canvas, fitted, font, box)
    return fitted
