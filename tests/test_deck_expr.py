"""The deck's expression language on its own: what ``${…}`` and ``when:`` compute, what they refuse,
and that nothing a stranger writes runs code, reads a file or grows without bound."""

from __future__ import annotations

import math
import re
import sys
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kkprint.base.errors import InputError
from kkprint.deck.data import inline_table
from kkprint.deck.expr import (
    MAX_DIGITS,
    MAX_TEXT,
    compile_condition,
    compile_expression,
    compile_template,
)

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")

FIELDS = {
    "name": "Knight",
    "cost": "3",
    "hp": "7",
    "zip": "0042",
    "stars": "3",
    "type": "attack",
    "tags": "brave; loyal ;old",
    "half": "1.5",
    "名前": "騎士",
    "first-name": "Ada",
    "card.number": "12",
    "card.copy": "2",
    "card.row": "5",
    "card.total": "40",
    "deck.name": "Heist",
    "deck.version": "1.10",
    "today": "2024-05-01",
}
TABLES = {
    "tint": inline_table("tint", {"attack": "#c03030", "defend": "#3050c0", "7": "seven"}, "t"),
    "terrain": inline_table("terrain", {"forest": {"colour": "#2e7d32", "move": 2}}, "t"),
}


def value(text: str):
    return compile_template(text).value(FIELDS, TABLES)


def problem(text: str) -> str:
    with pytest.raises(InputError) as caught:
        value(text)
    return str(caught.value)


@pytest.mark.parametrize(
    "text, expected",
    [
        # a field alone prints as written, whatever it looks like
        ("${zip}", "0042"),
        ("${half}", "1.5"),
        ("${first-name}", "Ada"),  # a column whose name is not a Python name
        ("${名前}さん", "騎士さん"),
        # arithmetic, text and the spec's examples
        ("${cost * 2}k", "6k"),
        ("${'★' * stars}", "★★★"),
        ("${upper(name)}", "KNIGHT"),
        ("${14 if len(name) < 12 else 10}", 14),
        ("${hp:03d}", "007"),
        ("${zip:>6}", "  0042"),
        ("${half * 3:.2f}", "4.50"),
        ("${cost / 2}", 1.5),
        ("${cost / 2 + 0.5} left", "2 left"),  # 2.0 prints as 2
        ("${0.1 + 0.2}!", "0.3!"),
        ("${'Cost: ' + cost}", "Cost: 3"),  # text + number reads as text, as in a spreadsheet
        ("${zip + 1}", 43),  # a field that looks like a number is one
        ("${cost ** 2 - hp % 4 // 1}", 6),
        ("${-cost}", -3),
        ("${not cost}", False),
        ("${cost == '3' and type in ['attack', 'x']}", True),
        ("${'nig' in name}", True),
        ("${name[:3]}/${name[-1]}", "Kni/t"),
        # every function
        ("${lower(name)} ${title('the old one')}", "knight The Old One"),
        ("${len(tags)}", 17),
        ("${str(cost) + str(1)}", "31"),
        ("${int('7.9')} ${int(half)}", "7 1"),
        ("${float(cost)}", 3.0),
        ("${round(2.675, 2)} ${round(2.5)} ${round(-2.5)}", "2.68 3 -3"),  # half away from zero
        ("${round(1e20, 15)} ${round(12345, -2)} ${round(1e-300, 15)}", "1e+20 12300 0"),  # digits enough
        ("${min(hp, cost, 9)} ${max([1, 5, 2])} ${abs(-4.5)}", "3 5 4.5"),
        ("${replace(name, 'K', 'N')}", "Nnight"),
        ("${split(tags, ';')}", ["brave", "loyal", "old"]),
        ("${join(split(tags, ';'), ' · ')}", "brave · loyal · old"),
        ("${split('a b  c')[1]}", "b"),
        ("${pad(hp, 3, '0')}|${pad(name, -8, '.')}", "007|Knight.."),
        ("${lookup('tint', type)}", "#c03030"),
        ("${lookup('tint', 7)} ${lookup('tint', '07')}", "seven seven"),  # keys match as numbers too
        ("${lookup('terrain', 'forest', 'move') * 2}", 4),
        ("${lookup('tint', 'nope', None, '#000000')}", "#000000"),
        ("${get('cost', 0) + get('missing', 10)}", 13),
        ("${get('missing')}", ""),
        # the names every card has
        ("${card.number}/${card.total} ${card.copy} ${card.row}", "12/40 2 5"),
        ("${card.number + 1}", 13),
        ("v${deck.version} ${deck.name} ${today}", "v1.10 Heist 2024-05-01"),
        ("${'v' + deck.version}", "v1.10"),  # deck.version stays text: 1.10 is not 1.1
        ("${'}' + '{'}", "}{"),  # a brace in quotes does not end the ${…}
    ],
)
def test_expressions_compute(text, expected):
    assert value(text) == expected


