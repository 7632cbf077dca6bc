"""One card number everywhere: a card's number is its place in the printed deck, every copy
counted — as the studio shows it, ``check`` names it and ``card.number`` and ``cards:`` read it —
in ``--only``, ``export --showcase`` and export's ``${n}`` too (they numbered the deck's rows, so
``--showcase 4`` fanned another card than the studio's No. 4)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import assert_clean_error
from PIL import Image
from pypdf import PdfReader

from kkprint.cli.targets import resolve
from kkprint.deck.inputs import card_inputs
from kkprint.deck.load import load_deck, select
from kkprint.deck.starter import write_starter
from kkprint.engine.job import BuildOptions, build_targets

# The starter deck's copies (Wild card 1, Knight 2, Healer 2, Scout 3): printed 1, 2-3, 4-5, 6-8;
# each card a colour of its own, and the third printed card (Knight's second copy) black.
HUES = """\
name: hues
card: {size: mini}
print: {backs: none}
layout:
  ground: {type: shape, shape: rect, x: 0, y: 0, w: 44, h: 63, fill: "${colour}"}
  third: {type: shape, shape: rect, x: 0, y: 0, w: 44, h: 63, fill: "#000000", cards: "3"}
  says: {type: text, x: 2, y: 2, w: 40, h: 8, text: "${name} ${card.number}/${card.total}"}
cards:
  - {name: Wild, colour: "#ff0000"}
  - {name: Knight, colour: "#00ff00", count: 2}
  - {name: Healer, colour: "#0000ff", count: 2}
  - {name: Scout, colour: "#ffff00", count: 3}
