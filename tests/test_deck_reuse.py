"""Reuse without repeating: a region extending another and shifting it, backs and layouts
extending a front, YAML anchors and aliases — and the bounds that keep each of them safe."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_clean_error, run_cli
from test_deck_compute import box_of, card_pages, picture
from test_deck_language import write

from kkprint.deck.load import load_deck

SHIFTED = """\
name: shifted
card: {w: 60, h: 80}
print: {backs: none}
layout:
  slot:  {type: shape, shape: rect, x: 5, y: 5, w: 10, h: 4, fill: "#ff0000"}
  slot2: {extends: slot, dx: 15, fill: "#0000ff"}
  slot3: {extends: slot2, dx: "${step}", dy: 1cm, fill: "#00aa00"}
  tall:  {extends: slot, y: 40, h: 20, fill: "#ff00ff"}
cards: [{step: 20}]
"""


def test_a_region_extends_another_and_shifts_on_top_of_its_shift(tmp_path):
    image = picture(card_pages(write(tmp_path, SHIFTED), tmp_path / "out"), 0)
    assert box_of(image, "#ff0000") == pytest.approx((5, 5, 15, 9), abs=0.2)
    assert box_of(image, "#0000ff") == pytest.approx((20, 5, 30, 9), abs=0.2)
    assert box_of(image, "#00aa00") == pytest.approx((40, 15, 50, 19), abs=0.2)  # 15 + 20 from the data, 1 cm down
    assert box_of(image, "#ff00ff") == pytest.approx((5, 40, 15, 60), abs=0.2)  # keys overridden


FACES = """\
name: faces
card: {w: 60, h: 80}
layouts:
  plain:
    regions:
      frame: {type: shape, shape: rect, x: 2, y: 2, w: 56, h: 76, stroke: "#0000ff", stroke_width: 3}
      title: {type: text, x: 5, y: 8, w: 50, h: 10, text: "${name}", size: 12}
  gilded: {extends: plain, regions: {frame: {stroke: "#ff0000"}}}
back:
  extends: plain
  title: {text: "Back of ${name}", y: 60}
backs:
  hero: {extends: gilded, regions: {title: {text: "Hero ${name}"}}}
cards:
  - {name: Ann, layout: plain}
  - {name: Bob, layout: gilded, back: hero}