@pytest.mark.parametrize(
    "text, fragments",
    [
        ("${cots * 2}", ["${cots * 2}", "no field 'cots'; did you mean 'cost'?"]),
        ("${nmae}", ["no field 'nmae'; did you mean 'name'?"]),
        ("${name - 1}", ["'-' does not work on text and a number"]),
        ("${name > 3}", ["compares a number with text"]),
        ("${len(3)}", ["len() needs text or a list, not a number"]),
        ("${int(name)}", ["int() needs a number, not 'Knight'"]),
        ("${upper(name, 2)}", ["upper() is written upper(text) (2 given)"]),
        ("${upper(text=name)}", ["a named argument is not allowed"]),
        ("${shout(name)}", ["there is no function 'shout'"]),
        ("${name.upper()}", ["attribute access (.upper) is not allowed"]),
        ("${().__class__}", ["attribute access (.__class__) is not allowed"]),
        ("${name.__class__.__bases__}", ["attribute access (.__bases__) is not allowed"]),
        ("${__import__('os').system('true')}", ["attribute access (.system) is not allowed"]),
        ("${__import__('os')}", ["there is no function '__import__'"]),
        ("${open('/etc/passwd')}", ["there is no function 'open'"]),
        ("${card.nmber}", ["card.nmber is not one of the names card.number, card.copy, card.row, card.total"]),
        ("${[x for x in name]}", ["a comprehension is not allowed"]),
        ("${(x := 1)}", ["assignment is not allowed"]),
        ("${{'a': 1}}", ["a mapping { } is not allowed"]),
        ("${cost << 2}", ["the operator << is not allowed"]),
        ("${f'{name}'}", ["an f-string is not allowed"]),
        ("${9 ** 9 ** 9}", ["9 ** 387420489 makes a number of more than 77 digits"]),
        ("${2 ** 1000}", ["more than 77 digits"]),
        ("${10 ** 40 * 10 ** 40}", ["more than 77 digits"]),
        ("${1e308 * 10}", ["not a finite number"]),
        ("${round(1e308)}", ["makes a number of more than 77 digits"]),
        ("${(-8) ** 0.5}", ["not a real number"]),
        # the guide's limits exactly: 10 ** 77 has 78 digits (it was made: 2 ** 256 was the bound),
        # and a number written past a float's range is infinity (it printed 'inf')
        ("${10 ** 77}", ["makes a number of more than 77 digits"]),
        ("${10 ** 76 * 10}", ["makes a number of more than 77 digits"]),
        ("${" + "9" * 77 + " + 1}", ["makes a number of more than 77 digits"]),
        ("${-10 ** 77}", ["makes a number of more than 77 digits"]),
        ("${" + "1" * 78 + "}", ["the number 1111111111", "has more than 77 digits"]),
        ("${int(1e300)}", ["makes a number of more than 77 digits"]),
        ("${str(1e400)}", ["the number 1e400 is too large: it is not finite"]),
        ("${1e400}", ["the number 1e400 is too large: it is not finite"]),
        ("${max(1, 1e999)}", ["the number 1e999 is too large"]),
        ("${[2, 1e400]}", ["the number 1e400 is too large"]),
        ("${'x' * 10 ** 9}", ["would make 1,000,000,000 characters; at most 10,000"]),
        ("${[1] * 100000}", ["would make 100,000 characters"]),
        ("${'%999999999d' % 1}", ["'%' does not work on text and a number"]),
        ("${pad(name, 10 ** 9)}", ["would make 1,000,000,000 characters"]),
        ("${replace('x' * 5000, 'x', 'yyyy')}", ["would make 20,000 characters"]),
        ("${cost / 0}", ["divides by zero"]),
        ("${name[99]}", ["an index is outside the text or list"]),
        ("${lookup('tnt', type)}", ["no table 'tnt'; did you mean 'tint'?"]),
        ("${lookup('tint', 'atack')}", ["table 'tint' has no key 'atack'; did you mean 'attack'?"]),
        ("${lookup('terrain', 'forest', 'colours')}", ["has no column 'colours'; did you mean 'colour'?"]),
        ("${hp:999999999d}", ["':999999999d' is not a format"]),
        ("${name:05d}", ["the format ':05d' does not fit text 'Knight'"]),
        ("${cost *}", ["'cost *' is not a valid expression"]),
        ("${}", ["an empty ${} holds no expression"]),
        ("${cost", ["'${' is never closed"]),
        ("${" + "-" * 40 + "1}", ["is too complex"]),
        ("${" + "+".join(["1"] * 300) + "}", ["is too complex"]),
        ("${" + "+".join(["1"] * 490) + "}", ["is too complex"]),  # (parsed by Python, too deep for the rewrite)
        ("${" + "-" * 900 + "1}", ["is too complex"]),
        ("${1114112:c}", ["the format ':c' does not fit a number '1114112'"]),
        ("${-1:c}", ["the format ':c' does not fit a number '-1'"]),
        ("${" + "x" * 1001 + "}", ["too long (at most 1,000)"]),
        # a runaway look-up: each look-up's key another look-up, far deeper than any card needs
        ("${" + "lookup('tint', " * 40 + "type" + ")" * 40 + "}", ["is too complex"]),
    ],
)
def test_bad_expressions_say_what_is_wrong(english, text, fragments):
    message = problem(text)
    for fragment in fragments:
        assert fragment in message, (fragment, message)


