"""Custom decks: starter files, extends, CSV, text fitting, icons, backs, print-shop boxes, errors."""

import json
from pathlib import Path

import pytest
from conftest import assert_clean_error, run_main
from pypdf import PdfReader
from reportlab.lib.units import mm

from kkprint.base.errors import InputError
from kkprint.base.yamlio import load_yaml_file
from kkprint.cli.targets import resolve
from kkprint.deck.load import load_deck, merge, resolve_extends, select
from kkprint.deck.starter import write_starter
from kkprint.engine.cards import fold_layout
from kkprint.engine.geometry import PAPERS, DuplexMode, SheetLayout, card_size
from kkprint.engine.job import BuildOptions, build_targets


@pytest.fixture
def starter(tmp_path) -> Path:
    deck, _ = write_starter("test deck", tmp_path)
    return deck


def build(path: Path, out: Path, **options) -> list[Path]:
    return build_targets(resolve([str(path)]), BuildOptions(out_dir=out, **options))


def test_starter_builds_as_written(starter, tmp_path):
    [pdf] = build(starter, tmp_path / "out")
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2  # 8 cards fit one A4 sheet, then their backs
    text = reader.pages[0].extract_text()
    assert "Knight" in text and "Wild card" in text


def test_starter_edited_by_hand_still_builds(starter, tmp_path):
    text = (
        starter.read_text(encoding="utf-8")
        .replace("size: poker ", "size: mini  ")
        .replace("extends: poker", "extends: mini")
    )
    starter.write_text(text, encoding="utf-8")
    csv = starter.with_suffix(".csv")
    csv.write_text(csv.read_text(encoding="utf-8") + "Bard,Sing a song.,die:3,#336699,1\n", encoding="utf-8")
    [pdf] = build(starter, tmp_path / "out")
    assert "Bard" in "".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_new_deck_refuses_to_overwrite(starter, tmp_path):
    with pytest.raises(InputError, match="already exists"):
        write_starter("test deck", tmp_path)


def test_merge_overrides_field_by_field_and_null_removes():
    base = {"layout": {"title": {"x": 1, "size": 10}, "frame": {"w": 5}}, "card": {"size": "poker"}}
    child = {"layout": {"title": {"size": 14}, "frame": None}}
    assert merge(base, child) == {"layout": {"title": {"x": 1, "size": 14}}, "card": {"size": "poker"}}


def test_extends_chain_mini_over_poker(tmp_path):
    deck = tmp_path / "d.yaml"
    deck.write_text("extends: mini\nname: d\nlayout:\n  title: {colour: '#ff0000'}\ncards: [{name: A, text: b}]\n")
    data = resolve_extends(load_yaml_file(deck), deck)
    assert data["card"]["size"] == "mini"  # from mini.yaml
    assert data["layout"]["title"]["size"] == 12  # mini overrides poker
    assert data["layout"]["title"]["font"] == "bold"  # inherited from poker
    assert data["layout"]["title"]["colour"] == "#ff0000"  # the deck's own override


