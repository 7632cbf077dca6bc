"""Named vector icons that can be drawn anywhere, including inside a line of text.

An icon draws itself into a square of side ``size`` whose bottom-left corner is the current
origin; text layout places that square on the baseline so icons scale with the font. Games and
user decks register their own icons by name (``arms:cross``, ``die:5``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from reportlab.pdfgen.canvas import Canvas

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg

IconDraw = Callable[[Canvas, float], None]

_ICONS: dict[str, IconDraw] = {}
_METRICS: dict[str, tuple[float | None, float]] = {}


def register_icon(name: str, draw: IconDraw, *, scale: float | None = None, dy: float = 0.0) -> None:
    """Register an icon; ``scale`` and ``dy`` are its own size and nudge (see :func:`icon_metrics`)."""
    _ICONS[name] = draw
    if scale is None and not dy:
        _METRICS.pop(name, None)
    else:
        _METRICS[name] = (scale, dy)


def icon_metrics(name: str) -> tuple[float | None, float]:
    """(scale, dy) an icon was registered with: its size as a multiple of the text's (inline) or
    of its box (an icon region), None for the usual; and how far it sits lower, in points."""
    return _METRICS.get(name, (None, 0.0))


def get_icon(name: str) -> IconDraw:
    if not has_icon(name):
        raise InputError(Msg("unknown icon {{{name}}}", name=name))
    return _ICONS[name]


def has_icon(name: str) -> bool:
    return name in _ICONS or (_load_providers() and name in _ICONS)


def icon_names() -> list[str]:
    """The built-in icons a user may name (deck icons are registered under private names)."""
    _load_providers()
    return [name for name in _ICONS if not name.startswith(PRIVATE)]


ICON_PROVIDERS = "kkprint.icons"  # the entry-point group of modules that register icons as they load
_providers_loaded: list[bool] = []


def _load_providers() -> bool:
    """Load, once, the modules that draw the other built-in icons (the games' arms, roads and
    marked dice, declared in pyproject.toml; another installed package may add its own): the
    engine knows no game, and a deck that names ``{arms:cross}`` loads no game unless it must.
    Whether any were loaded now (a lookup that missed is then worth trying again)."""
    if _providers_loaded:
        return False
    _providers_loaded.append(True)
    from importlib.metadata import entry_points

    for provider in sorted(entry_points(group=ICON_PROVIDERS), key=lambda point: point.name):
        provider.load()
    return True


PRIVATE = "deck~"  # prefix of icons registered for one deck file


FORM_UNIT = 100.0  # icons are stored once, at this size, and scaled where they are placed


def draw_icon(canvas: Canvas, name: str, x: float, y: float, size: float) -> None:
    """Draw icon ``name`` in a ``size`` square at (x, y); inside a document it is a shared form."""
    from kkprint.engine.document import document_of

    draw = get_icon(name)
    document = document_of(canvas)
    if document is None:
        canvas.saveState()
        canvas.translate(x, y)
        draw(canvas, size)
        canvas.restoreState()
        return
    form = document.use_form(f"icon:{name}", FORM_UNIT, FORM_UNIT, lambda c, w, h: draw(c, FORM_UNIT))
    document.draw_form(form, x, y, size / FORM_UNIT)


# --- dice faces: generic enough for any game --------------------------------------------------

PIP_LAYOUT = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.73), (0.73, 0.27)],
    3: [(0.27, 0.73), (0.5, 0.5), (0.73, 0.27)],
    4: [(0.27, 0.27), (0.27, 0.73), (0.73, 0.27), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.27, 0.73), (0.5, 0.5), (0.73, 0.27), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.27, 0.5), (0.27, 0.75), (0.73, 0.25), (0.73, 0.5), (0.73, 0.75)],
}


def die_body(c: Canvas, size: float) -> None:
    """The rounded square of a die, outlined; leaves the fill black for what goes on its face."""
    c.setLineWidth(max(0.4, size * 0.06))
    c.setStrokeGray(0)
    c.setFillGray(1)
    c.roundRect(size * 0.04, size * 0.04, size * 0.92, size * 0.92, size * 0.18, stroke=1, fill=1)
    c.setFillGray(0)


def die_face(value: int | None) -> IconDraw:
    """A die showing ``value`` pips; ``None`` draws a blank die (any value)."""

    def draw(c: Canvas, size: float) -> None:
        die_body(c, size)
        for px, py in PIP_LAYOUT.get(value or 0, []):
            c.circle(size * px, size * py, size * 0.085, stroke=0, fill=1)

    return draw


for _value in range(1, 7):
    register_icon(f"die:{_value}", die_face(_value))
register_icon("die:any", die_face(None))


def star_path(c: Canvas, cx: float, cy: float, outer: float, inner: float, points: int = 5):
    path = c.beginPath()
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi / 2 + i * math.pi / points
        px, py = cx + radius * math.cos(angle), cy + radius * math.sin(angle)
        if i == 0:
            path.moveTo(px, py)
        else:
            path.lineTo(px, py)
    path.close()
    return path
