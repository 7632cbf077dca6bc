"""The choices a user names on the command line, kept apart from the code that acts on them so
that answering ``--help`` or scoring a game never loads the PDF engine."""

from __future__ import annotations

from enum import Enum


class Lang(str, Enum):
    """Languages every printed label exists in."""

    JA = "ja"
    EN = "en"


LANGS = tuple(lang.value for lang in Lang)


class PaperName(str, Enum):
    A4 = "a4"
    LETTER = "letter"
    A3 = "a3"


class DuplexMode(str, Enum):
    """How backs are printed. Long-edge flips like a book page, short-edge like a wall calendar;
    fold puts fronts and backs side by side on one sheet, folded down the middle."""

    NONE = "none"
    LONG_EDGE = "long-edge"
    SHORT_EDGE = "short-edge"
    FOLD = "fold"


class TwoSided(str, Enum):
    """The duplex modes a printer turns the paper in: what ``calibrate`` measures."""

    LONG_EDGE = "long-edge"
    SHORT_EDGE = "short-edge"


class CutMarks(str, Enum):
    """``edges``: lines in the margins in line with every card edge; ``none``: nothing."""

    EDGES = "edges"
    NONE = "none"


class CheckAgainst(str, Enum):
    """What a K&K tally is checked against: our card list, or only what the sources say."""

    CARDS = "cards"
    SOURCES = "sources"
