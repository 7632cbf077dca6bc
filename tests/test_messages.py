"""One catalogue, two languages: every message the code uses has its Japanese, the compiled
catalogue matches its source, and the scorers and helpers, run in one language on good and bad
input, show no word of the other."""

import re
import string
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po
from conftest import ROOT, run_cli

PO = ROOT / "kkprint" / "locale" / "ja" / "LC_MESSAGES" / "kkprint.po"
EXAMPLES = ROOT / "examples"


def test_every_message_has_its_japanese_and_the_catalogue_is_compiled():
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "messages.py"), "--check"], capture_output=True, text=True, cwd=ROOT
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_kept_catalogue_says_what_gettext_says(tmp_path, monkeypatch):
    """The Japanese catalogue is read back from the cache folder (not parsed again) and answers
    every message, singular and plural, as gettext's own parse of the .mo does."""
    import gettext

    from kkprint.base import definitions, i18n

    monkeypatch.setenv("KKPRINT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(i18n, "_load_catalogue", definitions.kept_catalogue)  # (as kkprint.__main__ has it)
    theirs = gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, languages=["ja"])
    i18n._catalogue.cache_clear()
    try:
        made = i18n._catalogue("ja")
        assert list(tmp_path.glob("definitions/kkprint.base.definitions.Catalogue-*.pickle"))
        i18n._catalogue.cache_clear()
        monkeypatch.setattr(definitions.Catalogue, "parsed", None)  # (the second must come from the folder)
        kept = i18n._catalogue("ja")
    finally:
        i18n._catalogue.cache_clear()
    assert kept is not made and len(theirs._catalog) > 1000
    for key in theirs._catalog:
        if isinstance(key, tuple):  # (a plural message: its singular, and the form's number)
            for n in (0, 1, 2, 7):
                assert kept.ngettext(key[0], "plural", n) == theirs.ngettext(key[0], "plural", n)
        elif key:
            assert kept.gettext(key) == theirs.gettext(key)
    assert kept.gettext("no such message") == "no such message"
    assert (kept.info(), kept.charset()) == (theirs.info(), theirs.charset()) and kept.charset() == "utf-8"
    assert kept.ngettext("{count} die", "{count} dice", 3) == theirs.ngettext("{count} die", "{count} dice", 3)


def fields(text):
    try:
        return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)
    except ValueError:  # a literal brace in a message never formatted with values
        return "not a format"


def test_translations_keep_every_placeholder():
    with PO.open("rb") as stream:
        catalogue = read_po(stream)
    for message in catalogue:
        if message.id:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in (*ids[1:], *forms):  # each English form, and each Japanese one
                assert fields(ids[0]) == fields(text), message.id


# Words that are the same in both languages: names from the example files, file syntax and
# commands the user types, units.
NAMES = {
    "Aki",
    "Ben",
    "Chie",
    "Dieter",
    "Anna",
    "Carl",
    "Bettina",
    "Frankriech",
    "Frankreich",
    "Aragon",
    "Burgund",
    "kkprint",
    "scorer",
    "kardinal",
    "court",
    "eligible",
    "culdcept",
    "battle",
    "webofpower",
    "board",
    "check",
    "sources",
    "resume",
    "save",
    "help",
    "lang",
    "json",
    "yaml",
    "players",
    "lands",
    "phase",
    "final",
    "interim",
    "squares",
    "monasteries",
    "cardinals",
    "dice",
    "queen",
    "roads",
    "alliances",
    "regions",
    "owner",
    "cards",
    "card",
    "arms",
    "ships",
    "carriages",
    "minus",
    "two",
    "name",
    "stdin",
    "UTF",
    "YAML",
    "JSON",
    "CSV",
    "offset",
    "Zed",
    "France",
    "Nowhere",
    "xyz",
    "results",
    "Ctrl",
}


