"""The land-by-land prompt, driven by scripted answers (the same walk a pipe or a person makes)."""

import pytest

from kkprint.base.errors import InputError
from kkprint.games.kardinal import prompt
from kkprint.games.kardinal.service import score


def scripted(answers):
    queue = list(answers)
    said = []

    def ask(question):
        said.append(question)
        return queue.pop(0) if queue else None

    return ask, said.append, said


def blank_lands(game, players):
    return [""] * (len(game.lands) * players)


def test_walks_names_lands_roads_and_chips(kardinal_game):
    lands = blank_lands(kardinal_game, 3)
    lands[0:3] = ["5 4", "2 3", "1"]  # France for Aki, Ben, Chie
    answers = ["Aki", "Ben", "Chie", ""] + lands + ["", "", ""] + ["", "", ""] + ["1", "", ""]
    ask, say, said = scripted(answers)
    data = prompt.collect(kardinal_game, ask, say, "en")
    totals = [p.total for p in score(data, "prompt", kardinal_game).players]
    assert totals == [8 + 4 - 2, 5, 2]
    assert any("France (8) — Aki" in line for line in said)


def test_refused_answers_are_explained_and_asked_again(kardinal_game):
    lands = blank_lands(kardinal_game, 3)
    answers = ["Aki", "Aki", "Ben", "", "Chie", ""] + ["9", "x y z", "3 9", "3 2"] + lands[1:] + [""] * 9
    ask, say, said = scripted(answers)
    data = prompt.collect(kardinal_game, ask, say, "en")
    assert data["players"][0]["lands"]["france"] == {"cards": 3, "arms": 2}  # numbers, not quoted text
    joined = "\n".join(said)
    assert "already playing" in joined and "at least 3" in joined
    assert "only 8" in joined and "at most 2 numbers" in joined and "at most" in joined


def test_corrections(kardinal_game):
    data = {"players": [{"name": "Aki", "lands": {}}, {"name": "Ben", "lands": {}}, {"name": "Chie", "lands": {}}]}
    ask, say, said = scripted(["Aki フランス 3 2"])
    data, done, accepted = prompt.correct(kardinal_game, data, ask, say, "ja")
    assert not done and accepted and data["players"][0]["lands"]["france"] == {"cards": 3, "arms": 2}
    ask, say, said = scripted(["Zed France 1"])
    same, done, accepted = prompt.correct(kardinal_game, data, ask, say)
    assert same == data and not accepted and "start with a player's name" in said[-1]
    ask, say, said = scripted(["Aki France 9"])
    same, done, accepted = prompt.correct(kardinal_game, data, ask, say)
    assert same == data and "only 8" in said[-1]
    ask, say, said = scripted([""])
    assert prompt.correct(kardinal_game, data, ask, say)[1] is True


def test_corrections_in_every_language(kardinal_game):
    """Land and counter words in Japanese, English or German; errors in the prompt's language."""
    data = {"players": [{"name": "健太", "lands": {}}, {"name": "Ben", "lands": {}}, {"name": "Chie", "lands": {}}]}
    for answer, key, expected in (
        ("健太 船 0", "ships", 0),
        ("健太 馬車 0", "carriages", 0),
        ("健太 −2 1", "minus_two", 1),
        ("Ben Schiffe 0", "ships", 0),
        ("Ben Frankreich 2 1", None, None),
    ):
        ask, say, said = scripted([answer])
        data, done, accepted = prompt.correct(kardinal_game, data, ask, say, "ja")
        assert accepted, said
        if key:
            assert data["players"][[p["name"] for p in data["players"]].index(answer.split()[0])][key] == expected
    assert data["players"][1]["lands"]["france"] == {"cards": 2, "arms": 1}
    ask, say, said = scripted(["健太 船 9"])
    same, done, accepted = prompt.correct(kardinal_game, data, ask, say, "ja")
    assert (
        not accepted
        and "船が9" in said[-1]
        and not any(c.isascii() and c.isalpha() for c in said[-1].split("--check")[0])
    )


