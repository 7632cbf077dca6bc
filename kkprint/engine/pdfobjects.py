"""ReportLab's writer of PDF objects, with the common cases taken first: the same bytes, sooner.

When a canvas is saved, ReportLab writes every object of the file (dictionaries, arrays, names,
numbers, references) through ``pdfdoc.format``, which asks of each value first whether it is a
PDF object, and sends every name and number, however plain, through its ``extpdfdoc`` codec (a
character map). A font subset's ``/Widths`` alone is hundreds of numbers. Measured on ``build
court``: a seventh of the whole command's instructions went to saving its three PDFs.

:func:`install` puts four of ``pdfdoc``'s functions in faster hands. Each takes the cases kkprint
writes most often and gives the bytes ReportLab would. Anything else goes to ReportLab's own
function: a PDF object, a number ``fp_str`` would write otherwise, and text the codec would change
or refuse. ``tests/test_pdfobjects.py`` writes values and whole files both ways and compares.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc

_REPORTLAB = {
    "format": pdfdoc.format,
    "pdfdocEnc": pdfdoc.pdfdocEnc,
    "PDFName": pdfdoc.PDFName,
}
_REPORTLAB_DICTIONARY = pdfdoc.PDFDictionary.format
_format, _encode, _name = _REPORTLAB["format"], _REPORTLAB["pdfdocEnc"], _REPORTLAB["PDFName"]

# ASCII that the extpdfdoc codec does not keep as it is (it has accents at 0x18–0x1F)
_NOT_AS_ASCII = re.compile("[\x18-\x1f]")
# ints ReportLab writes as they are (fp_str goes through a double, which rounds larger ones)
_EXACT = 2**53


def encode(value):
    """``pdfdocEnc``: plain ASCII text is its own bytes; anything else goes to the codec."""
    if type(value) is str and value.isascii() and _NOT_AS_ASCII.search(value) is None:
        return value.encode("ascii")
    return _encode(value)


def format(element, document, toplevel=0):  # noqa: A001 - ReportLab's name, put in its place
    """``pdfdoc.format``: numbers, bytes and text first; PDF objects as ReportLab formats them."""
    kind = type(element)
    if kind is int and -_EXACT < element < _EXACT:
        return b"%d" % element
    if kind is float:
        return fp_str(element).encode("ascii")  # (fp_str writes ASCII, or refuses as ReportLab would)
    if kind is bytes:
        return element
    if kind is str:
        return encode(element)
    return _format(element, document, toplevel)


@lru_cache(maxsize=4096)
def _known_name(data: str) -> str:
    return _name(data)


def name(data, lo=chr(0x21), hi=chr(0x7E)):
    """``PDFName``: the same few names (``Type``, ``Font``, ``Length`` …) are written thousands
    of times, so each is escaped once."""
    if type(data) is str and lo == "!" and hi == "~":
        return _known_name(data)
    return _name(data, lo, hi)


@lru_cache(maxsize=4096)
def _key(key: str) -> bytes:
    return encode(name(key)) + b" "


def dictionary(self, document, IND=b"\n "):  # noqa: N803 - ReportLab's parameter name
    """``PDFDictionary.format``: each key's bytes made once, the layout ReportLab's own."""
    entries = self.dict
    keys = list(entries.keys())
    if not isinstance(entries, OrderedDict):
        keys.sort()
    lines = [
        (_key(key) if type(key) is str else encode(name(key)) + b" ") + format(entries[key], document) for key in keys
    ]
    if (self.multiline and rl_config.pdfMultiLine) or self.multiline == "forced":
        return b"<<\n" + IND.join(lines) + b"\n>>"
    for index in reversed(range(6, len(lines), 6)):  # (a line break after every six, as ReportLab has it)
        lines.insert(index, b"\n ")
    return b"<<\n" + b" ".join(lines) + b"\n>>"


_FASTER = {"format": format, "pdfdocEnc": encode, "PDFName": name}


def install() -> None:
    """From now on, ReportLab writes PDF objects through this module's functions."""
    for attribute, function in _FASTER.items():
        setattr(pdfdoc, attribute, function)
    pdfdoc.PDFDictionary.format = dictionary  # (replaced on purpose)


@contextmanager
def reportlab_own() -> Iterator[None]:
    """ReportLab's own functions within the block, and whichever were in place after it (the
    tests compare both). A ReportLab module that imported one by name keeps what it took."""
    before = {attribute: getattr(pdfdoc, attribute) for attribute in _REPORTLAB}
    dictionary_before = pdfdoc.PDFDictionary.format
    for attribute, function in _REPORTLAB.items():
        setattr(pdfdoc, attribute, function)
    pdfdoc.PDFDictionary.format = _REPORTLAB_DICTIONARY
    try:
        yield
    finally:
        for attribute, function in before.items():
            setattr(pdfdoc, attribute, function)
        pdfdoc.PDFDictionary.format = dictionary_before