def test_extends_errors(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("extends: b.yaml\nname: a\n")
    b.write_text("extends: a.yaml\nname: b\n")
    with pytest.raises(InputError, match="loops"):
        load_deck(a)
    c = tmp_path / "c.yaml"
    c.write_text("extends: nosuch\nname: c\n")
    with pytest.raises(InputError, match="unknown template 'nosuch'"):
        load_deck(c)
    d = tmp_path / "d.yaml"
    d.write_text("extends: ../../etc/passwd.yaml\nname: d\n")
    with pytest.raises(InputError, match="outside the deck's folder"):
        load_deck(d)


def test_csv_import_counts_and_rows(tmp_path):
    (tmp_path / "cards.csv").write_text("name,text,count\nA,first,3\n,,\nB,second,\n", encoding="utf-8")
    deck_file = tmp_path / "d.yaml"
    deck_file.write_text("extends: poker\nname: d\ncsv: cards.csv\n")
    deck = load_deck(deck_file)
    assert [(c.fields["name"], c.count) for c in deck.cards] == [("A", 3), ("B", 1)]
    assert deck.total == 4
    assert [c.fields["name"] for c in select(deck, "2").cards] == ["A"]  # (printed numbers: A is 1-3, B 4)
    assert [c.fields["name"] for c in select(deck, "4").cards] == ["B"]
    assert [c.fields["name"] for c in select(deck, "B,1").cards] == ["B", "A"]
    with pytest.raises(InputError, match="no card is named"):
        select(deck, "Z")


def test_csv_with_a_ragged_row(tmp_path):
    (tmp_path / "cards.csv").write_text("name,text\nA,x,extra\n", encoding="utf-8")
    deck_file = tmp_path / "d.yaml"
    deck_file.write_text("extends: poker\nname: d\ncsv: cards.csv\n")
    with pytest.raises(InputError, match="row 2"):
        load_deck(deck_file)


def test_huge_counts_are_refused(tmp_path):
    deck_file = tmp_path / "d.yaml"
    deck_file.write_text("extends: poker\nname: d\ncards: [{name: A, text: x, count: 1000000000}]\n")
    with pytest.raises(InputError, match="more than the 50,000"):
        load_deck(deck_file)


@pytest.mark.parametrize(
    "body,fragment",
    [
        ("layout:\n  title: {colr: '#000000'}\n", "unknown key 'colr'"),
        ("layout:\n  title: {colour: red}\n", "#1a2b3c"),
        ("card: {size: huge}\n", "unknown card size"),
        ("layout:\n  text: {text: '${nosuch}', field: null}\n", "no card has a column 'nosuch'"),
        (
            "layout:\n  pic: {type: image, x: 0, y: 0, w: 10, h: 10, src: ../../outside.png}\n",
            "outside the deck's folder",
        ),
        ("layout:\n  pic: {type: icon, x: 0, y: 0, w: 10, h: 10, icon: 'nope:1'}\n", "unknown icon"),
        ("layout:\n  text: {size: 60, min_size: 59}\n", "does not fit"),
        (  # a key of other parts (a text's fill on an image): not "did you mean 'fill'?"
            "layout:\n  pic: {type: image, x: 0, y: 0, w: 10, h: 10, src: a.png, fill: red}\n",
            "'fill' is not a key here: another kind of part takes it",
        ),
        ("layout:\n  text: {text: 'a </b> b', field: null}\n", "</b> closes a tag that was never opened"),
        (  # a near miss is matched against the part's own keys: an image takes a field, not a fill
            "layout:\n  pic: {type: image, x: 0, y: 0, w: 10, h: 10, src: a.png, fil: red}\n",
            "unknown key 'fil'; did you mean 'field'?",
        ),
        ("layout:\n  pic: {type: image, x: 0, y: 0, w: 10, h: 10, src: a.png, sizee: 9}\n", "'sizee' (a typo?)"),
        ("print_shop: {blead: 3}\n", "did you mean 'bleed_mm'?"),
    ],
)
def test_broken_decks_give_clear_errors(tmp_path, body, fragment):
    deck_file = tmp_path / "d.yaml"
    deck_file.write_text(f"extends: poker\nname: d\n{body}cards: [{{name: A, text: 'a long enough text to matter'}}]\n")
    with pytest.raises(InputError) as caught:
        build(deck_file, tmp_path / "out")
    assert fragment in str(caught.value)
    assert str(deck_file) in str(caught.value)
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").glob("*.pdf"))


def test_typo_error_names_the_line(tmp_path):
    deck_file = tmp_path / "d.yaml"
    deck_file.write_text("extends: poker\nname: d\nsheet:\n  papr: a4\ncards: [{name: A, text: b}]\n")
    with pytest.raises(InputError) as caught:
        load_deck(deck_file)
    assert "line 4" in str(caught.value) and "sheet.papr" in str(caught.value)


def test_print_shop_boxes(starter, tmp_path):
    [pdf] = build(starter, tmp_path / "out", print_shop=True)
    reader = PdfReader(pdf)
    assert len(reader.pages) == 16  # 8 cards, front and back each
    page = reader.pages[0]
    trim, bleed, media = page.trimbox, page.bleedbox, page.mediabox
    assert float(trim.width) == pytest.approx(63 * mm, abs=0.01) and float(trim.height) == pytest.approx(
        88 * mm, abs=0.01
    )
    assert float(bleed.width) == pytest.approx(69 * mm, abs=0.01)  # default bleed 3 mm each side
    assert float(media.width) > float(bleed.width)  # room for crop marks outside the bleed


def test_print_shop_cmyk(starter, tmp_path):
    text = starter.read_text(encoding="utf-8") + "print_shop: {bleed_mm: 2, cmyk: true}\n"
    starter.write_text(text, encoding="utf-8")
    [pdf] = build(starter, tmp_path / "out", print_shop=True)
    page = PdfReader(pdf).pages[0]
    assert float(page.bleedbox.width) == pytest.approx(67 * mm, abs=0.01)
    reader = PdfReader(pdf)
    streams = b"".join(x.get_object().get_data() for x in reader.pages[0]["/Resources"]["/XObject"].values())
    assert b" k" in streams and b" rg" not in streams


def test_fold_back_sits_mirrored_across_the_fold():
    layout = SheetLayout(PAPERS["a4"], card_size("poker"), margin_mm=6)
    half = fold_layout(layout)
    assert half.columns == 1 and half.rows == 3
    width, _ = layout.paper.size
    front = half.front_slot(0)
    back_x = width - front.x - front.width
    assert back_x > width / 2 and front.right < width / 2
    assert (width / 2 - front.right) == pytest.approx(back_x - width / 2)


@pytest.mark.parametrize("mode", ["long-edge", "short-edge", "fold", "none"])
def test_every_back_mode_builds(starter, tmp_path, mode):
    [pdf] = build(starter, tmp_path / mode, duplex=DuplexMode(mode), back_offset_mm=(1.0, -0.5))
    pages = len(PdfReader(pdf).pages)
    assert pages == {"long-edge": 2, "short-edge": 2, "fold": 2, "none": 1}[mode]  # fold: 4 a page, turned


def test_schema_is_valid_and_accepts_the_starter(starter, cli):
    import jsonschema

    result = cli("schema")
    assert result.returncode == 0
    schema = json.loads(result.stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    data = resolve_extends(load_yaml_file(starter), starter)
    jsonschema.validate(json.loads(json.dumps(data)), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**json.loads(json.dumps(data)), "colours": "x"}, schema)


def test_cli_new_deck_then_build(english, cli, tmp_path):
    result = cli("new", "deck", "hello", "--dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    result = cli("build", str(tmp_path / "hello.yaml"), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "hello-a4.pdf").exists()
    assert_clean_error(cli("build", str(tmp_path / "missing.yaml")), "no such file")


def test_preview_writes_pngs(cli, starter, tmp_path):
    result = cli("preview", str(starter), "--out", str(tmp_path / "png"), "--dpi", "30")
    assert result.returncode == 0, result.stderr
    pictures = sorted((tmp_path / "png").glob("*.png"))
    assert len(pictures) == 2 and pictures[0].read_bytes().startswith(b"\x89PNG")


def test_calibration_sheet_and_saved_profile(cli, tmp_path, monkeypatch):
    env_home = tmp_path / "config"
    result = cli("calibrate", "--out", str(tmp_path))
    assert result.returncode == 0 and len(PdfReader(result.stdout.strip()).pages) == 2
    monkeypatch.setenv("XDG_CONFIG_HOME", str(env_home))
    from kkprint.base.printer import load_profile
    from kkprint.engine.calibrate import save_offset

    save_offset([1.5, -0.5])
    assert load_profile().offset_mm == (1.5, -0.5)
    assert BuildOptions().sheet_options().back_offset_mm == (1.5, -0.5)
    assert BuildOptions(back_offset_mm=(0.2, 0.0)).sheet_options().back_offset_mm == (0.2, 0.0)


def test_svg_and_png_images_are_drawn(tmp_path):
    from PIL import Image

    Image.new("RGB", (40, 20), (200, 30, 30)).save(tmp_path / "art.png")
    (tmp_path / "logo.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
        '<circle cx="10" cy="10" r="8" fill="#0000ff"/></svg>',
        encoding="utf-8",
    )
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "extends: poker\nname: d\nlayout:\n"
        "  photo: {type: image, x: 5, y: 18, w: 30, h: 20, field: picture}\n"
        "  logo: {type: image, x: 40, y: 18, w: 15, h: 15, src: logo.svg, rotation: 30}\n"
        "cards: [{name: A, text: b, picture: art.png}, {name: B, text: c, picture: art.png}]\n",
        encoding="utf-8",
    )
    [pdf] = build(deck, tmp_path / "out", duplex=DuplexMode.NONE)
    page = PdfReader(pdf).pages[0]
    images = list(page.images)
    assert len(images) == 1 and images[0].image.size == (40, 20)  # one picture, stored once
    content = page.get_contents().get_data()
    assert content.count(images[0].name.removesuffix(".png").encode() + b" Do") == 2  # placed on both cards
    assert b"0 0 1 rg" in content or b"0 0 1 RG" in content or _svg_in_forms(page)


def _svg_in_forms(page) -> bool:
    def streams(resources):
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            yield xobject.get_data()
            if "/Resources" in xobject:
                yield from streams(xobject["/Resources"])

    return any(b"0 0 1 rg" in data for data in streams(page["/Resources"]))


def test_broken_images_are_clear_errors(tmp_path):
    (tmp_path / "bad.png").write_bytes(b"not a png")
    (tmp_path / "bad.svg").write_text("<nonsense", encoding="utf-8")
    for name, fragment in (
        ("bad.png", "bad.png: not a readable PNG"),
        ("bad.svg", "bad.svg: is not a well-formed SVG \\(XML\\) file: a mistake at line 1"),
        ("x.gif", "not found"),
    ):
        deck = tmp_path / "d.yaml"
        deck.write_text(
            f"extends: poker\nname: d\nlayout:\n  pic: {{type: image, x: 1, y: 1, w: 9, h: 9, src: {name}}}\n"
            "cards: [{name: A, text: b}]\n",
            encoding="utf-8",
        )
        with pytest.raises(InputError, match=fragment):
            build(deck, tmp_path / "out")


def test_a_preview_with_a_deck_that_does_not_build_writes_no_picture(cli, starter, tmp_path, english):
    """``preview good.yaml bad.yaml``: the good deck's pictures were written, then the bad one
    failed; nothing is written unless every target builds, as for any command."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: bad\ncard: {size: mini}\nlayout:\n  t: {type: text, x: 1, y: 1, w: 9, h: 9, text: '${1 +}'}\n"
        "cards: [{name: A}]\n",
        encoding="utf-8",
    )
    result = cli("preview", str(starter), str(bad), "--out", str(tmp_path / "png"), "--dpi", "30")
    assert_clean_error(result, "bad.yaml", "'1 +' is not a valid expression")
    assert not (tmp_path / "png").exists() or not list((tmp_path / "png").iterdir())


def test_preview_names_each_card_of_a_deck_where_only_some_have_a_back(cli, tmp_path):
    """A double-faced card (A, twice, flips to B) beside one with no back (D): the pictures are
    named by card, a back beside its own front (all were named by page: 002 was card 1's back)."""
    deck = tmp_path / "dfc.yaml"
    deck.write_text(
        "name: dfc\ncard: {size: mini}\ncopies_field: count\nback_face_field: flip\n"
        "layout:\n  title: {type: text, text: '${name}', x: 5, y: 5, w: 30, h: 10}\n"
        "cards:\n  - {name: A, count: 2, flip: B}\n  - {name: B, count: 0, flip: ''}\n  - {name: D, count: 1, flip: ''}\n",
        encoding="utf-8",
    )
    result = cli("preview", str(deck), "--cards", "--out", str(tmp_path / "png"), "--dpi", "30")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "png").iterdir()) == [
        f"dfc-cards-{name}.png" for name in ("001-back", "001", "002-back", "002", "003")
    ]


