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
import logging
import math
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from html import escape
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from kkprint.base.errors import InputError
from kkprint.base.i18n import N_, Msg, tr
from kkprint.web.security import LOCAL_HOSTS, Guard, Refusals

HERE = Path(__file__).parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))  # autoescapes .html
# a page's state in the order the API and the pushed updates give it: sorted (Jinja's default), a
# board whose regions were renamed out of alphabetical order looked like a game of another shape
TEMPLATES.env.policies["json.dumps_kwargs"] = {"sort_keys": False}
MAX_BODY = 64 * 1024
MAX_NUMBER_DIGITS = 30  # more than any count on a table; far below Python's 4,300-digit limit
LANGS = ("ja", "en")
LOG = logging.getLogger("kkprint.web")
# Starlette's own refusals, said in the reader's language by _http_error
N_("Not Found")
N_("Method Not Allowed")


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
    headers claim. A client that leaves mid-body is noted in one line of the log."""
    lang = language(request)
    declared = request.headers.get("content-length")
    if declared and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise HTTPException(413, tr("the body is limited to {n} bytes", lang, n=MAX_BODY))
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise HTTPException(413, tr("the body is limited to {n} bytes", lang, n=MAX_BODY))
    except ClientDisconnect:
        LOG.warning("kkprint: %s %s: the client left before sending its whole body", request.method, request.url.path)
        raise HTTPException(400, tr("the request ended before its body was complete", lang)) from None
    return bytes(body)


class _NotANumber(ValueError):
    pass


async def read_json(request: Request) -> Any:
    """The request's JSON body, refused (413/422) when too large or not JSON, or when it holds
    what no tally can: numbers beyond counting (``1e400``, a 5,000-digit integer) or text that is
    not text (a lone surrogate such as ``\\ud800``, which could be neither saved nor sent back)."""
    body = await read_body(request)
    lang = language(request)
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constant, parse_int=_int, parse_float=_float)
    except _NotANumber as err:
        raise HTTPException(
            422, tr("the body holds a number too large to count with: {number}", lang, number=str(err)[:40])
        ) from None
    except (UnicodeDecodeError, json.JSONDecodeError, ValueError, RecursionError) as err:
        where = (
            tr(" (line {line}, column {column})", lang, line=err.lineno, column=err.colno)
            if isinstance(err, json.JSONDecodeError)
            else ""
        )
        raise HTTPException(422, tr("the body is not JSON", lang) + where) from None
    bad = _lone_surrogate(data)
    if bad is not None:
        raise HTTPException(
            422, tr("the body holds U+{code:04X}, half of a character, which is not text", lang, code=ord(bad))
        )
    return data


def _no_constant(name: str):
    raise _NotANumber(name)


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _NotANumber(digits)
    return int(digits)


def _float(digits: str) -> float:
    number = float(digits)
    if not math.isfinite(number) or len(digits) > 2 * MAX_NUMBER_DIGITS:
        raise _NotANumber(digits)
    return number


def _lone_surrogate(value: Any) -> str | None:
    """The first lone surrogate in any string (or key) of ``value``, if there is one: the one
    thing JSON can carry that UTF-8 cannot."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as err:
            return value[err.start]
        return None
    items = [*value.keys(), *value.values()] if isinstance(value, dict) else value if isinstance(value, list) else ()
    return next((bad for item in items if (bad := _lone_surrogate(item)) is not None), None)


def page(request: Request, template: str, lang: str, /, **context) -> Response:
    """The template in the reader's language (``_`` in templates); ``?lang=`` is remembered in
    a cookie."""

    def gettext(msgid: str, **values) -> str:
        return tr(msgid, lang, **values)

    response = TEMPLATES.TemplateResponse(request, template, {"_": gettext, "lang": lang, **context})
    if request.query_params.get("lang") in LANGS:
        response.set_cookie("lang", lang, max_age=365 * 86400, samesite="lax")
    return response


async def _http_error(request: Request, exc: HTTPException) -> Response:
    lang = language(request)
    words = tr(exc.detail, lang)  # Starlette's own words are in the catalogue; ours come translated
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": words}, status_code=exc.status_code, headers=exc.headers)
    return HTMLResponse(
        f'<!doctype html><html lang="{lang}"><meta charset=utf-8><meta name="viewport" content="width=device-width">'
        f'<title>{exc.status_code}</title><p>{exc.status_code}: {escape(words)}</p><p><a href="/">kkprint</a></p>',
        status_code=exc.status_code,
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
    refusals: Refusals = Refusals(),  # noqa: B008 - a record nothing changes (mypy refuses it)
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
