"""Preflight (SPEC §4.3): every deck in tests/preflight/ prints wrong in one way and gets exactly
that warning — card, region, kind — in both languages, from `kkprint check` and from the build;
--strict refuses it with nothing written; a clean deck, the examples and every game get none."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
from pathlib import Path

import pytest
from conftest import ROOT, as_shown, run_main
from pypdf import PdfReader

from kkprint.base.errors import InputError

CORPUS = Path(__file__).parent / "preflight"
EXAMPLES = sorted((ROOT / "examples" / "decks").glob("*/*.yaml"))
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def run(args: list[str], capsys, monkeypatch, lang: str = "en") -> tuple[int, str, str]:
    """The command line in this process (a whole process costs a second each; the corpus is
    run many times over), one process's worth of work at a time."""
    monkeypatch.setenv("KKPRINT_JOBS", "1")
    return run_main(args, capsys, monkeypatch, lang)


def expectation(path: Path) -> tuple[dict | None, list[str]]:
    """A corpus deck's first line: ``# expect: card=2 region=rules kind=small-text`` (or
    ``nothing``); a ``# check: …`` line gives options (``--print-shop``)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    said = lines[0].removeprefix("# expect:").strip()
    options = next((line.removeprefix("# check:").split() for line in lines if line.startswith("# check:")), [])
    if said == "nothing":
        return None, options
    fields = dict(part.split("=", 1) for part in said.split())
    card = None if fields["card"] == "none" else int(fields["card"])
    return {"card": card, "region": fields["region"], "kind": fields["kind"]}, options


def english_left(message: str) -> list[str]:
    """Latin words of a Japanese message, apart from file names, units and the deck's own names
    (quoted back in 「」)."""
    message = re.sub(r"「[^」]*」|[\w.-]+\.(?:png|svg|yaml)|\b(?:mm|pt|dpi|px)\b", " ", message)
    return re.findall(r"[A-Za-z]{3,}", message)


CASES = sorted(CORPUS.glob("*.yaml"))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("path", CASES, ids=lambda path: path.stem)
def test_check_finds_exactly_the_one_problem_in_the_readers_language(path, lang, capsys, monkeypatch):
    expected, options = expectation(path)
    code, out, err = run(["check", str(path), "--json", *options], capsys, monkeypatch, lang)
    findings = json.loads(out)
    assert [{key: f[key] for key in ("card", "region", "kind")} for f in findings] == (
        [expected] if expected else []
    ), findings
    if expected is None:
        assert code == 0 and err == ""
        return
    [finding] = findings
    error = finding["kind"] == "missing-column"  # a column no card has is an error; the rest warn
    assert finding["severity"] == ("error" if error else "warning")
    assert code == (2 if error else 0), err
    assert finding["file"] == str(path) and finding["line"] is not None  # the region's YAML line
    if lang == "ja":
        assert JAPANESE.search(finding["message"]) and english_left(finding["message"]) == [], finding
    else:
        assert not JAPANESE.search(finding["message"]), finding


@pytest.mark.parametrize("path", [p for p in CASES if expectation(p)[0]], ids=lambda path: path.stem)
def test_the_build_says_it_too_and_strict_writes_nothing(path, tmp_path, capsys, monkeypatch):
    expected, options = expectation(path)
    assert expected is not None
    out_dir = tmp_path / "out"
    code, out, err = run(["build", str(path), "--out", str(out_dir), *options], capsys, monkeypatch)
    lines = err.splitlines()
    error = expected["kind"] == "missing-column"
    where = f"region '{expected['region']}'"
    card = f"card {expected['card']}" if expected["card"] else None
    if error:
        assert code == 2 and out == "" and not out_dir.exists(), err  # (not even the folder it would have made)
        assert len(lines) == 1 and lines[0].startswith("kkprint: error: ") and where in lines[0], err
        return
    assert code == 0 and len(list(out_dir.glob("*.pdf"))) == 1, err
    assert out.strip() == str(next(out_dir.glob("*.pdf")))  # stdout: the file, as ever
    assert len(lines) == 2 and lines[1] == "kkprint: 1 warning", err
    assert lines[0].startswith(f"kkprint: warning: {as_shown(str(path))}: ") and where in lines[0]
    assert (card in lines[0]) if card else "card " not in lines[0]

    strict_dir = tmp_path / "strict"
    code, out, err = run(["build", str(path), "--out", str(strict_dir), "--strict", *options], capsys, monkeypatch)
    assert code == 2 and out == "", err
    assert not strict_dir.exists()  # nothing, not even a half-written file or the folder made for it
    assert err.startswith(f"kkprint: error: {as_shown(str(path))}: ") and where in err and len(err.splitlines()) == 1


def test_check_json_lists_what_the_build_says(tmp_path, capsys, monkeypatch):
    """Every corpus deck with a warning, built together: one line per finding, each the one
    `check --json` gives (card, region, message)."""
    warned = [path for path in CASES if expectation(path)[0] and expectation(path)[0]["kind"] != "missing-column"]
    warned = [path for path in warned if not expectation(path)[1]]  # (the print-shop one builds apart)
    code, out, err = run(["build", *map(str, warned), "--out", str(tmp_path)], capsys, monkeypatch)
    assert code == 0, err
    lines = err.splitlines()
    assert lines[-1] == f"kkprint: {len(warned)} warnings"
    for path in warned:
        _, json_out, _ = run(["check", str(path), "--json"], capsys, monkeypatch)
        [finding] = json.loads(json_out)
        shown = as_shown(str(path))  # (as every command prints a path)
        said = [line for line in lines if f" {shown}: " in line]
        assert said == [f"kkprint: warning: {shown}: {finding['where']}: {finding['message']}"]


def test_thirty_cards_too_long_are_all_found_in_one_run(tmp_path, capsys, monkeypatch):
    cards = [  # every fourth card fits; thirty do not
        {"name": f"Card {number}", "rules": " ".join(["word"] * (5 if number % 4 == 0 else 60))}
        for number in range(1, 41)
    ]
    (tmp_path / "cards.json").write_text(json.dumps(cards), encoding="utf-8")
    deck = tmp_path / "long.yaml"
    deck.write_text(
        "name: long\ncard: {size: poker}\ndata: cards.json\nlayout:\n"
        "  rules: {type: text, x: 5, y: 60, w: 53, h: 10, field: rules, size: 9}\n",
        encoding="utf-8",
    )
    out_dir = tmp_path / "out"
    code, out, err = run(["build", str(deck), "--out", str(out_dir)], capsys, monkeypatch)
    lines = err.splitlines()
    assert code == 2 and out == "" and not out_dir.exists()
    assert len(lines) == 22, err
    failing = [n for n in range(1, 41) if n % 4]
    for line, number in zip(lines[:20], failing):
        assert line.startswith(f"kkprint: error: {deck}: card {number} 'Card {number}' (cards.json entry {number}), ")
        assert "region 'rules' (line 5)" in line and "does not fit" in line
    assert lines[20] == "kkprint: … and 10 more"
    assert lines[21] == f"kkprint: 30 errors: nothing was written for {deck}"
    code, out, _ = run(["check", str(deck), "--json"], capsys, monkeypatch)
    assert code == 2 and [f["card"] for f in json.loads(out)] == failing
    code, out, err = run(["check", str(deck)], capsys, monkeypatch)
    assert code == 2 and out.splitlines()[20:] == [
        "kkprint: … and 10 more",
        "(kkprint check --json lists every one)",
        f"{deck}: 40 cards checked, 30 errors",
    ]
    assert err == f"kkprint: error: {deck}: 30 errors; it would not print\n"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.parent.name)
def test_the_examples_check_clean_and_nothing_is_written(path, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where a build would make output/
    code, out, err = run(["check", str(path), "--json"], capsys, monkeypatch)
    assert code == 0 and json.loads(out) == [] and err == ""
    code, out, err = run(["check", str(path)], capsys, monkeypatch, lang="ja")
    assert code == 0 and out.strip().endswith("警告0件") and err == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("lang", "paper", "print_shop"),
    [("ja", "a4", False), ("en", "a4", False), ("ja", "letter", False), ("en", "letter", False)]
    + [("ja", "a4", True), ("en", "letter", True)],
)
def test_no_game_is_warned_about(lang, paper, print_shop, tmp_path):
    """Every game's cards go through the deck preflight (land cards, characters, aids, chips…):
    none of them has a warning — at home, nor at a print shop, whose cut needs 3 mm of safe margin
    (the long Japanese law chips were 2.6 mm from it once)."""
    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, run_targets

    options = BuildOptions(lang=lang, paper_name=paper, out_dir=tmp_path, print_shop=print_shop)
    outcomes = run_targets(resolve(["all"]), options)
    assert [(o.target, o.error) for o in outcomes if o.error] == []
    assert [note.render("en") for o in outcomes for note in o.notes] == []
    assert sum(len(o.paths) for o in outcomes) >= 10


def test_the_games_cards_are_checked_and_strict_holds_for_them_too(tmp_path, monkeypatch):
    """Not a silence by omission: with a (deliberately absurd) 40 pt threshold, Court's
    characters are warned about, card by card, from their layout file; with --strict the cards'
    PDF is not written."""
    from kkprint.cli.targets import resolve
    from kkprint.deck import load
    from kkprint.engine.job import BuildOptions, run_targets

    layout = load._layout

    def demanding(path):
        return dataclasses.replace(layout(path), min_readable=40)

    monkeypatch.setattr(load, "_layout", demanding)
    [court] = resolve(["court"])
    character_deck = sys.modules[court.build.__module__].character_deck  # (made once a process: made again here)
    character_deck.cache_clear()
    try:
        [outcome] = run_targets([court], BuildOptions(lang="en", out_dir=tmp_path / "warn"))
        assert outcome.error is None
        cards = [note for note in outcome.notes if note.source.endswith("court/cards.yaml")]
        assert cards and {note.kind for note in cards} == {"small-text"}
        assert "card 1 'Fool'" in cards[0].render("en")
        [strict] = run_targets([court], BuildOptions(lang="en", out_dir=tmp_path / "strict", strict=True))
        assert strict.error is not None and "court/cards.yaml" in str(strict.error)
        assert not any("character" in path.name for path in strict.paths)
    finally:
        character_deck.cache_clear()  # (no later test meets the demanding layout)


def test_a_font_that_would_not_be_embedded_is_said_exactly_when_it_is_so(tmp_path, capsys, monkeypatch):
    """SVG art with words in it: either its text is set in an embedded font (or drawn as
    outlines), or the build says which font would not be embedded — never silently neither."""
    deck = tmp_path / "words.yaml"
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "words.svg").write_bytes((CORPUS / "art" / "words.svg").read_bytes())
    deck.write_text(
        "name: words\ncard: {size: poker}\nlayout:\n"
        "  label: {type: image, x: 10, y: 10, w: 40, h: 20, src: art/words.svg}\ncards: [{name: Gold}]\n",
        encoding="utf-8",
    )
    code, out, err = run(["build", str(deck), "--out", str(tmp_path / "out")], capsys, monkeypatch)
    assert code == 0, err
    fonts = {}
    for page in PdfReader(out.strip()).pages:
        for font in _fonts(page):
            descriptor = font.get("/FontDescriptor")
            descendants = font.get("/DescendantFonts")
            if descriptor is None and descendants:
                descriptor = descendants[0].get_object().get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            fonts[str(font["/BaseFont"])] = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
    missing = sorted(name.lstrip("/") for name, embedded in fonts.items() if not embedded)
    said = re.findall(r"the font '([^']+)' would not be embedded", err)
    assert said == missing, (err, fonts)


def _fonts(page):
    """Every font a page uses, those inside its forms too."""
    seen = []

    def walk(resources):
        resources = resources.get_object() if resources is not None else {}
        for font in (resources.get("/Font") or {}).values():
            seen.append(font.get_object())
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                walk(xobject.get("/Resources"))

    walk(page.get("/Resources"))
    return seen


def test_a_standard_font_drawn_by_a_region_is_named(tmp_path):
    """A region whose drawing sets words in one of the PDF's standard fonts (never embedded) is
    reported with its card and region, once."""
    from kkprint.deck.build import check_deck
    from kkprint.deck.load import load_deck
    from kkprint.engine.icons import register_icon

    def stamp(c, size):
        c.setFont("Times-Roman", size / 2)
        c.drawString(0, size / 4, "OK")

    register_icon("test:times-stamp", stamp)
    deck = tmp_path / "stamp.yaml"
    deck.write_text(
        "name: stamp\ncard: {size: poker}\nlayout:\n"
        "  mark: {type: icon, x: 10, y: 10, w: 10, h: 10, field: mark}\n"
        "cards: [{name: A, mark: ''}, {name: B, mark: 'test:times-stamp'}, {name: C, mark: 'test:times-stamp'}]\n",
        encoding="utf-8",
    )
    findings = check_deck(load_deck(deck))
    assert [(f.card, f.region, f.kind) for f in findings] == [(2, "mark", "font-not-embedded")]
    assert "Times-Roman" in findings[0].render("en")


def test_text_over_a_round_tokens_outline_is_found_and_text_inside_is_not(tmp_path):
    from kkprint.deck.build import check_deck
    from kkprint.deck.load import load_deck

    deck = tmp_path / "token.yaml"
    deck.write_text(
        "name: token\ncard: {w: 30, h: 30, shape: circle}\nlayout:\n"
        "  middle: {type: text, x: 7, y: 12, w: 16, h: 6, text: Gold, size: 10, align: center}\n"
        "  corner: {type: text, x: 0.5, y: 0.5, w: 12, h: 5, text: Tax, size: 9}\n"
        "cards: [{name: A}]\n",
        encoding="utf-8",
    )
    findings = check_deck(load_deck(deck))
    assert [(f.region, f.kind) for f in findings] == [("corner", "off-card")]
    assert "outline" in findings[0].render("en")


def test_print_shop_checks_are_stricter_than_home_ones(tmp_path, capsys, monkeypatch):
    """The same deck: a 200 px picture 31 mm wide is fine at home (163 dpi), blurry for a shop."""
    import shutil

    shutil.copytree(CORPUS / "art", tmp_path / "art")
    source = (CORPUS / "clean.yaml").read_text(encoding="utf-8")
    wide = source.replace("w: 16, h: 16, src: art/sharp.png", "w: 31, h: 31, src: art/sharp.png")
    assert wide != source
    deck = tmp_path / "wide.yaml"
    deck.write_text(wide, encoding="utf-8")
    _, home, _ = run(["check", str(deck), "--json"], capsys, monkeypatch)
    _, shop, _ = run(["check", str(deck), "--json", "--print-shop"], capsys, monkeypatch)
    assert json.loads(home) == []
    [finding] = json.loads(shop)
    assert (finding["region"], finding["kind"]) == ("art", "low-resolution") and "300 dpi" in finding["message"]


def test_min_readable_can_be_lowered_for_one_region_or_the_deck(tmp_path, capsys, monkeypatch):
    source = (CORPUS / "small-text-set.yaml").read_text(encoding="utf-8")
    for variant in (
        source.replace("size: 4.5}", "size: 4.5, min_readable: 4}"),
        source.replace("name: small-text-set\n", "name: small-text-set\nmin_readable: 4.5\n"),
    ):
        assert variant != source
        deck = tmp_path / "d.yaml"
        deck.write_text(variant, encoding="utf-8")
        code, out, _ = run(["check", str(deck), "--json", "--strict"], capsys, monkeypatch)
        assert code == 0 and json.loads(out) == []


# --- the preflight and the deck's expressions (deck.expr) --------------------------------------


def _check(tmp_path: Path, text: str) -> list:
    from kkprint.deck.build import check_deck
    from kkprint.deck.load import load_deck

    deck = tmp_path / "d.yaml"
    deck.write_text(text, encoding="utf-8")
    return check_deck(load_deck(deck))


def test_names_an_expression_reads_that_are_no_columns_are_never_missing(tmp_path):
    """card.*, deck.*, today, a table named in lookup(), what get() reads (it has a default) and
    a column named exactly (spaces and all) are no missing columns; a bare name no card has is,
    in ${…} and in when: alike, said once for its region."""
    regions = (
        "  a: {type: text, x: 5, y: 5, w: 53, h: 8, size: 9,"
        ' text: "${card.number}/${card.total} ${card.copy} ${card.row} ${deck.name} ${deck.version} ${today}"}\n'
        "  b: {type: text, x: 5, y: 15, w: 53, h: 8, size: 9,"
        " text: \"${lookup('tint', name)} ${get('extra', 0) + 1} ${hit points}\","
        " when: \"get('flag', '') == '' and card.number > 0\"}\n"
    )
    head = "name: d\nversion: '2'\ncard: {size: poker}\ntables: {tint: {A: red, B: blue}}\nlayout:\n"
    cards = "cards: [{name: A, hit points: 3}, {name: B, hit points: 4}]\n"
    assert _check(tmp_path, head + regions + cards) == []
    wrong = regions.replace("${hit points}", "${hp + 1}").replace("get('flag', '') == ''", "flag == ''")
    findings = _check(tmp_path, head + wrong + cards)
    assert sorted((f.region, f.kind, f.card, f.error) for f in findings) == [
        ("b", "missing-column", None, True),
        ("b", "missing-column", None, True),
    ]
    assert sorted(re.findall(r"column '(\w+)'", " ".join(f.render("en") for f in findings))) == ["flag", "hp"]


def test_a_copys_own_problem_names_that_copy_and_shared_ones_are_said_once(tmp_path):
    """Copies drawn one by one (card.copy read): the copy whose width works out to nothing is the
    one named; small text on every copy is one finding, on the first."""
    findings = _check(
        tmp_path,
        "name: d\ncard: {size: poker}\nlayout:\n"
        '  bar: {type: shape, shape: rect, x: 5, y: 5, w: "${6 - 2 * card.copy}", h: 3, fill: "#000000"}\n'
        '  tag: {type: text, x: 5, y: 20, w: 40, h: 8, size: 4, text: "${name} ${card.copy}/3"}\n'
        "cards: [{name: Lead, count: 1}, {name: Trio, count: 3}]\n",
    )
    said = sorted((f.card, f.region, f.kind) for f in findings)
    assert said == [(1, "tag", "small-text"), (2, "tag", "small-text"), (4, "bar", "error")], said
    [error] = [f for f in findings if f.error]
    assert "card 4 'Trio' (cards[1] (line 6))" in error.render("en") and "must be greater than 0" in error.render("en")


def test_a_region_placed_by_an_expression_is_checked_where_each_card_puts_it(tmp_path):
    findings = _check(
        tmp_path,
        "name: d\ncard: {size: poker}\nlayout:\n"
        '  label: {type: text, x: "${at}", y: 5, w: 20, h: 8, size: 9, field: name}\n'
        "cards: [{name: Inside, at: 5}, {name: Overhanging, at: 55}]\n",
    )
    assert [(f.card, f.region, f.kind) for f in findings] == [(2, "label", "off-card")]


def test_an_icon_region_is_checked_at_the_icons_own_scale(tmp_path):
    import shutil

    shutil.copytree(CORPUS / "art", tmp_path / "art")
    deck = (
        "name: d\ncard: {size: poker}\nicons: {seal: {src: art/seal.svg, scale: SCALE}}\nlayout:\n"
        "  mark: {type: icon, x: 52, y: 5, w: 8, h: 8, icon: seal}\ncards: [{name: A}]\n"
    )
    assert _check(tmp_path, deck.replace("SCALE", "1")) == []  # 52 to 60 mm: inside the 63 mm card
    [finding] = _check(tmp_path, deck.replace("SCALE", "2"))  # 16 mm about the same middle: 48 to 64
    assert (finding.region, finding.kind) == ("mark", "off-card") and "1 mm past" in finding.render("en")


@pytest.mark.parametrize("name", ["small-text-shrunk", "missing-column"])
def test_a_picture_of_the_cards_draws_them_as_the_sheet_does_and_checks_nothing_again(name):
    """A kit's set-up picture draws cards another file of the build prints and checks: the same
    art (a column no card has still read as empty), no preflight of its own, no verdict when
    its document closes."""
    from reportlab.lib.units import mm

    from kkprint.deck.build import card_prints, painter_for
    from kkprint.deck.load import load_deck
    from kkprint.deck.preflight import scratch
    from kkprint.engine.fonts import prepare_fonts
    from kkprint.engine.geometry import PAPERS

    deck = load_deck(CORPUS / f"{name}.yaml")
    fonts = prepare_fonts(["".join(value for card in deck.iter_cards() for value in card.fields.values())])
    drawn = []
    for checked in (True, False):
        with scratch(PAPERS["a4"], fonts, "en") as doc:
            painter = painter_for(deck, fonts)
            canvas = doc.canvas
            for print_ in card_prints(deck, doc, painter, 63 * mm, 88 * mm, checked=checked):
                start = len(canvas._code)
                print_.front.draw(canvas, 63 * mm, 88 * mm)
                drawn.append((checked, canvas._code[start:]))
            assert (painter.checks is not None) is checked and bool(doc.closing) is checked
    sheet = [code for checked, code in drawn if checked]
    picture = [code for checked, code in drawn if not checked]
    assert len(sheet) == 2 and picture == sheet
    assert any("Tj" in line for line in picture[1])  # (the cards' words are drawn)


TYPO_DECK = """\
name: typo
card: {w: 60, h: 80}
layouts:
  item:
    regions:
      band: {type: shape, shape: rect, x: 0, y: 0, w: 60, h: 10, fill: "${colur}"}
      title: {type: text, x: 5, y: 12, w: 50, h: 10, text: "${name}"}
  plan:
    extends: item
    regions:
      stamp: {type: shape, shape: star, x: 40, y: 40, w: 10, h: 10, fill: "#ffd166"}
