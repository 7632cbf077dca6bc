"""Fuzzing the YAML/JSON loaders and the tally readers with arbitrary text (hypothesis).

The contract under fuzzing: any input either parses, or raises InputError — nothing else.
Run longer with:  .venv/bin/python -m pytest tests/test_fuzz_loaders.py --hypothesis-profile=fuzz
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kkprint.base.errors import InputError
from kkprint.base.yamlio import parse_yaml
from kkprint.games.court.service import score_final
from kkprint.games.kardinal.model import load_game
from kkprint.games.kardinal.tally import parse_tally

settings.register_profile("fuzz", max_examples=20_000, deadline=None, suppress_health_check=list(HealthCheck))
GAME = load_game()
YAMLISH = st.text(
    alphabet=st.sampled_from(list("players:nameland-[]{},&*!|>'\"#\n\t 0123456789.ABCフランス\u3000\x07")), max_size=200
)


def parse_or_refuse(text):
    try:
        return parse_yaml(text, "fuzz")
    except InputError:
        return None


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), YAMLISH))
def test_yaml_loader_parses_or_refuses(text):
    parse_or_refuse(text)


@settings(max_examples=300, deadline=None)
@given(YAMLISH)
def test_tally_readers_accept_or_refuse(text):
    data = parse_or_refuse(text)
    for reader in (lambda d: parse_tally(d, "fuzz", GAME), lambda d: score_final(d, "fuzz")):
        try:
            reader(data)
        except InputError:
            pass


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=5)),
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
        max_leaves=25,
    )
)
def test_tally_reader_on_arbitrary_structures(data):
    try:
        parse_tally({"players": data} if not isinstance(data, dict) else data, "fuzz", GAME)
    except InputError:
        pass
