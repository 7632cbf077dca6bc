"""Web of Power: trump-map and board-game scoring, worked out by hand from RULES §2–§3."""

import pytest

from kkprint.base.errors import InputError
from kkprint.games.webofpower.gridmap import GridMap
from kkprint.games.webofpower.model import load_board, load_map
from kkprint.games.webofpower.scoring import alliance_points, straight_roads
from kkprint.games.webofpower.state import score_board, score_trump_map

EMPTY = "." * 12


@pytest.fixture(scope="module")
def trump():
    return load_map()


def state(rows, cardinals=None, phase="final", interim=None):
    data = {"phase": phase, "players": ["P1", "P2", "P3"], "monasteries": rows, "cardinals": cardinals or {}}
    if interim is not None:
        data["interim"] = interim
    return data


def totals(result, field="total"):
    return [getattr(p, field) for p in result.players]


def test_alliances_follow_rules_order(trump):
    pairs = ["".join(p) for p in trump.map.alliances]
    assert pairs == ["AB", "AE", "BC", "BE", "BF", "CD", "CF", "CG", "DH", "EF", "FG", "GH"]


def test_territory_sizes_match_rules(trump):
    sizes = {letter: len(cells) for letter, cells in trump.map.territories.items()}
    assert sizes == {"A": 7, "B": 6, "C": 5, "D": 6, "E": 6, "F": 5, "G": 6, "H": 7}


def test_game_t1_ties_in_monasteries_and_alliances(trump):
    result = score_trump_map(
        state(
            ["111122223333", EMPTY, EMPTY, EMPTY],
            {"A": [2, 0, 0], "B": [1, 1, 0], "C": [0, 2, 0], "D": [0, 0, 3]},
            interim=[3, 5, 9],
        ),
        "t",
        trump,
    )
    assert totals(result, "monasteries") == [5, 5, 4]
    assert totals(result, "cardinals") == [4, 4, 0]
    assert totals(result, "roads") == [4, 4, 4]
    assert totals(result) == [13, 13, 8]
    assert totals(result, "game_total") == [16, 18, 17]
    assert result.winners == ["P2"]


def test_game_t2_vertical_road_and_a_square_counted_both_ways(trump):
    result = score_trump_map(state(["1111........", "1...........", "1..........3", "1..........2"]), "t", trump)
    assert totals(result, "monasteries") == [7, 2, 2]
    assert totals(result, "roads") == [8, 0, 0]
    assert totals(result) == [15, 2, 2]
    assert sorted(r.direction for r in result.roads) == ["column", "row"]


def test_game_t3_row_of_twelve_two_runs_in_a_row_one_sided_leads(trump):
    rows = ["111111111111", EMPTY, "3333.3333...", "2222.3333..."]
    cardinals = {"A": [1, 0, 1], "B": [2, 0, 0], "E": [0, 1, 1], "F": [0, 0, 2], "G": [0, 0, 3]}
    result = score_trump_map(state(rows, cardinals), "t", trump)
    assert totals(result, "monasteries") == [14, 7, 15]
    assert totals(result, "roads") == [12, 4, 12]
    assert totals(result, "cardinals") == [4, 0, 13]
    assert totals(result) == [30, 11, 40]
    scored = {a.number: (a.scorers, a.total_cardinals) for a in result.alliances if a.scorers}
    assert scored == {1: ((0,), 4), 2: ((2,), 4), 10: ((2,), 4), 11: ((2,), 5)}
    assert result.winners == ["P3"]


def test_interim_counts_monasteries_only(trump):
    rows = ["111111111111", EMPTY, "3333.3333...", "2222.3333..."]
    result = score_trump_map(state(rows, {"G": [0, 0, 3]}, phase="interim"), "t", trump)
    assert totals(result) == [14, 7, 15] == totals(result, "game_total")
    assert result.alliances == [] and result.roads == []