def test_preview_single_cards(cli, starter, tmp_path):
    result = cli("preview", str(starter), "--cards", "--only", "Knight", "--out", str(tmp_path / "png"), "--dpi", "30")
    assert result.returncode == 0, result.stderr
    pictures = sorted((tmp_path / "png").glob("*.png"))
    assert len(pictures) == 4  # two Knights, front and back each
    # named by the cards' numbers as printed (the Knights are cards 2 and 3: the wild card is 1),
    # each copy's back beside its front, not by PDF page (001…004)
    stem = pictures[0].name.split("-cards-")[0]
    assert [p.name for p in pictures] == [f"{stem}-cards-{name}.png" for name in ("002-back", "002", "003-back", "003")]
    assert sorted(p.name for p in pictures) == sorted(
        line.rsplit("/", 1)[-1] for line in result.stdout.splitlines() if line.endswith(".png")
    )
    from PIL import Image

    width, height = Image.open(pictures[0]).size
    assert abs(width / height - 63 / 88) < 0.02
    assert_clean_error(cli("preview", "kardinal", "--cards", "--out", str(tmp_path / "x")), "--cards")


def test_colours_from_fields_deck_fields_and_double_faced_cards(tmp_path):
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "extends: poker\nname: d\nback_face_field: flip\nfields: {motto: Shared words}\n"
        "layout:\n  banner: {fill: '${tint}'}\n  footer: {text: '${motto}'}\n"
        "back:\n  words: {type: text, x: 5, y: 40, w: 50, h: 10, text: '${motto} on the back'}\n"
        "cards:\n"
        "  - {name: Day, text: sun, tint: '#ffcc00', flip: Night}\n"
        "  - {name: Night, text: moon, tint: '#000066', count: 0}\n"
        "  - {name: Plain, text: none, tint: '#00aa00'}\n",
        encoding="utf-8",
    )
    [pdf] = build(deck, tmp_path / "out")
    reader = PdfReader(pdf)
    fronts, backs = reader.pages[0].extract_text(), reader.pages[1].extract_text()
    assert "Day" in fronts and "Night" not in fronts and "Shared words" in fronts  # count 0: only a back
    assert "Night" in backs and "moon" in backs and "Shared words on the back" in backs
    with pytest.raises(InputError, match="must look like #1a2b3c"):
        deck.write_text(deck.read_text(encoding="utf-8").replace("'#00aa00'", "green"), encoding="utf-8")
        build(deck, tmp_path / "out2")


