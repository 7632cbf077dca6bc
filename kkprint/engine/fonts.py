"""Embedded, subset Japanese-capable fonts that come from pip, never from the system.

Noto Sans CJK JP ships on PyPI as OpenType/CFF, which ReportLab cannot embed. We subset it with
fontTools to the characters a build will print and convert the outlines to TrueType (cu2qu);
ReportLab then embeds and subsets that. The work is done once per character set per process,
so a whole build pays for it once.
"""

from __future__ import annotations

import hashlib
import io
import os
import zlib
from collections.abc import Callable, Iterable
from dataclasses import is_dataclass
from functools import cache, lru_cache, partial
from importlib.util import find_spec
from pathlib import Path
from typing import Any

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from kkprint.base.definitions import package_identity
from kkprint.base.errors import InputError, OsReason
from kkprint.base.i18n import Msg
from kkprint.base.outputs import keep_in_cache
from kkprint.base.records import field_values, record

FACES = {
    "regular": ("noto_cjk_sans_jp_regular", "NotoSansCJKjp-Regular.otf"),
    "bold": ("noto_cjk_sans_jp_bold", "NotoSansCJKjp-Bold.otf"),
}

CONVERTER_VERSION = 3  # bump when the conversion below changes its output

# Always available so labels, numbers and punctuation never depend on what the data happens to hold.
BASE_CHARACTERS = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "×−–—…·•°±‘’“”→←↑↓★☆○●◯□■△▲※"
    + "、。「」『』（）・ー〜：！？０１２３４５６７８９"
)
_IGNORED = {"\n", "\r", "\t"}


def _font_path(face: str) -> Path:
    """The face's file where pip installed its package (a folder: wheels are unpacked). Found
    without ``importlib.resources``, whose readers import zipfile: ~50 M instructions of every
    build's start-up, for a path."""
    package, filename = FACES[face]
    spec = find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"No module named {package!r}", name=package)
    return Path(next(iter(spec.submodule_search_locations))) / filename


