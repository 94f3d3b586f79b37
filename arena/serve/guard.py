"""What ``arena serve`` checks and adds around every request (a plain ASGI middleware).

- **Host names** (DNS rebinding): a page of another site whose name was made to resolve to this
  machine sends its own name as ``Host:``; only the names this server is known by are answered,
  anything else is ``400``. Known: every IP address literal (a browser sends one only when the
  address itself was typed: no rebinding is possible through it), ``localhost``, this machine's
  host name, and the names given (``arena serve --allow-host NAME``, for a reverse proxy or a name
  in DNS). A request without ``Host:`` is ``400`` too.
- **Headers of every answer**: a Content-Security-Policy that lets a page run only its own inline
  scripts (each named by its SHA-256, :func:`script_hashes`), load nothing from elsewhere, and
  connect only to this server (the event stream); plus ``nosniff``, no referrer, no framing.
- **No traceback**: an exception that escapes a route (a bug; malformed input is refused by the
  routes themselves with a 4xx) becomes a bare ``500`` and one line on stderr.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
import socket
import sys
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The policy of every answer; ``{scripts}`` is the hashes of the page's inline scripts (none
#: for what is not a page: then no script at all).
POLICY = ("default-src 'none'; script-src {scripts}; style-src 'unsafe-inline'; img-src 'self' data:; "
          "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY")]
# An inline script the browser runs: a <script> without src and without a type other than JavaScript
# (the report's data blocks are type="application/json": never run, no hash needed).
_SCRIPT = re.compile(rb"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.DOTALL | re.IGNORECASE)
_NOT_RUN = re.compile(rb"""\b(src\s*=|type\s*=\s*["']?(?!text/javascript|module)[a-z])""", re.IGNORECASE)


def script_hashes(html: bytes) -> list[str]:
    """The CSP source of each inline script ``html`` runs (``'sha256-...'``), in order, without
    repeats."""
    seen: list[str] = []
    for match in _SCRIPT.finditer(html):
        if _NOT_RUN.search(match["attrs"]):
            continue
        source = "'sha256-" + base64.b64encode(hashlib.sha256(match["body"]).digest()).decode() + "'"
        if source not in seen:
            seen.append(source)
    return seen


def policy_for(html: bytes | None) -> str:
    """The Content-Security-Policy of an answer (``html``: a page's bytes; None: not a page)."""
    hashes = script_hashes(html) if html else []
    return POLICY.format(scripts=" ".join(hashes) or "'none'")


def known_names(extra: Iterable[str] = ()) -> frozenset[str]:
    """The host names answered besides IP literals: ``localhost``, this machine's names, ``extra``
    (all lower case)."""
    names = {"localhost", *(name.lower().rstrip(".") for name in extra)}
    try:
        host = socket.gethostname()
        names.update({host.lower(), socket.getfqdn(host).lower()})
    except OSError:
        pass
    return frozenset(names)


def host_allowed(header: bytes | None, names: frozenset[str]) -> bool:
    """Whether a request with ``Host: header`` is answered (see the module docstring)."""
    if not header:
        return False
    try:
        text = header.decode("ascii").strip().lower()
    except UnicodeDecodeError:
        return False
    if text.startswith("["):  # [v6]:port
        literal, closed, rest = text[1:].partition("]")
        if not closed or rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return False
        return _is_address(literal)
    name, _, port = text.partition(":")
    if port and not (port.isascii() and port.isdigit()):
        return False
    name = name.rstrip(".")
    return _is_address(name) or name in names


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


class Guard:
    """The ASGI middleware of the module docstring around ``app``."""

    def __init__(self, app: App, names: frozenset[str]) -> None:
        self.app = app
        self.names = names

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((value for key, value in scope.get("headers") or () if key == b"host"), None)
        if not host_allowed(host, self.names):
            await _plain(send, 400, "This server answers only the names it serves (arena serve --allow-host NAME "
                                    "adds one).\n")
            return
        started = False
        pending: Message | None = None

        async def guarded(message: Message) -> None:
            nonlocal started, pending
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers") or ())
                is_page = any(k == b"content-type" and v.startswith(b"text/html") for k, v in headers)
                if is_page and message.get("trailers") is not True:
                    pending = {**message, "headers": headers}  # the policy needs the page's scripts
                    return
                await send({**message, "headers": [*headers, *_HEADERS,
                                                   (b"content-security-policy", policy_for(None).encode())]})
                return
            if pending is not None and message["type"] == "http.response.body":
                # A page is sent whole (HTMLResponse), in one body message: hash it, then send both.
                body = message.get("body", b"")
                start, pending = pending, None
                await send({**start, "headers": [*start["headers"], *_HEADERS,
                                                 (b"content-security-policy", policy_for(body).encode())]})
            await send(message)

        try:
            await self.app(scope, receive, guarded)
        except Exception as exc:  # noqa: BLE001 - the last resort: never a traceback to the client
            print(f"arena serve: error answering {scope.get('path', '?')!r}: {type(exc).__name__}: "
                  f"{' '.join(str(exc).split())[:200]}", file=sys.stderr)
            if not started:
                await _plain(send, 500, "arena serve could not answer this request.\n")


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
                            *_HEADERS, (b"content-security-policy", policy_for(None).encode())]})
    await send({"type": "http.response.body", "body": body})
