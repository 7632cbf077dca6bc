"""The deck studio's page and the JSON it reads: the deck's cards, pushed to the page as Server-Sent
Events whenever the deck, its data or its art changes; one card with its regions, data row and
YAML lines; its pictures; and the sheets as they will print.

Nothing here writes: every route is a ``GET``. The app comes from :func:`kkprint.web.app.create_web_app`,
so the score pad's rules hold (a foreign ``Host`` is refused, every answer carries the security
headers, writes would need JSON from the studio's own page). Every text of the deck reaches the
page as JSON and is set there as text, never as markup.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kkprint.base.errors import InputError
from kkprint.base.i18n import Counted, Msg, Said, text, tr
from kkprint.base.pathnames import looks_like_path, shown
from kkprint.deck.build import deck_card_size
from kkprint.deck.expr import compile_condition, parse_ranges
from kkprint.deck.load import Deck
from kkprint.deck.preflight import Finding
from kkprint.deck.render import region_for_card
from kkprint.web.app import create_web_app, language, page
from kkprint.web.security import LOCAL_HOSTS, STUDIO_REFUSALS
from kkprint.web.studio.sheets import Sheets
from kkprint.web.studio.state import SIDES, CardView, Snapshot, Studio, section_layout
from kkprint.web.studio.watch import keep_watching

DIGEST = re.compile(r"^[0-9a-f]{32}$")
PICTURE_HEADERS = {"cache-control": "public, max-age=31536000, immutable"}  # a picture's name is its inputs


# Around what a message was given to say (a card's name, a value, a file's name: the user's own
# text) while it is put into words: the page isolates it (<bdi>), so a name written right to left,
# or with a mark that turns the text around (U+202E), leaves the rest of the line as it reads.
OPEN, CLOSE = "\ue000", "\ue001"
MARKS = re.compile(f"([{OPEN}{CLOSE}])")


def _marking(value):
    """``value`` with every text it was given between OPEN and CLOSE (a plain text is given whole)."""
    if isinstance(value, str):
        return OPEN + value.replace(OPEN, "").replace(CLOSE, "") + CLOSE
    if isinstance(value, Msg):
        marked = copy.copy(value)
        marked.values = {key: _marking(given) for key, given in value.values.items()}
        return marked
    return value  # (numbers; words kkprint has in every language)


def _marked(value: str | Said | None, lang: str) -> str:
    return text(_marking(value), lang) if value else ""


def _parts(marked: str) -> list[list]:
    """A marked text as the page sets it: ``[text, given]`` pieces, ``given`` for the user's text."""
    parts: list[list] = []
    depth = 0
    for piece in MARKS.split(marked):
        if piece == OPEN:
            depth += 1
        elif piece == CLOSE:
            depth = max(0, depth - 1)
        elif piece:
            parts.append([piece, depth > 0])
    return parts


def _plain(marked: str) -> str:
    return MARKS.sub("", marked)


def _problem(error: InputError, lang: str, index: int | None = None, *, message: str | None = None) -> dict:
    """An error as the page shows it: file, place (card, region, line) and message apart (each
    also in parts, the user's text apart), and as one line; a file named as every message
    names it (:func:`kkprint.base.pathnames.shown`). ``message``: the message, marked, when
    the error's is not all it says."""
    place = _marked(error.place, lang)
    message = _marked(error.message, lang) if message is None else message
    return {
        "file": _file_name(error.source, lang),
        "place": _plain(place) or None,
        "message": _plain(message),
        "place_parts": _parts(place),
        "message_parts": _parts(message),
        "line": error.render(lang),
        "card": index,
        "cards": [] if index is None else [index],
    }


def _file_name(source: str | Said | None, lang: str) -> str | None:
    if not source:
        return None
    if isinstance(source, str):
        return shown(source) if looks_like_path(source) else source
    return text(source, lang)


