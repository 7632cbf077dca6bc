"""What a scorer shows a person: tables and lines, drawn with ``rich`` (colour, a highlighted
winner) at a terminal and as plain aligned text everywhere else (pipes, files, tests), from one
description so both always say the same."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import field
from typing import Literal

from kkprint.base.records import mutable
from kkprint.scoring.textgrid import render

Align = Literal["left", "center", "right"]


@mutable
class Table:
    header: list[str]
    rows: list  # lists of cells; None draws a rule
    aligns: Sequence[Align] = ("left", "right")
    winners: set[int] = field(default_factory=set)  # columns (after the first) of winning players
    winner_rows: set[int] = field(default_factory=set)  # or rows, where players are rows


@mutable
class Line:
    text: str
    winner: bool = False  # the verdict line, shown in bold at a terminal


Part = Table | Line


@mutable
class Screen:
    parts: Sequence[Part]

    def __str__(self) -> str:
        out = []
        for part in self.parts:
            if isinstance(part, Table):
                out.append(render([part.header, None, *part.rows], part.aligns))
            else:
                out.append(part.text)
        return "\n".join(out)

    def print(self, stream=None) -> None:
        """At a terminal with rich; anywhere else, the plain text."""
        stream = stream or sys.stdout
        if not stream.isatty():
            stream.write(str(self) + "\n")
            return
        from rich.console import Console
        from rich.table import Table as RichTable
        from rich.text import Text

        console = Console(file=stream, highlight=False)
        for part in self.parts:
            if isinstance(part, Line):
                console.print(Text(part.text, style="bold green" if part.winner else ""))
                continue
            table = RichTable(show_edge=False, pad_edge=False, header_style="bold")
            for index, title in enumerate(part.header):
                align = part.aligns[min(index, len(part.aligns) - 1)]
                table.add_column(title, justify=align, style="bold green" if index in part.winners else None)
            for number, row in enumerate(part.rows):
                if row is None:
                    table.add_section()
                    continue
                table.add_row(*row, style="bold green" if number in part.winner_rows else None)
            console.print(table)
