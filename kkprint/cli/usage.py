"""The command line's own words in the user's language: Typer's usage errors and help headings,
and every command's and option's help text, all looked up in kkprint's one catalogue.

Typer asks ``gettext`` for some of its words; :func:`install` points that lookup at our catalogue
in the current language. Help texts are written in English beside the options in ``cli.py``;
:func:`translate_help` replaces them with the catalogue's words before Click shows them, and
``scripts/messages.py`` collects them from the command tree so none is left untranslated.
Help is laid out by the columns a terminal shows (a Japanese character takes two), and Japanese
is broken between phrases, as it has no spaces to break at.
"""

from __future__ import annotations

import difflib
import math
import re
import typing
from functools import partial

from kkprint.base.i18n import N_, OneOf, current, gettext_in, tr
from kkprint.base.phrases import japanese_phrases

# The words Typer itself asks gettext for (typer/core.py); its copy of Click has plain strings,
# handled below. Usage errors' own words are in USAGE_ERRORS.
TYPER_WORDS = (
    N_("Usage:"),
    N_("Options"),
    N_("Arguments"),
    N_("Commands"),
    N_("Show this message and exit."),
    N_("No such command {name!r}."),
    N_("Missing command."),
    N_("Did you mean {possibility}?"),
    N_("default: {default}"),
    N_("(dynamic)"),
    N_("required"),
    N_("env var: {var}"),
    N_("Aborted!"),
)


