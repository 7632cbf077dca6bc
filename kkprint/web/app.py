"""What every kkprint web page shares, whichever door it belongs to (the score pad, the deck
studio): the app factory with the security rules of :mod:`kkprint.web.security` around every
answer, the templates and static files, the reader's language, and bodies read within limits.

Handlers stay small and explicit (Starlette's own style): a request is read here, handed to the
features below (scoring, decks), and answered as JSON or as a page; anything unforeseen is a
one-line 500, never a traceback.
"""

from __future__ import annotations

import errno
import json
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from kkprint.base.errors import InputError
from kkprint.base.i18n import Msg, tr
from kkprint.web.security import LOCAL_HOSTS, Guard, Refusals

HERE = Path(__file__).parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))  # autoescapes .html
MAX_BODY = 64 * 1024
LANGS = ("ja", "en")


def language(request: Request) -> str:
    """``?lang=`` (remembered in a cookie), else the cookie, else the browser's first choice."""
    asked = request.query_params.get("lang") or request.cookies.get("lang")
    if asked in LANGS:
        return asked
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag[:2] in LANGS:
            return tag[:2]
    return "en"


async def read_body(request: Request) -> bytes:
    """The request's body, refused (413) past the limit — counted as it arrives, whatever the
    headers claim."""
    declared = request.headers.get("content-length")
    if declared and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise HTTPException(413, f"the body is limited to {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise HTTPException(413, f"the body is limited to {MAX_BODY} bytes")
    return bytes(body)


async def read_json(request: Request) -> Any:
    """The request's JSON body, refused (413/422) when too large or not JSON."""
    body = await read_body(request)
    try:
        return json.loads(body.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, json.JSONDecodeError, ValueError, RecursionError) as err:
        raise HTTPException(422, f"the body is not JSON: {' '.join(str(err).split())[:120]}") from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number")


def page(request: Request, name: str, lang: str, **context) -> Response:
    """The template ``name`` in the reader's language (``_`` in templates); ``?lang=`` is
    remembered in a cookie."""

    def gettext(msgid: str, **values) -> str:
        return tr(msgid, lang, **values)

    response = TEMPLATES.TemplateResponse(request, name, {"_": gettext, "lang": lang, **context})
    if request.query_params.get("lang") in LANGS:
        response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
    return response


async def _http_error(request: Request, exc: HTTPException) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)
    return HTMLResponse(
        f"<!doctype html><meta charset=utf-8><p>{exc.status_code}: {exc.detail}</p>", status_code=exc.status_code
    )


async def _unforeseen(request: Request, exc: Exception) -> Response:
    detail = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
    return JSONResponse({"error": f"internal error ({detail})"}, status_code=500)


def create_web_app(
    routes: Sequence[BaseRoute],
    *,
    hosts: Iterable[str] = LOCAL_HOSTS,
    middleware: Sequence[Middleware] = (),
    lifespan: Callable[[Starlette], AbstractAsyncContextManager[None]] | None = None,
    refusals: Refusals = Refusals(),  # noqa: B008 - frozen, never changed
) -> Starlette:
    """An app serving ``routes`` and the shared static files, with the security rules around
    everything (the outermost middleware) and errors answered in one line. ``lifespan`` is what
    runs beside the app while it serves (the studio's watching of a deck); ``refusals`` are the
    words a refused request is told."""
    return Starlette(
        lifespan=lifespan,
        routes=[*routes, Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")],
        middleware=[Middleware(Guard, language=language, hosts=hosts, refusals=refusals), *middleware],
        # Starlette's type says every handler takes any Exception; it calls each only with its own class
        exception_handlers={HTTPException: _http_error, Exception: _unforeseen},  # type: ignore[dict-item]  # see above
    )


def port_refused(port: int, err: OSError, source: str) -> InputError:
    """A port that cannot be listened on, said in one line (the pad's and the studio's)."""
    reasons: dict[int | None, Msg] = {
        errno.EADDRINUSE: Msg("another program is using it"),
        errno.EACCES: Msg("ports below 1024 need an administrator"),
    }
    reason = reasons.get(err.errno, err.strerror or str(err))
    return InputError(
        Msg("port {port} cannot be used ({reason}); choose another with --port", port=port, reason=reason),
        source=source,
    )
