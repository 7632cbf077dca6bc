"""Every command, with good input and with bad, in Japanese and in English: no word of the other
language in anything it prints. A Japanese output may hold ASCII letters only where they are the
user's own (file names, what they typed, what their files say) or words a user types as they are
(commands, options, deck keys, ids, units, format names); an English output holds no Japanese the
user did not type. Exit codes are checked on the way: 0 for good input, 2 for bad.

Most commands run in this process (fast: the whole corpus twice in well under a minute), their
``--help`` too; the servers and the watcher run as processes and are stopped with Ctrl-C once
they have said they are ready."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from conftest import ROOT, run_main

EXAMPLES = ROOT / "examples"

# Words that are the same in both languages: file formats and standards, proper names, keys on
# a keyboard, and the environment variables a user sets.
NAMES = {
    "PDF",
    "PNG",
    "SVG",
    "XLSX",
    "JPG",
    "JPEG",
    "CSV",
    "TSV",
    "JSON",
    "YAML",
    "XML",
    "ICC",
    "CMYK",
    "RGB",
    "QR",
    "UTF",
    "MD",  # (Markdown: a .md file)
    "NUL",
    "TTF",
    "OTF",
    "CFF",
    "CFF2",
    "TrueType",
    "OpenType",
    "Noto",
    "Sans",
    "CJK",
    "JP",
    "Ctrl",
    "Wi",
    "Fi",
    "TrimBox",
    "BleedBox",
    "Tabletop",
    "Simulator",
    "TTS",
    "littleCMS",
    "Excel",
    "BudouX",
    "HTML",
    "SSE",
    "ID",
    "id",
    "ids",
    "URL",
    "ok",
    "OK",
    "true",
    "false",
    "none",
    "null",
    "http",
    "https",
    "localhost",
    "kkprint",
    "KKPRINT",
    "LANG",
    "PAPER",
    "DATA",
    "DIR",
    "DEBUG",
    "JOBS",
    "SOURCE",
    "DATE",
    "EPOCH",
    "XDG",
    "Schema",
    "base64",
    "uXXXX",
    "lambda",
    "await",
    "yield",
    "import",
    "python",
    "object",
    "help",
    "all",
    "lt",
    "amp",
    "grey",
    "I",
    "II",
    "III",
    "IV",
    "V",
    "VI",  # (&lt; as written in a deck; tiers numbered as on the cards)
}
UNITS = {"mm", "cm", "in", "pt", "px", "dpi", "MB", "KB", "GB", "ms", "s", "MP"}


@cache
def vocabulary() -> frozenset[str]:
    """What a user types as it is: commands, options, choices, game ids, the keys of deck, tally
    and template files, expression functions and built-in icons, units and the names above."""
    import typer

    from kkprint.base import choices
    from kkprint.base.models import known_keys
    from kkprint.cli.app import app
    from kkprint.cli.terminal import add_options
    from kkprint.deck.expr import CARD_NAMES, DECK_NAMES, FUNCTIONS
    from kkprint.deck.model import DeckFile, deck_schema
    from kkprint.deck.starter import example_names
    from kkprint.engine.geometry import CARD_SIZES
    from kkprint.engine.icons import icon_names
    from kkprint.engine.markup import _TAGS as MARKUP_TAGS
    from kkprint.games import BUILD_TARGETS
    from kkprint.games.kardinal.model import DEFAULT_PATH, load_game

    words: set[str] = set(NAMES) | UNITS | set(FUNCTIONS) | set(CARD_NAMES) | set(DECK_NAMES)

    def walk(command, path=()):
        words.update(path)
        for param in command.params:
            words.update(param.opts + param.secondary_opts)
            words.add(param.name or "")
            if isinstance(param.default, (str, Path)):  # a default shown in help: a value as typed (output)
                words.add(str(param.default))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    tree = typer.main.get_command(app)
    add_options(tree)  # -q, -v, --lang, as every run has them
    walk(tree)
    for enum in (choices.Lang, choices.PaperName, choices.DuplexMode, choices.CutMarks, choices.CheckAgainst):
        words.update(member.value for member in enum)
    words.update(BUILD_TARGETS)
    words.update(known_keys(DeckFile))
    words.update(icon_names())
    words.add(DeckFile.copies_field)  # the column copies come from
    words.update(CARD_SIZES)
    words.update(example_names())  # the example decks, named as --example takes them
    words.update(MARKUP_TAGS)
    words.update(schema_choices(deck_schema()))
    words.update(name for land in load_game(DEFAULT_PATH).lands for name in (land.names.en, land.names.de) if name)
    for template in (ROOT / "templates").rglob("*.yaml"):
        words.update(re.findall(r"[A-Za-z_][\w-]*", template.read_text(encoding="utf-8")))
    for example in EXAMPLES.glob("*.yaml"):  # the tally files' keys
        words.update(re.findall(r"^\s*-?\s*([a-z_]+):", example.read_text(encoding="utf-8"), flags=re.M))
    return frozenset(part.lower() for word in words for part in re.findall(r"[A-Za-z]+\d*", word))


def schema_choices(schema) -> set[str]:
    """Every value a deck's closed sets allow (``enum`` and ``const`` in its JSON Schema): shapes,
    region types, alignments … — words a designer types as they are."""
    found: set[str] = set()
    if isinstance(schema, dict):
        found.update(str(value) for value in schema.get("enum", []))
        if "const" in schema:
            found.add(str(schema["const"]))
        for value in schema.values():
            found |= schema_choices(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= schema_choices(value)
    return found


PATH = re.compile(r"(?:[\w.~-]*/)+[\w.~-]*|[\w.-]+\.(?:ya?ml|csv|tsv|xlsx|json|pdf|png|svg|jpg|ttf|otf|mo|po|txt|md)\b")
URL = re.compile(r"https?://\S+")
CODE = re.compile(r"`[^`]+`")  # `{card, region, kind}`: quoted as code, typed or read as it is


def english_left(text: str, typed: str) -> list[str]:
    """ASCII words in a Japanese output that are none of the user's own nor typed as they are."""
    text = CODE.sub(" ", URL.sub(" ", PATH.sub(" ", text)))
    own = {word.lower() for word in re.findall(r"[A-Za-z]+\d*", typed)}
    allowed = vocabulary() | own
    return [word for word in re.findall(r"[A-Za-z]{2,}\d*", text) if word.lower() not in allowed]


