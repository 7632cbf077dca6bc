"""Pydantic's checks of what kkprint reads (decks, game definitions), with errors that point at
the line: its first finding said in the catalogue's words."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from kkprint.base.errors import InputError, did_you_mean, suggest
from kkprint.base.i18n import InEnglish, Msg, OneOf, Said
from kkprint.base.yamlio import LineDict

Model = TypeVar("Model")


def line_of(data: Any, location: tuple) -> int | None:
    """The YAML line of the deepest mapping key on ``location`` that we can still find."""
    line = data.line if isinstance(data, LineDict) else None
    node = data
    for key in location:
        if isinstance(node, LineDict) and key in node:
            line = node.line_of(key)
            node = node[key]
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
            if isinstance(node, LineDict):
                line = node.line
        else:
            break
    return line


def describe_location(location: tuple) -> str:
    text = ""
    for key in location:
        text += f"[{key}]" if isinstance(key, int) else (f".{key}" if text else str(key))
    return text


@lru_cache(maxsize=32)
def known_keys(model: type) -> frozenset[str]:
    """Every key name the model or the models inside it accept (for "did you mean")."""
    names: set[str] = set()

    def walk(schema) -> None:
        if isinstance(schema, dict):
            names.update((schema.get("properties") or {}).keys())
            for value in schema.values():
                walk(value)
        elif isinstance(schema, list):
            for value in schema:
                walk(value)

    walk(_schema(model))
    return frozenset(names)


@lru_cache(maxsize=32)
def _schema(model: type) -> dict:
    """The model's JSON schema, keyed as a file writes it: made only when a file has a mistake."""
    return adapter(model).json_schema(by_alias=True)


@lru_cache(maxsize=32)
def adapter(model: Any) -> TypeAdapter:
    """Pydantic's validator of a dataclass (a deck's part, a game definition), built once."""
    return TypeAdapter(model)


def as_written(value: Any, exclude: Any = None) -> Any:
    """A checked value as JSON data, keyed as a file writes it (``from``, not ``from_``)."""
    checked = adapter(type(value))  # type: ignore[arg-type]  # (a class: hashable)
    return checked.dump_python(value, mode="json", by_alias=True, exclude=exclude)


def keys_here(model: type, loc: tuple) -> frozenset[str]:
    """The keys that the part holding pydantic's ``loc`` takes (an image region's, not every
    region's): the model's schema followed along ``loc``, through the union member its tag
    names. Where the way is not clear, every key the model takes."""
    schema = _schema(model)
    definitions = schema.get("$defs", {})

    def resolved(node: dict) -> dict:
        while "$ref" in node:
            node = definitions.get(node["$ref"].rsplit("/", 1)[-1], {})
        return node

    def chosen(node: dict, part: Any) -> tuple[dict, bool]:
        """The union member ``part`` names (True: the part was its name), else the one member
        that holds keys (an optional mapping's), else the node itself."""
        mapping = node.get("discriminator", {}).get("mapping", {})
        if part in mapping:
            return resolved({"$ref": mapping[part]}), True
        members = [resolved(member) for member in node.get("oneOf") or node.get("anyOf") or []]
        named = [member for member in members if member.get("title") == part]
        if named:
            return named[0], True
        holding = [member for member in members if "properties" in member or "additionalProperties" in member]
        return (holding[0], False) if len(holding) == 1 else (node, False)

    node = resolved(schema)
    for part in loc[:-1]:
        node, named = chosen(node, part)
        if named:
            continue
        if isinstance(part, int) and isinstance(node.get("items"), dict):
            node = resolved(node["items"])
        elif part in node.get("properties", {}):
            node = resolved(node["properties"][part])
        elif isinstance(node.get("additionalProperties"), dict):
            node = resolved(node["additionalProperties"])
        elif not (isinstance(part, str) and _MEMBER.match(part)):
            return known_keys(model)
    members = [resolved(member) for member in node.get("oneOf") or node.get("anyOf") or [node]]
    keys = frozenset(key for member in members for key in member.get("properties", {}))
    return keys or known_keys(model)


