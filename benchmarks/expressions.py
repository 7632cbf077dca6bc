"""What computing costs: a 1,000-card deck whose every text is an expression (upper(), arithmetic,
replace(), a look-up, pad(), repetition) against the same deck with plain ${field} whose columns
hold what those expressions compute — what a preparation script would have written. Whole
`kkprint build` processes, interleaved, CPU seconds (user + system), medians.

    .venv/bin/python benchmarks/expressions.py [--cards 1000] [--pairs 7]

Target: expressions at most 1.2× plain. Both decks print the same words on the same cards.
"""

from __future__ import annotations

import argparse
import csv
import tempfile
from pathlib import Path

from goals import compile_bytecode, kkprint_build, paired

LAYOUT = """\
name: {name}
card: {{size: poker}}
data: {name}.csv
{tables}layout:
  frame: {{type: shape, shape: roundrect, x: 2, y: 2, w: 59, h: 84, stroke: "#333333", stroke_width: 1}}
  title: {{type: text, x: 4, y: 4, w: 45, h: 10, text: "{title}", font: bold, size: 13, valign: middle}}
  cost:  {{type: text, x: 49, y: 4, w: 10, h: 10, text: "{cost}", size: 11, align: right, valign: middle}}
  stars: {{type: text, x: 5, y: 16, w: 53, h: 6, text: "{stars}", size: 9}}
  body:  {{type: text, x: 5, y: 50, w: 53, h: 26, text: "{body}", size: 10}}
  foot:  {{type: text, x: 5, y: 80, w: 53, h: 4, text: "{foot}", size: 6, align: right}}
back:
  fill:  {{type: shape, shape: roundrect, x: 3, y: 3, w: 57, h: 82, fill: "#e8eef8"}}
"""
COMPUTED = {
    "tables": "tables:\n  sets: {core: Core set, ext: Expansion}\n",
    "title": "${upper(name)}",
    "cost": "${cost * 2}k",
    "stars": "${'★' * stars}${'☆' * (5 - stars)}",
    "body": "${replace(text, '#', str(cost))}",
    "foot": "${pad(card.row, 4, '0')} · ${lookup('sets', edition)}",
}
PLAIN = {
    "tables": "",
    "title": "${title}",
    "cost": "${cost2}k",
    "stars": "${stars_text}",
    "body": "${body}",
    "foot": "${foot}",
}
SETS = {"core": "Core set", "ext": "Expansion"}


def rows(count: int):
    for i in range(count):
        name, cost, stars, edition = f"Card {i + 1}", 1 + i % 5, 1 + i % 5, ("core", "ext")[i % 2]
        text = f"Pay # coins to move # spaces, then roll {1 + i % 6} or more to win duel {i}."
        yield {
            "name": name,
            "cost": cost,
            "stars": stars,
            "edition": edition,
            "text": text,
            "title": name.upper(),
            "cost2": cost * 2,
            "stars_text": "★" * stars + "☆" * (5 - stars),
            "body": text.replace("#", str(cost)),
            "foot": f"{i + 1:04d} · {SETS[edition]}",
        }


def write(folder: Path, name: str, texts: dict[str, str], count: int) -> Path:
    with open(folder / f"{name}.csv", "w", newline="", encoding="utf-8") as handle:
        columns = list(next(rows(1)))
        writer = csv.DictWriter(handle, columns)
        writer.writeheader()
        writer.writerows(rows(count))
    path = folder / f"{name}.yaml"
    path.write_text(LAYOUT.format(name=name, **texts), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=7)
    args = parser.parse_args()
    compile_bytecode()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        plain = kkprint_build(write(folder, "plain", PLAIN, args.cards), folder / "out-plain")
        computed = kkprint_build(write(folder, "computed", COMPUTED, args.cards), folder / "out-computed")
        runs = paired(computed, plain, args.pairs)  # (interleaved, so a busy moment hits both alike)
        same = [
            (folder / f"out-{side}" / f"{side}-a4.pdf").stat().st_size for side in ("plain", "computed")
        ]  # (sizes, as a sanity check that both printed alike)
    ratio, low, high = runs.ratio()
    print(f"{args.cards:,} cards, whole processes, CPU seconds, medians of {args.pairs} interleaved pairs")
    print(
        f"plain ${{field}}: {runs.median('floor'):.2f} s   every text an expression: {runs.median('ours'):.2f} s"
        f"   (PDF bytes {same[0]:,} / {same[1]:,})"
    )
    print(
        f"expressions / plain: {ratio:.2f}x ({low:.2f}-{high:.2f}; target <= 1.2x: {'met' if ratio <= 1.2 else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
