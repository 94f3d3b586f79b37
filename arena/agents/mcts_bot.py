"""The ``hyperparameters`` agent with ``"algorithm": "mcts"``: :class:`arena.agents.mcts.Mcts` as
a bot process, for every registered game (started by :mod:`arena.agents.search_bot`).

- A two-player game speaks its own protocol (its registry entry's bot side, e.g.
  :func:`arena.agents.protocol_io.serve_json`); the state it is sent is searched as it is: on the
  game's search adapter with its evaluation (:mod:`arena.agents.mcts_adapter`, the tree kept from
  move to move) where the registry names one, else by :class:`arena.agents.mcts.Mcts`. The
  adapter engine's exploration is its own default (0.3) unless the file sets another than sqrt(2).
- A game of the general model speaks the N-seat envelope (:func:`arena.agents.protocol_io.serve_seats`):
  the bot sees only its seat's observation, so every iteration starts from a state drawn with
  ``game.determinize(observation, seat, rng)`` (information-set MCTS). The game is configured with
  ``--players`` and ``--params`` (arena passes them); without ``--players``, by the ``players`` of
  the first message.

Budget per move (:func:`arena.agents.search_bot.move_budget_ms` for the clock): ``iterations``
alone: exactly that many, whatever the clock; ``moveTimeMs`` (with or without ``iterations``):
that time at most, and at most a quarter of the time left; neither: the time left, less a reserve,
spread over this seat's share of the plies to the move cap. Protocols that send the time left
but not the whole budget (the JSON envelopes) have the first time left taken as the budget.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import replace
from typing import Any

from arena.agents.hyperparameters import Hyperparameters
from arena.agents.mcts import DEFAULT_EXPLORATION, Budget, Mcts, SearchResult
from arena.agents.mcts_adapter import DEFAULT_EXPLORATION as ADAPTER_EXPLORATION
from arena.agents.mcts_adapter import AdapterMcts
from arena.agents.parts import search_ref
from arena.agents.protocol_io import Request, SeatRequest, serve_seats
from arena.games.base import GameError
from arena.games.registry import GENERAL, get_spec
from arena.limits import DEFAULT_TIME_LIMIT_MS


class MctsAgent:
    """Chooses moves for one game of ``game_name`` (``players`` and ``params`` for a game of the
    general model) by MCTS as ``hyperparameters`` say. GameError for players or parameters the
    game refuses."""

    def __init__(self, game_name: str, hyperparameters: Hyperparameters, *, players: int | None = None,
                 params: dict[str, int] | None = None, time_limit_ms: float | None = None,
                 max_moves: int | None = None, name: str = "mcts", verbose: bool = True) -> None:
        self.spec = get_spec(game_name)
        self.params = dict(params or {})
        self.game = self.spec.table(players, self.params)
        self.hp = hyperparameters
        self.name = name
        self.verbose = verbose
        self.max_moves = max_moves if max_moves is not None else self.spec.default_max_moves
        self.time_limit_ms = float(time_limit_ms if time_limit_ms is not None else DEFAULT_TIME_LIMIT_MS)
        self.total_ms: float | None = None  # the first time left the protocol sent: the game's budget
        self.used_ms = 0.0  # our own thinking, for protocols that send no clock
        self.rng = random.Random(hyperparameters.seed)
        self.mcts = Mcts(self.game, rng=self.rng, exploration=hyperparameters.exploration, max_ply=self.max_moves)
        # A two-player game with a search adapter is searched on it, with its evaluation.
        self.adapter: Any = None
        self.fast: AdapterMcts | None = None
        if self.spec.model != GENERAL and search_ref(self.spec) is not None:
            from arena.agents.hyperparameters import search_adapter_class

            self.rules = self.spec.rules_object()
            self.adapter = search_adapter_class(self.spec)(None)
            exploration = ADAPTER_EXPLORATION if hyperparameters.exploration == DEFAULT_EXPLORATION \
                else hyperparameters.exploration
            self.fast = AdapterMcts(self.adapter, rng=self.rng, exploration=exploration, max_ply=self.max_moves)

    # --- the budget ---------------------------------------------------------------------------

    def budget(self, time_left_ms: float | None, total_ms: float | None, ply: int, received_at: float) -> Budget:
        """When this move's search stops (see the module docstring)."""
        from arena.agents.search_bot import move_budget_ms

        hp = self.hp
        if hp.iterations is not None and hp.move_time_ms is None:
            return Budget(iterations=hp.iterations)
        if time_left_ms is not None and self.total_ms is None:
            self.total_ms = time_left_ms
        left = time_left_ms if time_left_ms is not None else self.time_limit_ms - self.used_ms
        total = total_ms or self.total_ms or self.time_limit_ms
        ms = move_budget_ms(left, total, self.max_moves - ply, hp.move_time_ms, clock_sent=time_left_ms is not None,
                            players=self.game.players)
        return Budget(iterations=hp.iterations, deadline=received_at + ms / 1000.0)

    # --- choosing -----------------------------------------------------------------------------

    def choose(self, request: Request) -> Any:
        """A move of a two-player game at ``request.state`` (a position with legal moves)."""
        state = request.state
        seat = self.game.actor(state)
        budget = self.budget(request.time_left_ms, request.total_time_ms, self.game.ply(state), request.received_at)
        if self.fast is not None:
            result = self.fast.search(self.adapter.from_state(state), budget)
            try:
                move = self.rules.validate_move(state, self.adapter.to_game_move(result.move))
            except GameError as error:  # a bug in an adapter must not lose the game
                print(f"{self.name}: search chose an illegal move ({error}); playing a random one",
                      file=sys.stderr, flush=True)
                move = self.rng.choice(self.rules.legal_moves(state))
            result = replace(result, move=move)
        else:
            result = self.mcts.search(seat, lambda rng: state, budget)
        self._done(request.received_at, self.game.ply(state), result)
        return result.move

    def choose_seat(self, request: SeatRequest) -> Any:
        """The wire move of ``request.seat`` in a game of the general model, from its observation."""
        if request.players != self.game.players:
            self.game = self.spec.table(request.players, self.params)
            self.mcts = Mcts(self.game, rng=self.rng, exploration=self.hp.exploration, max_ply=self.max_moves)
        game, observation, seat = self.game, request.observation, request.seat
        first = game.determinize(observation, seat, self.rng)
        budget = self.budget(request.time_left_ms, None, game.ply(first), request.received_at)
        result = self.mcts.search(seat, lambda rng: game.determinize(observation, seat, rng), budget)
        self._done(request.received_at, game.ply(first), result)
        return game.move_to_wire(result.move)

    def _done(self, received_at: float, ply: int, result: SearchResult) -> None:
        self.used_ms += (time.perf_counter() - received_at) * 1000.0
        if self.verbose:
            best = max(result.visits, default=0)
            mean = max((m for m, v in zip(result.means, result.visits, strict=True) if v == best), default=0.0)
            print(f"{self.name}: ply {ply}: {self.game.describe_move(result.move)} visits {best}/{result.iterations} "
                  f"mean {mean:+.3f} in {result.seconds * 1000:.0f} ms", file=sys.stderr, flush=True)

    def serve(self) -> int:
        """Play the game's protocol on stdin/stdout until arena closes stdin."""
        from arena.agents.search_bot import serve_protocol

        if self.spec.model == GENERAL:
            return serve_seats(self.choose_seat, name=self.name)
        return serve_protocol(self.spec, self.choose, name=self.name)


__all__ = ["MctsAgent"]
