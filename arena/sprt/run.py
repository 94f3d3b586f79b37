"""The SPRT runner behind ``arena sprt``: colour-swapped pairs until the test decides.

Pair ``p`` is games ``2p`` (NEW plays BLACK) and ``2p + 1`` (NEW plays WHITE), both from the same
opening (a book's, or ``opening_plies`` random plies seeded ``opening_seed(seed, p)``). The pair's
score for NEW (0, ½, 1, 1½ or 2 points) adds one to the matching pentanomial count; after every
completed pair :func:`arena.stats.sprt.summary` decides: H1, H0, or play on.

Every game is a game of two seats (:mod:`arena.games.model`; a two-player game's seats are BLACK
and WHITE), played one way: game ``2p`` seats NEW at seat 0, game ``2p + 1`` at seat 1. A game whose
bots speak the seat envelope (an external referee's, OpenSpiel's, Kuhn poker...) starts at its start
and draws its chance from the pair's seed ``opening_seed(seed, p)`` (the pair builder's, as a
tournament's rotation group shares one seed), recorded in both games; a game of the colour dialect
takes the pair's opening and records a seed only for random plies (its records' bytes as they have
always been). A game counts 1 for NEW ranked first alone, ½ for equal ranks, 0 otherwise (a win, a
draw). With ``score`` ``"returns"`` (:data:`SCORES`) a pair is scored as a duplicate match instead:
NEW's returns over the pair's two games against OLD's, the pair scoring 2 (NEW gained more), 1
(equal) or 0: in poker, what a bot wins in chips, not how many hands.

What the shared chance seed cancels. Both games of a pair draw their chance outcomes from one
seeded generator, one draw after another, so the ``k``-th chance event of one game gets the same
random number as the ``k``-th of the other. The luck cancels when the chance events of the two games
come in the same order and fall on the same seats: a deal before anyone acts (each agent is dealt
seat 0's cards once and seat 1's once: duplicate poker; Leduc's public card too, which follows the
same private cards). Once the order of chance events depends on the moves it may even double the
luck: in Pig the ``k``-th throw goes to whoever throws ``k``-th, the first throws to seat 0 in both
games (cancelled), but a bot that rolls long turns takes much the same throws in both games (real
pairs of hold-at-20 against random: NEW's two scores correlate +0.39). There is one chance generator
per game, not one per seat. bench/sprt_error_rates.py measures the test's error rates in each case
and, with ``--real``, what a run's pairing cancelled (docs/sprt.md).

Log folder (held under :class:`arena.records.logstore.FolderLock` for the whole run):

- ``games/NNNNN.json``: the record of game ``NNNNN``, each written atomically when the game ends;
- ``sprt.json``: ``settings``, ``pairs`` (``[{"pair", "score"}]`` in completion order), the
  summary (``llr``, ``lower``, ``upper``, ``verdict``, counts, Elo, LOS...) and ``stopped``,
  rewritten atomically after each pair.

Resume: a pair counts as completed when both its records are in ``games/`` (so a ``kill -9`` between
the second record and ``sprt.json`` loses nothing). A pair with one record only is played again from
scratch (its stray record is overwritten). Each record of a completed pair must be that game's (its
index, NEW and OLD in its seats, the game as set, the pair's opening and seed; records are written
whole, fsynced): one that is not, or cannot be read, is refused with one line
(:class:`arena.records.logstore.LogError`), never counted. As in a tournament's folder, no link is
followed below the folder's parent and every file must be a regular file (:mod:`arena.fileio.files`).
Running again with other settings (bots, game and its identity, bounds, model, time control,
openings, seed, referee, ``legal_moves``, ``score``) raises :class:`arena.records.logstore.LogError`;
``max_pairs`` and ``concurrency`` may change. A ``sprt.json`` written by an earlier arena may lack
settings added since (:data:`SETTINGS_DEFAULTS`: a two-player run's had no ``game_identity``,
``rules``, ``legal_moves`` or ``score``); a missing one is compared as its default, the value every
such run had.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from arena.backends import Backend, BackendOptions, make_backend
from arena.fileio.files import open_beneath, read_input
from arena.fileio.jsonfiles import read_json_file
from arena.games.base import ArenaError
from arena.games.model import GeneralGame
from arena.limits import MAX_FILE_BYTES, MAX_RECORDS_BYTES
from arena.match.clock import TimeControl
from arena.match.pairs import Openings, PairGame, pair_games
from arena.openings.book import Book, Order
from arena.players.spec import AgentSpec
from arena.process.isolation import DEFAULT_ISOLATION, Isolation
from arena.process.signals import Interruption, exit_code_for, run_trio_interruptibly
from arena.records.logstore import FolderLock, LogError, dumps, log_root, write_failure
from arena.records.normal import game_identity, game_states, ranks, returns, seat_ids
from arena.records.reader import RecordInputError, read_game
from arena.records.seats import placing
from arena.records.types import Record
from arena.runs.jobs import GameSetting, game_job
from arena.runs.loop import play_schedule
from arena.stats.sprt import Model, SPRTError, summary
from arena.tournament.logs import atomic_write, record_name

SPRT_FILE = "sprt.json"
SPRT_FORMAT = 1
#: Exit statuses of ``arena sprt`` by outcome.
EXIT_H1, EXIT_H0, EXIT_UNDECIDED = 0, 3, 4
#: How a pair is scored: by each game's ranks, or by the returns summed over the pair.
SCORES = ("rank", "returns")
#: The settings a ``sprt.json`` of an earlier arena may lack, and the value each then had (a
#: function of the settings it has): compared as that value on resume (module docstring).
SETTINGS_DEFAULTS: dict[str, Callable[[Mapping[str, Any]], Any]] = {
    "game_identity": lambda old: {"name": old.get("game"), "players": 2, "params": {}},
    "rules": lambda old: [],
    "legal_moves": lambda old: False,
    "score": lambda old: "rank",
}


@dataclass
class SprtSettings:
    """What a run is; everything but ``max_pairs`` and ``concurrency`` must match on resume.

    ``game`` is the game as configured for two seats
    (:func:`arena.games.registry.configured_game`); ``players`` and ``parameters`` as given to
    configure it (None and none for a two-player game's own dialect), the argv of the referee that
    plays it (``rules``, empty for a game of arena or of a plugin) and ``legal_moves`` (every seat's
    messages carry its legal moves) are what :class:`arena.backends.GameJob` needs."""

    game: GeneralGame[Any, Any]
    new: AgentSpec
    old: AgentSpec
    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: Model = "normalized"
    time_control: TimeControl = field(default_factory=TimeControl)
    max_moves: int | None = None
    opening_plies: int = 0
    seed: int | None = None
    book: Book | None = None
    openings_order: Order = "random"
    max_pairs: int | None = None
    concurrency: int = 1
    isolation: Isolation = DEFAULT_ISOLATION
    #: Where games run (:mod:`arena.backends`; None: this process). How to run, not what is played:
    #: not in :meth:`identity`, so a run may resume on another backend.
    backend: BackendOptions | None = None
    #: The folder bot files are found from (the config's, or the current one): what Ray ships.
    base_dir: Path | None = None
    #: The seats the game was configured with, as given (None: the game's own dialect and default).
    players: int | None = None
    #: The game parameters as given (the game's identity in :meth:`identity` has them all).
    parameters: tuple[tuple[str, int], ...] = ()
    #: The argv of the referee of an external game (docs/referees.md); empty otherwise.
    rules: tuple[str, ...] = ()
    #: Each seat gets its legal moves in every message.
    legal_moves: bool = False
    #: How a pair is scored (:data:`SCORES`; ``returns`` for a game that has returns of its own).
    score: str = "rank"

    def identity(self) -> dict[str, Any]:
        """The JSON object compared on resume (:data:`SETTINGS_DEFAULTS` for an earlier arena's)."""
        return {
            "game": self.game.name, "new": agent_identity(self.new), "old": agent_identity(self.old),
            "new_id": self.new.id, "old_id": self.old.id,
            "elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta, "model": self.model,
            "time_control": self.time_control.to_json(), "max_moves": self.max_moves,
            "opening_plies": self.opening_plies if self.book is None else 0, "seed": self.seed,
            "openings": None if self.book is None else {"path": str(self.book.path), "sha256": self.book.digest,
                                                         "order": self.openings_order},
            "game_identity": self.game.identity(), "rules": list(self.rules), "legal_moves": self.legal_moves,
            "score": self.score,
        }


def agent_identity(spec: AgentSpec) -> Any:
    """What an agent is, for the resume check: an executable's command (as runs before config
    agents existed wrote it), or ``{"hyperparameters": path, "sha256": ...}`` (an edited file is
    another agent); its ``env`` when it has one."""
    what: Any = spec.command
    if spec.kind == "hyperparameters":
        try:
            digest = hashlib.sha256(read_input(spec.path or "", MAX_FILE_BYTES)).hexdigest()
        except OSError:  # missing, or not a regular file (a FIFO would hang a plain read)
            digest = None
        what = {"hyperparameters": spec.path, "sha256": digest}
    elif spec.kind != "executable":
        what = {spec.kind: spec.id}
    if spec.env:
        return {"agent": what, "env": dict(spec.env)}
    return what


def pair_score(records: tuple[Mapping[str, Any], Mapping[str, Any]], score: str = "rank") -> float:
    """NEW's points in a pair: game 0 NEW is at seat 0 (BLACK), game 1 at seat 1 (WHITE); a win
    (NEW ranked first alone) 1, a draw (equal ranks) ½. With ``score`` ``"returns"``: 2 when NEW's returns summed over both games exceed OLD's, 1 when
    they are equal, 0 otherwise."""
    if score == "returns":
        margin = sum(returns(record)[seat] - returns(record)[1 - seat] for seat, record in enumerate(records))
        return 2.0 if margin > 0 else 1.0 if margin == 0 else 0.0
    return sum({"wins": 1.0, "draws": 0.5}.get(placing(ranks(record), seat), 0.0) for seat, record in enumerate(records))


def counts_of(scores: list[float]) -> list[int]:
    """Pentanomial counts N0..N4 of pair scores 0, ½, 1, 1½, 2."""
    counts = [0] * 5
    for score in scores:
        counts[round(score * 2)] += 1
    return counts


class SprtRun:
    """One SPRT run in a log folder. Use :meth:`open` (takes the lock, reads what is there), then
    ``await run()``, then :meth:`close`."""

    def __init__(self, settings: SprtSettings, folder: Path,
                 on_pair: Callable[[int, float, dict[str, Any]], None] | None = None) -> None:
        self.settings = settings
        self.folder = folder
        self.on_pair = on_pair
        self.lock = FolderLock(folder)
        self.scores: dict[int, float] = {}  # completed pair -> NEW's score
        self.order: list[int] = []  # completed pairs in completion order
        self.summary: dict[str, Any] | None = None
        self.resumed_pairs = 0
        #: Games being played right now (for the progress line).
        self.running = 0
        self.backend: Backend | None = None

    # -- folder ---------------------------------------------------------------------------------
    def open(self) -> None:
        """Lock the folder, check the settings against an earlier run's, and count its completed
        pairs. Raises LogError (one line) for a busy folder, other settings or unreadable files."""
        self.lock.acquire()
        try:
            self._load()
            if self.decided() is None:
                self._open_backend()
        except BaseException:
            self.close()
            raise

    def _open_backend(self) -> None:
        """Connect to where games run and check both agents can start there (ConfigError or
        :class:`arena.backends.ClusterError`, one line)."""
        s = self.settings
        self.backend = make_backend(s.backend)
        self.backend.open([s.new, s.old], base_dir=s.base_dir or Path.cwd(), logs_dir=self.folder,
                          sandbox=s.isolation.sandbox or False)

    def close(self) -> None:
        """Release the backend and the folder (idempotent)."""
        if self.backend is not None:
            self.backend.close()
            self.backend = None
        self.lock.release()

    def _load(self) -> None:
        path = self.folder / SPRT_FILE
        previous: dict[str, Any] | None = None
        if path.exists() or path.is_symlink():
            try:
                previous = read_json_file(path, MAX_RECORDS_BYTES, root=log_root(self.folder))
            except OSError as exc:
                raise LogError(f"{path}: cannot read ({exc.strerror or exc}); remove the folder or pass "
                               "another --logs") from None
            except ValueError as exc:
                raise LogError(f"{path}: cannot read ({exc}); remove the folder or pass another --logs") from None
            if not isinstance(previous, dict) or not isinstance(previous.get("settings"), dict):
                raise LogError(f"{path}: not an arena sprt state file; pass another --logs")
            old = previous["settings"]
            old = {**{key: default(old) for key, default in SETTINGS_DEFAULTS.items()}, **old}
            if self.settings.seed is None and old.get("seed") is not None:
                self.settings.seed = old["seed"]  # resuming a run whose seed was drawn at random
            new = self.settings.identity()
            diffs = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
            if diffs:
                shown = ", ".join(f"{k} {json.dumps(old.get(k))} -> {json.dumps(new.get(k))}" for k in diffs[:3])
                raise LogError(f"{self.folder} holds an SPRT run with other settings ({shown}); "
                               "run it with the same settings, or pass another --logs")
        elif (self.folder / "games").is_dir() and any((self.folder / "games").iterdir()):
            raise LogError(f"{self.folder} has game records but no {SPRT_FILE}; pass another --logs")
        games = self.folder / "games"
        previous_order = [p.get("pair") for p in (previous or {}).get("pairs", []) if isinstance(p, dict)]
        complete: dict[int, float] = {}
        if games.is_dir():
            indices = {int(f.name[:-5]) for f in games.iterdir()
                       if f.name.endswith(".json") and f.name[:-5].isdigit()}
            for pair in sorted({i // 2 for i in indices}):
                if 2 * pair in indices and 2 * pair + 1 in indices:
                    records = (self._read_record(2 * pair), self._read_record(2 * pair + 1))
                    complete[pair] = pair_score(records, self.settings.score)
        # Keep the earlier completion order; pairs recorded after the last sprt.json write follow.
        self.order = [p for p in previous_order if isinstance(p, int) and p in complete]
        self.order += [p for p in sorted(complete) if p not in self.order]
        self.scores = complete
        self.resumed_pairs = len(self.order)
        if self.order:
            self.summary = self._summary()

    def _read_record(self, index: int) -> Record:
        """The record of game ``index`` of a completed pair, checked to be that game: its index,
        NEW and OLD in that game's seats, the game, its opening and seed. Records are written whole (atomically),
        so one that is unreadable or another game's is not arena's: LogError (one line), and the
        user decides (delete it to have its pair played again)."""
        try:
            record = read_game(self.folder, index, root=log_root(self.folder))
        except RecordInputError as exc:
            raise LogError(f"{exc}; delete it to have its pair played again") from None
        problem = self._record_mismatch(index, record)
        if problem is not None:
            raise LogError(f"{self.folder / record_name(index)}: not the record of game {index} of this run "
                           f"({problem}); delete it to have its pair played again")
        return record

    def _record_mismatch(self, index: int, record: Mapping[str, Any]) -> str | None:
        """Why ``record`` (any format: :mod:`arena.records.normal`) is not game ``index`` of this
        run (None: it is)."""
        game, table = self.pair_game(index), self.settings.game
        if record.get("game_index") != index:
            return f"its game_index is {json.dumps(record.get('game_index'))}"
        if seat_ids(record) != [game.black.id, game.white.id]:
            return (f"{game.black.id} should sit at seat 0 ({table.seat_names[0]}) and {game.white.id} at seat 1 "
                    f"({table.seat_names[1]})")
        named = game_identity(record)
        if {key: named.get(key) for key in table.identity()} != table.identity():
            return f"it is a game of {json.dumps(named)}"
        start = game.opening.start_state
        if start is not None and game_states(record)[:1] != [table.state_to_json(start)]:
            return "it does not start from the pair's opening"
        if record.get("seed") != game.opening.seed:
            return f"its {'opening seed' if game.opening.plies else 'seed'} is not the pair's"
        return None

    def pair_game(self, index: int) -> PairGame[AgentSpec]:
        """Game ``index``: the ``index % 2``-th game of pair ``index // 2`` (NEW at seat 0 in the
        first), from the pair's opening. A game of the seat envelope draws its chance from the pair's
        seed, so both its games record it; the colour dialect's records hold it for random plies only."""
        s = self.settings
        openings = Openings(s.opening_plies, s.book, s.openings_order)
        return pair_games(s.new, s.old, index // 2, s.seed, openings,
                          always_record_seed=s.game.seat_envelope)[index % 2]

    def _summary(self) -> dict[str, Any]:
        s = self.settings
        try:
            return summary(counts_of([self.scores[p] for p in self.order]), elo0=s.elo0, elo1=s.elo1,
                           alpha=s.alpha, beta=s.beta, model=s.model)
        except SPRTError as exc:  # the CLI checks the hypotheses first; this is a backstop
            raise ArenaError(f"SPRT statistics: {exc}") from None

    def write_state(self, stopped: str | None) -> None:
        """Rewrite ``sprt.json`` atomically. Raises ArenaError (LogError/ResourceError) on failure."""
        state = {"sprt_format": SPRT_FORMAT, "settings": self.settings.identity(),
                 "pairs": [{"pair": p, "score": self.scores[p]} for p in self.order],
                 "summary": self.summary, "stopped": stopped}
        path = self.folder / SPRT_FILE
        try:
            atomic_write(path, dumps(state), root=log_root(self.folder))
        except OSError as exc:
            raise write_failure(path, exc) from None

    def _write_record(self, index: int, record: dict[str, Any]) -> None:
        path = self.folder / record_name(index)
        try:
            os.close(open_beneath(log_root(self.folder), path.parent, os.O_RDONLY | os.O_DIRECTORY, make_dirs=True))
            atomic_write(path, dumps(record), root=log_root(self.folder))
        except OSError as exc:
            raise write_failure(path, exc) from None

    # -- playing --------------------------------------------------------------------------------
    def decided(self) -> str | None:
        """``H1``/``H0`` once the test has decided, ``max-pairs`` once the cap is reached."""
        if self.summary is not None and self.summary["verdict"] in ("H1", "H0"):
            return str(self.summary["verdict"])
        if self.settings.max_pairs is not None and len(self.order) >= self.settings.max_pairs:
            return "max-pairs"
        return None

    def _pending(self) -> Iterator[int]:
        pair = 0
        while self.settings.max_pairs is None or pair < self.settings.max_pairs:
            if pair not in self.scores:
                yield pair
            pair += 1

    async def _play_game(self, index: int) -> dict[str, Any]:
        s = self.settings
        game = self.pair_game(index)
        setting = GameSetting(game=s.game.name, time_control=s.time_control, max_moves=s.max_moves,
                              isolation=s.isolation, players=s.players, parameters=s.parameters, rules=s.rules,
                              legal_moves=s.legal_moves)
        job = game_job(setting, (game.black, game.white), index, game.opening)
        if self.backend is None:
            self.backend = make_backend()
        return await self.backend.play(job)

    async def _play_pair(self, pair: int) -> None:
        """Both games of ``pair`` (at once when ``concurrency`` > 1), each record written when it
        ends; then the pair counts."""
        records: dict[int, dict[str, Any]] = {}

        async def one(index: int) -> None:
            self.running += 1
            try:
                record = await self._play_game(index)
            finally:
                self.running -= 1
            self._write_record(index, record)
            records[index] = record

        if self.settings.concurrency > 1:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(one, 2 * pair)
                nursery.start_soon(one, 2 * pair + 1)
        else:
            await one(2 * pair)
            await one(2 * pair + 1)
        self.scores[pair] = pair_score((records[2 * pair], records[2 * pair + 1]), self.settings.score)
        self.order.append(pair)
        self.summary = self._summary()
        self.write_state(None)
        if self.on_pair is not None:
            self.on_pair(pair, self.scores[pair], self.summary)

    async def run(self) -> str:
        """Play pairs until the test decides or ``max_pairs`` pairs are completed; returns ``H1``,
        ``H0`` or ``max-pairs``, after writing the final ``sprt.json``. Cancellation (Ctrl-C) leaves
        the completed pairs written. Raises ArenaError when arena itself fails."""
        self.write_state(None)  # the settings (and a drawn seed) are on disk before any record
        done = self.decided()
        if done is None:
            pending = self._pending()

            async def play(pair: int) -> bool:
                await self._play_pair(pair)
                # Pairs in flight beyond the decision are cancelled: the test is sequential.
                return self.decided() is not None

            await play_schedule(lambda: next(pending, None), play, max(1, self.settings.concurrency // 2))
            done = self.decided() or "max-pairs"
        self.write_state(done)
        return done

    def stop_interrupted(self) -> None:
        """Record an interrupted stop in ``sprt.json`` (best effort: the pairs are already there)."""
        with contextlib.suppress(Exception):
            self.write_state("interrupted")


@dataclass
class SprtOutcome:
    """How :func:`play_sprt` ended: ``stopped`` is the run's ``H1``/``H0``/``max-pairs`` (None when
    it did not finish), ``failure`` arena's own failure (one line), ``interrupted`` whether a signal
    stopped it (``signal_number``: which)."""

    stopped: str | None = None
    failure: str | None = None
    interrupted: bool = False
    signal_number: int | None = None

    @property
    def cut_short(self) -> bool:
        """A signal stopped the run before it finished."""
        return self.interrupted and self.stopped is None

    @property
    def status(self) -> str:
        """The ``stopped`` of the summary: the verdict, ``interrupted`` or ``failed``."""
        return "interrupted" if self.cut_short else (self.stopped or "failed")

    @property
    def exit_code(self) -> int:
        """``arena sprt``'s exit status (module constants; 1 on failure, 130/129 when interrupted)."""
        if self.failure is not None:
            return 1
        if self.cut_short:
            return exit_code_for(self.signal_number)
        return {"H1": EXIT_H1, "H0": EXIT_H0}.get(self.stopped or "", EXIT_UNDECIDED)


def play_sprt(run: SprtRun, *, on_start: Callable[[], None] | None = None) -> SprtOutcome:
    """Play an opened ``run`` to its end in its own ``trio.run``, under
    :func:`arena.process.signals.run_trio_interruptibly`, then close it. A run without a seed (and
    none read from an earlier run's ``sprt.json`` by :meth:`SprtRun.open`) gets one drawn at random
    and recorded, so its pairs (openings, chance draws) can be played again. ``on_start()`` runs
    before the first game. The same for ``arena sprt`` and ``arena run`` of a config with an
    ``sprt`` key."""
    outcome = SprtOutcome()
    if run.settings.seed is None:
        run.settings.seed = random.SystemRandom().randrange(2**31)
    try:
        if on_start is not None:
            on_start()

        async def work() -> None:
            try:
                outcome.stopped = await run.run()
            except ArenaError as exc:
                outcome.failure = str(exc)

        seen = Interruption()
        run_trio_interruptibly(work, interruption=seen)
        outcome.interrupted, outcome.signal_number = seen.interrupted, seen.signal_number
        if outcome.cut_short:
            run.stop_interrupted()
    finally:
        run.close()
    return outcome