back:
  extends: item
cards:
  - {name: Ann, colour: "#aa0000", layout: item}
  - {name: Bob, colour: "#00aa00", layout: plan}
  - {name: Cy, colour: "#0000aa", layout: plan}
"""


def test_a_column_no_card_has_is_said_once_where_it_is_written(tmp_path, capsys, monkeypatch):
    """One typo, one error: the region that reads the missing column, at the line it is written
    on — not again for the layout and the back that inherit it unchanged, and not for each card
    whose colour its blank value breaks."""
    deck = tmp_path / "typo.yaml"
    deck.write_text(TYPO_DECK, encoding="utf-8")
    for lang, where, said in (
        ("en", "layout 'item', region 'band' (line 6): ", "no card has a column 'colur'"),
        ("ja", "レイアウト「item」、領域「band」（6行目）: ", "列「colur」はどのカードにもありません"),
    ):
        code, out, err = run(["build", str(deck), "--out", str(tmp_path / "out")], capsys, monkeypatch, lang)
        lines = err.splitlines()
        assert code == 2 and out == "" and not (tmp_path / "out").exists(), err
        assert len(lines) == 1 and f"{where}{said}" in lines[0], err  # (the layout named: the deck has two)
    code, out, _ = run(["check", str(deck), "--json"], capsys, monkeypatch)
    [finding] = json.loads(out)
    assert (finding["kind"], finding["line"], finding["card"]) == ("missing-column", 6, None)


CHAINED_DECK = """\
name: chained
card: {w: 60, h: 80}
layouts:
  item:
    regions:
      band: {type: shape, shape: rect, x: 0, y: 0, w: 60, h: 10, fill: "${colur}"}
  plan: {extends: item, regions: {title: {type: text, x: 5, y: 12, w: 50, h: 10, text: "${name}"}}}
  deluxe: {extends: plan, regions: {stamp: {type: shape, shape: star, x: 40, y: 40, w: 10, h: 10, fill: "#ffd166"}}}
