"""Property-based tests of every scorer (hypothesis): symmetry, monotonicity, sums, no crashes."""

import copy

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kkprint.base.errors import InputError
from kkprint.games.court.rules import final_round, strength
from kkprint.games.culdcept.model import load_culdcept
from kkprint.games.culdcept.state import score_state
from kkprint.games.kardinal.model import load_game
from kkprint.games.kardinal.service import score as kardinal_score
from kkprint.games.kardinal.tally import forced_arms
from kkprint.games.webofpower.model import load_board, load_map
from kkprint.games.webofpower.state import score_board, score_trump_map

GAME = load_game()
MAP = load_map()
BOARD = load_board()
CULDCEPT = load_culdcept()
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]


# --- Kardinal & König -------------------------------------------------------------------------


@st.composite
def kardinal_tallies(draw):
    players = draw(st.integers(3, 5))
    entries = [{"name": NAMES[i], "lands": {}} for i in range(players)]
    for land in GAME.lands:
        left = land.value
        for entry in entries:
            cards = draw(st.integers(0, left))
            left -= cards
            if cards:  # best arms between what the cards force and what they allow (RULES §1)
                best = max(land.best_possible(kind, cards) for kind in GAME.arms)
                entry["lands"][land.id] = {"cards": cards, "arms": draw(st.integers(forced_arms(land, cards), best))}
    for road, key in (("ship", "ships"), ("carriage", "carriages")):
        left = GAME.road_total(road)
        for entry in entries:
            held = sum(
                min(entry["lands"].get(land.id, {}).get("cards", 0), land.road_cards(road)) for land in GAME.lands
            )
            entry[key] = draw(st.integers(0, min(held, left)))
            left -= entry[key]
    chips = GAME.chip_count("minus_two")
    for entry in entries:
        entry["minus_two"] = draw(st.integers(0, chips))
        chips -= entry["minus_two"]
    return {"players": entries}


def kardinal_totals(data):
    return {p.name: p.total for p in kardinal_score(data, "t", GAME).players}


@SETTINGS
@given(kardinal_tallies(), st.randoms())
def test_kardinal_reordering_players_only_permutes(data, random):
    shuffled = copy.deepcopy(data)
    random.shuffle(shuffled["players"])
    assert kardinal_totals(data) == kardinal_totals(shuffled)
    assert set(kardinal_score(data, "t", GAME).winners) == set(kardinal_score(shuffled, "t", GAME).winners)


@SETTINGS
@given(kardinal_tallies())
def test_kardinal_relabelling_players_only_renames(data):
    renamed = copy.deepcopy(data)
    for entry in renamed["players"]:
        entry["name"] = "new-" + entry["name"]
    assert {"new-" + k: v for k, v in kardinal_totals(data).items()} == kardinal_totals(renamed)


@SETTINGS
@given(kardinal_tallies())
def test_kardinal_totals_are_the_sum_of_their_parts(data):
    for p in kardinal_score(data, "t", GAME).players:
        assert p.subtotal == sum(s.land + s.arms for s in p.lands.values())
        assert p.total == p.subtotal + p.ship_points + p.carriage_points - 2 * p.minus_two


@SETTINGS
@given(kardinal_tallies(), st.data())
def test_kardinal_a_card_more_never_lowers_the_leader(data, extra):
    result = kardinal_score(data, "t", GAME)
    leader = max(result.players, key=lambda p: p.total)
    held = {land.id: sum(e["lands"].get(land.id, {}).get("cards", 0) for e in data["players"]) for land in GAME.lands}
    free = [land for land in GAME.lands if held[land.id] < land.value]
    assume(free)
    land = extra.draw(st.sampled_from(free))
    more = copy.deepcopy(data)
    entry = next(e for e in more["players"] if e["name"] == leader.name)
    held_here = entry["lands"].setdefault(land.id, {"cards": 0, "arms": 0})
    held_here["cards"] += 1
    held_here["arms"] = max(held_here["arms"], forced_arms(land, held_here["cards"]))  # a card more may force more arms
    assert kardinal_totals(more)[leader.name] >= leader.total


@SETTINGS
@given(kardinal_tallies(), st.data())
def test_kardinal_impossible_tallies_are_rejected(data, extra):
    broken = copy.deepcopy(data)
    land = extra.draw(st.sampled_from(GAME.lands))
    broken["players"][0]["lands"][land.id] = {"cards": land.value + extra.draw(st.integers(1, 50))}
    try:
        kardinal_score(broken, "t", GAME)
    except InputError as err:
        assert "only" in str(err)
    else:
        raise AssertionError("an impossible tally was accepted")


# --- Web of Power -------------------------------------------------------------------------------


