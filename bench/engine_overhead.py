"""How much does arena add per ply? Long games between two instant bots, against a bare pipe echo.

Run: ``.venv/bin/python bench/engine_overhead.py [--plies 20000] [--repeats 3] [--games shobu,checkers]
[--pin 0 | --spin 1] [--cpu-only]``

``--cpu-only`` prints just arena's CPU per ply (the figure the issue's "10% of arena's CPU per ply"
rule is reckoned against): ``--repeats`` games per game name as arena plays by default, then the
median, the spread (min-max) of the repeats, the rules alone and the match loop without pipes
(medians). Use it to weigh a speed trick: run it with and without the trick. ``--cpu-only --before
DIR`` measures the same for the checkout ``DIR`` (e.g. ``git worktree add --detach /tmp/before
REV``) and this one, in child processes, interleaved, and prints both with the ratio.

For each game:

1. A 4-ply cycle of quiet moves (black and white each move a piece forth and back), so a game can
   last as many plies as we like (``max_moves`` raised). Shobu starts from the start position;
   checkers from a position where each side has a king that can step into a hole of its own camp.
2. Two *replay bots* (Python children) read each turn's input as a real bot must (Shobu: the
   ``game_state`` line; checkers: the opening lines once, then the clock line and the 8 board lines)
   and answer at once with the next reply from a precomputed table. They do no rules work.
3. In the same run, with the same two bots and the same turn input, a bare trio echo: the round
   trip of ``send_all`` then ``receive_some`` until the reply's newline, alternating between the
   two bots as a game does. Also the *floor*: the same with ``os.write``/``os.read`` and one
   ``trio.lowlevel.wait_readable`` per reply, the least a trio program can do per round trip.
4. ``--repeats`` rounds of (echo, floor, game); each figure is the best of the rounds, because
   other work on the machine only ever makes a round slower. CPU is ``time.process_time()`` of this
   process alone (arena's side; the bots are other processes); plies/s is wall-clock.
   The game is played twice: as arena plays by default (no pondering: each bot's process group is
   stopped after its reply and continued before its next input, two ``killpg`` calls a ply) and
   with pondering (no stops), so the cost of stopping shows.
5. Then a game whose bots sleep ``--think-ms`` per move and time themselves (from having read the
   input to having flushed the reply): arena's charged time against the bot's own measure.

``--spin N`` keeps N CPUs busy with niced busy loops while measuring. On a virtual machine an idle
CPU halts, and waking it for the bot's turn costs tens of microseconds in the hypervisor, for the
echo and the game alike; the loops (nice 19: they give way to anything else) keep the CPUs awake,
so the figures show what arena and the pipes cost rather than what an idle CPU costs.

``--pin CPU`` runs this process and the bots (they inherit it) on that one CPU. Arena and an
instant bot never run at the same time, so nothing is lost, and every wake-up stays on one CPU
instead of costing an inter-processor interrupt (tens of microseconds on a virtual machine).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import trio

from arena.games import Color, Game, GameError, get_game
from arena.match.game import play_game
from arena.players.base import MoveReply, Player
from arena.players.spec import AgentSpec
from arena.process.isolation import Isolation
from arena.protocols import protocol_for

try:
    from arena.match.clock import TimeControl
except ImportError:  # a tree from before the one match loop (bench/speed.py --before)
    from arena.match.game import TimeControl

# argv: game, JSON list of reply lines, think ms. Stderr gets "think <ms>" per move when thinking.
REPLAY_BOT = r"""
import sys, time
game, think = sys.argv[1], float(sys.argv[3]) / 1000.0
import json
replies = [r.encode() + b"\n" for r in json.loads(sys.argv[2])]
count = len(replies)
out, inp, err = sys.stdout.buffer, sys.stdin.buffer, sys.stderr
readline = inp.readline
if game == "checkers":
    readline(); readline()  # time limit, colour
