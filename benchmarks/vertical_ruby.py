"""What vertical text with ruby costs: a 1,000-card deck whose Japanese text is set vertically with
furigana, against the same deck with the same words set horizontally without readings — whole
`kkprint build` processes, interleaved (CPU seconds, medians of the pairs).

    .venv/bin/python benchmarks/vertical_ruby.py [--cards 1000] [--pairs 7]

Target: vertical with ruby at most 2× horizontal plain text. Both decks have the same layout, font,
card count and words (every card its own sentence); the vertical deck's text regions say
``direction: vertical`` and its words carry their readings.
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from goals import compile_bytecode, kkprint_build, paired  # noqa: E402 - benchmarks/ is not a package

DECK = """\
name: {name}
card: {{size: poker}}
data: {name}.csv
layout:
  frame: {{type: shape, shape: roundrect, x: 2, y: 2, w: 59, h: 84, stroke: "#333333", stroke_width: 1}}
  title: {{type: text, x: 4, y: 4, w: 55, h: 10, field: title, font: bold, size: 14, align: center, valign: middle}}
  body:  {{type: text, x: 6, y: 18, w: 51, h: 62, field: body, size: 12, min_size: 7{direction}}}
back:
  fill:  {{type: shape, shape: roundrect, x: 3, y: 3, w: 57, h: 82, fill: "#e8eef8"}}
"""
# (word, reading): every card strings several of them into its own sentence
WORDS = [
    ("漢字", "かんじ"),
    ("勉強", "べんきょう"),
    ("山道", "やまみち"),
    ("火山", "かざん"),
    ("毎日", "まいにち"),
    ("花火", "はなび"),
    ("青空", "あおぞら"),
    ("大雨", "おおあめ"),
    ("木陰", "こかげ"),
    ("土地", "とち"),
]


def sentence(number: int, ruby: bool) -> str:
    parts = []
    for step in range(4):
        word, reading = WORDS[(number * 3 + step * 7) % len(WORDS)]
        parts.append(f"{{{word}|{reading}}}" if ruby else word)
    return f"{parts[0]}と{parts[1]}、{parts[2]}の「{parts[3]}」を見る。第{number % 100}話"


def write(folder: Path, vertical: bool, count: int) -> Path:
    name = "vertical" if vertical else "plain"
    with open(folder / f"{name}.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["title", "body"])
        writer.writerows((f"カード {i + 1}", sentence(i, ruby=vertical)) for i in range(count))
    path = folder / f"{name}.yaml"
    path.write_text(DECK.format(name=name, direction=", direction: vertical" if vertical else ""), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=7)
    args = parser.parse_args()
    compile_bytecode()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        plain, vertical = write(folder, False, args.cards), write(folder, True, args.cards)
        # (paired runs each once first: the font cache then holds both decks' subsets and vertical forms)
        result = paired(kkprint_build(vertical, folder / "out"), kkprint_build(plain, folder / "out"), args.pairs)
    ratio = result.ratio()[0]
    print(f"{args.cards:,} cards, whole processes, CPU seconds, medians of {args.pairs} interleaved pairs")
    print(f"horizontal plain text: {result.median('floor'):.2f} s   vertical with ruby: {result.median('ours'):.2f} s")
    print(f"vertical with ruby / horizontal plain: {ratio:.2f}x (target <= 2x: {'met' if ratio <= 2 else 'NOT met'})")


if __name__ == "__main__":
    main()
