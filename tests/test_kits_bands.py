"""Greyscale and colour-blind play (issue 30 item 4): K&K's lands are told apart by the top band
of their cards alone — all that shows in a player's overlapping display — and Court's tiers by
theirs, once printed in grey. Each band is rendered from the built PDF, turned to grey as a
black-and-white printer would, and compared: two lands differ in lightness (ΔL*) or in pattern."""

from __future__ import annotations

from itertools import combinations

import pypdfium2 as pdfium
import pytest
from reportlab.lib.units import mm

from kkprint.cli.targets import resolve
from kkprint.engine.geometry import PAPERS, SheetLayout, card_size
from kkprint.engine.job import BuildOptions, build_targets

DPI = 100
MIN_DELTA_L = 12.0  # lightness steps: clearly apart side by side
MIN_PATTERN = 6.0  # mean ΔL* between two bands of one step once their own lightness is taken away


def lightness(grey: int) -> float:
    """CIE L* of an sRGB grey level 0–255."""
    value = grey / 255
    linear = value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    return 116 * (linear ** (1 / 3) if linear > 0.008856 else 7.787 * linear + 16 / 116) - 16


def band_of(pdf, sheet: int, slot: int, strips: list[tuple[float, float, float, float]]) -> list[float]:
    """L* of every pixel in the given strips (mm from the card's top-left) of one card, rendered in
    grey the way a black-and-white printer renders colour (luma)."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        image = document[sheet].render(scale=DPI / 72).to_pil().convert("L")
    finally:
        document.close()
    layout = SheetLayout(PAPERS["a4"], card_size("poker"), 0, 6)
    place = layout.front_slot(slot)
    scale = DPI / 72
    left, top = place.x * scale, image.height - place.top * scale
    values = []
    for x1, y1, x2, y2 in strips:
        box = tuple(
            round(v)
            for v in (left + x1 * mm * scale, top + y1 * mm * scale, left + x2 * mm * scale, top + y2 * mm * scale)
        )
        crop = image.crop(box)
        values += [lightness(crop.getpixel((x, y))) for y in range(crop.height) for x in range(crop.width)]
    return values


def difference(a: list[float], b: list[float]) -> tuple[float, float]:
    """(ΔL* of the means, mean ΔL* pixel by pixel once each band's mean is taken away)."""
    mean_a, mean_b = sum(a) / len(a), sum(b) / len(b)
    pattern = sum(abs((x - mean_a) - (y - mean_b)) for x, y in zip(a, b)) / len(a)
    return abs(mean_a - mean_b), pattern


def first_cards(counts: list[tuple[str, int]]) -> dict[str, tuple[int, int]]:
    """(sheet page, slot) of the first card of each kind, for a deck printed nine a sheet with backs."""
    found, index = {}, 0
    for kind, count in counts:
        found.setdefault(kind, (2 * (index // 9), index % 9))
        index += count
    return found


# strips of a land card's band where no arms, road or mark stands: along its top and foot, and down
# between the arms and the mark and beyond the road
LAND_STRIPS = [(0.5, 0.4, 62.5, 4.6), (0.5, 20.4, 62.5, 24.6), (34.3, 0.4, 35.7, 24.6), (61.0, 0.4, 62.6, 24.6)]


@pytest.mark.parametrize("greyscale", [False, True], ids=["colour-printed-grey", "greyscale-build"])
def test_every_two_lands_differ_in_their_band_alone(tmp_path, greyscale, kardinal_game):
    written = build_targets(resolve(["kardinal"]), BuildOptions(out_dir=tmp_path, lang="en", greyscale=greyscale))
    pdf = next(p for p in written if "land-cards" in p.name)
    places = first_cards([(land.id, land.value) for land in kardinal_game.lands])
    bands = {land: band_of(pdf, *places[land], LAND_STRIPS) for land in places}
    for one, other in combinations(bands, 2):
        delta_l, pattern = difference(bands[one], bands[other])
        assert delta_l >= MIN_DELTA_L or pattern >= MIN_PATTERN, (one, other, round(delta_l, 1), round(pattern, 1))


def test_the_lands_mark_stands_in_the_band(kardinal_game):
    from kkprint.games.kardinal.components import land_deck

    deck = land_deck(kardinal_game, "en")
    layout = deck.spec.layout
    band, sign = layout["band"], layout["sign"]
    assert sign.field == "mark"
    assert band.x <= sign.x and sign.x + sign.w <= band.x + band.w
    assert band.y <= sign.y and sign.y + sign.h <= band.y + band.h
    marks = [card.fields["mark"] for card in deck.iter_cards()]
    assert len({mark for mark in marks}) == len(kardinal_game.lands)  # one mark a land


# a Court card's band beside its tier badge and beyond its name: the tier's colour alone
TIER_STRIPS = [(0.4, 0.5, 3.0, 16.5), (60.5, 0.5, 62.6, 16.5)]


@pytest.mark.parametrize("greyscale", [False, True], ids=["colour-printed-grey", "greyscale-build"])
def test_every_two_court_tiers_differ_in_lightness(tmp_path, greyscale):
    from kkprint.games.court.model import load_court

    game = load_court()
    written = build_targets(resolve(["court"]), BuildOptions(out_dir=tmp_path, lang="en", greyscale=greyscale))
    pdf = next(p for p in written if p.name.startswith("court-characters"))
    counts = [(character.tier or "-", character.copies) for character in game.characters if character.copies]
    places = first_cards(counts)
    assert len(places) == 6  # the Fools and tiers I–V
    bands = {tier: band_of(pdf, *places[tier], TIER_STRIPS) for tier in places}
    for one, other in combinations(bands, 2):
        delta_l, _pattern = difference(bands[one], bands[other])
        assert delta_l >= 9.0, (one, other, round(delta_l, 1))


def test_a_see_through_shape_lets_what_is_under_it_show(tmp_path):
    """A region's opacity is kept when its colour is set (a colour without alpha reset it to 1)."""
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: poker}\nlayout:\n"
        "  under: {type: shape, x: 0, y: 0, w: 63, h: 88, fill: '#000000'}\n"
        "  over: {type: shape, x: 0, y: 0, w: 63, h: 44, fill: '#ffffff', opacity: 0.5}\n"
        "cards: [{name: A}]\n",
        encoding="utf-8",
    )
    [pdf] = build_targets(resolve([str(deck)]), BuildOptions(out_dir=tmp_path / "out", card_pages=True))
    document = pdfium.PdfDocument(str(pdf))
    image = document[0].render(scale=1).to_pil().convert("L")
    document.close()
    width, height = image.size
    assert 110 <= image.getpixel((width // 2, height // 4)) <= 145  # half white over black: mid grey
    assert image.getpixel((width // 2, 3 * height // 4)) < 10
