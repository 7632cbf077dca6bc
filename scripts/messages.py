"""Keep the message catalogue in step with the code: extract every message (``Msg(...)``,
``tr(...)``, ``_(...)`` in Python and in the score pad's templates) with Babel, merge them into
the Japanese catalogue keeping what is translated, and compile it.

    python scripts/messages.py          # extract, update kkprint/locale/ja/.../kkprint.po, compile
    python scripts/messages.py --check  # exit 1 when a message lacks its Japanese (used by the tests)
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PACKAGE = ROOT / "kkprint"
PO = PACKAGE / "locale" / "ja" / "LC_MESSAGES" / "kkprint.po"
MO = PO.with_suffix(".mo")
KEYWORDS = {**DEFAULT_KEYWORDS, "Msg": None, "tr": None, "Counted": (1, 2), "ntr": (1, 2)}
METHODS = [("**.py", "python"), ("**/templates/**.html", "jinja2")]


def extract() -> Catalog:
    template = Catalog(project="kkprint", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE), METHODS, {"**/templates/**.html": {"autoescape": "true"}}, KEYWORDS, strip_comment_tags=True
    ):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    import typer

    from kkprint.cli.app import app
    from kkprint.cli.usage import help_texts

    for text in help_texts(typer.main.get_command(app)):  # help texts live beside the options
        template.add(text, None, [("kkprint/cli.py", 0)])
    from kkprint.cli.decks import descriptions
    from kkprint.deck.model import deck_schema

    for text in descriptions(deck_schema()):  # what `kkprint schema` tells an editor
        if text:
            template.add(text, None, [("kkprint/deck/model.py", 0)])
    return template


def load() -> Catalog:
    if not PO.exists():
        return Catalog(locale="ja", project="kkprint", fuzzy=False)
    with PO.open("rb") as stream:
        return read_po(stream, locale="ja")


def compiled(catalog: Catalog) -> bytes:
    stream = io.BytesIO()
    write_mo(stream, catalog, use_fuzzy=False)
    return stream.getvalue()


def missing(catalog: Catalog, template: Catalog) -> list[str]:
    """Messages the code uses that have no Japanese, and Japanese kept for messages gone."""
    problems = [f"no Japanese for {m.id!r}" for m in template if m.id and not translated(catalog.get(m.id))]
    problems += [f"not used any more: {m.id!r}" for m in catalog if m.id and template.get(m.id) is None]
    return problems


def translated(message) -> bool:
    """A message with its Japanese (every form of a plural one)."""
    if message is None:
        return False
    forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return all(forms)


def main(argv: list[str]) -> int:
    template, catalog = extract(), load()
    if "--check" in argv:
        problems = missing(catalog, template)
        if MO.exists() and MO.read_bytes() != compiled(catalog):
            problems.append(f"{MO.relative_to(ROOT)} is not compiled from the .po: run python scripts/messages.py")
        print("\n".join(problems) or "catalogue complete")
        return 1 if problems else 0
    created = catalog.creation_date  # kept: a run with nothing changed leaves the files as they were
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.creation_date = created
    PO.parent.mkdir(parents=True, exist_ok=True)
    with PO.open("wb") as stream:
        write_po(
            stream, catalog, width=0, omit_header=False, sort_output=True, no_location=True
        )  # sorted: stable, and two changes rarely touch the same lines
    MO.write_bytes(compiled(catalog))
    todo = [m.id for m in catalog if m.id and not translated(m)]
    print(f"{len(catalog)} messages, {len(todo)} without Japanese")
    for msgid in todo:
        print("  ", msgid)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
