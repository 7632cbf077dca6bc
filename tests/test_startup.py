"""What the process's entry (kkprint/__main__.py) assumes of the libraries it starts."""

import ast
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader


def test_pydantic_asks_its_plugin_loader_for_nothing_but_the_stand_in_gives():
    """The entry puts a stand-in for ``pydantic.plugin._loader`` in ``sys.modules`` (the real one
    imports importlib.metadata and the email package to look for plugins). Should a pydantic
    release import anything else from it, every command would fail at start-up: this fails first."""
    spec = importlib.util.find_spec("pydantic.plugin")
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations)))
    asked = set()
    for source in folder.parent.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("_loader"):
                if source.parent == folder or (node.module or "").startswith("pydantic.plugin"):
                    asked |= {alias.name for alias in node.names}
    assert asked == {"get_plugins"}


def test_a_command_runs_with_the_stand_in_and_loads_no_metadata():
    """The stand-in is in place in a real process, models still validate through it, and the
    module it spares is not loaded."""
    probe = (
        "import sys; sys.argv = ['kkprint', 'scorer', 'court', 'examples/court-final.yaml', '--json'];"
        "from kkprint.__main__ import run\ncode = 0\n"
        "try:\n    run()\nexcept SystemExit as end:\n    code = end.code\n"
        "print('\\nMETA', 'importlib.metadata' in sys.modules, code)"
    )
    done = in_fresh_python(probe)
    assert done.stdout.strip().splitlines()[-1] == "META False 0", done.stdout + done.stderr
    answer = json.loads(done.stdout.rsplit("META", 1)[0])
    assert answer["game"] == "court" and [player["name"] for player in answer["players"]][0] == "Dieter"


def test_typers_parts_that_the_help_dresses_are_where_it_looks():
    """kkprint/cli/usage.py translates and lays out Typer's help by replacing a few of its
    functions (Typer carries its own copy of Click). pyproject.toml keeps Typer below its next
    minor release; should one move these, this says which before any help comes out wrong."""
    from typer import core as typer_core
    from typer._click import _compat, _textwrap, core, exceptions, formatting

    assert callable(core.Command.get_help_option) and callable(formatting.HelpFormatter.write_usage)
    assert callable(formatting.term_len) and callable(formatting.wrap_text) and callable(_compat.strip_ansi)
    assert isinstance(_textwrap.TextWrapper, type) and issubclass(exceptions.BadParameter, Exception)
    assert callable(typer_core._TyperParameter.display_type)
    assert callable(typer_core._TyperParameter.get_runtime_param)
    assert hasattr(typer_core, "_")


def test_building_one_game_loads_no_other_game_and_all_loads_every_one():
    """``build court`` imports court's module alone (the others were a sixth of its start-up);
    ``all`` and an unknown name still know every game."""
    probe = (
        "import sys\nfrom kkprint.cli.targets import resolve\nfrom kkprint.base.errors import InputError\n"
        "loaded = lambda: sorted(m.split('.')[2] for m in sys.modules if m.endswith('.components'))\n"
        "print([t.id for t in resolve(['Court'])], loaded())\n"
        "try:\n    resolve(['kardinl'])\nexcept InputError as err:\n    print(err.render('en'))\n"
        "print([t.id for t in resolve(['all', 'court'])], loaded())"
    )
    done = in_fresh_python(probe)
    one, unknown, every = done.stdout.strip().splitlines()
    assert one == "['court'] ['court']", done.stderr
    assert "did you mean 'kardinal'" in unknown
    games = ["kardinal", "webofpower", "webofpower-board", "court", "culdcept"]
    assert every == f"{games} {sorted(['court', 'culdcept', 'kardinal', 'webofpower'])}"


