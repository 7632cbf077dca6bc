"""Text that fits its box: rich runs, inline icons, phrase-aware Japanese breaks, shrinking.

``{name}`` in a text stands for an icon (built-in or the deck's own); it sits on the baseline and
scales with the font. ``{{`` and ``}}`` print literal braces. With markup on, ``<b>``, ``<i>``,
``<span color=… size=… font=…>`` and ``<br>`` style runs inside one text; ``{漢字|かんじ}`` (and
``<ruby>``) sets a reading over its base (see :mod:`kkprint.engine.ruby`). Japanese breaks between
phrases (BudouX), never inside a word; Latin breaks at spaces. Text that does not fit even at the
smallest allowed size is an error — never a silent overflow. Vertical text (縦書き) is made here
too, as columns instead of lines; :mod:`kkprint.engine.vertical` draws it.

A text becomes a list of :class:`Atom` (what a line may not break inside), each made of
:class:`Frag` (a run of one style, or one icon). Everything up to the fitted lines is cached: a
deck repeats the same texts on many cards.
"""

from __future__ import annotations

import math
import re
import unicodedata
import weakref
from collections.abc import Iterable
from functools import lru_cache
from itertools import accumulate
from typing import Literal, NamedTuple

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.errors import InputError, LimitReached, did_you_mean, suggest
from kkprint.base.i18n import Msg
from kkprint.base.phrases import japanese_phrases
from kkprint.engine.icons import draw_icon, has_icon, icon_metrics, icon_names
from kkprint.engine.orientation import TATECHUYOKO, runs
from kkprint.engine.ruby import RUBY_SCALE, TOKEN, line_room, pairs, spacing
from kkprint.engine.typesetting import PLAIN, Typesetting

ICON_SCALE = 0.82  # icon square side, as a fraction of the font size (an icon's own scale overrides it)
ICON_DROP = 0.06  # how far below the baseline an icon sits, as a fraction of the font size
ICON_GAP = 0.08  # space after an icon, as a fraction of the font size
ICON_ROOM = 1.1  # an icon up to this many times the font size fits the line; a bigger one makes room
SLANT = math.tan(math.radians(12))  # italic made from an upright face
ASCENT, DESCENT = 0.88, 0.12  # how far a line's letters reach above and below its baseline, per pt
# kinsoku: what no line may start with (closing marks, small kana: 行頭禁則) or end with (行末禁則)
_NO_LINE_START = set(
    "、。，．・：；？！ー〜）」』】〕〉》］｝,.;:!?)]}%ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"
)
_NO_LINE_END = set("（「『【〔〈《［｛([{")
_OBJECT = "\ufffc"  # stands for an icon while line breaks are worked out


# --- faces ------------------------------------------------------------------------------------


class Style(NamedTuple):
    font: str
    scale: float = 1.0
    colour: str | None = None
    slant: bool = False
    turn: str = ""  # vertical text: "" upright, "sideways" or "tcy" (see kkprint.engine.orientation)


class Frag:
    """A run of text in one style, or one icon; a run with a ``ruby`` is a ruby base and that
    frag its reading. (Plain slotted classes: a deck makes thousands.)"""

    __slots__ = ("text", "icon", "style", "ruby")

    def __init__(self, text: str = "", icon: str | None = None, style: Style = Style(""), ruby: Frag | None = None):
        self.text, self.icon, self.style, self.ruby = text, icon, style, ruby

    def width(self, size: float) -> float:
        """How far the frag advances along its line (down its column, in vertical text)."""
        if self.icon:
            return size * self.style.scale * (icon_side(self.icon) + ICON_GAP)
        if self.style.turn == TATECHUYOKO:  # two digits side by side fill one square
            return size * self.style.scale
        return _unit_width(self.text, self.style.font) * size * self.style.scale

    @property
    def height(self) -> float:
        """The line height it needs, as a multiple of its style's: more for a large icon."""
        if self.icon:
            return self.style.scale * max(1.0, icon_side(self.icon) / ICON_ROOM)
        return self.style.scale

    @property
    def whole(self) -> bool:
        """An icon or a ruby base: never cut into letters."""
        return self.icon is not None or self.ruby is not None


def icon_side(icon: str) -> float:
    """An icon's side as a multiple of the text size: its own scale (``icons: {coin: {scale: 1.4}}``) or the usual."""
    return icon_metrics(icon)[0] or ICON_SCALE


@lru_cache(maxsize=65536)
def _unit_width(text: str, font: str) -> float:
    """A word's width at 1 pt: a deck's words recur on card after card, and widths grow linearly
    with the size."""
    return stringWidth(text, font, 1.0)


class Atom:
    """An unbreakable piece of a line: a word or phrase (maybe of several styles), or a space.

    ``unit`` is its width at 1 pt: widths grow linearly with the size, so fitting at many sizes
    measures each word once. An atom with ruby also knows the space around each base that its
    reading needs (``pads``, at 1 pt) and its largest reading's scale (``ruby``).
    """

    __slots__ = ("frags", "space", "scale", "unit", "pads", "ruby")

    def __init__(self, frags: tuple[Frag, ...], space: bool = False):
        self.frags, self.space = frags, space
        if len(frags) == 1:
            self.scale, self.unit = frags[0].height, frags[0].width(1.0)
        else:
            self.scale = max(f.height for f in frags)
            self.unit = sum(f.width(1.0) for f in frags)
        self.pads: tuple[tuple[float, float], ...] | None = None
        self.ruby = 0.0
        for frag in frags:  # (a loop, not any() over a generator: every word of every card is an atom)
            if frag.ruby is not None:
                self._make_room()
                break

    def _make_room(self) -> None:
        """Space around each ruby base whose reading is wider than the base: the reading may
        reach over half of a neighbour in this atom that has no reading (what is on the next
        line is out of reach)."""
        frags, pads = self.frags, []
        for index, frag in enumerate(frags):
            if frag.ruby is None:
                pads.append((0.0, 0.0))
                continue
            before = _reach(frags[index - 1], -1) if index else 0.0
            after = _reach(frags[index + 1], 0) if index + 1 < len(frags) else 0.0
            pads.append(spacing(frag.width(1.0), frag.ruby.width(1.0), before, after))
            self.ruby = max(self.ruby, frag.ruby.style.scale)
        self.pads = tuple(pads)
        self.unit += sum(before + after for before, after in pads)

    @property
    def text(self) -> str:
        return "".join(f.text for f in self.frags)

    @property
    def icon(self) -> str | None:
        return next((f.icon for f in self.frags if f.icon), None)

    def width(self, size: float) -> float:
        return self.unit * size