def test_a_correction_is_taken_at_any_question_and_the_question_asked_again(kardinal_game):
    """'Aki France 3 2' at Ben's France puts Aki's answer right (the README's example), where it
    was refused as 'at most 2 numbers'; a bad correction says why, and Ben is asked again."""
    lands = blank_lands(kardinal_game, 3)
    answers = ["Aki", "Ben", "Chie", ""] + ["5 4", "Aki France 3 2", "Aki Frankreich 9", "2 1"] + lands[2:] + [""] * 9
    ask, say, said = scripted(answers)
    data = prompt.collect(kardinal_game, ask, say, "en")
    assert data["players"][0]["lands"]["france"] == {"cards": 3, "arms": 2}
    assert data["players"][1]["lands"]["france"] == {"cards": 2, "arms": 1}
    assert "only 8" in "\n".join(said) and "at most 2 numbers" not in "\n".join(said)
    assert sum("France (8) — Ben" in question for question in said) == 3


def test_names_on_one_line_with_commas_are_several_players(kardinal_game):
    """'Aki, Ben, Chie' (or 、) at the name prompt is three players: it was one called 'Aki, Ben, Chie'."""
    answers = ["Aki, Ben、Chie", "Ben, Dai, Emi, Fumi", ""] + blank_lands(kardinal_game, 5) + [""] * 15
    ask, say, said = scripted(answers)
    data = prompt.collect(kardinal_game, ask, say, "en")
    assert [p["name"] for p in data["players"]] == ["Aki", "Ben", "Chie", "Dai", "Emi"]
    joined = "\n".join(said)
    assert "'Ben' is already playing" in joined and "at most 5 players: 'Fumi' is left out" in joined
    answers = ["Aki, Bne, back", "Ben, <, Ben", "Chie", ",, ", ""] + blank_lands(kardinal_game, 3) + [""] * 9
    ask, say, said = scripted(answers)  # 'back' in a list takes back as it does alone; commas alone end it
    data = prompt.collect(kardinal_game, ask, say, "en")
    assert [p["name"] for p in data["players"]] == ["Aki", "Ben", "Chie"]


def test_a_walk_resumes_where_it_stopped(kardinal_game):
    lands = blank_lands(kardinal_game, 3)
    lands[0] = "5 4"
    first = ["Aki", "Ben", "Chie", ""] + lands[:5]  # input ends after five land answers
    saved = []
    ask, say, _ = scripted(first)
    with pytest.raises(InputError):
        prompt.collect(kardinal_game, ask, say, "en", changed=lambda data: saved.append(data))
    partial = saved[-1]
    assert sum(len(p["lands"]) for p in partial["players"]) == 5
    rest = lands[5:] + [""] * 9
    ask, say, said = scripted(rest)
    data = prompt.collect(kardinal_game, ask, say, "en", partial)
    assert not any("player 1" in q for q in said)  # names are not asked again
    assert score(data, "prompt", kardinal_game).players[0].lands["france"].land == 8


def test_input_that_ends_early(kardinal_game):
    ask, say, _ = scripted(["Aki", "Ben"])
    with pytest.raises(InputError, match="input ended"):
        prompt.collect(kardinal_game, ask, say, "ja")


def test_back_takes_back_the_last_answer_and_asks_it_again(kardinal_game):
    lands = blank_lands(kardinal_game, 3)
    answers = ["Aki", "Bne", "back", "Ben", "Chie", ""]  # a misspelt name taken back
    answers += ["back", "5 4", "3 2", "back", "戻る", "5 3", "2 1", "1"]  # nothing yet; then Ben and Aki again
    answers += lands[3:] + [""] * 9
    ask, say, said = scripted(answers)
    data = prompt.collect(kardinal_game, ask, say, "en")
    assert [p["name"] for p in data["players"]] == ["Aki", "Ben", "Chie"]
    assert [p["lands"]["france"] for p in data["players"]] == [
        {"cards": 5, "arms": 3},
        {"cards": 2, "arms": 1},
        {"cards": 1, "arms": 0},
    ]
    assert sum("nothing to take back yet" in line for line in said) == 1
    asked = [line for line in said if line.startswith("France (8) — ")]
    assert [line.split("— ")[1] for line in asked[:6]] == ["Aki: ", "Aki: ", "Ben: ", "Chie: ", "Ben: ", "Aki: "]


