"""How much does arena add per ply? A long Shobu game between two instant bots, against a bare pipe echo.

Run: ``.venv/bin/python bench/engine_overhead.py [--plies 20000] [--think-ms 2] [--think-plies 300]``

1. Finds a 4-ply cycle of quiet Shobu turns (black and white each move two stones forth and back),
   so a game can go on for as many plies as we like (``max_moves`` raised).
2. Two *replay bots* answer each game_state line with the next reply from a precomputed table: they
   do no work but read a line and write a line.
3. The same replay bot is driven by a bare trio loop (``send_all`` a game_state line, ``receive_some``
   until the newline): the round trip every engine pays, measured in the same run.
4. Prints arena's CPU time per ply, plies per second, the bare round trip (wall and CPU), the ratio,
   and what the rules cost per ply (parse, validate, apply, outcome, state_to_json) for context.
5. A second game with bots that sleep ``--think-ms`` per move and time themselves (from having read
   the input to having flushed the reply): arena's charged time against the bot's own measure.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import trio

from arena.games import Color, get_game
from arena.match import AgentSpec, TimeControl, play_game
from arena.players.base import MoveReply, Player

REPLAY_BOT = r"""
import json, sys, time
replies = [r.encode() + b"\n" for r in json.loads(sys.argv[1])]
think = float(sys.argv[2]) / 1000.0
out, inp, err = sys.stdout.buffer, sys.stdin.buffer, sys.stderr
i = 0
while True:
    line = inp.readline()
    if not line:
        break
    begun = time.perf_counter()
    if think:
        time.sleep(think)
    out.write(replies[i % len(replies)])
    out.flush()
    if think:
        err.write("think %.6f\n" % ((time.perf_counter() - begun) * 1000.0))
        err.flush()
    i += 1