def test_a_record_compares_and_hashes_by_value_and_keeps_its_own_hash():
    """Records (kkprint.base.records) are frozen for mypy only: at run time they still are equal by
    value, hashable (dict keys, sets), ordered when asked, and shown by value (a repr is part of
    some cache keys)."""
    from dataclasses import FrozenInstanceError

    from kkprint.base.records import record

    @record(order=True)
    class Size:
        width: float
        height: float

    @record
    class Named:
        name: str

        def __hash__(self) -> int:
            return 7

    assert Size(1, 2) == Size(1, 2) and {Size(1, 2): "a"}[Size(1, 2)] == "a" and Size(1, 2) < Size(2, 0)
    assert (
        repr(Size(1, 2))
        == "test_a_record_compares_and_hashes_by_value_and_keeps_its_own_hash.<locals>.Size(width=1, height=2)"
    )

    @record
    class Compared:
        name: str

        def __eq__(self, other: object) -> bool:  # (its own ==, and a hash by its fields, as when frozen)
            return isinstance(other, Compared) and self.name.lower() == other.name.lower()

    assert hash(Named("x")) == 7 and Named("x") == Named("x")
    assert Compared("A") == Compared("a") and hash(Compared("a")) == hash(Compared("a"))
    size = Size(1, 2)
    try:
        size.width = 3  # type: ignore[misc]  # (what mypy refuses; at run time it is allowed, and cheap)
    except FrozenInstanceError:
        raise AssertionError("a record is frozen at run time: it pays for two more methods a class") from None


def test_a_records_methods_are_made_on_first_use_and_are_dataclasses_own():
    """Records and definitions have their fields as they are made, but their methods only when
    first looked up (on the class or an instance): then each is the very method dataclasses
    makes, defaults, factories, keyword-only fields, ``__post_init__`` and inherited fields
    included; copies (as pickle) and pydantic make instances without ``__init__``, and a class with no
    docstring is named by its name, which pydantic does not take for a description."""
    import copy
    import dataclasses

    from kkprint.base.definitions import Definition
    from kkprint.base.records import methods_on_first_use

    def both(body: dict, **options):
        """The same class made by dataclasses and by methods_on_first_use."""
        plain = dataclasses.dataclass(type("Card", (), dict(body)), **options)
        lazy = methods_on_first_use(type("Card", (), dict(body)), **options)
        return plain, lazy

    def post_init(self):
        self.seen = self.count * 2

    body = {
        "__annotations__": {"name": "str", "count": "int", "tags": "list"},
        "count": 3,
        "tags": dataclasses.field(default_factory=list),
        "__post_init__": post_init,
    }
    plain, lazy = both(body, order=True, unsafe_hash=True)
    assert [f.name for f in dataclasses.fields(lazy)] == ["name", "count", "tags"]
    assert all(type(lazy.__dict__[name]).__name__ == "_OnFirstUse" for name in ("__init__", "__eq__", "__lt__"))
    one, other = lazy("a"), lazy("a", 3, [])
    assert type(lazy.__dict__["__init__"]).__name__ == "function"  # made once, kept
    assert type(lazy.__dict__["__eq__"]).__name__ == "_OnFirstUse"  # (not asked for yet)
    assert (one.seen, one.tags, one == other, one < lazy("b"), repr(one)) == (
        6,
        [],
        True,
        True,
        repr(plain("a")),
    )
    assert one.tags is not other.tags and (one != lazy("a", 4)) and lazy("a", tags=[1]) > lazy("a")
    assert copy.deepcopy(one) == one and dataclasses.replace(one, count=5).seen == 10  # (as pickle: no __init__)
    with pytest.raises(TypeError):
        lazy()  # (name is required, as dataclasses says)

    from kkprint.base.records import mutable

    @mutable
    class Page:
        rows: list = dataclasses.field(default_factory=list)

    page = Page()
    page.rows.append(1)
    assert page == Page([1]) and Page.__hash__ is None and page.rows is not Page().rows  # (as dataclasses has it)

    class Layout(Definition):
        width: float = 63

    class Sheet(Layout):
        pages: int

    sheet = Sheet(pages=2)
    assert (sheet.width, sheet.pages) == (63, 2) and Sheet.__doc__ == "Sheet(...)"
    with pytest.raises(TypeError):
        Sheet(2)  # type: ignore[misc]  # (keyword-only, as a definition's fields are)
    from pydantic import TypeAdapter

    assert TypeAdapter(Sheet).validate_python({"pages": 4}).pages == 4
    assert "description" not in TypeAdapter(Sheet).json_schema()


