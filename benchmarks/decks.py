"""The benchmark decks and their floors: plain ReportLab scripts drawing the same cards.

Each floor is what a careful programmer would write by hand for that deck, with kkprint's own
fonts (so both sides subset the same font); it runs as its own process too:

    .venv/bin/python benchmarks/decks.py floor 1000 out.pdf          # wrapped text and two dice
    .venv/bin/python benchmarks/decks.py simple-floor 1000 out.pdf   # frame, one line, red back
    .venv/bin/python benchmarks/decks.py png-floor deck.pdf 300 out/  # what export --png makes of a PDF
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

# wrapped text, a centred bold title and two dice a card; a back with a word on it
DECK_YAML = """\
name: bench-{count}
card: {{size: poker}}
print: {{backs: long-edge}}
layout:
  frame: {{type: shape, shape: roundrect, x: 2, y: 2, w: 59, h: 84, stroke: "#333333", stroke_width: 1}}
  title: {{type: text, x: 4, y: 4, w: 55, h: 10, field: name, font: bold, size: 14, align: center, valign: middle}}
  body:  {{type: text, x: 5, y: 50, w: 53, h: 30, field: text, size: 10}}
  cost:  {{type: icon, x: 6, y: 18, w: 12, h: 12, field: cost}}
  power: {{type: icon, x: 45, y: 18, w: 12, h: 12, field: power}}
back:
  fill:  {{type: shape, shape: roundrect, x: 3, y: 3, w: 57, h: 82, fill: "#e8eef8", stroke: "#2f5fa8", stroke_width: 2}}
  mark:  {{type: text, x: 6, y: 34, w: 51, h: 20, text: "Bench", font: bold, size: 20, align: center, valign: middle}}
csv: cards.csv
"""


# the plainest deck: a frame, one line of text, a red back, cut marks
SIMPLE_DECK = """\
name: simple-{count}
card: {{size: poker}}
layout:
  frame: {{type: shape, shape: roundrect, x: 2, y: 2, w: 59, h: 84, stroke: "#333333", stroke_width: 1}}
  title: {{type: text, x: 4, y: 4, w: 55, h: 10, field: name, size: 12}}
back:
  fill:  {{type: shape, shape: rect, x: 0, y: 0, w: 63, h: 88, fill: "#cc2222"}}
data: cards.csv
"""


# the deck of the protograf comparison, in protograf's words and in kkprint's: a frame, the name,
# and a text wrapped in its box; no backs
PROTOGRAF_SCRIPT = """\
from protograf import *
Create(filename={out!r}, margin=0.5)
Data(filename={data!r})
Deck(cards={count}, width=6.3, height=8.8, rounding=0.3)
Card("*", rectangle(x=0.2, y=0.2, width=5.9, height=8.4), text(text=T("{{{{ NAME }}}}"), x=3.15, y=7.5, font_size=14),
     text(text=T("{{{{ TEXT }}}}"), x=0.5, y=3.5, width=5.3, font_size=10, wrap=True))
Save()
"""


SAME_AS_PROTOGRAF = """\
name: same-as-protograf
card: {size: poker}
print: {backs: none}
layout:
  frame: {type: shape, shape: rect, x: 2, y: 2, w: 59, h: 84, stroke: "#000000", stroke_width: 1}
  name:  {type: text, x: 4, y: 8, w: 55, h: 9, field: NAME, size: 14, align: center}
  text:  {type: text, x: 5, y: 45, w: 53, h: 35, field: TEXT, size: 10}