layout:
  extends: deluxe
back:
  extends: layout
backs:
  flow: {a: {type: text, x: 5, y: 2, w: 50, h: 9, text: "${nme}"}, b: {type: text, x: 5, y: 30, w: 50, h: 9, text: "${nme}"}}
  price: {p: {type: text, x: 5, y: 2, w: 50, h: 9, text: "${lookup('prices', kind, 'price')}${colur}"}}
tables: {prices: {tool: {price: 3}}}
cards:
  - {name: Ann, colour: "#aa0000", kind: tool, back: price, layout: deluxe}
  - {name: Bob, colour: "#00aa00", kind: weapon, back: price, layout: plan}
  - {name: Cy, colour: "#0000aa", kind: tool, back: flow, layout: item}
"""


def test_an_inherited_region_is_named_where_it_is_written_and_a_cards_own_error_still_said(
    tmp_path, capsys, monkeypatch
):
    """Down a chain of extends (deluxe → plan → item; the back → layout → deluxe) a region is
    written where the first of them writes it: its line and section there, its missing column said
    once. Two regions written on one line are two. A card's error that is not the blank's (a key
    missing from a table) is still said, in the region that also reads the missing column."""
    from kkprint.deck.load import load_deck

    deck_path = tmp_path / "chained.yaml"
    deck_path.write_text(CHAINED_DECK, encoding="utf-8")
    deck = load_deck(deck_path)
    for section in (("layouts", "plan"), ("layouts", "deluxe"), ("layout",), ("back",)):
        assert deck.lines[(*section, "band")] == 6 and deck.written_in[(*section, "band")] == ("layouts", "item")
    assert deck.written_in[("back", "title")] == ("layouts", "plan") and deck.lines[("back", "title")] == 7
    code, out, _ = run(["check", str(deck_path), "--json"], capsys, monkeypatch)
    found = [(f["kind"], f["face"], f["region"], f["line"], f["card"]) for f in json.loads(out)]
    assert code == 2
    assert sorted(found, key=str) == sorted(
        [
            ("missing-column", "layouts.item", "band", 6, None),
            ("missing-column", "backs.flow", "a", 14, None),
            ("missing-column", "backs.flow", "b", 14, None),
            ("missing-column", "backs.price", "p", 15, None),
            ("error", "backs.price", "p", 15, 2),  # Bob's kind is no key of the table
        ],
        key=str,
    ), found


def test_a_layout_extending_a_template_named_layout_has_none_of_the_decks_lines(tmp_path):
    """A ``layouts`` entry's ``extends: layout`` names a template file (layout.yaml), not the
    deck's own ``layout``: its inherited regions are written in no line of the deck (they are
    brought in by the extends on line 6)."""
    from kkprint.deck.load import load_deck

    (tmp_path / "layout.yaml").write_text(
        'name: t\nlayout:\n  band: {type: shape, shape: rect, x: 0, y: 0, w: 60, h: 10, fill: "#000000"}\n',
        encoding="utf-8",
    )
    (tmp_path / "d.yaml").write_text(
        "name: d\ncard: {w: 60, h: 80}\n"
        'layout:\n  band: {type: shape, shape: rect, x: 0, y: 0, w: 60, h: 10, fill: "#123456"}\n'
        "layouts:\n  other: {extends: layout, regions: {}}\ncards: [{name: A, layout: other}]\n",
        encoding="utf-8",
    )
    deck = load_deck(tmp_path / "d.yaml")
    assert ("layouts", "other", "band") not in deck.lines and deck.lines[("layout", "band")] == 4
    assert deck.written_at(("layouts", "other"), "band") == (("layouts", "other"), 6)


def refused_on_card_two(deck_text, said, tmp_path, capsys, monkeypatch, lang):
    """The deck (``fees.yaml``) refused by ``build`` in one line saying ``said``, nothing
    written, and ``check --json``'s one finding an error of card 2's region 'fee': (the line,
    the finding)."""
    deck = tmp_path / "fees.yaml"
    deck.write_text(deck_text, encoding="utf-8")
    code, out, err = run(["build", str(deck), "--out", str(tmp_path / "out")], capsys, monkeypatch, lang)
    assert code == 2 and out == "" and not (tmp_path / "out").exists(), err
    [line] = err.splitlines()
    assert line.startswith(("kkprint: error: ", "kkprint: エラー: ")) and f"fees.yaml: {said}" in line, line
    code, out, _ = run(["check", str(deck), "--json"], capsys, monkeypatch, lang)
    [finding] = json.loads(out)
    assert code == 2 and (finding["card"], finding["region"], finding["kind"], finding["severity"]) == (
        2,
        "fee",
        "error",
        "error",
    )
    return line, finding


def built_text(deck_text, tmp_path, capsys, monkeypatch, lang):
    """The first page's words of the deck built without a word on stderr."""
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text(deck_text, encoding="utf-8")
    code, out, err = run(["build", str(fixed), "--out", str(tmp_path / "ok")], capsys, monkeypatch, lang)
    assert code == 0 and err == "", err
    return " ".join(PdfReader(next((tmp_path / "ok").glob("*.pdf"))).pages[0].extract_text().split())