TWO_BACKS_DECK = """\
name: flip
card: {size: mini}
back_face_field: flip
backs:
  hero:    {b: {type: text, x: 2, y: 2, w: 40, h: 9, text: HEROBACK}}
  villain: {b: {type: text, x: 2, y: 2, w: 40, h: 9, text: VILLAINBACK}}
layout:
  t: {type: text, x: 2, y: 2, w: 40, h: 9, text: "${name}"}
cards:
  - {name: Day, flip: Night, back: BACK}
  - {name: Night, count: 0}
  - {name: Hero, back: hero}
"""


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "card 1 'Day' (cards[0] (line 10)): the card has two backs: flip 'Night' (that card's front) and "
            "back 'villan'; leave one of them empty",
        ),
        ("ja", "1枚目のカード「Day」（cards[0]（10行目））: このカードには裏面が2つあります：flip「Night」"),
    ],
)
@pytest.mark.parametrize("back", ["villan", "villain"])  # a typo was never checked; a right name was dropped
def test_a_double_faced_card_that_also_names_a_back_is_refused(cli, tmp_path, lang, said, back):
    """A card whose ``flip`` names its back face and whose ``back`` names one of ``backs`` has two
    backs: the named one was dropped unread (a typo in it passed). Refused, naming the card."""
    deck = tmp_path / "d.yaml"
    deck.write_text(TWO_BACKS_DECK.replace("BACK}", back + "}"), encoding="utf-8")
    result = cli("build", str(deck), "--out", str(tmp_path / "out"), "--lang", lang)
    assert result.returncode == 2 and result.stdout == "" and not (tmp_path / "out").exists(), result.stderr
    [line] = result.stderr.splitlines()
    assert "d.yaml: " + said.replace("villan", back) in line, line