def _card_problem(view: CardView, lang: str, error: tuple[Finding, Path | None] | None = None) -> dict:
    """A card's error (its first, or ``error``: a finding and the file it is in) as the page
    shows it; one a file it draws has (an SVG that is not well formed) names that file, found
    by its real path as the face was drawn (:func:`kkprint.web.studio.state.file_at_fault`),
    not the deck, and says the rest as the file's own."""
    assert view.error is not None
    finding, path = error or next(iter(view.errors), (None, None))
    if finding is None or path is None or not isinstance(finding.message, Msg):
        return _problem(view.error, lang, view.inputs.index)
    name = finding.message.values.get("name")
    message = _marked(finding.message, lang)
    for said in (f"{OPEN}{name}{CLOSE}: ", f"{OPEN}{name}{CLOSE}："):  # (the file is said apart)
        message = message.removeprefix(said)
    problem = InputError(_plain(message), source=str(path), place=finding.where())
    return {**_problem(problem, lang, view.inputs.index, message=message), "wrong_file": str(path)}


def _card_problems(snapshot: Snapshot, lang: str) -> list[dict]:
    """The cards' errors: each card's first, and an error a file has (an SVG art file) once, for
    every card it is on (a card may have another error first)."""
    listed: list[dict] = []
    by_file: dict[tuple[str, str], dict] = {}
    for view in snapshot.cards:
        if view.error is None:
            continue
        problems = [_card_problem(view, lang, error) for error in view.errors] or [_card_problem(view, lang)]
        if "wrong_file" not in problems[0]:  # (its first error, as _card_problem picks it)
            listed.append(problems[0])
        for problem in problems:
            if "wrong_file" not in problem:
                continue
            key = (problem.pop("wrong_file"), problem["message"])
            first = by_file.setdefault(key, problem)
            if first is problem:
                listed.append(problem)
            elif view.inputs.index not in first["cards"]:
                first["cards"].append(view.inputs.index)
    for (path, _), first in by_file.items():  # a file's error on several cards: said once, for them all
        if len(first["cards"]) > 1:
            count = len(first["cards"])
            place = Counted("used on {count} card", "used on {count} cards", count, count=count)
            first["place"] = text(place, lang)
            first["place_parts"] = _parts(_marked(place, lang))
            first["line"] = InputError(first["message"], source=path, place=place).render(lang)
    return listed


def _finding(finding: Finding, lang: str) -> dict:
    """A preflight finding as a card opened large lists it: where on the card (region and its
    line, or the back) and what, as one line; its kind and region apart for the page to mark."""
    place, message = _marked(finding.where(with_card=False), lang), _marked(finding.message, lang)
    return {
        **finding.as_json(lang),
        "text": InputError(finding.message, place=finding.where(with_card=False)).render(lang, with_source=False),
        "parts": _parts(f"{place}: {message}" if place else message),
    }


def _title(fields: dict[str, str], number: int) -> str:
    """What a card is called on its tile: its name, else its first value, else its number."""
    return fields.get("name") or fields.get("title") or next((v for v in fields.values() if v), "") or f"#{number}"


def _section_name(section: tuple | None) -> str | None:
    return ".".join(section) if section else None


def _picture_url(digest: str | None) -> str | None:
    return f"/pictures/{digest}.png" if digest else None


def deck_json(studio: Studio, snapshot: Snapshot, lang: str) -> dict:
    """The whole deck as the grid shows it."""
    deck = snapshot.deck
    columns: dict[str, None] = {}
    for view in snapshot.cards:
        columns.update(dict.fromkeys(view.inputs.card.fields))
    size = deck_card_size(deck) if deck else None
    errors = [_problem(each, lang) for each in snapshot.error.each()] if snapshot.error else []  # (every region's)
    # a column no card has: an error of the deck, not of one card (the preflight's)
    errors += [_problem(_as_error(finding), lang) for finding in snapshot.shared if finding.error]
    errors += _card_problems(snapshot, lang)
    return {
        "version": snapshot.version,
        "busy": snapshot.busy,
        "pending": snapshot.pending,
        "drawn": snapshot.drawn,
        "last_drawn": [list(face) for face in snapshot.last_drawn],
        "file": shown(studio.path),
        "name": deck.spec.name if deck else None,
        "card": {"w": size.width_mm, "h": size.height_mm, "shape": size.shape.value, "corner": size.corner_mm}
        if size
        else None,
        "columns": list(columns),
        "layouts": list(dict.fromkeys(_layout_name(view) for view in snapshot.cards)),
        "cards": [_card_summary(view, lang) for view in snapshot.cards],
        "errors": errors,
    }


def _as_error(finding: Finding) -> InputError:
    return InputError(finding.message, source=finding.source, place=finding.where())


def _layout_name(view: CardView) -> str:
    return view.inputs.front[-1]


