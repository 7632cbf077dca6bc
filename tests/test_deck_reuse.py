"""Reuse without repeating: a region extending another and shifting it, backs and layouts
extending a front, YAML anchors and aliases — and the bounds that keep each of them safe."""

from __future__ import annotations

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
