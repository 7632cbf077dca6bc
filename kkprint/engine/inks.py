"""Which inks a PDF may use: every colour and every picture, whoever draws it, goes through here.

``rgb`` leaves everything as drawn (home printing). ``grey`` turns every colour and picture into
shades of grey — the ink-saving proof of any deck or game. ``cmyk`` writes every colour and
picture as CMYK for a print shop: through the shop's ICC profile when one is given (littleCMS,
via Pillow's ImageCms), by the plain formula otherwise.

It works on the canvas itself (:class:`InkCanvas`), so game code, deck regions, SVG art and
pictures are all covered without any of them knowing about inks.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import cast

from reportlab.lib.colors import CMYKColor, Color, toColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfdoc import PDF_SUPPORT_VERSION
from reportlab.pdfgen.canvas import Canvas

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.records import record


@record
class Inks:
    mode: str = "rgb"  # rgb | grey | cmyk
    icc: Path | None = None  # cmyk: the shop's output profile

    @property
    def plain(self) -> bool:
        return self.mode == "rgb"


def _luma(r: float, g: float, b: float) -> float:
    return 0.299 * r + 0.587 * g + 0.114 * b


def _plain_cmyk(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    k = 1 - max(r, g, b)
    if k >= 1:
        return 0.0, 0.0, 0.0, 1.0
    return (1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k


def check_profile(icc: Path) -> None:
    """Refuse, before anything is drawn, a profile that cannot convert colours: the caller says
    where it was named; found later, it would be blamed on the first card with a colour."""
    _transform(icc)


@lru_cache(maxsize=8)
def _transform(icc: Path):
    """sRGB → the shop's CMYK profile, as littleCMS builds it. Its errors ("cannot open profile
    file") are English and name no file: kkprint says what is wrong in its own words."""
    from PIL import ImageCms

    name = icc.name
    try:
        target = ImageCms.getOpenProfile(str(icc))
    except (OSError, ImageCms.PyCMSError):
        raise InputError(Msg("ICC profile '{name}' is damaged or is not an ICC profile", name=name)) from None
    if target.profile.xcolor_space.strip() != "CMYK":
        raise InputError(Msg("ICC profile '{name}' is not a CMYK output profile", name=name))
    try:
        return ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"), target, "RGB", "CMYK", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC
        )
    except (OSError, ImageCms.PyCMSError):
        raise InputError(
            Msg("ICC profile '{name}' cannot convert colours to CMYK (littleCMS refuses it)", name=name)
        ) from None


@lru_cache(maxsize=4096)
def _icc_cmyk(icc: Path, rgb: tuple[int, int, int]) -> tuple[float, float, float, float]:
    from PIL import Image, ImageCms

    image = ImageCms.applyTransform(Image.new("RGB", (1, 1), rgb), _transform(icc))
    assert image is not None  # None only when transforming in place
    c, m, y, k = cast(tuple[int, int, int, int], image.getpixel((0, 0)))  # a CMYK pixel: four bands
    return (round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4))


def convert_colour(inks: Inks, colour: Color) -> Color:
    """The colour as these inks print it (alpha kept)."""
    alpha = getattr(colour, "alpha", 1)
    if isinstance(colour, CMYKColor):
        if inks.mode == "cmyk":
            return colour
        r, g, b = colour.rgb()
    else:
        r, g, b = colour.red, colour.green, colour.blue
    if inks.mode == "grey":
        v = round(_luma(r, g, b), 4)
        return Color(v, v, v, alpha)
    if inks.icc is not None:
        c, m, y, k = _icc_cmyk(inks.icc, tuple(int(round(v * 255)) for v in (r, g, b)))
    else:
        c, m, y, k = _plain_cmyk(r, g, b)
    return CMYKColor(c, m, y, k, alpha=alpha)


def convert_picture(inks: Inks, image) -> ImageReader:
    """A picture (file name, ImageReader or PIL image) in these inks; transparency kept."""
    from PIL import Image, ImageCms

    if isinstance(image, ImageReader):
        picture = image._image if getattr(image, "_image", None) is not None else Image.open(image.fileName)
    elif isinstance(image, Image.Image):
        picture = image
    else:
        picture = Image.open(image)
    picture.load()
    alpha = (
        picture.getchannel("A")
        if "A" in picture.getbands()
        else (
            picture.convert("RGBA").getchannel("A") if picture.mode == "P" and "transparency" in picture.info else None
        )
    )
    rgb = picture.convert("RGB")
    if inks.mode == "grey":
        converted = rgb.convert("L")
    elif inks.icc is not None:
        converted = ImageCms.applyTransform(rgb, _transform(inks.icc))
    else:
        converted = rgb.convert("CMYK")
    return _WithAlpha(converted, alpha) if alpha is not None else ImageReader(converted)