def test_symbols_and_aliases_mark_players(trump):
    by_digit = score_trump_map(state(["123.........", EMPTY, EMPTY, EMPTY]), "t", trump)
    by_symbol = score_trump_map(state(["○×△.........", EMPTY, EMPTY, EMPTY]), "t", trump)
    by_alias = score_trump_map(state(["ox^.........", EMPTY, EMPTY, EMPTY]), "t", trump)
    assert totals(by_digit) == totals(by_symbol) == totals(by_alias)


@pytest.mark.parametrize(
    "change,fragment",
    [
        ({"monasteries": ["1111", EMPTY, EMPTY, EMPTY]}, "row 1 must be a string of 12"),
        ({"monasteries": [EMPTY, EMPTY, EMPTY]}, "4 rows of 12"),
        ({"monasteries": ["4" + "." * 11, EMPTY, EMPTY, EMPTY]}, "row 1, column 1: '4'"),
        ({"players": ["A", "B"]}, "2 players"),
        ({"cardinals": {"Z": [1, 0, 0]}}, "unknown territory 'Z'"),
        ({"cardinals": {"A": [1, 0]}}, "one count per player"),
        ({"cardinals": {"A": [2, 0, 0]}}, "highest single monastery count is 1"),
        ({"phase": "halftime"}, "interim or final"),
        ({"interim": [1, 2]}, "one count per player"),
    ],
)
def test_state_validation(trump, change, fragment):
    data = {**state(["1...........", EMPTY, EMPTY, EMPTY]), **change}
    with pytest.raises(InputError) as caught:
        score_trump_map(data, "t", trump)
    assert fragment in str(caught.value)


def test_roads_need_four_in_a_straight_line():
    owners = [
        [0, 0, 0, None, 1, 1, 1, 1],
        [0, None, None, None, None, None, None, 1],
        [0, None, None, None, None, None, None, 1],
        [0, None, None, None, None, None, None, 1],
    ]
    roads = {(r.player, r.length, r.direction) for r in straight_roads(owners)}
    assert roads == {(0, 4, "column"), (1, 4, "row"), (1, 4, "column")}


def test_alliance_tie_at_zero_scores_nothing():
    [alliance] = alliance_points([("a", "b")], {"a": [0, 0], "b": [1, 1]}, 2)
    assert alliance.scorers == ()


def test_a_different_grid_gives_a_different_map_and_scores():
    grid = GridMap.parse(["AAB", "CCB", "CDD"])
    assert grid.alliances == [("A", "B"), ("A", "C"), ("B", "C"), ("B", "D"), ("C", "D")]
    assert {k: len(v) for k, v in grid.territories.items()} == {"A": 2, "B": 2, "C": 3, "D": 2}
    with pytest.raises(InputError, match="split"):
        GridMap.parse(["AB", "BA"])
    with pytest.raises(InputError, match="row 2 has 1"):
        GridMap.parse(["AB", "A"])


def test_custom_map_file_drives_the_scorer(tmp_path):
    from kkprint.games.webofpower.model import load_map

    text = (load_map.__wrapped__.__defaults__[0]).read_text(encoding="utf-8")
    custom = text.replace(
        "  - AAABBBCCDDDD\n  - AAEBBBCCCDDH\n  - AAEEFFFGGHHH\n  - EEEFFGGGGHHH\n",
        "  - AAAABBBB\n  - CCCCDDDD\n  - EEFFGGHH\n",
    )
    path = tmp_path / "map.yaml"
    path.write_text(custom, encoding="utf-8")
    game = load_map(path)
    assert game.map.width == 8 and len(game.map.alliances) == 11
    result = score_trump_map(
        {
            "players": ["P1", "P2", "P3"],
            "monasteries": ["1111....", "2222....", "........"],
            "cardinals": {"A": [1, 0, 0], "C": [0, 1, 0]},
        },
        "t",
        game,
    )
    # A (4 squares): P1 4; C: P2 4; roads: both rows of 4; alliance A–C: nobody leads both
    assert totals(result) == [8, 8, 0]


