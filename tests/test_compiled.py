"""dataclasses' methods and re's patterns compiled once per installation (kkprint.base.compiled):
what is kept is what Python's own ``exec`` and ``re`` compile, a later process compiles nothing
that was kept, a pattern new in every process is never written, and a damaged file is only a
slower run. Whole processes, each with its own cache folder."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap

from conftest import ROOT

CLASSES = """
from __future__ import annotations
import dataclasses
from dataclasses import InitVar, field
from kkprint.base.records import mutable, record

@record(order=True)
class Size:
    width: float
    height: float = 1.5
    tags: tuple[str, ...] = ()

@mutable
class Page:
    rows: list[int] = field(default_factory=list)
    seed: InitVar[int] = 0
    def __post_init__(self, seed):
        self.rows.append(seed)

@dataclasses.dataclass(frozen=True, kw_only=True)
class Plain:
    name: str
    count: int = 2

made = [Size(2.0), Size(2.0, 3.0, ("a",)), Page(seed=4), Plain(name="x")]
said = [repr(made[0]), made[0] == Size(2.0), made[0] < made[1], hash(made[0]) == hash(Size(2.0)), made[2].rows, repr(made[3])]
"""


def _run(cache, code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "KKPRINT_CACHE_DIR": str(cache)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _kept_and_compiled(cache) -> str:
    return _run(
        cache,
        "from kkprint.base import compiled\n"
        "from pathlib import Path\n"
        f"compiled.keep_compiled_code(Path({str(cache)!r}))\n"
        "known = set(compiled.METHODS.known)\n"
        f"exec(compile({CLASSES!r}, 'classes', 'exec'))\n"
        "print(len(known), len(compiled.METHODS.added), said)\n",
    )


def _sized():
    @dataclasses.dataclass(order=True, frozen=True)
    class Sized:
        width: float
        height: float = 1.5
        tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)

    return Sized


def test_the_code_kept_is_the_code_dataclasses_compiles(monkeypatch):
    from kkprint.base import compiled

    theirs = _sized()  # (Python's own exec)
    monkeypatch.setattr(dataclasses, "exec", compiled._exec, raising=False)
    ours = _sized()
    assert any("Sized" in source or "width" in source for source in compiled.METHODS.known)
    for name in ("__init__", "__eq__", "__lt__", "__hash__", "__repr__", "__setattr__"):
        mine, builtin = getattr(ours, name).__code__, getattr(theirs, name).__code__
        for attribute in ("co_code", "co_consts", "co_names", "co_varnames", "co_flags", "co_filename"):
            assert getattr(mine, attribute) == getattr(builtin, attribute), (name, attribute)
    assert (
        ours(2.0) < ours(3.0) and hash(ours(2.0)) == hash(theirs(2.0)) and repr(ours(1.0))[5:] == repr(theirs(1.0))[5:]
    )


def test_a_second_process_compiles_nothing_it_kept_and_its_classes_behave_the_same(tmp_path):
    cache = tmp_path / "cache"
    first = _kept_and_compiled(cache).split(" ", 2)
    [kept] = cache.glob("dataclass-methods-*.marshal")
    assert first[0] == "0" and int(first[1]) >= 8  # nothing kept yet; every method compiled
    written = kept.stat().st_mtime_ns
    second = _kept_and_compiled(cache).split(" ", 2)
    assert int(second[0]) >= 8 and second[1] == "0"  # all read back, none compiled
    assert kept.stat().st_mtime_ns == written  # (nothing new: nothing written)
    assert first[2] == second[2]  # the same reprs, comparisons, hashes and post-init
    assert "Size(width=2.0, height=1.5, tags=())" in first[2] and "[4]" in first[2]


def test_a_damaged_file_is_compiled_again_and_replaced(tmp_path):
    cache = tmp_path / "cache"
    _kept_and_compiled(cache)
    [kept] = cache.glob("dataclass-methods-*.marshal")
    for damage in (kept.read_bytes()[:100], b"not marshal at all", b""):
        kept.write_bytes(damage)
        again = _kept_and_compiled(cache).split(" ", 2)
        assert again[0] == "0" and int(again[1]) >= 8
        assert len(kept.read_bytes()) > 1000  # whole again


def test_a_build_keeps_its_methods_and_the_next_build_reuses_them(tmp_path):
    """As a user runs it: ``kkprint`` keeps what it compiled, and the same command again reads it."""
    cache, out = tmp_path / "cache", tmp_path / "out"
    command = [sys.executable, "-m", "kkprint", "build", "court", "--out", str(out), "--lang", "en"]
    env = {**os.environ, "KKPRINT_CACHE_DIR": str(cache)}
    for _ in range(2):
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
    probe = textwrap.dedent(
        f"""
        import marshal, pathlib
        [path] = pathlib.Path({str(cache)!r}).glob("dataclass-methods-*.marshal")
        kept, _ = marshal.loads(path.read_bytes()[4:])  # (after its checksum)
        print(len(kept), sum("def __init__(" in source for source in kept))
        """
    )
    count, inits = map(int, _run(cache, probe).split())
    assert count >= 30 and inits >= 20


# --- expressions made as text: namedtuple's, typing's and inspect's -------------------------------


def _code_fields(code) -> tuple:
    return tuple(getattr(code, name) for name in ("co_code", "co_consts", "co_names", "co_varnames", "co_flags"))


def test_an_expression_kept_is_the_code_python_compiles(monkeypatch):
    import collections
    import inspect
    import typing

    from kkprint.base import compiled

    kind = compiled._KeptCode("expressions", compiled._is_code)
    monkeypatch.setattr(compiled, "EXPRESSIONS", kind)
    theirs = collections.namedtuple("Point", "x y")  # (Python's own eval)
    monkeypatch.setattr(collections, "eval", compiled._eval, raising=False)
    monkeypatch.setattr(typing, "compile", compiled._compile, raising=False)
    monkeypatch.setattr(inspect, "eval", compiled._eval, raising=False)
    for _ in range(2):  # (the second from what was kept)
        ours = collections.namedtuple("Point", "x y")
        assert _code_fields(ours.__new__.__code__) == _code_fields(theirs.__new__.__code__)
        assert ours(1, y=2) == (1, 2) and repr(ours(1, 2)) == "Point(x=1, y=2)"
    assert len(kind.known) == 1
    # a forward reference: typing compiles its text (in a module without __future__ imports)
    reference = typing.ForwardRef("dict[str, list[int]] | None")
    assert _code_fields(reference.__forward_code__) == _code_fields(
        compile("dict[str, list[int]] | None", "<string>", "eval", dont_inherit=True)
    )
    assert typing.ForwardRef("int")._evaluate(globals(), None, frozenset()) is int
    try:
        typing.ForwardRef("not an expression!")
    except SyntaxError as error:
        assert "Forward reference must be an expression" in str(error)
    else:
        raise AssertionError("a broken reference is typing's error, as before")

    # inspect evaluates annotations (text, as this module writes them) in their module's names
    def annotated(size: float, names: list[str]) -> dict[str, float]: ...

    assert inspect.signature(annotated, eval_str=True).parameters["names"].annotation == list[str]
    # eval itself: spaces before the expression are stripped, no globals means the caller's
    seen = 41  # noqa: F841 - read by the expressions below
    assert compiled._eval("  seen + 1", {"seen": 1}) == 2
    assert compiled._eval("seen + 1") == 42
    assert compiled._eval("seen + extra", None, {"seen": 1, "extra": 2}) == 3
    assert compiled._eval(compile("7 * 6", "<string>", "eval")) == 42  # (code given: run as it is)
    # what is not an expression as typing compiles one goes to Python's compile
    assert isinstance(compiled._compile("x = 1", "<string>", "exec"), type(reference.__forward_code__))
    assert "  leading" not in kind.known and "seen + 1" in kind.known


def test_a_build_keeps_its_expressions_and_the_next_command_compiles_none(tmp_path):
    """``--help`` has Typer read every command's annotations: a second run reads them back."""
    cache = tmp_path / "cache"
    probe = textwrap.dedent(
        """
        import atexit, sys
        from kkprint.base import compiled
        sys.argv = ["kkprint", "--help"]
        atexit.register(lambda: print(len(compiled.EXPRESSIONS.known), len(compiled.EXPRESSIONS.added)))
        from kkprint.__main__ import run
        try:
            run()
        except SystemExit:
            pass
        """
    )
    counts = [tuple(map(int, _run(cache, probe).split()[-2:])) for _ in range(2)]  # (after the help)
    (known_first, added_first), (known_second, added_second) = counts
    assert added_first >= 20  # every annotation and tuple class compiled the first time ...
    assert added_second == 0 and known_second >= added_first  # ... and read back the second
    assert len(list(cache.glob("expressions-*.marshal"))) == 1