EMPTY_ICON_DECK = """\
name: fees
card: {size: poker}
layout:
  fee:    {type: text, x: 5, y: 5, w: 53, h: 10, text: "pay {${res}} now", size: 12}
  braces: {type: text, x: 5, y: 20, w: 53, h: 10, text: "write {{}} as braces", size: 12}
cards:
  - {name: Mill, res: "die:1"}
  - {name: Ruin, res: ""}
  - {name: Well, res: "die:2"}
"""


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "card 2 'Ruin' (cards[1] (line 8)), region 'fee' (line 4): text: empty icon {}: no icon is named"),
        ("ja", "2枚目のカード「Ruin」（cards[1]（8行目））、領域「fee」（4行目）: 「text」: 空のアイコン {}"),
    ],
)
def test_an_empty_icon_is_an_error_naming_its_card_and_region(tmp_path, capsys, monkeypatch, lang, said):
    """``pay {${res}} now`` on a card whose res is empty printed a literal '{}' with no word: it is
    refused as an unknown icon is, on that card alone, in the reader's language; ``{{}}`` still
    prints braces."""
    line, finding = refused_on_card_two(EMPTY_ICON_DECK, said, tmp_path, capsys, monkeypatch, lang)
    if lang == "ja":
        assert english_left(finding["message"]) == [], finding
    text = built_text(EMPTY_ICON_DECK.replace('res: ""', 'res: "die:3"'), tmp_path, capsys, monkeypatch, lang)
    assert text.count("write {} as braces") == 3 and "pay {" not in text