i = 0
while True:
    line = readline()
    if not line:
        break
    if game == "checkers":
        for _ in range(8):
            readline()
    begun = time.perf_counter()
    if think:
        time.sleep(think)
    # Measured before the reply goes out: once it is read, arena may stop this process (no pondering).
    thought = (time.perf_counter() - begun) * 1000.0
    out.write(replies[i % count])
    out.flush()
    if think:
        err.write("think %.6f\n" % thought)
        err.flush()
    i += 1
"""

# Checkers: each side has a king next to a hole in its own camp, far from the other side.
CHECKERS_START = [
    ". b . b . b . b",
    "b . b . b . . .",
    ". b . b . B . .",
    ". . . . . . . .",
    ". . . . . . . .",
    ". . w . w . W .",
    ". w . w . w . .",
    "w . w . w . w .",
]


@dataclass
class Cycle:
    """A game's 4-ply cycle: start state, and the replies of each side in wire form."""

    game: Game
    start: Any
    black: list[str]
    white: list[str]
    moves: list[Any]  # the four moves in play order

    @property
    def played(self) -> Any:
        """The game as ``play_game`` takes it: configured by the registry (its own wire dialect),
        or the rules object itself in a tree from before ``configured_game``."""
        try:
            from arena.games.registry import configured_game
        except ImportError:  # bench/speed.py --before on an older tree
            return self.game
        return configured_game(self.game.name)


def find_cycle(game_name: str) -> Cycle:
    """Quiet moves m1, w1, m2, w2 with m2/w2 undoing m1/w1: the position repeats every 4 plies."""
    game = get_game(game_name)
    if game_name == "shobu":
        start = game.initial_state()
    else:
        start = game.state_from_json({"board": CHECKERS_START, "turn": "BLACK", "turnNumber": 0})
    board0 = game.state_to_json(start)["board"]

    def inverse(move: Any) -> Any:
        if game_name == "checkers":
            return game.parse_move(" ".join(["2"] + [f"{c} {r}" for c, r in reversed(move.path)]))
        wire = game.move_to_wire(move)
        for part in ("passive", "aggressive"):
            origin, heading = wire[part]["origin"], wire[part]["heading"]
            wire[part] = {"origin": {"x": origin["x"] + heading["x"], "y": origin["y"] + heading["y"]},
                          "heading": {"x": -heading["x"], "y": -heading["y"]}}
        return game.parse_move(wire)

    def pieces(state: Any) -> Any:
        board = game.state_to_json(state)["board"]
        return sorted("".join(board)) if game_name == "checkers" else (board.count("x"), board.count("o"))

    for m1 in game.legal_moves(start):
        s1 = game.apply(start, m1)
        if pieces(s1) != pieces(start):
            continue
        for w1 in game.legal_moves(s1):
            s2 = game.apply(s1, w1)
            if pieces(s2) != pieces(start):
                continue
            try:
                m2 = game.validate_move(s2, inverse(m1))
                s3 = game.apply(s2, m2)
                w2 = game.validate_move(s3, inverse(w1))
            except GameError:  # the inverse move is not legal there: try another
                continue
            if game.state_to_json(game.apply(s3, w2))["board"] == board0:
                return Cycle(game, start, reply_lines(game, [m1, m2]), reply_lines(game, [w1, w2]),
                             [m1, w1, m2, w2])
    raise SystemExit(f"no quiet 4-ply cycle found for {game_name}")


def reply_lines(game: Game, moves: list[Any]) -> list[str]:
    if game.name == "shobu":
        return [orjson.dumps({"type": "turn", "payload": game.move_to_wire(m)}).decode() for m in moves]
    return [game.move_to_wire(m) for m in moves]


def replay_argv(game_name: str, replies: list[str], think_ms: float = 0.0) -> list[str]:
    return [sys.executable, "-u", "-c", REPLAY_BOT, game_name, json.dumps(replies), str(think_ms)]


# -- the bare echo and the floor ------------------------------------------------------------------


