"""What `kkprint new deck` and `kkprint new tally` write speaks the user's language: the starter's
comments and card texts, the tallies' comments; and the worked examples come out of
`new deck --example` whole, or not at all."""

from __future__ import annotations

import re

import pytest
import yaml
from conftest import ROOT, assert_clean_error, run_cli

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
GAMES = ("kardinal", "webofpower", "webofpower-board", "court", "culdcept")


def _comments(text: str) -> list[str]:
    """The comment of every line (after its last `#` outside quotes); commented-out YAML, which a
    user uncomments as it is (`#   coin: icons/coin.svg`), is not a comment."""
    found = []
    for line in text.splitlines():
        unquoted = re.sub(r"\"[^\"]*\"|'[^']*'", "", line)
        if "#" in unquoted:
            comment = unquoted.rsplit("#", 1)[1].strip()
            if comment and not re.match(r"[\w-]+:\s", comment):
                found.append(comment)
    return found


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_starter_is_commented_and_filled_in_the_users_language(lang, tmp_path):
    written = run_cli("new", "deck", "mydeck", "--dir", str(tmp_path), "--lang", lang)
    assert written.returncode == 0, written.stderr
    deck = (tmp_path / "mydeck.yaml").read_text(encoding="utf-8")
    table = (tmp_path / "mydeck.csv").read_text(encoding="utf-8")
    comments = _comments(deck)
    assert len(comments) >= 20
    names = [row.split(",")[0] for row in table.splitlines()[1:]]
    if lang == "ja":
        english = [comment for comment in comments if not JAPANESE.search(comment)]
        # the lists of the format's own words (paper names, shapes) are the words a user types
        assert all(re.fullmatch(r"[\w\-/, 、.]+", comment) for comment in english), english
        assert names == ["騎士", "治療師", "斥候"] and "ワイルドカード" in deck and "精鋭" in deck
    else:
        assert not JAPANESE.search(deck + table)
        assert names == ["Knight", "Healer", "Scout"]
    assert "docs/" not in deck and "templates/" not in deck  # a pip install has neither folder
    assert yaml.safe_load(deck)["data"] == "mydeck.csv"


def test_the_japanese_starter_builds_and_prints_its_japanese_cards(tmp_path):
    from pypdf import PdfReader

    assert run_cli("new", "deck", "mydeck", "--lang", "ja", cwd=tmp_path).returncode == 0
    built = run_cli("build", "mydeck.yaml", "--lang", "ja", "--out", "out", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    text = "".join(page.extract_text() for page in PdfReader(tmp_path / "out" / "mydeck-a4.pdf").pages)
    for printed in ("騎士", "治療師", "斥候", "ワイルドカード", "精鋭", "決闘"):
        assert printed in text


@pytest.mark.parametrize("game", GAMES)
def test_a_japanese_tally_has_the_english_ones_data_and_japanese_comments(game, tmp_path):
    for lang in ("ja", "en"):
        written = run_cli("new", "tally", game, "--dir", lang, "--lang", lang, cwd=tmp_path)
        assert written.returncode == 0, written.stderr
    [japanese] = (tmp_path / "ja").iterdir()
    [english] = (tmp_path / "en").iterdir()
    assert japanese.name == english.name
    ja_text, en_text = japanese.read_text(encoding="utf-8"), english.read_text(encoding="utf-8")
    assert yaml.safe_load(ja_text) == yaml.safe_load(en_text)
    assert _comments(ja_text) and all(JAPANESE.search(comment) for comment in _comments(ja_text))
    assert not any(JAPANESE.search(comment) for comment in _comments(en_text))
    scored = run_cli("scorer", game, str(japanese), "--json", "--lang", "ja", cwd=tmp_path)
    assert scored.returncode == 0, scored.stderr


def test_every_tally_example_has_its_japanese_twin():
    english = sorted(path.name for path in (ROOT / "examples").glob("*.yaml"))
    assert sorted(path.name for path in (ROOT / "examples" / "ja").glob("*.yaml")) == english


def test_an_example_is_copied_whole_and_builds(tmp_path):
    copied = run_cli("new", "deck", "--example", "kanji", "--dir", "mine", cwd=tmp_path)
    assert copied.returncode == 0, copied.stderr
    assert copied.stdout.strip() == "mine/kanji/kanji.yaml"
    source = ROOT / "examples" / "decks" / "kanji"
    made_here = {"output", "__pycache__"}  # (what building the example in a checkout leaves beside it)
    shipped = [p for p in source.rglob("*") if not made_here & set(p.relative_to(source).parts)]
    assert sorted(p.relative_to(source) for p in shipped) == sorted(
        p.relative_to(tmp_path / "mine" / "kanji") for p in (tmp_path / "mine" / "kanji").rglob("*")
    )
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["kanji"]  # no staging folder left behind
    built = run_cli("build", "mine/kanji/kanji.yaml", "--out", "out", cwd=tmp_path)
    assert built.returncode == 0, built.stderr


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--example", "heyst"], ["heyst", "did you mean 'heist'"]),
        (["--example", "zzz"], ["zzz", "heist", "kanji"]),
        (["mydeck", "--example", "heist"], ["--example"]),
        ([], ["--example"]),
    ],
    ids=["misspelt", "unknown", "name-and-example", "nothing"],
)
def test_a_wrong_example_is_refused_in_one_line_and_writes_nothing(english, tmp_path, args, fragments):
    result = run_cli("new", "deck", *args, cwd=tmp_path)
    assert_clean_error(result, *fragments)
    assert list(tmp_path.iterdir()) == []


