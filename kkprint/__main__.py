"""The ``kkprint`` command and ``python -m kkprint``: one process, one command.

What only a whole process may decide lives here. Importing the CLI loads Typer, pydantic and
ReportLab, tens of thousands of objects and none of them garbage, and a command then makes many
more and frees few until it ends: the cycle collector's passes find nothing, so it is off from
the first line (``serve`` and ``watch``, which run for hours, turn it back on). When the command
ends, so does the process, and the interpreter's last collection would walk every object once
more only to find it alive: they are frozen out of its sight. Measured on a 1,000-card deck: a
fifth of the whole command's CPU time. Pydantic plugins (tracing hooks found by scanning every
installed package's entry points) have no place in checking a user's file."""

import atexit
import gc
import os
import sys
import threading

# This module is where both doors meet: the command line (kkprint.cli) starts the web pages
# (kkprint.web) through the functions below, and neither imports the other.


def _score_pad(*, port: int, lan: bool, lang: str) -> None:
    _pillow_now()
    from kkprint.web.pad.serve import serve

    serve(port, lan, lang)


def _studio(*, deck, port: int, open_browser: bool, lang: str, allow_outside: bool) -> None:
    _pillow_now()
    from kkprint.web.studio.serve import serve

    serve(deck, port=port, open_browser=open_browser, lang=lang, allow_outside=allow_outside)


def _no_pydantic_plugins() -> None:
    """Pydantic looks for plugins whenever it builds a validator, in a module whose import
    alone loads ``importlib.metadata`` and the email package (a seventh of a scorer's start-up,
    even with ``PYDANTIC_DISABLE_PLUGINS`` set): it finds a stand-in that says there are none."""
    import types

    stand_in = types.ModuleType("pydantic.plugin._loader")
    stand_in.get_plugins = tuple  # type: ignore[attr-defined]  # (no plugins: an empty tuple)
    sys.modules.setdefault(stand_in.__name__, stand_in)


def _pillow_when_used() -> None:
    """ReportLab imports Pillow as it loads (~70 M instructions, a fifteenth of a game's build)
    though only drawing a picture uses it, and kkprint's own uses import it where they draw:
    Pillow's main module loads on first use (the standard library's LazyLoader). It is set on its
    package too, so ReportLab's ``from PIL import Image`` takes it as it is, without asking the
    import system (which would look at it, and so load it)."""
    import importlib.util

    if "PIL.Image" in sys.modules or importlib.util.find_spec("PIL") is None:
        return  # (loaded already, or not installed: ReportLab says so as it loads)
    import PIL

    spec = importlib.util.find_spec("PIL.Image")
    if spec is None or spec.loader is None:
        return

    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules["PIL.Image"] = PIL.Image = module
    spec.loader.exec_module(module)


def _catalogues_kept() -> None:
    """gettext decodes a language's whole catalogue every time a process loads it, and a command
    in Japanese loads it before it reads its arguments (its help and errors are in Japanese):
    every catalogue comes from kkprint.base.definitions instead, which keeps gettext's parse in
    the cache folder beside the definitions."""
    from kkprint.base import i18n

    def kept(lang: str):
        from kkprint.base.definitions import kept_catalogue  # (loaded with the first catalogue: English has none)

        return kept_catalogue(lang)

    i18n.load_catalogues_with(kept)


def _code_compiled_once() -> None:
    """dataclasses compiles every method it makes (~0.5 M instructions each, ~40 in a game's
    build), and re every pattern a module makes as it loads (~90 in a build, ~115 M instructions
    in all): both are kept in the cache folder and compiled once per installation instead. First,
    so that the patterns of the modules loaded next are kept too."""
    try:
        from kkprint.base.compiled import keep_compiled_code
        from kkprint.base.paths import cache_folder

        folder = cache_folder()
    except ImportError:  # (a dependency missing: a speed-up is not where the command should fail)
        return
    keep_compiled_code(folder)


def _pillow_now() -> None:
    """A server loads Pillow whole before its threads start: two threads first using a module
    that loads on first use could both load it (Python 3.11's LazyLoader has no lock)."""
    import PIL.Image  # noqa: F401  # (importing it by name loads it)


def _missing_library(name: str) -> None:
    """A library kkprint needs is not in the Python running it (one it was not installed into):
    one line and exit code 2, in the language typed or the environment's (the config file is
    read by a library too), instead of Python's traceback."""
    from kkprint.base import i18n
    from kkprint.base.i18n import locale_name, tr, typed_language

    i18n.load_catalogues_with(i18n.parsed_catalogue)  # (the kept catalogues are in a library's folder)
    lang = typed_language(sys.argv[1:]) or os.environ.get("KKPRINT_LANG", "").strip().lower()
    if lang not in ("ja", "en"):
        lang = "ja" if locale_name().lower().startswith("ja") else "en"
    said = tr(
        "kkprint: error: {python} has no '{name}': install kkprint with what it needs (pip install -e .)",
        lang,
        python=sys.executable,
        name=name.partition(".")[0],
    )
    sys.stderr.write(said + "\n")
    sys.exit(2)


def run() -> None:
    """The command, as a caller that goes on afterwards runs it: it ends by raising SystemExit
    (or returns)."""
    gc.disable()
    _code_compiled_once()
    _no_pydantic_plugins()
    _pillow_when_used()
    _catalogues_kept()
    try:
        try:
            from kkprint.cli.app import main
            from kkprint.cli.serve import Servers
        except KeyboardInterrupt:  # Ctrl-C while the CLI loads: nothing begun, nothing to say
            sys.exit(130)
        except ModuleNotFoundError as missing:
            if (missing.name or "kkprint").partition(".")[0] == "kkprint":
                raise  # (a module of kkprint's own missing is a broken install: its traceback)
            _missing_library(missing.name or "?")
        main(Servers(score_pad=_score_pad, studio=_studio))
    finally:
        gc.freeze()


def main() -> None:
    """The ``kkprint`` command as a process of its own: :func:`run`, then the process ends at
    once, its exit functions run and its streams flushed. Python would otherwise take apart every
    module and free every object one by one, only for the memory to be handed back whole a moment
    later: 2 ms of every command (a fiftieth of a scorer). A process that still has another
    thread ends as Python ends it, which waits for that thread."""
    try:
        run()
    except SystemExit as end:
        code = end.code
    else:
        code = None
    if (code is not None and not isinstance(code, int)) or threading.active_count() > 1:
        raise SystemExit(code)  # (a message to print, or a thread to wait for: Python's own end)
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # (a reader gone, a stream closed: Python's own end says so, as before)
        raise SystemExit(code) from None
    os._exit(code or 0)


if __name__ == "__main__":
    main()