async def echo_round_trips(cycle: Cycle, rounds: int, floor: bool) -> tuple[float, float]:
    """(wall s, our CPU s) per round trip of one turn's input through the two replay bots in turn.

    ``floor``: raw ``os.write``/``os.read`` with one ``wait_readable`` per reply; otherwise the
    trio streams' ``send_all``/``receive_some``.
    """
    game = cycle.game
    protocol = protocol_for(game.name)
    message = protocol.encode_turn(game, cycle.start, 10**6, game.state_to_json(cycle.start))
    procs = [await trio.lowlevel.open_process(replay_argv(game.name, replies), stdin=subprocess.PIPE,
                                              stdout=subprocess.PIPE)
             for replies in (cycle.black, cycle.white)]
    streams = [(p.stdin, p.stdout) for p in procs]
    buffers = [bytearray(), bytearray()]
    for color, (stdin, _) in zip(Color, streams, strict=True):
        await stdin.send_all(protocol.opening(color, 10**6))  # type: ignore[union-attr]

    async def stream_trip(i: int) -> None:
        stdin, stdout = streams[i]
        buffer = buffers[i]
        await stdin.send_all(message)  # type: ignore[union-attr]
        while b"\n" not in buffer:
            buffer.extend(await stdout.receive_some(65536))  # type: ignore[union-attr]
        del buffer[: buffer.index(b"\n") + 1]

    fds = [(stdin.fileno(), stdout.fileno()) for stdin, stdout in streams]  # type: ignore[union-attr]

    async def floor_trip(i: int) -> None:
        write_fd, read_fd = fds[i]
        buffer = buffers[i]
        os.write(write_fd, message)
        while b"\n" not in buffer:
            try:
                buffer.extend(os.read(read_fd, 65536))
            except BlockingIOError:
                await trio.lowlevel.wait_readable(read_fd)
        del buffer[: buffer.index(b"\n") + 1]

    trip = floor_trip if floor else stream_trip
    for i in range(200):  # warm up
        await trip(i & 1)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for i in range(rounds):
        await trip(i & 1)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    for proc in procs:
        await proc.stdin.aclose()  # type: ignore[union-attr]
        await proc.wait()
    return wall / rounds, cpu / rounds


# -- the game ------------------------------------------------------------------------------------


async def long_game(cycle: Cycle, plies: int, think_ms: float = 0.0,
                    stderr_dir: Path | None = None, ponder: bool = False) -> tuple[dict[str, Any], float, float]:
    """A game of ``plies`` plies between two replay bots: (record, wall s, arena CPU s). ``ponder``
    False (arena's default) stops each bot between its turns: two ``killpg`` calls a ply."""
    game = cycle.game
    tc = TimeControl(time_limit_ms=10**9, startup_ms=5000)
    black = AgentSpec("replay-black", command=shlex.join(replay_argv(game.name, cycle.black, think_ms)))
    white = AgentSpec("replay-white", command=shlex.join(replay_argv(game.name, cycle.white, think_ms)))
    cpu0, wall0 = time.process_time(), time.perf_counter()
    record = await play_game(cycle.played, black, white, time_control=tc, max_moves=plies, start_state=cycle.start,
                             stderr_dir=stderr_dir, game_index=0, isolation=Isolation(ponder=ponder))
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    if not (record["termination"] == "max_moves" and record["plies"] == plies):
        raise SystemExit(f"the {game.name} game did not go the distance: {record['reason']}")
    return record, wall, cpu


def rules_cost(cycle: Cycle, plies: int) -> float:
    """CPU seconds per ply of the rules work the match does (parse, validate, apply, outcome, record
    forms, encoding the next turn), alone."""
    game = cycle.game
    protocol = protocol_for(game.name)
    wires = [protocol.decode_reply(line.encode()) for line in
             (cycle.black[0], cycle.white[0], cycle.black[1], cycle.white[1])]
    state = cycle.start
    begun = time.process_time()
    for ply in range(plies):
        game.outcome(state)
        move = game.validate_move(state, game.parse_move(wires[ply % 4]))
        state = game.apply(state, move)
        game.move_to_record(move)
        protocol.encode_turn(game, state, 1000, game.state_to_json(state))
    return (time.process_time() - begun) / plies