def _reach(neighbour: Frag, end: int) -> float:
    """How far (at 1 pt) a reading may reach over ``neighbour``: half its character at ``end``
    (0 first, -1 last), and nothing over an icon or another reading's base."""
    if neighbour.whole or not neighbour.text:
        return 0.0
    return _unit_width(neighbour.text[end], neighbour.style.font) * neighbour.style.scale / 2


Piece = Atom | str  # "\n" marks a hard line break


def _segments(text: str, setting: Typesetting, base_size: float) -> list[tuple[str, tuple]]:
    """(text, style key) runs; a style key is (family, bold, italic, scale, colour)."""
    base = (setting.family, setting.bold, setting.italic, 1.0, None)
    if not setting.markup or ("<" not in text and "&" not in text):
        return [(text, base)]
    from kkprint.engine.markup import Markup  # (most texts have no markup: its parser loads when one does)

    parser = Markup(setting, base_size)
    parser.feed(text)
    parser.close()
    return parser.segments


# --- line-break opportunities -----------------------------------------------------------------


def _is_cjk(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a wide (Japanese) character; ASCII never does, and says so at once
    (most words of a Latin page)."""
    return not text.isascii() and any(_is_cjk(c) for c in text)


def _phrase_starts(text: str) -> set[int]:
    """Indices where a new phrase begins (Japanese, by BudouX)."""
    starts, pos = set(), 0
    for phrase in japanese_phrases(text):
        starts.add(pos)
        pos += len(phrase)
    return starts


def _break_before(chars: str) -> list[bool]:
    """For each character (not a space), may a line start there? Spaces are handled apart.

    Between phrases, and kinsoku holds: a phrase that BudouX ends with an opening bracket gives
    it to the phrase after (the break moves before the bracket, which would otherwise glue the
    two phrases into one long word); a phrase it begins with a closing mark is not broken from
    the phrase before."""
    n = len(chars)
    allowed = [False] * n
    if has_cjk(chars):
        for i in _phrase_starts(chars.replace(_OBJECT, "□")):
            while 0 < i < n and chars[i - 1] in _NO_LINE_END:
                i -= 1
            if 0 < i < n and (_is_cjk(chars[i - 1]) or _is_cjk(chars[i])):
                allowed[i] = True
    for i in range(1, n):
        if chars[i] in _NO_LINE_START or chars[i - 1] in _NO_LINE_END:
            allowed[i] = False
    return allowed


# --- tokenizing -------------------------------------------------------------------------------

# literal braces, an icon, a ruby ({base|reading}), and braces around what can name no icon
_ICON_TOKEN = re.compile(r"\{\{|\}\}|\{([A-Za-z0-9_\-:]+)\}|" + TOKEN + r"|\{([^{}|]+)\}")
_SPLIT = re.compile(r"(\n|[^\S\n]+)")


Item = tuple[str, str | None, tuple, str | None]  # (text, icon, style key, reading)


def _items(segments, aliases: dict[str, str]) -> list[Item]:
    """(text, icon, style key, reading) pieces: icons and ruby cut out of the text, literal
    braces unescaped."""
    if len(segments) > 1:
        _refuse_markup_inside_braces(segments, aliases)
    items: list[Item] = []
    for text, key in segments:
        if "{" not in text and "}" not in text:
            items.append((text, None, key, None))
            continue
        pos = 0
        for match in _ICON_TOKEN.finditer(text):
            if match.start() > pos:
                items.append((text[pos : match.start()], None, key, None))
            token = match.group(0)
            if token in ("{{", "}}"):
                items.append((token[0], None, key, None))
            elif match.group(2) is not None:
                items.extend((base, None, key, reading) for base, reading in pairs(match.group(2), match.group(3)))
            elif match.group(4) is not None:
                _refuse_no_icon_name(match.group(4), aliases)
            else:
                name = match.group(1)
                registered = aliases.get(name, name)
                if not has_icon(registered):
                    raise InputError(
                        Msg("unknown icon {{{name}}}{hint}", name=name, hint=suggest(name, [*aliases, *icon_names()]))
                    )
                items.append((_OBJECT, registered, key, None))
            pos = match.end()
        if pos < len(text):
            items.append((text[pos:], None, key, None))
    return items


def _refuse_no_icon_name(written: str, aliases: dict[str, str]) -> None:
    """Braces around what can be no icon's name (``{wood stone}``, as ``{${res}}`` makes of a
    field holding a space) printed as written, braces and all, in silence: refused as an unknown
    icon is (``{{wood stone}}`` prints braces)."""
    shown = written if len(written) <= 40 else written[:39] + "…"
    raise InputError(
        Msg(
            "{{{name}}} cannot be an icon: an icon's name has only the letters A–Z and a–z, digits, _ - and : "
            "(is the field it comes from right?){hint}; write {{{{{name}}}}} to print the braces",
            name=shown,
            hint=did_you_mean(written.strip(), [*aliases, *icon_names()]),
        )
    )


def _refuse_markup_inside_braces(segments, aliases: dict[str, str]) -> None:
    """Braces that a tag cuts in two are refused: read a segment at a time, each part printed as
    written, braces and all. A ruby (``{<b>漢</b>|かん}``, ``{漢|<b>かん</b>}``) or an icon
    (``{<b>coin</b>}``) takes the style around it, so the tags go around the whole of it
    (``<b>{漢|かん}</b>``), as ``<ruby>`` asks; braces around what can be no icon's name
    (``{wood <b>stone</b>}``) are refused as they are without the tag."""
    joined = "".join(text for text, _ in segments)
    ends = list(accumulate(len(text) for text, _ in segments))  # (where each segment's text ends in joined)
    for match in _ICON_TOKEN.finditer(joined):
        if not any(match.start() < end < match.end() for end in ends) or match.group(0) in ("{{", "}}"):
            continue
        if match.group(2) is not None:
            base, reading = match.group(2), match.group(3)
            raise InputError(
                Msg(
                    "ruby {{{base}|{reading}}} has markup inside its braces: a ruby takes the style around "
                    "it, so put the tags around the whole ruby, as in <b>{{{base}|{reading}}}</b>",
                    base=base,
                    reading=reading,
                )
            )
        if match.group(1) is not None:
            raise InputError(
                Msg(
                    "icon {{{name}}} has markup inside its braces: an icon takes the style around it, so put "
                    "the tags around the whole icon, as in <b>{{{name}}}</b>",
                    name=match.group(1),
                )
            )
        _refuse_no_icon_name(match.group(4), aliases)


class _Builder:
    """Collects fragments into atoms: a word (or phrase) is closed by a space, a hard break or a
    line-break opportunity; styles may change inside it."""

    def __init__(self, setting: Typesetting, font: str):
        self.setting, self.font = setting, font
        self.pieces: list[Piece] = []
        self.word: list[Frag] = []
        self.styles: dict = {}

    def style(self, key: tuple) -> tuple[Style, str | None]:
        found = self.styles.get(key)
        if found is None:
            family, bold, italic, scale, colour = key
            if self.setting.book is None:
                found = (Style(self.font, scale, colour, italic), None)
            else:
                face, slant = self.setting.book.family(family).face(bold, italic)
                fallback = self.setting.book.fallback_bold if bold else self.setting.book.fallback_regular
                found = (Style(face, scale, colour, slant), fallback if fallback != face else None)
            self.styles[key] = found
        return found

    def text(self, text: str, key: tuple) -> None:
        style, fallback = self.style(key)
        if fallback is None or _all_covered(style.font, text):
            self._frag(text, style)
            return
        fallback_style = style._replace(font=fallback)
        for char in text:  # only characters the deck's font lacks go to the bundled font
            self._frag(char, style if _all_covered(style.font, char) else fallback_style)

    def _frag(self, text: str, style: Style) -> None:
        if self.word and not self.word[-1].whole and self.word[-1].style == style:
            self.word[-1] = Frag(self.word[-1].text + text, None, style)
        else:
            self.word.append(Frag(text, None, style))

    def icon(self, icon: str, key: tuple) -> None:
        self.word.append(Frag(icon=icon, style=self.style(key)[0]))

    def ruby(self, base: str, reading: str, key: tuple) -> None:
        """A base with its reading, at half the size; either is set in the bundled font when the
        region's own font lacks one of its characters."""
        style, fallback = self.style(key)

        def drawn(text: str) -> Style:
            return style if fallback is None or _all_covered(style.font, text) else style._replace(font=fallback)

        reading_style = drawn(reading)
        reading_style = reading_style._replace(scale=reading_style.scale * RUBY_SCALE)
        self.word.append(Frag(base, None, drawn(base), Frag(reading, None, reading_style)))

    def flush(self) -> None:
        if self.setting.vertical:
            self.word = oriented(self.word)
        if len(self.word) == 1 and not self.word[0].whole:  # a word in one style: made once a build
            self.pieces.append(_shared_atom(self.word[0].text, self.word[0].style))
        elif self.word:
            self.pieces.append(Atom(tuple(self.word)))
        self.word = []

    def space(self, key: tuple) -> None:
        self.flush()
        self.pieces.append(_shared_atom(" ", self.style(key)[0]))

    def newline(self) -> None:
        self.flush()
        self.pieces.append("\n")