# Typer carries its own copy of Click whose messages are plain English strings, not gettext
# lookups: they are recognised by their shape and said again from the catalogue.
USAGE_ERRORS = (
    (
        r"No such option: (?P<name>\S+) \(Possible options: (?P<options>.+)\)",
        N_("No such option: {name} (did you mean one of: {options}?)"),
    ),
    (r"No such option: (?P<name>\S+)", N_("No such option: {name}")),
    (r"Missing argument '(?P<param_hint>.+)'\.", N_("Missing argument {param_hint}.")),
    (r"Missing option '(?P<param_hint>.+)'\.", N_("Missing option {param_hint}.")),
    (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", N_("Got unexpected extra arguments ({args})")),
    (r"Option '(?P<name>.+)' does not take a value\.", N_("Option {name!r} does not take a value.")),
    (r"Option '(?P<name>.+)' requires an argument\.", N_("Option {name!r} requires an argument.")),
    (r"Invalid value for '(?P<param_hint>.+?)': (?P<message>.*)", N_("Invalid value for {param_hint}: {message}")),
    (r"'(?P<value>.*)' is not one of (?P<choices>.*)\.", N_("'{value}' is not one of {choices}.{hint}")),
    (r"Input should be a valid integer.*", N_("not a whole number")),
    (r"Input should be a valid number.*", N_("not a number")),
    (r"Input should be greater than or equal to (?P<limit>\S+)", N_("at least {limit}")),
    (r"Input should be less than or equal to (?P<limit>\S+)", N_("at most {limit}")),
)


def usage_error(message: str, lang: str | None = None) -> str:
    """A usage error from Click or Typer in the user's language (as it is when its shape is
    unknown). Typer's own "Did you mean" is split off and said again too."""
    message = message.strip()
    hint = ""
    if ". Did you mean " in message and message.endswith("?"):
        message, possibility = message.rsplit(". Did you mean ", 1)
        hint = _did_you_mean(re.findall(r"'([^']*)'", possibility) or [possibility[:-1]], lang)
        message = message.rstrip("。.") + ("。" if (lang or current()) == "ja" else ".")
    for pattern, msgid in USAGE_ERRORS:
        found = re.fullmatch(pattern, message)
        if found:
            values = found.groupdict()
            if "message" in values:
                values["message"] = usage_error(values["message"], lang)
            if "choices" in values:  # 'a4', 'letter', 'a3': listed as the language lists, with a did-you-mean
                names = [name.strip().strip("'") for name in values["choices"].split(",")]
                close = difflib.get_close_matches(values["value"].lower(), names, n=1, cutoff=0.6)
                values["choices"] = OneOf(names)
                values["hint"] = _did_you_mean(close, lang) if close else ""
            return tr(msgid, lang, **values) + hint
    return message + hint


def _did_you_mean(names: list[str], lang: str | None) -> str:
    """The hint that follows a sentence: after a space in English, straight after 。 in Japanese,
    each name in the language's own quotes (Typer's several come as 'scorer', 'serve', 'court')."""
    said = (
        tr(N_("Did you mean '{name}'?"), lang, name=names[0])
        if len(names) == 1
        else tr(N_("Did you mean {names}?"), lang, names=OneOf(names))
    )
    return ("" if (lang or current()) == "ja" else " ") + said


def missing_argument(err) -> str | None:
    """A missing argument said by what it is (its help, in the user's language: "the dice
    result, e.g. 6 6 6 2 5"), not by its name in the code (``dice``); None for other errors."""
    param = getattr(err, "param", None)
    if type(err).__name__ != "MissingParameter" or param is None or param.param_type_name != "argument":
        return None
    if not getattr(param, "help", None):
        return None
    return tr("Missing argument: {what}", what=param.help.rstrip("。. "))


def missing_command(err) -> str | None:
    """A group named without its command (``kkprint``, ``kkprint scorer``, ``kkprint new``): one
    line saying a command is missing, and which (when a line can list them), where Click
    printed the group's whole help; None for other errors."""
    context = getattr(err, "ctx", None)
    list_commands = getattr(getattr(context, "command", None), "list_commands", None)
    if list_commands is None:  # (not a group)
        return None
    if type(err).__name__ != "NoArgsIsHelpError" and err.format_message() != _gettext("Missing command."):
        return None
    names = list_commands(context)
    if not names or len(names) > MAX_LISTED_COMMANDS:
        return tr("a command is missing")
    if len(names) == 1:
        return tr("a command is missing; give {name}", name=OneOf(names))
    return tr("a command is missing; give one of {names}", names=OneOf(names))


MAX_LISTED_COMMANDS = 8  # (kkprint itself has 16: its --help lists them)


def _gettext(message: str) -> str:  # (named as the gettext it stands in for)
    return gettext_in(current(), message)


def install() -> None:
    """Typer's words through our catalogue, in the current language."""
    import typer.core

    typer.core._ = _gettext
    _install_vendored()
    _lighter_coercion()


def _help_fields(command):
    """(owner, attribute) of every help text in a Click command tree."""
    for attribute in ("help", "short_help", "epilog"):
        if getattr(command, attribute, None):
            yield command, attribute
    for param in command.params:
        if getattr(param, "help", None):
            yield param, "help"
    for sub in getattr(command, "commands", {}).values():
        yield from _help_fields(sub)


def help_texts(command) -> list[str]:
    """Every help text in a Click command tree, for the catalogue."""
    return [getattr(owner, attribute) for owner, attribute in _help_fields(command)]


# What Click writes for the options and subcommands in a usage line.
OPTIONS_METAVAR, SUBCOMMAND_METAVAR = N_("[OPTIONS]"), N_("COMMAND [ARGS]...")

# The kinds of value Typer names in help (``--gap <float range>``), said as a person says them.
VALUE_KINDS = {
    "int": N_("whole number"),
    "int range": N_("whole number"),
    "float": N_("number"),
    "float range": N_("number"),
    "str": N_("text"),
    "path": N_("path"),
    "file": N_("file"),
    "directory": N_("folder"),
}


def translate_help(command) -> None:
    """Replace the command tree's help texts (and its usage lines' words) with their words in
    the current language."""
    for owner, attribute in _help_fields(command):
        setattr(owner, attribute, _gettext(getattr(owner, attribute)))
    _translate_metavars(command)


# What a usage line calls each command's arguments (Typer wrote them as {deck} and [target]).
ARGUMENT_NAMES = {
    "target": N_("TARGET"),
    "deck": N_("DECK"),
    "tally": N_("TALLY"),
    "state": N_("STATE"),
    "results": N_("RESULTS"),
    "name": N_("NAME"),
    "game": N_("GAME"),
    "dice": N_("DICE"),
    "on_square": N_("SQUARE_CARD"),
    "offered": N_("OFFERED_CARD"),
    "key": N_("KEY"),
    "value": N_("VALUE"),
}


def _translate_metavars(command) -> None:
    for param in getattr(command, "params", ()):
        if param.param_type_name == "argument" and param.name in ARGUMENT_NAMES:
            param.metavar = _gettext(ARGUMENT_NAMES[param.name])
    if getattr(command, "options_metavar", None) == "[OPTIONS]":
        command.options_metavar = _gettext(OPTIONS_METAVAR)
    if getattr(command, "subcommand_metavar", None) == "COMMAND [ARGS]...":
        command.subcommand_metavar = _gettext(SUBCOMMAND_METAVAR)
    for sub in getattr(command, "commands", {}).values():
        _translate_metavars(sub)


def _value_kind(shown: str) -> str:
    """``<float range>`` → ``<数値>``; choices (``<a4|letter>``) and anything unknown as they are."""
    found = re.fullmatch(r"<(?:list\[)?([\w ]+?)\]?>", shown)
    if found is None or found.group(1) not in VALUE_KINDS:
        return shown
    return f"<{_gettext(VALUE_KINDS[found.group(1)])}>"


def _install_vendored() -> None:
    """Typer's own copy of Click prints "Usage: " and the help option's text as plain strings."""
    from typer import core as typer_core
    from typer._click import core, formatting

    if getattr(core.Command.get_help_option, "translated", False):
        return
    plain_help_option, plain_usage = core.Command.get_help_option, formatting.HelpFormatter.write_usage

    def get_help_option(self, ctx):
        option = plain_help_option(self, ctx)
        if option is not None:
            option.help = _gettext("Show this message and exit.")
        return option

    def write_usage(self, prog, args="", prefix=None):
        return plain_usage(self, prog, args, _gettext("Usage:") + " " if prefix is None else prefix)

    plain_display_type = typer_core._TyperParameter.display_type

    def display_type(self, ctx):
        return _value_kind(plain_display_type(self, ctx))

    formatting.term_len = display_width  # type: ignore[assignment]  # (Click counts <パス> as 4 columns, a terminal 6)
    plain_wrap_text = formatting.wrap_text

    def wrap_text(*args, **kwargs):  # (the wrapper is made when help is first laid out, not at start-up)
        from typer._click import _textwrap

        if not getattr(_textwrap.TextWrapper, "for_japanese", False):
            _textwrap.TextWrapper = _wrapper_for_japanese(_textwrap.TextWrapper)  # type: ignore[misc,assignment]
        return plain_wrap_text(*args, **kwargs)

    formatting.wrap_text = wrap_text  # (patching Typer's Click on purpose)
    get_help_option.translated = True  # type: ignore[attr-defined]  # a mark on our patch: installed once
    core.Command.get_help_option = get_help_option  # type: ignore[method-assign]  # patching Typer's Click on purpose
    formatting.HelpFormatter.write_usage = write_usage  # type: ignore[method-assign]  # the same
    typer_core._TyperParameter.display_type = display_type  # type: ignore[method-assign]  # the same


def display_width(text: str) -> int:
    """Columns ``text`` takes at a terminal: wide (Japanese) characters two, escapes none, so
    that help's second column lines up after ``--sheet <パス>`` as after ``--sheet <path>``."""
    import unicodedata

    from typer._click._compat import strip_ansi

    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in strip_ansi(text))