"""
COLOURS = {"Wild": (255, 0, 0), "Knight": (0, 255, 0), "Healer": (0, 0, 255), "Scout": (255, 255, 0)}


@pytest.fixture
def hues(tmp_path) -> Path:
    deck = tmp_path / "hues.yaml"
    deck.write_text(HUES, encoding="utf-8")
    return deck


def _build(deck: Path, out: Path, **options) -> list[str]:
    """The text of each card an --only build prints (one card a page, as for a print shop)."""
    [pdf] = build_targets(resolve([str(deck)]), BuildOptions(out_dir=out, print_shop=True, lang="en", **options))
    return [" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages]


def test_the_starter_deck_is_numbered_alike_by_the_studio_check_and_export(tmp_path, cli, english):
    """The newcomer's deck: the studio shows No. 1, 2, 4, 6; export's files are those numbers,
    and --only and --showcase take them."""
    [deck, table] = write_starter("mydeck", tmp_path / "decks")
    studio = [card.number for card in card_inputs(load_deck(deck))]
    assert studio == [1, 2, 4, 6]
    out = tmp_path / "export"
    assert cli("export", str(deck), "--dpi", "40", "--out", str(out), "-q").returncode == 0
    fronts = sorted(path.name for path in out.iterdir() if not path.stem.endswith("-back"))
    assert fronts == ["001-Wild-card.png", "002-Knight.png", "004-Healer.png", "006-Scout.png"]
    assert [int(name[:3]) for name in fronts] == studio
    # check names a card by the same number: the Scout (cards 6-8) with an icon no deck has
    table.write_text(table.read_text(encoding="utf-8").replace("Look at", "Look {owl} at"), encoding="utf-8")
    result = cli("check", str(deck), "--json")
    assert {finding["card"] for finding in json.loads(result.stdout)} == {6}, result.stdout
    result = cli("check", str(deck), "--json", "--only", "6")
    assert {finding["card"] for finding in json.loads(result.stdout)} == {6}, result.stdout
    assert {finding["card"] for finding in json.loads(cli("check", str(deck), "--json", "--only", "5").stdout)} == set()


def test_only_takes_printed_numbers_and_the_cards_keep_theirs(hues, tmp_path):
    def names(only: str) -> list[str]:
        return [card.fields["name"] for card in select(load_deck(hues), only).cards]

    assert names("4") == names("5") == ["Healer"]
    assert names("3-4") == ["Knight", "Healer"]
    assert names("8,Wild") == ["Scout", "Wild"]
    assert names("1-8") == ["Wild", "Knight", "Healer", "Scout"]
    # what an --only build prints: each copy with its number in the whole deck, of the whole deck's
    # total, and a region drawn on card 3 on card 3 (it was drawn on the first card kept)
    assert _build(hues, tmp_path / "a", only="4") == ["Healer 4/8", "Healer 5/8"]
    assert _build(hues, tmp_path / "b", only="Scout,3") == [
        "Scout 6/8",
        "Scout 7/8",
        "Scout 8/8",
        "Knight 2/8",
        "Knight 3/8",
    ]
    [pdf] = build_targets(resolve([str(hues)]), BuildOptions(out_dir=tmp_path / "c", print_shop=True, only="Knight"))
    dark = [_centre(pdf, page) for page in range(2)]
    assert dark == [COLOURS["Knight"], (0, 0, 0)]  # card 2 green, card 3 black, as in the whole deck


def _centre(pdf: Path, page: int) -> tuple[int, int, int]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        image = document[page].render(scale=20 / 72).to_pil().convert("RGB")
    finally:
        document.close()
    return image.getpixel((image.width // 2, image.height // 2))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_only_says_the_printed_range_the_deck_has(hues, cli, lang, monkeypatch):
    monkeypatch.setenv("KKPRINT_LANG", lang)
    said = {"en": "the deck has cards 1–8", "ja": "デッキのカードは1〜8です"}[lang]
    for only in ("9", "0", "3-12"):
        refused = cli("build", str(hues), "--only", only, "--out", str(hues.parent / "x"))
        assert_clean_error(refused, f"--only: {only}: {said}")  # (the option named once: "--only: --only 9" before)
    assert not (hues.parent / "x").exists()


def test_the_showcase_fans_the_printed_card_of_each_number(hues, tmp_path, cli, english):
    """One card is shown upright: its middle is its colour (Knight's second copy, card 3, black)."""
    for shown, colour in [("4", "Healer"), ("5", "Healer"), ("2", "Knight"), ("Knight", "Knight"), ("6", "Scout")]:
        out = tmp_path / shown
        result = cli("export", str(hues), "--showcase", shown, "--dpi", "40", "--out", str(out))
        assert result.returncode == 0, result.stderr
        assert _showcase_colour(out / "hues-showcase.png") == COLOURS[colour], shown
    out = tmp_path / "third"
    assert cli("export", str(hues), "--showcase", "3", "--dpi", "40", "--out", str(out)).returncode == 0
    assert _showcase_colour(out / "hues-showcase.png") == (0, 0, 0)
    assert_clean_error(cli("export", str(hues), "--showcase", "9", "--out", str(out)), "the deck has cards 1–8")
    assert_clean_error(
        cli("export", str(hues), "--only", "1-3", "--showcase", "6", "--out", str(out)),
        "card 6 is not among the cards --only keeps",
    )


def _showcase_colour(path: Path) -> tuple[int, int, int]:
    with Image.open(path) as image:
        box = image.getchannel("A").point(lambda a: 255 if a == 255 else 0).getbbox()  # the card, not its shadow
        middle = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
        return image.convert("RGB").getpixel(middle)


def test_export_names_files_by_the_printed_number_with_only_too(hues, tmp_path, cli):
    out = tmp_path / "all"
    assert cli("export", str(hues), "--dpi", "40", "--out", str(out), "-q").returncode == 0
    assert sorted(path.name for path in out.iterdir()) == [
        "001-Wild.png",
        "002-Knight.png",
        "004-Healer.png",
        "006-Scout.png",
    ]
    with Image.open(out / "004-Healer.png") as image:
        assert image.convert("RGB").getpixel((image.width // 2, image.height // 2)) == COLOURS["Healer"]
    out = tmp_path / "some"
    assert cli("export", str(hues), "--only", "6,4", "--dpi", "40", "--out", str(out), "-q").returncode == 0
    assert sorted(path.name for path in out.iterdir()) == ["004-Healer.png", "006-Scout.png"]


def test_only_keeps_a_double_faced_cards_back_that_is_another_cards_front(tmp_path):
    """--only Day printed Day with Night on its back, Night a card of no copies that --only
    does not keep: it was refused, 'back face 'Night' is not the name of a card in this deck'."""
    deck = tmp_path / "twin.yaml"
    deck.write_text(
        "name: twin\ncard: {size: mini}\nback_face_field: flip\nlayout:\n"
        '  t: {type: text, x: 2, y: 2, w: 40, h: 10, text: "${name} ${card.number}/${card.total}"}\n'
        "cards: [{name: Sun, count: 2}, {name: Day, flip: Night}, {name: Night, count: 0}]\n",
        encoding="utf-8",
    )
    assert (
        _build(deck, tmp_path / "a", only="Day") == _build(deck, tmp_path / "b", only="3") == ["Day 3/3", "Night 3/3"]
    )