BOARD = {
    "phase": "final",
    "players": ["Aki", "Ben", "Chie"],
    "regions": {
        "Aragon": {"monasteries": [3, 1, 0], "cardinals": [2, 0, 0]},
        "Burgund": {"monasteries": [2, 2, 1], "cardinals": [1, 1, 0]},
        "Frankreich": {"monasteries": [0, 1, 4], "cardinals": [0, 0, 3]},
    },
    "alliances": [["Aragon", "Burgund"], ["Burgund", "Frankreich"]],
    "roads": [5, 3, 4],
    "interim": [12, 9, 11],
}


def test_board_game_final_by_hand():
    result = score_board(BOARD, "t", load_board())
    assert totals(result, "monasteries") == [9, 12, 7]
    assert totals(result, "cardinals") == [4, 0, 0]
    assert totals(result, "roads") == [5, 0, 4]
    assert totals(result, "game_total") == [30, 21, 22]
    assert result.winners == ["Aki"]


def test_board_game_separate_roads_each_score():
    # RULES §2: a player may have several separate runs; each run of 4 or more scores (5 and 4 -> 9; 4 and 3 -> 4)
    regions = {
        "Aragon": {"monasteries": [5, 4, 0], "cardinals": [0, 0, 0]},
        "Burgund": {"monasteries": [4, 3, 1], "cardinals": [0, 0, 0]},
        "Frankreich": {"monasteries": [0, 1, 4], "cardinals": [0, 0, 0]},
    }
    result = score_board({**BOARD, "regions": regions, "roads": [[5, 4], [4, 3], 3]}, "t", load_board())
    assert totals(result, "roads") == [9, 4, 0]


def test_board_game_interim():
    result = score_board({**BOARD, "phase": "interim"}, "t", load_board())
    assert totals(result) == [9, 12, 7] and result.winners == ["Ben"]


@pytest.mark.parametrize(
    "change,fragment",
    [
        ({"alliances": [["Aragon", "Atlantis"]]}, "unknown region 'Atlantis'"),
        ({"alliances": [["Aragon", "Aragon"]]}, "allied with itself"),
        ({"alliances": [["Aragon", "Burgund"], ["Burgund", "Aragon"]]}, "listed twice"),
        ({"roads": [30, 0, 0]}, "more than their"),
        ({"roads": [[20, 20], 0, 0]}, "more than their"),
        ({"regions": {"Aragon": {"monasteries": [21, 0, 0]}}}, "only 20"),
        ({"regions": {"Aragon": {"monasteries": [1, 0, 0], "cardinals": [1, 1, 0]}}}, "highest single monastery count"),
        ({"players": ["A", "B", "C", "D", "E", "F"]}, "6 players"),
    ],
)
def test_board_validation(change, fragment):
    data = {**BOARD, **change}
    if "regions" in change:
        data["alliances"] = []
        data["roads"] = [0, 0, 0]
    with pytest.raises(InputError) as caught:
        score_board(data, "t", load_board())
    assert fragment in str(caught.value)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_map_squares_are_big_enough_to_mark(trump, paper):
    from reportlab.lib.units import mm

    from kkprint.engine.geometry import PAPERS
    from kkprint.games.webofpower.components import cardinal_boxes, square_size

    width, height = PAPERS[paper].landscape().size
    square = square_size(trump, width, height)
    assert square >= 12 * mm
    boxes = cardinal_boxes(trump.map, square)
    for side in ("top", "bottom"):
        placed = sorted((b.x, b.x + b.width) for b in boxes if b.side == side)
        assert all(a[1] <= b[0] for a, b in zip(placed, placed[1:])), "cardinal boxes overlap"
        assert all(0 <= left and right <= trump.map.width * square + 1e-6 for left, right in placed)


