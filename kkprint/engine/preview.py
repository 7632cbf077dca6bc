"""Pictures of what a build prints, made with pypdfium2 (a pip-installed PDF renderer)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from kkprint.base.outputs import atomic_file
from kkprint.base.paths import safe_file_name
from kkprint.engine.job import BuildOptions, Target, build_targets


def render_pages(pdf: Path, out_dir: Path, dpi: int) -> list[Path]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    written = []
    try:
        for index in range(len(document)):
            image = document[index].render(scale=dpi / 72).to_pil()
            path = out_dir / f"{safe_file_name(pdf.stem)}-{index + 1:03d}.png"
            with atomic_file(path, magic=b"\x89PNG") as temp:
                image.save(temp, format="PNG", optimize=False)
            written.append(path)
    finally:
        document.close()
    return written


def preview_targets(targets: list[Target], options: BuildOptions, out_dir: Path, dpi: int) -> list[Path]:
    with tempfile.TemporaryDirectory(prefix="kkprint-preview-") as temp:
        build = BuildOptions(**{**options.__dict__, "out_dir": Path(temp)})
        pictures = []
        for pdf in build_targets(targets, build):
            pictures.extend(render_pages(pdf, out_dir, dpi))
    return pictures