def test_an_empty_icon_from_a_column_no_card_has_is_said_once_as_the_missing_column(tmp_path, capsys, monkeypatch):
    deck = tmp_path / "fees.yaml"
    deck.write_text(EMPTY_ICON_DECK.replace("${res}", "${resource}"), encoding="utf-8")
    code, out, _ = run(["check", str(deck), "--json"], capsys, monkeypatch)
    [finding] = json.loads(out)
    assert code == 2 and (finding["kind"], finding["region"], finding["card"]) == ("missing-column", "fee", None)


TEMPLATE_CHAIN_DECK = """\
name: chain
card: {size: poker}
layouts:
  item:
    extends: poker
    regions:
      title: {colour: "#000000"}
  plan: {extends: item, regions: {title: {colour: "#ffffff"}}}
  deluxe: {extends: plan}
back: {extends: deluxe}
cards:
  - {name: Knife, layout: item}
  - {name: Scheme, layout: plan}
  - {name: Vault, layout: deluxe}
"""


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "layout 'item', region 'text' (line 5): no card has a column 'text'"),
        ("ja", "レイアウト「item」、領域「text」（5行目）: 列「text」はどのカードにもありません"),
    ],
)
def test_a_template_regions_missing_column_is_said_once_at_the_line_naming_the_template(
    tmp_path, capsys, monkeypatch, lang, said
):
    """poker's ``text`` region reads a column ``text`` no card has. Down item → plan → deluxe (and
    the back extending deluxe) it was said once per layout, with no line; it is said once, at the
    line where the deck brings the region in: ``extends: poker``."""
    deck = tmp_path / "chain.yaml"
    deck.write_text(TEMPLATE_CHAIN_DECK, encoding="utf-8")
    code, out, err = run(["build", str(deck), "--out", str(tmp_path / "out")], capsys, monkeypatch, lang)
    assert code == 2 and out == "" and not (tmp_path / "out").exists(), err
    [line] = err.splitlines()
    assert f"chain.yaml: {said}" in line, line
    code, out, _ = run(["check", str(deck), "--json"], capsys, monkeypatch, lang)
    found = [(f["kind"], f["face"], f["region"], f["line"], f["card"]) for f in json.loads(out)]
    assert code == 2 and found == [("missing-column", "layouts.item", "text", 5, None)], found