NO_LINE_STARTS = set("、。，．,.:;!?）」』】〉》")  # marks that close what is before them


def _wrapper_for_japanese(plain: type) -> type:
    """Click's TextWrapper, which breaks lines only at spaces and counts characters, taught to
    break Japanese between phrases (BudouX, as the engine does on paper) by the columns a
    terminal shows: Japanese help fits the terminal instead of running off its edge."""

    class Wrapper(plain):  # (the class Click has, found at run time)
        for_japanese = True

        def wrap(self, text: str) -> list[str]:
            if display_width(text) == len(text):  # nothing wide: Click's own wrapping
                return super().wrap(text)
            phrases: list[str] = []
            for phrase in japanese_phrases(" ".join(text.split())):
                if phrases and phrase.lstrip()[:1] in NO_LINE_STARTS:  # 、。）: never first on a line
                    phrases[-1] += phrase
                else:
                    phrases.append(phrase)
            lines, line = [], self.initial_indent
            for phrase in phrases:
                if line.strip() and display_width(line + phrase.rstrip()) > self.width:
                    lines.append(line.rstrip())
                    line = self.subsequent_indent + phrase.lstrip()
                else:
                    line += phrase
            return [*lines, line.rstrip()]

    return Wrapper


def _lighter_coercion() -> None:
    """Typer 0.29 checks every parameter through a pydantic TypeAdapter, built for every parameter
    of the command being run, given or not, and for a default as for a typed value: importing
    pydantic and building one adapter is ~0.1 s, a quarter of a small build. Words, paths, choices
    and plain numbers (given or default) are checked here by Typer's own functions and by Python;
    anything else (a number written as ``1e3``, a value out of range, an unusual type) still goes
    through Typer's adapter, built when such a value first arrives, so its errors keep their words."""
    from dataclasses import dataclass

    from typer import _coercion, core

    if getattr(core._TyperParameter.get_runtime_param, "lighter", False):
        return

    @dataclass(frozen=True)
    class Lighter(_coercion.RuntimeParam):
        descriptor: _coercion.TypeDescriptor

        def _coerce_value(self, value, param, ctx):
            many = typing.get_origin(self.annotation) is list
            items = (list(value) if isinstance(value, (list, tuple)) else [value]) if many else [value]
            check = _plain_check(typing.get_args(self.annotation)[0] if many else self.annotation, self.parameter_info)
            checked = [check(item, param, ctx) for item in items] if check is not None else [NOT_PLAIN]
            if any(item is NOT_PLAIN for item in checked):
                param._runtime_param = _coercion.build_runtime_param(self.descriptor)
                return param._runtime_param._coerce_value(value, param=param, ctx=ctx)
            return checked if many else checked[0]

    def get_runtime_param(self):
        if self._runtime_param is None:
            descriptor = self.type_descriptor
            self._runtime_param = Lighter(descriptor.parameter_info, descriptor.annotation, descriptor)
        return self._runtime_param

    get_runtime_param.lighter = True  # type: ignore[attr-defined]  # a mark on our patch: installed once
    core._TyperParameter.get_runtime_param = get_runtime_param  # type: ignore[method-assign]  # patching on purpose