def oriented(frags: list[Frag]) -> list[Frag]:
    """Vertical text's frags: each run cut where the way its characters stand changes — upright,
    turned sideways (Latin words) or side by side (縦中横) — with that in its style."""
    out: list[Frag] = []
    for frag in frags:
        if frag.whole:
            out.append(frag)
        else:
            out.extend(Frag(part, None, frag.style._replace(turn=turn)) for part, turn in runs(frag.text))
    return out


_COVERED: dict[str, frozenset[str] | None] = {}


def _all_covered(font: str, text: str) -> bool:
    covered: frozenset[str] | None | Literal[False] = _COVERED.get(font, False)  # False: not looked up yet
    if covered is False:
        glyphs = getattr(getattr(getFont(font), "face", None), "charToGlyph", None)
        covered = _COVERED[font] = None if glyphs is None else frozenset(map(chr, glyphs))
    return covered is None or covered.issuperset(text)


@lru_cache(maxsize=1024)
def tokenize(text: str, font: str, setting: Typesetting = PLAIN, base_size: float = 10.0) -> tuple[Piece, ...]:
    """Split ``text`` into atoms and hard breaks; unknown icons and broken markup are errors now,
    not a blank later."""
    plain = _plain_pieces(text, font, setting)
    if plain is not None:
        return plain
    items = _items(_segments(text, setting, base_size), dict(setting.icons))
    out = _Builder(setting, font)
    if not has_cjk(text):  # Latin: lines break at spaces only
        for piece, icon, key, reading in items:
            if icon:
                out.icon(icon, key)
                continue
            if reading is not None:
                out.ruby(piece, reading, key)
                continue
            for part in _SPLIT.split(piece):
                if part == "\n":
                    out.newline()
                elif part and part.isspace():
                    out.space(key)
                elif part:
                    out.text(part, key)
        out.flush()
        return _check_drawable(tuple(out.pieces))
    chars = "".join(piece for piece, _, _, _ in items)
    breaks = _break_before(chars)
    index = 0
    for piece, icon, key, reading in items:
        if icon or reading is not None:
            if breaks[index]:
                out.flush()
            if reading is not None:
                out.ruby(piece, reading, key)
            elif icon:
                out.icon(icon, key)
            index += len(piece)
            continue
        for char in piece:
            if char == "\n":
                out.newline()
            elif char.isspace():
                out.space(key)
            else:
                if breaks[index]:
                    out.flush()
                out.text(char, key)
            index += 1
    out.flush()
    return _check_drawable(tuple(out.pieces))


