"""Performance of kkprint against the floor: a plain ReportLab script drawing the same cards.

    .venv/bin/python benchmarks/run.py            # everything, a few minutes
    .venv/bin/python benchmarks/run.py --quick    # smaller decks, for a first look

Each measurement runs in a fresh Python process so that its peak memory is its own. Reported:
wall time, peak resident memory, PDF bytes per card, and the ratios the targets are stated in.
Timing lives here, never in the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

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


def card_rows(count: int):
    for i in range(count):
        yield f"Card {i + 1}", f"Roll {1 + i % 6} or more to win the duel number {i}.", f"die:{1 + i % 6}", f"die:{1 + (i * 5) % 6}"


def write_deck(folder: Path, count: int) -> Path:
    import csv

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
        chunk = rows[start:start + 9]
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


def one(kind: str, count: int) -> dict:
    """Run one measurement in this process and report it."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        started = time.perf_counter()
        if kind == "build-all":  # as a user runs it: a whole process, start-up and imports included
            subprocess.run([sys.executable, "-m", "kkprint", "build", "all", "--out", str(folder / "out")],
                           check=True, capture_output=True)
            seconds = time.perf_counter() - started
            paths = list((folder / "out").glob("*.pdf"))
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            return {"seconds": seconds, "peak_mb": peak, "bytes": sum(p.stat().st_size for p in paths)}
        elif kind == "deck":
            from kkprint.build import BuildOptions, build_targets, resolve

            deck = write_deck(folder, count)
            started = time.perf_counter()
            paths = build_targets(resolve([str(deck)]), BuildOptions(out_dir=folder / "out"))
        else:
            paths = [folder / "floor.pdf"]
            floor(count, paths[0])
        seconds = time.perf_counter() - started
        size = sum(p.stat().st_size for p in paths)
    return {"seconds": seconds, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "bytes": size}


def measure(kind: str, count: int = 0, repeat: int = 1) -> dict:
    best = None
    for _ in range(repeat):
        result = subprocess.run([sys.executable, __file__, "--one", kind, str(count)], capture_output=True, text=True,
                                cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
        data = json.loads(result.stdout.strip().splitlines()[-1])
        if best is None or data["seconds"] < best["seconds"]:
            best = data
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--one", nargs=2, metavar=("KIND", "COUNT"), help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="100/1,000/2,000 cards instead of 100/1,000/10,000")
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], int(args.one[1]))))
        return
    measure("build-all")  # warm the font cache so every run below measures building, not first use
    sizes = (100, 1000, 2000) if args.quick else (100, 1000, 10000)
    build_all = measure("build-all", repeat=3)
    print(f"kkprint build all: {build_all['seconds']:.2f} s, peak {build_all['peak_mb']:.0f} MB "
          f"(target < 3 s: {'met' if build_all['seconds'] < 3 else 'NOT met'})")
    decks = {n: measure("deck", n, repeat=3 if n <= 1000 else 1) for n in sizes}
    print(f"\n{'cards':>7} {'s/card (ms)':>12} {'peak MB':>8} {'bytes/card':>11}")
    for n, d in decks.items():
        print(f"{n:>7} {1000 * d['seconds'] / n:>12.2f} {d['peak_mb']:>8.0f} {d['bytes'] / n:>11.0f}")
    base = measure("floor", 1000, repeat=3)
    ratio = decks[1000]["seconds"] / base["seconds"]
    small, large = decks[sizes[0]], decks[sizes[-1]]
    memory = large["peak_mb"] / small["peak_mb"]
    bytes_ratio = (large["bytes"] / sizes[-1]) / (small["bytes"] / sizes[0])
    print(f"\nfloor (plain ReportLab, 1,000 cards): {base['seconds']:.2f} s, {base['bytes'] / 1000:.0f} bytes/card")
    print(f"kkprint / floor time at 1,000 cards: {ratio:.2f}x (target <= 1.5x: {'met' if ratio <= 1.5 else 'NOT met'})")
    print(f"peak memory {sizes[-1]:,} / {sizes[0]} cards: {memory:.2f}x (target <= 1.5x: {'met' if memory <= 1.5 else 'NOT met'})")
    print(f"bytes per card {sizes[-1]:,} / {sizes[0]} cards: {bytes_ratio:.2f}x (target <= 1.0x: "
          f"{'met' if bytes_ratio <= 1.0 else 'NOT met'})")


if __name__ == "__main__":
    main()
