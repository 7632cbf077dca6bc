"""The saved printer profile: how far this printer shifts the back side, measured once with
``kkprint calibrate`` and applied to every build's backs."""

from __future__ import annotations

import math
from pathlib import Path

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.outputs import atomic_file
from kkprint.base.paths import config_path
from kkprint.base.records import record
from kkprint.base.yamlio import load_yaml_file


@record
class PrinterProfile:
    offset_mm: tuple[float, float] = (0.0, 0.0)
    scale: float = 1.0


def profile_path() -> Path:
    """Beside the config file, in the user's config folder."""
    return config_path().parent / "printer.yaml"


def load_profile() -> PrinterProfile:
    path = profile_path()
    if not path.exists():
        return PrinterProfile()
    data = load_yaml_file(path)
    try:
        x, y = (float(v) for v in data.get("offset_mm", (0, 0)))
        scale = float(data.get("scale", 1.0))
    except (TypeError, ValueError, AttributeError):
        raise InputError(Msg("expected offset_mm: [x, y] and optional scale"), source=str(path)) from None
    if not (math.isfinite(x) and math.isfinite(y) and abs(x) <= 20 and abs(y) <= 20 and 0.8 < scale < 1.2):
        raise InputError(Msg("offset beyond ±20 mm or scale outside 0.8–1.2"), source=str(path))
    return PrinterProfile((x, y), scale)


def save_profile(profile: PrinterProfile) -> Path:
    path = profile_path()
    import yaml  # (only a command that writes the file needs PyYAML: see yamlio._line_loader)

    with atomic_file(path) as temp:
        Path(temp).write_text(
            yaml.safe_dump({"offset_mm": list(profile.offset_mm), "scale": profile.scale}), encoding="utf-8"
        )
    return path