def japanese_left(text: str, typed: str) -> list[str]:
    """Japanese characters in an English output that the user did not type."""
    own = set(typed)
    return [char for char in re.findall(r"[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff60]", text) if char not in own]


@dataclass
class Case:
    """One run: the command line, its standard input, the exit code it must end with, and the
    files it reads (their words are the user's own)."""

    args: tuple[str, ...]
    code: int = 0
    stdin: str = ""
    reads: tuple[str, ...] = ()
    id: str = ""
    before: tuple[tuple[str, ...], ...] = ()
    read: Callable[[str], str] | None = None  # what of the output a person reads (None: all of it)

    def __post_init__(self):
        self.id = self.id or " ".join(self.args)[:70]


BAD_DECKS = {
    "missing-data": "name: d\ncard: {size: poker}\ndata: missing.csv\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: x}\n",
    "card-shape": "name: d\ncard: {size: poker, shape: hexagn}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: x}\n",
    "region-type": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: txt, x: 1, y: 1, w: 9, h: 9, text: x}\n",
    "no-type": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {tpye: text, x: 1, y: 1, w: 9, h: 9, text: x}\n",
    "paper": "name: d\ncard: {size: poker}\nsheet: {paper: a5}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: x}\n",
    "shape": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  s: {type: shape, shape: hexagn, x: 1, y: 1, w: 9, h: 9}\n",
    "size": "name: d\ncard: {size: pokr}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: x}\n",
    "negative": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: -9, h: 9, text: x}\n",
    "icon": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: icon, x: 1, y: 1, w: 9, h: 9, icon: coinn}\n",
    "field": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: '${nmae}'}\n",
    "markup": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: '<q>x</q>'}\n",
    "when": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: x, when: \"name == 'A' or\"}\n",
    "small": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 30, h: 9, text: tiny words, size: 4, min_size: 4}\n",
    "off-card": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 50, y: 1, w: 30, h: 9, text: over the edge}\n",
    "copies": "name: d\ncard: {size: poker}\ncards: [{name: A, qty: 3}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 30, h: 9, text: x}\n",
    "expression": "name: d\ncard: {size: poker}\ncards: [{name: A, cost: 2}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 30, h: 9, text: '${cots * 2}'}\n",
    "syntax": "name: d\ncard: {size: poker\ncards: [{name: A}]\n",
    "unknown-key": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, txt: x}\n",
    "font": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: x, font: nosuch/bold}\n",
    "backs": "name: d\ncard: {size: poker}\nprint: {backs: sideways}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: x}\n",
    "colour": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: x, colour: reddish}\n",
    "align": "name: d\ncard: {size: poker}\ncards: [{name: A}]\nlayout:\n  r: {type: text, x: 1, y: 1, w: 9, h: 9, text: x, align: centre}\n",
}

