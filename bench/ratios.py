"""Issue 36's ratios in one command, each printed with the machine's load average:

    .venv/bin/python bench/ratios.py [--before DIR] [--games 100] [--repeats 3] [--plies 20000]
                                     [--concurrency 1 2] [--mcts-seconds 2] [--strength]

1. the pipe floors: arena's CPU a ply of the referee against a trio echo, a bare trio round trip and
   a blocking C pipe (``bench/speed.py``, part 1);
2. games a second by concurrency of a tournament of instant C bots, arena's CPU a ply and a game,
   the driver's own CPU a game and so the games a second one driver core can keep up with
   (``bench/speed.py``, part 2; with ``--concurrency 1 2 4 ...``);
3. arena against fastchess: CPU a ply and games a second (``bench/speed.py``, part 3; fastchess is
   optional, found through ``$FASTCHESS`` and ``$FASTCHESS_ENGINE`` as there, skipped with one line
   when it is not built);
4. MCTS iterations a second in every two-player game with a search adapter, with the rules' generic
   search beside it (``bench/mcts_strength.py``); ``--strength`` adds its results table at
   ``--move-ms`` a move against the alpha-beta agent and a random player (hours at 1 s a move).

The parts are those benches' own code, run here one after the other, so each figure means what
it means there. ``--before DIR``: a checkout to compare with, as ``bench/speed.py --before``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(HERE.parent))

import mcts_strength  # noqa: E402
import speed  # noqa: E402

from arena.agents.parts import search_ref  # noqa: E402
from arena.games.registry import GENERAL, all_specs  # noqa: E402


def mcts_section(args: argparse.Namespace) -> None:
    print(f"\n4. MCTS iterations a second (one search from the start, {args.mcts_seconds:g} s; {speed.load()})")
    for spec in [s for s in all_specs() if s.model != GENERAL and search_ref(s) is not None]:
        generic = mcts_strength.iterations_per_second(spec, args.mcts_seconds, "generic")
        adapter = mcts_strength.iterations_per_second(spec, args.mcts_seconds, "adapter")
        print(f"   {spec.name:<14} adapter {adapter:>9,.0f}   generic {generic:>9,.0f}   ({speed.load()})", flush=True)
    if args.strength:
        print(f"\n   strength at {args.move_ms} ms a move, {args.strength_games} games a row:", flush=True)
        mcts_strength.main(["--move-ms", str(args.move_ms), "--games", str(args.strength_games),
                            "--speed-seconds", "0.1"])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    speed.common_arguments(parser, games=100)
    parser.add_argument("--mcts-seconds", type=float, default=2.0, help="length of each MCTS speed search")
    parser.add_argument("--strength", action="store_true", help="also MCTS's results table (long)")
    parser.add_argument("--move-ms", type=int, default=1000, help="--strength: time a move")
    parser.add_argument("--strength-games", type=int, default=100, help="--strength: games a row")
    args = parser.parse_args()
    if shutil.which("cc") is None:
        raise SystemExit("ratios: needs a C compiler (cc) for the instant bot and the pipe floor")
    print(f"arena ratios (issue 36): {os.cpu_count()} cores, {speed.load()}; trees: "
          + ", ".join(f"{name} = {tree}" for name, tree in speed.trees(args)))
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)  # the bots run as their own users (arena as root): they must reach it
        bot = speed.build_c("breakthrough_instant", Path(tmp))
        speed.referee_section(args, speed.build_c("pipe_floor", Path(tmp)))
        speed.fastchess_section(args, speed.tournament_section(args, bot))
    mcts_section(args)
    print(f"\ndone ({speed.load()})")


if __name__ == "__main__":
    main()
