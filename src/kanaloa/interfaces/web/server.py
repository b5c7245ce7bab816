"""Running the web app with uvicorn on a socket of our own (so a busy port is a one-line error, not a log)."""

from __future__ import annotations

import socket

from .app import create_app
from .games import HintBudget
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


def run(sock: socket.socket, hint_iterations: int = 4000, hint_workers: int = 1, store: Store | None = None) -> None:
    """Serve the app on ``sock`` until interrupted, its games kept in ``store`` (in memory when None)."""
    import uvicorn

    app = create_app(HintBudget(hint_iterations, hint_workers), store=store)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        app.state.analyses.shutdown()  # an analysis under way stops at its next move, not minutes later
        app.state.searches.shutdown()
        app.state.store.close()