def english_words(text, typed=()):
    """Words of three or more Latin letters, apart from paths, what the user typed (quoted back
    to them, or the command's own words), option names and the names above."""
    text = re.sub(r"(/[\w.\-/]+)", " ", text)  # paths
    text = re.sub(r"'[^']*'|「[^」]*」|<[^>]*>|--[\w-]+", " ", text)
    allowed = NAMES | {w for arg in typed for w in re.findall(r"[A-Za-z]+", arg)} | {"III"}
    words = re.findall(r"[A-Za-z]{3,}", text)
    return [w for w in words if w not in allowed and w.lower() not in allowed]


def japanese(text):
    return re.findall(r"[\u3040-\u30ff\u4e00-\u9fff]", text)


CASES = [
    ("scorer", "kardinal", str(EXAMPLES / "kardinal-tally.yaml")),
    ("scorer", "webofpower", str(EXAMPLES / "webofpower-state.yaml")),
    ("scorer", "webofpower-board", str(EXAMPLES / "webofpower-board-tally.yaml")),
    ("scorer", "court", str(EXAMPLES / "court-final.yaml")),
    ("scorer", "culdcept", str(EXAMPLES / "culdcept-state.yaml")),
    ("court", "eligible", "6", "6", "6", "2", "5"),
    ("culdcept", "battle", "K", "A"),
    ("culdcept", "battle", "5+6", "A+10"),
]
BAD = [
    (("scorer", "kardinal", "-"), "players:\n  - {name: Aki, lands: {France: 9}}\n  - {name: Ben}\n  - {name: Chie}\n"),
    (
        ("scorer", "kardinal", "-"),
        "players:\n  - {name: Aki, lands: {Frankriech: 2}}\n  - {name: Ben}\n  - {name: Chie}\n",
    ),
    (("scorer", "kardinal", "-"), "players:\n  - {name: Aki, ships: -1}\n  - {name: Ben}\n  - {name: Chie}\n"),
    (("scorer", "kardinal", "-"), "players: [\n"),
    (("scorer", "webofpower", "-"), "players: [Aki, Ben]\nmonasteries: []\n"),
    (("scorer", "webofpower-board", "-"), "players: [Aki, Ben, Chie]\nregions: {Aragon: {monasteries: [1, 0]}}\n"),
    (("scorer", "court", "-"), "players:\n  - {name: Aki, dice: [7, 1, 1]}\n  - {name: Ben, dice: [1, 1, 1]}\n"),
    (("scorer", "court", "-"), "- [1, 2]\n"),  # a list where a mapping belongs: its kind said in words
    (("scorer", "culdcept", "-"), "players: [Aki, Ben]\nsquares: [{card: Z, owner: Aki}]\n"),
    (("court", "eligible", "9", "1", "1"), None),
    (("culdcept", "battle", "5+9", "A"), None),
    (("scorer", "court", "/nowhere/file.yaml"), None),
    (("scorer", "court"), None),
    (("scorer", "court", "x", "--jsn"), None),
    (("bulid",), None),
    (("build", "--paper", "a5"), None),
    (("new", "tally", "chess"), None),
    ((), None),  # a group without its command: one line, not its whole help
    (("scorer",), None),
    (("new",), None),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: " ".join(case[:3]))
def test_good_input_in_one_language_only(case):
    ja = run_cli(*case, "--lang", "ja")
    en = run_cli(*case, "--lang", "en")
    assert ja.returncode == 0 and en.returncode == 0, ja.stderr + en.stderr
    assert english_words(ja.stdout + ja.stderr, case) == []
    assert japanese(en.stdout + en.stderr) == []


@pytest.mark.parametrize("args, stdin", BAD, ids=lambda value: " ".join(value) if isinstance(value, tuple) else "")
def test_bad_input_in_one_language_only(args, stdin, monkeypatch):
    for lang, foreign in (("ja", lambda text: english_words(text, args)), ("en", japanese)):
        monkeypatch.setenv("KKPRINT_LANG", lang)
        result = run_cli(*args, input=stdin or "")
        assert result.returncode == 2, result.stderr
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and "Traceback" not in result.stderr
        assert foreign(lines[0]) == [], (lang, lines[0])