def test_the_largest_results_allowed_are_made_and_one_more_is_refused():
    assert len(value("${'x' * 10000}")) == MAX_TEXT
    assert len(value("${join(split('a,' * 4999 + 'a', ','), '')}")) == 5000
    largest = "9" * 77  # the guide's "numbers of at most 77 digits"; every step's number too
    assert str(value("${" + largest + "}")) == largest and MAX_DIGITS == 77
    assert str(value("${-" + largest + " * 1}")) == "-" + largest
    assert str(value("${10 ** 76 * 9 + " + "9" * 76 + "}")) == largest
    with pytest.raises(InputError):
        value("${'x' * 10001}")
    with pytest.raises(InputError):
        value("${'ab' * 5000 + 'c'}")


@pytest.mark.parametrize(
    "expression",
    [
        " or ".join(["'9' in split(s, ',')"] * 24),  # each look through 5,000 items
        " and ".join(["split(s, ',') == split(s, ',')"] * 24),
        "+".join(["len(replace(t, 'x', 'y'))"] * 24),  # each within the 10,000 characters, together not
        " and ".join(["t <= t"] * 24),
    ],
)
def test_an_expression_doing_too_much_work_for_one_card_is_stopped(english, expression):
    fields = {"s": ",".join(["7"] * 5000), "t": "x" * 10000}
    with pytest.raises(InputError, match="takes too much work for one card"):
        compile_template("${" + expression + "}").value(fields)


def test_conditions_speak_the_same_language():
    assert compile_condition("type == 'attack' and cost >= 3").holds(FIELDS)
    assert compile_condition("len(name) > 5 and lookup('tint', type) == '#c03030'").holds(FIELDS, TABLES)
    assert compile_condition("card.copy == 2").holds(FIELDS)
    assert compile_condition("${cost} > 2").holds(FIELDS)  # written with ${…}, as values are
    assert compile_condition("${cost > 2}").holds(FIELDS)
    assert not compile_condition("'elite' in split(tags, ';')").holds(FIELDS)


def test_what_an_expression_reads_is_known_before_it_runs():
    expression = compile_expression("upper(name) + lookup('tint', type) + str(card.number) + get('bonus', '')")
    assert expression.names == {"name", "type", "card.number", "bonus"}
    assert expression.required == {"name", "type", "card.number"}
    assert expression.tables == {"tint"} and expression.per_copy and not expression.reads_all
    assert compile_expression("get(name)").reads_all
    template = compile_template("${first-name} ${cost * 2} ${card.row}")
    assert template.names({"first-name", "cost"}) == {"first-name", "cost", "card.row"}
    # what it cannot be worked out without: get()'s name may be missing (the preflight's columns)
    template = compile_template("${first-name} ${get('bonus', 0) + hp} ${card.row}")
    assert template.names({"first-name"}) == {"first-name", "bonus", "hp", "card.row"}
    assert template.required({"first-name"}) == {"first-name", "hp", "card.row"}


@pytest.mark.parametrize("operator", ["@", "<<", ">>", "|", "^", "&", "~"])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_operator_the_language_lacks_is_named_as_written(lang, operator):
    """Not simpleeval's ``<ast.BitOr object at 0x…>``: the operator as the deck wrote it, in the
    reader's words (a when: says so when the deck is read)."""
    text = f"{operator} cost" if operator == "~" else f"cost {operator} 2"
    for check in (lambda: compile_condition(text), lambda: compile_template("${" + text + "}").value(FIELDS)):
        with pytest.raises(InputError) as refused:
            check()
        said = refused.value.render(lang)
        assert "<ast" not in said and f" {operator} " in said, said
        assert ("演算子" in said) if lang == "ja" else ("the operator" in said and not JAPANESE.search(said)), said


