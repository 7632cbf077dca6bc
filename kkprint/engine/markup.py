"""Reading a text's markup: ``<b>``, ``<i>``, ``<span color size font>`` and ``<br>`` become runs
of text, each with its style key (family, bold, italic, scale, colour); unknown tags are errors."""

from __future__ import annotations

import math
from html.parser import HTMLParser

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Msg
from kkprint.engine.typesetting import Typesetting, parse_font

_TAGS = ("b", "i", "span", "br")
_SPAN_ATTRIBUTES = ("color", "colour", "size", "font")


class Markup(HTMLParser):
    """Turns a text with tags into (text, style) segments; unknown tags are errors."""

    def __init__(self, setting: Typesetting, base_size: float):
        super().__init__(convert_charrefs=True)
        self.setting, self.base_size = setting, base_size
        base = (setting.family, setting.bold, setting.italic, 1.0, None)
        self.stack: list[tuple[str, tuple]] = [("", base)]
        self.segments: list[tuple[str, tuple]] = []

    def handle_starttag(self, tag, attrs):
        family, bold, italic, scale, colour = self.stack[-1][1]
        if tag == "br":
            self.segments.append(("\n", self.stack[-1][1]))
            return
        if tag not in _TAGS:
            raise InputError(
                Msg("unknown markup <{tag}>{hint} (write &lt; for a literal <)", tag=tag, hint=suggest(tag, _TAGS))
            )
        if tag == "b":
            bold = True
        elif tag == "i":
            italic = True
        else:
            for name, value in attrs:
                if name not in _SPAN_ATTRIBUTES:
                    raise InputError(
                        Msg("<span> has no attribute '{name}'{hint}", name=name, hint=suggest(name, _SPAN_ATTRIBUTES))
                    )
                value = (value or "").strip()
                if name in ("color", "colour"):
                    colour = _hex(value)
                elif name == "size":
                    scale = _scale(value, self.base_size)
                else:
                    family, bold, italic = parse_font(value, family)
        self.stack.append((tag, (family, bold, italic, scale, colour)))

    def handle_startendtag(self, tag, attrs):
        if tag == "br":
            self.handle_starttag(tag, attrs)
        else:
            raise InputError(Msg("<{tag}/> is not a markup tag here; only <br/> stands alone", tag=tag))

    def handle_endtag(self, tag):
        if tag == "br":
            return
        if len(self.stack) == 1 or self.stack[-1][0] != tag:
            open_tag = self.stack[-1][0]
            expected = f"</{open_tag}>" if open_tag else "no closing tag"
            raise InputError(
                Msg("</{tag}> does not close an open tag (expected {expected})", tag=tag, expected=expected)
            )
        self.stack.pop()

    def handle_data(self, data):
        self.segments.append((data, self.stack[-1][1]))

    def close(self):
        super().close()
        if len(self.stack) > 1:
            raise InputError(Msg("<{value}> is never closed", value=self.stack[-1][0]))


def _hex(value: str) -> str:
    text = value.lstrip("#")
    if len(text) == 3 and all(c in "0123456789abcdefABCDEF" for c in text):
        text = "".join(c * 2 for c in text)
    if len(text) != 6 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise InputError(Msg("colour '{value}' must look like #1a2b3c", value=value))
    return "#" + text.lower()


def _scale(value: str, base_size: float) -> float:
    try:
        number = float(value[:-1]) / 100 if value.endswith("%") else float(value) / base_size
    except ValueError:
        raise InputError(Msg("size '{value}' must be points (9) or a percentage (120%)", value=value)) from None
    if not (math.isfinite(number) and 0.2 <= number <= 5):
        raise InputError(Msg("size '{value}' is out of range (20 % to 500 % of the region's size)", value=value))
    return number
