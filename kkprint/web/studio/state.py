"""The studio's picture of a deck: the deck as last read, a picture of every card face, and what
went wrong — kept whole while the next reading is drawn, so a page never sees half an update.

:meth:`Studio.refresh` reads the deck again and draws only the faces whose inputs changed
(:mod:`kkprint.deck.inputs`); a picture is known by the digest of its inputs, so an unchanged
card keeps its picture, and a card changed and changed back finds its old one. A deck that
cannot be read keeps the last good cards. While a column no card has stands, a face that reads
it keeps the picture it has on screen (drawn again, that region would be blank), but it is
drawn all the same, off screen, when its inputs change, so that every other problem is found
and told at once (a broken SVG, a missing picture). A card that cannot be drawn keeps its last
picture. Each is told with file, place and message. Refreshing runs on one worker thread
(ReportLab's and PDFium's state is the process's); the pages are told through
:meth:`Studio.subscribe`.
"""

from __future__ import annotations

import io
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg
from kkprint.base.records import record
from kkprint.base.yamlio import read_text
from kkprint.deck.build import deck_card_size
from kkprint.deck.export import card_pictures
from kkprint.deck.expr import compile_template
from kkprint.deck.inputs import CardInputs, card_inputs, picture_files
from kkprint.deck.load import Deck, load_deck
from kkprint.deck.model import ImageRegion
from kkprint.deck.preflight import COPIES_COLUMN, MISSING_COLUMN, Finding, check_card, column_checks
from kkprint.deck.render import art_fonts
from kkprint.engine.pictures import check_picture

SIDES = ("front", "back")
LONGEST_SIDE_PX = 720  # a card's picture: sharp in the large view on a tablet, light in the grid
MAX_CARD_ERRORS = 20  # as the preflight lists them: the rest wait for the next save
KEPT_PICTURES = 400  # pictures of no current card kept for a while (an edit undone finds its old one)
PUBLISH_EVERY = 0.4  # seconds between progress reports while many cards are drawn
COLUMN_KINDS = (COPIES_COLUMN, MISSING_COLUMN)  # what column_checks says at every change, drawn or not


@record
class CardView:
    """One card as the page shows it: its inputs and the pictures on screen for each face (the
    last good one while a new one is drawn or cannot be)."""

    inputs: CardInputs
    shown: dict[str, str | None]  # side -> digest of the picture on screen
    error: InputError | None = None  # the first error the preflight found drawing it
    findings: tuple[Finding, ...] = ()  # what the preflight found on its faces as they are now
    files: tuple[Path | None, ...] = ()  # for each finding, the file its error is in (None: the deck's)
    held: bool = False  # a face shows its last picture for a column no card has (drawn, it would read it blank)

    @property
    def errors(self) -> list[tuple[Finding, Path | None]]:
        """Its errors, each with the file it is in (:func:`file_at_fault`)."""
        files = self.files or (None,) * len(self.findings)
        return [(finding, file) for finding, file in zip(self.findings, files, strict=True) if finding.error]

    @property
    def current(self) -> bool:
        """Whether every face on screen is drawn from the card as it is now."""
        return self.shown["front"] == self.inputs.front_digest and self.shown["back"] == self.inputs.back_digest


@record
class Snapshot:
    """Everything a page is shown, as of one moment (replaced whole, never changed)."""

    version: int = 0
    deck: Deck | None = None  # the last deck that could be read
    lines: tuple[str, ...] = ()  # its file's text, for the line a region is written on
    cards: tuple[CardView, ...] = ()
    error: InputError | None = None  # the deck cannot be read (its last good cards stay)
    shared: tuple[Finding, ...] = ()  # the preflight's findings on what every card shares (and on columns)
    busy: bool = True
    drawn: int = 0  # faces drawn since the studio started (what a page or a test can count)
    last_drawn: tuple[tuple[int, str], ...] = ()  # (card, side) drawn by the last refresh
    pending: int = 0  # faces still to draw

    def card(self, index: int) -> CardView | None:
        for view in self.cards:
            if view.inputs.index == index:
                return view
        return None

    @property
    def card_errors(self) -> list[InputError]:
        return [view.error for view in self.cards if view.error is not None]

    def card_findings(self, view: CardView) -> list[Finding]:
        """Everything the preflight says of one card, as ``kkprint check`` would list it: its own
        findings and those of what every card shares (:func:`kkprint.deck.preflight.check_card`)."""
        card = view.inputs
        return check_card([*self.shared, *view.findings], card.number, card.card.count)


