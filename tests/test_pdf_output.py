"""What a printer and a viewer see in the PDFs: sizes, fonts, scaling, determinism, reuse."""

from pathlib import Path

import pytest
from pypdf import PdfReader

from kkprint.cli.targets import resolve
from kkprint.engine.job import BuildOptions, build_targets


@pytest.fixture(scope="module")
def kardinal_pdfs(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("kk")
    paths = build_targets(resolve(["kardinal"]), BuildOptions(out_dir=out))
    return {p.name.split("-ja-")[0]: p for p in paths}


def fonts_of(reader: PdfReader):
    for page in reader.pages:
        resources = page.get("/Resources") or {}
        for font in (resources.get("/Font") or {}).values():
            yield font.get_object()


def test_every_font_is_embedded(kardinal_pdfs):
    for path in kardinal_pdfs.values():
        fonts = list(fonts_of(PdfReader(path)))
        assert fonts, path
        for font in fonts:
            descriptor = font.get("/FontDescriptor")
            if descriptor is None:  # Type0 fonts keep theirs on the descendant
                descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            descriptor = descriptor.get_object()
            assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), (path, font)
            assert "+" in str(font["/BaseFont"]), "fonts are subset"


def test_print_scaling_none_and_a4(kardinal_pdfs):
    for path in kardinal_pdfs.values():
        reader = PdfReader(path)
        assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
        box = reader.pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == (595, 842)


def test_land_cards_are_56_fronts_with_backs(kardinal_pdfs):
    reader = PdfReader(kardinal_pdfs["kardinal-land-cards"])
    assert len(reader.pages) == 14  # 7 sheets of 9, each followed by its backs
    text = reader.pages[0].extract_text()
    assert "フランス" in text and "Frankreich" in text


def test_one_back_design_is_stored_once(kardinal_pdfs):
    reader = PdfReader(kardinal_pdfs["kardinal-land-cards"])
    back_forms = set()
    for page in reader.pages[1::2]:
        xobjects = page["/Resources"]["/XObject"]
        page_width = float(page.mediabox.width)
        back_forms.update(
            ref.idnum
            for ref in (xobjects.raw_get(name) for name in xobjects)
            if float(ref.get_object()["/BBox"][2]) < page_width
        )  # not the page's margin note
    assert len(back_forms) == 1


def test_identical_input_gives_identical_bytes(tmp_path, kardinal_pdfs):
    again = build_targets(resolve(["kardinal"]), BuildOptions(out_dir=tmp_path))
    for path in again:
        assert path.read_bytes() == kardinal_pdfs[path.name.split("-ja-")[0]].read_bytes(), path.name


def test_english_letter_build(tmp_path):
    paths = build_targets(resolve(["kardinal"]), BuildOptions(lang="en", paper_name="letter", out_dir=tmp_path))
    assert all(p.name.endswith("-en-letter.pdf") for p in paths)
    reader = PdfReader(paths[0])
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    assert "France" in reader.pages[0].extract_text()


def test_chart_has_every_row(kardinal_pdfs):
    text = PdfReader(kardinal_pdfs["kardinal-chart"]).pages[0].extract_text()
    for word in ("決算チャート", "フランス", "デンマーク", "中間集計", "道路", "合計", "紋章"):
        assert word in text


def test_a_pdf_has_the_same_bytes_built_alone_or_with_everything(tmp_path):
    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    everything = build_targets(resolve(["all"]), BuildOptions(out_dir=tmp_path / "all"))
    alone = build_targets(resolve(["court"]), BuildOptions(out_dir=tmp_path / "alone"))
    by_name = {p.name: p for p in everything}
    assert alone and all(p.read_bytes() == by_name[p.name].read_bytes() for p in alone)


def test_every_core_builds_the_same_files_in_the_same_order(tmp_path):
    """Targets shared out among forked workers (each taking the next one nobody has taken, with
    its own fonts) come back in the order asked for, byte for byte as one process builds them;
    a target that cannot be read fails alone."""
    from kkprint.engine.job import run_targets

    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [unclosed\n", encoding="utf-8")
    chosen = [*resolve(["all"]), *resolve([str(broken)])]
    one = run_targets(chosen, BuildOptions(out_dir=tmp_path / "one", jobs=1))
    two = run_targets(chosen, BuildOptions(out_dir=tmp_path / "two", jobs=2))
    assert [o.target for o in two] == [t.id for t in chosen] == [o.target for o in one]
    assert two[-1].error is not None and one[-1].error is not None and not two[-1].paths
    assert all(o.error is None for o in two[:-1])
    assert [[p.name for p in o.paths] for o in two] == [[p.name for p in o.paths] for o in one]
    assert sum(len(o.paths) for o in two) > 10
    for a, b in zip([p for o in one for p in o.paths], [p for o in two for p in o.paths]):
        assert a.read_bytes() == b.read_bytes(), b.name


def test_a_written_pdf_s_pages_are_counted_without_reading_it_back(kardinal_pdfs, monkeypatch):
    """What a kit's cover lists: the pages each file of this process has, remembered as it was
    written, and read from the file for one this process did not write."""
    from kkprint.engine import document

    assert len(kardinal_pdfs) > 3
    for path in kardinal_pdfs.values():
        assert path in document._PAGE_COUNTS
        assert document.page_count(path) == len(PdfReader(path).pages) > 0
    monkeypatch.setattr(document, "_PAGE_COUNTS", {})
    assert [document.page_count(p) for p in kardinal_pdfs.values()] == [
        len(PdfReader(p).pages) for p in kardinal_pdfs.values()
    ]


def test_font_subsets_are_tagged_by_what_they_hold(tmp_path):
    import re

    from kkprint.cli.targets import resolve
    from kkprint.engine.job import BuildOptions, build_targets

    written = build_targets(resolve(["kardinal", "court"]), BuildOptions(out_dir=tmp_path))
    names = set()
    for pdf in written:
        for page in PdfReader(pdf).pages:
            for font in (page["/Resources"].get("/Font") or {}).values():
                names.add(str(font.get_object()["/BaseFont"]))
    tags = {name.split("+")[0] for name in names}
    assert all(re.fullmatch(r"/[A-Z]{6}", tag) for tag in tags)
    assert "/AAAAAA" not in tags and len(tags) >= 4  # different subsets, different tags
