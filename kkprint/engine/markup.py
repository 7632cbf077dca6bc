"""Reading a text's markup: ``<b>``, ``<i>``, ``<span color size font>`` and ``<br>`` become runs
of text, each with its style key (family, bold, italic, scale, colour); ``<ruby>`` becomes the
``{base|reading}`` it is short for; unknown tags are errors."""

from __future__ import annotations

import math
from html.parser import HTMLParser

from kkprint.base.errors import InputError, suggest
from kkprint.base.i18n import Msg
from kkprint.engine.colours import hex_colour
from kkprint.engine.ruby import written
from kkprint.engine.typesetting import Typesetting, parse_font

_TAGS = ("b", "i", "span", "br", "ruby")
_RUBY_TAGS = ("rt", "rp")
_SPAN_ATTRIBUTES = ("color", "colour", "size", "font")


class Markup(HTMLParser):
    """Turns a text with tags into (text, style) segments; unknown tags are errors."""

    def __init__(self, setting: Typesetting, base_size: float):
        super().__init__(convert_charrefs=True)
        self.setting, self.base_size = setting, base_size
        base = (setting.family, setting.bold, setting.italic, 1.0, None)
        self.stack: list[tuple[str, tuple]] = [("", base)]
        self.segments: list[tuple[str, tuple]] = []
        self.ruby: _Ruby | None = None  # the <ruby> being read

    def handle_starttag(self, tag, attrs):
        if self.ruby is not None:
            self.ruby.start(tag)
            return
        family, bold, italic, scale, colour = self.stack[-1][1]
        if tag == "br":
            self.segments.append(("\n", self.stack[-1][1]))
            return
        if tag == "ruby":
            self.ruby = _Ruby()
            return
        if tag in _RUBY_TAGS:
            raise InputError(Msg("<{tag}> belongs inside <ruby>", tag=tag))
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
        if self.ruby is not None:
            if tag == "ruby":
                self.segments.append((self.ruby.text(), self.stack[-1][1]))
                self.ruby = None
            else:
                self.ruby.end(tag)
            return
        if tag == "br":
            return
        if len(self.stack) == 1:
            raise InputError(Msg("</{tag}> closes a tag that was never opened", tag=tag))
        if self.stack[-1][0] != tag:
            raise InputError(
                Msg(
                    "</{tag}> does not close an open tag (expected {expected})",
                    tag=tag,
                    expected=f"</{self.stack[-1][0]}>",
                )
            )
        self.stack.pop()

    def handle_data(self, data):
        if self.ruby is not None:
            self.ruby.data(data)
        else:
            self.segments.append((data, self.stack[-1][1]))

    def close(self):
        super().close()
        if self.ruby is not None:
            raise InputError(Msg("<{value}> is never closed", value="ruby"))
        if len(self.stack) > 1:
            raise InputError(Msg("<{value}> is never closed", value=self.stack[-1][0]))


class _Ruby:
    """One ``<ruby>`` as HTML writes it: bases each followed by its ``<rt>`` reading
    (``<ruby>漢<rt>かん</rt>字<rt>じ</rt></ruby>`` is per-character ruby); ``<rp>`` holds the
    brackets a reader without ruby would see, and is left out."""

    def __init__(self):
        self.written: list[str] = []
        self.base, self.reading = "", ""
        self.inside: str | None = None  # "rt" or "rp" while one is open

    def start(self, tag: str) -> None:
        if tag not in _RUBY_TAGS or self.inside is not None:
            raise InputError(Msg("<ruby> may hold only text, <rt> and <rp>, not <{tag}>", tag=tag))
        self.inside = tag

    def end(self, tag: str) -> None:
        if tag != self.inside:
            expected = f"</{self.inside}>" if self.inside else "</ruby>"
            raise InputError(
                Msg("</{tag}> does not close an open tag (expected {expected})", tag=tag, expected=expected)
            )
        if tag == "rt":
            self.written.append(written(self.base, self.reading))
            self.base, self.reading = "", ""
        self.inside = None

    def data(self, data: str) -> None:
        if self.inside == "rt":
            self.reading += data
        elif self.inside is None:
            self.base += data

    def text(self) -> str:
        if self.inside is not None:
            raise InputError(Msg("<{value}> is never closed", value=self.inside))
        if self.base.strip() or not self.written:  # a base without its reading
            self.written.append(written(self.base, self.reading))
        return "".join(self.written)


def _hex(value: str) -> str:
    colour = hex_colour(value if value.startswith("#") else "#" + value)
    if colour is None:
        raise InputError(Msg("colour '{value}' must look like #1a2b3c", value=value))
    return colour


def _scale(value: str, base_size: float) -> float:
    try:
        number = float(value[:-1]) / 100 if value.endswith("%") else float(value) / base_size
    except ValueError:
        raise InputError(Msg("size '{value}' must be points (9) or a percentage (120%)", value=value)) from None
    if not (math.isfinite(number) and 0.2 <= number <= 5):
        raise InputError(Msg("size '{value}' is out of range (20 % to 500 % of the region's size)", value=value))
    return number
