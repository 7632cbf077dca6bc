"""The deck studio without a browser: its JSON, pictures and sheets through Starlette's test client,
with the real watcher noticing real saves in a copy of an example deck. What changes is drawn
again and nothing else; errors keep the last good cards and name file, line, card and region;
no request, however odd, makes it answer 5xx. The page itself is tested in Chromium in
test_studio_browser.py."""

import io
import os
import re
import shutil
import time
from pathlib import Path

import pytest
from conftest import ROOT, assert_clean_error, free_port, run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from starlette.testclient import TestClient

from kkprint.web.security import HEADERS
from kkprint.web.studio.app import create_app
from kkprint.web.studio.state import Studio

LOCAL = "http://127.0.0.1"
HEIST = ROOT / "examples" / "decks" / "heist"


@pytest.fixture
def heist(tmp_path):
    """A copy of the heist example to edit."""
    folder = tmp_path / "heist"
    shutil.copytree(HEIST, folder)
    return folder


def open_studio(deck, lang="en"):
    client = TestClient(create_app(Studio(deck)), base_url=LOCAL, raise_server_exceptions=False)
    client.cookies.set("lang", lang)
    return client


@pytest.fixture
def studio(heist):
    with open_studio(heist / "heist.yaml") as client:
        settled(client)
        yield client


def settled(client, after=0):
    """The deck once the studio has read it again after version ``after`` and drawn what changed
    (the watcher notices a save within a fraction of a second; 60 s is only a guard)."""
    deadline = time.monotonic() + 60
    while True:
        deck = client.get("/api/deck").json()
        if deck["version"] > after and not deck["busy"]:
            return deck
        assert time.monotonic() < deadline, f"the studio did not settle: {deck['version']} {deck['busy']}"
        time.sleep(0.05)


def settled_until(client, after, done, seconds=60):
    """The deck once settled after version ``after`` and ``done(deck)`` (the files of one change,
    written one after the other, may be seen as two changes)."""
    deadline = time.monotonic() + seconds
    while True:
        deck = client.get("/api/deck").json()
        if deck["version"] > after and not deck["busy"] and done(deck):
            return deck
        assert time.monotonic() < deadline, f"the studio did not settle as expected: {deck['errors']}"
        time.sleep(0.05)


