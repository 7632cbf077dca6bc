"""Conditions (``when:``) and card ranges (``cards:``) of a layout region.

A condition is read by simpleeval, never by Python's ``eval``: names are the card's fields, and
only comparisons, ``and``/``or``/``not``, ``in``, arithmetic, numbers and quoted strings exist —
no calls, no attributes, no imports. A field that looks like a number is a number, and ``==``
treats ``'7'`` and ``7`` as equal, because a spreadsheet does not say which one it meant.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache

import simpleeval

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import N_, Detail, Msg

_NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)$")


def field_value(text: str):
    """A field as a condition sees it: a number where it looks like one, else the text."""
    if _NUMBER.match(text.strip()):
        number = float(text)
        return int(number) if number.is_integer() and abs(number) < 2**53 else number
    return text


def _same(a, b) -> bool:
    if (
        isinstance(a, str) != isinstance(b, str)
        and not isinstance(a, (list, tuple))
        and not isinstance(b, (list, tuple))
    ):
        return str(field_value(str(a))) == str(field_value(str(b)))
    return a == b


def _contains(item, collection) -> bool:
    if isinstance(collection, str):
        return str(item) in collection
    return any(_same(item, member) for member in collection)


_OPERATORS = dict(simpleeval.DEFAULT_OPERATORS)
_OPERATORS.update(
    {
        ast.Eq: _same,
        ast.NotEq: lambda a, b: not _same(a, b),
        ast.In: lambda a, b: _contains(a, b),
        ast.NotIn: lambda a, b: not _contains(a, b),
    }
)
_OPERATORS.pop(ast.Pow, None)  # nothing on a card needs powers, and they are the easy way to hang
_SYMBOLS = {ast.Pow: "**", ast.MatMult: "@"}  # how a refused operator is written in a condition


@dataclass(frozen=True)
class Condition:
    text: str
    names: frozenset[str]
    tree: object

    def holds(self, fields: dict[str, str]) -> bool:
        missing = sorted(self.names - fields.keys())
        if missing:
            raise InputError(
                Msg("when: the card has no field '{value}'{hint}", value=missing[0], hint=suggest(missing[0], fields))
            )
        names = {name: field_value(fields[name]) for name in self.names}
        evaluator = simpleeval.EvalWithCompoundTypes(operators=_OPERATORS, functions={}, names=names)
        try:
            return bool(evaluator.eval(self.text, previously_parsed=self.tree))
        except Exception as err:  # noqa: BLE001 - any failure of a user's condition is their input
            raise InputError(Msg("when '{text}': {value}", text=self.text, value=_reason(err))) from None


def _reason(err: Exception) -> str:
    if isinstance(err, TypeError):
        return "compares a number with text; quote the value or check the field"
    return str(err).split(", for expression")[0].splitlines()[0][:120] or type(err).__name__


# What Python's parser says of the usual slips in a condition.
PYTHON_PROBLEMS = {
    N_("invalid syntax"),
    N_("unexpected EOF while parsing"),
    N_("'(' was never closed"),
    N_("unmatched ')'"),
    N_("invalid syntax. Perhaps you forgot a comma?"),
    N_("unterminated string literal (detected at line 1)"),
    N_("invalid syntax. Maybe you meant '==' or ':=' instead of '='?"),
}


@lru_cache(maxsize=1024)
def compile_condition(text: str) -> Condition:
    """Check a condition once, when the deck is read: syntax, and nothing but plain expressions."""
    try:
        module = ast.parse(text.strip(), mode="exec")
    except SyntaxError as err:
        raise InputError(
            Msg(
                "when '{text}' is not a valid condition ({msg}, column {value})",
                text=text,
                msg=Detail(err.msg, PYTHON_PROBLEMS),
                value=err.offset or 0,
            )
        ) from None
    if len(module.body) != 1 or not isinstance(module.body[0], ast.Expr):
        raise InputError(Msg("when '{text}' must be one condition, like: type == 'elite' and cost >= 3", text=text))
    for node in ast.walk(module):
        if isinstance(
            node,
            (
                ast.Call,
                ast.Attribute,
                ast.Lambda,
                ast.Subscript,
                ast.comprehension,
                ast.NamedExpr,
                ast.Starred,
                ast.Dict,
                ast.Set,
                ast.JoinedStr,
            ),
        ):
            kind = type(node).__name__.lower()
            raise InputError(
                Msg(
                    "when '{text}': {kind} is not allowed in a condition (comparisons, and, or, not, in, numbers and quoted text only)",
                    text=text,
                    kind=kind,
                )
            )
        if isinstance(node, ast.BinOp) and type(node.op) not in _OPERATORS:  # ** (simpleeval named it <ast.Pow …>)
            raise InputError(
                Msg(
                    "when '{text}': the operator {operator} is not allowed in a condition",
                    text=text,
                    operator=_SYMBOLS.get(type(node.op), type(node.op).__name__),
                )
            )
    names = frozenset(
        node.id for node in ast.walk(module) if isinstance(node, ast.Name) and node.id not in ("True", "False", "None")
    )
    evaluator = simpleeval.EvalWithCompoundTypes(operators=_OPERATORS, functions={})
    return Condition(text.strip(), names, evaluator.parse(text.strip()))


@dataclass(frozen=True)
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
        match = re.fullmatch(r"(\d{1,6})(?:\s*-\s*(\d{1,6}))?", part)
        if not match:
            raise InputError(Msg("cards '{text}': '{part}' is not a number or a range like 1-10", text=text, part=part))
        start, stop = int(match.group(1)), int(match.group(2) or match.group(1))
        if not 1 <= start <= stop:
            raise InputError(Msg("cards '{text}': '{part}' must count up from 1", text=text, part=part))
        spans.append((start, stop))
    return CardRanges(text, tuple(spans))