def test_a_refused_answer_names_the_player_and_land_asked_not_another(kardinal_game):
    """The whole table breaks a rule (nine France cards together) at Chie's answer: the answer
    is refused as Chie's, in the land's name in the prompt's language (not its id)."""
    ask, say, said = scripted(["Aki", "Ben", "Chie", "", "5 4", "3 2", "1", "", *[""] * 100])
    prompt.collect(kardinal_game, ask, say, "ja")
    refused = [line for line in said if line.startswith("  ! ")]
    assert refused and all("プレイヤー「Chie」、国「フランス」" in line for line in refused), refused
    assert not any("france" in line for line in said)


def test_corrections_blame_the_corrected_player_and_back_undoes_one(kardinal_game):
    nothing = {land.id: {"cards": 0, "arms": 0} for land in kardinal_game.lands}
    counters = {"ships": 0, "carriages": 0, "minus_two": 0}
    data = {
        "players": [
            {"name": "Aki", "lands": {**nothing, "france": {"cards": 2, "arms": 2}}, **counters},
            {"name": "Ben", "lands": {**nothing, "france": {"cards": 5, "arms": 4}}, **counters},
            {"name": "Chie", "lands": nothing, **counters},
        ]
    }
    shown, said = [], []
    answers = iter(["Aki France 4 3", "Aki France 3 2", "back", "Chie Frankriech 1", "Akki ships 2", ""])
    result = prompt.walk(kardinal_game, lambda q: next(answers), said.append, shown.append, "en", data)
    refused = [line for line in said if line.startswith("  ! ")]
    assert "player 'Aki', land 'France'" in refused[0] and "Ben" not in refused[0].split(":")[0]
    assert "did you mean 'Frankreich'?" in refused[1] and "did you mean 'Aki'?" in refused[2]
    assert result["players"][0]["lands"]["France"] == {"cards": 2, "arms": 2}  # 'back' undid the correction
    assert len(shown) == 3  # the table at the start, after the correction, after the undo


def test_the_saved_tally_reads_as_typed(kardinal_game):
    lands = blank_lands(kardinal_game, 3)
    lands[0:3] = ["５ ４", "2 1", ""]
    saved = []
    ask, say, _ = scripted(["Aki", "Ben", "Chie", ""] + lands + ["２", "", ""] + [""] * 6)
    prompt.collect(kardinal_game, ask, say, "en", changed=saved.append)
    last = saved[-1]["players"]
    assert last[0]["lands"]["France"] == {"cards": 5, "arms": 4} and last[0]["ships"] == 2
    assert last[1]["lands"]["France"] == {"cards": 2, "arms": 1}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_prompt_checks_each_answer_as_the_final_score_will(kardinal_game, tmp_path, lang):
    """With ``--check sources`` every answer is checked against the sources alone, as the final
    score is: two carriages on two Denmark cards (our card list shows one) were refused at the
    prompt, which told the user to use --check sources — the option already given. Without it,
    the refusal names that option."""
    import subprocess
    import sys

    lands = [answer for land in kardinal_game.lands for answer in ("2 2" if land.id == "denmark" else "", "", "")]
    answers = ["A", "B", "C", ""] + lands + ["", "", ""] + ["2", "", ""] + ["", "", ""] + [""]  # (then none to correct)
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "KKPRINT_LANG": lang}

    def scored(*options):
        line = [sys.executable, "-m", "kkprint", "scorer", "kardinal", "--json", *options]
        return subprocess.run(line, input="\n".join(answers) + "\n", capture_output=True, text=True, env=environment)

    sources = scored("--check", "sources")
    assert sources.returncode == 0 and "  ! " not in sources.stderr, sources.stderr
    cards = scored()
    refusals = [line for line in cards.stderr.splitlines() if "  ! " in line]
    assert len(refusals) == 1 and "--check sources" in refusals[0], cards.stderr  # (and asked again)
