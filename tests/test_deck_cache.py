"""A deck is checked by pydantic the first time kkprint meets its data (templates applied) and
read back from the user's cache folder afterwards, as a game definition is: rebuilding an
unchanged deck never imports pydantic, while an edited deck, template or card value is checked
again, and what is printed is the same either way. Whole processes, as a user runs them, each
test with its own cache."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import zlib
from pathlib import Path

from conftest import ROOT, assert_clean_error, errors, imported
from pypdf import PdfReader

DECK = """\
name: cached
card: {size: poker}
version: VERSION
layout:
  frame: {type: shape, shape: roundrect, x: 2, y: 2, w: 59, h: 84, stroke: "#333333"}
  title: {type: text, x: 4, y: 4, w: 55, h: 10, field: name, size: 12}
  mark:  {type: text, x: 4, y: 70, w: 55, h: 10, text: "v${deck.version}", size: 9}
back:
  fill:  {type: shape, shape: rect, x: 0, y: 0, w: 63, h: 88, fill: "#cc2222"}
data: cards.csv
"""


def build(cache: Path, deck: Path, lang: str = "en", out: Path | None = None) -> subprocess.CompletedProcess:
    """``kkprint build DECK`` with import times on stderr; the PDF in ``out`` (else beside the deck)."""
    out = out or deck.parent / "out"
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "kkprint", "build", str(deck), "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "KKPRINT_CACHE_DIR": str(cache), "KKPRINT_LANG": lang},
    )


def make_deck(folder: Path, version: str = '"2"', names: tuple[str, ...] = ("Ember", "Frost")) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cards.csv").write_text("name\n" + "\n".join(names) + "\n", encoding="utf-8")
    deck = folder / "deck.yaml"
    deck.write_text(DECK.replace("VERSION", version), encoding="utf-8")
    return deck


def printed(deck: Path) -> str:
    [pdf] = (deck.parent / "out").glob("*.pdf")
    return "\n".join(page.extract_text() for page in PdfReader(pdf).pages)


def test_an_unchanged_deck_is_rebuilt_without_pydantic_and_prints_the_same(tmp_path):
    deck, cache = make_deck(tmp_path / "deck"), tmp_path / "cache"
    first = build(cache, deck)
    assert first.returncode == 0, first.stderr[-500:]
    assert "pydantic" in imported(first)  # checked: nothing was kept yet
    [pdf] = (deck.parent / "out").glob("*.pdf")
    made_first = pdf.read_bytes()

    second = build(cache, deck)
    assert second.returncode == 0, second.stderr[-500:]
    assert "pydantic" not in imported(second)
    assert "kkprint.base.models" not in imported(second)
    assert pdf.read_bytes() == made_first
    entries = sorted(entry.name.split("-")[0] for entry in (cache / "definitions").iterdir())
    # the deck, once; and the Japanese catalogue (a build prepares the engine's words in both languages)
    assert entries == ["kkprint.base.definitions.Catalogue", "kkprint.deck.model.DeckFile"], entries


def test_new_card_data_needs_no_new_check(tmp_path):
    """The cards are read on every build; only the deck's own keys were checked."""
    deck, cache = make_deck(tmp_path / "deck"), tmp_path / "cache"
    assert build(cache, deck).returncode == 0
    make_deck(deck.parent, names=("Ember", "Gale"))
    again = build(cache, deck)
    assert again.returncode == 0, again.stderr[-500:]
    assert "pydantic" not in imported(again)
    assert "Gale" in printed(deck) and "Frost" not in printed(deck)


def test_a_deck_edited_after_it_was_kept_is_checked_again(tmp_path):
    """A mistake made after the deck was kept is found, at its line, in both languages; its
    correction builds."""
    deck, cache = make_deck(tmp_path / "deck"), tmp_path / "cache"
    assert build(cache, deck).returncode == 0
    good = deck.read_text(encoding="utf-8")
    deck.write_text(good.replace("size: 12}", "size: 900}"), encoding="utf-8")
    for lang, line, problem in (("en", "line 6", "must be at most 200"), ("ja", "6行目", "200以下")):
        result = errors(build(cache, deck, lang))
        assert_clean_error(result, str(deck), line, "layout.title.size", problem)
    deck.write_text(good, encoding="utf-8")
    assert build(cache, deck).returncode == 0


