import pytest

from kkprint.engine.fonts import ensure_drawable, prepare_fonts
from kkprint.errors import InputError


def test_prepared_characters_draw_and_others_are_refused():
    fonts = prepare_fonts(["王と枢機卿"])
    ensure_drawable("王と枢機卿 ABC", fonts.regular)
    with pytest.raises(InputError, match=r"U\+9F8D"):
        ensure_drawable("龍", fonts.regular)


def test_a_character_the_font_lacks_is_an_error():
    with pytest.raises(InputError, match="cannot draw"):
        prepare_fonts(["smile \U0001F600"])


def test_same_text_reuses_the_same_fonts():
    assert prepare_fonts(["決算"]) == prepare_fonts(["決算"])
