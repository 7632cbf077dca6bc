"""Plain-text tables for the terminal that stay aligned with Japanese (double-width) text."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in text)


def pad(text: str, width: int, align: str = "left") -> str:
    space = max(0, width - display_width(text))
    if align == "right":
        return " " * space + text
    if align == "center":
        return " " * (space // 2) + text + " " * (space - space // 2)
    return text + " " * space


def render(rows: Sequence[Sequence[str] | None], aligns: Sequence[str], gap: int = 2) -> str:
    """Rows of cells (first row usually a header) as aligned lines; a row of ``None`` is a rule."""
    columns = max(len(r) for r in rows if r is not None)
    widths = [0] * columns
    for row in rows:
        if row is None:
            continue
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], display_width(cell))
    lines = []
    total = sum(widths) + gap * (columns - 1)
    for row in rows:
        if row is None:
            lines.append("─" * total)
            continue
        cells = [pad(cell, widths[i], aligns[min(i, len(aligns) - 1)]) for i, cell in enumerate(row)]
        lines.append((" " * gap).join(cells).rstrip())
    return "\n".join(lines)
