"""A colour as a designer writes it: ``#1a2b3c`` or the short ``#c00`` (CSS's), as ``#rrggbb``."""

from __future__ import annotations

import re

_WRITTEN = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def hex_colour(value: str) -> str | None:
    """``#rrggbb`` in lower case, or None for what is no colour; ``#c00`` is ``#cc0000``."""
    found = _WRITTEN.fullmatch(value)
    if found is None:
        return None
    digits = found.group(1)
    return "#" + ("".join(c * 2 for c in digits) if len(digits) == 3 else digits).lower()
