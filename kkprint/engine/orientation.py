"""Which way each character stands in vertical text (縦書き), after Unicode's vertical orientation
(UAX #50) in short: Japanese characters, full-width forms and symbols stand upright; Latin
words, half-width punctuation and arrows turn 90° clockwise with the column; up to two digits
(or ``!?`` marks) stand side by side in one upright square (縦中横)."""

from __future__ import annotations

import unicodedata

UPRIGHT = ""  # (a style's ``turn``: "" is how horizontal text stands too)
SIDEWAYS = "sideways"
TATECHUYOKO = "tcy"
_SIDE_BY_SIDE = set("0123456789!?")


def upright(char: str) -> bool:
    """Whether ``char`` stands upright in a vertical column."""
    if unicodedata.east_asian_width(char) in ("W", "F", "H"):
        return True
    code = ord(char)
    if 0x2190 <= code <= 0x21FF:  # arrows turn with the text: → points down the column
        return False
    return code > 0x7F and unicodedata.category(char) in ("So", "Sm", "No")


def runs(text: str) -> list[tuple[str, str]]:
    """``text`` cut where the way it stands changes: (part, turn) with turn one of UPRIGHT,
    SIDEWAYS or TATECHUYOKO."""
    out: list[tuple[str, str]] = []
    start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or upright(text[index]) != upright(text[start]):
            part = text[start:index]
            if upright(part[0]):
                out.append((part, UPRIGHT))
            elif len(part) <= 2 and _SIDE_BY_SIDE.issuperset(part):
                out.append((part, TATECHUYOKO))
            else:
                out.append((part, SIDEWAYS))
            start = index
    return out
