import pytest
from conftest import ROOT

from kkprint.base.errors import InputError
from kkprint.engine.fonts import ensure_drawable, prepare_fonts


def test_prepared_characters_draw_and_others_are_refused():
    fonts = prepare_fonts(["王と枢機卿"])
    ensure_drawable("王と枢機卿 ABC", fonts.regular)
    with pytest.raises(InputError, match=r"U\+9F8D"):
        ensure_drawable("龍", fonts.regular)


def test_a_character_the_font_lacks_is_an_error():
    with pytest.raises(InputError, match="cannot draw"):
        prepare_fonts(["smile \U0001f600"])


def test_same_text_reuses_the_same_fonts():
    assert prepare_fonts(["決算"]) == prepare_fonts(["決算"])


def test_font_conversion_does_not_depend_on_the_clock():
    import time

    from kkprint.engine.fonts import _make_subset

    first = _make_subset("regular", "ABC決算")
    time.sleep(1.1)  # fontTools stamps the time into 'head' unless told not to
    assert _make_subset("regular", "ABC決算") == first


def test_cold_and_warm_font_cache_give_the_same_fonts(tmp_path, monkeypatch):
    from kkprint.engine import fonts

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cold = fonts._subsets("XYZ競")
    assert list((tmp_path / "kkprint" / "fonts").glob("*.ttf"))
    assert fonts._subsets("XYZ競") == cold


def _game_data() -> list:
    from kkprint.games.court.model import load_court
    from kkprint.games.culdcept.model import load_culdcept
    from kkprint.games.kardinal.model import load_game
    from kkprint.games.webofpower.model import load_board, load_map

    return [load_court(), load_culdcept(), load_game(), load_map(), load_board()]


def test_a_definition_is_read_for_its_strings_as_asdict_gives_it():
    """A build's characters are collected from the definitions themselves, without ``asdict``'s
    copy: the same strings, so the same font subset and the same PDF bytes."""
    from dataclasses import asdict, replace

    from kkprint.deck.build import deck_texts, spec_texts
    from kkprint.deck.load import load_deck
    from kkprint.engine.fonts import collect_strings
    from kkprint.games.kit import _words_in, load_rules

    for data in _game_data():
        walked = collect_strings(data, set())
        assert walked == collect_strings(asdict(data), set())
        assert len(walked) > 20
    for game in ("court", "culdcept", "kardinal", "webofpower"):
        rules = load_rules(game)
        for lang in ("ja", "en"):
            assert _words_in(rules, lang) == _words_in(asdict(rules), lang) != set()
    decks = sorted((ROOT / "examples" / "decks").glob("*/*.yaml"))
    assert len(decks) >= 5
    for path in decks:
        deck = load_deck(path)
        walked = spec_texts(deck.spec)
        assert walked == collect_strings(asdict(replace(deck.spec, cards=[])), set()), path
        assert walked <= deck_texts(deck) and len(walked) > 10, path
