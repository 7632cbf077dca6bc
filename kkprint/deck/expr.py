"""The deck's one small language: ``${…}`` in any value, ``when:`` conditions, ``cards:`` ranges.

An expression is parsed by Python's ``ast`` and then checked node by node before anything runs:
only arithmetic, comparisons, ``and``/``or``/``not``, ``in``, ``x if c else y``, numbers, quoted
text, lists, indexing and calls of the functions below pass — no attributes (``card.number`` and
``deck.name`` are names, not attribute access), no lambdas, no comprehensions, no imports. What
passes is evaluated by simpleeval, never by Python's ``eval``, with operators and functions of
our own that refuse, before computing it, any result longer than :data:`MAX_TEXT` characters or
larger than :data:`MAX_INT_BITS` bits, and after it any whole number of more than
:data:`MAX_DIGITS` digits and any number that is not finite. Every expression is bounded in length, depth and parts,
and each evaluation in the work it does (:data:`MAX_WORK`), so a deck from a stranger cannot
make an expression that runs code, fills memory or runs long.

Names are the card's fields: a field that looks like a number is a number (a spreadsheet does
not say which it meant), and ``==`` treats ``'7'`` and ``7`` alike. ``${name}`` alone prints the
field exactly as written.
"""

from __future__ import annotations

import ast
import datetime as dt
import math
import re
import threading
import warnings
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Protocol, cast

import simpleeval

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import N_, Detail, Msg
from kkprint.base.records import record

MAX_EXPRESSION = 1000  # characters in one ${…} or when:
MAX_PARTS = 250  # nodes of its parsed tree
MAX_DEPTH = 32  # nesting of those nodes
MAX_TEXT = 10_000  # characters (or list items) an expression may make: a data cell's limit
MAX_INT_BITS = 256  # what an operation may make before it is computed (10 ** 77 has 256 bits)
MAX_DIGITS = 77  # a whole number's digits, as the guide says (2 ** 256 has 78)
_TOO_LARGE = 10**MAX_DIGITS
MAX_FORMAT_WIDTH = 200
MAX_WORK = 200_000  # characters (a list item: ten) one evaluation may read and make, all its steps together

# Names every card has besides its fields. The first four are numbers; the others are text.
CARD_NAMES = ("card.number", "card.copy", "card.row", "card.total")
DECK_NAMES = ("deck.name", "deck.version", "today")
SPECIAL_NAMES = frozenset(CARD_NAMES + DECK_NAMES)
TEXT_NAMES = frozenset(DECK_NAMES)
PER_COPY_NAMES = frozenset({"card.number", "card.copy"})  # differ between copies of one card

_NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)$")


def field_value(text: str):
    """A field as an expression sees it: a number where it looks like one, else the text."""
    if len(text) < 40 and _NUMBER.match(text.strip()):
        number = float(text)
        return int(number) if number.is_integer() and abs(number) < 2**53 else number
    return text


def today_text() -> str:
    """The build's date: that of ``SOURCE_DATE_EPOCH`` when it is set (reproducible builds)."""
    from kkprint.base.settings import build_epoch

    epoch = build_epoch()
    if epoch is not None:
        return dt.datetime.fromtimestamp(epoch, dt.UTC).date().isoformat()
    return dt.date.today().isoformat()


def as_printed(value: Any) -> str:
    """A result as it prints: 2.0 → "2", 0.1 + 0.2 → "0.3", True → "true", a list → "a, b"."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e15:
            return str(int(value))
        return format(value, ".10g")
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(as_printed(item) for item in value)
    return str(value)


CHANGES_CASE = re.compile(r"\b(?:upper|lower|title)\s*\(")


def case_variants(characters: set[str]) -> str:
    """The characters upper(), lower() and title() can make of ``characters``: a font subset for
    a deck's texts must hold them too."""
    return "".join(c.upper() + c.lower() + c.title() for c in characters if c.upper() != c.lower())


# --- what a value is called in a message ------------------------------------------------------


def _kind(value: Any) -> Msg:
    if isinstance(value, str):
        return Msg("text")
    if isinstance(value, (int, float)):
        return Msg("a number")
    if isinstance(value, (list, tuple)):
        return Msg("a list")
    return Msg("nothing")


def _shown(value: Any) -> str:
    text = as_printed(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float))


# --- bounded operators ------------------------------------------------------------------------


def _number(value: Any) -> int | float:
    """A number result, refused when it is not finite or has more than MAX_DIGITS digits."""
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(Msg("the result is not a finite number"))
    if isinstance(value, int) and value.bit_length() >= MAX_INT_BITS and abs(value) >= _TOO_LARGE:
        raise InputError(Msg("makes a number of more than {digits} digits", digits=MAX_DIGITS))
    if isinstance(value, complex):
        raise InputError(Msg("the result is not a real number"))
    return value


