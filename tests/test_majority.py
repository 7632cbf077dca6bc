from kkprint.scoring.majority import leaders, rank_points


def test_rules_example():
    # RULES §0: A=5, B=3, C=3, D=1, top value 12 → 12, 5, 5, 3
    assert rank_points([5, 3, 3, 1], 12) == [12, 5, 5, 3]


def test_zero_scores_zero_and_ties_share_top():
    assert rank_points([0, 2, 2], 4) == [0, 4, 4]


def test_chain_of_distinct_counts():
    assert rank_points([1, 4, 2, 3], 9) == [2, 9, 3, 4]


def test_nobody_holds_anything():
    assert rank_points([0, 0, 0], 8) == [0, 0, 0]


def test_leaders_need_at_least_one():
    assert leaders([0, 0]) == set()
    assert leaders([2, 1, 2]) == {0, 2}
