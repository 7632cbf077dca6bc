"""Kardinal & König scoring: the source's worked examples, and whole games worked out by hand."""

import pytest

from kkprint.games.kardinal.scoring import LandRef, LandTally, PlayerTally, road_points, score_game, score_land
from kkprint.games.kardinal.service import score

FRANCE, DENMARK = LandRef("france", 8), LandRef("denmark", 4)


def test_land_example_1_france():
    scores = score_land(FRANCE, [LandTally(5), LandTally(2), LandTally(1)])
    assert [s.land for s in scores] == [8, 5, 2]


def test_land_example_2_denmark_tie():
    scores = score_land(DENMARK, [LandTally(2), LandTally(2), LandTally(0)])
    assert [s.land for s in scores] == [4, 4, 0]


def test_arms_example_1_only_first_scores():
    scores = score_land(FRANCE, [LandTally(5, 4), LandTally(3, 3)])
    assert [s.arms for s in scores] == [4, 0]


def test_arms_example_2_all_tied_score():
    scores = score_land(FRANCE, [LandTally(2, 2), LandTally(2, 2), LandTally(2, 2)])
    assert [s.arms for s in scores] == [2, 2, 2]


def test_arms_without_cards_never_score():
    scores = score_land(FRANCE, [LandTally(0, 3), LandTally(1, 1)])
    assert [s.arms for s in scores] == [0, 1]


@pytest.mark.parametrize("ships,carriages,points", [(3, 4, 0), (7, 0, 7), (5, 5, 10), (4, 6, 6)])
def test_roads_examples(ships, carriages, points):
    assert road_points(ships) + road_points(carriages) == points


def test_reasons_are_given():
    scores = score_land(FRANCE, [LandTally(5, 4), LandTally(2, 1), LandTally(0)])
    assert "most cards" in str(scores[0].land_reason) and "next higher count is 5" in str(scores[1].land_reason)
    assert scores[2].land_reason.render("en") == "no cards"
    assert scores[2].land_reason.render("ja") == "カードなし"


def totals(result):
    return {p.name: p.total for p in result.players}


def test_game_1_tie_on_points_broken_by_land_cards(kardinal_game):
    data = {
        "players": [
            {"name": "A", "lands": {"France": {"cards": 3, "arms": 2}, "Saxony": {"cards": 2, "arms": 1}}},
            {"name": "B", "lands": {"France": {"cards": 3, "arms": 2}, "Hungary": {"cards": 1, "arms": 1}}},
            {"name": "C", "lands": {"Saxony": {"cards": 2, "arms": 2}, "Denmark": {"cards": 1, "arms": 1}}},
        ]
    }  # (every Denmark card shows arms: holding one forces a best of at least 1)
    result = score(data, "test", kardinal_game)
    assert totals(result) == {"A": 17, "B": 17, "C": 14}
    assert result.winners == ["A"]
    assert "more land cards" in result.reason.render("en")


def test_game_2_full_draw(kardinal_game):
    data = {
        "players": [
            {"name": "A", "lands": {"England": {"cards": 2, "arms": 2}}},
            {"name": "B", "lands": {"イングランド": {"cards": 2, "arms": 2}}},
            {"name": "C", "lands": {"Denmark": {"cards": 1, "arms": 1}}},
        ]
    }
    result = score(data, "test", kardinal_game)
    assert totals(result) == {"A": 7, "B": 7, "C": 5}
    assert result.winners == ["A", "B"]


def test_game_3_four_players_roads_and_chips(kardinal_game):
    data = {
        "players": [
            {"name": "A", "lands": {"Italy": {"cards": 3, "arms": 2}}},
            {"name": "B", "lands": {"Italy": {"cards": 2, "arms": 2}}},
            {"name": "C", "lands": {"Italy": {"cards": 1, "arms": 1}}},
            {
                "name": "D",
                "lands": {
                    "France": {"cards": 5, "arms": 3},
                    "Castile": {"cards": 4, "arms": 2},
                    "Hungary": {"cards": 3, "arms": 2},
                    "Saxony": {"cards": 3, "arms": 2},
                },
                "ships": 5,
                "carriages": 4,
                "minus_two": 2,
            },
        ]
    }
    result = score(data, "test", kardinal_game)
    assert totals(result) == {"A": 8, "B": 5, "C": 2, "D": 38}
    d = result.players[3]
    assert (d.subtotal, d.roads, d.penalty) == (37, 5, 4)
    assert result.winners == ["D"]


def test_game_4_five_players_arms_by_kind_and_a_draw(kardinal_game):
    data = {
        "players": [
            {"name": "P1", "lands": {"France": {"cards": 2, "arms": {"cross": 2, "fan": 2}}}},
            {"name": "P2", "lands": {"France": {"cards": 2, "arms": {"cross": 1}}}},
            {"name": "P3", "lands": {"France": {"cards": 2, "arms": {"扇": 2}}}},
            {"name": "P4", "lands": {"France": {"cards": 1, "arms": 1}}},
            {"name": "P5", "lands": {"France": {"cards": 1, "arms": 0}}},
        ]
    }
    result = score(data, "test", kardinal_game)
    assert totals(result) == {"P1": 10, "P2": 8, "P3": 10, "P4": 2, "P5": 2}
    assert result.winners == ["P1", "P3"]


def test_game_5_ships_and_carriages_each_on_their_own(kardinal_game):
    data = {
        "players": [
            {
                "name": "A",
                "lands": {
                    # every card of a land: the best arms are what all of them show (RULES §1)
                    "France": {"cards": 8, "arms": 5},
                    "Saxony": {"cards": 7, "arms": 4},
                    "Hungary": {"cards": 6, "arms": 3},
                    "Castile": {"cards": 7, "arms": 4},
                },
                "ships": 5,
                "carriages": 5,
            },
            {
                "name": "B",
                "lands": {
                    "Franconia": {"cards": 7, "arms": 4},
                    "Bavaria": {"cards": 6, "arms": 3},
                    "Italy": {"cards": 6, "arms": 4},
                    "England": {"cards": 5, "arms": 3},
                    "Denmark": {"cards": 4, "arms": 3},
                },
                "ships": 5,
                "carriages": 3,
            },
            {"name": "C"},
        ]
    }
    result = score(data, "test", kardinal_game)
    assert totals(result) == {"A": 54, "B": 50, "C": 0}
    assert result.players[0].roads == 10 and result.players[1].roads == 5


def test_pure_scoring_needs_no_deck():
    players = [
        PlayerTally("X", {"a": LandTally(1, 1)}),
        PlayerTally("Y", {"a": LandTally(2, 0)}),
        PlayerTally("Z", minus_two=1),
    ]
    result = score_game([LandRef("a", 3)], players)
    assert totals(result) == {"X": 3, "Y": 3, "Z": -2}
    assert result.winners == ["Y"]