class _InstantPlayer(Player):
    """An in-process player replying from a table: the match loop without pipes or processes. Like
    a process player it moves the match's deadline and yields to the scheduler once per turn."""

    enforces_allowance = True
    shares_turn_deadline = True

    def __init__(self, agent_id: str, color: Color, wires: list[Any]) -> None:
        super().__init__(agent_id, color)
        self.wires = wires
        self.index = 0

    async def start(self) -> None:
        pass

    async def aclose(self) -> None:
        pass

    async def request_move(self, state: Any, clock: Any, *, state_json: Any = None) -> MoveReply:
        with trio.CancelScope() as scope:
            return await self.request_move_under(scope, state, clock, state_json=state_json)
        return self.timed_out_reply(trio.current_time())

    async def request_move_under(self, scope: trio.CancelScope, state: Any, clock: Any, *,
                                 state_json: Any = None) -> MoveReply:
        wire = self.wires[self.index % len(self.wires)]
        self.index += 1
        now = trio.current_time()
        scope.deadline = now + clock.allowance_s
        await trio.lowlevel.checkpoint()  # a real transport yields to the scheduler at least once
        return MoveReply(wire=wire, raw=b"", sent_at=now, received_at=trio.current_time())

    def timed_out_reply(self, now: float) -> MoveReply:
        raise AssertionError("an instant player never times out")


async def in_process_loop(cycle: Cycle, plies: int, observer: Any = None) -> float:
    """CPU seconds per ply of play_game with in-process instant players (rules included), watched
    by ``observer`` (bench/live_trace.py)."""
    try:
        import arena.match.progress as match_module
    except ImportError:  # a tree from before the one match loop (bench/speed.py --before)
        import arena.match.game as match_module  # type: ignore[no-redef]

    protocol = protocol_for(cycle.game.name)
    tables = {c: [protocol.decode_reply(r.encode()) for r in replies]
              for c, replies in ((Color.BLACK, cycle.black), (Color.WHITE, cycle.white))}
    real = match_module.make_player
    match_module.make_player = lambda spec, game, color, **_: _InstantPlayer(spec.id, color, tables[color])
    try:
        begun = time.process_time()
        await play_game(cycle.played, AgentSpec("a"), AgentSpec("b"), time_control=TimeControl(),
                        max_moves=plies, start_state=cycle.start, observer=observer)
        return (time.process_time() - begun) / plies
    finally:
        match_module.make_player = real


async def think_check(cycle: Cycle, plies: int, think_ms: float) -> None:
    with tempfile.TemporaryDirectory() as logs:
        record, _, _ = await long_game(cycle, plies, think_ms, Path(logs))
        by_side = []
        for colour in ("black", "white"):
            log = Path(logs) / f"00000-{colour}-replay-{colour}.log"
            by_side.append([float(line.split()[1]) for line in log.read_text().splitlines()
                            if line.startswith("think ")])
    own = [ms for pair in zip(*by_side, strict=False) for ms in pair]  # in play order, black first
    times = record["move_times_ms"]
    # The first move of each bot is charged after the start-up allowance (so 0): leave both out.
    differences = sorted(charged - mine for charged, mine in zip(times[2:], own[2:], strict=False))
    count = len(differences)
    own_mean = sum(own[2:]) / count
    print(f"  charged vs the bot's own think time ({count} moves of {think_ms} ms sleep):")
    print(f"    bot's own measure {own_mean:.3f} ms per move; charged - own: mean "
          f"{sum(differences) / count:.3f} ms, median {differences[count // 2]:.3f} ms, "
          f"99th percentile {differences[min(count - 1, count * 99 // 100)]:.3f} ms, max {differences[-1]:.3f} ms"
          f"  (goal within 1 ms)")