def test_a_double_faced_card_with_no_named_back_prints_its_twin(tmp_path):
    deck = tmp_path / "d.yaml"
    deck.write_text(TWO_BACKS_DECK.replace(", back: BACK}", "}"), encoding="utf-8")
    [pdf] = build(deck, tmp_path / "out", card_pages=True)
    pages = [page.extract_text().strip() for page in PdfReader(pdf).pages]
    assert pages == ["Day", "Night", "Hero", "HEROBACK"], pages


def test_court_fools_are_backed_by_the_charlatan(tmp_path):
    paths = build_targets(resolve(["court"]), BuildOptions(out_dir=tmp_path))
    reader = PdfReader(next(p for p in paths if "characters" in p.name))
    fronts, backs = reader.pages[0].extract_text(), reader.pages[1].extract_text()
    assert fronts.count("道化師") == 5 and "ペテン師" not in fronts
    assert backs.count("ペテン師") == 5


@pytest.mark.parametrize(
    ("x", "y"),
    [("0.8", "−0.4"), ("０．８", "－０．４"), ("+0.8", "-0.4")],  # copied off the sheet, typed in Japanese, ASCII
)
def test_the_offset_is_saved_however_its_minus_was_typed(x, y, tmp_path, capsys, monkeypatch):
    """The sheet prints its numbers with a true minus (−2): what a user copies off it, or types
    with a Japanese input method, is the number they read."""
    from kkprint.base.printer import load_profile

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    code, _, err = run_main(["calibrate", "--save", y, "--save", x], capsys, monkeypatch)
    assert (code, err) == (0, "") and load_profile().offset_mm == (-0.4, 0.8)
    code, _, err = run_main(["config", "set", "offset", f"{x},{y}"], capsys, monkeypatch)
    assert (code, err) == (0, "") and load_profile().offset_mm == (0.8, -0.4)
    code, _, err = run_main(["calibrate", "--save", "0.8", "--save", "ー"], capsys, monkeypatch)
    assert code == 2 and err.count("\n") == 1 and "--save 0.8 --save -0.4" in err
    code, _, err = run_main(["calibrate", "--save", f"{y},{x}"], capsys, monkeypatch)  # (as config set takes it)
    assert (code, err) == (0, "") and load_profile().offset_mm == (-0.4, 0.8)
    code, _, err = run_main(["config", "set", "offset", f"{x}，{y}"], capsys, monkeypatch)  # (a full-width comma)
    assert (code, err) == (0, "") and load_profile().offset_mm == (0.8, -0.4)