def test_a_deck_extending_a_template_as_a_whole_names_the_line_of_its_extends(tmp_path, capsys, monkeypatch):
    deck = tmp_path / "whole.yaml"
    deck.write_text("name: whole\nextends: poker\ncards: [{name: A}, {name: B}]\n", encoding="utf-8")
    code, out, _ = run(["check", str(deck), "--json"], capsys, monkeypatch)
    found = [(f["kind"], f["face"], f["region"], f["line"]) for f in json.loads(out)]
    assert code == 2 and found == [("missing-column", "layout", "text", 2)], found


@pytest.mark.parametrize("key", ["src: 'art/${atr}.svg'", "icon: '${atr}'"])
def test_a_file_named_from_a_column_no_card_has_is_said_once_by_the_columns_error(tmp_path, capsys, monkeypatch, key):
    """``src: "art/${atr}.svg"`` for ``art``: the column's error said once, and not again
    "image 'art/.svg' not found" on every card, as a colour read from it is not."""
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "a.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="9" height="9"/></svg>'
    )
    kind = "image" if key.startswith("src") else "icon"
    deck = tmp_path / "d.yaml"
    deck.write_text(
        "name: d\ncard: {size: mini}\nicons: {a: art/a.svg}\nlayout:\n"
        f"  pic: {{type: {kind}, x: 1, y: 1, w: 9, h: 9, {key}}}\n"
        "cards: [{name: A, art: a}, {name: B, art: a}, {name: C, art: a}]\n",
        encoding="utf-8",
    )
    code, out, _ = run(["check", str(deck), "--json"], capsys, monkeypatch)
    found = [(finding["kind"], finding["region"]) for finding in json.loads(out)]
    assert code == 2 and found == [("missing-column", "pic")], out
    if kind == "image":  # a name the card's own column makes is the card's: its missing file is said
        deck.write_text(
            deck.read_text(encoding="utf-8").replace("${atr}", "${atr or kind}").replace("art: a}", "kind: z}"),
            encoding="utf-8",
        )
        code, out, _ = run(["check", str(deck), "--json"], capsys, monkeypatch)
        found = [(finding["kind"], finding["card"], "art/z.svg" in finding["message"]) for finding in json.loads(out)]
        assert found == [("missing-column", None, False), *(("error", card, True) for card in (1, 2, 3))], out