KARDINAL_BAD = {
    "too-many": "players:\n  - {name: Aki, lands: {France: 9}}\n  - {name: Ben}\n  - {name: Chie}\n",
    "land": "players:\n  - {name: Aki, lands: {Frankriech: 2}}\n  - {name: Ben}\n  - {name: Chie}\n",
    "arms": "players:\n  - {name: Aki, lands: {France: {cards: 2, arms: {crss: 1}}}}\n  - {name: Ben}\n  - {name: Chie}\n",
    "negative": "players:\n  - {name: Aki, ships: -1}\n  - {name: Ben}\n  - {name: Chie}\n",
    "two": "players:\n  - {name: Aki}\n  - {name: Ben}\n",
    "six": "players: [{name: A}, {name: B}, {name: C}, {name: D}, {name: E}, {name: F}]\n",
    "same": "players:\n  - {name: Aki}\n  - {name: Aki}\n  - {name: Chie}\n",
    "syntax": "players: [\n",
    "list": "- [1, 2]\n",
    "key": "players:\n  - {name: Aki, shipz: 2}\n  - {name: Ben}\n  - {name: Chie}\n",
}


def schema_descriptions(output: str) -> str:
    """What an editor shows from ``kkprint schema``: its titles and descriptions (its keys are
    JSON Schema's)."""
    from kkprint.cli.decks import descriptions

    schema = json.loads(output)
    found = descriptions(schema)
    assert len(found) > 50
    return "\n".join(found + list(_titles(schema)))