def _long(length: int) -> None:
    if length > MAX_TEXT:
        raise InputError(Msg("would make {length:,} characters; at most {limit:,}", length=length, limit=MAX_TEXT))


def _mismatch(symbol: str, a: Any, b: Any) -> InputError:
    return InputError(
        Msg("'{symbol}' does not work on {left} and {right}", symbol=symbol, left=_kind(a), right=_kind(b))
    )


def _add(a, b):
    if _is_number(a) and _is_number(b):
        return _number(a + b)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        _long(len(a) + len(b))
        return [*a, *b]
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        raise _mismatch("+", a, b)
    left, right = as_printed(a), as_printed(b)  # text + number reads as text, as in a spreadsheet
    _long(len(left) + len(right))
    return left + right


def _multiply(a, b):
    if _is_number(a) and _is_number(b):
        if isinstance(a, int) and isinstance(b, int) and a.bit_length() + b.bit_length() > MAX_INT_BITS + 1:
            raise InputError(Msg("makes a number of more than {digits} digits", digits=MAX_DIGITS))
        return _number(a * b)
    if isinstance(b, (str, list, tuple)) and isinstance(a, int):
        a, b = b, a
    if isinstance(a, (str, list, tuple)) and isinstance(b, int):
        _long(len(a) * max(b, 0))
        return a * b
    raise _mismatch("*", a, b)