def test_config_show_says_a_language_flag_decided_the_language(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("KKPRINT_LANG", "en")
    code, out, _ = run_main(["--lang", "ja", "config", "show"], capsys, monkeypatch)
    assert code == 0 and "lang: ja  (--lang)" in out
    code, out, _ = run_main(["config", "show"], capsys, monkeypatch)
    assert code == 0 and "lang: en  (KKPRINT_LANG)" in out


def test_backs_that_carry_content_are_printed_one_sided_as_sheets_of_their_own(tmp_path):
    """``print.content_backs``: a back with the card's own text is not dropped by ``backs: none``
    (or ``--duplex none``): it follows its fronts on a sheet of its own, each back behind its card."""
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "extends: poker\nname: d\nprint: {backs: none, content_backs: true}\n"
        "back: {rule: {type: text, x: 5, y: 40, w: 53, h: 10, text: 'Rule of ${name}'}}\n"
        "cards: [{name: Alpha, text: a}, {name: Beta, text: b}]\n",
        encoding="utf-8",
    )
    [pdf] = build(deck, tmp_path / "kept")
    pages = [page.extract_text() for page in PdfReader(pdf).pages]
    assert len(pages) == 2 and "Alpha" in pages[0] and "Rule of Alpha" in pages[1] and "Rule of Beta" in pages[1]
    deck.write_text(deck.read_text(encoding="utf-8").replace(", content_backs: true", ""), encoding="utf-8")
    [pdf] = build(deck, tmp_path / "dropped")
    assert [("Rule of" in page.extract_text()) for page in PdfReader(pdf).pages] == [False]