def every_command():
    import typer

    from kkprint.cli.app import app

    def walk(command, path):
        yield path
        for name, sub in getattr(command, "commands", {}).items():
            yield from walk(sub, (*path, name))

    return list(walk(typer.main.get_command(app), ()))


@pytest.mark.parametrize("command", every_command(), ids=lambda path: " ".join(path) or "kkprint")
def test_help_in_one_language_only(command, monkeypatch):
    monkeypatch.setenv("KKPRINT_LANG", "ja")
    shown = run_cli(*command, "--help").stdout
    assert "使い方" in shown
    prose = re.sub(r"^ {2}[a-z][\w-]*(?:\.\.\.)?(?= )", "", shown, flags=re.M)  # commands and arguments, as typed
    prose = re.sub(
        r"`[^`]*`|\[[^\]]*\]|(?<![\w-])-grey|^使い方: .*$", " ", prose, flags=re.M
    )  # commands, defaults, file names
    prose = prose.split("形式")[0]  # the format example is the file's own syntax
    leftover = [
        w
        for w in english_words(prose, command)
        if w
        not in {
            "OPTIONS",
            "COMMAND",
            "ARGS",
            "KKPRINT",
            "LANG",
            "PAPER",
            "path",
            "int",
            "text",
            "long",
            "edge",
            "short",
            "none",
            "all",
            "ja",
            "en",
            "letter",
            "NAME",
            "csv",
            "OUT",
            "results",
            "tally",
            "game",
            "dice",
            "offered",
            "square",
            "install",
            "completion",
            "show",
            "version",
            "port",
            "lan",
            "dir",
            "deck",
            "sheet",
            "paper",
            "TALLY",
            "RESULTS",
            "GAME",
            "DICE",
            "SQUARE",
            "OFFERED",
            "ON_SQUARE",
            "own",
            "Tabletop",
            "Simulator",
            "TrimBox",
            "BleedBox",
            "CMYK",
            "PNG",
            "PDF",
            "Knight",
            "Queen",
            "Wi",
            "Fi",
            "QR",
            "id",
            "data",
            "state",
            "STATE",
            "main",
            "files",
        }
    ]
    assert leftover == [], leftover


DECKS = {
    "negative": "  r: {type: text, x: 1, y: 1, w: -9, h: 9, text: x}\n",
    "icon": "  r: {type: icon, x: 1, y: 1, w: 9, h: 9, icon: coinn}\n",
    "field": "  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: '${nmae}'}\n",
    "markup": "  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: '<q>x</q>'}\n",
    "when": "  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: x, when: \"name == 'A' or\"}\n",
}


@pytest.mark.parametrize("case", sorted(DECKS))
def test_a_designers_mistake_in_one_language_only(case, tmp_path, monkeypatch):
    deck = tmp_path / "d.yaml"
    deck.write_text("name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n" + DECKS[case], encoding="utf-8")
    for lang, foreign in (("ja", english_words), ("en", japanese)):
        monkeypatch.setenv("KKPRINT_LANG", lang)
        result = run_cli("build", str(deck), "--out", str(tmp_path / "out"))
        assert result.returncode == 2 and not list((tmp_path / "out").glob("*"))
        line = result.stderr.strip()
        keys = re.sub(
            r"\b[\w\[\]]+(\.[\w\[\]]+)+|\blayout\b|\bwhen\b|使えるのは: .*|known: .*", " ", line
        )  # the file's own keys
        assert foreign(keys) == [], (lang, line)


def test_no_words_kept_in_scattered_dictionaries():
    """Program words live in the catalogue only; a game's printed labels live in its data file,
    where the model requires both languages of every one (kkprint.base.models.Names)."""
    scattered = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "kkprint").rglob("*.py")
        if re.search(r"""["']ja["']\s*:\s*["']""", path.read_text(encoding="utf-8"))
    ]
    assert scattered == []


def test_list_and_config_show_in_japanese(monkeypatch):
    monkeypatch.setenv("KKPRINT_LANG", "ja")
    listed = run_cli("list").stdout
    prose = re.sub(r"\S+\.pdf|--players|^\S+", " ", listed, flags=re.M)  # file names, ids and options as typed
    assert english_words(prose) == [] and "国カード56枚" in listed
    shown = run_cli("config", "show").stdout
    assert english_words(re.sub(r"^\w+:|KKPRINT_\w+", " ", shown, flags=re.M)) == [] and "設定ファイル" in shown


