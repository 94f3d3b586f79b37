"""`arena serve LOGDIR [--host 127.0.0.1] [--port 8000]`: a live page of a tournament's log folder.

The folder is read only (:mod:`arena.serve`), so the page runs beside a tournament or after it.
The socket is bound here before the server starts, so a port already in use or a host that is not
this machine's is one line and exit 2, not a server's traceback.
"""

from __future__ import annotations

import errno
import socket
import sys
from pathlib import Path

import click

from arena.cli.exits import ArenaCommand


@click.command(cls=ArenaCommand, name="serve", short_help="A live web page of a tournament: leaderboard, games, agents.", epilog="""\b
Examples:
  arena serve tournament_logs/my-run                 (http://127.0.0.1:8000/)
  arena serve tournament_logs/my-run --host 0.0.0.0  (share it on the network)
  arena serve tournament_logs/my-run --allow-host arena.example.org  (behind a proxy of that name)""")
@click.argument("logdir", metavar="LOGDIR")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every interface, visible on the network).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="The TCP port (0: any free port, printed).")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Also answer requests for this host name (a reverse proxy's, a name in DNS); repeat for "
                   "more. IP addresses, localhost and this machine's name are always answered, any other "
                   "name refused (400): a page of another site cannot read this one (DNS rebinding).")
def serve_command(logdir: str, host: str, port: int, allow_hosts: tuple[str, ...]) -> None:
    """Serve a live page of the tournament log folder LOGDIR (tournament_logs/<id>): the
    leaderboard and the games in progress move by move, updated without reloading; every finished
    game in the report's viewer (/game/N); each agent's versions, games, results by opponent and
    faults with their stderr (/agent/ID). The folder is only read: run it beside 'arena run' or
    after it. Needs the extra arena[serve]."""
    from arena.serve.folder import NotALogFolder, check_log_folder

    try:
        import uvicorn

        from arena.serve.app import create_app
    except ImportError as exc:
        from arena import install_hint

        click.echo(f"arena: error: arena serve needs the extra arena[serve] ({exc.name} is missing): "
                   f"{install_hint('serve')}", err=True)
        sys.exit(2)
    try:
        folder = check_log_folder(Path(logdir))
    except NotALogFolder as exc:
        click.echo(f"arena: error: {exc}", err=True)
        sys.exit(2)
    sock = bind(host, port)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"serving {folder} on http://{shown}:{sock.getsockname()[1]}/ (Ctrl-C to stop)", err=True)
    config = uvicorn.Config(create_app(folder, allowed_hosts=allow_hosts), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``; exits 2 with one line when it cannot be had."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        click.echo(f"arena: error: cannot listen on {host}: {exc.strerror}", err=True)
        sys.exit(2)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            why = f"port {port} is in use by another program; pass --port N (0: any free port)"
        elif exc.errno == errno.EADDRNOTAVAIL:
            why = f"{host} is not an address of this machine; pass --host 127.0.0.1 or 0.0.0.0"
        else:
            why = exc.strerror or str(exc)
        click.echo(f"arena: error: cannot listen on {host}:{port}: {why}", err=True)
        sys.exit(2)
    sock.set_inheritable(True)
    return sock
