"""Reading YAML and JSON input safely, remembering the line of every mapping key.

Every loader here is ``yaml.SafeLoader`` underneath: a file from a stranger can build only
plain data (dicts, lists, strings, numbers), never objects or code.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import yaml

from kkprint.base.errors import InputError, OsReason
from kkprint.base.i18n import N_, Msg

MAX_INPUT_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 32  # levels of lists and mappings; a deck or a tally needs fewer than ten
MAX_NUMBER_DIGITS = 100  # far beyond any count, and far below Python's 4,300-digit limit


class LineDict(dict):
    """A dict that knows the source line (1-based) of each of its keys and of itself."""

    line: int | None = None
    key_lines: dict

    def line_of(self, key: Any) -> int | None:
        return self.key_lines.get(key, self.line)


def _line(node_or_event) -> Msg:
    return Msg("line {line}", line=node_or_event.start_mark.line + 1)


# The plain values of YAML; the rest of its tags (!!binary, !!set, !!omap …) build what no
# kkprint file holds. A value a tag cannot make (2024-13-45 as a date) is the user's mistake.
_YAML_TAG = "tag:yaml.org,2002:"
_PLAIN_TAGS = {_YAML_TAG + name for name in ("null", "bool", "int", "float", "str", "timestamp", "seq", "map")}


MAX_EXPANSION = 10  # aliases may make a document at most this many times its own size


@functools.cache
def _line_loader() -> type:
    """The loader :func:`parse_yaml` reads with (:class:`_LineLoader` below), made with PyYAML
    the first time a command parses a file: a command whose files all come from the cache (a
    game's build) never loads PyYAML, ~3 ms of its start-up."""
    import yaml
    from yaml.composer import Composer
    from yaml.events import AliasEvent, MappingStartEvent, SequenceStartEvent
    from yaml.nodes import MappingNode, SequenceNode

    if TYPE_CHECKING or not hasattr(yaml, "CSafeLoader"):
        from yaml.parser import Parser
        from yaml.reader import Reader
        from yaml.scanner import Scanner

        class _Events(Reader, Scanner, Parser):
            """PyYAML's own parser, where it was built without libyaml."""

            def __init__(self, stream):
                Reader.__init__(self, stream)
                Scanner.__init__(self)
                Parser.__init__(self)

    else:  # libyaml's C parser: several times faster; the stubs cannot know it is there
        from yaml._yaml import CParser as _Events

    class _ShallowComposer(Composer, _Events):
        """PyYAML's composer, refusing lists and mappings nested deeper than :data:`MAX_DEPTH`
        before they are built. libyaml's own composer recurses in C: a hundred thousand ``[`` end
        the process with a segfault before Python can say anything; and everything that walks
        the data afterwards recurses too. An alias counts as deep as what it stands for: each list
        and mapping's height is noted once it is composed, so an alias costs nothing to measure
        (walking what it stands for, again for every alias, would be a bomb of its own)."""

        _depth = 0

        def __init__(self) -> None:
            super().__init__()
            self._heights: dict[int, int] = {}  # id of a composed list or mapping -> levels it holds

        def compose_node(self, parent, index):
            if self.check_event(AliasEvent):
                event = self.peek_event()
                target = self.anchors.get(event.anchor)
                # (an alias inside what it names has no height yet: the expansion check refuses it)
                if target is not None and self._depth + self._heights.get(id(target), 0) > MAX_DEPTH:
                    raise self._too_deep(event)
                return super().compose_node(parent, index)
            if not self.check_event(SequenceStartEvent, MappingStartEvent):
                return super().compose_node(parent, index)
            self._depth += 1
            try:
                if self._depth > MAX_DEPTH:
                    raise self._too_deep(self.peek_event())
                node = cast("MappingNode | SequenceNode", super().compose_node(parent, index))  # (a list or mapping)
            finally:
                self._depth -= 1
            children = (part for child in node.value for part in (child if isinstance(node, MappingNode) else (child,)))
            self._heights[id(node)] = 1 + max((self._heights.get(id(part), 0) for part in children), default=0)
            return node

        @staticmethod
        def _too_deep(event) -> InputError:
            return InputError(Msg("nested more than {limit} levels deep", limit=MAX_DEPTH), place=_line(event))

    class _PlainConstructor(yaml.constructor.SafeConstructor):
        """The safe constructor, limited to plain values of a sane size, whose mistakes are the
        user's: one line naming the value and its line, never a Python exception."""

        def construct_object(self, node, deep=False):
            tag = "!!" + node.tag.removeprefix(_YAML_TAG)
            if node.tag not in _PLAIN_TAGS and node.tag.startswith(_YAML_TAG):
                raise InputError(Msg("the tag {tag} is not allowed; write plain values", tag=tag), place=_line(node))
            try:
                return super().construct_object(node, deep)
            except (ValueError, TypeError, KeyError, AttributeError, OverflowError, IndexError):
                message = (
                    Msg("'{value}' cannot be read as {tag}", value=node.value[:40], tag=tag)
                    if isinstance(node.value, str)
                    else Msg("this list or mapping cannot be read as {tag}", tag=tag)
                )
                raise InputError(message, place=_line(node)) from None

        def construct_yaml_int(self, node):
            digits = len(str(node.value).replace("_", "").lstrip("+-"))
            if digits > MAX_NUMBER_DIGITS:
                raise InputError(
                    Msg(
                        "a number of {digits:,} digits is longer than any count (at most {limit}); quote it if it is text",
                        digits=digits,
                        limit=MAX_NUMBER_DIGITS,
                    ),
                    place=_line(node),
                )
            return super().construct_yaml_int(node)

    # (the stubs allow constructors only on PyYAML's own loader classes)
    _PlainConstructor.add_constructor(_YAML_TAG + "int", _PlainConstructor.construct_yaml_int)  # type: ignore[type-var]

    class _LineLoader(_ShallowComposer, _PlainConstructor, yaml.resolver.Resolver):
        """The safe loader (libyaml's C parser where PyYAML has it: several times faster) whose
        mappings become :class:`LineDict` carrying their line numbers, within the limits above.

        Anchors and aliases (``&frame`` … ``*frame``, ``<<: *frame``) are allowed, within a bound: a
        few lines of nested aliases expand to billions of nodes for any code that walks the data, so
        a document whose aliases, written out, would make it more than :data:`MAX_EXPANSION` times
        its own size is refused before anything is built from it.
        """

        size_limit = 0  # characters the document may expand to; set by parse_yaml

        def __init__(self, stream):
            _Events.__init__(self, stream)
            _ShallowComposer.__init__(self)
            _PlainConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)

        def construct_document(self, node):
            if self.size_limit:
                _check_expansion(node, self.size_limit)
            return super().construct_document(node)

    def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> LineDict:
        own = sum(1 for key_node, _ in node.value if key_node.tag != "tag:yaml.org,2002:merge")
        loader.flatten_mapping(node)  # a merge (<<: *base) puts the base's pairs first
        merged = len(node.value) - own
        result = LineDict()
        result.line = node.start_mark.line + 1
        result.key_lines = {}
        from_base: set = set()
        for index, (key_node, value_node) in enumerate(node.value):
            key = loader.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise InputError(
                    Msg("a mapping key must be a plain value"),
                    place=Msg("line {line}", line=key_node.start_mark.line + 1),
                ) from None
            if index < merged:
                from_base.add(key)
            elif key in result and key not in from_base:  # (a key of the mapping's own overrides its base's)
                raise InputError(
                    Msg("key '{key}' appears twice", key=key),
                    place=Msg("line {line}", line=key_node.start_mark.line + 1),
                )
            else:
                from_base.discard(key)
            result[key] = loader.construct_object(value_node, deep=True)
            result.key_lines[key] = key_node.start_mark.line + 1
        return result

    _LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)  # type: ignore[type-var]
    return _LineLoader


