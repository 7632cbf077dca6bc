"""What every page the pad serves must hold to, whatever the handler behind it does (SPEC §5.1).

A score pad listens on a table's Wi-Fi, where any page a phone opens can try to reach it. So:

- a request whose ``Host`` is not an address this server was started on is refused (421): a
  DNS-rebinding page (evil.example resolving to 127.0.0.1) reaches the socket but names its own
  host;
- a request that changes anything carries a JSON body (415 otherwise: an HTML form or a
  ``text/plain`` fetch, the two things a foreign page can send without asking, cannot) and, when
  the browser says where it comes from (``Origin``, ``Sec-Fetch-Site``), comes from this pad
  (403 otherwise);
- every answer forbids inline script, framing, MIME sniffing and referrers.

This is plain ASGI so that it wraps every answer, errors and static files included.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from starlette.requests import Request

from kkprint.base.i18n import N_, tr
from kkprint.base.records import record

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})

HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        b"font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


def host_name(host: str) -> str:
    """``Host`` without its port, brackets and letter case (``[::1]:8000`` → ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


@record
class Refusals:
    """What a refused request is told, in the words of the page that refuses it."""

    host: str = N_("this score pad does not answer to that address")
    origin: str = N_("a change must come from the score pad's own page")


STUDIO_REFUSALS = Refusals(
    N_("the deck studio does not answer to that address"), N_("a change must come from the deck studio's own page")
)


class Guard:
    """The rules above, around an ASGI app; ``hosts`` are the names this server answers to."""

    def __init__(
        self,
        app,
        language: Callable[[Request], str],
        hosts: Iterable[str] = LOCAL_HOSTS,
        refusals: Refusals = Refusals(),  # noqa: B008 - a record nothing changes (mypy refuses it)
    ):
        self.app = app
        self.language = language
        self.hosts = frozenset(host_name(h) for h in hosts)
        self.refusals = refusals

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}
        refusal = self.refusal(scope["method"], headers)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        if refusal:
            status, words = refusal
            return await _refuse(status, tr(words, self.language(Request(scope))), send_with_headers)
        return await self.app(scope, receive, send_with_headers)

    def refusal(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            return 421, self.refusals.host
        if method not in WRITES:
            return None
        origin = headers.get("origin")
        if origin is not None and origin.rstrip("/").lower() not in (
            f"http://{host}".lower(),
            f"https://{host}".lower(),
        ):
            return 403, self.refusals.origin
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, self.refusals.origin
        kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            return 415, N_("a change is sent as JSON (content-type: application/json)")
        return None


async def _refuse(status: int, words: str, send) -> None:
    body = json.dumps({"error": words}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