@st.composite
def trump_states(draw):
    grid = MAP.map
    rows = ["".join(draw(st.sampled_from(".123")) for _ in range(grid.width)) for _ in range(grid.height)]
    cardinals = {}
    for letter, cells in grid.territories.items():
        counts = [sum(1 for r, c in cells if rows[r][c] == str(p)) for p in (1, 2, 3)]
        left = max(counts)
        values = []
        for _ in range(3):
            value = draw(st.integers(0, left))
            values.append(value)
            left -= value
        cardinals[letter] = values
    phase = draw(st.sampled_from(["interim", "final"]))
    return {
        "phase": phase,
        "players": ["P1", "P2", "P3"],
        "monasteries": rows,
        "cardinals": cardinals,
        "interim": draw(st.lists(st.integers(0, 60), min_size=3, max_size=3)),
    }


def relabel_trump(state, order):
    """Player i becomes player order[i]."""
    moved = copy.deepcopy(state)
    table = {str(i + 1): str(order[i] + 1) for i in range(3)}
    moved["monasteries"] = ["".join(table.get(ch, ch) for ch in row) for row in state["monasteries"]]
    moved["players"] = [None] * 3
    for i in range(3):
        moved["players"][order[i]] = state["players"][i]
    for key in ("interim",):
        moved[key] = [None] * 3
        for i in range(3):
            moved[key][order[i]] = state[key][i]
    moved["cardinals"] = {}
    for letter, counts in state["cardinals"].items():
        new = [0] * 3
        for i in range(3):
            new[order[i]] = counts[i]
        moved["cardinals"][letter] = new
    return moved


@SETTINGS
@given(trump_states(), st.permutations([0, 1, 2]))
def test_trump_map_relabelling_permutes_results(state, order):
    a = {p.name: p.game_total for p in score_trump_map(state, "t", MAP).players}
    b = {p.name: p.game_total for p in score_trump_map(relabel_trump(state, order), "t", MAP).players}
    assert a == b


@SETTINGS
@given(trump_states())
def test_trump_map_totals_are_sums(state):
    result = score_trump_map(state, "t", MAP)
    for p in result.players:
        assert p.total == p.monasteries + p.cardinals + p.roads
        assert p.monasteries == sum(p.monastery_detail.values())
        assert p.game_total == p.total + (p.interim if result.phase.value == "final" else 0)


@SETTINGS
@given(trump_states(), st.data())
def test_trump_map_a_monastery_more_never_lowers_the_leader(state, extra):
    result = score_trump_map(state, "t", MAP)
    leader = max(range(3), key=lambda i: result.players[i].total)
    empty = [(r, c) for r, row in enumerate(state["monasteries"]) for c, ch in enumerate(row) if ch == "."]
    assume(empty)
    r, c = extra.draw(st.sampled_from(empty))
    more = copy.deepcopy(state)
    row = more["monasteries"][r]
    more["monasteries"][r] = row[:c] + str(leader + 1) + row[c + 1 :]
    assert score_trump_map(more, "t", MAP).players[leader].total >= result.players[leader].total


@SETTINGS
@given(
    st.lists(st.text(alphabet=".123xo^○×△ABZ9", min_size=0, max_size=14), min_size=0, max_size=6),
    st.dictionaries(st.text(max_size=3), st.lists(st.integers(-3, 30), max_size=4), max_size=4),
)
def test_trump_map_random_states_never_crash(rows, cardinals):
    try:
        score_trump_map({"players": ["A", "B", "C"], "monasteries": rows, "cardinals": cardinals}, "t", MAP)
    except InputError:
        pass


@SETTINGS
@given(st.integers(3, 5), st.data())
def test_board_reordering_and_sums(players, data):
    regions = {}
    pieces_left = [BOARD.cardinals_per_player] * players
    for name in ("R1", "R2", "R3", "R4"):
        monasteries = data.draw(st.lists(st.integers(0, 5), min_size=players, max_size=players))
        cardinal_room = max(monasteries)
        cardinals = [0] * players
        for i in range(players):
            cardinals[i] = data.draw(st.integers(0, min(cardinal_room, pieces_left[i])))
            cardinal_room -= cardinals[i]
            pieces_left[i] -= cardinals[i]
        regions[name] = {"monasteries": monasteries, "cardinals": cardinals}
    longest = [data.draw(st.integers(0, sum(r["monasteries"][i] for r in regions.values()))) for i in range(players)]
    tally = {
        "players": NAMES[:players],
        "regions": regions,
        "alliances": [["R1", "R2"], ["R2", "R3"], ["R3", "R4"]],
        "roads": longest,
    }
    result = score_board(tally, "t", BOARD)
    for p in result.players:
        assert p.total == p.monasteries + p.cardinals + p.roads
    order = data.draw(st.permutations(list(range(players))))
    reordered = {
        "players": [tally["players"][i] for i in order],
        "alliances": tally["alliances"],
        "regions": {k: {key: [v[key][i] for i in order] for key in v} for k, v in regions.items()},
        "roads": [longest[i] for i in order],
    }
    again = score_board(reordered, "t", BOARD)
    assert {p.name: p.total for p in result.players} == {p.name: p.total for p in again.players}


# --- To Court the King --------------------------------------------------------------------------

dice_lists = st.lists(st.integers(1, 6), min_size=1, max_size=12)


