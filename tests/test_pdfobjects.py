"""kkprint writes a PDF's objects through its own faster functions (kkprint.engine.pdfobjects):
every value and every whole file must come out byte for byte as ReportLab's own functions write
them, and what ReportLab refuses is refused the same way."""

from __future__ import annotations

import enum
import hashlib
from collections import OrderedDict

import pytest
from conftest import run_main
from reportlab.pdfbase import pdfdoc

from kkprint.engine import document, pdfobjects

assert document  # (importing the document installs kkprint's writer, as in every build)


class Level(enum.IntEnum):
    HIGH = 3


class Tagged(str):
    def __str__(self) -> str:
        return "tag"


def _values() -> list:
    document = pdfdoc.PDFDocument(invariant=1)
    nested = pdfdoc.PDFDictionary({"Type": pdfdoc.PDFName("Font"), "Widths": pdfdoc.PDFArray(list(range(-3, 40)))})
    stream = pdfdoc.PDFStream(
        pdfdoc.PDFDictionary({"Subtype": pdfdoc.PDFName("Form")}), "q 1 0 0 1 0 0 cm Q\n", [pdfdoc.PDFZCompress]
    )
    return [
        document,
        0,
        -17,
        2**53 - 1,
        -(2**53) + 1,
        2**53,  # fp_str rounds it through a double: ReportLab's own function writes it
        2**53 + 1,
        10**20 + 1,
        10**21,  # fp_str refuses it
        0.5,
        -0.0,
        1e-7,
        123456.789,
        float("nan"),
        float("inf"),
        True,
        None,
        Level.HIGH,
        b"\x00raw bytes\xff",
        "plain ASCII",
        "line\nbreak\ttab",
        "\x18\x19\x1f",  # ASCII the codec writes as accents
        "\x7f\x00",
        "café",
        "日本語",
        Tagged("value"),
        pdfdoc.PDFName("A B#(x)"),
        pdfdoc.PDFString("(text) é"),
        pdfdoc.PDFArray([1, 2.25, "s", pdfdoc.PDFName("N"), [3]] * 5),
        pdfdoc.PDFArrayCompact(list(range(25))),
        nested,
        pdfdoc.PDFDictionary({f"Key{i}": i * 1.5 for i in range(14)}),
        pdfdoc.PDFDictionary(OrderedDict([("Z", 1), ("A", 2), ("M", nested)])),
        pdfdoc.PDFDictionary({"Odd key/#": "x", "日本": 1}),
        pdfdoc.PDFDictionary({3: "an int key"}),
        stream,
    ]


def _written(value, document) -> tuple[str, bytes | str]:
    try:
        return "bytes", pdfdoc.format(value, document)
    except Exception as err:  # noqa: BLE001 - a refusal is compared too
        return type(err).__name__, str(err)


@pytest.mark.parametrize("index", range(len(_values())))
def test_a_value_is_written_as_reportlab_writes_it(index):
    value = _values()[index]
    document = pdfdoc.PDFDocument(invariant=1)
    with pdfobjects.reportlab_own():
        theirs = _written(value, document)
    ours = _written(_values()[index], pdfdoc.PDFDocument(invariant=1))
    assert pdfdoc.format is pdfobjects.format  # (installed again after the block)
    assert ours == theirs


def test_names_and_texts_are_encoded_as_reportlab_encodes_them():
    for text in ["Type", "FormXob.deck-front-0123", "A B", "#", "\x18", "\x17", "é", "日", "~", "!", "\x7f"]:
        with pdfobjects.reportlab_own():
            name, encoded = pdfdoc.PDFName(text), _written(text, None)
        assert pdfdoc.PDFName(text) == name
        assert _written(text, None) == encoded
    assert pdfdoc.PDFName("A B", " ", "~") == pdfobjects._name("A B", " ", "~")  # other bounds: ReportLab's own


def _pdf_digests(folder) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(folder.glob("*.pdf"))}


def test_whole_files_are_the_same_bytes(tmp_path, capsys, monkeypatch):
    """A game's kit (cards with forms and fonts, a booklet with tables, a summary) and a deck with
    pictures and icons, written both ways."""
    targets = ["court", "examples/decks/heist/heist.yaml"]
    for target in targets:
        code, _, err = run_main(["build", target, "--out", str(tmp_path / "ours")], capsys, monkeypatch, lang="ja")
        assert code == 0, err
        with pdfobjects.reportlab_own():
            code, _, err = run_main(
                ["build", target, "--out", str(tmp_path / "reportlab")], capsys, monkeypatch, lang="ja"
            )
        assert code == 0, err
    ours, theirs = _pdf_digests(tmp_path / "ours"), _pdf_digests(tmp_path / "reportlab")
    assert len(ours) >= 4
    assert ours == theirs


def test_reportlabs_own_functions_are_lent_for_a_block_and_what_was_there_comes_back():
    with pdfobjects.reportlab_own():
        assert pdfdoc.format is pdfobjects._REPORTLAB["format"]
        with pdfobjects.reportlab_own():
            pass
        assert pdfdoc.format is pdfobjects._REPORTLAB["format"]  # (the outer block still lends them)
        assert pdfdoc.PDFDictionary.format is pdfobjects._REPORTLAB_DICTIONARY
        with pytest.raises(ZeroDivisionError), pdfobjects.reportlab_own():
            1 / 0  # noqa: B018
        assert pdfdoc.PDFName is pdfobjects._REPORTLAB["PDFName"]
    assert pdfdoc.format is pdfobjects.format and pdfdoc.PDFDictionary.format is pdfobjects.dictionary
