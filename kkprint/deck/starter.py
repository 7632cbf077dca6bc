"""``kkprint new deck NAME``: a small deck that builds at once and shows every kind of region."""

from __future__ import annotations

import json
from pathlib import Path

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.outputs import write_new
from kkprint.base.paths import safe_file_name

STARTER_YAML = """\
# {name}: a kkprint deck. Build it with:  kkprint build {file}
# Sizes and positions are millimetres from the card's top-left corner ("0.5in", "12pt" work too).
# `kkprint schema` prints every key this file may use; docs/custom-decks.md teaches them all.

name: {quoted}                 # the PDF is called {name}-a4.pdf
extends: poker               # start from templates/poker.yaml and change what you need
card:
  size: poker                # poker, bridge, mini, tarot, square, chip-25, token-20/25/30
                             # or w: 2.5in and h: 3.5in; shape: hexagon or circle for counters
sheet:
  paper: a4                  # a4, letter or a3
  gap_mm: 0                  # space between cards
print:
  backs: long-edge           # long-edge, short-edge (duplex), fold, or none

data: {csv}                  # one row per card: .csv (, ; or tab), .xlsx or .json
copies_field: count          # the column that says how many copies (qty, copies …)
# fonts:                     # your own TTF/OTF files next to this one; then font: story/bold
#   story: {{regular: fonts/Story.ttf, bold: fonts/Story-Bold.ttf, italic: fonts/Story-Italic.ttf}}
# icons:                     # your own SVG/PNG icons; then {{coin}} inside any text
#   coin: icons/coin.svg

layout:                      # regions are drawn in this order; each overrides the template's
  banner: {{fill: "${{colour}}"}} # the template's banner, coloured by the card's colour column
  cost:                      # a new region: the card's cost as a die face
    type: icon
    x: 48
    y: 20
    w: 11
    h: 11
    field: cost_icon         # the icon's name comes from the column cost_icon
  art:
    type: shape
    shape: ellipse           # rect, roundrect, ellipse, circle, line, polygon, hexagon, star
    x: 12
    y: 20
    w: 32
    h: 24
    fill: {{gradient: radial, from: "#fff8e8", to: "#f3e6c8"}}
    stroke: "#8a3b2e"
  text:                      # <b>, <i>, <span color='#c00'>, <br> and inline icons like {{die:6}}
    field: text
  elite:                     # drawn only where the condition holds
    type: text
    x: 5
    y: 40
    w: 30
    h: 6
    text: "<b>ELITE</b>"
    size: 8
    colour: "#8a3b2e"
    when: "cost_icon in ['die:5', 'die:6']"

back:                        # one back for every card; it may show the card's own fields
  fill: {{fill: "#f3e6c8", stroke: "#8a3b2e"}}
  mark: {{type: text, x: 6, y: 34, w: 51, h: 20, text: "${{name}}", font: bold, size: 18, align: center, valign: middle, colour: "#8a3b2e"}}

cards:                       # cards can also be written here
  - {{name: Wild card, text: "Counts as <i>any</i> die: {{die:any}}", cost_icon: "die:1", colour: "#5b6f8a", count: 1}}
"""

STARTER_CSV = """\
name,text,cost_icon,colour,count
Knight,"<b>Duel:</b> roll {die:5} or more to win.",die:5,#8a3b2e,2
Healer,"Turn one {die:1} into a {die:6}.",die:2,#2e7d5b,2
Scout,Look at the top card of any deck.,die:1,#8a6d2e,3
"""


def write_starter(name: str, folder: Path) -> list[Path]:
    stem = safe_file_name(name)
    folder.mkdir(parents=True, exist_ok=True)
    deck, table = folder / f"{stem}.yaml", folder / f"{stem}.csv"
    for path in (deck, table):
        if path.exists() or path.is_symlink():
            raise InputError(Msg("already exists; choose another name or move it away"), source=str(path))
    write_new(table, STARTER_CSV)
    write_new(
        deck,
        STARTER_YAML.format(name=stem, quoted=json.dumps(stem, ensure_ascii=False), file=deck.name, csv=table.name),
    )
    return [deck, table]