def test_every_method_made_on_first_use_in_kkprint_can_be_made():
    """Every record, definition and working-state class of kkprint, each of its methods made at
    once: a class whose method dataclasses could not make fails here rather than on the first
    card that needs it. And what dataclasses refuses as a class is made is refused then too."""
    import importlib
    import pkgutil

    import kkprint
    from kkprint.base.records import _OnFirstUse, record

    made = 0
    for module in pkgutil.walk_packages(kkprint.__path__, "kkprint."):
        for value in list(vars(importlib.import_module(module.name)).values()):
            if isinstance(value, type) and value.__module__ == module.name:
                for name, method in list(vars(value).items()):
                    if isinstance(method, _OnFirstUse):
                        assert callable(getattr(value, name)) and not isinstance(vars(value)[name], _OnFirstUse)
                        made += 1
    assert made > 100

    with pytest.raises(TypeError, match="non-default argument 'height' follows default argument 'width'"):

        @record
        class Size:
            width: float = 1
            height: float  # type: ignore[misc]  # (what mypy refuses too)

    with pytest.raises(TypeError, match="__lt__"):

        @record(order=True)
        class Ranked:
            rank: int

            def __lt__(self, other: object) -> bool:
                return True


def in_fresh_python(probe: str) -> subprocess.CompletedProcess:
    """``probe`` run by a Python of its own from the project's folder: what a command loads is
    seen only in a process that has loaded nothing else."""
    root = Path(__file__).resolve().parent.parent
    return subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, timeout=120)


def test_a_build_with_its_defaults_and_plain_numbers_loads_no_pydantic(tmp_path):
    """Typer checks every option, its default included, through a pydantic adapter (~0.1 s);
    kkprint checks words, paths, choices and plain numbers itself. A game's build typed as a user
    types it (``--out`` left at its default, a gap and an offset given) imports no pydantic once
    the game's definition is kept, nor PyYAML, and writes where it should."""
    import os

    from conftest import imported

    env = {**os.environ, "KKPRINT_CACHE_DIR": str(tmp_path / "cache"), "KKPRINT_LANG": "en"}
    command = [sys.executable, "-X", "importtime", "-m", "kkprint", "build", "court", "--gap", "2.5"]
    command += ["--back-offset-x", "-0.5", "--players", "3", "--paper", "A4"]
    first, second = (subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True) for _ in "12")
    assert first.returncode == second.returncode == 0, second.stderr[-500:]
    assert "pydantic" not in imported(second) and "typer._adapters" not in imported(second)
    assert "PIL._imaging" not in imported(second)  # (no picture to draw: Pillow not loaded)
    # the game's files were read once, as YAML; the second build has them all from the cache
    assert "yaml" in imported(first) and "yaml" not in imported(second)
    assert sorted(path.name for path in (tmp_path / "output").iterdir()) == sorted(
        Path(line).name for line in second.stdout.splitlines()
    )


PLAIN_AND_NOT = [*"3 +3 -0 007 2.5 .5 5. -0.25 1e3 abc 31 -1 inf nan 3_0 ١٢".split(), " 3", ""]


def test_a_number_checked_without_pydantic_is_what_typers_own_check_makes_of_it():
    """For every option of ``build`` that takes a number (a range on ``--gap``), kkprint's own
    check answers as Typer's adapter does, value for value and error for error (what is not
    plainly a number in range is left to the adapter itself)."""
    import typer.main
    from typer import _coercion
    from typer._click import Context
    from typer._click.exceptions import BadParameter

    from kkprint.cli.app import app
    from kkprint.cli.usage import install

    install()
    build = typer.main.get_command(app).commands["build"]  # type: ignore[attr-defined]
    context = Context(build)

    def answer(runtime, param, value):
        try:
            made = runtime._coerce_value(value, param=param, ctx=context)
            return type(made).__name__, repr(made)
        except BadParameter as err:
            return "error", err.format_message()

    numbers = [param for param in build.params if param.type_descriptor.annotation in (int, float)]
    assert {param.name for param in numbers} == {"gap", "players", "offset_x", "offset_y"}
    for param in numbers:
        for value in [*PLAIN_AND_NOT, 3, 2.5]:
            param._runtime_param = None
            ours = answer(param.get_runtime_param(), param, value)
            typers = answer(_coercion.build_runtime_param(param.type_descriptor), param, value)
            assert ours == typers, (param.name, value)