def _plain_pieces(text: str, font: str, setting: Typesetting) -> tuple[Piece, ...] | None:
    """The common case made cheap: Latin text in the region's own face, without markup, icons or
    characters the face lacks, is its words and spaces — each word an atom shared by every card
    that prints it. None for any other text."""
    style = _plain_style(text, font, setting)
    if style is None or has_cjk(text):
        return None
    return tuple(
        "\n" if part == "\n" else _shared_atom(" " if part.isspace() else part, style)
        for part in _SPLIT.split(text)
        if part
    )


def _plain_style(text: str, font: str, setting: Typesetting) -> Style | None:
    """The region's own face, for a text without icons or markup that it can draw alone (None
    for any other text); a character no face has is an error now."""
    if "{" in text or "}" in text or (setting.markup and ("<" in text or "&" in text)) or setting.vertical:
        return None
    style, fallback = _base_style(setting, font)
    if fallback is not None and not _all_covered(style.font, text):
        return None
    _require_covered(style.font, text)
    return style


def _shared_atom(text: str, style: Style) -> Atom:
    """The atom of a word (or of the space, " ") in ``style``: made once and shared by every text
    that uses it."""
    atoms = _atoms_in(style)
    atom = atoms.get(text)
    if atom is None:
        if len(atoms) > 65536:  # (a bound for a long `kkprint watch`)
            atoms.clear()
        atom = atoms[text] = Atom((Frag(text, None, style),), space=text == " ")
    return atom


@lru_cache(maxsize=64)
def _atoms_in(style: Style) -> dict[str, Atom]:
    return {}


# --- breaking lines and fitting ---------------------------------------------------------------


def _script(char: str) -> str:
    if "\u30a0" <= char <= "\u30ff" or char == "ー":
        return "katakana"
    if "\u3040" <= char <= "\u309f":
        return "hiragana"
    if "\u4e00" <= char <= "\u9fff" or "\u3400" <= char <= "\u4dbf":
        return "kanji"
    return "other"


def _letters(atom: Atom, letters: bool = True) -> list[Atom]:
    """A word too wide for its box, in smaller pieces: first where the script changes (勝利|ポイント|を,
    so a katakana word stays whole), and only a piece that is still one script into letters.
    Kinsoku holds between the pieces (see :func:`_kinsoku`)."""
    pieces: list[list[Frag]] = []
    last = None
    for frag in atom.frags:
        if frag.whole:
            pieces.append([frag])
            last = None
            continue
        for char in frag.text:
            script = _script(char)
            if pieces and script == last and script != "other" and pieces[-1][-1].style == frag.style:
                previous = pieces[-1][-1]
                pieces[-1][-1] = Frag(previous.text + char, None, frag.style)
            else:
                pieces.append([Frag(char, None, frag.style)])
            last = script
    pieces = _kinsoku(pieces)
    if len(pieces) > 1:
        return [Atom(tuple(piece)) for piece in pieces]
    if not letters:
        return [atom]
    return [
        Atom(tuple(piece))
        for piece in _kinsoku(
            [
                [frag] if frag.whole else [Frag(ch, None, frag.style)]
                for frag in atom.frags
                for ch in ("x" if frag.whole else frag.text)
            ]
        )
    ]


def _kinsoku(pieces: list[list[Frag]]) -> list[list[Frag]]:
    """Pieces of a word joined where a line may not break between them: before a closing mark
    (、。」ー, small kana: 行頭禁則) and after an opening bracket (「: 行末禁則)."""
    joined: list[list[Frag]] = []
    for piece in pieces:
        first = piece[0]
        if joined and (
            (not first.whole and first.text[:1] in _NO_LINE_START)
            or (not joined[-1][-1].whole and joined[-1][-1].text[-1:] in _NO_LINE_END)
        ):
            previous = joined[-1][-1]
            if not previous.whole and not first.whole and previous.style == first.style:
                joined[-1][-1] = Frag(previous.text + first.text, None, first.style)
                joined[-1].extend(piece[1:])
            else:
                joined[-1].extend(piece)
        else:
            joined.append(list(piece))
    return joined


def wrap(pieces, size: float, width: float, break_words: int = 0) -> list[list[Atom]] | None:
    """Greedy line breaking; ``None`` if a single atom is wider than the box.

    With ``break_words`` a word wider than the box is split — at 1 only where its script changes
    (勝利|ポイント), at 2 between letters too: the last resorts for a long name, tried only when no
    font size fits it whole.
    """
    lines: list[list[Atom]] = [[]]
    used = 0.0
    queue = list(pieces)
    queue.reverse()
    while queue:
        piece = queue.pop()
        if piece == "\n":
            lines.append([])
            used = 0.0
            continue
        atom_width = piece.width(size)
        if break_words and not piece.space and atom_width > width + 1e-6 and len(piece.text) + len(piece.frags) > 2:
            smaller = _letters(piece, letters=break_words >= 2)
            if len(smaller) > 1:
                queue.extend(reversed(smaller))
                continue
        if piece.space and not lines[-1]:
            continue
        if used + atom_width > width + 1e-6 and lines[-1]:
            if piece.space:
                continue
            while lines[-1] and lines[-1][-1].space:
                used -= lines[-1].pop().width(size)
            lines.append([])
            used = 0.0
        if atom_width > width + 1e-6:
            return None
        lines[-1].append(piece)
        used += atom_width
    return lines


def line_width(line: list[Atom], size: float) -> float:
    width = 0.0  # (a loop, not sum() over a generator: most lines on a card are one or two atoms)
    for atom in line:
        width += atom.unit * size
    return width


LinePads = list[tuple[tuple[float, float], ...] | None]