def _arithmetic(symbol: str, operation: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """An operator on numbers only: ``%`` on text would be Python's printf formatting."""

    def apply(a, b):
        if not (_is_number(a) and _is_number(b)):
            raise _mismatch(symbol, a, b)
        try:
            return _number(operation(a, b))
        except ZeroDivisionError:
            raise InputError(Msg("divides by zero")) from None

    return apply


def _power(a, b):
    if not (_is_number(a) and _is_number(b)):
        raise _mismatch("**", a, b)
    if isinstance(a, int) and isinstance(b, int) and abs(a) > 1 and b > 0 and a.bit_length() * b > MAX_INT_BITS + b:
        raise InputError(
            Msg(
                "{base} ** {exponent} makes a number of more than {digits} digits",
                base=_shown(a),
                exponent=_shown(b),
                digits=MAX_DIGITS,
            )
        )
    try:
        return _number(a**b)
    except ZeroDivisionError:
        raise InputError(Msg("divides by zero")) from None
    except OverflowError:
        raise InputError(Msg("the result is not a finite number")) from None


def _negative(a):
    if not _is_number(a):
        raise InputError(Msg("'-' works on numbers, not on {kind}", kind=_kind(a)))
    return -a


def _positive(a):
    if not _is_number(a):
        raise InputError(Msg("'+' works on numbers, not on {kind}", kind=_kind(a)))
    return +a


def _same(a, b) -> bool:
    if (
        isinstance(a, str) != isinstance(b, str)
        and not isinstance(a, (list, tuple))
        and not isinstance(b, (list, tuple))
    ):
        return str(field_value(as_printed(a))) == str(field_value(as_printed(b)))
    return a == b


def _contains(item, collection) -> bool:
    if isinstance(collection, str):
        return as_printed(item) in collection
    if isinstance(collection, (list, tuple)):
        return any(_same(item, member) for member in collection)
    raise InputError(Msg("'in' needs text or a list on its right, not {kind}", kind=_kind(collection)))


def _ordered(operation: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    def compare(a, b) -> bool:
        try:
            return operation(a, b)
        except TypeError:
            raise InputError(Msg("compares a number with text; quote the value or check the field")) from None

    return compare


_OPERATORS: dict[type, Callable] = {
    ast.Add: _add,
    ast.Sub: _arithmetic("-", lambda a, b: a - b),
    ast.Mult: _multiply,
    ast.Div: _arithmetic("/", lambda a, b: a / b),
    ast.FloorDiv: _arithmetic("//", lambda a, b: a // b),
    ast.Mod: _arithmetic("%", lambda a, b: a % b),
    ast.Pow: _power,
    ast.USub: _negative,
    ast.UAdd: _positive,
    ast.Not: lambda a: not a,
    ast.Eq: _same,
    ast.NotEq: lambda a, b: not _same(a, b),
    ast.Lt: _ordered(lambda a, b: a < b),
    ast.LtE: _ordered(lambda a, b: a <= b),
    ast.Gt: _ordered(lambda a, b: a > b),
    ast.GtE: _ordered(lambda a, b: a >= b),
    ast.In: _contains,
    ast.NotIn: lambda a, b: not _contains(a, b),
}


# --- functions --------------------------------------------------------------------------------


class Table(Protocol):
    """A look-up table (``tables:`` of a deck): rows by their key, then columns."""

    name: str

    def value(self, key: Any, column: Any = None, *default: Any) -> Any: ...


def _text_of(name: str, value: Any) -> str:
    if isinstance(value, (list, tuple)):
        raise InputError(Msg("{function}() needs text, not a list", function=name))
    return as_printed(value)


def _cased(name: str, change: Callable[[str], str]) -> Callable[[Any], str]:
    def apply(value) -> str:
        result = change(_text_of(name, value))
        _long(len(result))
        return result

    return apply


def _len(value) -> int:
    if isinstance(value, (str, list, tuple)):
        return len(value)
    raise InputError(Msg("{function}() needs text or a list, not {kind}", function="len", kind=_kind(value)))


def _to_number(name: str, value: Any) -> int | float:
    if _is_number(value):
        return value
    if isinstance(value, str):
        number = field_value(value)
        if _is_number(number):
            return number
    raise InputError(Msg("{function}() needs a number, not '{value}'", function=name, value=_shown(value)))


def _int(value) -> int:
    return int(_to_number("int", value))


def _float(value) -> float:
    return float(_to_number("float", value))


def _round(value, digits=0):
    number = _to_number("round", value)
    places = _to_number("round", digits)
    if not isinstance(places, int) or abs(places) > 15:
        raise InputError(Msg("round() keeps from -15 to 15 decimal places, not {value}", value=_shown(digits)))
    from decimal import ROUND_HALF_UP, Decimal, localcontext  # (only a deck that rounds loads it)

    written = Decimal(repr(number))  # half away from zero, as a spreadsheet rounds, on the number as it is written
    with localcontext() as context:  # every digit the rounding keeps: round(1e308, 15) has 324 (the default 28
        context.prec = max(28, written.adjusted() + places + 2)  # stopped it: "round() needs a number")
        rounded = written.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return _number(int(rounded)) if places <= 0 else _number(float(rounded))


def _extreme(name: str, pick: Callable) -> Callable[..., Any]:
    def apply(*values):
        items = values[0] if len(values) == 1 and isinstance(values[0], (list, tuple)) else values
        if not items:
            raise InputError(Msg("{function}() needs at least one value", function=name))
        if len({isinstance(item, str) for item in items}) > 1:
            items = [_to_number(name, item) for item in items]
        return pick(items)

    return apply


def _abs(value):
    return abs(_to_number("abs", value))


def _replace(value, old, new) -> str:
    text, old, new = _text_of("replace", value), _text_of("replace", old), _text_of("replace", new)
    count = text.count(old) if old else len(text) + 1
    _long(len(text) + count * (len(new) - len(old)))
    return text.replace(old, new)


def _split(value, separator=None) -> list[str]:
    text = _text_of("split", value)
    if separator is None:
        return text.split()
    separator = _text_of("split", separator)
    if not separator:
        raise InputError(Msg("split() cannot split at an empty separator"))
    return [part.strip() for part in text.split(separator)]


def _join(values, separator="") -> str:
    if not isinstance(values, (list, tuple)):
        raise InputError(Msg("{function}() needs a list (from split), not {kind}", function="join", kind=_kind(values)))
    separator = _text_of("join", separator)
    parts = [as_printed(item) for item in values]
    _long(sum(map(len, parts)) + len(separator) * max(len(parts) - 1, 0))
    return separator.join(parts)


def _pad(value, width, fill=" ") -> str:
    text, fill = _text_of("pad", value), _text_of("pad", fill)
    size = _to_number("pad", width)
    if len(fill) != 1:
        raise InputError(Msg("pad() fills with one character, not '{value}'", value=_shown(fill)))
    if not isinstance(size, int):
        raise InputError(Msg("pad() needs a whole number of characters, not {value}", value=_shown(width)))
    _long(abs(size))
    return text.rjust(size, fill) if size >= 0 else text.ljust(-size, fill)


_ARITY = {  # (fewest, most) values each function takes
    "upper": (1, 1),
    "lower": (1, 1),
    "title": (1, 1),
    "len": (1, 1),
    "str": (1, 1),
    "int": (1, 1),
    "float": (1, 1),
    "round": (1, 2),
    "min": (1, 50),
    "max": (1, 50),
    "abs": (1, 1),
    "replace": (3, 3),
    "split": (1, 2),
    "join": (1, 2),
    "pad": (2, 3),
    "lookup": (2, 4),
    "get": (1, 2),
}
FUNCTIONS = tuple(_ARITY)
_USAGE = {
    "upper": "upper(text)",
    "lower": "lower(text)",
    "title": "title(text)",
    "len": "len(text)",
    "str": "str(value)",
    "int": "int(value)",
    "float": "float(value)",
    "round": "round(number, places)",
    "min": "min(a, b, …)",
    "max": "max(a, b, …)",
    "abs": "abs(number)",
    "replace": "replace(text, old, new)",
    "split": "split(text, separator)",
    "join": "join(list, separator)",
    "pad": "pad(value, width, '0')",
    "lookup": "lookup('table', key, 'column', default)",
    "get": "get('field', default)",
}

_PURE: dict[str, Callable] = {
    "upper": _cased("upper", str.upper),
    "lower": _cased("lower", str.lower),
    "title": _cased("title", str.title),
    "len": _len,
    "str": as_printed,
    "int": _int,
    "float": _float,
    "round": _round,
    "min": _extreme("min", min),
    "max": _extreme("max", max),
    "abs": _abs,
    "replace": _replace,
    "split": _split,
    "join": _join,
    "pad": _pad,
}


# --- checking an expression before it ever runs -----------------------------------------------

_ALLOWED = (
    ast.Expression,
    ast.BoolOp,
    ast.BinOp,
    ast.UnaryOp,
    ast.Compare,
    ast.IfExp,
    ast.Call,
    ast.Name,
    ast.Constant,
    ast.List,
    ast.Tuple,
    ast.Subscript,
    ast.Slice,
    ast.Load,
    ast.And,
    ast.Or,
    *(op for op in _OPERATORS),
)
_FORBIDDEN_NAMES = {
    ast.Attribute: N_("attribute access"),
    ast.Lambda: N_("a lambda"),
    ast.ListComp: N_("a comprehension"),
    ast.SetComp: N_("a comprehension"),
    ast.DictComp: N_("a comprehension"),
    ast.GeneratorExp: N_("a comprehension"),
    ast.NamedExpr: N_("assignment"),
    ast.Starred: N_("unpacking (*)"),
    ast.Dict: N_("a mapping { }"),
    ast.Set: N_("a set { }"),
    ast.JoinedStr: N_("an f-string"),
    ast.Await: N_("await"),
    ast.Yield: N_("yield"),
    ast.YieldFrom: N_("yield"),
    ast.keyword: N_("a named argument"),
    ast.Is: N_("'is' (write ==)"),
    ast.IsNot: N_("'is not' (write !=)"),
}
FORBIDDEN = set(_FORBIDDEN_NAMES.values()) | {N_("this operator")}
# operators Python has and the deck's language does not: said as they are written
_REFUSED_OPERATORS = {
    ast.MatMult: "@",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.BitAnd: "&",
    ast.Invert: "~",
}

# What Python's parser says of the usual slips, in words the catalogue has.
PYTHON_PROBLEMS = {
    N_("invalid syntax"),
    N_("unexpected EOF while parsing"),
    N_("'(' was never closed"),
    N_("'[' was never closed"),
    N_("unmatched ')'"),
    N_("unmatched ']'"),
    N_("invalid syntax. Perhaps you forgot a comma?"),
    N_("unterminated string literal (detected at line 1)"),
    N_("invalid syntax. Maybe you meant '==' or ':=' instead of '='?"),
    N_("invalid decimal literal"),
}


@record
class Expression:
    """A checked expression: what it reads, and its tree ready for the evaluator."""

    text: str
    tree: ast.AST
    names: frozenset[str]  # fields and card./deck. names it reads
    required: frozenset[str]  # those it reads by name (not through get())
    tables: frozenset[str]  # tables it names in quotes: lookup('tint', …)
    reads_all: bool = False  # get() of a computed field name: it may read any field

    @property
    def per_copy(self) -> bool:
        """Whether two copies of one card may show different results (card.number, card.copy)."""
        return bool(self.names & PER_COPY_NAMES)

    def evaluate(self, fields: Mapping[str, str], tables: Mapping[str, Table] | None = None) -> Any:
        """The value over a card's fields (raw text, as read); errors are InputErrors."""
        names = {}
        for name in self.required:
            value = fields.get(name)
            if value is None:
                raise InputError(Msg("the card has no field '{name}'{hint}", name=name, hint=suggest(name, fields)))
            names[name] = value if name in TEXT_NAMES else field_value(value)
        evaluator = _evaluator()
        evaluator.start(names, fields, tables or {})
        try:
            result = evaluator.eval(self.text, previously_parsed=self.tree)
        except InputError:
            raise
        except TypeError:
            raise InputError(Msg("combines values of kinds that do not go together (a number with text?)")) from None
        except (IndexError, KeyError):
            raise InputError(Msg("an index is outside the text or list")) from None
        except ZeroDivisionError:
            raise InputError(Msg("divides by zero")) from None
        except (OverflowError, MemoryError, RecursionError):
            raise InputError(Msg("the result is not a finite number")) from None
        except (ValueError, simpleeval.InvalidExpression):
            raise InputError(Msg("cannot be worked out for this card")) from None
        finally:
            evaluator.start({}, {}, {})
        if isinstance(result, (str, list, tuple)):
            _long(len(result))
        elif result is not None and not isinstance(result, (bool, int, float)):
            raise InputError(Msg("cannot be worked out for this card"))
        return result

    def holds(self, fields: Mapping[str, str], tables: Mapping[str, Table] | None = None) -> bool:
        """As a condition (``when:``)."""
        return bool(self.evaluate(fields, tables))


class _Rewrite(ast.NodeTransformer):
    """``card.number`` and ``deck.name`` become the names ``"card.number"`` and ``"deck.name"``:
    they are not attribute access, which stays forbidden."""

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:  # noqa: N802 - ast's visitor naming
        if isinstance(node.value, ast.Name) and f"{node.value.id}.{node.attr}" in SPECIAL_NAMES:
            return ast.copy_location(ast.Name(id=f"{node.value.id}.{node.attr}", ctx=ast.Load()), node)
        if isinstance(node.value, ast.Name) and node.value.id in ("card", "deck"):
            names = ", ".join(n for n in CARD_NAMES + DECK_NAMES if n.startswith(node.value.id + "."))
            raise InputError(
                Msg("{name} is not one of the names {names}", name=f"{node.value.id}.{node.attr}", names=names)
            )
        raise InputError(
            Msg(
                "attribute access (.{name}) is not allowed; use the functions: {names}",
                name=node.attr,
                names=", ".join(FUNCTIONS),
            )
        )


def _too_complex() -> InputError:
    return InputError(
        Msg("is too complex (at most {parts} parts, nested {depth} deep)", parts=MAX_PARTS, depth=MAX_DEPTH)
    )


def _written_number(node: ast.Constant, source: str) -> None:
    """A number written in an expression, refused as a result would be: ``1e400`` is Python's
    infinity (it printed ``inf``), and a whole number of more than MAX_DIGITS digits is none the
    guide allows."""
    value = node.value
    written = ast.get_source_segment(source, node) or as_printed(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise InputError(Msg("the number {value} is too large: it is not finite", value=_shown(written)))
    if isinstance(value, int) and abs(value) >= _TOO_LARGE:
        raise InputError(
            Msg("the number {value} has more than {digits} digits", value=_shown(written), digits=MAX_DIGITS)
        )


def _check(tree: ast.Expression, source: str) -> tuple[set[str], set[str], set[str], bool]:
    """Every node allowed, within depth and count; returns (names, required, tables, reads_all)."""
    names: set[str] = set()
    required: set[str] = set()
    tables: set[str] = set()
    reads_all = False
    count = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_PARTS or depth > MAX_DEPTH:
            raise _too_complex()
        if not isinstance(node, _ALLOWED):
            if type(node) in _REFUSED_OPERATORS:
                raise InputError(
                    Msg(
                        "the operator {operator} is not allowed in an expression",
                        operator=_REFUSED_OPERATORS[type(node)],
                    )
                )
            kind = _FORBIDDEN_NAMES.get(type(node), N_("this operator"))
            raise InputError(Msg("{kind} is not allowed in an expression", kind=Detail(kind, FORBIDDEN)))
        if isinstance(node, ast.Constant) and not isinstance(node.value, (str, int, float, bool, type(None))):
            raise InputError(Msg("only numbers and quoted text are values here"))
        if isinstance(node, ast.Constant) and _is_number(node.value) and not isinstance(node.value, bool):
            _written_number(node, source)
        if isinstance(node, ast.Name):
            names.add(node.id)
            required.add(node.id)
        if isinstance(node, ast.Call):
            if node.keywords:
                raise InputError(
                    Msg("{kind} is not allowed in an expression", kind=Detail(N_("a named argument"), FORBIDDEN))
                )
            function = node.func.id if isinstance(node.func, ast.Name) else None
            if function not in _ARITY:
                shown = function or type(node.func).__name__.lower()
                raise InputError(Msg("there is no function '{name}'{hint}", name=shown, hint=suggest(shown, FUNCTIONS)))
            fewest, most = _ARITY[function]
            if not fewest <= len(node.args) <= most:
                raise InputError(
                    Msg(
                        "{function}() is written {usage} ({count} given)",
                        function=function,
                        usage=_USAGE[function],
                        count=len(node.args),
                    )
                )
            first = node.args[0]
            quoted = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None
            if function == "get":
                if quoted is None:
                    reads_all = True
                else:
                    names.add(quoted)
            if function == "lookup" and quoted is not None:
                tables.add(quoted)
            children: list[ast.AST] = [*node.args]  # the function's own name is not a field
        else:
            children = list(ast.iter_child_nodes(node))
        stack.extend((child, depth + 1) for child in children)
    return names, required, tables, reads_all


@lru_cache(maxsize=4096)
def compile_expression(text: str) -> Expression:
    """Check an expression once (syntax, allowed parts, sizes), when the deck is read."""
    source = text.strip()
    if not source:
        raise InputError(Msg("an empty ${} holds no expression"))
    if len(source) > MAX_EXPRESSION:
        raise InputError(
            Msg(
                "an expression of {count:,} characters is too long (at most {limit:,})",
                count=len(source),
                limit=MAX_EXPRESSION,
            )
        )
    try:
        with warnings.catch_warnings():  # ("'is' with a literal" and the like: refused below, never printed)
            warnings.simplefilter("ignore")
            module = ast.parse(source, mode="exec")
    except SyntaxError as err:
        raise InputError(
            Msg(
                "'{text}' is not a valid expression ({msg}, column {value})",
                text=_clip(source),
                msg=Detail(err.msg, PYTHON_PROBLEMS),
                value=err.offset or 0,
            )
        ) from None
    except (RecursionError, MemoryError, ValueError):
        raise _too_complex() from None
    if len(module.body) != 1 or not isinstance(module.body[0], ast.Expr):
        raise InputError(Msg("'{text}' must be one expression, like: cost * 2 or type == 'elite'", text=_clip(source)))
    try:  # (the rewrite walks the tree as Python parsed it: deeper than the checks below allow)
        tree = _Rewrite().visit(ast.Expression(body=module.body[0].value))
    except RecursionError:
        raise _too_complex() from None
    names, required, tables, reads_all = _check(tree, source)
    return Expression(source, tree.body, frozenset(names), frozenset(required), frozenset(tables), reads_all)


def compile_condition(text: str) -> Expression:
    """``when:``: an expression whose result is true or false. Written with ``${…}`` as values
    are (``${cost} > 2``, ``${cost > 2}``), it means the same."""
    if "${" in text:
        text = "".join(
            piece if isinstance(piece, str) else f"({piece.source})" for piece in compile_template(text).pieces
        )
    return compile_expression(text)


def _clip(text: str) -> str:
    return text if len(text) <= 60 else text[:59] + "…"


# --- the evaluator ----------------------------------------------------------------------------


class _Evaluator(simpleeval.SimpleEval):
    """simpleeval with our operators and functions, lists and tuples, and the card it works on.

    One is made per thread and reused: making an evaluator costs more than most expressions.
    """

    def __init__(self) -> None:
        functions = {**_PURE, "get": self._get, "lookup": self._lookup}
        super().__init__(operators=dict(_OPERATORS), functions=functions, names={})
        self.nodes.update({ast.List: self._eval_sequence, ast.Tuple: self._eval_sequence})
        self.fields: Mapping[str, str] = {}
        self.tables: Mapping[str, Table] = {}
        self.work = 0

    def start(self, names: dict, fields: Mapping[str, str], tables: Mapping[str, Table]) -> None:
        self.names, self.fields, self.tables = names, fields, tables
        self.work = 0

    def _spend(self, *values: Any) -> None:
        """Count the work an operation does by the size of what it reads and makes — a list's
        items each cost as much as ten characters — and stop an expression that does too much:
        each operation's size is bounded, and this bounds how many big ones one card may do."""
        for value in values:
            if isinstance(value, str):
                self.work += len(value)
            elif isinstance(value, (list, tuple)):
                self.work += 10 * len(value) + sum(len(item) for item in value if isinstance(item, str))
            else:
                self.work += 1
        if self.work > MAX_WORK:
            raise InputError(
                Msg("takes too much work for one card (it handles more than {limit:,} characters)", limit=MAX_WORK)
            )

    def _eval_binop(self, node: ast.BinOp) -> Any:
        left, right = self._eval(node.left), self._eval(node.right)
        self._spend(left, right)
        result = self.operators[type(node.op)](left, right)
        self._spend(result)
        return result

    def _eval_unaryop(self, node: ast.UnaryOp) -> Any:
        operand = self._eval(node.operand)
        self._spend(operand)
        return self.operators[type(node.op)](operand)

    def _eval_compare(self, node: ast.Compare) -> Any:
        right = self._eval(node.left)
        for operation, comparator in zip(node.ops, node.comparators):
            left, right = right, self._eval(comparator)
            self._spend(left, right)
            if not self.operators[type(operation)](left, right):
                return False
        return True

    def _eval_call(self, node: ast.Call) -> Any:
        values = [self._eval(argument) for argument in node.args]
        self._spend(*values)
        result = self.functions[cast(ast.Name, node.func).id](*values)  # (a known function: checked when compiled)
        self._spend(result)
        if isinstance(result, (int, float)):  # (int(1e300) is a whole number of 301 digits)
            _number(result)
        return result

    def _eval_sequence(self, node: ast.List | ast.Tuple) -> list:
        items = [self._eval(item) for item in node.elts]
        self._spend(items)
        return items

    def _eval_subscript(self, node: ast.Subscript) -> Any:
        container = self._eval(node.value)
        if not isinstance(container, (str, list, tuple)):
            raise InputError(Msg("only text and lists can be indexed, not {kind}", kind=_kind(container)))
        key = self._eval(node.slice)
        if not isinstance(key, (int, slice)) or isinstance(key, bool):
            raise InputError(Msg("an index is a whole number, not {kind}", kind=_kind(key)))
        result = container[key]
        self._spend(result)
        return result

    def _get(self, name, default="") -> Any:
        if not isinstance(name, str):
            raise InputError(Msg("get() takes a field's name in quotes, like get('cost', 0)"))
        value = self.fields.get(name)
        if value is None:
            return default
        return value if name in TEXT_NAMES else field_value(value)

    def _lookup(self, table, key, column=None, *default) -> Any:
        name = as_printed(table)
        found = self.tables.get(name)
        if found is None:
            raise InputError(Msg("no table '{name}'{hint}", name=name, hint=suggest(name, self.tables)))
        return found.value(key, column, *default)


_local = threading.local()


def _evaluator() -> _Evaluator:
    evaluator = getattr(_local, "evaluator", None)
    if evaluator is None:
        evaluator = _local.evaluator = _Evaluator()
    return evaluator


# --- ${…} inside a value ----------------------------------------------------------------------

_SPEC = re.compile(
    r"^(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?z?#?(?P<zero>0)?(?P<width>\d+)?(?P<grouping>[_,])?"
    r"(?:\.(?P<precision>\d+))?"
    r"(?P<type>[bcdeEfFgGnosxX%])?$",
    re.DOTALL,
)


@record
class Part:
    """One ``${…}`` of a value: its source, and the format spec after its ``:``."""

    source: str  # what stands between ${ and } (spec included): a field's name, or an expression
    expression: str
    spec: str

    @property
    def shown(self) -> str:
        return "${" + self.source + "}"

    def compiled(self) -> Expression:
        try:
            return compile_expression(self.expression)
        except InputError as err:
            raise InputError(
                Msg("{expression}: {problem}", expression=_clip(self.shown), problem=err.message)
            ) from None

    def value(self, fields: Mapping[str, str], tables: Mapping[str, Table] | None) -> Any:
        """The part's value for a card: a field named exactly (as written), else the expression's."""
        raw = fields.get(self.source)
        if raw is not None:
            return raw
        if self.spec and (raw := fields.get(self.expression)) is not None:
            result: Any = field_value(raw) if self.numeric and self.expression not in TEXT_NAMES else raw
        else:
            expression = self.compiled()
            try:
                result = expression.evaluate(fields, tables)
            except InputError as err:
                raise InputError(
                    Msg("{expression}: {problem}", expression=_clip(self.shown), problem=err.message)
                ) from None
        return self.formatted(result) if self.spec else result

    def check_format(self) -> re.Match | None:
        """The format spec, checked: Python's mini-language, with a sane width and precision."""
        if not self.spec:
            return None
        match = _SPEC.match(self.spec)
        if match is None or int(match["width"] or 0) > MAX_FORMAT_WIDTH or int(match["precision"] or 0) > 50:
            raise InputError(
                Msg(
                    "{expression}: ':{spec}' is not a format (like :03d, :.2f or :>5)",
                    expression=_clip(self.shown),
                    spec=self.spec,
                )
            )
        return match

    @property
    def numeric(self) -> bool:
        """Whether the format is one for numbers (``:03d``, ``:,``, ``:+``, ``:.2f``): a field
        read by it is read as a number; with any other (``:>6``) it stays as written."""
        match = self.check_format()
        if match is None:
            return False
        return (
            match["type"] not in (None, "s")
            or any(match[g] for g in ("sign", "zero", "grouping"))
            or (match["align"] == "=")
        )

    def formatted(self, value: Any) -> str:
        match = self.check_format()
        code = match["type"] if match else None
        if self.numeric and isinstance(value, str):
            value = field_value(value)
        if code in ("d", "b", "o", "x", "X", "c", "n") and isinstance(value, float) and value.is_integer():
            value = int(value)
        try:
            return format(value, self.spec)
        except (ValueError, TypeError, OverflowError):  # (OverflowError: ':c' of no character)
            raise InputError(
                Msg(
                    "{expression}: the format ':{spec}' does not fit {kind} '{value}'",
                    expression=_clip(self.shown),
                    spec=self.spec,
                    kind=_kind(value),
                    value=_shown(value),
                )
            ) from None


@record
class Template:
    """A value with ``${…}`` in it: literal text and parts, in order."""

    text: str
    pieces: tuple[str | Part, ...]

    @property
    def parts(self) -> tuple[Part, ...]:
        return tuple(piece for piece in self.pieces if isinstance(piece, Part))

    @property
    def whole(self) -> Part | None:
        """The part, when the value is one ``${…}`` and nothing else (its result keeps its kind)."""
        return self.pieces[0] if len(self.pieces) == 1 and isinstance(self.pieces[0], Part) else None

    def names(self, columns: Mapping[str, Any] | frozenset[str] | set[str] = frozenset()) -> frozenset[str]:
        """The fields (and card./deck. names) this value reads; ``"*"`` when it may read any."""
        return self._reads(columns, required=False)

    def required(self, columns: Mapping[str, Any] | frozenset[str] | set[str] = frozenset()) -> frozenset[str]:
        """The fields (and card./deck. names) this value cannot be worked out without: what it
        reads by name, not what ``get()`` reads (which may be missing: it has a default)."""
        return self._reads(columns, required=True)

    def _reads(self, columns: Mapping[str, Any] | frozenset[str] | set[str], required: bool) -> frozenset[str]:
        found: set[str] = set()
        for part in self.parts:
            if part.source in columns or part.source in SPECIAL_NAMES:  # a field named exactly, as written
                found.add(part.source)
                continue
            expression = part.compiled()
            found |= expression.required if required else expression.names
            if expression.reads_all and not required:
                found.add("*")
        return frozenset(found)

    def value(self, fields: Mapping[str, str], tables: Mapping[str, Table] | None = None) -> Any:
        """The value for a card: the result itself for a lone ``${…}``, else the text."""
        whole = self.whole
        if whole is not None:
            return whole.value(fields, tables)
        return self.expand(fields, tables)

    def expand(self, fields: Mapping[str, str], tables: Mapping[str, Table] | None = None) -> str:
        pieces = [piece if isinstance(piece, str) else as_printed(piece.value(fields, tables)) for piece in self.pieces]
        text = "".join(pieces)
        _long(len(text))
        return text


@lru_cache(maxsize=8192)
def compile_template(text: str) -> Template:
    """Split a value at its ``${…}`` (a ``}`` inside quotes or brackets does not end one)."""
    pieces: list[str | Part] = []
    position = 0
    while True:
        start = text.find("${", position)
        if start < 0:
            break
        if start > position:
            pieces.append(text[position:start])
        end, colon = _closing(text, start + 2)
        source = text[start + 2 : end]
        if colon is None:
            pieces.append(Part(source.strip(), source.strip(), ""))
        else:
            pieces.append(Part(source.strip(), source[: colon - start - 2].strip(), source[colon - start - 1 :]))
        position = end + 1
    if position < len(text):
        pieces.append(text[position:])
    return Template(text, tuple(pieces))


def _closing(text: str, start: int) -> tuple[int, int | None]:
    """Where the ``}`` of a ``${`` is, and its format spec's ``:`` (outside quotes and brackets)."""
    depth, quote, colon = 0, "", None
    index = start
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]" and depth:
            depth -= 1
        elif char == "}":
            if depth == 0:
                return index, colon
            depth -= 1
        elif char == ":" and depth == 0 and colon is None:
            colon = index
        index += 1
    raise InputError(Msg("'${{' is never closed (a '}}' is missing) in '{text}'", text=_clip(text)))


# --- card ranges ------------------------------------------------------------------------------


@record
class CardRanges:
    """``cards: "1-10,15"``: printed card numbers, counted from 1 across every copy."""

    text: str
    spans: tuple[tuple[int, int], ...]

    def __contains__(self, number: int) -> bool:
        return any(start <= number <= stop for start, stop in self.spans)


@lru_cache(maxsize=1024)
def parse_ranges(text: str) -> CardRanges:
    spans = []
    for part in (p.strip() for p in str(text).split(",")):
        match = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not match:
            raise InputError(Msg("cards '{text}': '{part}' is not a number or a range like 1-10", text=text, part=part))
        if any(len(number) > 15 for number in match.groups("")):  # ("1-999999999": every card there is)
            raise InputError(Msg("cards '{text}': '{part}' has too large a number", text=text, part=part))
        start, stop = int(match.group(1)), int(match.group(2) or match.group(1))
        if start < 1:
            raise InputError(Msg("cards '{text}': '{part}' must count up from 1", text=text, part=part))
        if start > stop:
            raise InputError(
                Msg(
                    "cards '{text}': '{part}' runs backwards; write {stop}-{start}",
                    text=text,
                    part=part,
                    start=start,
                    stop=stop,
                )
            )
        spans.append((start, stop))
    return CardRanges(text, tuple(spans))