@pytest.mark.parametrize(
    ("region", "place", "problem"),
    [
        ("text: hi, size: .inf", "layout.a.size", "must be a finite number"),
        ("text: 5", "layout.a.text", "must be text"),
        ("text: hi, size: 900", "layout.a.size", "must be at most 200"),
        ("size: 9", "layout.a:", "a text region needs text or field"),
    ],
    ids=["a size beside a text key", "the text key itself", "a bound", "the region as a whole"],
)
def test_a_text_regions_mistake_is_named_by_its_own_key(english, cli, tmp_path, region, place, problem):
    """Pydantic names the union member it tried (``text``) before the key; a text region also
    has a key called text, and the place said is the key that is wrong, not that one."""
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: poker}\nlayout:\n  a: {type: text, x: 1, y: 1, w: 20, h: 9, " + region + "}\n"
        "cards: [{name: A}]\n",
        encoding="utf-8",
    )
    assert_clean_error(cli("build", str(deck), "--out", str(tmp_path / "out")), "line 4", place, problem)


@pytest.mark.parametrize(
    ("keys", "place", "en", "ja"),
    [
        ("sheet: {paper: {w: 1mm}}", "sheet.paper.h", "missing 'h'", "「h」がありません"),
        (
            "sheet: {paper: {w: 1mm, h: 1in}}",
            "sheet.paper:",
            "a paper of its own size is 50 mm to 2 m a side, not 1 × 25.4 mm",
            "独自サイズの用紙は一辺50 mm～2 mです（1 × 25.4 mmではなく）",
        ),
        (
            "fill: {gradient: conic, from: '#ffffff', to: '#000000'}",
            "layout.s.fill.gradient",
            "must be one of 'linear' or 'radial', not 'conic'",
            "「linear」、「radial」のどれかです（「conic」ではなく）",
        ),
        (
            "fill: {gradient: linear, from: '#ffff', to: '#000000'}",
            "layout.s.fill.from",
            "colour '#ffff' must look like #1a2b3c",
            "色「#ffff」は #1a2b3c",
        ),
    ],
    ids=["a paper without its height", "a paper too small", "an unknown gradient", "a gradient's colour"],
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_mapping_where_a_word_or_a_mapping_goes_is_judged_by_what_it_holds(cli, tmp_path, keys, place, en, ja, lang):
    """``paper`` takes a4, letter, a3 or {w, h}; ``fill`` a colour or a gradient. A mapping there
    was refused for not being the word ("must be one of 'a4'…", "must be text"): what is said is
    what is wrong inside it."""
    sheet, fill = (keys, "'#ffffff'") if keys.startswith("sheet") else ("", keys.removeprefix("fill: "))
    deck = tmp_path / "d.yaml"
    deck.write_text(
        f"name: d\ncard: {{size: poker}}\n{sheet}\ncards: [{{name: A}}]\n"
        f"layout:\n  s: {{type: shape, shape: rect, x: 1, y: 1, w: 9, h: 9, fill: {fill}}}\n",
        encoding="utf-8",
    )
    result = cli("build", str(deck), "--out", str(tmp_path / "out"), "--lang", lang)
    assert_clean_error(result, "d.yaml", place, en if lang == "en" else ja)
    assert not (tmp_path / "out").exists()


def test_a_colour_may_be_written_short_as_css_writes_it(tmp_path):
    """``#c00`` is ``#cc0000`` wherever a colour goes: a key, a gradient, a card's field, markup
    (the guide's own gradient, ``from: "#fff"``, was refused)."""
    from test_deck_compute import box_of, card_pages, picture

    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: short\ncard: {w: 60, h: 80}\nprint: {backs: none}\nlayout:\n"
        "  a: {type: shape, shape: rect, x: 5, y: 5, w: 10, h: 10, fill: '#f00'}\n"
        "  b: {type: shape, shape: rect, x: 20, y: 5, w: 10, h: 10, fill: '${tint}'}\n"
        "  c: {type: shape, shape: rect, x: 35, y: 5, w: 10, h: 10, fill: {gradient: linear, from: '#00f', to: '#00F'}}\n"
        "  d: {type: text, x: 5, y: 30, w: 50, h: 10, text: \"<span color='#0a0'>words</span>\"}\n"
        "cards: [{tint: '#FF0'}]\n",
        encoding="utf-8",
    )
    image = picture(card_pages(deck, tmp_path / "out"), 0)
    assert box_of(image, "#ff0000") == pytest.approx((5, 5, 15, 15), abs=0.2)
    assert box_of(image, "#ffff00") == pytest.approx((20, 5, 30, 15), abs=0.2)
    assert box_of(image, "#0000ff") == pytest.approx((35, 5, 45, 15), abs=0.2)


