"""To Court the King: every condition on its edges, the card counts, and the final round."""

import pytest

from kkprint.base.errors import InputError
from kkprint.games.court.model import load_court
from kkprint.games.court.rules import final_round, full_house, of_a_kind, pairs, straight, strength, two_triplets
from kkprint.games.court.service import eligible, parse_dice, score_final


@pytest.fixture(scope="module")
def game():
    return load_court()


def may_take(game, *dice):
    return set(eligible(game, list(dice)).eligible)


def test_sixty_cards_and_player_counts(game):
    assert sum(c.copies for c in game.characters) == 60
    by_players = {n: sum(game.copies(c, n) for c in game.characters) for n in (2, 3, 4, 5)}
    # I: 5 characters, II: 3, III: 4, IV: 4, V: 2 — and one Fool per player
    assert by_players[5] == 5 * 4 + 3 * 3 + 4 * 3 + 4 * 3 + 2 + 5 == 60
    assert by_players[2] == 5 * 2 + 3 * 1 + 4 * 1 + 4 * 1 + 2 + 2
    assert by_players[3] == 5 * 2 + 3 * 2 + 4 * 2 + 4 * 2 + 2 + 3


def test_pairs_counting_rules():
    assert pairs([3, 3, 3, 3], 2)  # four of a kind counts as two pairs
    assert not pairs([3, 3, 3, 1], 2)
    assert pairs([2, 2, 2, 2, 5, 5], 3)  # 4+2 counts as three pairs
    assert pairs([6] * 6, 3)  # six of a kind: three pairs
    assert not pairs([6] * 5 + [1], 3)


def test_triplets_and_full_house():
    assert two_triplets([4] * 6)  # six of a kind counts as two triplets
    assert two_triplets([1, 1, 1, 2, 2, 2])
    assert not two_triplets([1] * 5 + [2])
    assert full_house([5] * 5)  # five of a kind counts
    assert full_house([1, 1, 1, 2, 2])
    assert not full_house([1, 1, 1, 1, 2])
    assert not full_house([1, 1, 2, 2, 3])


def test_straights():
    assert straight([1, 2, 3, 4, 5], [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]])
    assert straight([2, 3, 4, 5, 6], [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]])
    assert straight([6, 5, 4, 3, 2, 2], [[2, 3, 4, 5, 6]])
    assert not straight([1, 2, 3, 4, 6], [[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]])
    assert not straight([1, 2, 3, 4, 5], [[1, 2, 3, 4, 5, 6]])


def test_n_of_a_kind_means_at_least():
    assert of_a_kind([2, 2, 2, 2], 3) and not of_a_kind([2, 2, 1], 3)


def test_eligibility_edges(game):
    assert may_take(game, 1, 1, 1, 1) >= {"Farmer", "Guard", "Hunter", "Astronomer", "Serving Maid"}
    assert "Bishop" in may_take(game, 3, 3, 3, 3, 4, 4)
    assert "Nobleman" in may_take(game, 5, 5, 5, 5, 5, 5) and "General" in may_take(game, 5, 5, 5, 5, 5, 5)
    assert "Magician" in may_take(game, 1, 2, 3, 4, 5) and "Alchemist" not in may_take(game, 1, 2, 3, 4, 5)
    assert "Alchemist" in may_take(game, 1, 2, 3, 4, 5, 6)
    assert "Philosopher" in may_take(game, 2, 4, 6) and "Serving Maid" not in may_take(game, 2, 4, 6)
    assert "Laborer" in may_take(game, 5, 5, 5) and "Laborer" not in may_take(game, 5, 5, 4)
    assert "Merchant" in may_take(game, 6, 6, 4, 4) and "Merchant" not in may_take(game, 6, 6, 6, 1)
    assert "Pawn Broker" in may_take(game, 6, 6, 6, 6, 6) and "Pawn Broker" not in may_take(game, 6, 6, 6, 6, 5)
    seven = may_take(game, *[3] * 7)
    assert {"King", "Queen", "Knight", "General"} <= seven
    assert {"King", "Queen"}.isdisjoint(may_take(game, *[3] * 6))


def test_fool_and_charlatan_always(game):
    assert {"Fool", "Charlatan"} <= may_take(game, 1, 2, 4)
    refused = eligible(game, [1, 2, 4]).refused
    assert refused["Hunter"].render("en") == "needs 4 of a kind; at most 1 alike"
    assert refused["Hunter"].render("ja") == "同じ目4個が必要。同じ目は最大1個"