def test_map_pdf_draws_a_custom_grid(tmp_path):
    from dataclasses import asdict

    from pypdf import PdfReader

    from kkprint.base.models import validate
    from kkprint.engine.document import engine_texts, open_pdf
    from kkprint.engine.fonts import collect_strings, prepare_fonts
    from kkprint.engine.job import BuildOptions
    from kkprint.games.webofpower.components import draw_trump_map
    from kkprint.games.webofpower.model import TrumpMap

    base = asdict(load_map())
    base["grid"] = ["AABBB", "ACCDB", "CCDDD"]
    base["territories"] = {k: v for k, v in base["territories"].items() if k in "ABCD"}
    game = validate(TrumpMap, base, "map")
    fonts = prepare_fonts([*engine_texts(), *collect_strings(base, set()), *map(str, range(1, 20))])
    path = tmp_path / "map.pdf"
    options = BuildOptions()
    with open_pdf(path, options.paper.landscape(), fonts, title="t", lang="en") as doc:
        draw_trump_map(doc, game)
        doc.end_page()
    text = PdfReader(path).pages[0].extract_text()
    for number in range(1, len(game.map.alliances) + 1):
        assert str(number) in text


def test_score_pad_and_reference_build_in_either_language(tmp_path):
    from pypdf import PdfReader

    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    for lang, words in (("ja", ("中間決算", "同盟", "総合計")), ("en", ("Interim", "Alliances", "Game total"))):
        _start, pad, reference, _worksheet = build_targets(
            resolve(["webofpower-board"]), BuildOptions(lang=lang, out_dir=tmp_path)
        )
        text = PdfReader(pad).pages[0].extract_text()
        assert all(word in text for word in words) and text.count(words[0]) == 3  # three games a page
        summary = PdfReader(reference).pages[0].extract_text()
        ours, other = ("王と枢機卿", "Web of Power") if lang == "ja" else ("Web of Power", "王と枢機卿")
        assert ours in summary and other not in summary  # the summary in the chosen language only


def test_report_names_who_scored_what(trump):
    from kkprint.games.webofpower.report import as_json, table

    rows = ["111111111111", EMPTY, "3333.3333...", "2222.3333..."]
    cardinals = {"A": [1, 0, 1], "B": [2, 0, 0], "E": [0, 1, 1], "F": [0, 0, 2], "G": [0, 0, 3]}
    result = score_trump_map(state(rows, cardinals), "t", trump)
    text = str(table(result, "en"))
    assert "alliance [1] A–B: P1 +4" in text and "alliance [11] F–G: P3 +5" in text
    assert "road: P1 +12 (row, r1c1–r1c12)" in text and "Winner: P3" in text
    data = as_json(result)
    assert data["game"] == "webofpower" and data["winners"] == ["P3"]
    assert {a["number"] for a in data["alliances"] if a["scorers"]} == {1, 2, 10, 11}


def test_the_trump_map_comes_with_a_rules_card_in_each_language(tmp_path):
    from pypdf import PdfReader

    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    for lang, words in (
        ("en", ("Rank groups", "Marking limits", "4+ monasteries")),
        ("ja", ("ランクグループ", "書くときの制限", "決算")),
    ):
        written = build_targets(resolve(["webofpower"]), BuildOptions(lang=lang, out_dir=tmp_path))
        [rules] = [p for p in written if "rules" in p.name]
        reader = PdfReader(rules)
        text = reader.pages[0].extract_text() + reader.pages[1].extract_text()
        assert all(word in text for word in words)
        assert "2–4" in text or "2〜4" in text


def test_the_board_pad_has_a_worksheet_for_nine_regions_and_fifteen_alliances(tmp_path):
    from pypdf import PdfReader

    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    written = build_targets(resolve(["webofpower-board"]), BuildOptions(lang="en", out_dir=tmp_path))
    [sheet] = [p for p in written if "worksheet" in p.name]
    text = PdfReader(sheet).pages[0].extract_text()
    assert all(f"[{n}]" in text for n in range(1, 16)) and "[16]" not in text
    assert "Region" in text and "Roads (run lengths)" in text and text.count("Player") >= 5


def test_trump_map_circles_and_badges_keep_apart():
    from reportlab.lib.units import mm

    from kkprint.games.webofpower import components

    assert components.CIRCLE_PITCH - components.CARDINAL_DIAMETER >= 1.5 * mm  # cardinal circles never touch
    square = 18 * mm  # the map's squares on A4 and Letter
    monastery_radius, badge_half = square * 0.27, 5.6 * mm / 2
    assert square / 2 - monastery_radius - badge_half >= 1 * mm  # an [n] badge on a border clears both circles