@SETTINGS
@given(st.lists(dice_lists, min_size=2, max_size=5), st.booleans())
def test_court_relabelling_only_renames(rolls, with_queen):
    names = NAMES[: len(rolls)]
    queen = names[-1] if with_queen else None
    a = final_round(list(zip(names, rolls)), queen)
    renamed = ["x" + n for n in names]
    b = final_round(list(zip(renamed, rolls)), "x" + queen if queen else None)
    assert b.winner == "x" + a.winner


@SETTINGS
@given(st.lists(dice_lists, min_size=2, max_size=5), st.randoms())
def test_court_reordering_matters_only_for_ties(rolls, random):
    strengths = [strength(r) for r in rolls]
    assume(len(set(strengths)) == len(strengths))
    names = NAMES[: len(rolls)]
    pairs = list(zip(names, rolls))
    shuffled = pairs[:]
    random.shuffle(shuffled)
    assert final_round(pairs, None).winner == final_round(shuffled, None).winner


@SETTINGS
@given(st.lists(dice_lists, min_size=2, max_size=5))
def test_court_queen_holder_with_the_best_result_always_wins(rolls):
    names = NAMES[: len(rolls)]
    best = max(range(len(rolls)), key=lambda i: strength(rolls[i]))
    assert final_round(list(zip(names, rolls)), names[best]).winner == names[best]


# --- Culdcept -----------------------------------------------------------------------------------


@st.composite
def culdcept_states(draw):
    players = draw(st.integers(2, 3))
    names = NAMES[:players]
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    unused = {n: list(ranks) for n in names}
    squares = []
    for _ in range(13):
        owner = draw(st.sampled_from([None, *names]))
        taken = len(ranks) - len(unused[owner]) if owner is not None else 0
        if owner is None or taken >= CULDCEPT.rounds:  # (a square a round at most: RULES §5)
            squares.append({})
            continue
        card = draw(st.sampled_from(unused[owner]))
        unused[owner].remove(card)
        squares.append({"card": card, "owner": owner})
    return {"players": names, "squares": squares}


@SETTINGS
@given(culdcept_states(), st.randoms())
def test_culdcept_reordering_and_monotonic(state, random):
    result = score_state(state, "t", CULDCEPT)
    shuffled = copy.deepcopy(state)
    random.shuffle(shuffled["players"])
    assert score_state(shuffled, "t", CULDCEPT).owned == result.owned
    assert sum(len(v) for v in result.owned.values()) == sum(1 for s in state["squares"] if s.get("owner"))
    leader = result.winners[0]
    free = [i for i, s in enumerate(state["squares"]) if not s.get("owner")]
    used = {s["card"] for s in state["squares"] if s.get("owner") == leader}
    spare = [r for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] if r not in used]
    # (a player takes at most one square a turn: one who owns a square each round can take no more)
    assume(free and spare and len(result.owned[leader]) < CULDCEPT.rounds)
    more = copy.deepcopy(state)
    more["squares"][free[0]] = {"card": spare[0], "owner": leader}
    assert len(score_state(more, "t", CULDCEPT).owned[leader]) == len(result.owned[leader]) + 1


SQUARE_JUNK = st.one_of(
    st.none(),
    st.dictionaries(
        st.sampled_from(["card", "cards", "owner", "x"]),
        st.one_of(st.text(max_size=3), st.integers(), st.lists(st.text(max_size=2), max_size=3)),
        max_size=2,
    ),
)


@SETTINGS
@given(st.lists(SQUARE_JUNK, min_size=0, max_size=15))
def test_culdcept_random_states_never_crash(squares):
    try:
        score_state({"players": ["A", "B"], "squares": squares}, "t", CULDCEPT)
    except InputError:
        pass


@SETTINGS
@given(trump_states(), st.data())
def test_trump_map_too_many_cardinals_are_rejected(state, extra):
    broken = copy.deepcopy(state)
    letter = extra.draw(st.sampled_from(sorted(broken["cardinals"])))
    cells = MAP.map.territories[letter]
    highest = max(sum(1 for r, c in cells if broken["monasteries"][r][c] == str(p)) for p in (1, 2, 3))
    broken["cardinals"][letter] = [highest + extra.draw(st.integers(1, 5)), 0, 0]
    try:
        score_trump_map(broken, "t", MAP)
    except InputError as err:
        assert "cardinals" in str(err)
    else:
        raise AssertionError("more cardinals than the rules allow were accepted")


@SETTINGS
@given(culdcept_states(), st.data())
def test_culdcept_a_card_twice_is_rejected(state, extra):
    owned = [s for s in state["squares"] if s.get("owner")]
    free = [i for i, s in enumerate(state["squares"]) if not s.get("owner")]
    assume(owned and free)
    twin = extra.draw(st.sampled_from(owned))
    broken = copy.deepcopy(state)
    broken["squares"][free[0]] = dict(twin)
    try:
        score_state(broken, "t", CULDCEPT)
    except InputError as err:
        assert "only one" in str(err)
    else:
        raise AssertionError("one card on two squares was accepted")