def _titles(schema):
    """Every title an editor would show (a property called ``title`` is a mapping, not one)."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "title" and isinstance(value, str):
                yield value
            else:
                yield from _titles(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _titles(value)


def cases(work: Path) -> list[Case]:
    deck, deck_data = "decks/mydeck.yaml", "decks/mydeck.csv"

    def example(name: str) -> str:
        return str(EXAMPLES / name)

    found: list[Case] = [
        Case(("list",)),
        Case(("--version",)),
        Case(("config", "show")),
        Case(("config", "set", "paper", "a4")),
        Case(("config", "set", "paper", "a5"), 2),
        Case(("config", "set", "colour", "red"), 2),
        Case(("config", "set", "offset", "9,9,9"), 2),
        Case(("new", "deck", "mydeck", "--dir", "decks")),
        Case(
            ("new", "deck", "mydeck", "--dir", "decks"),
            2,
            before=(("new", "deck", "mydeck", "--dir", "decks"),),
            id="new deck twice",
        ),
        Case(("new", "deck", "x", "--dir", "afile.txt"), 2),
        Case(("new", "deck", "--example", "heist", "--dir", "ex")),
        Case(("new", "deck", "--example", "hiest", "--dir", "ex2"), 2),
        Case(("new", "deck", "--list")),
        Case(("new", "deck"), 2, id="new deck without a name"),
        Case(("docs",)),
        Case(("new", "tally", "Kardinal", "--dir", "tallies")),
        Case(("new", "tally", "chess"), 2),
        Case(("new", "tally", "court", "--dir", "afile.txt"), 2),
        Case(("schema",), read=schema_descriptions),
        Case(("build", deck, "--out", "out"), reads=(deck, deck_data)),
        Case(("build", "Court", "--out", "out", "--players", "3")),
        Case(("build", deck, "--out", "out", "-v"), reads=(deck, deck_data)),
        Case(("build", "court", "webofpower", "--out", "out", "-v")),
        Case(("-q", "build", deck, "--out", "out"), reads=(deck, deck_data)),
        Case(("build", "bulid"), 2),
        Case(("build", deck, "--paper", "a5"), 2),
        Case(("build", deck, "--out", "afile.txt/x"), 2),
        Case(("build", deck, "--gap", "99"), 2),
        Case(("build", deck, "--duplex", "sideways"), 2),
        Case(("build", deck, "--back-offset-x", "99"), 2),
        Case(("build", "nothere.yaml"), 2),
        Case(("check", deck), reads=(deck, deck_data)),
        Case(("check", deck, "--json"), reads=(deck, deck_data)),
        Case(("check", "nothere.yaml"), 2),
        Case(("preview", deck, "--out", "pre"), reads=(deck, deck_data)),
        Case(("preview", deck, "--dpi", "5"), 2),
        Case(("preview", "nothing"), 2),
        Case(("export", deck, "--out", "pics"), reads=(deck, deck_data)),
        Case(("export", deck, "--tts", "--out", "tts"), reads=(deck, deck_data)),
        Case(("export", deck, "--showcase", "1,Nobody"), 2, reads=(deck, deck_data)),
        Case(("export", "nothere.yaml"), 2),
        Case(("calibrate", "--out", "cal")),
        Case(("calibrate", "--duplex", "fold"), 2),
        Case(("calibrate", "--save", "0.5", "--save", "-0.5")),
        Case(("calibrate", "--save", "0.5"), 2),
        Case(("calibrate", "--save", "99", "--save", "0"), 2),
        Case(("scorer", "kardinal", example("kardinal-tally.yaml")), reads=(example("kardinal-tally.yaml"),)),
        Case(
            ("scorer", "kardinal", example("kardinal-tally.yaml"), "--sheet", "chart"),
            reads=(example("kardinal-tally.yaml"),),
        ),
        Case(("scorer", "webofpower", example("webofpower-state.yaml")), reads=(example("webofpower-state.yaml"),)),
        Case(
            ("scorer", "webofpower-board", example("webofpower-board-tally.yaml")),
            reads=(example("webofpower-board-tally.yaml"),),
        ),
        Case(("scorer", "court", example("court-final.yaml")), reads=(example("court-final.yaml"),)),
        Case(("scorer", "culdcept", example("culdcept-state.yaml")), reads=(example("culdcept-state.yaml"),)),
        Case(("scorer", "court", "nothere.yaml"), 2),
        Case(("scorer", "court", "afile.txt"), 2),
        Case(("scorer", "court"), 2),
        Case(("scorer", "court", "x", "--jsn"), 2),
        Case(("scorer", "webofpower", "-"), 2, "players: [Aki, Ben]\nmonasteries: []\n"),
        Case(
            ("scorer", "webofpower-board", "-"),
            2,
            "players: [Aki, Ben, Chie]\nregions: {Aragon: {monasteries: [1, 0]}}\n",
        ),
        Case(
            ("scorer", "webofpower-board", "-"),
            2,
            "players: [Aki, Ben, Chie]\nregions: {Aragon: {monasteries: [1, 0, 0]}}\nalliances: [[Aragon, Aragn]]\n",
        ),
        Case(
            ("scorer", "court", "-"),
            2,
            "players:\n  - {name: Aki, dice: [7, 1, 1]}\n  - {name: Ben, dice: [1, 1, 1]}\n",
        ),
        Case(("scorer", "culdcept", "-"), 2, "players: [Aki, Ben]\nsquares: [{card: Z, owner: Aki}]\n"),
        Case(("court", "eligible", "6", "6", "6", "2", "5")),
        Case(("court", "eligible", "66625")),
        Case(("Court", "Eligible", "6", "6", "6"), id="command names in any case"),
        Case(("court", "eligible", "66627"), 2),
        Case(("court", "eligible", "9", "1", "1"), 2),
        Case(("court", "eligible"), 2),
        Case(("culdcept", "battle", "K", "A")),
        Case(("culdcept", "battle", "5+9", "A"), 2),
        Case(("bulid",), 2),
        Case(("--lang", "fr", "list"), 2),
    ]
    # help shows the files' formats by example: the examples' words are as a user's file has them
    examples = tuple(str(path) for path in sorted(EXAMPLES.glob("*.yaml")))
    found += [Case((*path, "--help"), reads=examples, id=" ".join((*path, "--help"))) for path in command_paths()]
    found += [
        Case(("scorer", "kardinal"), 0, "Aki\nBen\nChie\n\n5 4\n" + "\n" * 40, id="kardinal prompt piped"),
        Case(("scorer", "kardinal"), 2, "Aki\nBen\n", id="kardinal prompt ended early"),
        Case(("scorer", "kardinal"), 2, "Aki\nBen\nChie\n\n9 9\n", id="kardinal prompt refused then ended"),
        Case(("watch", "nothere.yaml"), 2),
        Case(("studio", "nothere.yaml"), 2),
        Case(("serve", "--port", "99999"), 2),
        Case(("serve", "--port", "http"), 2),
    ]
    found += [Case(("scorer", "kardinal", "-"), 2, text, id=f"kardinal {name}") for name, text in KARDINAL_BAD.items()]
    found += [
        Case(("build", f"bad/{name}.yaml", "--out", "out-bad"), 2, reads=(f"bad/{name}.yaml",), id=f"deck {name}")
        for name in BAD_DECKS
        if name not in ("small", "off-card", "copies")
    ]
    found += [
        Case(("check", f"bad/{name}.yaml"), 0, reads=(f"bad/{name}.yaml",), id=f"check {name}")
        for name in ("small", "off-card", "copies")
    ]
    return found


def command_paths() -> list[tuple[str, ...]]:
    """Every command and group of the tree, as typed (``()`` is kkprint itself)."""
    import typer

    from kkprint.cli.app import app

    found: list[tuple[str, ...]] = []

    def walk(command, path=()):
        found.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(typer.main.get_command(app))
    return found


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("sweep")
    (folder / "afile.txt").write_text("a file, not a folder\n", encoding="utf-8")
    (folder / "bad").mkdir()
    for name, text in BAD_DECKS.items():
        (folder / "bad" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


def run_in(work: Path, case: Case, lang: str, capsys, monkeypatch, tmp: Path):
    """The case in ``lang`` in a fresh copy of the work folder (so every case starts alike)."""
    here = tmp / lang
    shutil.copytree(work, here)
    monkeypatch.chdir(here)
    before = case.before or ((("new", "deck", "mydeck", "--dir", "decks"),) if "decks/mydeck.yaml" in case.args else ())
    for args in before:
        run_main(list(args), capsys, monkeypatch, lang)
    code, out, err = run_main(
        [*case.args, "--lang", lang] if "--lang" not in case.args else list(case.args),
        capsys,
        monkeypatch,
        lang,
        case.stdin,
    )
    read = [(here / name).read_text(encoding="utf-8") for name in case.reads if (here / name).exists()]
    typed = " ".join([*case.args, case.stdin, *read])
    return code, out + err, typed


@pytest.mark.parametrize("case", cases(Path(".")), ids=lambda case: case.id)
def test_every_command_in_one_language(case, work, capsys, monkeypatch, tmp_path):
    for lang in ("ja", "en"):
        code, shown, typed = run_in(work, case, lang, capsys, monkeypatch, tmp_path)
        assert code == case.code, (lang, code, shown)
        assert "Traceback" not in shown
        if case.read is not None:
            shown = case.read(shown)
        left = english_left(shown, typed) if lang == "ja" else japanese_left(shown, typed)
        assert left == [], (lang, left, shown[-2000:])


SERVERS = {
    "serve": ("serve", "--port", "{port}"),
    "studio": ("studio", "decks/mydeck.yaml", "--port", "{port}"),
    "watch": ("watch", "decks/mydeck.yaml", "--out", "watched"),
}


@pytest.mark.parametrize("name", sorted(SERVERS))
@pytest.mark.parametrize("lang", ["ja", "en"])
def test_servers_and_the_watcher_speak_one_language(name, lang, tmp_path, capsys, monkeypatch):
    """Each runs as a process (as a user starts it) until it has said it is ready; Ctrl-C stops
    it. Nothing it said, from the first line to the last, is in the other language."""
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time

    monkeypatch.chdir(tmp_path)
    run_main(["new", "deck", "mydeck", "--dir", "decks"], capsys, monkeypatch, lang)
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = [arg.format(port=port) for arg in SERVERS[name]]
    env = {**os.environ, "KKPRINT_LANG": lang, "KKPRINT_DATA_DIR": str(tmp_path / "data"), "BROWSER": "true"}
    process = subprocess.Popen(
        [sys.executable, "-m", "kkprint", *args],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    said = b""
    os.set_blocking(process.stdout.fileno(), False)
    deadline = time.monotonic() + 60  # (a bound on a hang, not a measure of speed)
    while b"Ctrl-C" not in said and process.poll() is None and time.monotonic() < deadline:
        said += process.stdout.read() or b""
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    process.wait(timeout=30)
    said += process.stdout.read() or b""
    shown = said.decode("utf-8")
    assert b"Ctrl-C" in said and "Traceback" not in shown, shown
    assert process.returncode == 130, (process.returncode, shown)  # stopped with Ctrl-C
    typed = " ".join([*args, (tmp_path / "decks" / "mydeck.yaml").read_text(encoding="utf-8")])
    left = english_left(shown, typed) if lang == "ja" else japanese_left(shown, typed)
    assert left == [], (lang, left, shown)


def test_help_columns_line_up_in_japanese(capsys, monkeypatch):
    """Every option's description starts in the same column, whether its value reads <path> or
    <パス> (two columns a character at a terminal)."""
    from kkprint.cli.usage import display_width

    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_main(["scorer", "kardinal", "--help"], capsys, monkeypatch, "ja")
    assert code == 0
    options = out[out.index("オプション:") :].splitlines()[1:]
    starts = set()
    for line in options:
        found = re.match(r"(  -\S.*?  +)\S", line)
        if found and "<" in found.group(1):
            starts.add(display_width(found.group(1)))
    assert len(starts) == 1 and any("<パス>" in line for line in options), (starts, options)


@pytest.mark.parametrize("path", command_paths(), ids=lambda path: " ".join(path) or "kkprint")
def test_japanese_help_fits_an_80_column_terminal(path, capsys, monkeypatch):
    """Japanese has no spaces to break at: help is broken between phrases, by the columns a
    terminal shows, and never starts a line with 、。） or a colon."""
    from kkprint.cli.usage import NO_LINE_STARTS, display_width

    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run_main([*path, "--help"], capsys, monkeypatch, "ja")
    assert code == 0
    lines = out.splitlines()
    assert [line for line in lines if display_width(line) > 80] == [], out
    assert [line for line in lines if line.strip()[:1] in NO_LINE_STARTS] == [], out


def test_a_language_given_before_the_command_is_the_commands(capsys, monkeypatch):
    """``kkprint --lang ja scorer court FILE`` speaks Japanese though KKPRINT_LANG says English;
    the command's own --lang, where given too, wins."""
    tally = str(EXAMPLES / "court-final.yaml")
    code, out, _ = run_main(["--lang", "ja", "scorer", "court", tally], capsys, monkeypatch, "en")
    assert code == 0 and out.startswith("順番")
    code, out, _ = run_main(["scorer", "--lang", "ja", "court", tally], capsys, monkeypatch, "en")
    assert code == 0 and out.startswith("順番")
    code, out, _ = run_main(["--lang", "ja", "scorer", "court", tally, "--lang", "en"], capsys, monkeypatch, "ja")
    assert code == 0 and out.startswith("order")
    code, out, _ = run_main(["scorer", "court", tally], capsys, monkeypatch, "en")  # nothing kept from before
    assert code == 0 and out.startswith("order")