def line_pads(line: list[Atom]) -> tuple[LinePads, float] | None:
    """The space around each ruby base once the line is set (None for a line without ruby),
    and how much narrower (at 1 pt) that makes the line than its atoms' widths say.

    An atom alone knows only its own characters; on a line, a reading at the atom's edge may
    also reach over half of the next atom's character when that has no reading of its own.
    Lines are broken by the atoms' own widths, so a reading never reaches past a line's end."""
    for atom in line:  # (a loop, not any() over a generator: this is asked of every line drawn)
        if atom.pads:
            break
    else:
        return None
    found: LinePads = []
    saved = 0.0
    for index, atom in enumerate(line):
        if atom.pads is None:
            found.append(None)
            continue
        pads = list(atom.pads)
        if atom.frags[0].ruby is not None and index and not line[index - 1].space:
            gain = min(pads[0][0], _reach(line[index - 1].frags[-1], -1))
            pads[0] = (pads[0][0] - gain, pads[0][1])
            saved += gain
        if atom.frags[-1].ruby is not None and index + 1 < len(line) and not line[index + 1].space:
            gain = min(pads[-1][1], _reach(line[index + 1].frags[0], 0))
            pads[-1] = (pads[-1][0], pads[-1][1] - gain)
            saved += gain
        found.append(tuple(pads))
    return found, saved


def set_width(line: list[Atom], size: float) -> float:
    """A line's width as it is drawn: its atoms' widths, less what its readings reach over."""
    width = line_width(line, size)
    pads = line_pads(line)
    return width if pads is None else width - pads[1] * size


def _line_scale(line: list[Atom]) -> float:
    return max((atom.scale for atom in line), default=1.0)


def _block_height(scales: list[float], size: float, leading: float, rooms: tuple[float, ...] = ()) -> float:
    height = size * scales[0]
    if len(scales) > 1:  # (one line, the common case, sums nothing)
        height += sum(size * leading * s for s in scales[1:])
    return height + size * sum(rooms) if rooms else height


def _rooms(lines: list[list[Atom]], scales: list[float], leading: float) -> tuple[float, ...]:
    """The room each line makes for its readings (see :func:`kkprint.engine.ruby.line_room`)."""
    return tuple(
        line_room(number == 0, scale, max((atom.ruby for atom in line), default=0.0), leading)
        for number, (line, scale) in enumerate(zip(lines, scales))
    )


def _orphan(lines: list[list[Atom]]) -> bool:
    """A last line of one short word or at most two Japanese characters reads as a stray."""
    last = [atom for atom in lines[-1] if not atom.space]
    if len(lines) < 2 or not last or any(atom.icon for atom in last):
        return False
    return sum(len(atom.text) for atom in last) <= 2


class TextBox(NamedTuple):
    """Where text goes, in points; ``align`` is left/center/right, ``valign`` top/middle/bottom."""

    x: float
    y: float
    width: float
    height: float
    align: str = "left"
    valign: str = "top"


class FittedText(NamedTuple):
    lines: list[list[Atom]]  # (columns, in vertical text)
    size: float
    leading: float
    scales: list[float]  # each line's largest run size, as a multiple of ``size``
    rooms: tuple[float, ...] = ()  # each line's room for its readings (ruby), as a multiple of ``size``


def block_extent(fitted: FittedText) -> float:
    """How far the fitted lines reach across the box: down for lines, leftwards for columns."""
    return _block_height(fitted.scales, fitted.size, fitted.leading, fitted.rooms)


@lru_cache(maxsize=1024)
def fit_text(
    text: str,
    font: str,
    box: TextBox,
    max_size: float,
    min_size: float | None = None,
    leading: float = 1.25,
    max_lines: int | None = None,
    setting: Typesetting = PLAIN,
) -> FittedText:
    """The largest size from ``max_size`` down to ``min_size`` at which ``text`` fits ``box``.
    Vertical text fits its columns the same way: their length is the box's height, and they
    fill its width."""
    min_size = min_size if min_size is not None else max_size * 0.6
    single = _single_line(text, font, box, max_size, setting)
    if single is not None:
        return single
    pieces = tokenize(text, font, setting, max_size)
    work = _FitWork(pieces, text)
    lines_box = box._replace(width=box.height, height=box.width) if setting.vertical else box
    for break_words in (0, 1, 2):
        fitted = _fit(pieces, lines_box, max_size, min_size, leading, max_lines, break_words, work)
        if fitted is not None:
            return fitted
    raise InputError(
        Msg(
            "text '{value}' does not fit its {value2:.0f}×{value3:.0f} mm box even at {min_size:g} pt",
            value=text[:40],
            value2=box.width / 2.8346,
            value3=box.height / 2.8346,
            min_size=min_size,
        )
    )


def _single_line(text: str, font: str, box: TextBox, size: float, setting: Typesetting) -> FittedText | None:
    """The common case made cheap: plain ASCII text (no markup, icons or breaks) that fits on one
    line at its largest size is that one line — no tokenizing, no wrapping."""
    if not text or not text.isascii() or "\n" in text or text != text.strip() or "  " in text:
        return None
    style = _plain_style(text, font, setting)
    if style is None:
        return None
    atom = Atom((Frag(text, None, style),))
    if size > box.height + 1e-6 or atom.width(size) > box.width + 1e-6:
        return None
    return FittedText([[atom]], size, 1.25, [1.0])


@lru_cache(maxsize=256)
def _base_style(setting: Typesetting, font: str) -> tuple[Style, str | None]:
    """A region's own face (before any markup), and the font for characters it lacks."""
    return _Builder(setting, font).style((setting.family, setting.bold, setting.italic, 1.0, None))


MAX_FIT_WORK = 500_000  # characters laid into lines while one text is fitted: under a second
MAX_DOCUMENT_FIT_WORK = 100_000_000  # the same for every text of one PDF: a few minutes at most
_work_done = [0]  # characters laid into lines in this process, for draw_text to charge its document


