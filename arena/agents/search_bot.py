"""Arena's built-in search bot: the ``hyperparameters`` agent, and the engine of the alpha-beta bots.

Run as ``python -m arena.agents.search_bot --game G --hyperparameters FILE [--time-limit MS]
[--max-moves N] [--players N --params JSON]``; it speaks the game's protocol on stdin/stdout (see
:mod:`arena.agents.protocol_io`) and writes one line per move to stderr (depth, score, nodes, time).
With ``"algorithm": "mcts"`` the player is :class:`arena.agents.mcts_bot.MctsAgent`, which plays
every registered game (``--players`` and ``--params`` configure a game of the general model).
The file's keys are documented in :mod:`arena.agents.hyperparameters`; a bad file is a one-line
message on stderr and exit status 2.

``bots/shobu_alphabeta.py`` and ``bots/checkers_alphabeta.py`` call :func:`run_alphabeta_bot`,
which takes the same settings as command-line options.

Time per move. With ``moveTimeMs`` set, that is the budget (checkers: never more than a quarter of
the time left). Otherwise the time left, less a reserve of 3% of the game budget, is spread over
the moves still to play before the move cap: ``0.85 * (left - reserve) / own moves left``, less a
30 ms safety margin. Checkers tells the time left each turn; Shobu does not, so the bot counts its own thinking time against ``--time-limit`` (default 60000 ms,
arena's default budget) and the cap against ``--max-moves`` (default: the game's, 60 turns). Pass
the tournament's values when they differ.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any, NoReturn

from arena.agents.hyperparameters import Hyperparameters, load_hyperparameters, search_adapter_class
from arena.agents.parts import bot_side_ref
from arena.agents.protocol_io import Request
from arena.agents.search import Searcher
from arena.errors import AGENT_ARENA_FAILURE_EXIT, ConfigError, ResourceError
from arena.games import GameError
from arena.games.registry import get_spec, load_ref
from arena.limits import DEFAULT_TIME_LIMIT_MS

_SAFETY_MS = 30.0
_SPEND = 0.85
_RESERVE = 0.03  # of the whole budget, never planned for: pipes, start-up, a slow machine


def move_budget_ms(left_ms: float, total_ms: float, plies_left: int, move_time_ms: int | None, *,
                   clock_sent: bool, players: int = 2) -> float:
    """Thinking time for one move, at least 5 ms (see the module docstring): ``move_time_ms`` when
    set (never more than a quarter of the time ``left_ms`` when the protocol sent the clock), else
    ``left_ms`` less the reserve spread over this seat's share of the ``plies_left``."""
    if move_time_ms is not None:
        budget = float(move_time_ms)
        if clock_sent:
            budget = min(budget, left_ms / 4)
    else:
        own_moves_left = max(1, (plies_left + 1) // players)
        budget = _SPEND * (left_ms - _RESERVE * total_ms) / own_moves_left - _SAFETY_MS
    return max(5.0, budget)


class SearchAgent:
    """Chooses moves for one game of ``game_name`` as ``hyperparameters`` say, with the search
    adapter of the game (:func:`arena.agents.parts.search_ref`; ConfigError when it has none)."""

    def __init__(self, game_name: str, hyperparameters: Hyperparameters, *,
                 time_limit_ms: float | None = None, max_moves: int | None = None,
                 name: str = "search_bot", verbose: bool = True) -> None:
        spec = get_spec(game_name)
        self.spec = spec
        self.game = spec.rules_object()
        self.hp = hyperparameters
        self.name = name
        self.verbose = verbose
        self.max_moves = max_moves if max_moves is not None else spec.default_max_moves
        self.time_limit_ms = float(time_limit_ms if time_limit_ms is not None else DEFAULT_TIME_LIMIT_MS)
        self.used_ms = 0.0  # our own thinking, for protocols that send no clock
        self.rng = random.Random(hyperparameters.seed)
        self.adapter: Any = search_adapter_class(spec)(hyperparameters.evaluation)
        algorithm = "minimax" if hyperparameters.algorithm == "minimax" else "alphabeta"
        self.searcher = Searcher(self.adapter, algorithm=algorithm, use_table=hyperparameters.transposition_table,
                                 max_moves=self.max_moves, rng=self.rng)

    # --- time ---------------------------------------------------------------------------------

    def budget_ms(self, request: Request) -> float:
        """Thinking time for this move (see the module docstring)."""
        left = request.time_left_ms if request.time_left_ms is not None else self.time_limit_ms - self.used_ms
        total = request.total_time_ms if request.total_time_ms is not None else self.time_limit_ms
        return move_budget_ms(left, total, self.max_moves - self.game.ply(request.state), self.hp.move_time_ms,
                              clock_sent=request.time_left_ms is not None)

    # --- choosing -----------------------------------------------------------------------------

    def choose(self, request: Request) -> Any:
        """A legal move for ``request.state`` (never raises for a position with legal moves)."""
        state = request.state
        algorithm = self.hp.algorithm
        if algorithm == "random":
            move = self.rng.choice(self.game.legal_moves(state))
            self._charge(request)
            return move
        pos = self.adapter.from_state(state)
        if algorithm == "greedy":
            result = self.searcher.search(pos, time_ms=None, max_depth=1)
        else:
            result = self.searcher.search(pos, time_ms=self.budget_ms(request), max_depth=self.hp.max_depth)
        try:
            move = self.game.validate_move(state, self.adapter.to_game_move(result.move))
        except GameError as error:  # a bug in an adapter must not lose the game
            self._log(f"search chose an illegal move ({error}); playing a random one")
            move = self.rng.choice(self.game.legal_moves(state))
        self._charge(request)
        self._log(f"ply {self.game.ply(state)}: {self.game.describe_move(move)} score {result.score} "
                  f"depth {result.depth} nodes {result.nodes} in {result.seconds * 1000:.0f} ms")
        return move

    def _charge(self, request: Request) -> None:
        self.used_ms += (time.perf_counter() - request.received_at) * 1000.0

    def _log(self, message: str) -> None:
        if self.verbose:
            print(f"{self.name}: {message}", file=sys.stderr, flush=True)

    def serve(self) -> int:
        """Play the game's protocol on stdin/stdout until arena closes stdin."""
        return serve_protocol(self.spec, self.choose, name=self.name)


def serve_protocol(spec: Any, choose: Any, *, name: str) -> int:
    """Play two-player game ``spec``'s protocol on stdin/stdout with ``choose`` (a
    :data:`arena.agents.protocol_io.Chooser`) until arena closes stdin; ConfigError when the
    protocol names no bot side that loads."""
    bot_side = bot_side_ref(spec)
    if bot_side is None:
        raise ConfigError(f"game {spec.name!r} names no bot side for its protocol {spec.protocol!r}")
    try:
        serve = load_ref(bot_side)
    except GameError as error:
        raise ConfigError(str(error)) from None
    return int(serve(spec.rules_object(), choose, name=name))


class _OneLineParser(argparse.ArgumentParser):
    """argparse whose errors are one line on stderr (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def _positive(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text}")
    return value


def _game_name(text: str) -> str:
    try:
        return get_spec(text).name
    except GameError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _params(text: str) -> dict[str, int]:
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict) or not all(type(v) is int for v in value.values()):
        raise argparse.ArgumentTypeError(f"must be a JSON object of integers, got {text[:60]!r}")
    return value


def _run(agent_factory: Any) -> int:
    try:
        agent = agent_factory()
    except (ConfigError, GameError) as error:
        print(f"search_bot: {error}", file=sys.stderr)
        return 2
    try:
        return agent.serve()
    except (BrokenPipeError, KeyboardInterrupt):
        return 0  # arena went away: nothing left to say
    except ResourceError as error:  # e.g. the referee copy it searches with failed: not its play
        return _arena_failure(error)


def _arena_failure(error: ResourceError) -> int:
    """Say on stderr that this agent stops for arena's reasons (one line) and return
    :data:`arena.errors.AGENT_ARENA_FAILURE_EXIT`, by which arena records an ``arena_error``."""
    print(f"search_bot: arena_error: {error}", file=sys.stderr)
    return AGENT_ARENA_FAILURE_EXIT


def main(argv: list[str] | None = None) -> int:
    """``python -m arena.agents.search_bot``: the hyperparameters agent."""
    parser = _OneLineParser(
        prog="search_bot",
        description="Arena's configurable search bot; speaks the game's protocol on stdin/stdout.",
        epilog="example: python -m arena.agents.search_bot --game checkers "
               "--hyperparameters configs/hyperparameters_checkers.json "
               "(keys: algorithm, maxDepth, moveTimeMs, evaluation, transpositionTable, seed, description; "
               "mcts: iterations, exploration)",
    )
    parser.add_argument("--game", required=True, metavar="GAME",
                        help="a registered game (see 'arena games'); one with a search adapter unless the "
                             "algorithm is mcts")
    parser.add_argument("--hyperparameters", required=True, metavar="FILE", help="JSON settings file")
    parser.add_argument("--time-limit", type=_positive, default=None, metavar="MS",
                        help="the game's time budget when the protocol does not send it (Shobu)")
    parser.add_argument("--max-moves", type=_positive, default=None, metavar="N",
                        help="the match's move cap (default: the game's)")
    parser.add_argument("--players", type=_positive, default=None, metavar="N",
                        help="the number of seats of a game of the general model (default: as arena says)")
    parser.add_argument("--params", type=_params, default=None, metavar="JSON",
                        help="its parameters, a JSON object of integers (e.g. '{\"num_cards\": 5}')")
    parser.add_argument("--rules", default=None, metavar="CMD",
                        help="the referee of an external game (its command line), started for the search")
    parser.add_argument("--quiet", action="store_true", help="no per-move line on stderr")
    args = parser.parse_args(argv)
    if args.rules is not None:  # an external game: its referee registers the game --game names
        from arena.errors import ArenaError
        from arena.referee.registration import register_command

        try:
            register_command(args.rules)
        except ResourceError as error:  # the referee failed (a RefereeError): arena's, not ours
            return _arena_failure(error)
        except (ArenaError, GameError, ValueError) as error:
            parser.error(f"--rules: {error}")
    try:
        args.game = _game_name(args.game)
    except argparse.ArgumentTypeError as error:
        parser.error(f"argument --game: {error}")

    def agent() -> Any:
        hp = load_hyperparameters(args.hyperparameters, args.game)
        if hp.algorithm == "mcts":
            from arena.agents.mcts_bot import MctsAgent

            return MctsAgent(args.game, hp, players=args.players, params=args.params, time_limit_ms=args.time_limit,
                             max_moves=args.max_moves, verbose=not args.quiet)
        return SearchAgent(args.game, hp, time_limit_ms=args.time_limit, max_moves=args.max_moves,
                           verbose=not args.quiet)

    return _run(agent)


def run_alphabeta_bot(game_name: str, argv: list[str], *, name: str) -> int:
    """The command line of ``bots/<game>_alphabeta.py``: alpha-beta with default weights."""
    parser = _OneLineParser(prog=name, description=f"Alpha-beta {game_name} bot (arena's search engine).",
                            epilog=f"example: arena match --game {game_name} \"python3 bots/{name}.py\" "
                                   f"\"python3 bots/{game_name}_greedy.py\"")
    parser.add_argument("--move-time", type=_positive, default=None, metavar="MS",
                        help="thinking time per move (default: spread the game budget over the moves)")
    parser.add_argument("--time-limit", type=_positive, default=None, metavar="MS",
                        help=f"the game's time budget, for Shobu, which sends no clock (default {DEFAULT_TIME_LIMIT_MS})")
    parser.add_argument("--max-moves", type=_positive, default=None, metavar="N",
                        help="the match's move cap (default: the game's)")
    parser.add_argument("--depth", type=_positive, default=64, metavar="N", help="deepest iteration (1-64)")
    parser.add_argument("--seed", type=int, default=None, help="seed for tie-breaks")
    parser.add_argument("--no-table", action="store_true", help="search without a transposition table")
    parser.add_argument("--quiet", action="store_true", help="no per-move line on stderr")
    args = parser.parse_args(argv)
    if args.depth > 64 or (args.move_time is not None and args.move_time > 600_000):
        parser.error("--depth is at most 64 and --move-time at most 600000")
    hp = Hyperparameters(algorithm="alphabeta", max_depth=args.depth, move_time_ms=args.move_time,
                         transposition_table=not args.no_table, seed=args.seed)
    return _run(lambda: SearchAgent(game_name, hp, time_limit_ms=args.time_limit,
                                    max_moves=args.max_moves, name=name, verbose=not args.quiet))


if __name__ == "__main__":
    sys.exit(main())