async def bench_game(game_name: str, args: argparse.Namespace) -> None:
    cycle = find_cycle(game_name)
    best: dict[str, tuple[float, float]] = {}

    def keep(label: str, wall: float, cpu: float) -> None:
        old = best.get(label, (float("inf"), float("inf")))
        best[label] = (min(old[0], wall), min(old[1], cpu))

    for _ in range(args.repeats):
        keep("echo", *await echo_round_trips(cycle, args.plies, floor=False))
        keep("floor", *await echo_round_trips(cycle, args.plies, floor=True))
        _, wall, cpu = await long_game(cycle, args.plies)
        keep("game", wall / args.plies, cpu / args.plies)
        _, wall, cpu = await long_game(cycle, args.plies, ponder=True)
        keep("game-ponder", wall / args.plies, cpu / args.plies)
    rules = min([rules_cost(cycle, min(args.plies, 20000)) for _ in range(args.repeats)])
    loop = min([await in_process_loop(cycle, min(args.plies, 20000)) for _ in range(args.repeats)])
    game_wall, game_cpu = best["game"]
    echo_wall, echo_cpu = best["echo"]
    floor_wall, floor_cpu = best["floor"]
    print(f"{game_name}: {args.plies} plies per game between two replay bots, best of {args.repeats}"
          f"  (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print(f"  arena CPU per ply            {game_cpu * 1e6:7.1f} us   of which rules ~{rules * 1e6:.1f} us;"
          f" match loop without pipes {loop * 1e6:.1f} us")
    print(f"  arena wall per ply           {game_wall * 1e6:7.1f} us   -> {1 / game_wall:8,.0f} plies/s"
          f"  (goal >= 10,000)")
    ponder_wall, ponder_cpu = best["game-ponder"]
    print(f"  with pondering (no SIGSTOP/SIGCONT between turns): {ponder_cpu * 1e6:7.1f} us CPU, "
          f"{ponder_wall * 1e6:7.1f} us wall per ply; stopping costs {(game_cpu - ponder_cpu) * 1e6:+.1f} us CPU, "
          f"{(game_wall - ponder_wall) * 1e6:+.1f} us wall")
    print(f"  bare trio echo, round trip   {echo_cpu * 1e6:7.1f} us CPU, {echo_wall * 1e6:7.1f} us wall"
          f" -> {1 / echo_wall:8,.0f} round trips/s")
    print(f"  floor (raw fd), round trip   {floor_cpu * 1e6:7.1f} us CPU, {floor_wall * 1e6:7.1f} us wall"
          f" -> {1 / floor_wall:8,.0f} round trips/s")
    print(f"  ratio arena / bare echo      {game_cpu / echo_cpu:7.2f}x CPU, {game_wall / echo_wall:5.2f}x wall"
          f"  (goal CPU <= 3x)")
    print(f"  ratio arena / floor          {game_cpu / floor_cpu:7.2f}x CPU, {game_wall / floor_wall:5.2f}x wall")
    if args.think_plies:
        await think_check(cycle, args.think_plies, args.think_ms)


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


async def cpu_figures(game_name: str, plies: int, repeats: int) -> dict[str, list[float]]:
    """Arena's CPU per ply in ``repeats`` games, the rules alone and the match loop without pipes
    (us, each a list of ``repeats`` figures)."""
    cycle = find_cycle(game_name)
    await long_game(cycle, min(plies, 2000))  # warm up (imports, interned moves, row tables)
    game_cpu = []
    for _ in range(repeats):
        _, _, cpu = await long_game(cycle, plies)
        game_cpu.append(cpu / plies * 1e6)
    rules = [rules_cost(cycle, min(plies, 20000)) * 1e6 for _ in range(repeats)]
    loop = [await in_process_loop(cycle, min(plies, 20000)) * 1e6 for _ in range(repeats)]
    return {"game": game_cpu, "rules": rules, "loop": loop}


