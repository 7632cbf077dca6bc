"""Colours from definition files (``#rrggbb``) and the small arithmetic cards need."""

from __future__ import annotations

from reportlab.lib.colors import Color, HexColor


def colour(value: str) -> Color:
    return HexColor(value)


def lighten(value: str, amount: float) -> Color:
    """Mix with white: 0 keeps the colour, 1 is white. Light tints save ink on large areas."""
    base = HexColor(value)
    return Color(
        base.red + (1 - base.red) * amount, base.green + (1 - base.green) * amount, base.blue + (1 - base.blue) * amount
    )


def tint(value: str, amount: float) -> str:
    """``lighten`` as ``#rrggbb``, for places that take colours as text (deck fields)."""
    light = lighten(value, amount)
    return "#" + "".join(f"{round(part * 255):02x}" for part in (light.red, light.green, light.blue))


def is_light(value: str) -> bool:
    base = HexColor(value)
    return 0.299 * base.red + 0.587 * base.green + 0.114 * base.blue > 0.6