def _broken_font(folder):
    good = (EXAMPLES / "decks" / "heist" / "fonts" / "Vera.ttf").read_bytes()
    (folder / "broken.ttf").write_bytes(good[:2000])  # cut short: fontTools says "unpack requires a buffer…"
    return "fonts: {story: {regular: broken.ttf}}\nlayout:\n  t: {type: text, x: 1, y: 1, w: 40, h: 9, text: x, font: story}\n"


def _deep_svg(folder):
    (folder / "deep.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9">' + "<g>" * 300 + "</g>" * 300 + "</svg>",
        encoding="utf-8",
    )  # libxml2: "Excessive depth in document: 256, use XML_PARSE_HUGE option"
    return "layout:\n  p: {type: image, x: 1, y: 1, w: 9, h: 9, src: deep.svg}\n"


def _broken_svg(folder):
    (folder / "cut.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg">\n<rect', encoding="utf-8")
    return "layout:\n  p: {type: image, x: 1, y: 1, w: 9, h: 9, src: cut.svg}\n"


def _broken_workbook(folder):
    import zipfile

    with zipfile.ZipFile(folder / "cards.xlsx", "w") as archive:  # openpyxl: "There is no item named …"
        archive.writestr("notes.txt", "a zip archive, but no workbook")
    return "data: cards.xlsx\nlayout:\n  t: {type: text, x: 1, y: 1, w: 40, h: 9, text: x}\n"


def _broken_profile(folder):
    (folder / "shop.icc").write_bytes(b"not a profile")  # littleCMS: "cannot open profile file"
    return "print_shop: {icc: shop.icc}\nlayout:\n  t: {type: text, x: 1, y: 1, w: 40, h: 9, text: x}\n"


# A file a deck names that its library cannot read: (what the deck says, the words the line must
# hold (the file, and where the deck names it), kept words the line may hold as they are: names of
# formats, and what the build is run with).
BROKEN_FILES = {
    "font": (_broken_font, ("broken.ttf", "fonts.story.regular"), {"TrueType", "OpenType"}, ()),
    "deep svg": (_deep_svg, ("deep.svg",), set(), ()),
    "broken svg": (_broken_svg, ("cut.svg",), {"SVG", "XML"}, ()),
    "workbook": (_broken_workbook, ("cards.xlsx",), {"xlsx"}, ()),
    "ICC profile": (_broken_profile, ("shop.icc", ": print_shop.icc: "), {"ICC"}, ("--print-shop",)),
}


@pytest.mark.parametrize("case", sorted(BROKEN_FILES))
def test_a_broken_file_a_deck_names_is_said_in_kkprints_words(case, tmp_path, monkeypatch):
    """The library that cannot read the file ("unpack requires a buffer of 2 bytes", "Excessive
    depth in document") says nothing a reader of Japanese can read, nor what to do: the line is
    kkprint's own, in the reader's language, and names the file."""
    make, named, kept, options = BROKEN_FILES[case]
    deck = tmp_path / "d.yaml"
    described = make(tmp_path)
    cards = "" if "data:" in described else "cards: [{name: A}]\n"
    deck.write_text("name: d\ncard: {size: poker}\n" + cards + described, encoding="utf-8")
    for lang, foreign in (("ja", english_words), ("en", japanese)):
        monkeypatch.setenv("KKPRINT_LANG", lang)
        result = run_cli("build", str(deck), "--out", str(tmp_path / "out"), *options)
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.returncode == 2 and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
        assert all(words in lines[0] for words in named) and not list((tmp_path / "out").glob("*")), lines[0]
        words = re.sub(r"\b[\w\[\]]+(\.[\w\[\]]+)+", " ", lines[0])  # the deck's own keys and file names
        assert [w for w in foreign(words) if w not in kept] == [], (lang, lines[0])
