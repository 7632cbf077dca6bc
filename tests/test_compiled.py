"""dataclasses' methods compiled once per installation (kkprint.base.compiled): the code kept is
the code Python's own ``exec`` compiles, a second process compiles nothing it has kept, and a
damaged file is only a slower run. Whole processes, each with its own cache folder."""

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
        f"compiled.keep_compiled_methods(Path({str(cache)!r}))\n"
        "known = set(compiled._known)\n"
        f"exec(compile({CLASSES!r}, 'classes', 'exec'))\n"
        "print(len(known), len(compiled._added), said)\n",
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
    assert any("Sized" in source or "width" in source for source in compiled._known)
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
        kept = marshal.loads(path.read_bytes())
        print(len(kept), sum("def __init__(" in source for source in kept))
        """
    )
    count, inits = map(int, _run(cache, probe).split())
    assert count >= 30 and inits >= 20


def test_what_another_process_kept_meanwhile_is_kept_too_and_a_full_file_keeps_what_was_used(tmp_path, monkeypatch):
    import marshal

    from kkprint.base import compiled

    path = tmp_path / "methods.marshal"
    code = compile("x = 1", "<string>", "exec", dont_inherit=True)
    path.write_bytes(marshal.dumps({"theirs": code}))  # (written by another process after this one began)
    monkeypatch.setattr(compiled, "_known", {"mine": code, "older": code})
    monkeypatch.setattr(compiled, "_added", ["mine"])
    monkeypatch.setattr(compiled, "_used", {"mine"})
    compiled._keep(path)
    assert set(compiled._read(path)) == {"theirs", "mine", "older"}

    monkeypatch.setattr(compiled, "MOST", 2)  # full: only what this process used stays
    compiled._keep(path)
    assert set(compiled._read(path)) == {"mine"}

    monkeypatch.setattr(compiled, "_added", [])  # nothing compiled: nothing written
    path.write_bytes(b"")
    compiled._keep(path)
    assert path.read_bytes() == b""


def test_a_file_that_is_not_one_this_module_wrote_is_read_as_none(tmp_path, monkeypatch):
    import marshal

    from kkprint.base import compiled

    path = tmp_path / "methods.marshal"
    code = compile("x = 1", "<string>", "exec", dont_inherit=True)
    for data in (b"", b"\x00garbage", marshal.dumps([1, 2]), marshal.dumps({1: code, "s": "not code"})):
        path.write_bytes(data)
        assert compiled._read(path) == {}
    monkeypatch.setattr(compiled, "LARGEST", 10)
    path.write_bytes(marshal.dumps({"s": code}))
    assert compiled._read(path) == {}  # (too large to be worth reading)
    assert compiled._read(tmp_path / "missing") == {}