@pytest.mark.parametrize(
    ("keys", "place", "en", "ja"),
    [
        (
            "shape: polygon, points: [[0, 0]]",
            "line 6, layout.s.points",
            "needs at least 2 entries, not 1",
            "2個以上の要素が必要です（1個しかありません）",
        ),
        (
            "shape: line, points: []",
            "line 6, layout.s.points",
            "needs at least 2 entries, not 0",
            "2個以上の要素が必要です（0個しかありません）",
        ),
        (
            "shape: polygon, points: [" + ", ".join(["[0, 0]"] * 501) + "]",
            "line 6, layout.s.points",
            "has more than 500 entries",
            "500個を超えています",
        ),
    ],
    ids=["one point", "no point", "too many points"],
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_list_too_short_or_too_long_is_said_in_the_readers_language(cli, tmp_path, keys, place, en, ja, lang):
    """A shape of one point was refused in pydantic's English ("List should have at least 2 items
    after validation, not 1") even with --lang ja: too few or too many entries are said in the
    catalogue's words, with the line."""
    deck = tmp_path / "d.yaml"
    deck.write_text(
        f"name: d\ncard: {{size: poker}}\ncards: [{{name: A}}]\nlayout:\n"
        f"  frame: {{type: shape, shape: rect, x: 1, y: 1, w: 9, h: 9}}\n"
        f"  s: {{type: shape, {keys}, x: 1, y: 1, w: 9, h: 9}}\n",
        encoding="utf-8",
    )
    result = cli("build", str(deck), "--out", str(tmp_path / "out"), "--lang", lang)
    where = place if lang == "en" else "6行目、layout.s.points"
    assert_clean_error(result, "d.yaml", where, en if lang == "en" else ja)
    assert "List should" not in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "line 3, copies_field: must not be empty"), ("ja", "3行目、copies_field: 空にはできません")],
)
def test_an_empty_key_that_must_hold_a_name_is_said_in_the_readers_language(cli, tmp_path, lang, said):
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: poker}\ncopies_field: ''\ncards: [{name: A}]\n"
        "layout:\n  t: {type: text, text: x, x: 1, y: 1, w: 20, h: 9}\n",
        encoding="utf-8",
    )
    result = cli("build", str(deck), "--out", str(tmp_path / "out"), "--lang", lang)
    assert_clean_error(result, "d.yaml", said)
    assert "String should" not in result.stderr