"""


def test_backs_extend_a_front_layout_in_either_spelling(tmp_path):
    pdf = card_pages(write(tmp_path, FACES), tmp_path / "out")
    ann_front, ann_back, bob_front, bob_back = (picture(pdf, page) for page in range(4))
    for image in (ann_front, ann_back):
        assert box_of(image, "#0000ff") == pytest.approx((1.47, 1.47, 58.53, 78.53), abs=0.2)  # 3 pt stroke
    for image in (bob_front, bob_back):
        assert box_of(image, "#ff0000") == pytest.approx((1.47, 1.47, 58.53, 78.53), abs=0.2)
    from pypdf import PdfReader

    pages = [page.extract_text() for page in PdfReader(pdf).pages]
    assert "Ann" in pages[0] and "Back of Ann" in pages[1] and "Hero Bob" in pages[3]
    back = load_deck(tmp_path / "d.yaml").spec.back
    assert back is not None and back["title"].y == 60 and back["frame"].w == 56


def test_anchors_aliases_and_merge_keys_build(tmp_path):
    deck = write(
        tmp_path,
        "name: anchored\ncard: {w: 60, h: 80}\nlayout:\n"
        '  frame: &frame {type: shape, shape: rect, x: 5, y: 5, w: 50, h: 70, stroke: "#0000ff", stroke_width: 2}\n'
        '  inner: {<<: *frame, x: 10, y: 10, w: 40, h: 60, stroke: "#ff0000"}\n'
        "back:\n  frame: *frame\ncards: [{name: A}]\n",
    )
    pdf = card_pages(deck, tmp_path / "out")
    front, back = picture(pdf, 0), picture(pdf, 1)
    assert box_of(front, "#0000ff") == pytest.approx((4.65, 4.65, 55.35, 75.35), abs=0.2)
    assert box_of(front, "#ff0000") == pytest.approx((9.65, 9.65, 50.35, 70.35), abs=0.2)
    assert box_of(back, "#0000ff") == pytest.approx((4.65, 4.65, 55.35, 75.35), abs=0.2)


LAUGHS = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
)


@pytest.mark.parametrize(
    "text, fragments",
    [
        (LAUGHS + "name: x\n", ["line 4", "aliases (*name) would make it more than 10 times its own size"]),
        ("name: &n [*n]\n", ["line 1", "an alias (*name) refers to the value it is inside"]),
        ("name: *nowhere\n", ["found undefined alias"]),
    ],
)
def test_aliases_that_expand_without_bound_are_refused(tmp_path, english, text, fragments):
    deck = write(tmp_path, text)
    result = run_cli("build", str(deck), "--out", str(tmp_path / "out"))
    assert_clean_error(result, str(deck), *fragments)
    assert not (tmp_path / "out").exists()


def test_a_document_just_within_ten_times_its_size_is_read():
    from kkprint.base.yamlio import parse_yaml

    base = "a: &a [" + ", ".join(["word"] * 20) + "]\n"
    within = base + "b: [" + ", ".join(["*a"] * 8) + "]\n"
    assert len(parse_yaml(within, "t")["b"]) == 8


@pytest.mark.parametrize(
    "regions, fragments",
    [
        (
            "  a: {extends: b, dx: 1}\n  b: {extends: a}\n",
            ["layout.b.extends", "region 'b' extends itself through a → b → a"],
        ),
        ("  a: {extends: a}\n", ["region 'a' extends itself"]),
        (
            "  frame: {type: text, x: 1, y: 1, w: 9, h: 9, text: x}\n  b: {extends: fram}\n",
            ["layout.b.extends", "extends names another region of this layout; did you mean 'frame'?"],
        ),
        ("  a: {extends: [x]}\n", ["extends names another region"]),
        (
            "  a: {x: 3}\n",
            ["line 4, layout.a", "needs a type: 'text', 'icon', 'shape' or 'image' (or extends: another region)"],
        ),
        (
            "  a: {type: text, x: 1, y: 1, w: 9, h: 9, text: x, dx: '${s}mm'}\n  b: {extends: a, dx: 2}\n",
            ["layout.b.dx", "must be a length or one ${…} giving mm"],
        ),
    ],
)
def test_region_extends_mistakes_are_named(tmp_path, english, regions, fragments):
    deck = write(tmp_path, f"name: e\ncard: {{size: mini}}\nlayout:\n{regions}cards: [{{name: A, s: 1}}]\n")
    assert_clean_error(run_cli("build", str(deck), "--out", str(tmp_path / "out")), str(deck), *fragments)


@pytest.mark.parametrize(
    "faces, fragments",
    [
        ("layout: {extends: layout, t: {type: text, x: 1, y: 1, w: 9, h: 9, text: x}}\n", ["layout extends itself"]),
        (
            "layout: {t: {type: text, x: 1, y: 1, w: 9, h: 9, text: x}}\nback: {extends: fronts}\n",
            ["unknown template 'fronts'"],
        ),
        (
            "layout: {t: {type: text, x: 1, y: 1, w: 9, h: 9, text: x}}\nback: {extends: 3}\n",
            ["extends names one layout or template"],
        ),
    ],
)
def test_face_extends_mistakes_are_named(tmp_path, english, faces, fragments):
    deck = write(tmp_path, f"name: e\ncard: {{size: mini}}\n{faces}cards: [{{name: A}}]\n")
    assert_clean_error(run_cli("build", str(deck), "--out", str(tmp_path / "out")), str(deck), *fragments)


def test_a_back_may_extend_a_template_and_shift_its_regions(tmp_path):
    deck = write(
        tmp_path,
        "name: t\nextends: poker\nback:\n  extends: poker\n  title: {text: BACKSIDE, field: null, dy: 30}\n"
        "cards: [{name: A, text: rules}]\n",
    )
    back = load_deck(deck).spec.back
    assert back is not None and back["title"].y == pytest.approx(33) and back["banner"].fill == "#2f5fa8"


SUITS = """\
name: suits
card: {size: poker}
print: {backs: none}
layout:
  band:  {type: shape, shape: rect, x: 0, y: 0, w: 63, h: 20, fill: "${colour}"}
  stripe: {type: shape, shape: rect, x: 0, y: 8, w: 63, h: 2, fill: "#ffffff", opacity: 0.5, when: "suit == 'Moon'"}
  suit:  {type: text, x: 4, y: 22, w: 55, h: 8, field: suit, size: 12, align: center}
  motto: {type: text, x: 4, y: 31, w: 55, h: 3, text: "${suit} — the order of the ${suit}", size: 4}
  mark:  {type: icon, x: 24, y: 40, w: 15, h: 15, field: mark}
  rank:  {type: text, x: 4, y: 60, w: 55, h: 10, field: name, size: 14, align: center}
  seal:  {type: shape, shape: circle, x: 26, y: 72, w: 11, h: 11, stroke: "${colour}", stroke_width: 1.5}
  sigil: {type: text, x: 4, y: 84, w: 55, h: 3, text: "${suit}", size: 8, align: center}
