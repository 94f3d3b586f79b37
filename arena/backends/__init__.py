"""Where games run: the backend seam between a driver (a tournament, an SPRT run) and the engine.

A driver builds one :class:`GameJob` per game (everything :func:`arena.match.game.play_game` needs, in
picklable form) and awaits :meth:`Backend.play`, which returns the game's record. The driver stays
the only writer of its log folder: a backend never writes there itself, it hands back the record
(and the bots' stderr, which the driver writes beside it), so persisting a result stays one
synchronous step in the driver exactly as with local games.

Backends are parts of the ``arena.backends`` entry-point group (:data:`BACKEND_SEAM`); arena's own
are registered in its ``pyproject.toml`` as a plugin registers its own (docs/extending.md). An
entry point names a :data:`BackendFactory`: called with :class:`BackendOptions`, it returns a
:class:`Backend`, not opened yet. arena's own:

- ``local`` (:class:`arena.backends.local.LocalBackend`, the default): ``play_game`` in this process,
  or in ``workers`` worker processes of this machine (:mod:`arena.backends.pool`).
- ``ray`` (:class:`arena.backends.ray_backend.RayBackend`): one Ray task per game on a cluster (an
  embedded one-machine cluster by default). Needs the optional extra ``arena[ray]``; Ray is imported
  only when this backend is opened, never by ``import arena`` or ``arena --help``.

Life cycle (the contract every backend keeps): :meth:`Backend.open` (synchronous, before the event
loop, may take seconds: connect, check that every agent can start where games will run) →
:meth:`Backend.capacity` → any number of concurrent :meth:`Backend.play` calls from one trio run
(and, between them, :meth:`Backend.update_agents` when the field changes: synchronous, may take
seconds) → :meth:`Backend.close` (synchronous, idempotent, also after a failed ``open``).

``play`` raises only what ``play_game`` raises (``trio.Cancelled`` when cancelled — the game then
has no record and, for Ray, its task is cancelled and its bots killed on the worker —,
:class:`arena.errors.ResourceError` for arena's own failures, a bug's exception) plus
:class:`ClusterError` when the cluster itself failed. Bot faults are records, never exceptions.

May import: :mod:`arena.match` and the layers below it; never the tournament or the CLI.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from arena.errors import ArenaError, ConfigError
from arena.plugins import Seam

if TYPE_CHECKING:
    from arena.match.clock import TimeControl
    from arena.match.progress import Observer
    from arena.players.spec import AgentSpec
    from arena.process.isolation import Isolation

#: The backend games run on when none is named (``--backend``, the config's ``backend`` key).
DEFAULT_BACKEND = "local"
#: ``--ray-address`` default: start an embedded Ray instance on this machine (127.0.0.1 only).
EMBEDDED_ADDRESS = "local"


class ClusterError(ArenaError):
    """The cluster itself failed or cannot run the games: Ray missing, address unreachable, no node
    with enough CPUs, a node kept dying past the retries. One line; the CLI exits 1."""


@dataclass(frozen=True)
class GameJob:
    """One game of any game to play, in a form that can travel to another machine (pickled).

    ``game`` is the registered game's name, configured with ``players`` (None: its default) and
    ``parameters``; ``agents`` the agents in seat order (BLACK then WHITE in a two-player game);
    ``start_state`` a state object of that game or None; ``legal_moves``: every seat's messages carry
    its legal moves; ``rules``: the argv of the referee that plays ``game`` (docs/referees.md),
    registered where the game is played, empty for a game of arena or of a plugin. The rest are
    :func:`arena.match.game.play_game`'s arguments of the same names.
    """

    game: str
    agents: tuple[AgentSpec, ...]
    time_control: TimeControl
    players: int | None = None
    parameters: tuple[tuple[str, int], ...] = ()
    max_moves: int | None = None
    start_state: Any = None
    opening_plies: int = 0
    seed: int | None = None
    game_index: int | None = None
    isolation: Isolation | None = None
    player_opts: dict[str, Any] | None = None
    rules: tuple[str, ...] = ()
    legal_moves: bool = False


@dataclass(frozen=True)
class BackendOptions:
    """How to reach the backend (how to run, never part of a tournament's identity).

    ``address``: Ray's address, ``local`` (:data:`EMBEDDED_ADDRESS`: an embedded instance on
    127.0.0.1), ``auto`` (the cluster the environment names: ``RAY_ADDRESS`` or the one ``ray start``
    started here) or ``HOST:PORT``. ``cpus_per_game``: CPUs Ray reserves per game (None: one per
    bot, 2). ``working_dir``: the folder shipped to workers (None: computed from the config, see
    :mod:`arena.backends.ray_files`); ``shared_files``: the bots' files are at the same paths on
    every node, ship nothing. ``max_retries``: how many times a game lost with its node or worker
    is played again elsewhere. ``num_cpus``: CPUs of an embedded instance (None: Ray's count).
    ``workers``: the local backend's worker processes (0: every game in this process; None: the
    driver chooses, :func:`arena.tournament.concurrency.local_workers`).
    """

    kind: str = DEFAULT_BACKEND
    address: str = EMBEDDED_ADDRESS
    cpus_per_game: float | None = None
    working_dir: Path | None = None
    shared_files: bool = False
    max_retries: int = 3
    num_cpus: int | None = None
    excludes: tuple[str, ...] = field(default_factory=tuple)
    workers: int | None = None


class Backend(Protocol):
    """Runs games (see the module docstring for the life cycle and the errors)."""

    name: str

    def open(self, agents: list[AgentSpec], *, base_dir: Path | None, logs_dir: Path | None,
             sandbox: bool | str = False) -> None:
        """Connect and check that every agent in ``agents`` can start where games will run (and,
        with ``sandbox``, that the sandbox works there: True the default backend, or a sandbox
        backend's name). ``base_dir``: the config's folder;
        ``logs_dir``: the driver's log folder (never shipped). Raises ConfigError (a bot missing on
        a node, no sandbox there, the files to ship too large) or ClusterError."""
        ...

    def update_agents(self, agents: list[AgentSpec]) -> dict[str, str]:
        """``agents`` joined the field, or changed their files, after :meth:`open` (a league): make
        their current files the ones later games run, and check that each can start where games
        run. Returns why an agent cannot (by id; it must not play); raises as :meth:`open`."""
        ...

    def capacity(self) -> int | None:
        """Games the backend can run at once (None: the driver's own default applies)."""
        ...

    def describe(self) -> str | None:
        """One line about where games run (None: nothing worth saying, e.g. local)."""
        ...

    async def play(self, job: GameJob, *, stderr_dir: Path | None = None,
                   observer: Observer | None = None) -> dict[str, Any]:
        """Play ``job`` and return its record; bots' stderr logs end up in ``stderr_dir``."""
        ...

    def close(self) -> None:
        """Release the backend (idempotent)."""
        ...


#: What an ``arena.backends`` entry point names: given the options, a backend not opened yet.
BackendFactory = Callable[[BackendOptions], Backend]


def _check_factory(obj: Any, where: str) -> BackendFactory:
    if not callable(obj):
        raise ConfigError(f"{where}: not a callable that makes a backend from BackendOptions")
    return obj


#: The seam of run backends: the ``arena.backends`` entry-point group.
BACKEND_SEAM: Seam[BackendFactory] = Seam("arena.backends", "backend", _check_factory)


def backend_names() -> tuple[str, ...]:
    """The backends ``--backend`` and the config's ``backend`` key accept, arena's own first."""
    return BACKEND_SEAM.names()


def make_backend(options: BackendOptions | None = None) -> Backend:
    """The backend ``options.kind`` names (not opened yet). Raises ConfigError for an unknown one, or
    one whose plugin cannot be loaded."""
    options = options or BackendOptions()
    return BACKEND_SEAM.load(options.kind)(options)


__all__ = ["BACKEND_SEAM", "DEFAULT_BACKEND", "EMBEDDED_ADDRESS", "Backend", "BackendFactory", "BackendOptions",
           "ClusterError", "GameJob", "backend_names", "make_backend"]