NOT_PLAIN = object()  # a value for Typer's own adapter to judge (and to word the error about)

PLAIN_NUMBERS = {
    int: re.compile(r"[+-]?[0-9]{1,30}"),
    float: re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})"),
}


def _plain_check(annotation, info):
    """Typer's own check of a word, a path, a choice or a plain number (typed on the command line
    or a default), as ``check(value, param, ctx)`` giving the value or NOT_PLAIN; None for any
    other kind of parameter."""
    from pathlib import Path, PurePath

    from typer._click.exceptions import BadParameter
    from typer._param_types import choice_coercion_annotation, coerce_cli_choice, coerce_cli_path

    if info.parser is not None:
        return None
    if annotation is str:
        return lambda value, param, ctx: value if isinstance(value, str) else NOT_PLAIN
    choices = choice_coercion_annotation(annotation, info)
    if choices is not None:

        def choice(value, param, ctx):
            if not isinstance(value, str):
                return NOT_PLAIN
            try:
                return coerce_cli_choice(value, choices=choices[0], case_sensitive=choices[1], ctx=ctx)
            except ValueError as err:
                raise BadParameter(str(err), ctx=ctx, param=param) from None

        return choice
    if annotation is Path and info.path_type is None:

        def path(value, param, ctx):
            if not isinstance(value, (str, PurePath)):
                return NOT_PLAIN
            return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)

        return path
    if annotation in PLAIN_NUMBERS and not info.clamp:
        return partial(_plain_number, annotation, info)
    return None


def _plain_number(kind, info, value, param, ctx):
    """``--gap 2.5`` or a default of 300 as a number, if it plainly is one and is in range."""
    if isinstance(value, str) and PLAIN_NUMBERS[kind].fullmatch(value):
        value = kind(value)
    if type(value) is not kind or (kind is float and not math.isfinite(value)):
        return NOT_PLAIN
    if (info.min is not None and value < info.min) or (info.max is not None and value > info.max):
        return NOT_PLAIN
    return value
