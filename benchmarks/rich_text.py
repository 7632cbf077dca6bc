"""What rich text costs: a 1,000-card deck whose text has markup and three inline deck icons a
card, against the same deck with plain text — whole `kkprint build` processes, interleaved.

    .venv/bin/python benchmarks/rich_text.py [--cards 1000] [--pairs 5]

Target: rich at most 1.5× plain (medians of the pairs). Both decks use the same layout, the same
font and the same card count; only the words of the text region differ.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="10" height="10">'
    '<circle cx="5" cy="5" r="4" fill="{colour}"/></svg>'
)
DECK = """\
name: {name}
card: {{size: poker}}
icons: {{coin: coin.svg, gem: gem.svg, unlock: unlock.svg}}
data: {name}.csv
layout:
  frame: {{type: shape, shape: roundrect, x: 2, y: 2, w: 59, h: 84, stroke: "#333333", stroke_width: 1}}
  title: {{type: text, x: 4, y: 4, w: 55, h: 10, field: name, font: bold, size: 14, align: center, valign: middle}}
  body:  {{type: text, x: 5, y: 50, w: 53, h: 30, field: text, size: 10}}
back:
  fill:  {{type: shape, shape: roundrect, x: 3, y: 3, w: 57, h: 82, fill: "#e8eef8"}}
"""


def texts(rich: bool, count: int):
    for i in range(count):
        if rich:
            yield (
                f"Card {i + 1}",
                f"<b>Roll</b> {1 + i % 6} {{coin}} <i>or more</i> to {{unlock}} vault {i}, then take a {{gem}}.",
            )
        else:
            yield f"Card {i + 1}", f"Roll {1 + i % 6} coins or more to open vault {i}, then take a gem."


def write(folder: Path, rich: bool, count: int) -> Path:
    name = "rich" if rich else "plain"
    for icon, colour in (("coin", "#d9a521"), ("gem", "#00acc1"), ("unlock", "#43a047")):
        (folder / f"{icon}.svg").write_text(ICON.format(colour=colour), encoding="utf-8")
    with open(folder / f"{name}.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "text"])
        writer.writerows(texts(rich, count))
    path = folder / f"{name}.yaml"
    path.write_text(DECK.format(name=name), encoding="utf-8")
    return path


def run(deck: Path, out: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kkprint", "build", str(deck), "--out", str(out)], check=True, capture_output=True
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        plain, rich = write(folder, False, args.cards), write(folder, True, args.cards)
        run(plain, folder / "out"), run(rich, folder / "out")  # warm the font cache for both character sets
        times = {"plain": [], "rich": []}
        for _ in range(args.pairs):  # interleaved, so a busy moment hits both alike
            times["plain"].append(run(plain, folder / "out"))
            times["rich"].append(run(rich, folder / "out"))
    plain_s, rich_s = statistics.median(times["plain"]), statistics.median(times["rich"])
    ratio = rich_s / plain_s
    print(f"{args.cards:,} cards, whole processes, medians of {args.pairs} interleaved pairs")
    print(f"plain text: {plain_s:.2f} s   rich text + 3 inline icons: {rich_s:.2f} s")
    print(f"rich / plain: {ratio:.2f}x (target <= 1.5x: {'met' if ratio <= 1.5 else 'NOT met'})")


if __name__ == "__main__":
    main()
