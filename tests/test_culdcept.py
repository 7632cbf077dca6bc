"""Culdcept-style game: strength and support on their edges, the map state scorer."""

import pytest

from kkprint.base.errors import InputError
from kkprint.games.culdcept.model import load_culdcept
from kkprint.games.culdcept.rules import RuleError, battle, play
from kkprint.games.culdcept.state import score_state


def takes(on_square, offered, own=False):
    return battle(play(on_square), play(offered), own).taken


def test_strength_order():
    assert takes("2", "3") and takes("10", "J") and takes("J", "Q") and takes("Q", "K")
    assert not takes("K", "Q") and not takes("5", "4")


def test_equal_strength_does_not_take():
    assert not takes("7", "7") and not takes("5+6", "J") and not takes("J", "5+6")


def test_single_ace_beats_king_only():
    assert takes("K", "A")
    assert not takes("Q", "A") and not takes("2", "A")
    assert "beats only K" in battle(play("Q"), play("A")).reason.render("en")


def test_a_single_ace_holds_against_a_king():
    # RULES §5 (our decision): a single A beats a K on either side
    assert not takes("A", "K")
    assert takes("K", "A")
    assert takes("A", "2") and takes("A", "5+6")  # anything else stronger takes an A


def test_support_sums_and_limits():
    assert play("5+6").strength == 11 and play("A+10").strength == 11
    assert takes("10", "A+10")  # 11 beats 10
    assert not takes("K", "A+10")
    assert "never beats K" in battle(play("K"), play("A+2")).reason.render("en")
    with pytest.raises(RuleError, match="over 11"):
        play("6+7")
    with pytest.raises(RuleError, match="only A–10"):
        play("J+A")
    with pytest.raises(RuleError, match="two cards"):
        play("2+3+4")


def test_ranks_as_typed():
    assert play("a").cards == ("A",) and play("1").cards == ("A",) and play("１０").cards == ("10",)
    with pytest.raises(RuleError):
        play("11")


def test_own_square_swaps_even_weaker():
    assert takes("K", "2", own=True)


SQUARES = [{"card": "K", "owner": "Aki"}, {"cards": ["5", "6"], "owner": "Ben"}, {"card": "9"}, {}, None] + [{}] * 8


def test_scorer_counts_and_winner():
    result = score_state(
        {"players": ["Aki", "Ben", "Chie"], "squares": SQUARES[:4] + [{"card": "Q", "owner": "Aki"}] + [{}] * 8},
        "t",
        load_culdcept(),
    )
    assert {n: len(v) for n, v in result.owned.items()} == {"Aki": 2, "Ben": 1, "Chie": 0}
    assert result.winners == ["Aki"]


def test_scorer_draw():
    result = score_state({"players": ["Aki", "Ben"], "squares": SQUARES}, "t", load_culdcept())
    assert result.winners == ["Aki", "Ben"]


@pytest.mark.parametrize(
    "squares,fragment",
    [
        (SQUARES[:12], "13 squares"),
        ([{"card": "K", "owner": "Zed"}] + [{}] * 12, "not among the players"),
        ([{"card": "K", "owner": "Aki"}, {"card": "K", "owner": "Aki"}] + [{}] * 11, "only one K"),
        ([{"cards": ["6", "7"], "owner": "Aki"}] + [{}] * 12, "over 11"),
        ([{"card": "Z", "owner": "Aki"}] + [{}] * 12, "not a card rank"),
        ([{"owner": "Aki"}] + [{}] * 12, "needs the card"),
        ([{"cards": ["2", "3"]}] + [{}] * 12, "only its map card"),
    ],
)
def test_state_validation(squares, fragment):
    with pytest.raises(InputError) as caught:
        score_state({"players": ["Aki", "Ben"], "squares": squares}, "t", load_culdcept())
    assert fragment in str(caught.value)


def test_player_limits():
    with pytest.raises(InputError, match="4 players"):
        score_state({"players": ["A", "B", "C", "D"], "squares": [{}] * 13}, "t", load_culdcept())


def test_the_mat_fixes_no_card_and_the_reference_says_how_a_turn_goes(tmp_path):
    from pypdf import PdfReader

    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    written = {p.name: p for p in build_targets(resolve(["culdcept"]), BuildOptions(out_dir=tmp_path, lang="en"))}
    mat = PdfReader(written["culdcept-mat-en-a3.pdf"]).pages[0].extract_text()
    # seed 004: all 13 cards are shuffled into the circle; no square is marked J, Q or K
    assert "start" not in mat.lower().replace("starts on", "") and "Shuffle the map suit's 13 cards" in mat
    reference = PdfReader(written["culdcept-reference-en-a4.pdf"])
    back = reference.pages[1].extract_text()
    assert "Your turn" in back and "Move clockwise" in back and "J, Q, K" in back