"""


def find_cycle() -> tuple[list[Any], list[Any]]:
    """Quiet turns m1, w1, m2, w2 with m2/w2 undoing m1/w1: the board repeats every 4 plies."""
    game = get_game("shobu")
    s0 = game.initial_state()
    board0 = game.state_to_json(s0)["board"]

    def stones(state: Any) -> tuple[int, int]:
        board = game.state_to_json(state)["board"]
        return board.count("x"), board.count("o")

    def inverse(move: Any) -> Any:
        wire = game.move_to_wire(move)
        for part in ("passive", "aggressive"):
            origin, heading = wire[part]["origin"], wire[part]["heading"]
            wire[part] = {"origin": {"x": origin["x"] + heading["x"], "y": origin["y"] + heading["y"]},
                          "heading": {"x": -heading["x"], "y": -heading["y"]}}
        return game.parse_move(wire)

    for m1 in game.legal_moves(s0):
        s1 = game.apply(s0, m1)
        if stones(s1) != (16, 16):
            continue
        for w1 in game.legal_moves(s1):
            s2 = game.apply(s1, w1)
            if stones(s2) != (16, 16):
                continue
            try:
                m2 = game.validate_move(s2, inverse(m1))
                s3 = game.apply(s2, m2)
                w2 = game.validate_move(s3, inverse(w1))
            except Exception:
                continue
            if game.state_to_json(game.apply(s3, w2))["board"] == board0:
                return [m1, m2], [w1, w2]
    raise SystemExit("no quiet 4-ply cycle found")


def replay_command(replies: list[str], think_ms: float = 0.0) -> str:
    return shlex.join([sys.executable, "-u", "-c", REPLAY_BOT, json.dumps(replies), str(think_ms)])


def reply_lines(moves: list[Any]) -> list[str]:
    game = get_game("shobu")
    return [orjson.dumps({"type": "turn", "payload": game.move_to_wire(m)}).decode() for m in moves]


async def bare_echo(replies: list[str], rounds: int) -> tuple[float, float]:
    """Per round trip (wall s, our CPU s) of a game_state line through the replay bot, bare trio."""
    game = get_game("shobu")
    message = orjson.dumps({"type": "game_state", "payload": game.state_to_json(game.initial_state())}) + b"\n"
    proc = await trio.lowlevel.open_process(
        shlex.split(replay_command(replies)), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    buffer = bytearray()

    async def round_trip() -> None:
        await proc.stdin.send_all(message)  # type: ignore[union-attr]
        while b"\n" not in buffer:
            buffer.extend(await proc.stdout.receive_some(65536))  # type: ignore[union-attr]
        del buffer[: buffer.index(b"\n") + 1]

    for _ in range(200):  # warm up
        await round_trip()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for _ in range(rounds):
        await round_trip()
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    await proc.stdin.aclose()
    await proc.wait()
    return wall / rounds, cpu / rounds


def rules_cost(moves_black: list[Any], moves_white: list[Any], plies: int) -> float:
    """Seconds per ply the match loop spends in the rules and record forms, measured alone."""
    game = get_game("shobu")
    wires = [game.move_to_wire(m) for m in (moves_black[0], moves_white[0], moves_black[1], moves_white[1])]
    state = game.initial_state()
    begun = time.process_time()
    for ply in range(plies):
        move = game.validate_move(state, game.parse_move(wires[ply % 4]))
        state = game.apply(state, move)
        game.outcome(state)
        game.move_to_record(move)
        game.state_to_json(state)
    return (time.process_time() - begun) / plies


class _InstantPlayer(Player):
    """An in-process player replying from a table: the match loop without pipes or processes."""

    enforces_allowance = True

    def __init__(self, agent_id: str, color: Color, replies: list[str]) -> None:
        super().__init__(agent_id, color)
        self.wires = [orjson.loads(r)["payload"] for r in replies]
        self.index = 0

    async def start(self) -> None:
        pass

    async def aclose(self) -> None:
        pass

    async def request_move(self, state: Any, clock: Any, *, state_json: Any = None) -> MoveReply:
        wire = self.wires[self.index % len(self.wires)]
        self.index += 1
        await trio.lowlevel.checkpoint()  # a real transport yields to the scheduler at least once
        now = trio.current_time()
        return MoveReply(wire=wire, raw=b"", sent_at=now, received_at=now)


async def in_process_loop(black_replies: list[str], white_replies: list[str], plies: int) -> float:
    """CPU seconds per ply of play_game with in-process instant players (rules included)."""
    import arena.match as match_module

    real = match_module.make_player
    tables = {Color.BLACK: black_replies, Color.WHITE: white_replies}
    match_module.make_player = lambda spec, game, color, **_: _InstantPlayer(spec.id, color, tables[color])
    try:
        begun = time.process_time()
        await play_game(get_game("shobu"), AgentSpec("a"), AgentSpec("b"), time_control=TimeControl(),
                        max_moves=plies)
        return (time.process_time() - begun) / plies
    finally:
        match_module.make_player = real


async def long_game(black_replies: list[str], white_replies: list[str], plies: int,
                    think_ms: float = 0.0, stderr_dir: Path | None = None) -> tuple[dict[str, Any], float, float]:
    game = get_game("shobu")
    tc = TimeControl(time_limit_ms=10**9, startup_ms=5000)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    record = await play_game(game, AgentSpec("replay-black", command=replay_command(black_replies, think_ms)),
                             AgentSpec("replay-white", command=replay_command(white_replies, think_ms)),
                             time_control=tc, max_moves=plies, stderr_dir=stderr_dir, game_index=0)
    return record, time.perf_counter() - wall0, time.process_time() - cpu0


async def main(args: argparse.Namespace) -> None:
    black_moves, white_moves = find_cycle()
    black, white = reply_lines(black_moves), reply_lines(white_moves)
    echo_wall, echo_cpu = await bare_echo(black, args.plies)
    record, wall, cpu = await long_game(black, white, args.plies)
    assert record["termination"] == "max_moves" and record["plies"] == args.plies, record["reason"]
    per_ply_cpu, per_ply_wall = cpu / args.plies, wall / args.plies
    rules = rules_cost(black_moves, white_moves, min(args.plies, 20000))
    loop = await in_process_loop(black, white, min(args.plies, 20000))
    print(f"long game: {args.plies} plies of Shobu between two replay bots")
    print(f"  arena CPU per ply          {per_ply_cpu * 1e6:8.1f} us  (of which rules ~{rules * 1e6:.1f} us)")
    print(f"  of it, the match loop alone (in-process instant players, rules included) {loop * 1e6:.1f} us")
    print(f"  wall time per ply          {per_ply_wall * 1e6:8.1f} us  -> {args.plies / wall:,.0f} plies/s")
    print(f"bare trio pipe echo (same bot, same line), {args.plies} round trips")
    print(f"  round trip wall            {echo_wall * 1e6:8.1f} us")
    print(f"  round trip CPU (ours)      {echo_cpu * 1e6:8.1f} us")
    print(f"ratio arena/bare, CPU        {per_ply_cpu / echo_cpu:8.2f}x  (goal <= 3x)")
    print(f"ratio arena/bare, wall       {per_ply_wall / echo_wall:8.2f}x")
    print(f"plies per second             {args.plies / wall:8,.0f}     (goal >= 10,000)")

    with tempfile.TemporaryDirectory() as logs:
        record, _, _ = await long_game(black, white, args.think_plies, args.think_ms, Path(logs))
        own: list[float] = []
        for colour in ("black", "white"):
            log = Path(logs) / f"00000-{colour}-replay-{colour}.log"
            own.append(sum(float(line.split()[1]) for line in log.read_text().splitlines()
                           if line.startswith("think ")))
    charged = sum(record["move_times_ms"])
    # The first move of each bot is charged after the start-up allowance: leave both out.
    first_two = record["move_times_ms"][:2]
    moves = record["plies"]
    print(f"charged vs the bot's own think time, {moves} moves of {args.think_ms} ms sleep")
    print(f"  bots' own measure          {sum(own):10.3f} ms total, {sum(own) / moves:.3f} ms per move")
    print(f"  arena charged              {charged:10.3f} ms total (first moves {first_two} ms, start-up "
          f"allowance)")
    diff = (charged - sum(first_two)) / (moves - 2) - sum(own) / moves
    print(f"  charged - own, per move    {diff:10.3f} ms  (goal within 1 ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=20000)
    parser.add_argument("--think-ms", type=float, default=2.0)
    parser.add_argument("--think-plies", type=int, default=300)
    trio.run(main, parser.parse_args())