def _close(loc: tuple, model: type) -> bool:
    """Whether the last key of ``loc`` looks like a misspelling of a key its part takes."""
    return bool(difflib.get_close_matches(str(loc[-1]), keys_here(model, loc), n=1, cutoff=0.6))


def validate(model: type[Model], data: Any, source: str, lines: Any = None) -> Model:
    """Validate ``data`` as ``model``; the first problem becomes one :class:`InputError` line.

    ``lines`` is the data as read from the file when ``data`` was derived from it (merged
    templates), so the line numbers still point into the user's own file.
    """
    try:
        return adapter(model).validate_python(data)  # type: ignore[arg-type]  # (a class: hashable)
    except ValidationError as err:
        location, problem = explain(err, model, data)
        line = line_of(lines if lines is not None else data, location)
        where = describe_location(location)
        place = (
            Msg("line {line}, {where}", line=line, where=where)
            if line and where
            else (Msg("line {line}", line=line) if line else (where or None))
        )
        raise InputError(problem, source=source, place=place) from None


def explain(err: ValidationError, model: type, data: Any = None) -> tuple[tuple, Said | str]:
    """Where in the data pydantic's first finding is, and what it is, in the catalogue's words.

    Pydantic's location names the union member it tried (``literal['a4','letter','a3']``, a
    region's ``type``); with the data at hand, only the keys and indexes the user wrote are kept."""
    errors = err.errors()
    # a number that is not finite is the clearest thing to say, whichever union member failed;
    # a misspelt key leaves another one missing, and its own name says more than the gap
    misspelt = (e for e in errors if e["type"] == _UNKNOWN_KEY and _close(e["loc"], model))
    first = next((e for e in errors if e["type"] == "finite_number"), None) or next(misspelt, errors[0])
    first = _inside_the_mapping(first, errors, data)
    location = _written(first["loc"], data)
    return location, _problem(first, location, model)


def _inside_the_mapping(first: ErrorDetails, errors: list[ErrorDetails], data: Any) -> ErrorDetails:
    """A mapping written where a key takes a word or a mapping (``paper: {w: 1mm}``, ``fill:
    {gradient: conic}``): the union member that takes a word finds only that it is no word
    ("must be one of 'a4'…", "must be text"); what is wrong is found inside the mapping, by the
    member that takes one."""
    if not isinstance(first.get("input"), dict):
        return first
    here = _written(first["loc"], data)
    for error in errors:
        there = _written(error["loc"], data)
        deeper = len(there) > len(here)  # (a key of the mapping, wrong or missing)
        of_it = len(there) == len(here) and error["type"] in ("value_error", "assertion_error")  # (the whole)
        if error is not first and there[: len(here)] == here and (deeper or of_it):
            return error
    return first


_UNKNOWN_KEY = "unexpected_keyword_argument"  # (what pydantic says of a dataclass)
_MEMBER = re.compile(r"^[a-z-]+\[.*\]$|^(str|int|float|bool|none|list|dict)$|^[A-Z]\w*$|^function-")


def _written(loc: tuple, data: Any) -> tuple:
    """The parts of pydantic's location that are keys or indexes of ``data``; without data,
    those that do not look like the name of a union member."""
    kept: list = []
    node = data
    tag_of = None  # the mapping whose union member pydantic has named already
    for part in loc:
        if isinstance(node, dict):
            if isinstance(part, str) and node.get("type") == part and tag_of is not node:
                tag_of = node  # the member a region's type chose (a text region has a text key too)
                continue
            if part in node:
                kept.append(part)
                node = node[part]
            elif not (isinstance(part, str) and (_MEMBER.match(part) or node.get("type") == part)):
                kept.append(part)  # (a key pydantic misses: the place of the error)
                node = None
        elif isinstance(node, list) and isinstance(part, int):
            kept.append(part)
            node = node[part] if 0 <= part < len(node) else None
        elif node is None and not (isinstance(part, str) and _MEMBER.match(part)):
            kept.append(part)
        # anything else is a union member's name
    return tuple(kept)


def _names(expected: str) -> list[str]:
    """``"'a4', 'letter' or 'a3'"`` (pydantic's English list of choices) as its names."""
    return [name.strip().strip("'\"") for name in re.split(r",\s*|\s+or\s+", expected) if name.strip()]