cards:
CARDS"""


def _suits(tmp_path, cards: int) -> Path:
    rows = []
    for number in range(cards):
        suit, colour = [("Sun", "#e0a020"), ("Moon", "#3050a0"), ("Star", "#a03050")][number % 3]
        rows.append(
            f"  - {{name: Knight {number + 1}, suit: {suit}, colour: '{colour}', mark: 'die:{number % 6 + 1}'}}"
        )
    return write(tmp_path, SUITS.replace("CARDS", "\n".join(rows)) + "\n", f"suits-{cards}.yaml")


def test_regions_many_cards_draw_alike_are_stored_once_for_their_values(tmp_path, monkeypatch, capsys):
    """A suit's band, name, motto and seal are drawn once for each suit and placed on its every
    card; each card's own rank and mark are drawn for it. The cards look exactly as when each is
    drawn whole, and the preflight says each card's problems (the motto's small text) as before."""
    from pypdf import PdfReader
    from test_deck_output import build

    from kkprint.deck import render
    from kkprint.deck.build import check_deck
    from kkprint.engine.preview import pages_alike

    deck = _suits(tmp_path, 12)
    runs = render.runs_of(
        load_deck(deck).spec.layout, load_deck(deck).columns, (c.fields for c in load_deck(deck).iter_cards())
    )
    assert [(run.kind, [name for name, _ in run.regions]) for run in runs] == [
        (render.BY_VALUES, ["band", "stripe", "suit", "motto"]),
        (render.OWN, ["mark", "rank"]),
        (render.BY_VALUES, ["seal", "sigil"]),
    ]
    assert runs[0].refs == ("colour", "suit")

    def forms(pdf: Path) -> int:
        return sum(len(page["/Resources"].get("/XObject", {})) for page in PdfReader(pdf).pages)

    made, usual = {}, render.VALUES_SAMPLE
    # (a sample of one card shows nothing repeating; with one set of values kept, what the
    # preflight heard of a suit is forgotten at each other suit, and the suit drawn as the card's own)
    for sample, kept in ((usual, render.MAX_RESOLVED), (1, render.MAX_RESOLVED), (usual, 1)):
        monkeypatch.setattr(render, "VALUES_SAMPLE", sample)
        monkeypatch.setattr(render, "MAX_RESOLVED", kept)
        [pdf] = build(deck, tmp_path / f"out-{sample}-{kept}", card_pages=True)
        made[sample, kept] = (pdf, [(f.card, f.region, f.kind) for f in check_deck(load_deck(deck))])
    (stored, findings), (whole, whole_findings), (forgetful, forgetful_findings) = made.values()
    for page in range(12):
        assert pages_alike([(stored, page), (whole, page), (forgetful, page)], 3), page
    assert forms(stored) > forms(forgetful) > forms(whole)  # (the suits' forms, among the die icons)
    assert [(card, region) for card, region, kind in findings if kind == "small-text"] == [
        (n, "motto") for n in range(1, 13)
    ]
    assert findings == whole_findings == forgetful_findings
    capsys.readouterr()


def test_a_stored_run_drawn_again_in_a_later_file_says_each_cards_problems_once(tmp_path, monkeypatch, capsys):
    """An export goes on in a new file every few pages: a suit's stored run is drawn again in
    each file, and every card still has its own warning, once, as in one file."""
    from kkprint.deck import export

    deck = _suits(tmp_path, 9)
    said, pictures = {}, {}
    for per_file in (export.PAGES_PER_FILE, 2):
        monkeypatch.setattr(export, "PAGES_PER_FILE", per_file)
        options = export.ExportOptions(out_dir=tmp_path / f"out-{per_file}", dpi=36, lang="en")
        pictures[per_file] = [path.read_bytes() for path in export.export_deck(deck, options)]
        said[per_file] = [line for line in capsys.readouterr().err.splitlines() if "warning" in line]
    assert said[2] == said[export.PAGES_PER_FILE] and len(said[2]) == 9, said
    assert all("region 'motto'" in line for line in said[2])
    assert pictures[2] == pictures[export.PAGES_PER_FILE]


def _plain_deck(folder: Path, name: str, colour: str) -> Path:
    """A deck whose front and back are the same on every card: each face is one stored form."""
    return write(
        folder,
        f"name: {name}\ncard: {{w: 30, h: 30}}\n"
        f'layout:\n  band: {{type: shape, shape: rect, x: 0, y: 0, w: 30, h: 30, fill: "{colour}"}}\n'
        f'back:\n  band: {{type: shape, shape: rect, x: 0, y: 0, w: 30, h: 30, fill: "{colour}"}}\n'
        "cards: [{name: A}, {name: B}]\n",
        f"{name}.yaml",
    )


def test_two_decks_drawn_into_one_file_keep_their_own_faces(tmp_path):
    """A kit's sheet may hold two decks (kardinal's tokens and chips): faces of the same name
    ("front", "back") and the same values are two drawings, not one form used for both."""
    from itertools import chain

    from kkprint.deck.build import card_prints, deck_card_size, painter_for
    from kkprint.engine.cards import SheetOptions, print_cards
    from kkprint.engine.document import open_pdf
    from kkprint.engine.fonts import prepare_fonts
    from kkprint.engine.geometry import PAPERS, SheetLayout

    red, blue = (
        load_deck(_plain_deck(tmp_path, name, colour)) for name, colour in (("r", "#ff0000"), ("b", "#0000ff"))
    )
    fonts = prepare_fonts(["AB"])
    layout = SheetLayout(PAPERS["a4"], deck_card_size(red), 2, 6)
    pdf = tmp_path / "both.pdf"
    with open_pdf(pdf, layout.paper, fonts, title="both", lang="en") as doc:
        size = layout.card
        prints = chain(
            *(card_prints(deck, doc, painter_for(deck, fonts), size.width, size.height) for deck in (red, blue))
        )
        print_cards(doc, layout, prints, SheetOptions())
    for page in (0, 1):  # fronts, then backs
        image = picture(pdf, page)
        assert box_of(image, "#ff0000") and box_of(image, "#0000ff")


OVERRIDDEN = """\
name: overridden
extends: poker
layout:
  title: {text: "OVER ${upper(name)}"}
  text: {text: "fixed words"}
  copy: {extends: title, y: 20, field: name}
cards: [{name: Alpha}]
"""


def test_what_a_region_shows_replaces_what_the_region_it_extends_showed(tmp_path):
    """A title given ``text:`` over the template's ``field: name`` printed the field, silently;
    a text region given words over ``field: text`` wanted a column 'text' that no card has; a
    copy of the title given a field keeps none of the title's words."""
    import pdfplumber

    pdf = card_pages(write(tmp_path, OVERRIDDEN), tmp_path / "out")
    words = pdfplumber.open(pdf).pages[0].extract_text()
    assert "OVER ALPHA" in words and "fixed words" in words and words.count("Alpha") == 1, words


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_region_that_shows_both_words_and_a_field_is_refused(tmp_path, lang):
    deck = write(
        tmp_path,
        "name: both\ncard: {size: poker}\nlayout:\n  t: {type: text, x: 5, y: 5, w: 50, h: 10, field: name, text: X}\ncards: [{name: A}]\n",
    )
    refused = run_cli("check", str(deck), "--lang", lang)
    assert_clean_error(refused, str(deck), "4")
    assert ("not both" in refused.stderr) if lang == "en" else ("どちらか一方" in refused.stderr)