def _on(card: CardInputs, finding: Finding) -> Finding:
    """A finding of a face, said of ``card`` (a face drawn once for several cards was found on
    the first of them)."""
    if finding.card is None:
        return finding
    return replace(finding, card=card.number, name=card.card.fields.get("name") or None, origin=card.card.origin)


def _section(card: CardInputs, side: str) -> tuple | None:
    """The part of the deck file that draws one face of a card."""
    return card.front if side == "front" else card.back


def section_layout(deck: Deck, section: tuple) -> dict:
    """The regions of the part of the deck file that draws a face (KeyError: a layout it lacks)."""
    group = section[0]
    if group == "layout":
        return deck.spec.layout or {}
    if group == "layouts":
        return deck.spec.layouts[section[1]].regions
    if group == "back":
        return deck.spec.back or {}
    return deck.spec.backs[section[1]]


def file_at_fault(deck: Deck, section: tuple | None, fields: dict[str, str] | None, finding: Finding) -> Path | None:
    """The file a face's error is in, when the error is a file's (its message starts with that
    file's name: an SVG that is not well formed, a picture that cannot be read): among the files
    the finding's region draws with the face's ``fields`` (its picture, and what that refers to,
    in turn), else among the deck's icons and fonts, the one of that name, known by its real path
    (links resolved) from the deck's folder: ``art/a/../b/x.svg`` is ``art/b/x.svg``. Of two of
    that name (``art/a/x.svg`` showing ``art/b/x.svg``), the one that says the same when read on
    its own, the one referred to first (the one that refers to it says its error too). None:
    the error is the deck's (or no file of that name can be told apart)."""
    message = finding.message
    if not finding.error or not isinstance(message, Msg) or not message.msgid.startswith("{name}"):
        return None
    name = message.values.get("name")
    if not isinstance(name, str) or section is None or fields is None:
        return None
    root = None if deck.allow_outside else deck.folder.resolve()
    for candidates in (_drawn_by(deck, section, fields, finding.region), _deck_files(deck)):
        named = [
            real
            for real in dict.fromkeys(map(_real, candidates))
            if real is not None and real.name == name and (root is None or real.is_relative_to(root))
        ]  # (a file outside the deck's folder, which the build refused to read, is never read here either)
        if len(named) == 1:
            return _from_folder(deck, named[0])
        for path in reversed(named):  # (one referred to before the one referring to it)
            try:
                check_picture(path, root, art_fonts(deck))
            except InputError as err:
                if err.message == message:
                    return _from_folder(deck, path)
        if named:
            return None
    return None


def _drawn_by(deck: Deck, section: tuple, fields: dict[str, str], name: str | None) -> Iterator[Path]:
    """The files region ``name`` of a face draws with its ``fields``: its picture and what that
    refers to, in turn."""
    try:
        region = section_layout(deck, section).get(name or "")
    except KeyError:  # (a layout the card names but the deck lacks)
        return
    if isinstance(region, ImageRegion):
        try:
            src = fields.get(region.field, "") if region.field else region.src or ""
            src = compile_template(src).expand(fields, deck.tables) if "${" in src else src
        except InputError:
            return
        if src:
            yield from picture_files(deck.folder / src)


def _deck_files(deck: Deck) -> Iterator[Path]:
    """The deck's icons (and what they refer to) and fonts."""
    for icon in deck.spec.icon_specs.values():
        yield from picture_files(deck.folder / icon.src)
    for files in deck.spec.fonts.values():
        yield from (deck.folder / file for file in vars(files).values() if isinstance(file, str) and file)