class _FitWork:
    """What fitting one text may cost. Each size tried lays every character into lines again,
    and a text built to be hard to fit (ten thousand letters without a space, from 200 pt down
    to 0.1) cost half a minute a card. Sizes at which the text's own width cannot fit the box's
    area are passed over without laying anything out (they could not fit: the result is the
    same); what is left is counted, and beyond :data:`MAX_FIT_WORK` the text is refused."""

    def __init__(self, pieces, text: str):
        atoms = [piece for piece in pieces if not isinstance(piece, str)]
        self.text = text
        self.characters = sum(len(atom.text) or 1 for atom in atoms)
        self.unit = sum(atom.unit for atom in atoms if not atom.space)  # width at 1 pt, without spaces
        self.scale = min([1.0, *(atom.scale for atom in atoms)])
        self.lines = 1 + sum(1 for piece in pieces if piece == "\n")
        self.done = 0

    def impossible(self, size: float, box: TextBox, leading: float, max_lines: int | None) -> bool:
        """Whether the text is certainly too long for the box at ``size``: its lines, however
        broken, need more height than the box has (or more lines than allowed)."""
        if leading < 0:
            return False
        lines = max(self.lines, math.ceil(self.unit * size / (box.width + 1e-6) - 1e-9))
        if max_lines is not None and lines > max_lines:
            return True
        return size * self.scale * (1 + (lines - 1) * leading) > box.height + 1e-6

    def spend(self) -> None:
        self.done += self.characters
        _work_done[0] += self.characters
        if self.done > MAX_FIT_WORK:
            raise InputError(
                Msg(
                    "text '{value}' takes too long to fit its box; shorten it, or give it a larger min_size",
                    value=self.text[:40],
                )
            )


def _fit(
    pieces,
    box: TextBox,
    max_size: float,
    min_size: float,
    leading: float,
    max_lines: int | None,
    break_words: int,
    work: _FitWork,
) -> FittedText | None:
    size = max_size
    orphaned: FittedText | None = None
    rubied = any(not isinstance(piece, str) and piece.ruby for piece in pieces)
    while size >= min_size - 1e-6:
        if work.impossible(size, box, leading, max_lines):
            size = round(size - 0.25, 4)
            continue
        work.spend()
        lines = wrap(pieces, size, box.width, break_words)
        if lines is not None and (max_lines is None or len(lines) <= max_lines):
            scales = [_line_scale(line) for line in lines]
            rooms = _rooms(lines, scales, leading) if rubied else ()
            if _block_height(scales, size, leading, rooms) <= box.height + 1e-6:
                fitted = FittedText(lines, size, leading, scales, rooms)
                if not _orphan(lines):
                    return fitted
                # one lone character on the last line reads badly; a slightly smaller size may avoid it
                orphaned = orphaned or fitted
                if size <= orphaned.size * 0.8:
                    return orphaned
        size = round(size - 0.25, 4)
    return orphaned


def _check_drawable(pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """Every character of the text is in the font its run is set in (the text of each font
    checked at once, not word by word): a missing character is an error now, not a blank."""
    texts: dict[str, list[str]] = {}
    for piece in pieces:
        if not isinstance(piece, str):  # (the only text piece is "\n", a hard break)
            for frag in piece.frags:
                if frag.icon is None:
                    texts.setdefault(frag.style.font, []).append(frag.text)
                if frag.ruby is not None:
                    texts.setdefault(frag.ruby.style.font, []).append(frag.ruby.text)
    for font, parts in texts.items():
        _require_covered(font, "".join(parts))
    return pieces


def _require_covered(font: str, text: str) -> None:
    if not _all_covered(font, text):
        missing = sorted({c for c in text if not _all_covered(font, c) and c not in "\n\r\t"})
        if missing:
            from kkprint.engine.fonts import bundled_coverage

            listed = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in missing)
            if not bundled_coverage().issuperset(missing):  # no font could: say so, not "prepared"
                raise InputError(
                    Msg("cannot print {listed}: neither this text's font nor the bundled one has it", listed=listed)
                )
            raise InputError(
                Msg("cannot print {listed}: not among the characters prepared for this build", listed=listed)
            )


def draw_fitted(canvas: Canvas, fitted: FittedText, font: str | None, box: TextBox, colour_of=None) -> None:
    """Draw fitted lines; ``colour_of`` turns a ``#rrggbb`` of a coloured run into a fill colour
    (CMYK in print-shop output). Runs without their own colour use the canvas's fill colour.

    Consecutive runs in the canvas's colour — nearly all text — go into one PDF text object that
    names a font only where it changes; an icon or a run of its own colour closes it and is
    drawn on its own. Readings (ruby) are drawn last, so the text reads, copies and searches as
    it is written, each reading after it. The canvas's own state is left alone."""
    size = fitted.size
    if _one_plain_run(fitted):  # a name, a number: most text on a card, drawn without the loop below
        line = fitted.lines[0]
        style = line[0].frags[0].style
        baseline = _block_top(fitted, box) - size * fitted.scales[0] * ASCENT
        single = TextObject(canvas, _line_start(line, size, box), baseline)
        single.setFont(style.font, size * style.scale)
        single.textLine(line[0].frags[0].text)
        single.close()
        return
    text_object: TextObject | None = None
    face: tuple[str, float] | None = None
    readings: list[tuple] = []
    for x, baseline, line in _placed_lines(fitted, box):
        runs = _runs(line)
        for index, (style, text, icon, ruby) in enumerate(runs, 1):
            if ruby is not None:  # a base, after the space its reading needs
                x += ruby[1] * size
                readings.append(_reading_over(style, text, ruby[0], x, baseline, size))
            if not icon and style.colour is None:
                if text_object is None:
                    text_object, face = TextObject(canvas, x, baseline), None
                elif not style.slant:
                    text_object.setTextOrigin(x, baseline)
                if style.slant:  # an italic made from an upright face: the text matrix leans
                    text_object.setTextTransform(1, 0, SLANT, 1, x, baseline)
                if face != (style.font, size * style.scale):
                    face = (style.font, size * style.scale)
                    text_object.setFont(*face)
                text_object.textLine(text)
            else:
                if text_object is not None:
                    text_object.close()
                    text_object = None
                if icon:
                    side = size * style.scale
                    own, nudge = icon_metrics(icon)
                    scale = own or ICON_SCALE
                    bottom = baseline - side * ICON_DROP - nudge
                    if own is not None:  # any size shares the usual icon's middle line
                        bottom += side * (ICON_SCALE - own) / 2
                    draw_icon(canvas, icon, x + side * 0.04, bottom, side * scale)
                    x += side * (scale + ICON_GAP)
                    continue
                _draw_coloured_run(canvas, style, text, x, baseline, size, colour_of)
            if index < len(runs):  # (where the line's last run ends matters to nothing)
                x += stringWidth(text, style.font, size * style.scale) + (ruby[2] * size if ruby else 0.0)
    if text_object is not None:
        text_object.close()
    for style, text, x, baseline in readings:
        _draw_run(canvas, style, text, x, baseline, size, colour_of)