def test_what_another_process_kept_meanwhile_is_kept_too_and_a_full_file_keeps_what_was_used(tmp_path, monkeypatch):

    from kkprint.base import compiled

    path = tmp_path / "methods.marshal"
    code = compile("x = 1", "<string>", "exec", dont_inherit=True)
    path.write_bytes(_file_of({"theirs": code}))  # (written by another process after this one began)
    kind = compiled._KeptCode("methods", compiled._is_code)
    kind.path, kind.known, kind.added, kind.used = path, {"mine": code, "older": code}, ["mine"], {"mine"}
    kind.keep()
    assert set(kind.read(path)[0]) == {"theirs", "mine", "older"}

    monkeypatch.setattr(compiled, "MOST", 2)  # full: only what this process used stays
    kind.keep()
    assert set(kind.read(path)[0]) == {"mine"}

    kind.added = []  # nothing compiled: nothing written
    path.write_bytes(b"")
    kind.keep()
    assert path.read_bytes() == b""


def test_a_file_that_is_not_one_this_module_wrote_is_read_as_none(tmp_path, monkeypatch):
    import marshal

    from kkprint.base import compiled

    path = tmp_path / "methods.marshal"
    code = compile("x = 1", "<string>", "exec", dont_inherit=True)
    kind = compiled.METHODS
    good = _file_of({"s": code})
    assert kind.read(_written(path, good)) == ({"s": code}, ())
    for data in (
        b"",
        b"\x00garbage",
        _file_of([1, 2]),
        marshal.dumps({"s": code}),  # (a file of the format before)
        marshal.dumps(({"s": code}, ())),  # (... and the one before that)
        _file_of({1: code, "s": "not code"}, ("not a checksum",)),
        good[:-1] + bytes([good[-1] ^ 1]),  # one bit flipped on disk: the checksum tells
        good[:40] + bytes([good[40] ^ 8]) + good[41:],
    ):
        path.write_bytes(data)
        assert kind.read(path) == ({}, ())
    monkeypatch.setattr(compiled, "LARGEST", 10)
    path.write_bytes(good)
    assert kind.read(path) == ({}, ())  # (too large to be worth reading)
    assert kind.read(tmp_path / "missing") == ({}, ())


