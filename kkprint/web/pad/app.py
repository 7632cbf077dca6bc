"""The score pad: pages for the phones, and the JSON API they use.

Every answer about scores comes from :mod:`kkprint.scoring.scorers`, the same door the CLI uses, so a
page, ``POST /api/score/GAME`` and ``kkprint scorer GAME --json`` always agree. A phone changes one
field at a time (``POST /api/games/ID/fields``), saying what it saw there before, so a value typed
over one it never saw is refused rather than saved; every change is pushed to the other phones
(``/api/games/ID/events``), kept in the game's history and can be undone. Nothing a request sends
makes the server answer with a traceback: every refusal is a 4xx with ``{"error"}`` (or a page)
in the request's language.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sqlite3
import tempfile
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote, unquote

from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from kkprint.base import i18n
from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg, text, tr
from kkprint.base.phrases import japanese_phrases
from kkprint.scoring.scorers import SCORERS, GameScorer, score_json
from kkprint.web.app import HERE, TEMPLATES, create_web_app, language, page, read_json
from kkprint.web.pad import charts, forms, labels, stats
from kkprint.web.pad.fields import FieldError, parse_path
from kkprint.web.pad.live import Hub
from kkprint.web.pad.store import (
    MAX_TEXT,
    FieldChange,
    NothingToTake,
    SavedGame,
    Store,
    TallyTooLarge,
    TextTooLong,
    player_key,
    player_names,
)
from kkprint.web.security import LOCAL_HOSTS

KEY_COOKIE = "kkprint_key"
PLAYER_HEADER = "x-kkprint-player"  # the phone's player, percent-encoded (headers are Latin-1)
MAX_CHANGES = 64
VIEWS_KEPT = 512
LOG = logging.getLogger("kkprint.pad")
JAPANESE = re.compile("[\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]")  # kana, kanji, full-width forms
T = TypeVar("T")


class Pad:
    """The app's state: the store, who listens to which game, whether it listens beyond this
    machine, and its key."""

    def __init__(self, store: Store, lan: bool = False, key: str | None = None, address: str | None = None):
        self.store = store
        self.lan = lan
        self.key = key or secrets.token_urlsafe(16)
        self.address = address  # with --lan, how the phones reach it: http://192.168.1.5:8765
        self.hub = Hub()
        self._rules: dict[str, GameScorer] = {}
        self._views: OrderedDict[tuple[str, int, str, bool], dict] = OrderedDict()

    # -- scores ------------------------------------------------------------------------------

    def rules(self, game: str) -> GameScorer:
        """The game's scorer, loaded once (its definition is read from YAML)."""
        if game not in self._rules:
            self._rules[game] = SCORERS[game].load()
        return self._rules[game]

    def keyed(self, request: Request) -> bool:
        """Whether the phone may see the whole pad: always on this machine alone; with ``--lan``,
        when it has the key from the QR code. A phone given only a game's address sees that game."""
        if not self.lan:
            return True
        given = request.query_params.get("key") or request.cookies.get(KEY_COOKIE) or ""
        return bool(given) and secrets.compare_digest(given.encode(), self.key.encode())

    def view(self, saved: SavedGame, lang: str, keyed: bool = True) -> dict:
        """A saved game as the pages and the API see it: the tally, and its scores or what is
        wrong with it (with the field's place, so a page can point at it). Kept per version and
        language: fifty phones on one change score it once. The players' names link to their
        pages only for a phone that may open them (``keyed``)."""
        key = (saved.id, saved.version, lang, keyed)
        if key in self._views:
            self._views.move_to_end(key)
            return self._views[key]
        view: dict[str, Any] = {
            "id": saved.id,
            "game": saved.game,
            "version": saved.version,
            "name": saved.name,
            "finished": saved.finished is not None,
            "deleted": saved.deleted is not None,
            "tally": saved.tally,
            "result": None,
            "error": None,
            "html": "",
        }
        view["can_undo"], view["can_redo"] = self.store.can(saved.id)
        with i18n.using(lang):
            try:
                rules = self.rules(saved.game)
                result = rules.score(saved.tally, "tally")
                view["result"] = rules.as_json(result, lang)
                view["html"] = TEMPLATES.get_template("pad/results.html").render(
                    screen=rules.as_text(result, lang),
                    result=view["result"],
                    chart=charts.bars(saved.game, view["result"]),
                    ranked=sorted(view["result"]["players"], key=lambda p: -charts.score(p)),
                    score=charts.score,
                    person=_person_url if keyed else None,
                    breaks=_line_breaks(lang),
                    _=_gettext(lang),
                )
            except InputError as err:
                view["error"] = {
                    "message": err.render(lang, with_source=False),  # with the place, for the banner
                    "at_field": text(err.message, lang),  # without it, shown beside the field itself
                    "path": [str(p) for p in err.path] if err.path else None,
                }
        self._views[key] = view
        while len(self._views) > VIEWS_KEPT:
            self._views.popitem(last=False)
        return view

    def scored(self, saved: SavedGame) -> dict | None:
        """The game's ``--json`` object, or None while it does not score."""
        return self.view(saved, "en")["result"]

    # -- pages -------------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        lang = language(request)
        self._store(lang, self.store.purge_deleted)
        games = [(scorer.id, scorer.title.render(lang)) for scorer in SCORERS.values()]
        saved = [
            (game, SCORERS[game.game].title.render(lang), [name for name in player_names(game.tally) if name])
            for game in self.store.recent()
            if game.game in SCORERS
        ]
        deleted = [
            (game, SCORERS[game.game].title.render(lang)) for game in self.store.deleted() if game.game in SCORERS
        ]
        return self._page(
            request,
            "pad/index.html",
            lang,
            games=games,
            saved=saved,
            deleted=deleted,
            when=_when,
            players=self.store.players()[:12],
            person=_person_url,
        )

    async def game_page(self, request: Request) -> Response:
        lang = language(request)
        saved = self.store.get(request.path_params["id"])
        if saved is None or saved.game not in SCORERS:
            return self._missing(request, lang)
        view = self.view(saved, lang, self.keyed(request))
        context = {
            "saved": saved,
            "shape": forms.layout(saved.game, saved.tally),
            "view": view,
            "title": SCORERS[saved.game].title.render(lang),
            "players": forms.PLAYER_RANGE[saved.game],
            "share": f"{self.address}/g/{saved.id}" if self.lan and self.address else "",
            "lan": self.lan,
        }
        context.update(_parts(saved.game, lang))
        return self._page(request, f"pad/{saved.game}.html", lang, **context)

    async def players_page(self, request: Request) -> Response:
        lang = language(request)
        boards = [(scorer.id, scorer.title.render(lang)) for scorer in SCORERS.values()]
        known = [(name, _person_url(name), count) for _, name, count in self.store.players()]
        return self._page(request, "pad/players.html", lang, known=known, boards=boards)

    async def person_page(self, request: Request) -> Response:
        lang = language(request)
        key = player_key(request.path_params["name"])
        played = stats.plays(self.store, key, self.scored)
        if not played:
            return self._missing(request, lang, Msg("no games of a player of that name"))
        titles = {game: scorer.title.render(lang) for game, scorer in SCORERS.items()}
        records = stats.records(key, played)
        lines = {
            record.game: charts.timeline(
                [
                    (p.score, p.won, stats.day(p.when))
                    for p in played
                    if p.game == record.game and p.finished and p.score is not None
                ]
            )
            for record in records
        }
        return self._page(
            request,
            "pad/person.html",
            lang,
            name=played[-1].name,
            records=records,
            lines=lines,
            played=list(reversed(played)),
            titles=titles,
            day=stats.day,
        )

    async def leaderboard_page(self, request: Request) -> Response:
        lang = language(request)
        game = request.path_params["game"]
        if game_id(game) is None:
            return self._missing(request, lang, Msg("no scorer for '{name}'", name=game))
        if game_id(game) != game:  # (game ids may be written in any case: the page has one address)
            query = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(f"/leaderboard/{game_id(game)}{query}", status_code=308)
        rows = stats.leaderboard(self.store, game, self.scored)
        return self._page(
            request,
            "pad/leaderboard.html",
            lang,
            game=game,
            title=SCORERS[game].title.render(lang),
            rows=rows,
            person=_person_url,
        )

    async def manifest(self, request: Request) -> Response:
        """The web app manifest: the pad installed on a phone's home screen, in its language."""
        lang = language(request)
        body = {
            "name": tr("kkprint score pad", lang),
            "short_name": tr("Score pad", lang),
            "lang": lang,
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#fafafa",
            "theme_color": "#1f5fbf",
            "icons": [{"src": "/static/pad/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
        }
        return JSONResponse(body, media_type="application/manifest+json")

    async def service_worker(self, request: Request) -> Response:
        """The service worker, from the top of the site so that it may keep every page."""
        return FileResponse(
            HERE / "static" / "pad" / "sw.js", media_type="text/javascript", headers={"cache-control": "no-cache"}
        )

    def _page(self, request: Request, template: str, lang: str, **context) -> Response:
        return page(request, template, lang, keyed=self.keyed(request), **context)

    def _missing(self, request: Request, lang: str, why: Msg | None = None) -> Response:
        answer = self._page(request, "pad/missing.html", lang, why=(why or Msg("no such game")).render(lang))
        answer.status_code = 404
        return answer

    # -- API ---------------------------------------------------------------------------------

    async def score(self, request: Request) -> Response:
        asked = request.path_params["game"]
        lang = language(request)  # (a script that asks for none gets English, as without a locale)
        game = game_id(asked)
        if game is None:
            raise HTTPException(404, tr("no scorer for '{name}'", lang, name=asked))
        data = await read_json(request)
        with i18n.using(lang):
            try:
                return JSONResponse(score_json(game, data, tr("the request's body", lang), lang))
            except InputError as err:
                return JSONResponse({"error": err.render(lang)}, status_code=422)

    async def create(self, request: Request) -> Response:
        lang = language(request)
        body = await read_json(request)
        game = game_id(body.get("game")) if isinstance(body, dict) else None
        if game is None:
            raise HTTPException(422, tr("'game' must be one of {games}", lang, games=", ".join(SCORERS)))
        tally = forms.blank(game)
        if isinstance(body.get("tally"), dict):
            tally = forms.as_fields(game, body["tally"])
        saved = self._store(lang, lambda: self.store.create(game, tally, _by(request)), game)
        return JSONResponse({"url": f"/g/{saved.id}", **self.view(saved, lang, self.keyed(request))}, status_code=201)

    async def read(self, request: Request) -> Response:
        return JSONResponse(self.view(self._saved(request), language(request), self.keyed(request)))

    async def change(self, request: Request) -> Response:
        """A tally or a part of one, merged (``?replace=1``: put in its place) as one step."""
        lang = language(request)
        saved = self._saved(request, writing=True)
        patch = await read_json(request)
        if not isinstance(patch, dict):
            raise HTTPException(422, tr("a tally (or a part of one) is a JSON object", lang))
        replace = request.query_params.get("replace") in ("1", "true")
        patch = forms.as_fields(saved.game, patch)
        self._in_page_form(saved, lang, request)
        return self._changed(request, lambda: self.store.change(saved.id, patch, replace, _by(request)), saved.game)

    async def set_fields(self, request: Request) -> Response:
        """``{"changes": [{"path": …, "value": …, "base": …}]}``: each field set unless another
        phone changed it since this one saw ``base``; those come back in ``conflicts``."""
        lang = language(request)
        saved = self._saved(request, writing=True)
        body = await read_json(request)
        changes = body.get("changes") if isinstance(body, dict) else None
        if not isinstance(changes, list) or not 0 < len(changes) <= MAX_CHANGES:
            raise HTTPException(
                422, tr("'changes' is a list of 1 to {n} fields, each with its path and value", lang, n=MAX_CHANGES)
            )
        wanted = []
        for change in changes:
            if not isinstance(change, dict) or "path" not in change or "value" not in change:
                raise HTTPException(
                    422, tr("'changes' is a list of 1 to {n} fields, each with its path and value", lang, n=MAX_CHANGES)
                )
            try:
                path = parse_path(change["path"])
            except FieldError as err:
                raise HTTPException(422, err.message.render(lang)) from None
            wanted.append(FieldChange(path, change["value"], change.get("base"), "base" in change))
        self._in_page_form(saved, lang, request)
        outcome = self._store(lang, lambda: self.store.set_fields(saved.id, wanted, _by(request)), saved.game)
        if outcome is None:
            raise HTTPException(404, tr("no such game", lang))
        changed, conflicts = outcome
        if changed.version != saved.version:
            self.hub.publish(saved.id)
        return JSONResponse(
            {
                **self.view(changed, lang, self.keyed(request)),
                "conflicts": [{"path": ".".join(map(str, path)), "value": value} for path, value in conflicts],
            }
        )

    async def undo(self, request: Request) -> Response:
        saved = self._saved(request, writing=True)
        await read_json(request)
        return self._changed(request, lambda: self.store.undo(saved.id, _by(request)))

    async def redo(self, request: Request) -> Response:
        saved = self._saved(request, writing=True)
        await read_json(request)
        return self._changed(request, lambda: self.store.redo(saved.id, _by(request)))

    async def history(self, request: Request) -> Response:
        """The game's changes, the latest first, each field named in the reader's language."""
        lang = language(request)
        saved = self._saved(request)
        steps = self.store.history(saved.id)
        tally = saved.tally
        return JSONResponse(
            {
                "steps": [
                    {
                        "seq": step.seq,
                        "at": step.at,
                        "time": time.strftime("%H:%M:%S", time.localtime(step.at)),
                        "by": step.by,
                        "state": step.state,
                        "undone_by": step.undone_by,
                        "changes": [
                            {
                                "label": labels.describe(saved.game, tuple(path), tally, lang),
                                "before": labels.value(saved.game, tuple(path), before, tally),
                                "after": labels.value(saved.game, tuple(path), after, tally),
                            }
                            for path, before, after in step.fields
                        ],
                    }
                    for step in steps
                ]
            }
        )

    async def describe(self, request: Request) -> Response:
        """``{"name": …, "finished": true|false}``: the game renamed, or marked finished."""
        lang = language(request)
        saved = self._saved(request, writing=True)
        body = await read_json(request)
        name = body.get("name") if isinstance(body, dict) else None
        finished = body.get("finished") if isinstance(body, dict) else None
        if (name is not None and not isinstance(name, str)) or (
            finished is not None and not isinstance(finished, bool)
        ):
            raise HTTPException(422, tr("'name' is a text and 'finished' is true or false", lang))
        return self._changed(request, lambda: self.store.describe(saved.id, name=name, finished=finished))

    async def delete(self, request: Request) -> Response:
        saved = self._saved(request, writing=True)
        return self._changed(request, lambda: self.store.delete(saved.id))

    async def restore(self, request: Request) -> Response:
        saved = self._saved(request)
        await read_json(request)
        return self._changed(request, lambda: self.store.restore(saved.id))

    async def players(self, request: Request) -> Response:
        lang = language(request)
        saved = self._saved(request, writing=True)
        body = await read_json(request)
        wanted = body.get("count") if isinstance(body, dict) else None
        if not isinstance(wanted, int) or isinstance(wanted, bool):
            raise HTTPException(422, tr("'count' must be a whole number", lang))
        return self._changed(
            request,
            lambda: self.store.transform(saved.id, lambda tally: forms.resize(saved.game, tally, wanted), _by(request)),
        )

    async def events(self, request: Request) -> Response:
        """The game as it is, then again after every change: Server-Sent Events."""
        import anyio
        from sse_starlette.sse import EventSourceResponse, ServerSentEvent

        lang = language(request)
        game_id = self._saved(request).id
        keyed = self.keyed(request)
        shutdown = anyio.Event()  # set by sse-starlette when the server stops: the stream ends cleanly

        async def stream():
            async for _ in self.hub.changes(game_id, shutdown):
                saved = self.store.get(game_id)
                if saved is None:
                    return
                data = json.dumps(self.view(saved, lang, keyed), ensure_ascii=False, separators=(",", ":"))
                yield ServerSentEvent(data=data, event="view", retry=2000)

        return EventSourceResponse(
            stream(), ping=15, headers={"cache-control": "no-store"}, shutdown_event=shutdown, shutdown_grace_period=1
        )

    async def export(self, request: Request) -> Response:
        import yaml

        saved = self._saved(request)
        body = yaml.safe_dump(saved.tally, allow_unicode=True, sort_keys=False)
        header = f"# {SCORERS[saved.game].title.render('en')}: kkprint scorer {saved.game} FILE\n"
        return Response(
            header + body,
            media_type="application/yaml; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="{saved.game}-tally.yaml"'},
        )

    async def chart(self, request: Request) -> Response:
        """The filled 決算チャート of a K&K game, as the CLI's --sheet writes it. A character the
        bundled font cannot draw (an emoji in a name) is printed as □ rather than refused."""
        lang = language(request)
        saved = self._saved(request)
        if saved.game != "kardinal":
            raise HTTPException(404, tr("only Kardinal & König has a chart", lang))
        paper = request.query_params.get("paper", "a4")
        if paper not in ("a4", "letter"):
            paper = "a4"
        from kkprint.games.kardinal import chart, service

        game = forms.kardinal_game()
        with i18n.using(lang):
            try:
                result = service.score(saved.tally, "tally", game)
            except InputError as err:
                raise HTTPException(422, err.render(lang)) from None
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "chart.pdf"
            chart.write_sheet(path, game, _printable(result), lang, paper)
            pdf = path.read_bytes()
        return Response(
            pdf,
            media_type="application/pdf",
            headers={"content-disposition": f'attachment; filename="kardinal-chart-{lang}-{paper}.pdf"'},
        )

    # -- helpers -----------------------------------------------------------------------------

    def _saved(self, request: Request, writing: bool = False) -> SavedGame:
        lang = language(request)
        saved = self.store.get(request.path_params["id"])
        if saved is None or saved.game not in SCORERS:
            raise HTTPException(404, tr("no such game", lang))
        if writing and saved.deleted is not None:
            raise HTTPException(410, tr("this game was deleted; bring it back from the list first", lang))
        return saved

    def _in_page_form(self, saved: SavedGame, lang: str, request: Request) -> None:
        """A game saved before the pad put every tally in its fields' form (a Culdcept square's
        ``card``) is put in that form, as a step of its own, before a field of it changes: else
        the field's new value would sit beside the old way of saying it."""
        if forms.as_fields(saved.game, saved.tally) != saved.tally:
            reshape = partial(forms.as_fields, saved.game)
            self._store(lang, lambda: self.store.transform(saved.id, reshape, _by(request)), saved.game)

    def _changed(self, request: Request, action: Callable[[], SavedGame | None], game: str = "") -> Response:
        """A change saved, pushed to the phones listening, and answered with the game."""
        lang = language(request)
        changed = self._store(lang, action, game)
        if changed is None:
            raise HTTPException(404, tr("no such game", lang))
        self.hub.publish(changed.id)
        return JSONResponse(self.view(changed, lang, self.keyed(request)))

    @staticmethod
    def _store(lang: str, action: Callable[[], T], game: str = "") -> T:
        """The store's refusals as answers in the reader's language (a place in ``game``'s words);
        a disk that cannot take the change is one line in the log and a 507 (nothing
        half-written: SQLite rolled it back)."""
        try:
            return action()
        except TallyTooLarge:
            raise HTTPException(413, tr("the tally is larger than {n} bytes", lang, n=64 * 1024)) from None
        except TextTooLong as err:
            place = labels.describe(game, err.path, {}, lang)
            raise HTTPException(422, tr("{place}: at most {n} characters", lang, place=place, n=MAX_TEXT)) from None
        except NothingToTake as err:
            words = tr("nothing to undo", lang) if str(err) == "undo" else tr("nothing to redo", lang)
            raise HTTPException(409, words) from None
        except FieldError as err:
            raise HTTPException(422, err.message.render(lang)) from None
        except sqlite3.Error as err:
            LOG.warning("kkprint: the saved-games file could not be written: %s", " ".join(str(err).split()))
            if "full" in str(err):
                raise HTTPException(507, tr("the disk is full: this change was not saved", lang)) from None
            raise HTTPException(503, tr("the saved-games file could not be written; try again", lang)) from None


def game_id(asked: object) -> str | None:
    """The game a page or a request names, written in any case (as on the command line), or
    None when no scorer has that id."""
    if not isinstance(asked, str) or asked.lower() not in SCORERS:
        return None
    return asked.lower()


def _gettext(lang: str) -> Callable[..., str]:
    def gettext(msgid: str, **values) -> str:
        return tr(msgid, lang, **values)

    return gettext


def _line_breaks(lang: str) -> Callable[[object], Markup]:
    """A result table's cell as HTML whose lines break only where a reader's would, so that the
    table fits a phone without a word cut. Japanese breaks between its phrases, as BudouX reads
    them (the paper and the terminal break it there too): ``<wbr>`` under ``word-break:
    keep-all`` ("国（山札の枚数）" was one line 98 px wide, and the third player's column of a K&K
    result ran off a 360 px phone). A count and its points ("5/4 → 8+4") may take two lines,
    broken after the arrow and never before it (a no-break space before it, in a ``pair`` that
    may wrap where the other cells do not). Every piece is escaped: player names are cells too."""

    def broken(cell: object) -> Markup:
        words = str(cell)
        if lang == "ja" and JAPANESE.search(words):
            html = Markup("<wbr>").join(escape(phrase) for phrase in japanese_phrases(words))
        else:
            html = escape(words)
        if " → " in words:  # (a phrase's break before the arrow, BudouX's, taken out too)
            pair = html.replace(Markup("<wbr> → "), Markup(" → ")).replace(" → ", Markup("\u00a0→ "))
            return Markup('<span class="pair">{}</span>').format(pair)
        return html

    return broken


def _by(request: Request) -> str:
    """The phone's player, as the page says (a header, percent-encoded), cut to a name's length."""
    raw = unquote(request.headers.get(PLAYER_HEADER, ""), errors="replace")
    return "".join(c for c in raw if c.isprintable())[:40].strip()


def _person_url(name: str) -> str:
    return "/players/" + quote(player_key(name), safe="")


def _printable(result):
    """The K&K result with each name drawable by the bundled font: a run of characters it has no
    glyph for becomes one □ (the chart is paper: better a box than no sheet)."""
    from dataclasses import replace

    from kkprint.engine.fonts import bundled_coverage

    have = bundled_coverage()

    def drawable(name: str) -> str:
        kept: list[str] = []
        for c in name:
            if c in "\u200d\ufe0e\ufe0f":  # joiners and emoji selectors: parts of what is replaced
                continue
            if c in have:
                kept.append(c)
            elif not kept or kept[-1] != "\0":
                kept.append("\0")
        return "".join(kept).replace("\0", "□")

    return replace(
        result,
        players=[replace(p, name=drawable(p.name)) for p in result.players],
        winners=[drawable(w) for w in result.winners],
    )


def _parts(game: str, lang: str) -> dict:
    """The fixed parts of a game's page, in the reader's language."""
    if game == "kardinal":
        return {"lands": [(land.id, land.names(lang), land.value) for land in forms.kardinal_game().lands]}
    if game == "webofpower":
        from kkprint.games.webofpower.model import load_map

        grid = load_map()
        return {
            "grid": grid.grid,
            "symbols": [s.mark for s in grid.symbols],
            "territories": [(letter, t.names(lang)) for letter, t in grid.territories.items()],
        }
    if game == "webofpower-board":
        from kkprint.games.webofpower.model import load_board

        return {"alliance_count": load_board().alliances}
    if game == "culdcept":
        return {"ring": forms.ring()}
    return {}


def _when(seconds: float) -> str:
    """When a game was last changed, in this computer's time, as a phone shows it in a list."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


class LanGuard:
    """With ``--lan``, the list of games, the players' pages and the making of new games need the
    server's key (from the QR code; kept in a cookie). A game's own address needs nothing more:
    its id is a token nobody can guess. A guest without the key is told so in their language, on
    a page (or in ``{"error"}`` for the API)."""

    OPEN = ("/g/", "/api/games/", "/static/", "/sw.js", "/manifest.webmanifest")

    def __init__(self, app, pad: Pad):
        self.app, self.pad = app, pad

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not self.pad.lan:
            return await self.app(scope, receive, send)
        request = Request(scope)
        path = scope["path"]
        if path.startswith(self.OPEN) and path != "/api/games/":
            return await self.app(scope, receive, send)
        if not self.pad.keyed(request):
            lang = language(request)
            if path.startswith("/api/"):
                words = tr("this score pad needs the address from its QR code", lang)
                response: Response = JSONResponse({"error": words}, status_code=403)
            else:
                response = page(request, "pad/key.html", lang, lan=True)
                response.status_code = 403
            return await response(scope, receive, send)
        if request.query_params.get("key"):

            async def send_with_cookie(message):
                if message["type"] == "http.response.start":
                    cookie = f"{KEY_COOKIE}={self.pad.key}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000"
                    message.setdefault("headers", []).append((b"set-cookie", cookie.encode()))
                await send(message)

            return await self.app(scope, receive, send_with_cookie)
        return await self.app(scope, receive, send)


def create_app(
    store: Store,
    *,
    lan: bool = False,
    key: str | None = None,
    hosts: Iterable[str] = LOCAL_HOSTS,
    address: str | None = None,
) -> Starlette:
    """The pad's app; ``hosts`` are the names it answers to (with ``--lan``, this machine's
    address on the table's network besides the local ones), ``address`` how the phones reach it
    (``http://HOST:PORT``, as in the QR code): a game's page gives its address with it."""
    pad = Pad(store, lan, key, address)
    routes = [
        Route("/", pad.index),
        Route("/g/{id}", pad.game_page),
        Route("/g/{id}/tally.yaml", pad.export),
        Route("/g/{id}/chart.pdf", pad.chart),
        Route("/players", pad.players_page),
        Route("/players/{name:path}", pad.person_page),
        Route("/leaderboard/{game}", pad.leaderboard_page),
        Route("/manifest.webmanifest", pad.manifest),
        Route("/sw.js", pad.service_worker),
        Route("/api/score/{game}", pad.score, methods=["POST"]),
        Route("/api/games", pad.create, methods=["POST"]),
        Route("/api/games/{id}", pad.read, methods=["GET"]),
        Route("/api/games/{id}", pad.change, methods=["PUT"]),
        Route("/api/games/{id}", pad.describe, methods=["PATCH"]),
        Route("/api/games/{id}", pad.delete, methods=["DELETE"]),
        Route("/api/games/{id}/fields", pad.set_fields, methods=["POST"]),
        Route("/api/games/{id}/undo", pad.undo, methods=["POST"]),
        Route("/api/games/{id}/redo", pad.redo, methods=["POST"]),
        Route("/api/games/{id}/restore", pad.restore, methods=["POST"]),
        Route("/api/games/{id}/history", pad.history, methods=["GET"]),
        Route("/api/games/{id}/events", pad.events, methods=["GET"]),
        Route("/api/games/{id}/players", pad.players, methods=["POST"]),
    ]
    app = create_web_app(routes, hosts=hosts, middleware=[Middleware(LanGuard, pad=pad)])
    app.state.pad = pad
    return app