def _to_truetype(font) -> None:
    """Replace the CFF outlines of ``font`` by quadratic TrueType outlines, in place."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    for table in ("CFF ", "VORG"):
        if table in font:
            del font[table]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name in order:
        advance, _ = hmtx.metrics[name]
        hmtx.metrics[name] = (advance, getattr(glyf[name], "xMin", 0))
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in (
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
    ):
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    font["head"].glyphDataFormat = 0
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    font.sfntVersion = "\x00\x01\x00\x00"


def _cache_dir() -> Path:
    """In the cache folder with everything else kept (``KKPRINT_CACHE_DIR`` moves it too)."""
    from kkprint.base.paths import cache_folder

    return cache_folder() / "fonts"


@cache
def _font_identity(face: str) -> str:
    """Which font file ``face`` is: its size and the time it was installed, so another version
    (or the same one installed again) is another key. Asking for the package's version loaded
    importlib.metadata and searched every installed package, a tenth of a small build."""
    try:
        found = os.stat(str(_font_path(face)))
    except OSError:
        return "unknown"
    return f"{found.st_size}:{found.st_mtime_ns}"


def _cache_key(face: str, characters: str) -> str:
    """Same font, same fontTools, same characters → same bytes; the key says all three."""
    material = f"{face}|{_font_identity(face)}|{package_identity('fontTools')}|{CONVERTER_VERSION}|{characters}"
    return hashlib.sha256(material.encode("utf-8")).hexdigest()[:32]


def _subsets(characters: str) -> dict[str, bytes]:
    """The TrueType subset of every face for ``characters``, from the on-disk cache when a build
    made it before.

    Converting CFF outlines costs most of a small build; the cache makes every build after the
    first skip it, and a first build converts the faces side by side on two cores. A cache
    that cannot be read or written is simply not used.
    """
    found: dict[str, bytes] = {}
    for face in FACES:
        cached = _read_cache(_cache_key(face, characters))
        if cached is not None:
            found[face] = cached
    missing = [face for face in FACES if face not in found]
    made: list[bytes] = []
    if len(missing) > 1 and hasattr(os, "fork"):
        from kkprint.base.workers import in_fork  # (only on a cache miss)

        try:
            with in_fork(lambda: [_make_subset(face, characters) for face in missing[1:]]) as theirs:
                made = [_make_subset(missing[0], characters), *theirs.result()]
        except (OSError, RuntimeError):  # no second process to be had here: one after the other
            made = []
    if len(made) != len(missing):
        made = [_make_subset(face, characters) for face in missing]
    for face, data in zip(missing, made):
        found[face] = data
        _write_cache(_cache_key(face, characters), data)
    return found


def _read_cache(key: str, suffix: str = ".ttf") -> bytes | None:
    try:
        return (_cache_dir() / f"{key}{suffix}").read_bytes()
    except OSError:
        return None


def _write_cache(key: str, data: bytes, suffix: str = ".ttf") -> None:
    """Keep a converted font (or what it covers, or a subset's program) for the next build."""
    keep_in_cache(_cache_dir() / f"{key}{suffix}", data)


def _subset_to_truetype(font, characters: str, glyphs: Iterable[str] = ()) -> None:
    """Keep only what ``characters`` (and the named ``glyphs``) need (no layout tables, no
    hinting) and redraw CFF outlines as TrueType, in place: the bundled font and a deck's CFF
    fonts alike."""
    from fontTools import subset as ft_subset  # only on a cache miss: a warm build never loads it

    options = ft_subset.Options()
    options.layout_features = []
    options.hinting = False
    options.desubroutinize = False  # the outlines are redrawn as TrueType anyway
    options.notdef_outline = True
    options.name_IDs = ["*"]
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "VORG", "BASE", "JSTF", "vhea", "vmtx"]
    subsetter = ft_subset.Subsetter(options)
    subsetter.populate(text=characters, glyphs=list(glyphs))
    subsetter.subset(font)
    if "CFF " in font:
        _to_truetype(font)


def _make_subset(face: str, characters: str) -> bytes:
    from fontTools.ttLib import TTFont as FTFont

    font = FTFont(str(_font_path(face)), lazy=True, recalcTimestamp=False)  # same input, same bytes
    _subset_to_truetype(font, characters)
    # ReportLab keeps one face per PostScript name for the whole process, so each subset gets
    # its own name; otherwise a second build would silently reuse the first build's glyphs.
    digest = hashlib.sha1(characters.encode("utf-8")).hexdigest()[:8]
    return _saved_as(font, f"{font['name'].getDebugName(6)}-{digest}")


def _saved_as(font, postscript: str) -> bytes:
    """The font's file, under the full and PostScript name ``postscript``."""
    for name in font["name"].names:
        if name.nameID in (4, 6):
            name.string = postscript
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def bundled_font_file(bold: bool = False) -> Path:
    """The bundled font's file as pip installed it (OpenType/CFF): text in SVG art is drawn from
    its outlines, of any character, without a subset made for it."""
    return _font_path("bold" if bold else "regular")


