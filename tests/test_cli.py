"""The commands as a user runs them: outputs, JSON contract, exit codes, and nothing half-written."""

import json
from pathlib import Path

import pytest
from conftest import ROOT, assert_clean_error

EXAMPLE = str(ROOT / "examples" / "kardinal-tally.yaml")


def test_build_kardinal_writes_and_lists_its_files(cli, tmp_path):
    result = cli("build", "kardinal", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    written = [Path(line) for line in result.stdout.splitlines()]
    assert written[0].name == "kardinal-start-ja-a4.pdf"  # the kit opens with its cover and rules
    assert {p.name for p in written} == {
        "kardinal-start-ja-a4.pdf",
        "kardinal-land-cards-ja-a4.pdf",
        "kardinal-tokens-chips-ja-a4.pdf",
        "kardinal-player-aid-ja-a4.pdf",
        "kardinal-chart-ja-a4.pdf",
    }
    assert all(p.exists() and p.read_bytes().startswith(b"%PDF") for p in written)
    assert not list(tmp_path.glob("*.part"))


def test_unknown_target(english, cli, tmp_path):
    assert_clean_error(cli("build", "monopoly", "--out", str(tmp_path)), "unknown target 'monopoly'")
    assert not list(tmp_path.iterdir())


def test_unknown_language(cli, tmp_path):
    assert_clean_error(cli("build", "kardinal", "--lang", "fr", "--out", str(tmp_path)), "--lang")


def test_list(cli):
    result = cli("list")
    assert result.returncode == 0 and "kardinal" in result.stdout and "kardinal-chart" in result.stdout


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_game_has_one_name_in_the_list_and_on_its_printed_kit(cli, lang):
    """`kkprint list` (and so the help and the pad, from the same catalogue) names each game as
    its kit's cover does (data/GAME/rules.yaml): in Japanese, the source documents' own names."""
    import yaml

    kits = {
        "kardinal": "kardinal/rules.yaml",
        "webofpower": "webofpower/rules.yaml",
        "webofpower-board": "webofpower/board-rules.yaml",
        "court": "court/rules.yaml",
        "culdcept": "culdcept/rules.yaml",
    }
    result = cli("list", "--lang", lang)
    assert result.returncode == 0, result.stderr
    listed = {line.split()[0]: line.split(None, 1)[1] for line in result.stdout.splitlines() if line[:1].strip()}
    for game, kit in kits.items():
        name = yaml.safe_load((ROOT / "data" / kit).read_text(encoding="utf-8"))["game"][lang]
        assert listed[game].startswith(name + ":"), (game, listed[game], name)


def test_scorer_json_contract(cli):
    result = cli("scorer", "kardinal", EXAMPLE, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "kardinal"
    assert [p["name"] for p in data["players"]] == ["Aki", "Ben", "Chie"]
    assert [p["total"] for p in data["players"]] == [39, 32, 16]
    assert data["winners"] == ["Aki"]


def test_scorer_table_is_laid_out_like_the_chart(cli):
    result = cli("scorer", "kardinal", EXAMPLE)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    order = [
        next(i for i, line in enumerate(lines) if line.startswith(word))
        for word in (
            "フランス",
            "ザクセン",
            "ハンガリー",
            "カスティリア",
            "デンマーク",
            "中間集計",
            "船",
            "馬車",
            "−2チップ",
            "合計",
        )
    ]
    assert order == sorted(order)
    assert "勝者: Aki" in result.stdout


def test_scorer_writes_the_filled_sheet(cli, tmp_path):
    from pypdf import PdfReader

    sheet = tmp_path / "chart.pdf"
    result = cli("scorer", "kardinal", EXAMPLE, "--sheet", str(sheet), "--json")
    assert result.returncode == 0, result.stderr
    json.loads(result.stdout)  # stdout stays pure JSON
    text = PdfReader(sheet).pages[0].extract_text()
    for value in ("Aki", "Ben", "Chie", "39", "32", "16", "36"):
        assert value in text


def test_bad_tally_writes_nothing(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("players:\n  - name: A\n    lands: {France: 9}\n  - name: B\n  - name: C\n", encoding="utf-8")
    sheet = tmp_path / "chart.pdf"
    result = cli("scorer", "kardinal", str(bad), "--sheet", str(sheet))
    assert_clean_error(result, "bad.yaml", "プレイヤー「A」、国「フランス」", "3行目")
    assert not sheet.exists()


def test_malformed_yaml(english, cli, tmp_path):
    bad = tmp_path / "broken.yaml"
    bad.write_text("players: [\n  - name: A\n", encoding="utf-8")
    assert_clean_error(cli("scorer", "kardinal", str(bad)), "broken.yaml", "not valid YAML", "line")


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", "broken.json: line 1, column 23: not valid JSON: Unterminated string"),
        ("ja", "broken.json: 1行目、23文字目: JSONとして読めません: 文字列が閉じられていません"),
    ],
)
def test_malformed_json_is_said_to_be_no_valid_json(cli, tmp_path, lang, said):
    """A truncated .json tally was "not valid YAML" (YAML reads JSON too, and its reader spoke)."""
    bad = tmp_path / "broken.json"
    bad.write_text('{"players": [{"name": "Aki', encoding="utf-8")
    result = cli("scorer", "kardinal", str(bad), "--lang", lang)
    assert_clean_error(result, said)
    assert "YAML" not in result.stderr


def test_missing_and_binary_files(english, cli, tmp_path):
    assert_clean_error(cli("scorer", "kardinal", str(tmp_path / "nope.yaml")), "no such file")
    binary = tmp_path / "x.yaml"
    binary.write_bytes(b"\x00\x01\x02")
    assert_clean_error(cli("scorer", "kardinal", str(binary)), "binary")
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    assert_clean_error(cli("scorer", "kardinal", str(empty)), "empty")


def test_yaml_cannot_build_objects(cli, tmp_path):
    evil = tmp_path / "evil.yaml"
    evil.write_text("players: !!python/object/apply:os.system ['touch pwned']\n")
    assert_clean_error(cli("scorer", "kardinal", str(evil), cwd=tmp_path), "evil.yaml")
    assert not (tmp_path / "pwned").exists()


def test_tally_from_stdin(cli):
    tally = Path(EXAMPLE).read_text(encoding="utf-8")
    result = cli("scorer", "kardinal", "-", "--json", input=tally)
    assert result.returncode == 0 and json.loads(result.stdout)["winners"] == ["Aki"]


PROMPT_ANSWERS = (
    "\n".join(
        [
            "Aki",
            "Ben",
            "Chie",
            "",  # names, then an empty line
            "5 4",
            "2 3",
            "1 1",  # France
            "",
            "",
            "",  # Saxony
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",  # Hungary, Castile, Franconia
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "",  # Bavaria, Italy, England
            "9",
            "2 2",
            "2 1",
            "",  # Denmark: 9 is refused and asked again
            "",
            "",
            "",  # ships
            "",
            "",
            "",  # carriages
            "1",
            "",
            "",  # −2 chips
            "Chie Denmark 0",
            "",  # a correction, then done
        ]
    )
    + "\n"
)


def test_interactive_prompt_from_a_pipe(cli):
    result = cli("scorer", "kardinal", "--json", input=PROMPT_ANSWERS)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    # France 8+4 | 5+0 | 2+0; Denmark Aki 2 & Ben 2 → 4 each, arms Aki 2 → Aki 12+6-2 = 16, Ben 5+4 = 9
    assert [p["total"] for p in data["players"]] == [16, 9, 2]
    assert "4枚しかありません" in result.stderr  # the 9 Denmark cards were explained, then asked again


def test_prompt_that_ends_early_is_an_error(cli):
    result = cli("scorer", "kardinal", input="Aki\nBen\n")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.rstrip().endswith("集計が終わる前に入力が終わりました")
    assert result.stdout == ""


def test_webofpower_scorers_json(cli):
    result = cli("scorer", "webofpower", str(ROOT / "examples" / "webofpower-state.yaml"), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["game"] == "webofpower" and data["winners"] == ["Ben"]
    assert [p["game_total"] for p in data["players"]] == [23, 24, 12]
    result = cli("scorer", "webofpower-board", str(ROOT / "examples" / "webofpower-board-tally.yaml"), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["winners"] == ["Aki"]


def test_webofpower_bad_grid(english, cli, tmp_path):
    bad = tmp_path / "state.yaml"
    bad.write_text("players: [A, B, C]\nmonasteries: ['11', '', '', '']\n", encoding="utf-8")
    assert_clean_error(cli("scorer", "webofpower", str(bad)), "state.yaml", "row 1 must be a string of 12")


def test_court_eligible_json(cli):
    result = cli("court", "eligible", "3", "3", "3", "3", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["dice"] == [3, 3, 3, 3]
    assert {"Fool", "Charlatan", "Farmer", "Guard", "Hunter", "Astronomer", "Serving Maid"} <= set(data["eligible"])
    assert "Pawn Broker" not in data["eligible"]


def test_court_eligible_bad_die(english, cli):
    assert_clean_error(cli("court", "eligible", "3", "9", "1"), "1 to 6")


def test_court_final_round(cli):
    result = cli("scorer", "court", str(ROOT / "examples" / "court-final.yaml"), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["winners"] == ["Bettina"]


def test_court_players_build(english, cli, tmp_path):
    from pypdf import PdfReader

    result = cli("build", "court", "--players", "3", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    characters = next(p for p in tmp_path.iterdir() if p.name.startswith("court-characters-3p"))
    # 3 players: I 5×2, II 3×2, III 4×2, IV 4×2, V 2, Fools 3 = 37 cards → 5 sheets, each with backs
    assert len(PdfReader(characters).pages) == 10
    assert_clean_error(cli("build", "court", "--players", "7", "--out", str(tmp_path)), "2–5 players")


def test_culdcept_commands(cli):
    result = cli("scorer", "culdcept", str(ROOT / "examples" / "culdcept-state.yaml"), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["winners"] == ["Aki", "Ben"] and [p["total"] for p in data["players"]] == [4, 4]
    result = cli("culdcept", "battle", "K", "A", "--json")
    assert json.loads(result.stdout)["taken"] is True
    assert_clean_error(cli("culdcept", "battle", "6+7", "J", "--lang", "en"), "over 11")
    assert_clean_error(cli("culdcept", "battle", "6+7", "J", "--lang", "ja"), "11を超えて")


def test_culdcept_tiled_mat_overlaps(tmp_path):
    from pypdf import PdfReader

    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets
    from kkprint.engine.tiling import Tiling
    from kkprint.games.culdcept.components import MAT_H, MAT_W

    paths = build_targets(resolve(["culdcept"]), BuildOptions(out_dir=tmp_path))
    a3 = next(p for p in paths if p.name.endswith("-a3.pdf"))
    box = PdfReader(a3).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (842, 1191)
    tiled = next(p for p in paths if "tiled" in p.name)
    upright = Tiling(MAT_W, MAT_H, 595.28 - 2 * 28.35, 841.89 - 2 * 28.35 - 17.0, 34.0)
    lying = Tiling(MAT_W, MAT_H, 841.89 - 2 * 28.35, 595.28 - 2 * 28.35 - 17.0, 34.0)
    reader = PdfReader(tiled)
    # A4 turned on its side takes the 27 × 39 cm mat in three sheets, upright it would take four
    assert len(reader.pages) == lying.rows * lying.columns == 3 < upright.rows * upright.columns
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (842, 595)


def test_unwritable_output_folder(cli, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert_clean_error(cli("build", "kardinal", "--out", str(blocker / "sub")), str(blocker))


def test_same_bytes_across_processes(tmp_path):
    import os
    import subprocess
    import sys

    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / seed
        subprocess.run(
            [sys.executable, "-m", "kkprint", "build", "kardinal", "webofpower", "--out", str(out)],
            check=True,
            capture_output=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        outputs.append({p.name: p.read_bytes() for p in sorted(out.glob("*.pdf"))})
    assert len(outputs[0]) == 8  # two start files, four K&K components, the map and its rules cards
    assert outputs[0] == outputs[1]


def test_bad_options_are_one_line(english, cli):
    assert_clean_error(cli("build", "--lang", "fr"), "--lang", "'fr'")
    assert_clean_error(cli("scorer", "kardinal", "x.yaml", "--paper", "b5"), "--paper")
    assert_clean_error(cli("build", "--nope"), "--nope")


@pytest.mark.parametrize(
    "args, en, ja",
    [
        ((), "a command is missing (see 'kkprint --help')", "コマンドがありません（'kkprint --help' を参照）"),
        (
            ("scorer",),
            "a command is missing; give one of 'kardinal', 'webofpower', 'webofpower-board', 'court' or 'culdcept' "
            "(see 'kkprint scorer --help')",
            "コマンドがありません。「kardinal」、「webofpower」、「webofpower-board」、「court」、「culdcept」の"
            "どれかを指定してください（'kkprint scorer --help' を参照）",
        ),
        (
            ("new",),
            "a command is missing; give one of 'deck' or 'tally' (see 'kkprint new --help')",
            "コマンドがありません。「deck」、「tally」のどれかを指定してください（'kkprint new --help' を参照）",
        ),
        (
            ("court",),
            "a command is missing; give 'eligible' (see 'kkprint court --help')",
            "コマンドがありません。「eligible」を指定してください（'kkprint court --help' を参照）",
        ),
    ],
    ids=["kkprint", "scorer", "new", "court"],
)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_group_without_its_command_is_one_line_and_where_the_help_is(cli, monkeypatch, args, en, ja, lang):
    """``kkprint``, ``kkprint scorer`` and ``kkprint new`` alone printed their whole help on
    stderr (exit 2); a usage error is one line (SPEC §1), and --help is where the help is."""
    for given in (args, (*args, "--lang", lang)):  # (a bare group, and one given only an option)
        monkeypatch.setenv("KKPRINT_LANG", lang)
        result = cli(*given)
        assert result.returncode == 2 and result.stdout == "", result
        said = "kkprint: error: " + en if lang == "en" else "kkprint: エラー: " + ja
        assert result.stderr == said + "\n"


def test_sheet_fits_the_longest_allowed_name(cli, tmp_path):
    from pypdf import PdfReader

    tally = tmp_path / "t.yaml"
    long_name = "Alexandra Konstantinopoulou-Wellington"
    tally.write_text(
        Path(EXAMPLE).read_text(encoding="utf-8").replace("name: Aki", f"name: {long_name}"), encoding="utf-8"
    )
    sheet = tmp_path / "chart.pdf"
    result = cli("scorer", "kardinal", str(tally), "--sheet", str(sheet), "--paper", "letter", "--lang", "en")
    assert result.returncode == 0, result.stderr
    assert "Konstantinopoulou" in PdfReader(sheet).pages[0].extract_text()


def test_version_and_short_help(english, cli):
    result = cli("--version")
    assert result.returncode == 0 and result.stdout.startswith("kkprint ")
    for args in (("-h",), ("build", "-h"), ("scorer", "kardinal", "-h")):
        result = cli(*args)
        assert result.returncode == 0 and "Usage:" in result.stdout
    assert "<bool>" not in cli("build", "-h").stdout  # flags take no value


def test_choices_ignore_case(cli, tmp_path):
    result = cli("build", "kardinal", "--paper", "A4", "--lang", "EN", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "kardinal-chart-en-a4.pdf").exists()


@pytest.mark.parametrize(
    "args, fragment, hint",
    [
        (("build", "kardnal"), "did you mean 'kardinal'?", None),
        (("bulid", "all"), "Did you mean 'build'?", "(see 'kkprint --help')"),
        (("scorer", "kardinal", "--jsn", "x.yaml"), "--json", "(see 'kkprint scorer kardinal --help')"),
    ],
)
def test_typos_get_a_suggestion_and_a_hint_without_the_typo(english, cli, args, fragment, hint):
    result = cli(*args)
    assert_clean_error(result, fragment)
    if hint:
        assert hint in result.stderr


@pytest.mark.parametrize(
    "args, line",
    [
        (("biuld",), "「biuld」というコマンドはありません。「build」のことですか？（"),
        (("build", "--paper", "leter"), "のどれでもありません。「letter」のことですか？（"),
        (("chek",), "「chek」というコマンドはありません。「check」、「schema」のどれかのことですか？（"),  # (several)
    ],
)
def test_a_japanese_suggestion_quotes_and_spaces_as_japanese_does(cli, args, line):
    """Click's 'biuld' and 'build' were said in ASCII quotes, after a space following 。."""
    result = cli(*args, "--lang", "ja")
    assert_clean_error(result, line)
    assert "'" not in result.stderr.split("（")[0] and "。 " not in result.stderr


@pytest.mark.parametrize(
    "command, ja, en",
    [
        (("check",), "{デッキ}", "{DECK}"),
        (("build",), "[対象]...", "[TARGET]..."),
        (("config", "set"), "{項目} {値}", "{KEY} {VALUE}"),
        (("culdcept", "battle"), "{マスのカード} {出すカード}", "{SQUARE_CARD} {OFFERED_CARD}"),
    ],
)
def test_a_usage_line_names_its_arguments_in_the_readers_language(cli, command, ja, en):
    """Typer wrote the code's names ({deck}, [target], {on_square}) in either language."""
    for lang, words in (("ja", ja), ("en", en)):
        usage = cli(*command, "--help", "--lang", lang).stdout.splitlines()[0]
        assert usage.endswith(words), (lang, usage)


def test_typos_in_lands_and_territories_get_a_suggestion(cli):
    tally = "players:\n  - {name: A, lands: {Frankriech: 2}}\n  - {name: B}\n  - {name: C}\n"
    assert_clean_error(cli("scorer", "kardinal", "-", input=tally), "「Frankreich」のことですか")
    assert_clean_error(cli("scorer", "kardinal", "-", "--lang", "en", input=tally), "did you mean 'Frankreich'?")
    state = (
        "phase: final\nplayers: [A, B, C]\nmonasteries: ['............', '............', '............', "
        "'............']\ncardinals: {AA: [0, 0, 0]}\n"
    )
    assert_clean_error(cli("scorer", "webofpower", "-", input=state), "「A」のことですか")