def before_after(game_name: str, args: argparse.Namespace) -> None:
    """``--cpu-only --before DIR``: the figures of :func:`cpu_figures` for the tree ``DIR`` and this
    one, each measured in a child process whose ``PYTHONPATH`` is the tree, interleaved (before,
    after, after, before...: the second of two children measured back to back came out slower by
    itself), ``--repeats`` rounds; medians and the ratio after/before."""
    trees = [("before", Path(args.before).resolve()), ("after", Path(__file__).resolve().parent.parent)]
    found: dict[str, dict[str, list[float]]] = {}
    loads = []
    for round_ in range(args.repeats):
        for name, tree in trees if round_ % 2 == 0 else trees[::-1]:
            loads.append(os.getloadavg()[0])
            done = subprocess.run([sys.executable, __file__, "--cpu-only", "--games", game_name, "--plies",
                                   str(args.plies), "--repeats", "1", "--json"],
                                  env={**os.environ, "PYTHONPATH": str(tree)}, capture_output=True, text=True,
                                  check=False)
            if done.returncode != 0:
                raise SystemExit(f"engine_overhead: a measurement failed in {tree}:\n{done.stderr[-3000:]}")
            for key, values in json.loads(done.stdout.strip().splitlines()[-1]).items():
                found.setdefault(name, {}).setdefault(key, []).extend(values)
    print(f"{game_name}: CPU per ply, medians of {args.repeats} interleaved rounds of {args.plies} plies"
          f" (load average {min(loads):.1f}-{max(loads):.1f} while measuring)")
    for key, label in (("game", "arena CPU per ply"), ("loop", "match loop without pipes"), ("rules", "rules alone")):
        before, after = _median(found["before"][key]), _median(found["after"][key])
        print(f"  {label:26s} before {before:6.1f} us | after {after:6.1f} us  (after/before {after / before:.2f})")


async def cpu_only(game_name: str, args: argparse.Namespace) -> None:
    """Arena CPU per ply: the median of ``--repeats`` games, with the spread (see --cpu-only)."""
    figures = await cpu_figures(game_name, args.plies, args.repeats)
    if args.json:
        print(json.dumps(figures))
        return
    game_cpu, rules, loop = figures["game"], figures["rules"], figures["loop"]
    median = _median(game_cpu)
    print(f"{game_name}: arena CPU per ply {median:6.1f} us median of {args.repeats} games of {args.plies} plies"
          f" (spread {min(game_cpu):.1f}-{max(game_cpu):.1f}, {(max(game_cpu) - min(game_cpu)) / median:.0%});"
          f" rules {_median(rules):.1f} us; match loop without pipes {_median(loop):.1f} us"
          f"  (load average {os.getloadavg()[0]:.2f})")


SPINNER = "import os\nos.nice(19)\nwhile True:\n    pass\n"


def _start_spinners(count: int) -> list[subprocess.Popen[bytes]]:
    # Popen forks and execs before it returns: a few milliseconds, once, before any measurement.
    return [subprocess.Popen([sys.executable, "-c", SPINNER]) for _ in range(count)]


async def main(args: argparse.Namespace) -> None:
    if args.pin is not None:
        os.sched_setaffinity(0, {args.pin})
        print(f"(this process and the bots run on CPU {args.pin} only: see --pin)")
    spinners = _start_spinners(args.spin)
    try:
        if spinners:
            print(f"({len(spinners)} niced busy loop(s) keep CPUs awake: see --spin)")
        for game_name in args.games.split(","):
            if args.before:
                before_after(game_name.strip(), args)
            elif args.cpu_only:
                await cpu_only(game_name.strip(), args)
            else:
                await bench_game(game_name.strip(), args)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--plies", type=int, default=20000, help="plies per game and echo round trips")
    parser.add_argument("--repeats", type=int, default=3, help="rounds; the best of them is shown")
    parser.add_argument("--games", default="shobu,checkers")
    parser.add_argument("--think-ms", type=float, default=2.0)
    parser.add_argument("--think-plies", type=int, default=300, help="0 skips the think-time check")
    parser.add_argument("--spin", type=int, default=0, help="niced busy loops that keep CPUs awake")
    parser.add_argument("--cpu-only", action="store_true", help="only arena's CPU per ply: median of --repeats")
    parser.add_argument("--pin", type=int, default=None, metavar="CPU", help="run everything on this CPU")
    parser.add_argument("--before", metavar="DIR", help="with --cpu-only: also a checkout to compare with, interleaved")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    trio.run(main, parser.parse_args())
