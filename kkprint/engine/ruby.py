"""Ruby (furigana): the reading set small beside its base, in both directions.

``{漢字|かんじ}`` gives a whole word one reading (group ruby), ``{漢|かん}{字|じ}`` each character its
own, and ``{漢字|かん|じ}`` is the short way to write the second; ``<ruby>漢字<rt>かんじ</rt></ruby>``
is read into the first by the markup. The reading is set at half the size, centred over its base
(beside it, to the right, in vertical text). A reading wider than its base may reach over half of
each neighbouring character that has no reading of its own; what still does not fit becomes
space around the base, so two readings never touch. A line with readings makes room for them.

This module only measures: the text module builds and draws ruby with what it says here.
"""

from __future__ import annotations

import re

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg

RUBY_SCALE = 0.5  # the reading's size, as a fraction of its base's
# ``{base|reading}``: the bar tells ruby apart from ``{icon}``; neither part may hold a brace (an
# empty one is matched too, to be refused rather than printed as it was written)
TOKEN = r"\{([^{}|\n]*)\|([^{}\n]*)\}"
FORBIDDEN = re.compile(r"[{}|\n]")


def pairs(base: str, reading: str) -> list[tuple[str, str]]:
    """(base, reading) pairs of one ruby: the whole base with its reading, or — when the reading
    is split by bars, one part per character — each character with its own."""
    parts = [part.strip() for part in reading.split("|")]
    if not base.strip():
        raise InputError(
            Msg("ruby {{{base}|{reading}}} has no base to set its reading beside", base=base, reading=reading)
        )
    if any(not part for part in parts):
        raise InputError(Msg("ruby {{{base}|{reading}}} has an empty reading", base=base, reading=reading))
    if len(parts) == 1:
        return [(base, parts[0])]
    if len(parts) != len(base):
        raise InputError(
            Msg(
                "ruby {{{base}|{reading}}} has {count} readings for {length} characters: give one reading "
                "for the whole word, or one for each character",
                base=base,
                reading=reading,
                count=len(parts),
                length=len(base),
            )
        )
    return list(zip(base, parts))


def written(base: str, reading: str) -> str:
    """The ``{base|reading}`` text of a ruby given as markup (``<ruby>``), checked: a brace, a bar
    or a line break inside it could not be read back."""
    if not base.strip() or not reading.strip():
        raise InputError(Msg("<ruby> needs a base and its <rt> reading, as in <ruby>base<rt>reading</rt></ruby>"))
    if FORBIDDEN.search(base) or FORBIDDEN.search(reading):
        raise InputError(
            Msg("<ruby>{base}<rt>{reading}</rt> may not hold braces, bars or line breaks", base=base, reading=reading)
        )
    return f"{{{base}|{reading}}}"


def spacing(base: float, reading: float, before: float, after: float) -> tuple[float, float]:
    """(space before the base, space after it) that makes room for a reading ``reading`` wide
    over a base ``base`` wide: centred, the reading reaches over at most ``before`` and
    ``after`` (half of each neighbour without a reading, else nothing) and the base is spaced
    for the rest."""
    excess = reading - base
    if excess <= 0:
        return 0.0, 0.0
    half = excess / 2
    return half - min(half, before), half - min(half, after)


def line_room(first: bool, scale: float, reading: float, leading: float) -> float:
    """How much further (in multiples of the font size) a line with readings up to ``reading``
    (a fraction of the size) stands from the one before: the first line makes the whole room,
    a later one only what its leading does not already leave free."""
    if not reading:
        return 0.0
    return reading if first else max(0.0, reading - (leading - 1) * scale)