def test_an_existing_copy_is_never_overwritten(english, tmp_path):
    assert run_cli("new", "deck", "--example", "lanterns", cwd=tmp_path).returncode == 0
    edited = tmp_path / "lanterns" / "lanterns.yaml"
    edited.write_text("# mine now\n", encoding="utf-8")
    again = run_cli("new", "deck", "--example", "lanterns", cwd=tmp_path)
    assert_clean_error(again, "lanterns", "already exists")
    assert edited.read_text(encoding="utf-8") == "# mine now\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lanterns"]


def test_the_list_names_every_example_with_what_it_shows_in_the_users_language():
    for lang in ("en", "ja"):
        listed = run_cli("new", "deck", "--list", "--lang", lang)
        assert listed.returncode == 0, listed.stderr
        rows = [line.split(None, 1) for line in listed.stdout.splitlines()]
        assert sorted(name for name, _ in rows) == sorted(p.name for p in (ROOT / "examples" / "decks").iterdir())
        assert all(bool(JAPANESE.search(text)) == (lang == "ja") for _, text in rows), rows


@pytest.mark.parametrize(("lang", "guide"), [("en", "custom-decks.md"), ("ja", "custom-decks.ja.md")])
def test_docs_names_the_guide_in_the_users_language(lang, guide):
    shown = run_cli("docs", "--lang", lang)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == str(ROOT / "docs" / guide)


def test_an_example_is_named_in_any_case_and_copied_without_what_a_build_left_beside_it(tmp_path, monkeypatch):
    """A designer who built an example where it lies (a checkout) has its output/ beside it:
    the copy is the example, not that."""
    import shutil

    from kkprint.deck import starter

    examples = tmp_path / "examples"
    shutil.copytree(ROOT / "examples" / "decks" / "heist", examples / "heist")
    (examples / "heist" / "output").mkdir()
    (examples / "heist" / "output" / "heist-a4.pdf").write_bytes(b"%PDF-")
    (examples / "heist" / ".DS_Store").write_bytes(b"")
    monkeypatch.setattr(starter, "DECK_EXAMPLES", examples)
    deck = starter.write_example("HEIST", tmp_path / "mine")
    assert deck == tmp_path / "mine" / "heist" / "heist.yaml" and deck.is_file()
    copied = {p.name for p in deck.parent.iterdir()}
    assert "output" not in copied and ".DS_Store" not in copied and "items.csv" in copied