class _WithAlpha(ImageReader):
    """A converted picture that keeps its transparency: ReportLab finds a soft mask only for RGBA
    pictures and forgets any other when it reads the pixels, so it is handed back every time."""

    def __init__(self, image, alpha):
        super().__init__(image)
        self._alpha = ImageReader(alpha)

    def getRGBData(self):
        data = super().getRGBData()
        self._dataA = self._alpha
        return data


_TRANSPARENCY = PDF_SUPPORT_VERSION["transparency"]


class BuildCanvas(Canvas):
    """ReportLab's canvas, as every kkprint PDF is drawn on it: without ReportLab's work for a
    transparency that stays as it is. Every colour set carries an alpha (1 for an opaque one), and
    ReportLab hands it through three calls to its graphics state, which finds nothing to change:
    ~1,800 times in a game's build, a hundredth of it. The same operators and PDF version."""

    def setFillAlpha(self, a):
        self._alpha("ca", a)

    def setStrokeAlpha(self, a):
        self._alpha("CA", a)

    def _alpha(self, key: str, value) -> None:
        if not (isinstance(value, float | int) and 0 <= value <= 1):
            raise ValueError(f"{'setFillAlpha' if key == 'ca' else 'setStrokeAlpha'} invalid value {value!r}")
        document = self._doc
        if document._pdfVersion < _TRANSPARENCY:  # (as ReportLab's: the PDF is 1.4 from the first colour)
            document.ensureMinPdfVersion("transparency")
        state = self._extgstate
        if value != state._d.get(key, 1):  # (opaque unless set: its own default)
            state.set(self, key, value)


class InkCanvas(BuildCanvas):
    """A canvas whose every colour and picture is converted to its :class:`Inks`."""

    def __init__(self, *args, inks: Inks, **kwargs):
        self._inks = inks
        self._pictures: dict = {}
        super().__init__(*args, **kwargs)

    def _ink(self, colour) -> Color:
        return convert_colour(self._inks, toColor(colour))

    def setFillColor(self, aColor, alpha=None):
        super().setFillColor(self._ink(aColor), alpha)

    def setStrokeColor(self, aColor, alpha=None):
        super().setStrokeColor(self._ink(aColor), alpha)

    def setFillColorRGB(self, r, g, b, alpha=None):
        super().setFillColor(self._ink(Color(r, g, b)), alpha)

    def setStrokeColorRGB(self, r, g, b, alpha=None):
        super().setStrokeColor(self._ink(Color(r, g, b)), alpha)

    def setFillColorCMYK(self, c, m, y, k, alpha=None):
        super().setFillColor(self._ink(CMYKColor(c, m, y, k)), alpha)

    def setStrokeColorCMYK(self, c, m, y, k, alpha=None):
        super().setStrokeColor(self._ink(CMYKColor(c, m, y, k)), alpha)

    def setFillGray(self, gray, alpha=None):
        if self._inks.mode == "cmyk":
            super().setFillColor(CMYKColor(0, 0, 0, 1 - gray), alpha)
        else:
            super().setFillGray(gray, alpha)

    def setStrokeGray(self, gray, alpha=None):
        if self._inks.mode == "cmyk":
            super().setStrokeColor(CMYKColor(0, 0, 0, 1 - gray), alpha)
        else:
            super().setStrokeGray(gray, alpha)

    def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True):
        super().linearGradient(x0, y0, x1, y1, [self._ink(c) for c in colors], positions, extend)

    def radialGradient(self, x, y, radius, colors, positions=None, extend=True):
        super().radialGradient(x, y, radius, [self._ink(c) for c in colors], positions, extend)

    def drawImage(self, image, x, y, width=None, height=None, mask=None, *args, **kwargs):
        key = image if isinstance(image, (str, Path)) else id(image)
        if key not in self._pictures:  # each picture converted once, and so stored once
            self._pictures[key] = (convert_picture(self._inks, image), image)  # keep the original alive
        return super().drawImage(self._pictures[key][0], x, y, width, height, mask, *args, **kwargs)
