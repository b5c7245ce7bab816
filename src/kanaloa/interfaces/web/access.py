"""The access token of a server that other machines can reach (docs/web.md "At the table, from a phone").

``kanaloa serve`` on an address other than loopback makes a random token
and prints the address with it; ``AccessGate``, an ASGI middleware around
the whole app, then lets a request through only when it carries the token,
in one of three places:

- the query, ``?token=TOKEN``: the address printed at start-up (and its QR
  code).  A GET or HEAD is answered with a cookie that holds the token and a
  page that refreshes at once to the same address without it, replacing
  itself in the tab's history, so the token leaves the address bar and the
  history and is never sent in the query again.  Not with a 303: a browser
  sends no ``SameSite=Strict`` cookie on the redirect of a visit another
  site's page started (a link in a message, a page that opens the QR code's
  link), nor when that page is reloaded, while it does on the visit a page
  of this site starts; and plain HTTP to a network address gets no
  ``Sec-Fetch-Site`` header that would tell the two apart;
- the cookie set so (``HttpOnly``, no script reads it; ``SameSite=Strict``,
  no other site's page sends it; its name carries the port, so two servers
  on one machine keep a cookie each);
- an ``Authorization: Bearer TOKEN`` header, for scripts.

A token is compared with ``secrets.compare_digest``.  Every other request,
whatever its path (the page, the API, the static files), is a 401 with
``{"error": "one line"}`` saying how to get in.  Of the three places, the
first that holds a token decides, in the order above: a wrong token in the
address is refused even with the right cookie (a mistake is shown, not
hidden), and the right one in the address replaces a cookie of an earlier
token.  A websocket (the app serves none) is
closed before it opens unless it carries the token the same ways; the
lifespan messages pass, as they carry no request.

Nothing here logs: the token is printed once, by the command, and the
error log of the app names a request's path, never its query.
"""

from __future__ import annotations

import html
import json
from collections.abc import Awaitable, Callable, MutableMapping
from secrets import compare_digest
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode

from starlette.requests import cookie_parser

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

QUERY_KEY = "token"
COOKIE_DAYS = 365  # a phone keeps its way in for a year (or until the server changes its token)
TOKEN_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
MIN_TOKEN_LENGTH = 16

HOW_TO_ENTER = "open the address with ?token= that kanaloa serve printed when it started (or scan its QR code)"
MISSING = f"this server asks for its access token: {HOW_TO_ENTER}"
WRONG_IN_QUERY = f"the access token in the address is not this server's: {HOW_TO_ENTER}"
WRONG_IN_HEADER = "the access token of the Authorization header is not this server's (the one printed at start-up)"
WRONG_IN_COOKIE = (f"the access token this browser kept is not this server's (it restarted with a new one?): "
                   f"{HOW_TO_ENTER}")


def check_token(token: str) -> str | None:
    """Why ``token`` cannot be an access token (a phrase), or None when it can: at least ``MIN_TOKEN_LENGTH``
    characters, each a letter, a digit, ``-`` or ``_`` (so it stands in an address as it is)."""
    if len(token) < MIN_TOKEN_LENGTH:
        return f"must be at least {MIN_TOKEN_LENGTH} characters long, not {len(token)}"
    if not set(token) <= TOKEN_CHARACTERS:
        return "must hold only letters, digits, '-' and '_'"
    return None


def cookie_name(scope: Scope) -> str:
    """The cookie that keeps the token for the server a request reached: one per port."""
    server = scope.get("server")
    port = server[1] if server and len(server) > 1 and server[1] is not None else 0
    return f"kanaloa-token-{port}"


class AccessGate:
    """ASGI middleware: ``app``'s requests pass only with ``token`` (module docstring)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        why = check_token(token)
        if why is not None:
            raise ValueError(f"access token: {why}")
        self.app = app
        self.token = token.encode("ascii")

    def matches(self, given: str) -> bool:
        return compare_digest(given.encode("utf-8", "surrogateescape"), self.token)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        in_query = [value for key, value in query if key == QUERY_KEY]
        headers: dict[str, str] = {}
        for raw_key, raw_value in scope.get("headers", []):
            key = raw_key.decode("latin-1").lower()
            value = raw_value.decode("latin-1")
            headers[key] = f"{headers[key]}; {value}" if key == "cookie" and key in headers else value
        refusal = self.refusal(scope, in_query, headers)
        if refusal is not None:
            await self.refuse(scope, send, refusal)
            return
        if in_query and scope["type"] == "http" and scope.get("method") in ("GET", "HEAD"):
            rest = [(key, value) for key, value in query if key != QUERY_KEY]
            await self.redirect(scope, send, rest)
            return
        await self.app(scope, receive, send)

    def refusal(self, scope: Scope, in_query: list[str], headers: dict[str, str]) -> str | None:
        """Why the request may not pass (a one-line message), or None when it carries the token."""
        if in_query:
            return None if all(self.matches(value) for value in in_query) else WRONG_IN_QUERY
        scheme, _, credentials = headers.get("authorization", "").strip().partition(" ")
        if scheme.lower() == "bearer":
            return None if self.matches(credentials.strip()) else WRONG_IN_HEADER
        kept = cookie_parser(headers.get("cookie", "")).get(cookie_name(scope))
        if kept is not None:
            return None if self.matches(kept) else WRONG_IN_COOKIE
        return MISSING

    async def refuse(self, scope: Scope, send: Send, message: str) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "access token needed"})
            return
        body = json.dumps({"error": message}).encode("utf-8")
        await send({"type": "http.response.start", "status": 401, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode("ascii")),
            (b"www-authenticate", b'Bearer realm="kanaloa"'), (b"cache-control", b"no-store")]})
        await send({"type": "http.response.body", "body": body})

    async def redirect(self, scope: Scope, send: Send, rest: list[tuple[str, str]]) -> None:
        """Keep the token in a cookie and send the browser on to the same address without it (the query's other
        keys kept), with a page that refreshes to it at once (module docstring: not a 3xx)."""
        raw_path = scope.get("raw_path")
        path = raw_path.decode("latin-1") if raw_path else quote(scope.get("path", "/"))
        path = "/" + path.lstrip("/")  # never "//host/...", which a browser would take for another site
        target = html.escape(path + (f"?{urlencode(rest)}" if rest else ""))
        cookie = (f"{cookie_name(scope)}={self.token.decode('ascii')}; Path=/; Max-Age={COOKIE_DAYS * 86400}; "
                  f"HttpOnly; SameSite=Strict")
        body = (f'<!doctype html>\n<meta charset="utf-8">\n<meta http-equiv="refresh" content="0; url={target}">\n'
                f'<title>kanaloa</title>\n<p><a href="{target}">Open kanaloa</a></p>\n').encode()
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode("ascii")),
            (b"set-cookie", cookie.encode("ascii")), (b"cache-control", b"no-store"),
            (b"referrer-policy", b"no-referrer")]})
        await send({"type": "http.response.body", "body": b"" if scope.get("method") == "HEAD" else body})


__all__ = ["MIN_TOKEN_LENGTH", "AccessGate", "check_token", "cookie_name"]