class Coverage:
    """The characters a font has, as a bitmap over code points (an eighth of a byte each): asking
    about the few characters a build prints costs nothing like reading the font's character map
    of sixty thousand entries, which a warm build never does."""

    __slots__ = ("bits",)

    def __init__(self, bits: bytes):
        self.bits = bits

    @classmethod
    def of_codes(cls, codes: Iterable[int]) -> Coverage:
        bits = bytearray(0x110000 // 8)
        for code in codes:
            bits[code >> 3] |= 1 << (code & 7)
        return cls(bytes(bits))

    def __contains__(self, char: object) -> bool:
        if not isinstance(char, str) or len(char) != 1:
            return False
        code = ord(char)
        return bool(self.bits[code >> 3] >> (code & 7) & 1)

    def issuperset(self, chars: Iterable[str]) -> bool:
        return all(char in self for char in chars)

    def common(self, chars: Iterable[str]) -> set[str]:
        """The characters of ``chars`` the font has."""
        return {char for char in chars if char in self}


@lru_cache(maxsize=1)
def bundled_coverage() -> Coverage:
    """Every character the bundled font has, read from its character map once and then from the
    cache beside its converted subsets."""
    key = _cache_key("regular", "coverage")
    cached = _read_cache(key, ".cmap")
    if cached is not None:
        try:
            bits = zlib.decompress(cached)
        except zlib.error:
            bits = b""
        if len(bits) == 0x110000 // 8:
            return Coverage(bits)
    from fontTools.ttLib import TTFont as FTFont

    coverage = Coverage.of_codes(FTFont(str(_font_path("regular")), lazy=True)["cmap"].getBestCmap())
    _write_cache(key, zlib.compress(coverage.bits, 9), ".cmap")
    return coverage


class TaggedTTFont(TTFont):
    """A TrueType font whose subsets are tagged by what they hold (``ABCDEF+Name``), as PDF
    expects: ReportLab tags every first subset ``AAAAAA+``, so two files with different glyphs
    under one name could lose glyphs when merged or imposed.

    A font whose file is known by ``identity`` (a key that changes whenever its bytes could)
    also keeps the program of every subset it embeds, compressed, in the cache folder: ReportLab
    cuts a subset out of the font again for every PDF and compresses it when the file is saved
    (~0.7 ms a face a file, a twentieth of a game's build), though the same glyphs give the
    same program every time."""

    def __init__(self, name: str, file, identity: str | None = None) -> None:
        super().__init__(name, file)
        if identity is not None:
            self.face.addSubsetObjects = partial(_add_kept_subset, self.face, identity)

    def addObjects(self, doc):
        from reportlab.pdfbase import ttfonts

        state = self.state.get(doc)
        original = ttfonts.SUBSETN

        def tag(n, table=None):
            glyphs = repr((self.face.name, state.subsets[n] if state is not None else n)).encode("utf-8")
            return bytes(65 + byte % 26 for byte in hashlib.sha1(glyphs).digest()[:6])

        ttfonts.SUBSETN = tag
        try:
            super().addObjects(doc)
        finally:
            ttfonts.SUBSETN = original


PROGRAMS_KEPT = 512  # subsets' programs in the cache folder: the oldest go first


def _add_kept_subset(face, identity: str, doc, fontname: str, subset: list[int]):
    """ReportLab's own ``addSubsetObjects``, the subset's program read from the cache folder (or
    made and kept there) and its stream written as kept, compressed: the same bytes."""
    from reportlab import Version
    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfbase.ttfonts import TTFontFace

    if not doc.compression:  # (kkprint always compresses; what ReportLab does otherwise is its own)
        return TTFontFace.addSubsetObjects(face, doc, fontname, subset)
    material = f"{identity}|{Version}|{zlib.ZLIB_RUNTIME_VERSION}|{subset}"
    key = hashlib.sha256(material.encode("utf-8")).hexdigest()[:32]
    program, packed = _kept_program(_read_cache(key, ".program"))
    if program is None:
        program = TTFontFace.makeSubset(face, subset)
        packed = pdfdoc.PDFZCompress.encode(program)
        _write_program(key, program, packed)
    descriptor = TTFontFace.addSubsetObjects(_MadeSubset(face, program), doc, fontname, subset)
    stream = doc.idToObject.get(f"fontFile:{face.filename}({fontname})")  # (the name ReportLab gives it)
    if isinstance(stream, pdfdoc.PDFStream) and stream.content == program:  # (else ReportLab compresses it)
        stream.content, stream.filters = packed, None
        stream.dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(pdfdoc.PDFZCompress.pdfname)])
    return descriptor


