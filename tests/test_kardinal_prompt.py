"""The land-by-land prompt, driven by scripted answers (the same walk a pipe or a person makes)."""

import pytest

from kkprint.errors import InputError
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
    assert data["players"][0]["lands"]["france"] == {"cards": "3", "arms": "2"}
    joined = "\n".join(said)
    assert "already playing" in joined and "at least 3" in joined
    assert "only 8" in joined and "at most 2 numbers" in joined and "at most" in joined


def test_corrections(kardinal_game):
    data = {"players": [{"name": "Aki", "lands": {}}, {"name": "Ben", "lands": {}}, {"name": "Chie", "lands": {}}]}
    ask, say, said = scripted(["Aki フランス 3 2"])
    data, done = prompt.correct(kardinal_game, data, ask, say, "ja")
    assert not done and data["players"][0]["lands"]["france"] == {"cards": "3", "arms": "2"}
    ask, say, said = scripted(["Zed France 1"])
    same, done = prompt.correct(kardinal_game, data, ask, say)
    assert same == data and "start with a player's name" in said[-1]
    ask, say, said = scripted(["Aki France 9"])
    same, done = prompt.correct(kardinal_game, data, ask, say)
    assert same == data and "only 8" in said[-1]
    ask, say, said = scripted([""])
    assert prompt.correct(kardinal_game, data, ask, say)[1] is True


def test_input_that_ends_early(kardinal_game):
    ask, say, _ = scripted(["Aki", "Ben"])
    with pytest.raises(InputError, match="input ended"):
        prompt.collect(kardinal_game, ask, say, "ja")