data: pg.csv
"""


def card_rows(count: int):
    for i in range(count):
        yield (
            f"Card {i + 1}",
            f"Roll {1 + i % 6} or more to win the duel number {i}.",
            f"die:{1 + i % 6}",
            f"die:{1 + (i * 5) % 6}",
        )


def write_deck(folder: Path, count: int) -> Path:
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "text", "cost", "power"])
        writer.writerows(card_rows(count))
    path = folder / "deck.yaml"
    path.write_text(DECK_YAML.format(count=count), encoding="utf-8")
    return path


def floor(count: int, out: Path) -> None:
    """The same cards drawn straight onto a ReportLab canvas: no layout engine, no forms."""
    from reportlab.lib.units import mm
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfgen.canvas import Canvas

    from kkprint.engine.fonts import prepare_fonts
    from kkprint.engine.icons import PIP_LAYOUT

    texts = [t for row in card_rows(count) for t in row[:2]] + ["Bench"]
    fonts = prepare_fonts(texts)
    c = Canvas(str(out), pagesize=(210 * mm, 297 * mm), invariant=1, initialFontName=fonts.regular)
    w, h = 63 * mm, 88 * mm
    ox, oy = (210 * mm - 3 * w) / 2, (297 * mm - 3 * h) / 2
    rows = list(card_rows(count))

    def die(x, y, s, value):
        c.setFillGray(1)
        c.roundRect(x, y, s, s, s * 0.18, stroke=1, fill=1)
        c.setFillGray(0)
        for px, py in PIP_LAYOUT[value]:
            c.circle(x + s * px, y + s * py, s * 0.085, stroke=0, fill=1)

    for start in range(0, count, 9):
        chunk = rows[start : start + 9]
        for i, (name, text, cost, power) in enumerate(chunk):
            x, y = ox + (i % 3) * w, oy + (2 - i // 3) * h
            c.roundRect(x + 2 * mm, y + 2 * mm, w - 4 * mm, h - 4 * mm, 2 * mm)
            c.setFont(fonts.bold, 14)
            c.drawCentredString(x + w / 2, y + h - 11 * mm, name)
            c.setFont(fonts.regular, 10)
            line = ""
            baseline = y + h - 53 * mm
            for word in text.split():
                trial = f"{line} {word}".strip()
                if pdfmetrics.stringWidth(trial, fonts.regular, 10) > 53 * mm:
                    c.drawString(x + 5 * mm, baseline, line)
                    baseline -= 12.5
                    line = word
                else:
                    line = trial
            c.drawString(x + 5 * mm, baseline, line)
            die(x + 6 * mm, y + h - 30 * mm, 12 * mm, int(cost[-1]))
            die(x + 45 * mm, y + h - 30 * mm, 12 * mm, int(power[-1]))
        c.showPage()
        for i in range(len(chunk)):
            x, y = 210 * mm - (ox + (i % 3) * w) - w, oy + (2 - i // 3) * h
            c.setFillColorRGB(0.91, 0.93, 0.97)
            c.roundRect(x + 3 * mm, y + 3 * mm, w - 6 * mm, h - 6 * mm, 2 * mm, stroke=1, fill=1)
            c.setFillGray(0)
            c.setFont(fonts.bold, 20)
            c.drawCentredString(x + w / 2, y + h / 2 - 7, "Bench")
        c.showPage()
    c.save()


def write_simple_deck(folder: Path, count: int) -> Path:
    with open(folder / "cards.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name"])
        writer.writerows([f"Card {i + 1}"] for i in range(count))
    deck = folder / "simple.yaml"
    deck.write_text(SIMPLE_DECK.format(count=count), encoding="utf-8")
    return deck


def simple_floor(count: int, out: Path) -> None:
    """The plainest fair rival: frame, one line of text, a red back, cut marks — straight ReportLab."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    from kkprint.engine.fonts import prepare_fonts

    fonts = prepare_fonts([f"Card {i + 1}" for i in range(count)])
    c = Canvas(str(out), pagesize=(210 * mm, 297 * mm), invariant=1, pageCompression=1)
    w, h = 63 * mm, 88 * mm
    ox, oy = (210 * mm - 3 * w) / 2, (297 * mm - 3 * h) / 2
    for start in range(0, count, 9):
        chunk = range(start, min(count, start + 9))
        for side in ("front", "back"):
            for k in range(4):
                c.line(ox + k * w, 3 * mm, ox + k * w, oy - mm)
                c.line(ox + k * w, oy + 3 * h + mm, ox + k * w, 294 * mm)
            for i, n in enumerate(chunk):
                col = i % 3 if side == "front" else 2 - i % 3
                x, y = ox + col * w, oy + (2 - i // 3) * h
                if side == "front":
                    c.roundRect(x + 2 * mm, y + 2 * mm, w - 4 * mm, h - 4 * mm, 2 * mm)
                    c.setFont(fonts.regular, 12)
                    c.drawString(x + 4 * mm, y + h - 10 * mm, f"Card {n + 1}")
                else:
                    c.setFillColorRGB(0.8, 0.13, 0.13)
                    c.rect(x, y, w, h, stroke=0, fill=1)
                    c.setFillGray(0)
            c.showPage()
    c.save()


def write_protograf_decks(folder: Path, count: int) -> tuple[Path, Path]:
    """The same cards for protograf (a script) and for kkprint (a deck file), from one CSV."""
    with open(folder / "pg.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["NAME", "TEXT"])
        writer.writerows([name, text] for name, text, _, _ in card_rows(count))
    script = folder / "protograf_deck.py"
    script.write_text(
        PROTOGRAF_SCRIPT.format(out=str(folder / "pg.pdf"), data=str(folder / "pg.csv"), count=count), encoding="utf-8"
    )
    deck = folder / "same-as-protograf.yaml"
    deck.write_text(SAME_AS_PROTOGRAF, encoding="utf-8")
    return script, deck


def png_floor(pdf: Path, dpi: int, out: Path) -> None:
    """The pictures ``kkprint export --png`` makes of a deck's PDF (one card a page, each front
    followed by its back; every back alike), the plainest way: each front and the first back
    rendered by pypdfium2 and written by Pillow, one after the other."""
    import pypdfium2 as pdfium

    out.mkdir(parents=True, exist_ok=True)
    document = pdfium.PdfDocument(str(pdf))
    for index in [*range(0, len(document), 2), 1]:
        page = document[index]
        page.render(scale=dpi / 72).to_pil().save(out / f"{index:04d}.png", format="PNG")
        page.close()
    document.close()


if __name__ == "__main__":
    if sys.argv[1] == "png-floor":
        png_floor(Path(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]))
    else:
        kind, count, out = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
        {"floor": floor, "simple-floor": simple_floor}[kind](count, out)