def _card_summary(view: CardView, lang: str) -> dict:
    card = view.inputs
    return {
        "index": card.index,
        "number": card.number,
        "count": card.card.count,
        "title": _title(card.card.fields, card.number),
        "layout": _layout_name(view),
        "fields": card.card.fields,
        "front": _picture_url(view.shown["front"]),
        "back": _picture_url(view.shown["back"]),
        "has_back": card.back is not None,
        "current": view.current,
        "held": view.held,  # (kept as it last drew while the deck reads a column no card has)
        "error": view.error.render(lang) if view.error else None,
        "warnings": sum(1 for finding in view.findings if not finding.error),  # (the card's own)
    }


def _regions(snapshot: Snapshot, section: tuple, fields: dict[str, str], number: int, lang: str) -> list[dict]:
    """A face's regions: where each lies (mm from the card's top left), whether it prints on this
    card and why not, and the line of the deck file it is written on."""
    deck = snapshot.deck
    assert deck is not None  # a card is only shown from a deck that was read
    tables = deck.tables
    layout = section_layout(deck, section)
    found = []
    for name, written in layout.items():
        why: str | None
        try:  # where this card puts it (positions and sizes may come from its fields)
            region = region_for_card(written, fields, tables)
        except InputError as err:
            region, drawn, why = written, False, err.render(lang)
        else:
            drawn, why = _prints(region, fields, tables, number, lang)
        where, line = _written(deck, section, name)
        found.append(
            {
                "name": name,
                "type": written.type,
                "box": [region.x, region.y, region.w, region.h],
                "rotation": region.rotation,
                "drawn": drawn,
                "why": why,
                "section": where,
                "line": line,
                "source": _written_block(snapshot.lines, line),
            }
        )
    return found


def _prints(region, fields: dict[str, str], tables, number: int, lang: str) -> tuple[bool, str | None]:
    """Whether a region prints on this card, and why not: its ``cards:`` or its ``when:``."""
    if region.cards is not None and number not in parse_ranges(region.cards):
        return False, f"cards: {region.cards}"
    if region.when is None:
        return True, None
    try:
        drawn = compile_condition(region.when).holds(fields, tables)
    except InputError as err:
        return False, err.render(lang)
    return drawn, None if drawn else f"when: {region.when}"


def _written(deck: Deck, section: tuple, name: str) -> tuple[str | None, int | None]:
    """Where a region is written in the deck file: in its own section, else in a layout it
    extends (a region of a built-in template is written in none)."""
    line = deck.lines.get((*section, name))
    if not line:
        return None, None
    return _section_name(deck.written_in[(*section, name)]), line


def _written_block(lines: tuple[str, ...], line: int | None, most: int = 12) -> str | None:
    """A region as the deck file writes it: its line and the lines that continue it (indented
    deeper), at most ``most`` of them."""
    if not line or line > len(lines):
        return None
    first = lines[line - 1]
    indent = len(first) - len(first.lstrip())
    block = [first.strip()]
    for following in lines[line : line - 1 + most]:
        if not following.strip() or len(following) - len(following.lstrip()) <= indent:
            break
        block.append(following.rstrip()[indent:])
    return "\n".join(block)


def card_json(snapshot: Snapshot, index: int, lang: str) -> dict | None:
    """One card opened large: both faces with their regions, its data row and its problems."""
    view = snapshot.card(index)
    if view is None or snapshot.deck is None:
        return None
    card = view.inputs
    faces: dict[str, dict | None] = {}
    for side, section, fields in zip(SIDES, (card.front, card.back), (card.fields, card.back_fields)):
        if section is None or fields is None:
            faces[side] = None
            continue
        try:
            regions = _regions(snapshot, section, fields, card.number, lang)
        except KeyError:  # a layout the card names but the deck lacks: the errors say so
            regions = []
        faces[side] = {
            "picture": _picture_url(view.shown[side]),
            "section": _section_name(section),
            "regions": regions,
        }
    size = deck_card_size(snapshot.deck)
    return {
        "index": card.index,
        "number": card.number,
        "count": card.card.count,
        "title": _title(card.card.fields, card.number),
        "origin": text(card.card.origin, lang),
        "fields": [[key, value] for key, value in card.card.fields.items()],
        "card": {"w": size.width_mm, "h": size.height_mm, "shape": size.shape.value, "corner": size.corner_mm},
        "front": faces["front"],
        "back": faces["back"],
        "error": {k: v for k, v in _card_problem(view, lang).items() if k != "wrong_file"} if view.error else None,
        # what the preflight says of this card, as kkprint check would (errors first)
        "warnings": [
            _finding(finding, lang)
            for finding in sorted(snapshot.card_findings(view), key=lambda finding: not finding.error)
        ],
    }