class _MadeSubset:
    """A face whose subset's program is made already, for ReportLab's ``addSubsetObjects`` to
    read from. The face itself is shared by every build of the process (the studio's threads
    too): it is not changed, not even for a moment."""

    def __init__(self, face, program: bytes) -> None:
        self._face, self._program = face, program

    def makeSubset(self, subset) -> bytes:  # noqa: N802 - ReportLab's name
        return self._program

    def __getattr__(self, name: str):
        return getattr(self._face, name)


def _kept_program(kept: bytes | None) -> tuple[bytes, bytes] | tuple[None, None]:
    """A kept subset's program and its compressed bytes, when both are whole: its length and
    checksum come first, and a file cut short or damaged is made again."""
    if kept is None or len(kept) < 8:
        return None, None
    length, checksum = int.from_bytes(kept[:4], "little"), int.from_bytes(kept[4:8], "little")
    packed = kept[8:]
    try:
        program = zlib.decompress(packed)
    except zlib.error:
        return None, None
    if len(program) != length or zlib.crc32(program) != checksum:
        return None, None
    return program, packed


def _write_program(key: str, program: bytes, packed: bytes) -> None:
    """Keep a subset's program; past ``PROGRAMS_KEPT`` of them, the oldest are removed (every
    change to a deck's text makes subsets of its own, never asked for again)."""
    header = len(program).to_bytes(4, "little") + zlib.crc32(program).to_bytes(4, "little")
    _write_cache(key, header + packed, ".program")
    try:
        kept = sorted(
            (entry.stat().st_mtime_ns, entry.path)
            for entry in os.scandir(_cache_dir())
            if entry.name.endswith(".program")
        )
        for _, path in kept[:-PROGRAMS_KEPT]:
            os.unlink(path)
    except OSError:
        pass


@record
class FontSet:
    """The registered ReportLab font names for one build, and the characters they can draw."""

    regular: str
    bold: str
    characters: frozenset[str]


def ensure_drawable(text: str, font_name: str) -> None:
    """Refuse text the registered font has no glyph for, instead of printing a silent blank."""
    font = pdfmetrics.getFont(font_name)
    glyphs = getattr(getattr(font, "face", None), "charToGlyph", None)
    if glyphs is None:
        return
    unknown = sorted({c for c in text if ord(c) not in glyphs and c not in _IGNORED})
    if unknown:
        listed = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in unknown)
        raise InputError(Msg("cannot print {listed}: not among the characters prepared for this build", listed=listed))