def test_pillow_loaded_on_first_use_still_serves_reportlab_and_the_servers():
    """The entry makes Pillow's main module load on first use (ReportLab imports it whether or
    not a picture is drawn): ReportLab's own ``Image`` is that module, a picture read through
    ReportLab loads it and reads right, and a server loads it whole before its threads start."""
    probe = (
        "import sys, io\nfrom kkprint.__main__ import _pillow_when_used\n_pillow_when_used()\n"
        "from reportlab.lib import utils\nfrom PIL import Image\n"
        "print(utils.Image is Image is sys.modules['PIL.Image'], type(Image).__name__, 'PIL._imaging' in sys.modules)\n"
        "picture = io.BytesIO()\nImage.new('RGB', (3, 2), 'red').save(picture, 'PNG')\n"
        "print(utils.ImageReader(picture).getSize(), type(Image).__name__)"
    )
    done = in_fresh_python(probe)
    assert done.stdout.splitlines() == ["True _LazyModule False", "(3, 2) module"], done.stderr
    server = in_fresh_python(
        "import sys\nfrom kkprint.__main__ import _pillow_when_used, _pillow_now\n_pillow_when_used()\n"
        "print(type(sys.modules['PIL.Image']).__name__)\n_pillow_now()\nprint(type(sys.modules['PIL.Image']).__name__)"
    )
    assert server.stdout.split() == ["_LazyModule", "module"], server.stderr


def _ended(probe: str) -> subprocess.CompletedProcess:
    """``probe``, then ``kkprint.__main__.main()`` (the ``kkprint`` command), in a Python of its own."""
    return in_fresh_python(probe + "\nfrom kkprint.__main__ import main\nmain()\nprint('AFTER MAIN')")


def test_the_command_ends_its_process_with_its_code_its_output_and_its_exit_functions():
    """main() ends the process at once, without Python taking every module apart: what was
    printed arrives, what was registered with atexit runs, the exit code is the command's, and
    nothing after it runs (the process has ended)."""
    scored = _ended(
        "import atexit, sys\natexit.register(print, 'EXIT FUNCTION RAN')\n"
        "sys.argv = ['kkprint', 'scorer', 'court', 'examples/court-final.yaml', '--json']"
    )
    answer, ran = scored.stdout.rsplit("}", 1)
    assert scored.returncode == 0 and json.loads(answer + "}")["game"] == "court", scored.stderr
    assert ran.strip() == "EXIT FUNCTION RAN"  # (and not 'AFTER MAIN')
    refused = _ended("import sys\nsys.argv = ['kkprint', 'build', 'nosuchgame']")
    assert refused.returncode == 2 and "AFTER MAIN" not in refused.stdout
    assert refused.stderr.count("\n") == 1 and "nosuchgame" in refused.stderr, refused.stderr


def test_a_process_with_another_thread_or_a_message_to_print_ends_as_python_ends_it():
    """A thread still running is waited for (os._exit would cut it short), and an exit whose
    code is a message prints it and ends with 1, as Python's own end does."""
    waited = _ended(
        "import sys, threading, time\nsys.argv = ['kkprint', '--version']\n"
        "threading.Thread(target=lambda: (time.sleep(0.3), print('THREAD DONE', flush=True))).start()"
    )
    assert waited.returncode == 0 and waited.stdout.strip().endswith("THREAD DONE"), waited.stdout + waited.stderr
    told = _ended(
        "import kkprint.__main__ as entry\n"
        "def words():\n    raise SystemExit('kkprint: a message as the exit code')\n"
        "entry.run = words"
    )
    assert told.returncode == 1 and told.stderr.strip() == "kkprint: a message as the exit code", told.stderr


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "has no 'typer': install kkprint"), ("ja", "には「typer」がありません")]
)
def test_a_missing_library_is_one_line_in_the_users_language(lang, words):
    """kkprint run by a Python it was not installed into (no Typer there): exit 2 and one line
    naming the library, in the language typed, instead of Python's traceback."""
    missing = _ended(
        f"import sys\nsys.modules['typer'] = None\nsys.argv = ['kkprint', 'build', 'all', '--lang', '{lang}']"
    )
    assert missing.returncode == 2 and missing.stdout == "", missing.stderr
    assert missing.stderr.count("\n") == 1 and words in missing.stderr and "Traceback" not in missing.stderr
    assert ("error" in missing.stderr) == (lang == "en")  # (no word of the other language)