def test_a_changed_template_is_checked_again(tmp_path):
    """What a deck extends is part of what was checked."""
    folder, cache = tmp_path / "deck", tmp_path / "cache"
    deck = make_deck(folder)
    (folder / "base.yaml").write_text("card: {size: poker}\nprint: {backs: long-edge}\n", encoding="utf-8")
    deck.write_text("extends: base.yaml\n" + deck.read_text(encoding="utf-8").replace("card: {size: poker}\n", ""))
    assert build(cache, deck).returncode == 0
    (folder / "base.yaml").write_text("card: {size: poker}\nprint: {backs: sideways}\n", encoding="utf-8")
    result = errors(build(cache, deck))
    assert_clean_error(result, str(deck), "print.backs", "sideways")


def test_values_equal_in_python_but_written_differently_are_not_confused(tmp_path):
    """``1``, ``1.0`` and ``true`` compare equal in Python; a deck's version prints as written."""
    deck, cache = make_deck(tmp_path / "deck", version="1"), tmp_path / "cache"
    assert build(cache, deck).returncode == 0
    assert "v1" in printed(deck) and "v1.0" not in printed(deck)
    make_deck(deck.parent, version="1.0")
    assert build(cache, deck).returncode == 0
    assert "v1.0" in printed(deck)


def test_expressions_in_positions_print_the_same_from_the_cache(tmp_path):
    """A region whose keys come from each card keeps what was written through the cache."""
    example = ROOT / "examples" / "decks" / "lanterns" / "lanterns.yaml"
    cache = tmp_path / "cache"
    made = []
    for _ in range(2):
        result = build(cache, example, out=tmp_path / "out")
        assert result.returncode == 0, result.stderr[-500:]
        [pdf] = (tmp_path / "out").glob("*.pdf")
        made.append(pdf.read_bytes())
    assert made[0] == made[1]
    assert list((cache / "definitions").iterdir())  # the second build read the kept deck


def test_a_games_layout_is_read_back_by_its_bytes_and_an_edit_or_its_template_is_checked_again(tmp_path):
    """A game's own layout (``data/court/cards.yaml``) that extends nothing is kept by its bytes:
    a warm build neither checks nor parses it. An edit is found at once (the file and its key
    named), and a layout that extends a template is told by what both come to, so an edit of
    the template is found too."""
    import shutil

    data, cache = tmp_path / "data", tmp_path / "cache"
    shutil.copytree(ROOT / "data", data)
    layout = data / "court" / "cards.yaml"

    def court(lang: str = "en") -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "kkprint", "build", "court", "--out", str(tmp_path / "out")],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "KKPRINT_CACHE_DIR": str(cache), "KKPRINT_DATA": str(data), "KKPRINT_LANG": lang},
        )

    first, second = court(), court()
    assert first.returncode == second.returncode == 0, second.stderr[-500:]
    assert "pydantic" in imported(first) and "pydantic" not in imported(second)
    kept = (
        cache / "definitions" / f"kkprint.deck.model.DeckFile-{zlib.crc32(str(layout.resolve()).encode()):08x}.pickle"
    )
    assert pickle.loads(kept.read_bytes())[1] == layout.read_bytes()  # kept by the file's bytes, not its parse
    pages = PdfReader(tmp_path / "out" / "court-characters-en-a4.pdf").pages
    good = layout.read_text(encoding="utf-8")
    layout.write_text(good.replace("stroke_width: 0.6}", "stroke_wdth: 0.6}", 1), encoding="utf-8")
    for lang in ("en", "ja"):
        assert_clean_error(errors(court(lang)), "cards.yaml", "stroke_wdth", "stroke_width")

    # the same layout, its look in a template it extends (the key as written, or with an escape)
    head, _, looks = good.partition("layout:\n")
    template = data / "court" / "look.yaml"
    for key in ("extends", '"ext\\x65nds"'):
        template.write_text("layout:\n" + looks, encoding="utf-8")
        layout.write_text(f"{head}{key}: look.yaml\n", encoding="utf-8")
        assert court().returncode == 0
        again = PdfReader(tmp_path / "out" / "court-characters-en-a4.pdf").pages
        assert len(again) == len(pages) and again[0].extract_text() == pages[0].extract_text()
        template.write_text("layout:\n" + looks.replace("size: 15,", "sise: 15,", 1), encoding="utf-8")
        assert_clean_error(errors(court()), "sise", "size")
