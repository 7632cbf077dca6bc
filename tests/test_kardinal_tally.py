"""Impossible tallies are refused with a message naming player and land."""

import pytest

from kkprint.base.errors import InputError
from kkprint.base.yamlio import parse_yaml
from kkprint.games.kardinal.tally import parse_tally


def tally(*players):
    return {"players": list(players)}


THREE = [{"name": "A"}, {"name": "B"}, {"name": "C"}]


def parse(data, game):
    return parse_tally(data, "t.yaml", game)


def error(data, game) -> str:
    with pytest.raises(InputError) as caught:
        parse(data, game)
    return caught.value.render("en")


def test_a_valid_tally_reads_all_three_languages(kardinal_game):
    players = parse(
        tally(
            {
                "name": "A",
                "lands": {"France": {"cards": 2, "arms": 1}, "ザクセン": 1, "Dänemark": {"cards": 1, "arms": 1}},
            },
            {"name": "B"},
            {"name": "C"},
        ),
        kardinal_game,
    )
    assert players[0].land("france").cards == 2
    assert players[0].land("saxony").cards == 1
    assert players[0].land("denmark").arms == 1


def test_full_width_digits_are_accepted(kardinal_game):
    players = parse(
        tally(
            {"name": "A", "lands": {"France": {"cards": "３", "arms": "２"}}, "ships": "１"},
            {"name": "B"},
            {"name": "C"},
        ),
        kardinal_game,
    )
    assert (players[0].land("france").cards, players[0].land("france").arms, players[0].ships) == (3, 2, 1)


@pytest.mark.parametrize("count", [2, 6])
def test_player_count(kardinal_game, count):
    message = error({"players": [{"name": f"P{i}"} for i in range(count)]}, kardinal_game)
    assert f"{count} players" in message and "3–5" in message


def test_duplicate_names(kardinal_game):
    assert "two players are called 'A'" in error(tally({"name": "A"}, {"name": "A"}, {"name": "C"}), kardinal_game)


def test_ninth_france_card_for_one_player(kardinal_game):
    message = error(tally({"name": "A", "lands": {"France": {"cards": 9}}}, *THREE[1:]), kardinal_game)
    assert "player 'A', land 'France'" in message and "only 8" in message


def test_ninth_france_card_among_all_players(kardinal_game):
    message = error(
        tally(
            {"name": "A", "lands": {"France": {"cards": 5, "arms": 2}}},
            {"name": "B", "lands": {"フランス": {"cards": 4, "arms": 1}}},
            THREE[2],
        ),
        kardinal_game,
    )
    assert (
        "player 'B', land 'France'" in message
    )  # (written フランス: named in the reader's words) and "9 France cards together" in message


def test_unknown_land(kardinal_game):
    message = error(tally({"name": "A", "lands": {"Atlantis": 1}}, *THREE[1:]), kardinal_game)
    assert "player 'A', land 'Atlantis'" in message and "unknown land" in message


def test_negative_and_wrong_types(kardinal_game):
    assert "cannot be negative" in error(tally({"name": "A", "lands": {"France": -1}}, *THREE[1:]), kardinal_game)
    assert "whole number" in error(
        tally({"name": "A", "lands": {"France": {"cards": "many"}}}, *THREE[1:]), kardinal_game
    )
    assert "whole number" in error(tally({"name": "A", "ships": True}, *THREE[1:]), kardinal_game)
    assert "whole number" in error(tally({"name": "A", "ships": 2.5}, *THREE[1:]), kardinal_game)
    assert "must be a mapping" in error(tally({"name": "A", "lands": [1, 2]}, *THREE[1:]), kardinal_game)
    assert "must be a list" in error({"players": "A, B, C"}, kardinal_game)
    assert "unknown key 'player'" in error({"player": []}, kardinal_game)
    assert "missing 'players:'" in error({"game": "kardinal"}, kardinal_game)


def test_arms_larger_than_the_cards_allow(kardinal_game):
    # Denmark's 4 cards show at most 2 identical arms on one card: one card cannot show 3
    message = error(tally({"name": "A", "lands": {"Denmark": {"cards": 1, "arms": 3}}}, *THREE[1:]), kardinal_game)
    assert "land 'Denmark'" in message and "at most 2" in message
    message = error(tally({"name": "A", "lands": {"France": {"cards": 0, "arms": 1}}}, *THREE[1:]), kardinal_game)
    assert "at most 0" in message


def test_arms_per_kind(kardinal_game):
    message = error(
        tally({"name": "A", "lands": {"France": {"cards": 8, "arms": {"cross": 6}}}}, *THREE[1:]), kardinal_game
    )
    assert "at most 5" in message
    message = error(
        tally({"name": "A", "lands": {"France": {"cards": 2, "arms": {"dragon": 1}}}}, *THREE[1:]), kardinal_game
    )
    assert "unknown kind of arms 'dragon'" in message
    message = error(
        tally(
            {"name": "A", "lands": {"France": {"cards": 4, "arms": {"fan": 3}}}},
            {"name": "B", "lands": {"France": {"cards": 4, "arms": {"fan": 2}}}},
            THREE[2],
        ),
        kardinal_game,
    )
    assert "5 fan arms of France together" in message


def test_roads_and_chips_limits(kardinal_game):
    message = error(
        tally({"name": "A", "lands": {"France": {"cards": 2, "arms": 1}}, "ships": 3}, *THREE[1:]), kardinal_game
    )
    assert "player 'A', ships" in message and "at most 2" in message
    message = error(tally({"name": "A", "minus_two": 2}, {"name": "B", "minus_two": 1}, THREE[2]), kardinal_game)
    assert "player 'B', −2 chips" in message and "only 2" in message


def test_unknown_keys_are_typos(kardinal_game):
    message = error(tally({"name": "A", "ship": 3}, *THREE[1:]), kardinal_game)
    assert "unknown key 'ship'" in message


def test_errors_name_the_yaml_line(kardinal_game):
    text = "players:\n  - name: A\n    lands:\n      France: {cards: 9}\n  - name: B\n  - name: C\n"
    message = error(parse_yaml(text, "t.yaml"), kardinal_game)
    assert "(line 4)" in message and "t.yaml" in message


def test_owners_of_another_edition_can_check_against_the_sources_alone(kardinal_game):
    from kkprint.games.kardinal.tally import parse_tally

    # our reconstructed Denmark cards carry one carriage between two cards; another edition may differ
    tally = {
        "players": [
            {"name": "A", "lands": {"Denmark": {"cards": 2, "arms": 2}}, "carriages": 2},
            {"name": "B"},
            {"name": "C"},
        ]
    }
    with pytest.raises(InputError, match=r"\(cards of another edition\?\)$"):  # (the door says how it checks)
        parse_tally(tally, "t", kardinal_game)
    players = parse_tally(tally, "t", kardinal_game, check="sources")
    assert players[0].carriages == 2
    # what the sources say still holds: one road symbol and two arms a card at most
    tally["players"][0]["ships"] = 1
    with pytest.raises(InputError, match="2 carriages, but the player.s cards can show at most 1"):
        parse_tally(tally, "t", kardinal_game, check="sources")
    tally["players"][0].pop("ships")
    tally["players"][0]["lands"]["Denmark"]["arms"] = 5
    with pytest.raises(InputError, match="at most 4"):
        parse_tally(tally, "t", kardinal_game, check="sources")