# --- a stranger's expressions: never code, never a file, never unbounded ------------------------

WATCHED = ("open", "exec", "compile", "import", "os.", "subprocess", "socket", "shutil", "ctypes", "pickle")
EVENTS: list[str] = []
WATCHING = [False]


def _audit(event: str, args) -> None:
    if WATCHING[0] and event.startswith(WATCHED):
        EVENTS.append(event)


sys.addaudithook(_audit)  # (hooks cannot be removed; this one records only while WATCHING)

HOSTILE_ATOMS = st.sampled_from(
    [
        "cost",
        "name",
        "zip",
        "tags",
        "card.number",
        "deck.version",
        "today",
        "nope",
        "__class__",
        "__import__",
        "__builtins__",
        "open",
        "eval",
        "exec",
        "getattr",
        "globals()",
        "().__class__.__bases__[0].__subclasses__()",
        "name.__class__",
        "lambda: 0",
        "[x for x in 'ab']",
        "{'a': 1}",
        "(x := 1)",
        "*name",
        "f'{name}'",
        "'%s' % name",
        "'{0.__class__}'.format(name)",
        "9 ** 9 ** 9",
        "10 ** 76",
        "1e308",
        "-1",
        "0",
        "3.5",
        "'x'",
        "'★'",
        "''",
        "[1, 2, 3]",
        "'x' * 9999",
        "split(tags, ';')",
        "lookup('tint', type)",
        "lookup('tint', lookup('tint', type))",
        "get(name)",
    ]
)
OPERATORS = st.sampled_from(
    ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "|", "&", "^", "@", "and", "or", "==", "<", "in", "is", "not in"]
)
FUNCTIONS = st.sampled_from(
    ["upper", "len", "str", "int", "float", "round", "min", "max", "abs", "replace", "split", "join", "pad"]
    + ["lookup", "get", "eval", "exec", "__import__", "getattr", "type", "vars"]
)


def _combine(children):
    return st.one_of(
        st.tuples(children, OPERATORS, children).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["-", "not ", "~"]), children).map("".join),
        st.tuples(FUNCTIONS, st.lists(children, max_size=4)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(children, st.sampled_from([".__class__", ".upper()", "[0]", "[::-1]", "[1:99999]"])).map("".join),
        st.tuples(children, children, children).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.lists(children, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
    )


HOSTILE = st.one_of(st.recursive(HOSTILE_ATOMS, _combine, max_leaves=25), st.text(max_size=60))


@settings(
    max_examples=400,
    derandomize=True,
    deadline=timedelta(seconds=1),  # the bound: no expression may take over a second
    suppress_health_check=[HealthCheck.too_slow],
)
@given(HOSTILE, st.sampled_from(["${%s}", "a${%s}b", "${%s:>5}", "when"]))
def test_hostile_expressions_never_run_code_nor_grow(expression, form):
    EVENTS.clear()
    try:
        if form == "when":
            condition = compile_condition(expression)
            WATCHING[0] = True
            result = condition.holds(FIELDS, TABLES)
        else:
            template = compile_template(form.replace("%s", expression))
            for part in template.parts:  # parsed first (parsing is a "compile" event of its own)
                part.compiled()
            WATCHING[0] = True
            result = template.value(FIELDS, TABLES)
    except InputError as err:
        assert "\n" not in str(err)
        return
    finally:
        WATCHING[0] = False
        assert EVENTS == [], (expression, EVENTS)
    assert isinstance(result, (str, int, float, bool, list)) or result is None
    if isinstance(result, (str, list)):
        assert len(result) <= MAX_TEXT
    if isinstance(result, int):
        assert len(str(abs(result))) <= MAX_DIGITS
    if isinstance(result, float):
        assert math.isfinite(result)


def test_the_guides_table_of_functions_gives_what_it_says():
    """docs/custom-decks.md: each example with a result in its table computes that result."""
    from conftest import ROOT

    fields = {**FIELDS, "tags": "brave; loyal", "card.row": "7"}
    lines = (ROOT / "docs" / "custom-decks.md").read_text(encoding="utf-8").splitlines()
    rows = [line.split("|")[2:4] for line in map(str.strip, lines) if line.startswith("| `") and line.count("|") == 4]
    checked = 0
    for example, gives in rows:
        example, gives = example.strip().strip("`"), gives.strip().split(" (")[0]
        if example.startswith("${") and gives:
            assert str(compile_template(example).expand(fields, TABLES)) == gives, example
            checked += 1
    assert checked >= 5