def _real(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # (a link loop, a NUL: not a file that was read)
        return None


def _from_folder(deck: Deck, real: Path) -> Path:
    """A file's real path said from the deck's folder as the deck names it (outside it: as it is)."""
    try:
        return deck.folder / real.relative_to(deck.folder.resolve())
    except (OSError, ValueError):
        return real


def picture_scale(deck: Deck) -> float:
    """Dots per inch that make the card's longer side about :data:`LONGEST_SIDE_PX` pixels."""
    size = deck_card_size(deck)
    return min(600.0, max(72.0, LONGEST_SIDE_PX / (max(size.width_mm, size.height_mm) / 25.4)))


class Studio:
    """The deck being edited, its pictures, and the pages that watch it."""

    def __init__(self, path: Path, *, allow_outside: bool = False):
        self.path = path
        self.allow_outside = allow_outside
        self.snapshot = Snapshot()
        self._pictures: OrderedDict[str, bytes] = OrderedDict()
        self._found: dict[str, tuple[Finding, ...]] = {}  # a face's digest -> what the preflight found drawing it
        self._files: dict[str, tuple[Path | None, ...]] = {}  # a face's digest -> the file each finding is in
        self._shared: tuple[Finding, ...] = ()  # what the last drawing found on what every card shares
        self._listeners: list[Callable[[int], None]] = []
        self.changed = threading.Event()  # set by the watcher: a refresh under way stops early

    # -- what the pages read -----------------------------------------------------------------

    def picture(self, digest: str) -> bytes | None:
        return self._pictures.get(digest)

    def subscribe(self, listener: Callable[[int], None]) -> Callable[[], None]:
        """Call ``listener(version)`` (from the worker thread) whenever the snapshot changes;
        returns the function that stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def _publish(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        for listener in list(self._listeners):
            listener(snapshot.version)

    # -- the worker's side -------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the deck again and draw what changed (on the worker thread). Stops early, with
        what it drew kept, when the watcher says the files changed again meanwhile."""
        before = self.snapshot
        try:
            deck = load_deck(self.path, allow_outside=self.allow_outside)
            lines = tuple(read_text(self.path).splitlines())
            inputs = card_inputs(deck)
            checks = column_checks(deck)  # (said at every change: no card's picture depends on them)
        except InputError as err:
            self._publish(replace(before, version=before.version + 1, error=err, busy=False, pending=0))
            return
        shown_before = {view.inputs.index: view.shown for view in before.cards}
        errors_before = {view.inputs.index: view.error for view in before.cards}
        # a column no card has reads as empty on every face that shows it: while that stands, such
        # a face keeps the picture it has (drawn again, its title would be blank) but is drawn
        # all the same, off screen, when its inputs change, for what else is wrong with it (the
        # deck's one error must not hide the others); a face that reads no such column is drawn
        # and shown as ever; mended, every face shows its picture of the deck as it is
        columns = checks.findings
        held = frozenset(section for section, _ in checks.reading_blanks)  # (the parts with a region reading one)
        shown = {
            card.index: {
                side: self._on_screen(card, side, shown_before.get(card.index), _section(card, side) in held)
                for side in SIDES
            }
            for card in inputs
        }
        wanted: dict[int, list[str]] = {}
        planned: set[str] = set()
        for card in inputs:
            for side, digest in zip(SIDES, (card.front_digest, card.back_digest)):
                if digest is not None and digest not in self._pictures and digest not in planned:
                    planned.add(digest)
                    wanted.setdefault(card.index, []).append(side)
        views = {
            card.index: self._view(
                card, shown[card.index], held, errors_before.get(card.index) if card.index in wanted else None
            )
            for card in inputs
        }
        snapshot = replace(
            before,
            version=before.version + 1,
            deck=deck,
            lines=lines,
            cards=tuple(views.values()),
            error=None,
            shared=(*columns, *self._shared),
            busy=bool(wanted),
            last_drawn=(),
            pending=sum(map(len, wanted.values())),
        )
        self._publish(snapshot)
        if wanted:
            self._draw(deck, views, wanted, snapshot, tuple(columns), held)
        self._forget_old_pictures()

    def _on_screen(
        self, card: CardInputs, side: str, before: dict[str, str | None] | None, held: bool = False
    ) -> str | None:
        """The picture to show for a face now: its own when drawn, else the last one shown (a
        face the card no longer has shows nothing); while the face is ``held`` (it reads a
        column no card has), the last one shown, even when its own was drawn."""
        digest = card.front_digest if side == "front" else card.back_digest
        if digest is None:
            return None
        kept = before.get(side) if before else None
        if digest in self._pictures and not (held and kept):
            return digest
        return kept

    def _view(
        self, card: CardInputs, shown: dict[str, str | None], held: frozenset, pending_error: InputError | None
    ) -> CardView:
        """A card with what the preflight found on its faces as they are now (a face drawn once
        for several cards is found once: its findings name this card); its error is the first
        of them, or, while a face is still to be drawn again, the one it had (once every face is
        drawn again, only what they were found to have: an art file mended clears its error)."""
        digests = [digest for digest in (card.front_digest, card.back_digest) if digest is not None]
        findings = tuple(_on(card, finding) for digest in digests for finding in self._found.get(digest, ()))
        files = tuple(
            file for digest in digests for file in self._files.get(digest) or (None,) * len(self._found.get(digest, ()))
        )
        kept = any(
            _section(card, side) in held and shown[side] not in (None, digest)
            for side, digest in zip(SIDES, (card.front_digest, card.back_digest))
        )
        error = next((finding for finding in findings if finding.error), None)
        if error is not None:
            problem = InputError(error.message, source=error.source, place=error.where())
            return CardView(card, shown, problem, findings, files, kept)
        return CardView(card, shown, pending_error, findings, files, kept)

    def _draw(
        self,
        deck: Deck,
        views: dict[int, CardView],
        wanted: dict[int, list[str]],
        snapshot: Snapshot,
        columns: tuple[Finding, ...],
        held: frozenset[tuple],
    ) -> None:
        """Draw the wanted faces, telling the pages as pictures arrive; every face of the deck
        with the same inputs shows the picture (and the findings) drawn once. A face the preflight
        finds an error on keeps the picture it had, and the card says the error; so does a face
        drawn by a part of the deck in ``held`` (a region of it reads a column no card has) that
        has a picture on screen.
        What that region makes of the blank (``art/.svg`` not found) is not its card's error: the
        preflight leaves it to the column's error, said once, for the region; the card's other
        errors in that region (an unknown icon beside the blank) are its own."""
        drawn: list[tuple[int, str]] = []
        failures = errors = 0
        told = time.monotonic()
        drawn_before = snapshot.drawn
        shared: list[Finding] = []

        def tell(busy: bool) -> None:
            nonlocal snapshot, told
            pending = sum(map(len, wanted.values())) - len(drawn) - failures
            snapshot = replace(
                snapshot,
                version=snapshot.version + 1,
                cards=tuple(views.values()),
                shared=(*columns, *self._shared),
                busy=busy,
                drawn=drawn_before + len(drawn),
                last_drawn=tuple(drawn),
                pending=max(0, pending) if busy else 0,
            )
            self._publish(snapshot)
            told = time.monotonic()

        try:
            for face in card_pictures(deck, {i: tuple(s) for i, s in wanted.items()}, picture_scale(deck), shared):
                self._shared = tuple(finding for finding in shared if finding.kind not in COLUMN_KINDS)
                view = views[face.index]
                digest = view.inputs.front_digest if face.side == "front" else view.inputs.back_digest
                assert digest is not None  # a face is drawn only when it has inputs
                findings = tuple(face.findings)  # (what a blank makes, the preflight leaves to the column's error)
                self._found[digest] = findings
                section, fields = (
                    (view.inputs.front, view.inputs.fields)
                    if face.side == "front"
                    else (view.inputs.back, view.inputs.back_fields)
                )
                self._files[digest] = tuple(file_at_fault(deck, section, fields, found) for found in findings)
                if face.picture is None:
                    failures += 1
                    errors += any(finding.error for finding in findings)
                else:
                    self._keep(digest, face.picture)
                    drawn.append((face.index, face.side))
                for other in views.values():
                    faces = (other.inputs.front_digest, other.inputs.back_digest)
                    if digest in faces:
                        card = other.inputs
                        shown = {s: self._on_screen(card, s, other.shown, _section(card, s) in held) for s in SIDES}
                        undrawn = any(d is not None and d not in self._found for d in faces)
                        views[card.index] = self._view(card, shown, held, other.error if undrawn else None)
                if errors >= MAX_CARD_ERRORS or self.changed.is_set():
                    break
                if time.monotonic() - told > PUBLISH_EVERY:
                    tell(True)
        except InputError as err:  # not one card's fault: the deck cannot be drawn as it is
            snapshot = replace(snapshot, error=err.located(source=str(self.path)))
        tell(False)

    def _keep(self, digest: str, picture) -> None:
        out = io.BytesIO()
        picture.save(out, format="PNG", compress_level=1)
        self._pictures[digest] = out.getvalue()

    def _forget_old_pictures(self) -> None:
        """Keep every picture on screen, and a few hundred others (most recent last)."""
        used = {digest for view in self.snapshot.cards for digest in view.shown.values() if digest}
        for digest in used:
            if digest in self._pictures:
                self._pictures.move_to_end(digest)
        spare = len(self._pictures) - len(used)
        for digest in list(self._pictures):
            if spare <= KEPT_PICTURES:
                break
            if digest not in used:
                del self._pictures[digest]
                spare -= 1
        for digest in [digest for digest in self._found if digest not in self._pictures and digest not in used]:
            del self._found[digest]  # (a face's findings go with its picture; a failed face's, once it is redrawn)
            self._files.pop(digest, None)