def collect_strings(value, out: set[str]) -> set[str]:
    """Every string inside nested data (dict keys too): what a build may print. A dataclass is
    read as ``asdict`` would give it (its fields' names and values), without the copy it makes."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            collect_strings(key, out)
            collect_strings(item, out)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            collect_strings(item, out)
    elif is_dataclass(value):
        for name, item in field_values(value).items():
            out.add(name)
            collect_strings(item, out)
    elif value is not None:
        out.add(str(value))
    return out


@lru_cache(maxsize=8)
def _register(characters: str) -> FontSet:
    """Register both faces for ``characters``; the set records what both can really draw."""
    digest = hashlib.sha1(characters.encode("utf-8")).hexdigest()[:10]
    names, drawable = {}, set(characters)
    subsets = None
    for face in FACES:
        name = f"KKSans-{face}-{digest}"
        if name not in pdfmetrics.getRegisteredFontNames():
            subsets = subsets or _subsets(characters)
            pdfmetrics.registerFont(TaggedTTFont(name, io.BytesIO(subsets[face]), _cache_key(face, characters)))
        _SOURCES.setdefault(name, _Source(partial(_open_bundled, face), characters, face))
        names[face] = name
        glyphs = pdfmetrics.getFont(name).face.charToGlyph
        drawable &= {c for c in characters if ord(c) in glyphs}
    return FontSet(regular=names["regular"], bold=names["bold"], characters=frozenset(drawable))


def prepare_fonts(texts: Iterable[str]) -> FontSet:
    """Register fonts able to draw every character of ``texts`` (plus a base set of Latin and kana).

    Raises :class:`InputError` naming the characters the bundled font cannot draw at all.
    """
    wanted = set(BASE_CHARACTERS)
    for text in texts:
        wanted.update(text)
    wanted -= _IGNORED
    fonts = _register("".join(sorted(wanted)))
    missing = sorted(c for c in wanted if c not in fonts.characters)
    if missing:
        listed = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in missing[:10])
        raise InputError(Msg("the bundled Noto Sans CJK JP font cannot draw {listed}", listed=listed))
    return fonts


MAX_FONT_BYTES = 40 * 1024 * 1024


def register_font_file(path: Path, characters: str, label: str) -> str:
    """Register a user's TTF or OTF file for the characters a build prints; returns its font name.

    CFF-outlined OpenType (what most ``.otf`` files are) is subset and converted to TrueType
    exactly as the bundled font is; TrueType-outlined files are embedded as they are (ReportLab
    subsets them itself). The name depends on the file's bytes and the characters, so two
    builds in one process never share a face by accident.
    """
    try:
        data = path.read_bytes() if path.stat().st_size <= MAX_FONT_BYTES else None
    except OSError as err:
        raise InputError(Msg("cannot read font '{label}': {strerror}", label=label, strerror=OsReason(err))) from None
    if data is None:
        raise InputError(Msg("font '{label}' is larger than {value} MB", label=label, value=MAX_FONT_BYTES // 2**20))
    digest_of_file = hashlib.sha1(data + characters.encode("utf-8")).hexdigest()
    name = f"KKDeck-{digest_of_file[:10]}"
    if name in pdfmetrics.getRegisteredFontNames():
        return name
    from fontTools.ttLib import TTFont as FTFont

    try:
        font = FTFont(io.BytesIO(data), lazy=False, recalcTimestamp=False, fontNumber=0)
        if "glyf" not in font and "CFF " not in font:
            raise InputError(
                Msg(
                    "font '{label}' has neither TrueType nor CFF outlines (CFF2 and bitmap fonts are not supported)",
                    label=label,
                )
            )
        _refuse_unembeddable(font, label)
        _SOURCES[name] = _Source(partial(_open_bytes, data), characters, label=label)
        if "CFF " in font:
            _subset_to_truetype(font, characters)
            data = _saved_as(font, name)
        identity = f"{digest_of_file}|{package_identity('fontTools')}|{CONVERTER_VERSION}"
        face = TaggedTTFont(name, io.BytesIO(data), hashlib.sha256(identity.encode("utf-8")).hexdigest())
        _try_subset(face, characters, label)
        pdfmetrics.registerFont(face)
    except InputError:
        raise
    except Exception:  # fontTools and ReportLab raise many kinds for a broken font  # noqa: BLE001
        raise damaged_font(label) from None
    return name


_INSTALLABLE_USES = 0x000C  # OS/2 fsType: preview & print (4), editable (8) — either allows a PDF to embed
_RESTRICTED = 0x0002  # restricted licence: the font must not be embedded at all
_NO_SUBSETTING = 0x0100  # embedded only whole: every PDF here embeds a subset, the characters it prints
_BITMAP_ONLY = 0x0200  # only the font's bitmaps may be embedded, never its outlines (which a PDF needs)


def _refuse_unembeddable(font, label: str) -> None:
    """A font whose licence forbids the embedding every PDF here does (OS/2 ``fsType``: a
    restricted licence, bitmaps only, or no subsetting) is refused, naming its file: every font
    is embedded and subset (SPEC §3), and a designer must not ship such a font unknowingly. Of
    several usage bits, the least restrictive counts (as the OpenType specification says of
    older fonts)."""
    table = font["OS/2"] if "OS/2" in font else None
    fs_type = int(getattr(table, "fsType", 0) or 0)
    if fs_type & _RESTRICTED and not fs_type & _INSTALLABLE_USES:
        why = Msg("restricted licence")
    elif fs_type & _BITMAP_ONLY:
        why = Msg("bitmap embedding only")
    elif fs_type & _NO_SUBSETTING:
        why = Msg("no subsetting")
    else:
        return
    raise InputError(
        Msg(
            "font '{label}' may not be embedded: its licence forbids it ({why}, OS/2 fsType {value}); "
            "use a font whose licence allows embedding",
            label=label,
            why=why,
            value=fs_type,
        )
    )


def damaged_font(label: str) -> InputError:
    """A deck's font file that fontTools or ReportLab cannot read, said in kkprint's words: what
    they say ("unpack requires a buffer of 2 bytes") names neither the file nor the remedy."""
    return InputError(Msg("font '{label}' is damaged or is not a TrueType or OpenType font", label=label))


def _try_subset(font: TTFont, characters: str, label: str) -> None:
    """Make, now, the subset ReportLab will make when the PDF is saved: a glyph built from a glyph
    the font does not have (a broken composite) fails only there, after every page is drawn.
    The character whose glyph is broken is named."""
    codes = [ord(c) for c in characters if ord(c) in font.face.charToGlyph]
    try:
        font.face.makeSubset(codes)
        return
    except Exception:  # noqa: BLE001 - ReportLab reads a broken table however it is broken
        pass
    for code in codes:
        try:
            font.face.makeSubset([code])
        except Exception:  # noqa: BLE001 - as above
            raise InputError(
                Msg(
                    "font '{label}' is damaged: its glyph for '{char}' (U+{code:04X}) cannot be read",
                    label=label,
                    char=chr(code),
                    code=code,
                )
            ) from None
    raise InputError(Msg("font '{label}' is damaged: its glyphs cannot be read", label=label))


# --- vertical forms (縦書き) -------------------------------------------------------------------


@record
class _Source:
    """Where a registered face came from, so its vertical forms can be made when vertical text
    first asks for them (a build without vertical text never pays for them)."""

    open: Callable[[], Any]  # a fresh fontTools font of the original file
    characters: str
    bundled_face: str | None = None  # the bundled face's name, whose conversions are kept on disk
    label: str = ""  # a deck's font: its file, as the deck names it


_SOURCES: dict[str, _Source] = {}


def _open_bundled(face: str):
    from fontTools.ttLib import TTFont as FTFont

    return FTFont(str(_font_path(face)), lazy=True, recalcTimestamp=False)


def _open_bytes(data: bytes):
    from fontTools.ttLib import TTFont as FTFont

    return FTFont(io.BytesIO(data), lazy=False, recalcTimestamp=False, fontNumber=0)


@record
class VerticalForms:
    """A companion face for upright characters in vertical text: a font's vertical forms — what
    its ``vert`` feature draws for 、。「」（）ー〜 and small kana — and its usual glyphs for the
    rest, under the characters' own code points: vertical text set in it still reads, copies
    and searches as the characters it is."""

    font: str  # the registered companion face
    characters: frozenset[str]  # the characters it draws: every one of the build's its font has


_VERTICAL: dict[str, VerticalForms | None] = {}


def vertical_forms(font: str) -> VerticalForms | None:
    """The vertical forms of the registered face ``font`` for the characters its build prints;
    None for a face without a ``vert`` feature (or not registered here)."""
    if font in _VERTICAL:
        return _VERTICAL[font]
    source, found = _SOURCES.get(font), None
    if source is not None:
        name = f"{font}-V"
        key = _cache_key(source.bundled_face, "vert|" + source.characters) if source.bundled_face else None
        data = _read_cache(key) if key else None
        if data is None:
            try:
                data = _make_vertical(source.open(), source.characters, name)
            except Exception:  # a deck's font whose layout tables fontTools cannot read  # noqa: BLE001
                if not source.label:  # (the bundled font is ours: its failure is a bug, shown as one)
                    raise
                raise InputError(
                    Msg(
                        "font '{label}' is damaged: its vertical forms (its 'vert' feature) cannot be read",
                        label=source.label,
                    )
                ) from None
            if data and key:
                _write_cache(key, data)
        if data:
            pdfmetrics.registerFont(TaggedTTFont(name, io.BytesIO(data), key))
            held = pdfmetrics.getFont(name).face.charToGlyph
            found = VerticalForms(name, frozenset(chr(code) for code, glyph in held.items() if glyph))
    _VERTICAL[font] = found
    return found


def _vertical_glyphs(font, characters: str) -> dict[str, str]:
    """Each character of ``characters`` that the font's ``vert`` feature replaces, with the glyph
    it becomes: the Japanese language system's lookups where the font has them (a Chinese or
    Korean one may centre punctuation instead), applied in the order the font lists them."""
    if "GSUB" not in font:
        return {}
    gsub = font["GSUB"].table
    if gsub.FeatureList is None or gsub.LookupList is None:
        return {}
    features = gsub.FeatureList.FeatureRecord

    def vert_lookups(system) -> list[int]:
        return [
            index
            for feature in (system.FeatureIndex if system is not None else ())
            if features[feature].FeatureTag == "vert"
            for index in features[feature].Feature.LookupListIndex
        ]

    chosen: list[int] = []
    scripts = {record.ScriptTag: record.Script for record in (gsub.ScriptList.ScriptRecord if gsub.ScriptList else ())}
    for tag in ("kana", "hani", "DFLT", "latn"):
        script = scripts.get(tag)
        if script is not None:
            systems = {record.LangSysTag.strip(): record.LangSys for record in script.LangSysRecord}
            chosen = vert_lookups(systems.get("JAN")) or vert_lookups(script.DefaultLangSys)
            if chosen:
                break
    if not chosen:  # a font that files its vertical forms under another script
        chosen = [
            index for record in features if record.FeatureTag == "vert" for index in record.Feature.LookupListIndex
        ]
    substitutions = []
    for index in sorted(set(chosen)):
        lookup = gsub.LookupList.Lookup[index]
        mapping: dict[str, str] = {}
        for table in lookup.SubTable:
            table = getattr(table, "ExtSubTable", table)  # (an extension lookup wraps its table)
            mapping.update(getattr(table, "mapping", None) or {})  # single substitutions only
        substitutions.append(mapping)
    best = font.getBestCmap() or {}
    found = {}
    for char in characters:
        glyph = best.get(ord(char))
        if glyph is not None:
            vertical = glyph
            for mapping in substitutions:
                vertical = mapping.get(vertical, vertical)
            if vertical != glyph:
                found[char] = vertical
    return found


def _make_vertical(font, characters: str, name: str) -> bytes | None:
    """The companion face of ``font`` for ``characters``: each character under its own code
    point, drawn by its vertical form where the font has one, else by its usual glyph (so a
    column of Japanese stays in one face), as TrueType named ``name``; None when the font has
    no vertical forms at all."""
    from fontTools.ttLib import newTable
    from fontTools.ttLib.tables._c_m_a_p import CmapSubtable

    forms = _vertical_glyphs(font, characters)
    if not forms:
        return None
    best = font.getBestCmap() or {}
    glyphs = {ord(char): forms.get(char) or best[ord(char)] for char in sorted(set(characters)) if ord(char) in best}
    _subset_to_truetype(font, "", sorted(set(glyphs.values())))
    tables = []
    for format_, encoding, codes in ((4, 1, range(0x10000)), (12, 10, range(0x10000, 0x110000))):
        mapping = {code: glyph for code, glyph in glyphs.items() if code in codes or format_ == 12}
        if format_ == 4 or max(glyphs) > 0xFFFF:  # (characters past the BMP need the long format)
            table = CmapSubtable.newSubtable(format_)
            table.platformID, table.platEncID, table.language = 3, encoding, 0
            table.cmap = mapping
            tables.append(table)
    cmap = font["cmap"] = newTable("cmap")
    cmap.tableVersion, cmap.tables = 0, tables
    return _saved_as(font, name)
