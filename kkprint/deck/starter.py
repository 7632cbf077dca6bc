"""``kkprint new deck NAME``: a small deck that builds at once and shows every kind of region."""

from __future__ import annotations

from pathlib import Path

from kkprint.errors import InputError
from kkprint.paths import safe_file_name

STARTER_YAML = """\
# {name}: a kkprint deck. Build it with:  kkprint build {file}
# Sizes and positions are millimetres from the card's top-left corner.
# `kkprint schema` prints every key this file may use.

name: {name}                 # the PDF is called {name}-a4.pdf
extends: poker               # start from templates/poker.yaml and change what you need
card:
  size: poker                # poker, bridge, mini, tarot, square, chip-25, token-20/25/30
                             # or width_mm: 60 and height_mm: 90
sheet:
  paper: a4                  # a4, letter or a3
  gap_mm: 0                  # space between cards
print:
  backs: long-edge           # long-edge, short-edge (duplex), fold, or none

layout:                      # regions are drawn in this order; each overrides the template's
  banner: {{fill: "#8a3b2e"}} # the template's banner, in another colour
  cost:                      # a new region: the card's cost as a die face
    type: icon
    x: 48
    y: 20
    w: 11
    h: 11
    field: cost_icon         # the icon's name comes from the CSV column cost_icon
  art:
    type: shape
    shape: ellipse
    x: 12
    y: 20
    w: 32
    h: 24
    fill: "#f3e6c8"
    stroke: "#8a3b2e"
  text:                      # inline icons: {{die:6}} sits on the baseline and scales with the text
    field: text

back:                        # one back for every card; give cards a `back` column and a
  fill: {{fill: "#f3e6c8", stroke: "#8a3b2e"}}  # `backs:` map to choose backs per card
  mark: {{type: text, x: 6, y: 34, w: 51, h: 20, text: "{name}", font: bold, size: 20, align: center, valign: middle, colour: "#8a3b2e"}}

csv: {csv}                   # one row per card; the count column says how many copies
cards:                       # cards can also be written here
  - {{name: Wild card, text: "Counts as any die: {{die:any}}", cost_icon: "die:1", count: 1}}
"""

STARTER_CSV = """\
name,text,cost_icon,count
Knight,"Roll {die:5} or more to win a duel.",die:5,2
Healer,"Turn one {die:1} into a {die:6}.",die:2,2
Scout,Look at the top card of any deck.,die:1,3
"""


def write_starter(name: str, folder: Path) -> list[Path]:
    stem = safe_file_name(name)
    folder.mkdir(parents=True, exist_ok=True)
    deck, table = folder / f"{stem}.yaml", folder / f"{stem}.csv"
    for path in (deck, table):
        if path.exists():
            raise InputError("already exists; choose another name or move it away", source=str(path))
    table.write_text(STARTER_CSV, encoding="utf-8")
    deck.write_text(STARTER_YAML.format(name=stem, file=deck.name, csv=table.name), encoding="utf-8")
    return [deck, table]
