"""The score pad: pages for the phones, and the JSON API they use.

Every answer about scores comes from :mod:`kkprint.scoring.scorers`, the same door the CLI uses, so a
page, ``POST /api/score/GAME`` and ``kkprint scorer GAME --json`` always agree. Nothing a
request sends can make the server answer with a traceback: bad tallies are 422 with the place
named, bodies are limited in size, and anything unforeseen is a one-line 500.
"""

from __future__ import annotations

import secrets
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from kkprint.base import i18n
from kkprint.base.errors import InputError
from kkprint.base.i18n import text
from kkprint.scoring.scorers import SCORERS, score_json
from kkprint.web.app import LANGS, TEMPLATES, create_web_app, language, page, read_json
from kkprint.web.pad import forms
from kkprint.web.pad.store import SavedGame, Store, TallyTooLarge
from kkprint.web.security import LOCAL_HOSTS

KEY_COOKIE = "kkprint_key"


class Pad:
    """The app's state: the store, whether it listens beyond this machine, and its key."""

    def __init__(self, store: Store, lan: bool = False, key: str | None = None):
        self.store = store
        self.lan = lan
        self.key = key or secrets.token_urlsafe(16)

    # -- pages -------------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        lang = language(request)
        games = [(scorer.id, scorer.title.render(lang)) for scorer in SCORERS.values()]
        saved = [
            (game, SCORERS[game.game].title.render(lang), _names(game.tally))
            for game in self.store.recent()
            if game.game in SCORERS
        ]
        return self._page(request, "pad/index.html", lang, games=games, saved=saved, when=_when)

    async def game_page(self, request: Request) -> Response:
        saved = self._saved(request)
        lang = language(request)
        view = self._view(saved, lang)
        context = {
            "saved": saved,
            "shape": forms.layout(saved.game, saved.tally),
            "view": view,
            "title": SCORERS[saved.game].title.render(lang),
            "players": forms.PLAYER_RANGE[saved.game],
        }
        context.update(self._parts(saved.game, lang))
        return self._page(request, f"pad/{saved.game}.html", lang, **context)

    def _parts(self, game: str, lang: str) -> dict:
        """The fixed parts of a game's page, in the reader's language."""
        if game == "kardinal":
            from kkprint.games.kardinal.model import DEFAULT_PATH, load_game

            kk = load_game(DEFAULT_PATH)
            return {"lands": [(land.id, land.names(lang), land.value) for land in kk.lands]}
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

    def _page(self, request: Request, name: str, lang: str, **context) -> Response:
        return page(request, name, lang, lan=self.lan, **context)

    # -- API ---------------------------------------------------------------------------------

    async def score(self, request: Request) -> Response:
        game = request.path_params["game"]
        if game not in SCORERS:
            return JSONResponse({"error": f"no scorer for {game!r}"}, status_code=404)
        asked = request.query_params.get("lang")
        lang = asked if asked in LANGS else "en"
        data = await read_json(request)
        with i18n.using(lang):
            try:
                return JSONResponse(score_json(game, data, "body", lang))
            except InputError as err:
                return JSONResponse({"error": err.render(lang)}, status_code=422)

    async def create(self, request: Request) -> Response:
        body = await read_json(request)
        game = body.get("game") if isinstance(body, dict) else None
        if game not in SCORERS:
            return JSONResponse({"error": f"'game' must be one of {', '.join(SCORERS)}"}, status_code=422)
        tally = forms.blank(game)
        if isinstance(body.get("tally"), dict):
            tally = body["tally"]
        saved = self._store(lambda: self.store.create(game, tally))
        return JSONResponse(
            {"id": saved.id, "url": f"/g/{saved.id}", **self._view(saved, language(request))}, status_code=201
        )

    async def read(self, request: Request) -> Response:
        return JSONResponse(self._view(self._saved(request), language(request)))

    async def change(self, request: Request) -> Response:
        saved = self._saved(request)
        patch = await read_json(request)
        if not isinstance(patch, dict):
            return JSONResponse({"error": "a tally (or a part of one) is a JSON object"}, status_code=422)
        replace = request.query_params.get("replace") in ("1", "true")
        changed = self._store(lambda: self.store.change(saved.id, patch, replace))
        return JSONResponse(self._view(changed, language(request)))

    async def players(self, request: Request) -> Response:
        saved = self._saved(request)
        body = await read_json(request)
        wanted = body.get("count") if isinstance(body, dict) else None
        if not isinstance(wanted, int) or isinstance(wanted, bool):
            return JSONResponse({"error": "'count' must be a whole number"}, status_code=422)
        tally = forms.resize(saved.game, saved.tally, wanted)
        changed = self._store(lambda: self.store.change(saved.id, tally, replace=True))
        return JSONResponse(self._view(changed, language(request)))

    async def export(self, request: Request) -> Response:
        import yaml

        saved = self._saved(request)
        text = yaml.safe_dump(saved.tally, allow_unicode=True, sort_keys=False)
        header = f"# {SCORERS[saved.game].title.render('en')}: kkprint scorer {saved.game} FILE\n"
        return Response(
            header + text,
            media_type="application/yaml; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="{saved.game}-tally.yaml"'},
        )

    async def chart(self, request: Request) -> Response:
        """The filled 決算チャート of a K&K game, as the CLI's --sheet writes it."""
        saved = self._saved(request)
        if saved.game != "kardinal":
            raise HTTPException(404, "only Kardinal & König has a chart")
        lang = language(request)
        paper = request.query_params.get("paper", "a4")
        if paper not in ("a4", "letter"):
            paper = "a4"
        from kkprint.games.kardinal import chart, service
        from kkprint.games.kardinal.model import DEFAULT_PATH, load_game

        game = load_game(DEFAULT_PATH)
        try:
            result = service.score(saved.tally, "tally", game)
        except InputError as err:
            return JSONResponse({"error": err.render(lang)}, status_code=422)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "chart.pdf"
            chart.write_sheet(path, game, result, lang, paper)
            pdf = path.read_bytes()
        return Response(
            pdf,
            media_type="application/pdf",
            headers={"content-disposition": f'attachment; filename="kardinal-chart-{lang}-{paper}.pdf"'},
        )

    # -- helpers -----------------------------------------------------------------------------

    def _saved(self, request: Request) -> SavedGame:
        saved = self.store.get(request.path_params["id"])
        if saved is None or saved.game not in SCORERS:
            raise HTTPException(404, "no such game")
        return saved

    @staticmethod
    def _store(action):
        try:
            return action()
        except TallyTooLarge as err:
            raise HTTPException(413, f"the tally is {err}") from None

    def _view(self, saved: SavedGame, lang: str) -> dict:
        """A saved game as the pages and the API see it: the tally, and its scores or what is
        wrong with it (with the field's place, so a page can point at it)."""
        view: dict[str, Any] = {
            "id": saved.id,
            "game": saved.game,
            "version": saved.version,
            "tally": saved.tally,
            "result": None,
            "error": None,
            "html": "",
        }
        with i18n.using(lang):
            try:
                rules = SCORERS[saved.game].load()
                result = rules.score(saved.tally, "tally")
                view["result"] = rules.as_json(result, lang)
                view["html"] = TEMPLATES.get_template("pad/results.html").render(screen=rules.as_text(result, lang))
            except InputError as err:
                view["error"] = {
                    "message": err.render(lang, with_source=False),  # with the place, for the banner
                    "at_field": text(err.message, lang),  # without it, shown beside the field itself
                    "path": [str(p) for p in err.path] if err.path else None,
                }
        return view


