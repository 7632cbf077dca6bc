import pytest

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