NO_ICON_NAME_DECK = EMPTY_ICON_DECK.replace("write {{}} as", "write {{wood stone}} as").replace(
    '{name: Ruin, res: ""}', '{name: Quarry, res: "wood stone", count: 2}'
)  # (the same deck, its second card's res a name no icon can have)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "card 2 'Quarry' (cards[1] (line 8)), region 'fee' (line 4): {wood stone} cannot be an icon: "),
        (
            "ja",
            "2枚目のカード「Quarry」（cards[1]（8行目））、領域「fee」（4行目）: {wood stone} はアイコンの名前になりません",
        ),
    ],
)
def test_braces_around_what_can_be_no_icon_name_are_an_error_naming_its_card_and_region(
    tmp_path, capsys, monkeypatch, lang, said
):
    """``pay {${res}} now`` on a card whose res holds a space printed '{wood stone}' as written,
    in silence: it is refused as an empty or unknown icon is, on that card alone, in the reader's
    language, saying how to print braces; ``{{wood stone}}`` still prints braces."""
    line, finding = refused_on_card_two(NO_ICON_NAME_DECK, said, tmp_path, capsys, monkeypatch, lang)
    assert "{{wood stone}}" in line, line
    if lang == "ja":
        assert english_left(finding["message"].replace("wood stone", "")) == [], finding
    fixed = NO_ICON_NAME_DECK.replace('res: "wood stone"', 'res: "die:3"')
    text = built_text(fixed, tmp_path, capsys, monkeypatch, lang)  # (an icon on every card: {{…}} prints braces)
    assert text.count("write {wood stone} as braces") == 4 and "pay {" not in text


