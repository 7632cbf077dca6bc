"""Reading YAML and JSON input safely, remembering the line of every mapping key.

Every loader here is ``yaml.SafeLoader`` underneath: a file from a stranger can build only
plain data (dicts, lists, strings, numbers), never objects or code.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from kkprint.base.errors import InputError
from kkprint.base.i18n import N_, Msg

MAX_INPUT_BYTES = 5 * 1024 * 1024


class LineDict(dict):
    """A dict that knows the source line (1-based) of each of its keys and of itself."""

    line: int | None = None
    key_lines: dict

    def line_of(self, key: Any) -> int | None:
        return self.key_lines.get(key, self.line)


if TYPE_CHECKING:
    _SafeLoader = yaml.SafeLoader
else:  # libyaml's C parser where PyYAML was built with it; the stubs cannot know which
    _SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


MAX_EXPANSION = 10  # aliases may make a document at most this many times its own size


class _LineLoader(_SafeLoader):
    """The safe loader (libyaml's C parser where PyYAML has it: several times faster) whose
    mappings become :class:`LineDict` carrying their line numbers.

    Anchors and aliases (``&frame`` … ``*frame``, ``<<: *frame``) are allowed, within a bound: a
    few lines of nested aliases expand to billions of nodes for any code that walks the data, so
    a document whose aliases, written out, would make it more than :data:`MAX_EXPANSION` times
    its own size is refused before anything is built from it.
    """

    size_limit = 0  # characters the document may expand to; set by parse_yaml

    def construct_document(self, node):
        if self.size_limit:
            _check_expansion(node, self.size_limit)
        return super().construct_document(node)


def _check_expansion(root: yaml.Node, limit: int) -> None:
    """Refuse a node graph whose aliases, written out in full, pass ``limit`` characters (or that
    contains itself). Each node is sized once, so the check is as cheap as the graph is small."""
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
                Msg("a mapping key must be a plain value"), place=Msg("line {line}", line=key_node.start_mark.line + 1)
            ) from None
        if index < merged:
            from_base.add(key)
        elif key in result and key not in from_base:  # (a key of the mapping's own overrides its base's)
            raise InputError(
                Msg("key '{key}' appears twice", key=key), place=Msg("line {line}", line=key_node.start_mark.line + 1)
            )
        else:
            from_base.discard(key)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


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
    bad = yaml.reader.Reader.NON_PRINTABLE.search(text)
    if bad:
        char, index = bad.group(0), bad.start()
        line = text.count("\n", 0, index) + 1
        raise InputError(
            Msg("character U+{value:04X} is not allowed (a control or non-character)", value=ord(char)),
            source=source,
            place=Msg("line {line}", line=line),
        )
    loader = _LineLoader(text)
    loader.size_limit = MAX_EXPANSION * max(len(text), 1) if "*" in text else 0  # (no alias, no check)
    try:
        return loader.get_single_data()
    except InputError as err:
        raise err.located(source=source) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
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


def read_bytes(path: Path, *, limit: int = MAX_INPUT_BYTES, what: str = "input files") -> bytes:
    """A user's file, whole, if it is a regular file of at most ``limit`` bytes.

    Opened without blocking and checked after opening, so a FIFO, a device such as /dev/zero or a
    file swapped for one is refused at once instead of hanging or filling memory; at most
    ``limit + 1`` bytes are ever read, whatever the file claims its size is.
    """
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
        raise InputError(Msg("cannot open: {value}", value=err.strerror or err), source=source) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError(Msg("is a folder, not a file"), source=source)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(Msg("is not a regular file (a device, pipe or socket)"), source=source)
        if info.st_size > limit:
            raise InputError(
                Msg(
                    "is {st_size:,} bytes; {what} are limited to {limit:,}",
                    st_size=info.st_size,
                    what=what,
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
        raise InputError(Msg("cannot read: {value}", value=err.strerror or err), source=source) from None
    finally:
        os.close(fd)
    if total > limit:
        raise InputError(
            Msg("is larger than {limit:,} bytes; {what} are limited to that", limit=limit, what=what), source=source
        )
    return b"".join(chunks)


def read_text(path: Path, *, limit: int = MAX_INPUT_BYTES) -> str:
    """Read a user's text file, refusing huge, binary and non-UTF-8 files with a clear message."""
    source = str(path)
    data = read_bytes(path, limit=limit)
    if b"\x00" in data:
        raise InputError(Msg("is a binary file, not YAML or JSON text"), source=source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(Msg("is not UTF-8 text (byte {start})", start=err.start), source=source) from None
    return text


def load_yaml_file(path: Path) -> Any:
    """Read and parse one YAML/JSON file; an empty file is an error, not ``None``."""
    text = read_text(path)
    data = parse_yaml(text, str(path))
    if data is None:
        raise InputError(Msg("is empty"), source=str(path))
    return data
