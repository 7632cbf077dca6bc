"""The command line's own words in the user's language: Click's usage errors and help headings,
and every command's and option's help text, all looked up in kkprint's one catalogue.

Click asks ``gettext`` for its words; :func:`install` points that lookup at our catalogue in the
current language. Help texts are written in English beside the options in ``cli.py``;
:func:`translate_help` replaces them with the catalogue's words before Click shows them, and
``scripts/messages.py`` collects them from the command tree so none is left untranslated.
"""

from __future__ import annotations

import re

from kkprint.i18n import N_, current, gettext_in, tr



# What Click says to a user (see click/core.py, exceptions.py, parser.py, types.py, formatting.py).
CLICK_WORDS = (
    N_("Usage:"), N_("Options"), N_("Arguments"), N_("Commands"), N_("Show this message and exit."),
    N_("No such command {name!r}."), N_("No such option: {name}"), N_("No such option {name!r}."),
    N_("Did you mean {possibility}?"), N_("(Did you mean one of: {possibilities}?)"),
    N_("Missing argument {param_hint}."), N_("Missing option {param_hint}."), N_("Missing parameter: {param_name}"),
    N_("Missing argument"), N_("Missing option"), N_("Missing parameter"), N_("Missing command."),
    N_("Invalid value for {param_hint}: {message}"), N_("Invalid value: {message}"),
    N_("Got unexpected extra argument ({args})"), N_("Got unexpected extra arguments ({args})"),
    N_("Option {name!r} requires an argument."), N_("Option {name!r} requires {nargs} arguments."),
    N_("Option {name!r} does not take a value."),
    N_("{value!r} is not {choice}."), N_("{value!r} is not one of {choices}."),
    N_("{value!r} is not a valid {number_type}."), N_("{value} is not in the range {range}."),
    N_("{value!r} is not a valid boolean. Recognized values: {states}"),
    N_("{name} {filename!r} does not exist."), N_("{name} {filename!r} is a directory."),
    N_("{name} {filename!r} is a file."), N_("{name} {filename!r} is not readable."),
    N_("Path"), N_("File"), N_("Directory"), N_("file"), N_("directory"), N_("path"),
    N_("integer"), N_("float"), N_("text"), N_("boolean"),
    N_("default: {default}"), N_("required"), N_("env var: {var}"), N_("Aborted!"),
    N_("Error: {message}"), N_("Try '{command} {option}' for help."),
)


# Typer carries its own copy of Click whose messages are plain English strings, not gettext
# lookups: they are recognised by their shape and said again from the catalogue.
USAGE_ERRORS = (
    (r"No such option: (?P<name>\S+) \(Possible options: (?P<options>.+)\)",
     N_("No such option: {name} (did you mean one of: {options}?)")),
    (r"No such option: (?P<name>\S+)", N_("No such option: {name}")),
    (r"Missing argument '(?P<param_hint>.+)'\.", N_("Missing argument {param_hint}.")),
    (r"Missing option '(?P<param_hint>.+)'\.", N_("Missing option {param_hint}.")),
    (r"Got unexpected extra argument\(s\) \((?P<args>.*)\)", N_("Got unexpected extra arguments ({args})")),
    (r"Option '(?P<name>.+)' does not take a value\.", N_("Option {name!r} does not take a value.")),
    (r"Option '(?P<name>.+)' requires an argument\.", N_("Option {name!r} requires an argument.")),
    (r"Invalid value for '(?P<param_hint>.+?)': (?P<message>.*)", N_("Invalid value for {param_hint}: {message}")),
    (r"'(?P<value>.*)' is not one of (?P<choices>.*)\.", N_("'{value}' is not one of {choices}.")),
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
        hint = " " + tr("Did you mean {possibility}?", lang, possibility=possibility[:-1])
        message = message.rstrip("。.") + ("。" if (lang or current()) == "ja" else ".")
    for pattern, msgid in USAGE_ERRORS:
        found = re.fullmatch(pattern, message)
        if found:
            values = found.groupdict()
            if "message" in values:
                values["message"] = usage_error(values["message"], lang)
            return tr(msgid, lang, **values) + hint
    return message + hint


def _gettext(msgid: str) -> str:
    return gettext_in(current(), msgid)


def _ngettext(singular: str, plural: str, count: int) -> str:
    return _gettext(singular if count == 1 else plural)


def install() -> None:
    """Click's and Typer's words through our catalogue, in the current language."""
    _install_vendored()
    import sys

    names = ("click.core", "click.decorators", "click.exceptions", "click.formatting", "click.parser", "click.types",
             "typer.core")
    for module in (sys.modules[name] for name in names if name in sys.modules):  # never imported just for this
        if hasattr(module, "_"):
            module._ = _gettext
        if hasattr(module, "ngettext"):
            module.ngettext = _ngettext


def help_texts(command) -> list[str]:
    """Every help text in a Click command tree, for the catalogue."""
    found = [text for text in (command.help, command.short_help, command.epilog) if text]
    for param in command.params:
        if getattr(param, "help", None):
            found.append(param.help)
    for sub in getattr(command, "commands", {}).values():
        found += help_texts(sub)
    return found


def translate_help(command) -> None:
    """Replace the command tree's help texts with their words in the current language."""
    for attribute in ("help", "short_help", "epilog"):
        text = getattr(command, attribute, None)
        if text:
            setattr(command, attribute, _gettext(text))
    for param in command.params:
        if getattr(param, "help", None):
            param.help = _gettext(param.help)
    for sub in getattr(command, "commands", {}).values():
        translate_help(sub)


def _install_vendored() -> None:
    """Typer's own copy of Click prints "Usage: " and the help option's text as plain strings."""
    try:
        from typer._click import core, formatting
    except ImportError:  # a Typer that uses Click itself: the gettext lookups cover it
        return
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

    get_help_option.translated = True
    core.Command.get_help_option, formatting.HelpFormatter.write_usage = get_help_option, write_usage
