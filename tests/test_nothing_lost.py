"""Nothing lost in silence: a tally file is never replaced by surprise, a build of several
targets lists every file it wrote even when one fails, a CSV's broken quote is an error naming
its row, and old Mac line ends are read."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from conftest import assert_clean_error
from pypdf import PdfReader
from test_cli import PROMPT_ANSWERS

from kkprint.base.errors import InputError

# --- scorer kardinal --save -------------------------------------------------------------------


def saved_tally(path: Path, state: str, game: str = "kardinal") -> None:
    """A tally as the prompt saves it: its header, the game and whether it was finished."""
    from kkprint.cli.prompt import TallySaver

    data = {"players": [{"name": "Aki", "lands": {}}, {"name": "Ben", "lands": {}}, {"name": "Chie", "lands": {}}]}
    TallySaver(path, game)(data, finished=state == "finished")


def test_a_finished_tally_is_not_replaced_and_the_way_on_is_named(cli, english, tmp_path):
    path = tmp_path / "game.yaml"
    saved_tally(path, "finished")
    before = path.read_bytes()
    result = cli("scorer", "kardinal", "--save", str(path), input=PROMPT_ANSWERS)
    assert_clean_error(result, str(path), "finished kardinal tally", f"--resume {path}", "another name")
    assert path.read_bytes() == before


def test_a_file_that_is_no_saved_tally_is_not_replaced(cli, english, tmp_path):
    for content in ("# my notes\nplayers: [Aki]\n", "hello\n"):
        path = tmp_path / "notes.yaml"
        path.write_text(content, encoding="utf-8")
        result = cli("scorer", "kardinal", "--save", str(path), input=PROMPT_ANSWERS)
        assert_clean_error(result, str(path), "not a tally saved at this prompt", "another name")
        assert path.read_text(encoding="utf-8") == content


def test_another_games_save_is_not_replaced(cli, english, tmp_path):
    path = tmp_path / "court.yaml"
    saved_tally(path, "unfinished", game="court")
    result = cli("scorer", "kardinal", "--save", str(path), input=PROMPT_ANSWERS)
    assert_clean_error(result, "saved court tally")


def test_an_unfinished_save_of_the_game_goes_on_where_it_stopped(cli, english, tmp_path):
    path = tmp_path / "game.yaml"
    saved_tally(path, "unfinished")
    answers = PROMPT_ANSWERS.split("\n", 4)[4]  # the names are in the save: they are not asked again
    result = cli("scorer", "kardinal", "--save", str(path), "--json", input=answers)
    assert result.returncode == 0, result.stderr
    assert f"going on from the unfinished tally in {path}" in result.stderr
    assert [p["total"] for p in json.loads(result.stdout)["players"]] == [16, 9, 2]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[1] == "# game: kardinal, finished"
    assert yaml.safe_load("\n".join(lines))["players"][0]["lands"]["France"]["cards"] == 5  # named, a number


def test_a_new_save_is_marked_finished_at_the_end(cli, tmp_path):
    path = tmp_path / "new" / "game.yaml"
    result = cli("scorer", "kardinal", "--save", str(path), "--json", input=PROMPT_ANSWERS)
    assert result.returncode == 0, result.stderr
    assert path.read_text(encoding="utf-8").splitlines()[:2] == [
        "# kkprint tally, saved at the prompt",
        "# game: kardinal, finished",
    ]
    again = cli("scorer", "kardinal", "--save", str(path), input=PROMPT_ANSWERS)
    assert again.returncode == 2 and "--resume" in again.stderr  # the next game needs another name


# --- several targets, one failing ---------------------------------------------------------------

GOOD_DECK = """\
name: good
card: {size: poker}
layout:
  title: {type: text, x: 5, y: 5, w: 53, h: 8, field: name, size: 12}