def _one_plain_run(fitted: FittedText) -> bool:
    """Whether the fitted text is one line of one run in the canvas's colour and an upright face."""
    if len(fitted.lines) != 1 or fitted.rooms or len(fitted.lines[0]) != 1 or len(fitted.lines[0][0].frags) != 1:
        return False
    frag = fitted.lines[0][0].frags[0]
    return frag.icon is None and frag.ruby is None and frag.style.colour is None and not frag.style.slant


class TextObject:
    """The part of ReportLab's text object that kkprint's text uses, writing the same operators.
    ReportLab's object copies the canvas's text state when made, looks its font up again for
    every line and maps each character through a subset by hand; with a name on every card that
    was a tenth of drawing a plain card, and most of drawing a card of vertical text (a line a
    character). For TrueType faces drawn bottom-up, which is every face kkprint registers and
    every canvas it makes."""

    __slots__ = ("canvas", "code", "font", "size", "leading", "subset")

    def __init__(self, canvas: Canvas, x: float, y: float):
        assert canvas.bottomup, "a text origin is written for a canvas drawn bottom-up"
        self.canvas, self.code = canvas, ["BT", f"1 0 0 1 {fp_str(x, y)} Tm"]
        self.font, self.size, self.leading, self.subset = None, 0.0, 0.0, -1

    def setTextOrigin(self, x: float, y: float) -> None:
        self.code.append(f"1 0 0 1 {fp_str(x, y)} Tm")

    def setTextTransform(self, a: float, b: float, c: float, d: float, e: float, f: float) -> None:
        self.code.append(f"{fp_str(a, b, c, d, e, f)} Tm")

    def setFont(self, name: str, size: float) -> None:
        self.font, self.size, self.leading, self.subset = getFont(name), size, size * 1.2, -1

    def setLeading(self, leading: float) -> None:
        self.leading = leading
        self.code.append(f"{fp_str(leading)} TL")

    def setHorizScale(self, percent: float) -> None:
        self.code.append(f"{fp_str(percent)} Tz")

    def textOut(self, text: str) -> None:
        self.code.append(self._shown(text))

    def textLine(self, text: str) -> None:
        self.code.append(self._shown(text) + " T*")

    def _shown(self, text: str) -> str:
        document, font, code = self.canvas._doc, self.font, []
        for subset, part in _split(font, text, document):
            if subset != self.subset:
                code.append(_font_operators(font, subset, self.size, self.leading, document))
                self.subset = subset
            code.append(f"({escapePDF(part)}) Tj")
        return " ".join(code)

    def close(self) -> None:
        self.code.append("ET")
        self.canvas._code.append(" ".join(self.code))


def _split(font, text: str, document) -> list[tuple[int, bytes]]:
    """``font.splitString(text, document)``: the text as (subset, codes) runs. Where every
    character already has its code in the first subset (a deck's names, once the first card
    has used their letters) the codes are read straight from ReportLab's table; anything else
    (a new character, a later subset) is left to ReportLab, which gives it its code."""
    state = font.state.get(document)
    if state is not None and text:
        assigned = state.assignments
        try:
            codes = [assigned[character] for character in map(ord, text)]
        except KeyError:
            pass
        else:
            if max(codes) < 256:
                return [(0, bytes(codes))]
    return font.splitString(text, document)


_FONT_OPERATORS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _font_operators(font, subset: int, size: float, leading: float, document) -> str:
    """The operators choosing a face's subset and size, and the text leading (as ReportLab
    writes them), written once per document: naming a subset registers it in the document."""
    known = _FONT_OPERATORS.setdefault(document, {})
    key = (font.fontName, subset, size, leading)
    found = known.get(key)
    if found is None:
        name = font.getSubsetInternalName(subset, document)
        found = known[key] = f"{name} {fp_str(size)} Tf {fp_str(leading)} TL"
    return found


def set_sizes(fitted: FittedText) -> list[tuple[str | None, float]]:
    """What a reader meets in fitted text: (icon name, or None for words; the size in pt it is
    set at) for every run — after shrinking to fit and with ``<span size=…>`` applied. (A
    reading, ruby, is always half its base.) A list: the preflight asks it of every text drawn."""
    sizes = []
    for line in fitted.lines:
        for atom in line:
            if not atom.space:
                for frag in atom.frags:
                    sizes.append(
                        (frag.icon, fitted.size * frag.style.scale * (icon_side(frag.icon) if frag.icon else 1.0))
                    )
    return sizes


def smallest_reading(fitted: FittedText) -> float | None:
    """The size in pt of the smallest reading (ruby) in fitted text — half its base's, after
    shrinking — or None for a text without readings."""
    if not fitted.rooms:  # (a text without readings makes no room for them: nothing to look at)
        return None
    sizes = (
        fitted.size * frag.ruby.style.scale
        for line in fitted.lines
        for atom in line
        if atom.pads is not None
        for frag in atom.frags
        if frag.ruby is not None
    )
    return min(sizes, default=None)


def ink_box(fitted: FittedText, box: TextBox) -> Bounds | None:
    """Where the fitted lines lie, in points (left, bottom, right, top): from the first line's
    ascent to the last line's descent, the widest line's ends — the box may be larger than its
    text. None when there is nothing to print."""
    size = fitted.size

    def lines():
        for number, ((x, baseline, line), scale) in enumerate(zip(_placed_lines(fitted, box), fitted.scales)):
            width = set_width(line, size)
            if width > 0:
                reading = size * fitted.rooms[number] if fitted.rooms else 0.0  # a line's ruby stands over it
                yield x, baseline - size * scale * DESCENT, x + width, baseline + size * scale * ASCENT + reading

    return enclosing(lines())