def test_dice_input_validation():
    assert parse_dice(["６", "1", 3], "dice", "args") == [6, 1, 3]
    for bad in (["7", 1, 1], ["0", 1, 1], ["x", 1, 1], [], [1] * 13, [1, 1], [6]):
        with pytest.raises(InputError):
            parse_dice(bad, "dice", "args")


def test_strength_more_dice_then_higher_value():
    assert strength([2] * 8) > strength([6] * 7)
    assert strength([5, 5, 6, 6]) == strength([6, 6, 1])
    assert strength([6, 6, 1]).value == 6


def test_final_round_earlier_roller_keeps_ties():
    result = final_round([("A", [4, 4, 4]), ("B", [4, 4, 4, 1])], None)
    assert result.winner == "A"


def test_final_round_queen_wins_on_equal():
    result = final_round([("A", [5] * 8), ("Q", [5] * 8)], "Q")
    assert result.winner == "Q"


def test_final_round_queen_loses_when_weaker():
    result = final_round([("Q", [6] * 7), ("A", [1] * 8)], "Q")
    assert result.winner == "A" and "only 7×6" in result.reason.render("en")


def test_source_example(game):
    # Seed 003: B (Bettina) holds the Queen; D rolls eight, A cannot reach it, C beats D with
    # eight of a higher value, and Bettina matches C and wins.
    data = {
        "players": [
            {"name": "D", "dice": [4] * 8},
            {"name": "A", "dice": [6] * 7},
            {"name": "C", "dice": [5] * 8},
            {"name": "Bettina", "dice": [5] * 8},
        ],
        "queen": "Bettina",
    }
    assert score_final(data, "t").winner == "Bettina"
    data["players"][3]["dice"] = [4] * 8
    assert score_final(data, "t").winner == "C"


def test_results_validation():
    with pytest.raises(InputError, match="not among the players"):
        score_final(
            {"players": [{"name": "A", "dice": [1, 1, 1]}, {"name": "B", "dice": [2, 2, 2]}], "queen": "Z"}, "t"
        )
    with pytest.raises(InputError, match="1 to 6"):
        score_final({"players": [{"name": "A", "dice": [9, 1, 1]}, {"name": "B", "dice": [2, 2, 2]}]}, "t")
    with pytest.raises(InputError, match="1 player; this game is for 2–5"):
        score_final({"players": [{"name": "A", "dice": [1, 1, 1]}]}, "t")
    with pytest.raises(InputError, match="at least 3"):  # RULES §4: every result has at least 3 dice
        score_final({"players": [{"name": "A", "dice": [1, 1]}, {"name": "B", "dice": [2, 2, 2]}]}, "t")


def test_json_keeps_input_order_even_when_the_queen_is_listed_first():
    from kkprint.games.court.report import final_json

    data = {"players": [{"name": "Q", "dice": [2, 2, 2]}, {"name": "A", "dice": [2, 2, 2]}], "queen": "Q"}
    result = final_json(score_final(data, "t"))
    assert [p["name"] for p in result["players"]] == ["Q", "A"]
    assert result["rolling_order"] == ["A", "Q"] and result["winners"] == ["Q"]


def test_the_summary_card_is_two_sided_readable_and_explains_its_marks(tmp_path):
    from pypdf import PdfReader

    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    written = build_targets(resolve(["court"]), BuildOptions(out_dir=tmp_path, lang="en"))
    [summary] = [p for p in written if "summary" in p.name]
    reader = PdfReader(summary)
    sizes = []

    def visit(text, cm, tm, font, size):
        if text.strip() and "actual size" not in text and "50 mm" not in text:  # the sheet's margin note
            sizes.append(size * tm[3] if tm[3] else size)

    fronts, backs = reader.pages[0].extract_text(visitor_text=visit), reader.pages[1].extract_text()
    assert "Farmer" in fronts and "King" not in fronts.replace("King —", "")  # tiers split over the sides
    assert "Knight" in backs and "Queen" in backs
    assert "one value" in fronts and "a third value" in backs  # the ★ ◎ ▲ dice explained on both sides
    assert sizes and min(sizes) >= 7 - 1e-6, min(sizes)