cards: [{name: Guard}, {name: Sage}]
"""


def test_a_failing_target_does_not_hide_what_the_others_wrote(cli, english, tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(GOOD_DECK, encoding="utf-8")
    bad = tmp_path / "bad-deck.yaml"
    bad.write_text(GOOD_DECK.replace("name: good", "name: bad").replace("field: name", "field: nmae"), encoding="utf-8")
    out = tmp_path / "out"
    result = cli("build", "court", str(bad), str(good), "--out", str(out), "--lang", "en")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    listed = [Path(line) for line in result.stdout.splitlines()]
    written = sorted(out.glob("*.pdf"))
    assert sorted(listed) == written and len(written) >= 3  # court's PDFs and the good deck's
    assert out / "good-a4.pdf" in listed and not any("bad" in path.name for path in written)
    for path in written:
        assert len(PdfReader(path).pages) >= 1
    errors = result.stderr.splitlines()
    assert (
        errors[0]
        == f"kkprint: error: {bad}: region 'title' (line 4): no card has a column 'nmae'; did you mean 'name'?"
    )
    assert errors[-1] == f"kkprint: not built: {bad}; the files listed were written"


def test_a_target_that_fails_half_way_lists_what_it_had_written(tmp_path):
    from kkprint.engine.document import open_pdf
    from kkprint.engine.geometry import PAPERS
    from kkprint.engine.job import BuildOptions, Target, run_targets

    def build(options, fonts):
        first = options.out_dir / "first.pdf"
        with open_pdf(first, PAPERS["a4"], fonts, title="first", lang="en") as doc:
            doc.end_page()
        raise InputError("the second part went wrong", source="half.yaml")

    half = Target("half", "half", ("first",), lambda options: [], build)
    [outcome] = run_targets([half], BuildOptions(out_dir=tmp_path))
    assert outcome.paths == [tmp_path / "first.pdf"] and (tmp_path / "first.pdf").is_file()
    assert str(outcome.error) == "half.yaml: the second part went wrong"


# --- CSV -----------------------------------------------------------------------------------------

CSV_DECK = """\
name: d
card: {size: poker}
data: cards.csv
layout:
  title: {type: text, x: 5, y: 5, w: 53, h: 8, field: name, size: 12}
  rules: {type: text, x: 5, y: 20, w: 53, h: 40, field: rules, size: 9}
"""


def test_an_unterminated_quote_is_an_error_naming_its_row(cli, english, tmp_path):
    (tmp_path / "d.yaml").write_text(CSV_DECK, encoding="utf-8")
    (tmp_path / "cards.csv").write_text(
        'name,rules\nGuard,Block one attack.\nSage,"Draw two cards.\nScout,Look ahead.\nKing,Rule.\n', encoding="utf-8"
    )
    result = cli("build", str(tmp_path / "d.yaml"), "--out", str(tmp_path / "out"))
    assert_clean_error(result, "cards.csv", "row 3", "never closed")
    assert not (tmp_path / "out").exists()
    japanese = cli("build", str(tmp_path / "d.yaml"), "--out", str(tmp_path / "out"), "--lang", "ja")
    assert_clean_error(japanese, "cards.csv", "3行目", "閉じていません")


def test_text_after_a_closing_quote_is_an_error_too(cli, english, tmp_path):
    (tmp_path / "d.yaml").write_text(CSV_DECK, encoding="utf-8")
    (tmp_path / "cards.csv").write_text('name,rules\nGuard,"Block" one attack\n', encoding="utf-8")
    assert_clean_error(cli("build", str(tmp_path / "d.yaml"), "--out", str(tmp_path)), "row 2", 'write ""')


def test_old_mac_line_ends_are_read(tmp_path):
    from kkprint.deck.load import load_deck

    (tmp_path / "d.yaml").write_text(CSV_DECK, encoding="utf-8")
    (tmp_path / "cards.csv").write_bytes(b'name,rules\rGuard,Block one attack.\rSage,"Two\rlines"\rScout,Look.\r')
    cards = load_deck(tmp_path / "d.yaml").cards
    assert [(c.fields["name"], c.fields["rules"]) for c in cards] == [
        ("Guard", "Block one attack."),
        ("Sage", "Two\nlines"),
        ("Scout", "Look."),
    ]
