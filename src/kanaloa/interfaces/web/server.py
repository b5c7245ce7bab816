"""Running the web app with uvicorn on a socket of our own (so a busy port is a one-line error, not a log)."""

from __future__ import annotations

import socket

from .app import create_app
from .games import HintBudget
from .limits import RequestCaps, max_iterations_for
from .store import Store


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: a free one).  Raises ``OSError`` when it cannot."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def run(sock: socket.socket, hint_iterations: int = 4000, hint_workers: int = 1, max_iterations: int | None = None,
        token: str | None = None, store: Store | None = None) -> None:
    """Serve the app on ``sock`` until interrupted: a request's searches within ``max_iterations`` (``limits``;
    by default the larger of ``DEFAULT_MAX_ITERATIONS`` and the hint budget), its games kept in ``store`` (in
    memory when None), and with ``token`` only the requests that carry it (``access``)."""
    import uvicorn

    caps = RequestCaps(iterations=max_iterations_for(hint_iterations, max_iterations))
    app = create_app(HintBudget(hint_iterations, hint_workers, caps), store=store, token=token)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        app.state.analyses.shutdown()  # an analysis under way stops at its next move, not minutes later
        app.state.searches.shutdown()
        app.state.store.close()


def lan_addresses(sock: socket.socket) -> list[str]:
    """The addresses other machines may reach ``sock`` at, when it listens on every address (0.0.0.0, ``::``):
    first the one this machine's default route leaves from, then those its host name resolves to; no loopback
    or link-local address (a link-local one needs a zone no browser address takes).  Empty when none is found.
    Found without sending anything: connecting a UDP socket only chooses its route."""
    import ipaddress

    families = [sock.family]
    if sock.family == socket.AF_INET6 and not sock.getsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY):
        families.insert(0, socket.AF_INET)  # "::" takes IPv4 too, unless the system says otherwise; v4 first
    found: list[str] = []

    def keep(text: str) -> None:
        try:
            address = ipaddress.ip_address(text.split("%")[0])
        except ValueError:
            return
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        hidden = address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast
        if not hidden and str(address) not in found:
            found.append(str(address))

    for family in families:
        probe = ("2001:db8::1", 9) if family == socket.AF_INET6 else ("192.0.2.1", 9)  # documentation addresses
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as udp:
                udp.connect(probe)
                keep(udp.getsockname()[0])
        except OSError:
            pass  # no route: no network, or none of this family
        try:
            infos = socket.getaddrinfo(socket.gethostname(), None, family, socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            infos = []
        for info in infos:
            keep(str(info[4][0]))
    return found