def _check_expansion(root: yaml.Node, limit: int) -> None:
    """Refuse a node graph whose aliases, written out in full, pass ``limit`` characters (or that
    contains itself). Each node is sized once, so the check is as cheap as the graph is small."""
    import yaml  # (loaded: the loader calls this)

    sizes: dict[int, int] = {}
    inside: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            inside.discard(key)
            if isinstance(node, yaml.ScalarNode):
                size = len(node.value) + 1
            elif isinstance(node, yaml.MappingNode):
                size = 2 + sum(sizes[id(k)] + sizes[id(v)] for k, v in node.value)
            else:
                size = 2 + sum(sizes[id(item)] for item in node.value)
            if size > limit:
                raise InputError(
                    Msg(
                        "its aliases (*name) would make it more than {times} times its own size; write the values out",
                        times=MAX_EXPANSION,
                    ),
                    place=Msg("line {line}", line=node.start_mark.line + 1),
                )
            sizes[key] = size
            continue
        if key in sizes:
            continue
        if key in inside:
            raise InputError(
                Msg("an alias (*name) refers to the value it is inside"),
                place=Msg("line {line}", line=node.start_mark.line + 1),
            )
        inside.add(key)
        stack.append((node, True))
        if isinstance(node, yaml.MappingNode):
            stack.extend((child, False) for pair in node.value for child in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((child, False) for child in node.value)


# What libyaml says of the mistakes people make, in words the catalogue has.
YAML_PROBLEMS = {
    N_("did not find expected node content"),
    N_("mapping values are not allowed in this context"),
    N_("mapping values are not allowed here"),
    N_("found character that cannot start any token"),
    N_("did not find expected ',' or '}'"),
    N_("did not find expected ',' or ']'"),
    N_("did not find expected '-' indicator"),
    N_("did not find expected key"),
    N_("found unexpected end of stream"),
    N_("found unknown escape character"),
    N_("could not find expected ':'"),
    N_("found a tab character that violates indentation"),
    N_("found undefined alias"),
    N_("found duplicate anchor"),
    N_("tags such as !!python/object are not allowed"),
}


def YamlProblem(problem: str):  # noqa: N802 - reads as the kind of value it makes
    """libyaml's description of a syntax error, in the catalogue's words where we know it."""
    from kkprint.base.i18n import Detail

    if problem.startswith("could not determine a constructor for the tag"):
        problem = "tags such as !!python/object are not allowed"
    return Detail(problem, YAML_PROBLEMS)


def parse_yaml(text: str, source: str) -> Any:
    """Parse YAML (or JSON, which YAML reads too) text; errors name the source and line."""
    import yaml  # (loaded by the first file parsed: see _line_loader)

    bad = yaml.reader.Reader.NON_PRINTABLE.search(text)
    if bad:
        char, index = bad.group(0), bad.start()
        line = text.count("\n", 0, index) + 1
        raise InputError(
            Msg("character U+{value:04X} is not allowed (a control or non-character)", value=ord(char)),
            source=source,
            place=Msg("line {line}", line=line),
        )
    loader = _line_loader()(text)
    loader.size_limit = MAX_EXPANSION * max(len(text), 1) if "*" in text else 0  # (no alias, no check)
    try:
        return loader.get_single_data()
    except InputError as err:
        raise err.located(source=source) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        if err.problem == "exceeded maximum nesting depth":  # (libyaml ≥ 0.2.6 stops at 1,000 levels
            # of ``[`` as it scans ahead, before the composer has seen the 33rd: the same mistake, said alike)
            too_deep = Msg("nested more than {limit} levels deep", limit=MAX_DEPTH)
            where = Msg("line {line}", line=mark.line + 1) if mark else None
            raise InputError(too_deep, source=source, place=where) from None
        place = Msg("line {line}, column {column}", line=mark.line + 1, column=mark.column + 1) if mark else None
        raise InputError(
            Msg("not valid YAML: {value}", value=YamlProblem(err.problem or err.context or "")),
            source=source,
            place=place,
        ) from None
    except yaml.YAMLError as err:
        raise InputError(Msg("not valid YAML: {err}", err=YamlProblem(str(err))), source=source) from None
    except RecursionError:
        raise InputError(Msg("nested too deeply"), source=source) from None
    finally:
        loader.dispose()


def _open_regular(path: Path) -> tuple[int, os.stat_result]:
    """A descriptor of the user's file, opened without blocking (a FIFO does not wait for a
    writer, a terminal does not become ours), or one line saying why it is not a regular file."""
    source = str(path)
    if "\x00" in source:
        raise InputError(Msg("a file name cannot contain a NUL character"), source=source.replace("\x00", "\\0"))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputError(Msg("no such file"), source=source) from None
    except PermissionError:
        raise InputError(Msg("not allowed to read this file"), source=source) from None
    except IsADirectoryError:
        raise InputError(Msg("is a folder, not a file"), source=source) from None
    except OSError as err:
        raise InputError(Msg("cannot open: {value}", value=OsReason(err)), source=source) from None
    try:
        info = os.fstat(fd)
    except OSError as err:
        os.close(fd)
        raise InputError(Msg("cannot read: {value}", value=OsReason(err)), source=source) from None
    if stat.S_ISREG(info.st_mode):
        return fd, info
    os.close(fd)
    if stat.S_ISDIR(info.st_mode):
        raise InputError(Msg("is a folder, not a file"), source=source)
    raise InputError(Msg("is not a regular file (a device, pipe or socket)"), source=source)


def check_readable(path: Path) -> None:
    """Refuse, as :func:`read_bytes` would, a file that is missing, a folder, a device, a pipe or
    unreadable, without reading it (``watch`` checks its deck once, then reads it at every change)."""
    os.close(_open_regular(path)[0])


def read_bytes(path: Path, *, limit: int = MAX_INPUT_BYTES, what: str = N_("input files")) -> bytes:
    """A user's file, whole, if it is a regular file of at most ``limit`` bytes.

    Opened without blocking and checked after opening, so a FIFO, a device such as /dev/zero or a
    file swapped for one is refused at once instead of hanging or filling memory; at most
    ``limit + 1`` bytes are ever read, whatever the file claims its size is.
    """
    source = str(path)
    fd, info = _open_regular(path)
    try:
        if info.st_size > limit:
            raise InputError(
                Msg(
                    "is {st_size:,} bytes; {what} are limited to {limit:,}",
                    st_size=info.st_size,
                    what=Msg(what),
                    limit=limit,
                ),
                source=source,
            )
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except IsADirectoryError:
        raise InputError(Msg("is a folder, not a file"), source=source) from None
    except OSError as err:
        raise InputError(Msg("cannot read: {value}", value=OsReason(err)), source=source) from None
    finally:
        os.close(fd)
    if total > limit:
        raise InputError(
            Msg("is larger than {limit:,} bytes; {what} are limited to that", limit=limit, what=Msg(what)),
            source=source,
        )
    return b"".join(chunks)


_BINARY = {
    "yaml": N_("is a binary file, not YAML or JSON text"),
    "json": N_("is a binary file, not JSON text"),
    "csv": N_("is a binary file, not CSV text"),
}


def read_text(path: Path, *, limit: int = MAX_INPUT_BYTES, kind: str = "yaml") -> str:
    """Read a user's text file, refusing huge, binary and non-UTF-8 files with a clear message;
    ``kind`` (yaml, json, csv) is the text the file should have held."""
    return decoded(read_bytes(path, limit=limit), str(path), kind)


def decoded(data: bytes, source: str, kind: str = "yaml") -> str:
    """A file's bytes as text, or one line saying why they are not UTF-8 text."""
    if b"\x00" in data:
        raise InputError(Msg(_BINARY[kind]), source=source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(Msg("is not UTF-8 text (byte {start})", start=err.start), source=source) from None
    return text


_SURROGATE = re.compile("[\ud800-\udfff]")


def printable_text(text: str) -> bool:
    """Whether a string can be written out at all: JSON's ``\\ud800`` makes a half of a
    character that no file, terminal or PDF can hold."""
    return text.isascii() or _SURROGATE.search(text) is None


class _RefusedJson(Exception):
    """What a hook of the JSON reader refused, and a pattern that finds it in the text."""

    def __init__(self, pattern: str, message: Msg, occurrence: int = 1):
        super().__init__(pattern)
        self.pattern, self.message, self.occurrence = pattern, message, occurrence


# What Python's JSON reader says of the usual slips, in words the catalogue has.
JSON_PROBLEMS = {
    N_("Expecting value"),
    N_("Expecting ',' delimiter"),
    N_("Expecting ':' delimiter"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Unterminated string starting at"),
    N_("Invalid control character at"),
    N_("Invalid \\escape"),
    N_("Invalid \\uXXXX escape"),
    N_("Extra data"),
}


def _json_whole(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _RefusedJson(
            re.escape(literal),
            Msg(
                "a number of {digits:,} digits is longer than any count (at most {limit}); quote it if it is text",
                digits=len(literal.lstrip("-")),
                limit=MAX_NUMBER_DIGITS,
            ),
        )
    return int(literal)


def _json_real(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise _RefusedJson(re.escape(literal), Msg("the number {value} is too large", value=literal[:40]))
    return value


def _json_constant(name: str) -> Any:
    raise _RefusedJson(re.escape(name), Msg("{value} is not a number a file may hold", value=name))


def _json_object(pairs: list[tuple[str, Any]]) -> dict:
    result: dict = {}
    for key, value in pairs:
        for text in (key, value) if isinstance(value, str) else (key,):
            if not printable_text(text):
                raise _RefusedJson(r"\\u[dD][89a-fA-F]", Msg("holds half of a character (a lone \\u surrogate escape)"))
        if key in result:
            raise _RefusedJson(re.escape(json.dumps(key)), Msg("key '{key}' appears twice", key=key), occurrence=2)
        result[key] = value
    return result


def parse_json(text: str, source: str) -> Any:
    """JSON read within the limits YAML is read with: whole numbers of at most
    :data:`MAX_NUMBER_DIGITS` digits, finite numbers (``1e400`` is not one), no ``NaN``, no key
    twice in an object, no lone surrogates; errors name the line."""
    try:
        return json.loads(
            text,
            parse_int=_json_whole,
            parse_float=_json_real,
            parse_constant=_json_constant,
            object_pairs_hook=_json_object,
        )
    except json.JSONDecodeError as err:
        from kkprint.base.i18n import Detail

        raise InputError(
            Msg("not valid JSON: {msg}", msg=Detail(err.msg, JSON_PROBLEMS)),
            source=source,
            place=Msg("line {line}, column {column}", line=err.lineno, column=err.colno),
        ) from None
    except RecursionError:
        raise InputError(Msg("nested too deeply"), source=source) from None
    except _RefusedJson as err:  # the hooks are not told where they are: the first such text is
        found = [match.start() for _, match in zip(range(err.occurrence), re.finditer(err.pattern, text))]
        place = Msg("line {line}", line=text.count("\n", 0, found[-1]) + 1) if found else None
        raise InputError(err.message, source=source, place=place) from None


def load_yaml_file(path: Path) -> Any:
    """Read and parse one YAML/JSON file; an empty file is an error, not ``None``."""
    return yaml_from_bytes(read_bytes(path), str(path))


def yaml_from_bytes(data: bytes, source: str) -> Any:
    """A YAML/JSON file's bytes, parsed; an empty file is an error, not ``None``. A ``.json``
    file is read as YAML too (its lines are named in later errors), but one neither can read is
    said to be no valid JSON, in the JSON reader's words ("not valid YAML" of a truncated JSON
    file sent its author looking for a YAML mistake)."""
    json_file = source.lower().endswith(".json")
    text = decoded(data, source, "json" if json_file else "yaml")
    try:
        parsed = parse_yaml(text, source)
    except InputError:
        if json_file:
            parse_json(text, source)  # (raises its own finding; valid JSON keeps the YAML reader's: a limit)
        raise
    if parsed is None:
        raise InputError(Msg("is empty"), source=source)
    return parsed