class Events(EventSourceResponse):
    """Server-Sent Events whose stream, when the server shuts down, is ended as a response
    should be (sse-starlette just stops, and uvicorn would say on the terminal that a response
    was left unfinished)."""

    async def __call__(self, scope, receive, send) -> None:
        finished = False

        async def noting(message) -> None:
            nonlocal finished
            finished = finished or (message["type"] == "http.response.body" and not message.get("more_body"))
            await send(message)

        await super().__call__(scope, receive, noting)
        if not finished:
            with contextlib.suppress(Exception):  # a page already gone cannot be told
                await send({"type": "http.response.body", "body": b"", "more_body": False})


class StudioPages:
    """The routes, around one :class:`Studio`."""

    def __init__(self, studio: Studio, sheets: Sheets):
        self.studio = studio
        self.sheets = sheets

    async def index(self, request: Request) -> Response:
        lang = language(request)
        return page(request, "studio/index.html", lang, deck=self.studio.path.name)

    async def deck(self, request: Request) -> Response:
        return JSONResponse(deck_json(self.studio, self.studio.snapshot, language(request)))

    async def events(self, request: Request) -> Response:
        """The deck now, then again after every change, as Server-Sent Events (``deck``)."""
        lang = language(request)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[int] = asyncio.Queue()

        def told(version: int) -> None:  # (from the worker thread)
            loop.call_soon_threadsafe(queue.put_nowait, version)

        stop = self.studio.subscribe(told)

        async def stream() -> AsyncIterator[dict]:
            try:
                while True:
                    snapshot = self.studio.snapshot
                    yield {"event": "deck", "data": json.dumps(deck_json(self.studio, snapshot, lang))}
                    version = await queue.get()
                    while not queue.empty():  # only the latest matters
                        version = queue.get_nowait()
                    del version
            finally:
                stop()

        return Events(stream(), ping=15, send_timeout=10)

    async def card(self, request: Request) -> Response:
        lang = language(request)
        found = card_json(self.studio.snapshot, request.path_params["index"], lang)
        if found is None:
            return JSONResponse({"error": tr("no such card in the deck", lang)}, status_code=404)
        return JSONResponse(found)

    async def picture(self, request: Request) -> Response:
        digest = request.path_params["digest"]
        found = self.studio.picture(digest) if DIGEST.match(digest) else None
        if found is None:
            return Response(status_code=404)
        return Response(found, media_type="image/png", headers=PICTURE_HEADERS)

    async def sheet_list(self, request: Request) -> Response:
        lang = language(request)
        try:
            found = await self.sheets.pages(
                request.query_params.get("paper", ""), request.query_params.get("backs", ""), lang
            )
        except InputError as err:
            return JSONResponse({"error": err.render(lang)}, status_code=422)
        return JSONResponse(found)

    async def sheet_page(self, request: Request) -> Response:
        found = await self.sheets.picture(request.path_params["key"], request.path_params["page"])
        if found is None:
            return Response(status_code=404)
        return Response(found, media_type="image/png", headers=PICTURE_HEADERS)


def create_app(studio: Studio, *, watch: bool = True, hosts=LOCAL_HOSTS) -> Starlette:
    """The studio's app. With ``watch``, its life draws the deck and watches its folder."""
    sheets = Sheets(studio)
    pages = StudioPages(studio, sheets)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(keep_watching(studio, sheets.worker, watch=watch))
        try:
            yield
        finally:
            studio.changed.set()  # a refresh under way stops at its next picture
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            sheets.close()

    routes = [
        Route("/", pages.index),
        Route("/api/deck", pages.deck),
        Route("/api/events", pages.events),
        Route("/api/cards/{index:int}", pages.card),
        Route("/api/sheets", pages.sheet_list),
        Route("/pictures/{digest}.png", pages.picture),
        Route("/sheets/{key}/{page:int}.png", pages.sheet_page),
    ]
    return create_web_app(routes, hosts=hosts, lifespan=lifespan, refusals=STUDIO_REFUSALS)