def _when(seconds: float) -> str:
    """When a game was last changed, in this computer's time, as a phone shows it in a list."""
    import time

    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def _names(tally: dict) -> str:
    players = tally.get("players") if isinstance(tally, dict) else None
    names = [p.get("name") if isinstance(p, dict) else p for p in players] if isinstance(players, list) else []
    return ", ".join(str(n) for n in names if isinstance(n, (str, int)) and str(n)) or "–"


class LanGuard:
    """With ``--lan``, the list of games and the making of new ones need the server's key (from
    the QR code; kept in a cookie). A game's own address needs nothing more: its id is a token
    nobody can guess."""

    OPEN = ("/g/", "/api/games/", "/static/")

    def __init__(self, app, pad: Pad):
        self.app, self.pad = app, pad

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not self.pad.lan:
            return await self.app(scope, receive, send)
        request = Request(scope)
        path = scope["path"]
        if path.startswith(self.OPEN) and path != "/api/games/":
            return await self.app(scope, receive, send)
        given = request.query_params.get("key") or request.cookies.get(KEY_COOKIE)
        if not given or not secrets.compare_digest(given, self.pad.key):
            response = JSONResponse({"error": "this score pad needs the address from its QR code"}, status_code=403)
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
    store: Store, *, lan: bool = False, key: str | None = None, hosts: Iterable[str] = LOCAL_HOSTS
) -> Starlette:
    """The pad's app; ``hosts`` are the names it answers to (with ``--lan``, this machine's
    address on the table's network besides the local ones)."""
    pad = Pad(store, lan, key)
    routes = [
        Route("/", pad.index),
        Route("/g/{id}", pad.game_page),
        Route("/g/{id}/tally.yaml", pad.export),
        Route("/g/{id}/chart.pdf", pad.chart),
        Route("/api/score/{game}", pad.score, methods=["POST"]),
        Route("/api/games", pad.create, methods=["POST"]),
        Route("/api/games/{id}", pad.read, methods=["GET"]),
        Route("/api/games/{id}", pad.change, methods=["PUT"]),
        Route("/api/games/{id}/players", pad.players, methods=["POST"]),
    ]
    app = create_web_app(routes, hosts=hosts, middleware=[Middleware(LanGuard, pad=pad)])
    app.state.pad = pad
    return app
