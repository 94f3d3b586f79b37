"""The rules' share of the referee's ply: the calls the match loop makes into a game, per ply.

Replays seeded random Breakthrough games (moves drawn before the clock starts) through what one
turn of :mod:`arena.match.game` asks of the rules and the protocol: ``outcome``, ``ply`` and
``to_move`` at the top of the turn, the turn's wire message (``encode_turn`` of the state's JSON
form), the reply read (``decode_reply``, ``parse_move``, ``validate_move``), its record entry
(``ColourProgress._turn_and_step``: ``turn_entry``, ``colour_step``) and the move played and encoded
(``ColourProgress._play``: ``apply``, ``state_to_json``).
Some games end on a mangled reply (an illegal move or a malformed one) so the error paths count
too. Prints microseconds per ply (best pass) and a digest of every byte the calls produced (the
wire messages, turn entries, states, error messages and outcomes), so two trees can be compared for
identical output as well as speed.

    .venv/bin/python bench/rules_ply.py [--before DIR] [--games 300] [--repeats 5] [--dump FILE]

``--before DIR``: a checkout to compare with, measured interleaved (before, after, after, before...)
in child processes whose ``PYTHONPATH`` is the tree measured; prints the medians, the ratio
after/before and whether the digests are equal. ``--dump FILE`` writes this tree's outputs, one
per line, for a diff.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _replies(games: int, seed: int) -> list[list[bytes]]:
    """Each game's replies as a bot would send them: random legal moves, and in every fifth game
    a mangled last reply (illegal squares, a wrong key, or not a move)."""
    import orjson

    from arena.games import get_game

    game = get_game("breakthrough")
    rng = random.Random(seed)
    out = []
    for index in range(games):
        state, replies = game.initial_state(), []
        while game.outcome(state) is None:
            move = rng.choice(game.legal_moves(state))
            replies.append(orjson.dumps({"type": "turn", "payload": game.move_to_wire(move)}))
            state = game.apply(state, move)
        if index % 5 == 4:
            cut = rng.randrange(len(replies))
            squares = [f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)]
            bad: Any = rng.choice([
                {"from": rng.choice(squares), "to": rng.choice(squares)},
                {"from": rng.choice(squares), "to": rng.choice(squares)},
                {"from": rng.choice(squares), "too": "a3"},
                {"from": "A2", "to": "a3"},
                [1, 2],
            ])
            replies = replies[:cut] + [orjson.dumps({"type": "turn", "payload": bad})]
        out.append(replies)
    return out


def _play(all_replies: list[list[bytes]], sink: list[bytes] | None) -> tuple[int, float]:
    """``(plies, seconds)`` of replaying the games through the match's per-ply calls; each output
    appended to ``sink`` when given."""
    import orjson

    from arena.games import get_game
    from arena.games.base import IllegalMoveError, MoveSyntaxError
    from arena.games.model import as_general
    from arena.match.clock import TimeControl
    from arena.match.progress import ColourProgress
    from arena.protocols import protocol_for

    game, protocol = get_game("breakthrough"), protocol_for("breakthrough")
    plies, seconds = 0, 0.0
    for replies in all_replies:
        state = game.initial_state()
        progress = ColourProgress(as_general(game), [], TimeControl(), 177, None, None, None)
        progress.start_at(state)
        clock_left = 60_000.0
        began = time.perf_counter()
        for raw in replies:
            state = progress.state
            ruled = game.outcome(state)
            if ruled is not None:
                break
            ply = game.ply(state)
            game.to_move(state)
            message = protocol.encode_turn(game, state, int(clock_left) - ply, progress.states[-1])
            try:
                move = game.validate_move(state, game.parse_move(protocol.decode_reply(raw)))
            except (MoveSyntaxError, IllegalMoveError) as exc:
                if sink is not None:
                    sink.append(message)
                    sink.append(f"{type(exc).__name__}: {exc}".encode())
                break
            # The ply's turn and step, as the record is built from them (at the game's end).
            turn, _ = progress._turn_and_step(move, ply % 2, ply, False, 0.125 * ply, clock_left - ply)
            progress._play(move, ply % 2, ply, False, 0.125 * ply, clock_left - ply)
            plies += 1
            if sink is not None:
                sink.append(message)
                sink.append(orjson.dumps(turn))
        seconds += time.perf_counter() - began
        if sink is not None:
            sink.append(orjson.dumps(progress.states))
            final = game.outcome(progress.state)
            sink.append(repr(final).encode())
    return plies, seconds


def child(games: int, passes: int, dump: str | None) -> dict[str, Any]:
    replies = _replies(games, 24)
    sink: list[bytes] = []
    plies, _ = _play(replies, sink)
    best = min(_play(replies, None)[1] for _ in range(passes))
    if dump:
        Path(dump).write_bytes(b"\n".join(sink) + b"\n")
    digest = hashlib.sha256(b"\n".join(sink)).hexdigest()
    return {"us_per_ply": best / plies * 1e6, "plies": plies, "digest": digest, "outputs": len(sink)}


def _run_child(tree: Path, games: int, passes: int) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "--games", str(games),
                          "--passes", str(passes)], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="a checkout to compare with, measured interleaved")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5, help="interleaved rounds (medians shown)")
    parser.add_argument("--passes", type=int, default=5, help="timed passes per child (best kept)")
    parser.add_argument("--dump", help="write this tree's outputs to FILE, one per line")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.games, args.passes, args.dump)))
        return
    trees = {"after": HERE.parent}
    if args.before:
        trees["before"] = Path(args.before).resolve()
    if args.dump:
        child_out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "--games",
                                    str(args.games), "--passes", "1", "--dump", args.dump],
                                   env=dict(os.environ, PYTHONPATH=str(HERE.parent)), check=True)
        del child_out
    print(f"rules' per-ply calls, Breakthrough, {args.games} games (load average {os.getloadavg()[0]:.2f})")
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for round_ in range(args.repeats):
        order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
        for name in order:
            runs[name].append(_run_child(trees[name], args.games, args.passes))
    medians = {name: statistics.median(r["us_per_ply"] for r in runs[name]) for name in trees}
    for name in trees:
        first = runs[name][0]
        print(f"  {name:6}: {medians[name]:6.2f} us per ply ({first['plies']} plies, {first['outputs']} outputs,"
              f" digest {first['digest'][:16]})")
    if "before" in trees:
        same = runs["before"][0]["digest"] == runs["after"][0]["digest"]
        print(f"  after/before: {medians['after'] / medians['before']:.2f}; outputs identical: {same}")
    print(f"  (load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
