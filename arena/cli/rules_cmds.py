"""`arena pass-through`, `arena moves` and `arena perft`: the rules tools for bot authors."""

from __future__ import annotations

import errno
import functools
import sys
from pathlib import Path
from typing import Any

import click
import orjson

from arena.cli.exits import ArenaCommand
from arena.cli.options import game_option as shared_game_option
from arena.cli.options import rules_for, table_options
from arena.fileio.files import UnsafeFileError, read_input
from arena.games import StateError
from arena.limits import MAX_PERFT_DEPTH, MAX_STATE_BYTES
from arena.tools.perft import perft
from arena.tools.rules import (
    MalformedInput,
    decode_object,
    iter_chunks,
    moves_one,
    pass_through_one,
    perft_one,
    run_stream,
)

game_option = shared_game_option("Which game's rules to use (see 'arena games').")


def _stream(handler: Any) -> int:
    report = run_stream(handler, iter_chunks(sys.stdin.buffer), sys.stdout.buffer, sys.stderr)
    return report.exit_code


def run_pass_through(game_name: str, players: int | None = None, params: tuple[str, ...] = ()) -> int:
    """Run pass-through over stdin/stdout; returns the exit status."""
    game = rules_for(game_name, players, params)
    return _stream(functools.partial(pass_through_one, game))


@click.command(
    "pass-through",
    cls=ArenaCommand,
    epilog="""\b
Example:
  echo '{"turn": "2 3 2 2 3", "game_state": {"board": [". b . b . b . b", "b . b . b . b .",
    ". b . b . b . b", ". . . . . . . .", ". . . . . . . .", "w . w . w . w .",
    ". w . w . w . w", "w . w . w . w ."], "turn": "BLACK", "turnNumber": 0}}' \\
    | arena pass-through --game checkers""",
)
@game_option
@table_options()
def pass_through_command(game_name: str, players: int | None, params: tuple[str, ...]) -> None:
    """Apply a move to a state: read {"turn": T, "game_state": S} objects on stdin, print each next
    state S' as one JSON line.

    T is the move as a bot sends it (Shobu: the turn payload; checkers: the path string). An illegal
    move prints {"error": "illegal_move", "reason": ...}; malformed input prints
    {"error": "malformed_input", "reason": ...} (and the message on stderr). Every object gets
    exactly one output line. Exit status: 0 all applied, 1 some move was illegal, 2 malformed input.

    A game of more than two players reads {"game_state": S, "seat": k, "turn": T}, or
    {"game_state": S, "turns": {"0": T0, ...}} at a simultaneous step, or {"game_state": S,
    "chance": O} at a chance step (docs/bots.md).
    """
    sys.exit(run_pass_through(game_name, players, params))


@click.command(
    "moves",
    cls=ArenaCommand,
    epilog="""\b
Example:
  echo '{"board": "oooooooo................xxxxxxxxoooooooo................xxxxxxxx",
         "turn": "BLACK", "turnNumber": 0}' | arena moves --game shobu""",
)
@game_option
@table_options()
def moves_command(game_name: str, players: int | None, params: tuple[str, ...]) -> None:
    """List every legal move: read state objects {"board", "turn", "turnNumber"} on stdin and print,
    for each, one JSON line with the array of legal moves in the form a bot sends them, in a
    deterministic order. Exit status 2 on malformed input. For a game of more than two players
    each line says who acts and what each acting seat may do: {"actor": 1, "moves": {"1": [...]}},
    {"actor": "chance", "outcomes": [[O, "1/3"], ...]} or {"actor": "terminal", "returns": [...]}."""
    game = rules_for(game_name, players, params)
    sys.exit(_stream(functools.partial(moves_one, game)))


def _load_state_option(game: Any, text: str) -> Any:
    """--state VALUE: inline JSON or @FILE; returns the game state. Raises click errors."""
    if text.startswith("@"):
        path = Path(text[1:])
        try:
            # A regular file (a FIFO would hang, /dev/zero fill the memory), at most 1 MiB.
            raw = read_input(path, MAX_STATE_BYTES)
        except UnsafeFileError as exc:
            if exc.errno == errno.EFBIG:
                raise click.BadParameter(f"a state is at most {MAX_STATE_BYTES} bytes; {path} is longer",
                                         param_hint="--state") from None
            raise click.BadParameter(f"cannot read {path}: {exc.strerror}", param_hint="--state") from None
        except OSError as exc:
            raise click.BadParameter(f"cannot read {path}: {exc.strerror}", param_hint="--state") from None
    else:
        raw = text.encode()
    if len(raw) > MAX_STATE_BYTES:
        raise click.BadParameter(f"a state is at most {MAX_STATE_BYTES} bytes; this input is longer",
                                 param_hint="--state")
    try:
        return game.state_from_json(decode_object(raw))
    except (MalformedInput, StateError) as exc:
        raise click.BadParameter(str(exc), param_hint="--state") from None


@click.command(
    "perft",
    cls=ArenaCommand,
    epilog="""\b
Examples:
  arena perft --game checkers --depth 7
  arena perft --game shobu --depth 2 --divide --json
  arena moves --game shobu < state.json      (see also: --state @state.json, --state -)""",
)
@game_option
@table_options()
@click.option("--depth", type=click.IntRange(min=0, max=MAX_PERFT_DEPTH), required=True, help="Plies to count below the position.")
@click.option("--divide", is_flag=True, help="Also count the leaves below each first move.")
@click.option("--json", "as_json", is_flag=True, help='Print {"game", "depth", "nodes", "seconds"} as JSON.')
@click.option(
    "--state",
    "state_text",
    default=None,
    metavar="JSON|@FILE|-",
    help="Start from this state instead of the initial position; '-' reads a stream of states on "
    "stdin and prints one JSON result line per state.",
)
def perft_command(game_name: str, players: int | None, params: tuple[str, ...], depth: int, divide: bool,
                  as_json: bool, state_text: str | None) -> None:
    """Count the leaves of the legal-move tree DEPTH plies deep (a move-generator check: checkers
    from the start gives 7, 49, 302, 1469, ...; Shobu gives 232, 50508). In a game of more than two
    players a chance outcome and a simultaneous step's joint move count as one ply each. As in
    chess, a game that ends before DEPTH counts nothing at DEPTH."""
    game = rules_for(game_name, players, params)
    if state_text == "-":
        sys.exit(_stream(functools.partial(perft_one, game, depth=depth, divide=divide)))
    state = game.initial_state() if state_text is None else _load_state_option(game, state_text)
    result = perft(game, state, depth, divide)
    if as_json:
        sys.stdout.buffer.write(orjson.dumps(result.to_json()) + b"\n")
        return
    for move, count in result.divide or []:
        click.echo(f"{move}: {count}")
    if result.divide:
        click.echo("")
    rate = result.nodes / result.seconds if result.seconds > 0 else float("inf")
    click.echo(f"perft({depth}) = {result.nodes}  ({result.seconds:.3f} s, {rate:,.0f} leaves/s)")