def _file_of(entries, notes=()) -> bytes:
    """A cache file as kkprint.base.compiled writes one: a checksum, then its marshal data."""
    import marshal
    import zlib

    data = marshal.dumps((entries, notes)) if isinstance(entries, dict) else marshal.dumps(entries)
    return zlib.crc32(data).to_bytes(4, "little") + data


def _written(path, data: bytes):
    path.write_bytes(data)
    return path


# --- regular expressions ------------------------------------------------------------------------

PATTERNS = [
    (r"(?P<year>\d{4})-(?P<month>\d\d)(?:-(\d\d))?", 0),
    (r"[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]", 0),  # (PyYAML's)
    (r"straße|ǅ|ﬀ", 2),  # re.IGNORECASE: case folding beyond ASCII
    (r"""(?x) \b (\w+) \s+ \1 \b  # a word twice""", 0),
    (r"(?<=<)(b|i|span)(?=[ >])|&[^\t\n\f <&;]", 8),  # re.MULTILINE
    (rb"%PDF-(\d)\.(\d)[\r\n]", 0),
    ("(?s).*?ruby", 256),  # re.ASCII
    ("", 0),
]


def test_a_kept_program_is_the_program_re_compiles():
    """Patterns compare equal when their flags and code are the same (``_sre``'s own ==)."""
    import re

    from kkprint.base import compiled

    if not compiled._REPLACEABLE:
        print("skipped: this Python's re is not the one kkprint keeps programs for")
        return

    def program(pattern, flags):
        return compiled._program(re._parser.parse(pattern, flags), flags)

    for pattern, flags in PATTERNS:
        theirs = compiled._OWN_COMPILE(pattern, flags)
        ours = compiled._matcher(pattern, program(pattern, flags))
        assert ours == theirs and ours.groupindex == theirs.groupindex and ours.groups == theirs.groups, pattern
    # and as re itself calls it
    kind = compiled._KeptCode("regex", compiled._is_program)
    original = compiled.PATTERNS
    compiled.PATTERNS = kind
    try:
        for pattern, flags in PATTERNS:
            for _ in range(2):  # (the second from what was kept)
                assert compiled._compile_pattern(pattern, flags) == compiled._OWN_COMPILE(pattern, flags)
        assert len(kind.known) == len(PATTERNS)
        try:
            compiled._compile_pattern("(unclosed", 0)
        except re.error as error:
            assert "missing )" in str(error)
        else:
            raise AssertionError("a broken pattern is re's error, as before")
        # a damaged program: compiled again, and kept again
        kind.known[(r"\d+", 0)] = (0, b"\xff\xff\xff\xff", 0, {}, (None,))
        assert compiled._compile_pattern(r"\d+", 0).fullmatch("2026")
        assert kind.known[(r"\d+", 0)] == program(r"\d+", 0)
    finally:
        compiled.PATTERNS = original


