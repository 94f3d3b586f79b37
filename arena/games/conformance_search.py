"""The conformance check of a game's search adapter (``GameSpec.search``, the alpha-beta agent's
view of a two-seat game of turns), against the rules seen through the one game interface
(:class:`arena.games.model.GeneralGame`); standard library only. :func:`arena.games.conformance.check_spec`
runs it for every spec that names an adapter."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from arena.games.conformance_parts import Context
from arena.games.model import TERMINAL, GeneralGame


def check_search_adapter(game: GeneralGame[Any, Any], adapter_class: Any, *, games: int = 5, ply_cap: int = 500,
                         seed: int = 20261121) -> int:
    """Compare a search adapter with the rules on every state of ``games`` random games.

    Needs the adapter's bridges ``from_state`` and ``to_game_move`` (without them only
    ``DEFAULT_WEIGHTS`` and construction are checked). At each state: ``ply`` agrees, and while the
    game goes on the adapter's moves are the acting seat's legal moves and ``terminal_score`` (when
    present) is None; at the end (the side to move being the seat that did not move last), a draw
    scores 0 and a win scores for the winner by the returns (or, without ``terminal_score``, the
    loser has no moves). Returns the number of states compared; raises
    :class:`arena.games.conformance_parts.ConformanceError`.
    """
    ctx = Context(str(getattr(game, "name", "game")))
    ctx.where = "search adapter"
    weights = getattr(adapter_class, "DEFAULT_WEIGHTS", None)
    if not isinstance(weights, dict) or not all(isinstance(k, str) and type(v) is int for k, v in weights.items()):
        raise ctx.fail("DEFAULT_WEIGHTS must be a dict of str -> int")
    with ctx.step("adapter(DEFAULT_WEIGHTS)"):
        adapter = adapter_class(dict(weights))
    if not (hasattr(adapter, "from_state") and hasattr(adapter, "to_game_move")):
        return 0
    rng = random.Random(seed)
    compared = 0
    for index in range(games):
        state, mover = game.initial_state(), game.actor(game.initial_state())
        for ply in range(ply_cap + 1):
            ctx.where, ctx.state_json = f"search adapter, game {index}, ply {ply}", game.state_to_json(state)
            who = game.actor(state)
            _compare(game, adapter, state, mover if who == TERMINAL else who, ctx)
            compared += 1
            if who == TERMINAL or ply == ply_cap:
                break
            moves = game.legal_moves(state, who)
            state, mover = game.apply(state, moves[rng.randrange(len(moves))]), 1 - who
    return compared


def _compare(game: GeneralGame[Any, Any], adapter: Any, state: Any, mover: int, ctx: Context) -> None:
    """The adapter's view of ``state`` against the rules; ``mover``: the seat to move (at the end,
    the one that did not move last)."""
    with ctx.step("from_state(state)"):
        pos = adapter.from_state(state)
    with ctx.step("adapter.ply / moves / terminal_score"):
        if adapter.ply(pos) != game.ply(state):
            raise ctx.fail(f"adapter ply {adapter.ply(pos)!r}, rules ply {game.ply(state)}")
        raw = adapter.moves(pos)
        score_of = getattr(adapter, "terminal_score", None)
        score = score_of(pos) if score_of is not None else None
        has_moves = adapter.has_moves(pos)
    if has_moves != bool(raw):
        raise ctx.fail(f"has_moves() is {has_moves} but moves() gave {len(raw)}")
    if game.actor(state) != TERMINAL:
        if score is not None:
            raise ctx.fail(f"terminal_score() is {score!r} while the game goes on")
        with ctx.step("to_game_move(each adapter move)"):
            mine = Counter(adapter.to_game_move(m) for m in raw)
        legal = Counter(game.legal_moves(state, mover))
        if mine != legal:
            extra = [game.describe_move(m) for m in mine - legal][:5]
            missing = [game.describe_move(m) for m in legal - mine][:5]
            raise ctx.fail(f"adapter moves differ from the legal moves: extra {extra}, missing {missing}")
        return
    returns = game.returns(state)
    own, theirs = returns[mover], returns[1 - mover]
    if own == theirs:
        if score != 0:
            raise ctx.fail(f"a drawn end needs terminal_score() == 0, got {score!r}")
    elif score is None:
        if raw:
            raise ctx.fail("the game is over but the adapter gives moves and no terminal_score()")
        if own > theirs:
            raise ctx.fail("the side to move wins, but an adapter without moves scores it as a loss")
    elif (score > 0) != (own > theirs):
        winner = game.seat_names[mover if own > theirs else 1 - mover]
        raise ctx.fail(f"terminal_score() {score!r} (for the side to move) disagrees with winner {winner}")
