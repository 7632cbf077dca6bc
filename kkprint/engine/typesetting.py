"""How a region's text is to be set, before any of it is measured: the faces a family has, the
families a deck brings, and the region's own face, icons and markup switch. Text and markup
both read it; neither is read by it."""

from __future__ import annotations

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Msg
from kkprint.base.records import record


@record
class Typeface:
    """One family's registered font names; a missing face is made from another (see :meth:`face`)."""

    regular: str
    bold: str | None = None
    italic: str | None = None
    bold_italic: str | None = None

    def face(self, bold: bool, italic: bool) -> tuple[str, bool]:
        """(font name, slant it?) — italic without an italic file is the upright face slanted."""
        if bold and italic:
            if self.bold_italic:
                return self.bold_italic, False
            return (self.bold, True) if self.bold else ((self.italic, False) if self.italic else (self.regular, True))
        if bold:
            return self.bold or self.regular, False
        if italic:
            return (self.italic, False) if self.italic else (self.regular, True)
        return self.regular, False


@record
class FontBook:
    """The families a text may name, and the bundled faces that draw what a family lacks."""

    fallback_regular: str
    fallback_bold: str
    families: tuple[tuple[str, Typeface], ...] = ()

    def family(self, name: str | None) -> Typeface:
        if not name:
            return Typeface(self.fallback_regular, self.fallback_bold)
        for known, face in self.families:
            if known == name:
                return face
        raise InputError(
            Msg("unknown font family '{name}'{hint}", name=name, hint=suggest(name, [n for n, _ in self.families]))
        )


@record
class Typesetting:
    """How a region's text is read: its faces, its own icon names, whether markup applies, and
    whether it is set in vertical columns.

    ``bold``/``italic``/``family`` are the region's base face; markup changes them run by run.
    """

    book: FontBook | None = None
    family: str | None = None
    bold: bool = False
    italic: bool = False
    markup: bool = False
    icons: tuple[tuple[str, str], ...] = ()  # name in the text -> registered icon name
    vertical: bool = False  # 縦書き: columns from right to left (kkprint.engine.vertical draws them)


PLAIN = Typesetting()


def parse_font(value: str, family: str | None = None) -> tuple[str | None, bool, bool]:
    """``regular``, ``bold``, ``italic``, ``bold-italic``, ``FAMILY`` or ``FAMILY/FACE``."""
    name, _, face = value.strip().partition("/")
    if not face and name in ("regular", "bold", "italic", "bold-italic"):
        name, face = "", name
    face = face or "regular"
    if face not in ("regular", "bold", "italic", "bold-italic"):
        raise InputError(
            Msg(
                "unknown face '{face}'{hint}",
                face=face,
                hint=suggest(face, ["regular", "bold", "italic", "bold-italic"]),
            )
        )
    return (name or None), "bold" in face, "italic" in face