REGEX_RUN = """
import random, re, sys
from pathlib import Path
from kkprint.base import compiled
compiled.keep_compiled_code(Path(sys.argv[1]))
for pattern in ("(?P<a>x+)y", "[0-9a-f]{{4}}", "^kkprint (\\w+)$"):
    assert re.compile(pattern).pattern == pattern
re.compile("|".join(random.sample(["alpha", "beta", "gamma", "delta", "epsilon"], 5)) + "|w%d{extra}" % random.getrandbits(64))  # new every time (one of 120 orders alone met an earlier run's 1 time in 60)
print(len(compiled.PATTERNS.known), len(compiled.PATTERNS.added))
"""


def test_a_pattern_is_kept_the_second_time_and_one_new_every_time_writes_nothing(tmp_path):
    """The first process notes its patterns, the second keeps them, the third compiles none of
    them. A process whose only new pattern is one it alone makes (ReportLab joins a set of names,
    in each process's hash order) leaves the file as it is."""
    from kkprint.base import compiled

    if not compiled._REPLACEABLE:
        print("skipped: this Python's re is not the one kkprint keeps programs for")
        return
    cache = tmp_path / "cache"

    def run(extra: str = "") -> tuple[int, int]:
        done = subprocess.run(
            [sys.executable, "-c", REGEX_RUN.format(extra=extra), str(cache)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": "random"},
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        known, added = map(int, done.stdout.split())
        return known, added

    first = run()
    [kept] = cache.glob("regex-programs-*.marshal")  # (the notes of a first run: more than one new pattern)
    assert first[1] == 0
    second = run()
    assert second[1] >= 3  # the three, compiled a second time: kept
    written = kept.stat().st_mtime_ns, kept.read_bytes()
    third = run()
    assert third[0] >= 3 and third[1] == 0
    assert (kept.stat().st_mtime_ns, kept.read_bytes()) == written  # (nothing new worth writing)
    run("|zeta")  # (one pattern more, once: noted in memory only)
    assert kept.read_bytes() == written[1]


def test_the_parser_s_warnings_name_the_module_that_compiles_the_pattern(tmp_path, monkeypatch):
    """re's parser warns with a stack level that counts re's own calls: the pattern compiler
    calls it as deep, so a warning filter for a module still applies to it."""
    import re
    import warnings

    from kkprint.base import compiled

    if not compiled._REPLACEABLE:
        print("skipped: this Python's re is not the one kkprint keeps programs for")
        return
    monkeypatch.setattr(compiled, "PATTERNS", compiled._KeptCode("regex", compiled._is_program))
    monkeypatch.setattr(re._compiler, "compile", compiled._compile_pattern)
    module = tmp_path / "nested_set_module.py"
    module.write_text("import re\ndef make():\n    return re.compile('[[a]' + 'b')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import nested_set_module

    re.purge()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        nested_set_module.make()
    assert [w.filename for w in caught if issubclass(w.category, FutureWarning)] == [str(module)]


def test_the_same_new_pattern_twice_in_one_process_is_one_note(tmp_path):
    from kkprint.base import compiled

    kind = compiled._KeptCode("regex", compiled._is_program, second_sighting=True)
    kind.path = tmp_path / "regex.marshal"
    for _ in range(3):
        kind.compiled(("new every time", 0), (0, b"", 0, {}, ()))
    assert len(kind.noting) == 1 and not kind.added
    kind.keep()
    assert not kind.path.exists()  # (one new pattern: nothing worth writing)