def test_a_workbook_read_again_unchanged_comes_from_the_cache_without_openpyxl(tmp_path):
    """A deck's .xlsx (its cards, and a lookup table on another sheet) is parsed by openpyxl
    once; a build that reads the same bytes again takes the rows from the cache folder. Changed
    bytes — even of the same size and time — are read again."""
    import os

    from conftest import imported
    from openpyxl import Workbook

    def workbook(price: int) -> None:
        book = Workbook()
        cards = book.active
        cards.title = "Cards"
        for row in (["name", "kind"], ["Axe", "tool"], ["Bow", "weapon"]):
            cards.append(row)
        prices = book.create_sheet("Prices")
        for row in (["kind", "price"], ["tool", price], ["weapon", 7]):
            prices.append(row)
        book.save(tmp_path / "cards.xlsx")

    (tmp_path / "d.yaml").write_text(
        "name: wb\ncard: {size: mini}\ndata: {file: cards.xlsx, sheet: Cards}\n"
        "tables: {prices: {file: cards.xlsx, sheet: Prices}}\n"
        "layout:\n  t: {type: text, x: 2, y: 2, w: 36, h: 10, text: \"${name} ${lookup('prices', kind, 'price')}\"}\n",
        encoding="utf-8",
    )
    env = {**os.environ, "KKPRINT_CACHE_DIR": str(tmp_path / "cache"), "KKPRINT_LANG": "en"}
    command = [sys.executable, "-X", "importtime", "-m", "kkprint", "build", "d.yaml", "--out", "out"]

    def build() -> tuple[set[str], str]:
        done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-500:]
        [pdf] = done.stdout.split()
        return imported(done), "".join(page.extract_text() for page in PdfReader(tmp_path / pdf).pages)

    workbook(3)
    first, text = build()
    assert "openpyxl" in first and "Axe 3" in text and "Bow 7" in text
    again, text = build()
    assert "openpyxl" not in again and "Axe 3" in text
    stat = (tmp_path / "cards.xlsx").stat()
    workbook(4)  # (a number of the same width: the file keeps its size, and its time is put back)
    os.utime(tmp_path / "cards.xlsx", ns=(stat.st_atime_ns, stat.st_mtime_ns))
    changed, text = build()
    assert "openpyxl" in changed and "Axe 4" in text


def test_regions_placed_from_data_are_checked_once_and_drawn_again_without_pydantic(tmp_path):
    """A region whose place or size comes from a card's data is checked by pydantic for each
    set of values; a build of the same deck again takes the checked regions from the cache
    folder. A new value is checked, and an impossible one is refused on every build."""
    import os

    import pdfplumber
    from conftest import imported

    (tmp_path / "d.yaml").write_text(
        "name: placed\ncard: {size: mini}\nprint: {backs: none}\ndata: cards.csv\n"
        "layout:\n  t: {type: text, x: '${at}', y: 5, w: 20, h: 10, text: '${name}', size: '${size}'}\n",
        encoding="utf-8",
    )
    env = {**os.environ, "KKPRINT_CACHE_DIR": str(tmp_path / "cache"), "KKPRINT_LANG": "en"}
    command = [sys.executable, "-X", "importtime", "-m", "kkprint", "build", "d.yaml", "--out", "out", "--print-shop"]

    def build(rows: str) -> tuple[subprocess.CompletedProcess, set[str]]:
        (tmp_path / "cards.csv").write_text("name,at,size\n" + rows, encoding="utf-8")
        done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
        return done, imported(done)

    def lefts(done: subprocess.CompletedProcess) -> list[float]:
        """Where each card's name starts, in mm from the first card's (a card a page)."""
        assert done.returncode == 0 and "kkprint: warning" not in done.stderr, done.stderr[-500:]
        [pdf] = done.stdout.split()
        with pdfplumber.open(tmp_path / pdf) as doc:
            starts = [page.chars[0]["x0"] / 72 * 25.4 for page in doc.pages]
        return [round(start - starts[0], 2) for start in starts]

    rows = "Axe,3,9\nBow,12,11\n"
    first, modules = build(rows)
    assert "pydantic" in modules and lefts(first) == [0, 9]
    again, modules = build(rows)
    assert "pydantic" not in modules and lefts(again) == [0, 9]
    moved, modules = build("Axe,3,9\nBow,15,11\n")
    assert "pydantic" in modules and lefts(moved) == [0, 12]
    for _ in range(2):  # (a refused region is not kept: the next build refuses it too)
        refused, _ = build("Axe,3,9\nBow,15,0\n")
        assert refused.returncode == 2 and "Traceback" not in refused.stderr
        assert "size" in refused.stderr and "Bow" in refused.stderr, refused.stderr
