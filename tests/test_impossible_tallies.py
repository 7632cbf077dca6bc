"""Tallies no real game can give are refused, as RULES.md decides (its §1, §4, §5), in the
reader's language, with the place — at the command line and on the score pad alike."""

from __future__ import annotations

import pytest
from conftest import ROOT, assert_clean_error
from starlette.testclient import TestClient

from kkprint.web.pad.app import create_app
from kkprint.web.pad.store import Store

CORPUS = ROOT / "tests" / "corpus"
CASES = [
    # (scorer, corpus file, English fragments, Japanese fragments, the field a pad marks)
    (
        "court",
        "court/no-queen.yaml",
        ["queen", "name the Queen's holder"],
        ["王妃の持ち主を書いてください"],
        ["queen"],
    ),
    (
        "culdcept",
        "culdcept/eleven-squares.yaml",
        ["square 11 (line 15)", "Aki owns 11 squares", "10 in 10 rounds"],
        ["領地が11マス", "最大10マス"],
        ["squares", "10", "owner"],
    ),
    (
        "culdcept",
        "culdcept/rank-twice.yaml",
        ["square 7 (line 11)", "9 shows on two unowned squares (3 and 7)"],
        ["3と7", "9があります"],
        ["squares", "6", "cards"],
    ),
    (
        "kardinal",
        "kardinal/arms-below-forced.yaml",
        ["player 'Aki', land 'France'", "arms 2, but any 8 France cards show at least 5 identical arms"],
        ["紋章2個ですが", "少なくとも5個"],
        ["players", "0", "lands", "france", "arms"],
    ),
]


@pytest.mark.parametrize("game, name, english, japanese, path", CASES, ids=[c[1] for c in CASES])
def test_refused_at_the_command_line_in_both_languages(cli, game, name, english, japanese, path):
    tally = str(CORPUS / name)
    assert_clean_error(cli("scorer", game, tally, "--lang", "en"), tally, *english)
    assert_clean_error(cli("scorer", game, tally, "--lang", "ja"), tally, *japanese)


@pytest.mark.parametrize("game, name, english, japanese, path", CASES, ids=[c[1] for c in CASES])
def test_the_pad_points_at_the_field(tmp_path, game, name, english, japanese, path):
    import yaml

    client = TestClient(create_app(Store(tmp_path / "pad.sqlite3")), base_url="http://127.0.0.1")
    tally = yaml.safe_load((CORPUS / name).read_text(encoding="utf-8"))
    made = client.post("/api/games", json={"game": game}).json()
    view = client.put(f"/api/games/{made['id']}?replace=1&lang=en", json=tally).json()
    assert view["result"] is None and view["error"]["path"] == path
    assert english[-1] in view["error"]["message"]
    scored = client.post(f"/api/score/{game}?lang=ja", json=tally)
    assert scored.status_code == 422 and japanese[0] in scored.json()["error"]


def test_what_the_cards_force_follows_the_card_list():
    """Worked by hand from data/kardinal/game.yaml: France's [ship] card shows no arms, so one
    France card forces nothing; two force 1 (any other card shows one); all eight force the 5
    crosses (RULES §1). Every Hungary card shows arms; all six show 3 of one kind."""
    from kkprint.games.kardinal.model import load_game
    from kkprint.games.kardinal.tally import forced_arms

    lands = {land.id: land for land in load_game().lands}
    assert [forced_arms(lands["france"], n) for n in (0, 1, 2, 8)] == [0, 0, 1, 5]
    assert [forced_arms(lands["hungary"], n) for n in (1, 6)] == [1, 3]