def save(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def pictures(deck):
    return {(card["index"], side): card[side] for card in deck["cards"] for side in ("front", "back")}


def png_size(client, url):
    answer = client.get(url)
    assert answer.status_code == 200 and answer.headers["content-type"] == "image/png"
    return Image.open(io.BytesIO(answer.content)).size


# -- the deck ---------------------------------------------------------------------------------


def test_every_card_is_shown_front_and_back_as_its_first_copy_prints(studio):
    deck = studio.get("/api/deck").json()
    csv_rows = (HEIST / "items.csv").read_text(encoding="utf-8").splitlines()[1:]
    assert [card["title"] for card in deck["cards"]] == [row.split(",")[0] for row in csv_rows]
    assert [card["number"] for card in deck["cards"]] == [1, 5, 9, 11, 13, 15, 16, 19, 20, 21]
    assert deck["layouts"] == ["item", "plan"] and "crew" in deck["columns"]
    assert deck["card"] == {"w": 63.0, "h": 88.0, "shape": "rect", "corner": 3.0}
    assert deck["errors"] == [] and all(card["current"] for card in deck["cards"])
    for card in deck["cards"]:
        width, height = png_size(studio, card["front"])
        assert abs(width / height - 63 / 88) < 0.01 and height >= 600
        assert png_size(studio, card["back"]) == (width, height)
    # two cards of one crew share a back: one picture, drawn once
    muscle = [card["back"] for card in deck["cards"] if card["fields"]["crew"] == "Muscle"]
    assert len(muscle) == 3 and len(set(muscle)) == 1
    assert deck["drawn"] == len({url for url in pictures(deck).values()})


def test_a_changed_cell_redraws_that_card_only(studio, heist):
    before = studio.get("/api/deck").json()
    save(heist / "items.csv", "Crowbar,item,Tool,Muscle,1,", "Crowbar,item,Tool,Muscle,3,")
    after = settled(studio, before["version"])
    changed = {face for face, url in pictures(after).items() if url != pictures(before)[face]}
    assert changed == {(1, "front")}  # the back shows crew and colour, not the cost
    assert after["drawn"] - before["drawn"] == 1
    assert next(card for card in after["cards"] if card["index"] == 1)["fields"]["cost"] == "3"


def test_art_icons_and_backs_redraw_exactly_the_cards_that_use_them(studio, heist):
    before = studio.get("/api/deck").json()
    uses_vault = {card["index"] for card in before["cards"] if card["fields"]["art"] == "vault"}
    save(heist / "art" / "vault.svg", "</svg>", '<circle cx="5" cy="5" r="4" fill="#ff0000"/></svg>')
    after = settled(studio, before["version"])
    changed = {face for face, url in pictures(after).items() if url != pictures(before)[face]}
    assert changed == {(index, "front") for index in uses_vault}

    save(heist / "heist.yaml", 'text: "<b>HEIST</b> <i>crew deck</i>"', 'text: "<b>HEIST</b> <i>crew</i>"')
    again = settled(studio, after["version"])
    changed = {face for face, url in pictures(again).items() if url != pictures(after)[face]}
    assert changed == {(card["index"], "back") for card in after["cards"]}
    assert again["drawn"] - after["drawn"] == len(
        {card["fields"]["crew"] + card["fields"]["colour"] for card in after["cards"]}
    )


def test_a_picture_an_svg_refers_to_is_one_of_its_cards_inputs(heist):
    def picture(colour):
        out = io.BytesIO()
        Image.new("RGB", (40, 30), colour).save(out, format="PNG")
        (heist / "art" / "inlay.png").write_bytes(out.getvalue())

    def inks(client, url):  # (strong red, strong blue) pixels of a card's picture
        with Image.open(io.BytesIO(client.get(url).content)) as shown:
            data = shown.convert("RGB").tobytes()
        colours = list(zip(data[0::3], data[1::3], data[2::3]))
        return sum(r > 200 and g < 60 and b < 60 for r, g, b in colours), sum(
            b > 200 and r < 60 and g < 60 for r, g, b in colours
        )

    picture("#ff0000")
    save(heist / "art" / "vault.svg", "</svg>", '<image x="0" y="0" width="40" height="30" href="inlay.png"/></svg>')
    with open_studio(heist / "heist.yaml") as client:
        before = settled(client)
        picture("#0000ff")
        after = settled(client, before["version"])
        vault = next(card["index"] for card in before["cards"] if card["fields"]["art"] == "vault")
        # the card drawn again shows the new inlay: the SVG, unchanged, was kept with the old one
        (red_before, blue_before), (red_after, blue_after) = (
            inks(client, pictures(seen)[(vault, "front")]) for seen in (before, after)
        )
        assert red_before > 100 and blue_after > blue_before + 100 and red_after < red_before - 100
    changed = {face for face, url in pictures(after).items() if url != pictures(before)[face]}
    assert changed == {(card["index"], "front") for card in before["cards"] if card["fields"]["art"] == "vault"}


def test_one_layout_changed_redraws_its_cards_and_not_the_others(studio, heist):
    before = studio.get("/api/deck").json()
    save(heist / "heist.yaml", 'fill: "#ffd166", stroke: "#1d2b53"', 'fill: "#06d6a0", stroke: "#1d2b53"')
    after = settled(studio, before["version"])
    changed = {face for face, url in pictures(after).items() if url != pictures(before)[face]}
    assert changed == {(card["index"], "front") for card in before["cards"] if card["layout"] == "plan"}


def test_a_broken_deck_keeps_its_cards_and_says_where_until_it_is_fixed(studio, heist):
    before = studio.get("/api/deck").json()
    save(heist / "heist.yaml", "name: heist-items\n", "name: heist-items\ncard: [\n")
    broken = settled(studio, before["version"])
    [problem] = broken["errors"]
    assert problem["file"].endswith("heist.yaml") and re.fullmatch(r"line (7|8|9), column \d+", problem["place"])
    assert "not valid YAML" in problem["message"] and problem["card"] is None
    assert pictures(broken) == pictures(before)
    save(heist / "heist.yaml", "name: heist-items\ncard: [\n", "name: heist-items\n")
    fixed = settled(studio, broken["version"])
    assert fixed["errors"] == [] and pictures(fixed) == pictures(before)
    assert fixed["drawn"] == before["drawn"]  # its pictures were kept: nothing drawn again


def test_every_region_mistake_of_a_deck_that_cannot_load_is_listed(studio, heist):
    """Two regions' expressions that do not parse: both are listed, each with its region and
    line (the first alone was), and the cards keep their pictures until they are mended."""
    before = studio.get("/api/deck").json()
    save(heist / "heist.yaml", 'text: "${name}"', 'text: "${name +}"')
    save(heist / "heist.yaml", 'text: "<i>${type}</i>"', 'text: "<i>${type *}</i>"')
    broken = settled(studio, before["version"])
    assert [(problem["message"].split("'")[1], "line" in problem["place"]) for problem in broken["errors"]] == [
        ("name +", True),
        ("type *", True),
    ], broken["errors"]
    assert pictures(broken) == pictures(before)


def test_a_card_that_cannot_be_drawn_keeps_its_last_picture_and_names_row_region_and_line(heist):
    with open_studio(heist / "heist.yaml", lang="ja") as client:
        before = settled(client)
        save(heist / "items.csv", "#b71c1c,vault,2", "#b71cZZ,vault,2")
        broken = settled(client, before["version"])
        [problem] = broken["errors"]
        assert problem["card"] == 1 and problem["file"].endswith("heist.yaml")
        assert "items.csv" in problem["place"] and "「banner」" in problem["place"] and "30行目" in problem["place"]
        assert "#b71cZZ" in problem["message"] and "色" in problem["message"]  # in the reader's language
        crowbar = broken["cards"][1]
        assert crowbar["error"] and not crowbar["current"] and crowbar["front"] == before["cards"][1]["front"]
        assert [card["front"] for card in broken["cards"][2:]] == [card["front"] for card in before["cards"][2:]]
        save(heist / "items.csv", "#b71cZZ,vault,2", "#b71c1c,vault,2")
        fixed = settled(client, broken["version"])
        assert fixed["errors"] == [] and fixed["cards"][1]["current"]


def test_an_art_file_mended_clears_the_error_it_caused(studio, heist):
    """A broken SVG marks the cards that show it; once it is mended and they are drawn again,
    nothing is wrong with them — the error they had stayed, carried over as the one of a face
    still to be drawn, after the face had been drawn without it."""
    art = heist / "art" / "blueprint.svg"
    good = art.read_bytes()
    before = settled(studio)
    art.write_text("<svg><g>not closed", encoding="utf-8")
    broken = settled(studio, before["version"])
    assert broken["errors"] and any(card["error"] for card in broken["cards"])
    art.write_bytes(good)
    os.utime(art, (time.time() + 5, time.time() + 5))  # (another time than the broken file's)
    mended = settled(studio, broken["version"])
    assert mended["errors"] == [] and not any(card["error"] for card in mended["cards"]), mended["errors"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_art_files_error_is_listed_once_naming_that_file_and_every_path_as_messages_show_it(
    heist, monkeypatch, lang
):
    """A broken SVG used by six cards is one problem, of that SVG (not of the deck), that says
    how many cards use it (one of which has another error first, listed too); each card still
    says it, opened large; the deck, the SVG and the CSV are named relative to the folder the
    studio runs in, as every message names files."""
    monkeypatch.chdir(heist.parent)
    with open_studio(Path("heist") / "heist.yaml", lang=lang) as client:
        before = settled(client)
        vault = [card["index"] for card in before["cards"] if card["fields"]["art"] == "vault"]
        assert before["file"] == os.path.join("heist", "heist.yaml")
        (heist / "art" / "vault.svg").write_text("<svg><g>not closed", encoding="utf-8")
        save(heist / "items.csv", "#b71c1c,vault,2", "#b71cZZ,vault,2")  # (Crowbar, a vault card)
        broken = settled(client, before["version"])
        [problem, colour] = broken["errors"]
        assert colour["card"] == 1 and "#b71cZZ" in colour["message"] and colour["file"].endswith("heist.yaml")
        assert problem["file"] == os.path.join("heist", "art", "vault.svg") and problem["cards"] == vault
        assert problem["card"] == vault[0] and "6" in problem["place"] and "vault.svg" not in problem["message"]
        assert problem["line"].startswith(problem["file"] + ": ")
        assert ("used on 6 cards" if lang == "en" else "6枚") in problem["place"]
        assert sum(1 for card in broken["cards"] if card["error"]) == 6
        opened = client.get(f"/api/cards/{vault[2]}").json()["error"]
        assert opened["file"] == problem["file"] and opened["card"] == vault[2]
        assert ("region 'art'" if lang == "en" else "「art」") in opened["place"]
        save(heist / "items.csv", "Crowbar,item,Tool,Muscle,1,", 'Crowbar,item,Tool,Muscle,1,"')
        unreadable = settled(client, broken["version"])
        assert unreadable["errors"][0]["file"] == os.path.join("heist", "items.csv")  # (then the cards' kept)
        save(heist / "items.csv", 'Crowbar,item,Tool,Muscle,1,"', "Crowbar,item,Tool,Muscle,1,")
        save(heist / "heist.yaml", "card: {size: poker}", "card: {size: poker")
        invalid = settled(client, unreadable["version"])
        assert invalid["errors"][0]["file"] == os.path.join("heist", "heist.yaml")


SAME_NAMES_DECK = """name: same-names
card: {size: poker}
layout:
  title: {type: text, x: 5, y: 5, w: 53, h: 8, field: name, size: 12}
  art: {type: image, x: 4, y: 16, w: 55, h: 30, src: "art/${art}.svg"}
cards:
  - {name: Refers, art: a/x}
  - {name: Broken, art: b/x}
  - {name: Also, art: b/x}
  - {name: Roundabout, art: a/../b/x}
  - {name: Fine, art: c/x}
"""
SQUARE = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/>{}</svg>'


def test_a_files_error_names_that_file_by_its_real_path_among_files_of_the_same_name(tmp_path):
    """Three art files called x.svg: art/a/x.svg shows art/b/x.svg inside it, and a fourth card
    names art/b/x.svg the long way round. art/b/x.svg broken is one problem, of that file, on the
    four cards that draw it (art/a/x.svg was named for its card, by its name alone, and
    art/b/x.svg's count left that card and the roundabout one out, listed apart); art/a/x.svg
    itself broken, still naming art/b/x.svg, is its own problem, on its one card."""
    folder = tmp_path / "same"
    for sub in ("a", "b", "c"):
        (folder / "art" / sub).mkdir(parents=True)
    refers = '<image x="0" y="0" width="5" height="5" href="../b/x.svg"/>'
    (folder / "art" / "a" / "x.svg").write_text(SQUARE.format(refers), encoding="utf-8")
    (folder / "art" / "b" / "x.svg").write_text("<svg><g>not closed", encoding="utf-8")
    (folder / "art" / "c" / "x.svg").write_text(SQUARE.format(""), encoding="utf-8")
    deck = folder / "same.yaml"
    deck.write_text(SAME_NAMES_DECK, encoding="utf-8")
    with open_studio(deck) as client:
        broken = settled(client)
        [problem] = broken["errors"]
        assert problem["file"].endswith(os.path.join("same", "art", "b", "x.svg")), problem
        assert problem["cards"] == [0, 1, 2, 3] and "used on 4 cards" in problem["place"]
        assert "x.svg" not in problem["message"] and "well-formed" in problem["message"]
        for index in range(4):
            assert client.get(f"/api/cards/{index}").json()["error"]["file"] == problem["file"]
        assert client.get("/api/cards/4").json()["error"] is None
        (folder / "art" / "b" / "x.svg").write_text(SQUARE.format(""), encoding="utf-8")
        (folder / "art" / "a" / "x.svg").write_text(f"<svg>{refers}<g>not closed", encoding="utf-8")
        again = settled_until(client, broken["version"], lambda deck: len(deck["errors"]) == 1)
        [problem] = again["errors"]
        assert problem["file"].endswith(os.path.join("same", "art", "a", "x.svg")), problem
        assert problem["cards"] == [0] and [card["index"] for card in again["cards"] if card["error"]] == [0]


def test_a_card_opened_large_names_its_regions_lines_and_data_row(studio, heist):
    card = studio.get("/api/cards/1").json()  # Crowbar: an item, noise 2, card number 5, no flavour
    assert card["title"] == "Crowbar" and card["number"] == 5 and card["count"] == 4
    assert card["origin"] == "items.csv row 3"
    assert dict(card["fields"])["rules"].startswith("<b>Force</b> a {lock}")
    regions = {region["name"]: region for region in card["front"]["regions"]}
    assert list(regions)[:5] == ["banner", "frame", "title", "text", "footer"]  # the template's, then the deck's
    lines = (heist / "heist.yaml").read_text(encoding="utf-8").splitlines()
    for name in ("cost", "art", "loud", "starter", "title"):
        region = regions[name]
        assert region["section"] == "layouts.item"
        assert lines[region["line"] - 1].strip().startswith(f"{name}:") and region["source"].startswith(f"{name}:")
    assert regions["cost"]["source"].splitlines()[1].strip().startswith("align: right")  # the line it goes on to
    assert regions["loud"]["drawn"] and regions["loud"]["box"] == [52, 40, 7, 7]
    assert not regions["flavour"]["drawn"] and regions["flavour"]["why"] == "when: flavour != ''"
    assert not regions["starter"]["drawn"] and regions["starter"]["why"] == "cards: 1-4"
    back = {region["name"]: region for region in card["back"]["regions"]}
    assert card["back"]["section"] == "back" and list(back) == ["fill", "badge", "icon", "crew", "game"]
    plan = studio.get("/api/cards/8").json()  # a plan: its stamp is its own, its title the item's
    plan_regions = {region["name"]: region for region in plan["front"]["regions"]}
    assert plan_regions["stamp"]["section"] == "layouts.plan" and plan_regions["title"]["section"] == "layouts.item"


def test_a_region_only_in_a_template_says_so(tmp_path):
    deck = tmp_path / "mini.yaml"
    deck.write_text(
        "name: mini\nextends: poker\nlayout:\n  title: {colour: '#000000'}\ncards:\n  - {name: A, text: one}\n",
        encoding="utf-8",
    )
    with open_studio(deck) as client:
        settled(client)
        regions = {region["name"]: region for region in client.get("/api/cards/0").json()["front"]["regions"]}
    assert regions["title"]["line"] == 4 and regions["title"]["section"] == "layout"
    assert regions["frame"]["line"] is None and regions["frame"]["section"] is None


SMALL_TEXT_DECK = """name: small
card: {size: poker}
data: cards.csv
layout:
  title: {type: text, x: 5, y: 5, w: 53, h: 8, field: name, size: 12}
  rules: {type: text, x: 5, y: 60, w: 53, h: 10, field: rules, size: 9, min_size: 3}
  badge: {type: text, x: "${at}", y: 20, w: 10, h: 6, text: "${card.number}/${card.total}", size: 8}
"""
LONG_RULES = " ".join(["Sneak past the guard and take the key from the hook"] * 6)


def small_text_deck(folder):
    """Three cards; the second's rules shrink to 4.5 pt to fit (under the 6 pt that reads)."""
    folder.mkdir()
    (folder / "cards.csv").write_text(
        f'name,rules,at\nShort,A few words.,5\nLong,"{LONG_RULES}",30\nPlain,Also short.,48\n', encoding="utf-8"
    )
    deck = folder / "small.yaml"
    deck.write_text(SMALL_TEXT_DECK, encoding="utf-8")
    return deck


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_card_with_text_too_small_shows_that_warning_on_that_card_only(tmp_path, lang):
    """The preflight watches the studio's drawing: the card whose text shrinks under 6 pt says so
    — in its tile's count and its large view, region and line named — and still shows its
    picture (a warning, not an error); the others say nothing; shorter rules take it away."""
    deck = small_text_deck(tmp_path / "small")
    with open_studio(deck, lang=lang) as client:
        shown = settled(client)
        assert [card["warnings"] for card in shown["cards"]] == [0, 1, 0] and shown["errors"] == []
        assert all(card["front"] and card["current"] and card["error"] is None for card in shown["cards"])
        long = client.get("/api/cards/1").json()
        [warning] = long["warnings"]
        assert (warning["kind"], warning["region"], warning["severity"], warning["face"]) == (
            "small-text",
            "rules",
            "warning",
            "layout",
        )
        assert warning["card"] == 2 and warning["line"] == 6 and long["error"] is None
        if lang == "en":
            assert warning["text"] == (
                "region 'rules' (line 6): text shrinks to 4.5 pt to fit its box, below the 6 pt that still reads; "
                "give it a larger box or fewer words"
            )
        else:
            assert (
                "「rules」" in warning["text"]
                and "4.5" in warning["text"]
                and not re.search("[A-Za-z]{4,}", warning["message"])
            )
        assert client.get("/api/cards/0").json()["warnings"] == []
        save(deck.parent / "cards.csv", LONG_RULES, "Sneak past.")
        fixed = settled(client, shown["version"])
        assert [card["warnings"] for card in fixed["cards"]] == [0, 0, 0]
        assert client.get("/api/cards/1").json()["warnings"] == []


def test_a_column_no_card_has_is_the_decks_error_and_each_cards(tmp_path):
    deck = small_text_deck(tmp_path / "small")
    save(deck, "field: name, size: 12", 'text: "${nmae}", size: 12')
    with open_studio(deck) as client:
        shown = settled(client)
        [problem] = shown["errors"]
        assert problem["card"] is None and "region 'title' (line 5)" in problem["place"]
        assert problem["message"] == "no card has a column 'nmae'; did you mean 'name'?"
        for index in range(3):
            said = [(w["kind"], w["severity"]) for w in client.get(f"/api/cards/{index}").json()["warnings"]]
            assert said[0] == ("missing-column", "error")


def test_a_column_no_card_has_keeps_every_cards_last_good_picture_until_it_is_mended(studio, heist):
    """A title made to read a column that is not there would draw every card with its title
    blank: while the error stands, each card keeps the picture it had (said to be out of date,
    and why); a face whose inputs change is drawn all the same, off screen, for what else is wrong
    with it; mended, the same pictures are the deck's again, drawn no more."""
    before = studio.get("/api/deck").json()
    save(heist / "heist.yaml", 'field: null, text: "${name}"', 'field: null, text: "${nmae}"')
    broken = settled(studio, before["version"])
    [problem] = broken["errors"]
    assert problem["card"] is None and "'nmae'" in problem["message"] and "region 'title'" in problem["place"]
    assert pictures(broken) == pictures(before)
    assert not any(card["current"] for card in broken["cards"])  # (every front shows the title)
    assert all(card["held"] for card in broken["cards"])  # (kept for the column, not still to be drawn)
    assert [card["title"] for card in broken["cards"]] == [card["title"] for card in before["cards"]]
    save(heist / "items.csv", "Crowbar,item,Tool,Muscle,1,", "Crowbar,item,Tool,Muscle,3,")  # while it stands
    still = settled(studio, broken["version"])
    assert pictures(still) == pictures(before) and still["errors"] == broken["errors"]
    assert still["last_drawn"] == [[1, "front"]]  # (checked: shown once the column is mended)
    save(heist / "heist.yaml", 'field: null, text: "${nmae}"', 'field: null, text: "${name}"')
    mended = settled(studio, still["version"])
    assert mended["errors"] == [] and all(card["current"] for card in mended["cards"])
    assert not any(card["held"] for card in mended["cards"])
    changed = {face for face, url in pictures(mended).items() if url != pictures(before)[face]}
    assert changed == {(1, "front")} and mended["drawn"] == still["drawn"] + 1  # only the cell changed since


def test_while_a_column_error_stands_every_other_problem_is_found_and_listed_at_once(studio, heist):
    """A column no card has keeps the fronts that read it as they last drew, but a second mistake
    made meanwhile is listed as soon as it is saved, with the column's, on the cards it is on: an
    SVG broken by an edit (six cards), a card's picture that is not there. A face that reads no
    such column (a back whose colour changed) is drawn and shown as it is now. Mended, the column
    lets every face be drawn again and the other problems stay listed until they are mended too."""
    before = studio.get("/api/deck").json()
    vault = [card["index"] for card in before["cards"] if card["fields"]["art"] == "vault"]
    save(heist / "heist.yaml", 'field: null, text: "${name}"', 'field: null, text: "${nmae}"')
    held = settled(studio, before["version"])
    [column] = held["errors"]
    good_svg = (heist / "art" / "vault.svg").read_bytes()
    (heist / "art" / "vault.svg").write_text("<svg><g>not closed", encoding="utf-8")
    save(heist / "items.csv", "#b71c1c,blueprint,1", "#b71c1c,safe,1")  # (Grappling Hook: no art/safe.svg)
    save(heist / "items.csv", "Disguise Kit,item,Gear,Face,2,2,#6a1b9a", "Disguise Kit,item,Gear,Face,2,2,#00897b")
    three = settled_until(studio, held["version"], lambda deck: len(deck["errors"]) == 3, seconds=30)
    first, art, picture = three["errors"]
    assert first == column
    assert art["file"].endswith(os.path.join("art", "vault.svg")) and art["cards"] == vault
    assert "used on 6 cards" in art["place"] and "well-formed" in art["message"]
    assert picture["card"] == 2 and "art/safe.svg" in picture["message"], picture
    assert {card["index"] for card in three["cards"] if card["error"]} == {*vault, 2}
    assert [card["front"] for card in three["cards"]] == [card["front"] for card in before["cards"]]
    backs = {card["index"]: card["back"] for card in three["cards"]}
    assert [index for index, back in backs.items() if back != before["cards"][index]["back"]] == [3]
    opened = studio.get("/api/cards/0").json()
    assert opened["error"]["file"] == art["file"] and opened["front"]["picture"] == before["cards"][0]["front"]
    assert [w["kind"] for w in opened["warnings"] if w["severity"] == "error"][:1] == ["missing-column"]

    save(heist / "heist.yaml", 'field: null, text: "${nmae}"', 'field: null, text: "${name}"')
    mended = settled_until(studio, three["version"], lambda deck: len(deck["errors"]) == 2, seconds=30)
    assert mended["errors"][0]["cards"] == vault and mended["errors"][1]["card"] == 2
    fine = [card for card in mended["cards"] if card["index"] not in {*vault, 2}]
    assert all(card["current"] and not card["held"] for card in fine)
    assert next(card for card in mended["cards"] if card["index"] == 3)["back"] == backs[3]
    (heist / "art" / "vault.svg").write_bytes(good_svg)
    os.utime(heist / "art" / "vault.svg", (time.time() + 5, time.time() + 5))
    save(heist / "items.csv", "#b71c1c,safe,1", "#b71c1c,blueprint,1")
    clear = settled_until(studio, mended["version"], lambda deck: deck["errors"] == [], seconds=30)
    assert all(card["current"] for card in clear["cards"])


def test_what_a_region_makes_of_a_missing_column_is_said_once_by_the_columns_error(studio, heist):
    """A picture's path made to read a column that is not there names 'art/.svg' on every card:
    the column's error says so once, for the region, and no card's error repeats it (the cards
    drawn again for what else is wrong would list ten); a card's own mistake meanwhile is listed."""
    before = studio.get("/api/deck").json()
    save(heist / "heist.yaml", 'src: "art/${art}.svg"', 'src: "art/${atr}.svg"')
    save(heist / "items.csv", "#b71c1c,vault,2", "#b71cZZ,vault,2")  # (Crowbar's colour)
    held = settled_until(studio, before["version"], lambda deck: len(deck["errors"]) > 1, seconds=30)
    column, colour = held["errors"]
    assert "'atr'" in column["message"] and "region 'art'" in column["place"] and column["card"] is None
    assert colour["card"] == 1 and "#b71cZZ" in colour["message"]
    assert [card["index"] for card in held["cards"] if card["error"]] == [1]
    assert pictures(held) == pictures(before)  # (Crowbar's back, drawn again, has the colour wrong too)


def test_a_region_an_expression_places_is_outlined_where_each_card_puts_it(tmp_path):
    deck = small_text_deck(tmp_path / "small")
    with open_studio(deck) as client:
        settled(client)
        for index, x in enumerate([5, 30, 48]):
            regions = {r["name"]: r for r in client.get(f"/api/cards/{index}").json()["front"]["regions"]}
            assert regions["badge"]["box"] == [x, 20, 10, 6] and regions["badge"]["drawn"]


def test_tables_and_expressions_in_number_keys_are_a_faces_inputs(tmp_path):
    """deckexpr's decks: an edited expression in a number key (not the stand-in value it is
    checked with) and an edited table redraw the faces that use them, and only those."""
    folder = tmp_path / "summits"
    shutil.copytree(ROOT / "examples" / "decks" / "summits", folder)
    with open_studio(folder / "summits.yaml") as client:
        before = settled(client)
        fronts = {card["index"]: card["front"] for card in before["cards"]}
        save(folder / "summits.yaml", 'w: "${max(2.6, 36 * height / 9000)}"', 'w: "${max(3, 36 * height / 9000)}"')
        edited = settled(client, before["version"])
        assert sorted(edited["last_drawn"]) == [[index, "front"] for index in range(9)]  # the backs draw no bar
        assert all(card["front"] != fronts[card["index"]] for card in edited["cards"])
        save(folder / "ranges.csv", "andes,Andes · South America,#9a5b13", "andes,Andes · South America,#000000")
        recoloured = settled(client, edited["version"])  # every face looks a range up: every one is new
        assert [face for face in sorted(recoloured["last_drawn"]) if face[1] == "front"] == [
            [index, "front"] for index in range(9)
        ]
        assert all(card["back"] not in {c["back"] for c in edited["cards"]} for card in recoloured["cards"])
        assert recoloured["errors"] == []


def test_the_sheets_are_the_build_page_by_page(studio):
    sheets = studio.get("/api/sheets").json()
    assert sheets["backs"] == "long-edge"
    sides = [page["side"] for page in sheets["pages"]]
    assert sides == ["front", "back"] * 3  # 21 cards, 9 a sheet: three sheets, each with its backs
    assert [page["sheet"] for page in sheets["pages"]] == [1, 1, 2, 2, 3, 3]
    width, height = png_size(studio, sheets["pages"][1]["url"])
    assert abs(width / height - 210 / 297) < 0.01
    letter = studio.get("/api/sheets?paper=letter&backs=none").json()
    assert [page["side"] for page in letter["pages"]] == ["front"] * 3 and letter["pages"][0]["w"] == 215.9
    folded = studio.get("/api/sheets?backs=fold").json()
    assert {page["side"] for page in folded["pages"]} == {"fold"}


def test_while_the_deck_does_not_build_the_sheets_are_its_last_good_ones(studio, heist):
    """A column no card has (or a broken SVG) stops the build: the sheet view keeps the sheets
    last built for that paper and backs, their pages still there, said to be out of date; a
    paper never built while it stands has none; mended, the sheets are built again."""
    good = studio.get("/api/sheets").json()
    letter = studio.get("/api/sheets?paper=letter").json()
    before = settled(studio)
    save(heist / "heist.yaml", 'field: null, text: "${name}"', 'field: null, text: "${nmae}"')
    broken = settled(studio, before["version"])
    answer = studio.get("/api/sheets")
    assert answer.status_code == 200, answer.text  # (it was 422: the error, and no sheets)
    kept = answer.json()
    assert kept["stale"] is True and "'nmae'" in kept["error"]
    assert kept["key"] == good["key"] and kept["pages"] == good["pages"]
    assert png_size(studio, kept["pages"][3]["url"])[0] > 1000
    assert studio.get("/api/sheets?paper=letter").json()["key"] == letter["key"]
    refused = studio.get("/api/sheets?paper=a3")  # (never built: nothing to keep)
    assert refused.status_code == 422 and "'nmae'" in refused.json()["error"]
    save(heist / "heist.yaml", 'field: null, text: "${nmae}"', 'field: null, text: "${name}"')
    settled(studio, broken["version"])
    again = studio.get("/api/sheets").json()
    assert again["stale"] is False and again["error"] is None and again["key"] != good["key"]
    assert len(again["pages"]) == len(good["pages"])


def test_a_deck_that_does_not_build_is_built_once_for_each_version(studio, heist, monkeypatch):
    """The sheet view asked again for a deck version that did not build answers with what that
    build said (the last good sheets, or the error) without building it again, as a version
    that built is not built again; a new version of the deck is tried again."""
    from kkprint.web.studio import sheets

    builds = []
    build_targets = sheets.build_targets

    def counted(*args, **kwargs):
        builds.append(args)
        return build_targets(*args, **kwargs)

    monkeypatch.setattr(sheets, "build_targets", counted)
    good = studio.get("/api/sheets").json()
    assert studio.get("/api/sheets").json() == good and len(builds) == 1
    before = settled(studio)
    save(heist / "heist.yaml", 'field: null, text: "${name}"', 'field: null, text: "${nmae}"')
    broken = settled(studio, before["version"])
    kept = studio.get("/api/sheets").json()
    assert kept["stale"] is True and "'nmae'" in kept["error"] and len(builds) == 2
    refused = studio.get("/api/sheets?paper=a3")
    assert refused.status_code == 422 and len(builds) == 3
    for _ in range(3):  # (the same version: what its builds said, and nothing built)
        assert studio.get("/api/sheets").json() == kept
        again = studio.get("/api/sheets?paper=a3")
        assert (again.status_code, again.json()) == (422, refused.json())
    assert len(builds) == 3
    save(heist / "items.csv", "Crowbar,item,Tool,Muscle,1,", "Crowbar,item,Tool,Muscle,3,")  # (still broken)
    settled(studio, broken["version"])
    assert studio.get("/api/sheets").json()["key"] == good["key"] and len(builds) == 4  # a new version: tried


def test_while_the_deck_file_cannot_be_read_the_sheets_shown_are_said_to_be_out_of_date(studio, heist):
    """A deck file that cannot be read keeps the deck read before: its sheets were built again
    under a new key and shown as the pages that will print (stale False, no error)."""
    good = studio.get("/api/sheets").json()
    before = settled(studio)
    text = (heist / "heist.yaml").read_text(encoding="utf-8")
    (heist / "heist.yaml").write_text(text + "\nbroken: [\n", encoding="utf-8")
    broken = settled(studio, before["version"])
    kept = studio.get("/api/sheets").json()
    assert kept["stale"] is True and kept["error"] and kept["key"] == good["key"], kept
    assert studio.get("/api/sheets?paper=a3").status_code == 422  # (never built: nothing to keep)
    (heist / "heist.yaml").write_text(text, encoding="utf-8")
    settled(studio, broken["version"])
    assert studio.get("/api/sheets").json()["stale"] is False


# -- bad input --------------------------------------------------------------------------------


def test_bad_requests_get_a_4xx_and_one_line(studio):
    for path in ("/api/cards/10", "/api/cards/99999999999999999999999999", "/api/cards/-1", "/api/cards/x"):
        answer = studio.get(path)
        assert answer.status_code == 404, path
    assert studio.get("/api/cards/10").json() == {"error": "no such card in the deck"}
    for path in ("/pictures/" + "0" * 32 + ".png", "/pictures/../../etc/passwd.png", "/sheets/nokey/0.png"):
        assert studio.get(path).status_code == 404, path
    assert studio.get("/sheets/" + studio.get("/api/sheets").json()["key"] + "/99999999999.png").status_code == 404
    answer = studio.get("/api/sheets?paper=a0")
    assert answer.status_code == 422 and "a0" in answer.json()["error"]
    assert studio.get("/api/sheets?backs=sideways").status_code == 422
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        answer = studio.request(method, "/api/deck", json={})
        assert answer.status_code == 405, method
        assert studio.request(method, "/api/deck", data={"a": "1"}).status_code == 415
    answer = studio.get("/api/deck", headers={"host": "evil.example"})
    assert answer.status_code == 421 and answer.json() == {"error": "the deck studio does not answer to that address"}
    answer = studio.post("/api/deck", json={}, headers={"origin": "http://evil.example"})
    assert answer.status_code == 403 and "deck studio" in answer.json()["error"]


def test_every_answer_carries_the_security_headers(studio):
    deck = studio.get("/api/deck").json()
    paths = ["/", "/api/deck", "/api/cards/0", "/api/cards/77", deck["cards"][0]["front"], "/static/studio/studio.js"]
    for path in paths:
        answer = studio.get(path)
        for name, value in HEADERS:
            assert answer.headers[name.decode()] == value.decode(), (path, name)
    with studio.stream("GET", "/api/events") as events:
        assert events.headers["content-type"].startswith("text/event-stream")
        assert events.headers["content-security-policy"].startswith("default-src 'self'")
        first = next(line for line in events.iter_lines() if line.startswith("data:"))
        assert '"version"' in first


TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=40)  # what a URL can carry
NUMBERS = st.integers(min_value=-(10**30), max_value=10**30).map(str)
PATHS = st.one_of(
    st.sampled_from(["/api/cards/", "/pictures/", "/sheets/", "/api/sheets?paper=", "/api/sheets?backs=", "/"]).flatmap(
        lambda prefix: st.one_of(TEXT, NUMBERS).map(lambda tail: prefix + tail)
    ),
    st.tuples(TEXT, NUMBERS).map(lambda parts: f"/sheets/{parts[0]}/{parts[1]}.png"),
    TEXT.map(lambda text: "/" + text),
).filter(lambda path: not path.startswith("//"))  # (a client reads "//x" as a host: it never reaches the studio)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=PATHS, method=st.sampled_from(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]))
def test_no_request_makes_the_studio_answer_5xx(studio, path, method):
    if path.split("?")[0].rstrip("/") == "/api/events":
        return  # an endless stream, tested above
    answer = studio.request(method, path, json={})
    assert answer.status_code < 500, (method, path, answer.status_code, answer.text[:200])


def test_a_hostile_deck_reaches_the_page_as_data(heist):
    hostile = "</script><svg onload=__xss(1)>"
    save(heist / "items.csv", "Crowbar,", '"' + hostile + '",')
    with open_studio(heist / "heist.yaml") as client:
        deck = settled(client)
        assert deck["cards"][1]["title"] == hostile
        page = client.get("/").text
        assert hostile not in page and "<svg onload" not in page


# -- the command ------------------------------------------------------------------------------


def test_the_command_refuses_a_missing_deck_and_a_taken_port(tmp_path):
    assert_clean_error(run_cli("studio", str(tmp_path / "nope.yaml"), "--no-open", "--lang", "en"), "no such file")
    assert_clean_error(run_cli("studio", "/dev/zero", "--no-open", "--lang", "en"), "/dev/zero", "not a regular file")
    assert_clean_error(run_cli("studio", str(tmp_path), "--no-open", "--lang", "ja"), "フォルダー")
    import socket

    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        result = run_cli("studio", str(HEIST / "heist.yaml"), "--no-open", "--port", str(port), "--lang", "en")
    assert_clean_error(result, f"port {port} cannot be used", "--port")
    assert_clean_error(run_cli("studio", str(HEIST / "heist.yaml"), "--port", "0"), "--port")


def test_the_command_opens_the_users_browser_unless_asked_not_to(tmp_path):
    """Python's webbrowser honours BROWSER: a stand-in that notes the address it was given."""
    import os
    import signal
    import subprocess
    import sys

    noted = tmp_path / "opened.txt"
    stand_in = tmp_path / "browser.sh"
    stand_in.write_text(f'#!/bin/sh\necho "$1" > "{noted}"\n', encoding="utf-8")
    stand_in.chmod(0o755)
    port = free_port()
    env = {**os.environ, "DISPLAY": ":0", "BROWSER": f"{stand_in} %s", "KKPRINT_LANG": "en"}
    command = [sys.executable, "-m", "kkprint", "studio", str(HEIST / "heist.yaml"), "--port", str(port)]
    studio = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not (noted.exists() and noted.read_text(encoding="utf-8").strip()):
            assert studio.poll() is None and time.monotonic() < deadline, "the browser was not opened"
            time.sleep(0.1)
        assert noted.read_text(encoding="utf-8").strip() == f"http://127.0.0.1:{port}/"
    finally:
        studio.send_signal(signal.SIGINT)
        assert studio.wait(timeout=20) == 130
    said = studio.stderr.read()
    assert said.startswith(f"Deck studio: http://127.0.0.1:{port}/\n") and "Traceback" not in said


def test_without_a_desktop_no_browser_takes_over_the_terminal(tmp_path, monkeypatch):
    from kkprint.web.studio.serve import open_in_browser

    noted = tmp_path / "opened.txt"
    stand_in = tmp_path / "browser.sh"
    stand_in.write_text(f'#!/bin/sh\necho "$1" > "{noted}"\n', encoding="utf-8")
    stand_in.chmod(0o755)
    monkeypatch.setenv("BROWSER", f"{stand_in} %s")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert open_in_browser("http://127.0.0.1:1/") is False and not noted.exists()


def test_a_cards_own_error_in_a_region_reading_a_missing_column_is_listed_beside_it(tmp_path):
    """``${nmae} ${cost}``: the column's error is said once, and card B's own unknown icon in the
    same region is listed too (every error of a region reading the blank was dropped, and the
    card waited for a picture that never came)."""
    (tmp_path / "coin.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><circle cx="4" cy="4" r="4"/></svg>'
    )
    deck = tmp_path / "e.yaml"
    deck.write_text(
        "name: e\ncard: {size: mini}\nicons: {coin: coin.svg}\nlayout:\n"
        '  t: {type: text, x: 1, y: 1, w: 30, h: 9, text: "${nmae} ${cost}"}\n'
        'cards: [{name: A, cost: "{coin}"}, {name: B, cost: "{coinn}"}]\n',
        encoding="utf-8",
    )
    with open_studio(deck) as client:
        shown = settled_until(client, 0, lambda seen: len(seen["errors"]) >= 2, seconds=30)
    said = [(problem["card"], problem["message"]) for problem in shown["errors"]]
    assert len(said) == 2 and said[0][0] is None and "no card has a column 'nmae'" in said[0][1], said
    assert said[1][0] == 1 and "unknown icon {coinn}" in said[1][1], said  # (card B: the grid counts from 0)


def test_a_file_outside_the_decks_folder_that_an_svg_refers_to_is_never_read(tmp_path, monkeypatch):
    """``art/a.svg`` uses ``../../secret/a.svg``: the build refuses it unread, and the studio,
    telling which file the error is in, read the outside file of the same name to compare its
    error with the one said (and could have named it): the file is the deck's own, unread."""
    from kkprint.base.i18n import Msg
    from kkprint.deck.load import load_deck
    from kkprint.deck.preflight import ERROR, Finding
    from kkprint.web.studio import state

    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "a.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><g id="g"/></svg>')
    (tmp_path / "deck" / "art").mkdir(parents=True)
    (tmp_path / "deck" / "art" / "a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><use href="../../secret/a.svg#g"/></svg>'
    )
    deck = tmp_path / "deck" / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: mini}\nlayout:\n  p: {type: image, x: 1, y: 1, w: 9, h: 9, src: art/a.svg}\n"
        "cards: [{name: A}]\n",
        encoding="utf-8",
    )
    read = []
    checked = state.check_picture
    monkeypatch.setattr(state, "check_picture", lambda path, *rest: (read.append(path), checked(path, *rest))[1])
    said = Msg("{name}: refers to '{value}', outside the deck's folder", name="a.svg", value="../../secret/a.svg")
    finding = Finding(str(deck), ERROR, said, face=("layout",), region="p", error=True)
    at_fault = state.file_at_fault(load_deck(deck), ("layout",), {"name": "A"}, finding)
    assert at_fault is not None and at_fault.resolve() == (tmp_path / "deck" / "art" / "a.svg").resolve()
    assert not any("secret" in str(path) for path in read), read