def _length(first: ErrorDetails) -> int:
    """How many entries the list pydantic found too short has (its count, else the input's)."""
    counted = (first.get("ctx") or {}).get("actual_length")
    if isinstance(counted, int):
        return counted
    found = first.get("input")
    return len(found) if isinstance(found, (list, tuple, dict, str)) else 0


def _problem(first: ErrorDetails, location: tuple, model) -> Said | str:
    """Pydantic's finding in the catalogue's words; our own validators' messages come through
    as they were raised (already in the reader's language)."""
    kind, context = first["type"], first.get("ctx") or {}
    if kind == _UNKNOWN_KEY:
        key = location[-1]
        if key in known_keys(model):  # (an image region's fill: a text region's key)
            return Msg("'{key}' is not a key here: another kind of part takes it", key=key)
        here = _close(first["loc"], model)
        hint = suggest(str(key), keys_here(model, first["loc"])) if here else Msg(" (a typo?)")
        return Msg("unknown key '{key}'{hint}", key=key, hint=hint)
    if kind == "finite_number":
        return Msg("must be a finite number, not '{value}'", value=first.get("input"))
    if kind in ("missing", "missing_argument"):
        return Msg("missing '{key}'", key=location[-1])
    if kind in ("float_parsing", "float_type", "int_parsing", "int_type", "int_from_float"):
        return Msg("must be a number, not '{value}'", value=first.get("input"))
    if kind in ("string_type", "str_type"):
        return Msg("must be text, not '{value}'", value=first.get("input"))
    if kind in ("bool_parsing", "bool_type"):
        return Msg("must be true or false, not '{value}'", value=first.get("input"))
    if kind in ("dict_type", "dataclass_type", "dataclass_args_type"):
        return Msg("must be a mapping (key: value)")
    if kind == "list_type":
        return Msg("must be a list")
    if kind == "greater_than":
        return Msg("must be greater than {limit:g}", limit=context.get("gt"))
    if kind == "greater_than_equal":
        return Msg("must be at least {limit:g}", limit=context.get("ge"))
    if kind == "less_than":
        return Msg("must be less than {limit:g}", limit=context.get("lt"))
    if kind == "less_than_equal":
        return Msg("must be at most {limit:g}", limit=context.get("le"))
    if kind in ("literal_error", "enum"):
        names = _names(str(context.get("expected", "")))
        value = first.get("input")
        return Msg(
            "must be one of {names}, not '{value}'{hint}",
            names=OneOf(names),
            value=value,
            hint=did_you_mean(value, names),
        )
    if kind in ("union_tag_not_found", "union_tag_invalid"):
        tags = _names(str(context.get("expected_tags", ""))) or ["text", "icon", "shape", "image"]
        tag = context.get("tag")
        if kind == "union_tag_not_found" or tag is None:
            return Msg("needs a type: {names} (or extends: another region)", names=OneOf(tags))
        return Msg(
            "unknown type '{value}'; known: {names}{hint}", value=tag, names=OneOf(tags), hint=did_you_mean(tag, tags)
        )
    if kind == "too_long":
        return Msg("has more than {limit} entries", limit=context.get("max_length"))
    if kind == "too_short":  # (a shape's points: [[0, 0]] is one point of the two it needs)
        return Msg("needs at least {limit} entries, not {count}", limit=context.get("min_length"), count=_length(first))
    if kind == "string_too_short":
        limit = context.get("min_length")
        return Msg("must not be empty") if limit == 1 else Msg("must be at least {limit} characters", limit=limit)
    if kind == "string_too_long":
        return Msg("must be at most {limit} characters", limit=context.get("max_length"))
    if kind in ("value_error", "assertion_error"):  # our own validators' words, as they raised them
        raised = context.get("error")
        said = raised.args[0] if isinstance(raised, Exception) and raised.args else None
        if isinstance(said, Msg):  # (said in the reader's language, whichever thread checked the deck)
            return said
        return first["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
    return InEnglish(first["msg"], Msg("is not a valid value here: '{value}'", value=str(first.get("input"))[:60]))