@pytest.mark.parametrize(
    ("segments", "refused"),
    [
        ([("pay {wood ", ()), ("stone", ("b",)), ("} now", ())], "{wood stone} cannot be an icon"),
        ([("pay {", ()), ("coin", ("b",)), ("} now", ())], "icon {coin} has markup inside its braces"),
        ([("pay {co", ()), ("in} now", ("i",))], "as in <b>{coin}</b>"),
    ],
)
def test_braces_a_tag_cuts_in_two_are_refused_not_printed_as_written(segments, refused):
    """``pay {wood <b>stone</b>} now`` and ``{<b>coin</b>}``: read a segment at a time, neither
    part was a brace pair, and both printed braces and all, in silence. Tags around the whole
    icon, and doubled braces around tags, still print as meant."""
    from kkprint.engine.text import _items

    with pytest.raises(InputError, match=re.escape(refused)):
        _items(segments, {"coin": "deck:coin"})
    kept = _items([("pay ", ()), ("{coin}", ("b",)), (" and {{", ()), ("x", ("i",)), ("}}", ())], {"coin": "die:3"})
    assert [(piece, icon) for piece, icon, *_ in kept] == [
        ("pay ", None),
        (kept[1][0], "die:3"),
        (" and ", None),
        ("{", None),
        ("x", None),
        ("}", None),
    ]


@pytest.mark.parametrize("written", ["{ coin }", "{die 1}", "{coin!}", "{a\nb}"])
def test_every_brace_pair_that_names_no_icon_is_refused(written):
    from kkprint.engine.text import _items

    with pytest.raises(InputError, match="cannot be an icon"):
        _items([(f"pay {written} now", ())], {"coin": "deck:coin"})
    assert [piece for piece, *_ in _items([(f"pay {{{written}}} now", ())], {})] == [
        "pay ",
        "{",
        written[1:-1],
        "}",
        " now",
    ]
    with pytest.raises(InputError, match="did you mean 'coin'"):
        _items([("{ coin }", ())], {"coin": "deck:coin"})