Bounds = tuple[float, float, float, float]  # left, bottom, right, top


def enclosing(boxes: Iterable[Bounds]) -> Bounds | None:
    """The smallest box around ``boxes`` (each left, bottom, right, top); None around none."""
    left = bottom = math.inf
    right = top = -math.inf
    for box_left, box_bottom, box_right, box_top in boxes:
        left, bottom, right, top = (
            min(left, box_left),
            min(bottom, box_bottom),
            max(right, box_right),
            max(top, box_top),
        )
    return None if left == math.inf else (left, bottom, right, top)


def _placed_lines(fitted: FittedText, box: TextBox):
    """(x, baseline, line) of every line, aligned in the box."""
    size, leading, rooms = fitted.size, fitted.leading, fitted.rooms
    baseline = _block_top(fitted, box)
    for number, (line, scale) in enumerate(zip(fitted.lines, fitted.scales)):
        baseline -= size * scale * (ASCENT if number == 0 else leading)
        if rooms:
            baseline -= size * rooms[number]
        yield _line_start(line, size, box), baseline, line


def _block_top(fitted: FittedText, box: TextBox) -> float:
    """Where the fitted lines' block begins (its top), aligned by the box's ``valign``."""
    if box.valign == "middle":
        return box.y + (box.height + block_extent(fitted)) / 2
    if box.valign == "bottom":
        return box.y + block_extent(fitted)
    return box.y + box.height


def _line_start(line: list[Atom], size: float, box: TextBox) -> float:
    """Where a line begins, aligned by the box's ``align``."""
    if box.align == "center":
        return box.x + (box.width - set_width(line, size)) / 2
    if box.align == "right":
        return box.x + box.width - set_width(line, size)
    return box.x


def _runs(line: list[Atom]):
    """Consecutive text of one style merged, so a line is a few drawString calls, not one a word.
    A ruby base is a run of its own: [style, text, icon, (reading, space before, space after)]."""
    runs: list[list] = []
    set_pads = line_pads(line)
    for number, atom in enumerate(line):
        pads = set_pads[0][number] if set_pads is not None else None
        if pads is not None:
            for frag, (before, after) in zip(atom.frags, pads):
                runs.append([frag.style, frag.text, frag.icon, (frag.ruby, before, after) if frag.ruby else None])
            continue
        for frag in atom.frags:
            if frag.icon is None and runs and runs[-1][2] is None and runs[-1][3] is None and runs[-1][0] == frag.style:
                runs[-1][1] += frag.text
            else:
                runs.append([frag.style, frag.text, frag.icon, None])
    return runs


def _reading_over(style: Style, text: str, reading: Frag, x: float, baseline: float, size: float) -> tuple:
    """(style, text, x, baseline) of the reading of a base ``text`` at ``x``: centred over it,
    its em box standing on the base's."""
    width = stringWidth(text, style.font, size * style.scale)
    reading_size = size * reading.style.scale
    reading_x = x + (width - stringWidth(reading.text, reading.style.font, reading_size)) / 2
    return reading.style, reading.text, reading_x, baseline + 0.88 * size * style.scale + 0.12 * reading_size


def _draw_run(canvas: Canvas, style: Style, text: str, x: float, baseline: float, size: float, colour_of) -> None:
    """One run on its own, in its own colour or the canvas's."""
    if style.colour is not None:
        _draw_coloured_run(canvas, style, text, x, baseline, size, colour_of)
        return
    text_object = canvas.beginText(x, baseline)
    if style.slant:
        text_object.setTextTransform(1, 0, SLANT, 1, x, baseline)
    text_object.setFont(style.font, size * style.scale)
    text_object.textOut(text)
    canvas.drawText(text_object)


def _draw_coloured_run(
    canvas: Canvas, style: Style, text: str, x: float, baseline: float, size: float, colour_of
) -> None:
    """A run in its own colour, in a saved state so the canvas keeps its fill colour."""
    canvas.saveState()
    canvas.setFillColor(colour_of(style.colour) if colour_of else style.colour)
    canvas.setFont(style.font, size * style.scale)
    if style.slant:
        canvas.transform(1, 0, SLANT, 1, x, baseline)
        canvas.drawString(0, 0, text)
    else:
        canvas.drawString(x, baseline, text)
    canvas.restoreState()


def draw_text(
    canvas: Canvas,
    text: str,
    font: str,
    box: TextBox,
    max_size: float,
    min_size: float | None = None,
    leading: float = 1.25,
    max_lines: int | None = None,
    setting: Typesetting = PLAIN,
    colour_of=None,
) -> FittedText:
    """Fit ``text`` into ``box`` and draw it; returns the fit so callers can inspect it."""
    fitted = fit_for(canvas, text, font, box, max_size, min_size, leading, max_lines, setting)
    draw_fitted(canvas, fitted, font, box, colour_of)
    return fitted


def fit_for(canvas: Canvas, *fitting) -> FittedText:
    """:func:`fit_text` for a text about to be drawn on ``canvas``, its work counted against the
    PDF being written (horizontal and vertical text alike)."""
    before = _work_done[0]
    fitted = fit_text(*fitting)
    if _work_done[0] != before:
        _charge(canvas, _work_done[0] - before)
    return fitted


_DOCUMENT_WORK: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _charge(canvas: Canvas, work: int) -> None:
    """Count fitting work against the PDF being drawn: however each text is bounded, a deck of
    thousands of such texts must still end, and say at which card it stopped."""
    from kkprint.engine.document import document_of

    document = document_of(canvas)
    if document is None:
        return
    total = _DOCUMENT_WORK[document] = _DOCUMENT_WORK.get(document, 0) + work
    if total > MAX_DOCUMENT_FIT_WORK:
        raise LimitReached(
            Msg(
                "fitting this document's texts is taking too long; it stopped here (shorten the longest texts, or give them a larger min_size)"
            )
        )
