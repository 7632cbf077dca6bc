"""The shipped Kardinal & König definition against RULES §1."""

from kkprint.games.kardinal.model import ROADS

COUNTS = {
    "france": 8,
    "saxony": 7,
    "castile": 7,
    "franconia": 7,
    "hungary": 6,
    "bavaria": 6,
    "italy": 6,
    "england": 5,
    "denmark": 4,
}
CHART_ORDER = ["france", "saxony", "hungary", "castile", "franconia", "bavaria", "italy", "england", "denmark"]


def test_card_counts_per_land(kardinal_game):
    assert {land.id: land.value for land in kardinal_game.lands} == COUNTS
    assert kardinal_game.total_cards == 56


def test_lands_are_in_chart_order(kardinal_game):
    assert [land.id for land in kardinal_game.lands] == CHART_ORDER


def test_names_in_three_languages(kardinal_game):
    france = kardinal_game.find_land("フランス")
    assert france is kardinal_game.find_land("Frankreich") is kardinal_game.find_land("france")
    assert kardinal_game.find_land("Dänemark") is kardinal_game.find_land("DANEMARK")
    assert kardinal_game.find_land("Atlantis") is None


def test_most_cards_carry_one_or_two_arms(kardinal_game):
    arms_per_card = [sum(land.arms_on(card).values()) for land in kardinal_game.lands for card in land.cards]
    assert max(arms_per_card) <= 2
    assert sum(1 for n in arms_per_card if n in (1, 2)) / len(arms_per_card) >= 0.85


def test_every_land_has_three_kinds_of_arms(kardinal_game):
    for land in kardinal_game.lands:
        kinds = {kind for card in land.cards for kind in land.arms_on(card)}
        assert len(kinds) >= 3, land.id


def test_roughly_a_third_carry_a_road(kardinal_game):
    ships, carriages = kardinal_game.road_total("ship"), kardinal_game.road_total("carriage")
    assert ships >= 8 and carriages >= 8
    assert 0.28 <= (ships + carriages) / 56 <= 0.4


def test_source_examples_stay_possible(kardinal_game):
    france = kardinal_game.find_land("France")
    assert france.kind_total("cross") >= 4 and france.kind_total("fan") >= 3
    assert france.best_possible("cross", 5) >= 4


def test_chips_and_tokens(kardinal_game):
    assert sum(chip.count for chip in kardinal_game.law_chips) == 8
    assert len(kardinal_game.law_chips) == 4
    assert kardinal_game.chip_count("minus_two") == 2
    assert len(kardinal_game.players) * kardinal_game.rights_tokens_per_player == 15


def test_no_card_has_two_roads(kardinal_game):
    for land in kardinal_game.lands:
        for card in land.cards:
            assert sum(1 for item in card if item in ROADS) <= 1


def test_every_land_has_its_own_mark_that_survives_greyscale(tmp_path, kardinal_game):
    """Lands of one value differ only in colour; a shape per land tells them apart in greyscale
    and for colour-blind players: rendered in grey, the marks of any two lands differ clearly."""
    import pypdfium2 as pdfium
    from PIL import ImageChops
    from reportlab.pdfgen.canvas import Canvas

    from kkprint.engine.icons import draw_icon
    from kkprint.games.kardinal.components import land_fields

    marks = [land_fields(kardinal_game, land, land.cards[0], "en")["mark"] for land in kardinal_game.lands]
    assert len(set(marks)) == len(kardinal_game.lands)
    layout = tmp_path / "marks.pdf"
    canvas = Canvas(str(layout), pagesize=(60 * len(marks), 60))
    for index, mark in enumerate(marks):
        draw_icon(canvas, mark, 60 * index + 5, 5, 50)
    canvas.save()
    document = pdfium.PdfDocument(str(layout))
    image = document[0].render(scale=2).to_pil().convert("L")
    document.close()
    tiles = [image.crop((120 * i, 0, 120 * i + 120, 120)) for i in range(len(marks))]
    for i in range(len(tiles)):
        for j in range(i + 1, len(tiles)):
            differing = ImageChops.difference(tiles[i], tiles[j]).point(lambda v: 255 if v > 80 else 0).histogram()[255]
            assert differing > 600, (marks[i], marks[j], differing)  # well over a tenth of a mark's area


def test_rights_tokens_and_law_chips_share_one_sheet_with_the_chips_backs_behind_them(tmp_path):
    from pypdf import PdfReader

    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    written = build_targets(resolve(["kardinal"]), BuildOptions(out_dir=tmp_path, lang="en"))
    [sheet] = [p for p in written if "tokens-chips" in p.name]
    reader = PdfReader(sheet)
    assert len(reader.pages) == 2  # one sheet and its back, not two three-quarters-empty sheets
    front, back = reader.pages[0].extract_text(), reader.pages[1].extract_text()
    assert front.count("Rights") == 15 and "Take back" in front and "victory" in front
    assert back.count("Law") == 8 and "Rights" not in back  # tokens have no back


def test_the_set_up_picture_shows_the_law_chips_face_down_as_their_back_prints(tmp_path):
    """The start file's picture draws the land cards and the law chips' backs into one page: each
    deck's faces are its own drawings (the chips' back once showed another deck's back, since
    both faces were called "back")."""
    import pypdfium2 as pdfium
    from PIL import Image, ImageChops

    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    written = build_targets(resolve(["kardinal"]), BuildOptions(out_dir=tmp_path, lang="en"))
    [start] = [p for p in written if "-start-" in p.name]
    document = pdfium.PdfDocument(str(start))
    try:
        page = document[0].render(scale=150 / 72).to_pil().convert("RGB")
    finally:
        document.close()
    tint = Image.new("RGB", page.size, "#e4d2d5")  # the law chip's back (data/kardinal/law-chip.yaml)
    red, green, blue = ImageChops.difference(page, tint).split()
    near = ImageChops.lighter(ImageChops.lighter(red, green), blue).point(lambda v: 255 if v < 8 else 0)
    chip = (25 / 5 / 25.4 * 150) ** 2  # a 25 mm chip in a picture drawn at a fifth, in pixels at 150 dpi
    assert near.histogram()[255] > 8 * chip * 0.75  # eight chips, each mostly its tint
