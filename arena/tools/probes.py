"""Probe positions derived from a game itself, for ``arena check-bot`` (pure: no process, no I/O).

Any game (:class:`arena.games.model.GeneralGame`, the one game interface), arena's own, a
plugin's, a referee's or OpenSpiel's, is searched by
seeded random playouts from its start (at most :data:`PLAYOUTS` of them, each stopped a few steps
before the move cap) for the first position of each kind it has:

- **a forced pass**: a seat whose only legal move is a pass (a move written ``pass``, ``skip`` or
  ``none``, or the JSON null);
- **a single legal move** (that is not a pass);
- **a chance outcome**: a chance node, arena draws, then a seat moves;
- **a simultaneous move**: several seats asked at once;
- **a seat out**: the position after a seat's elimination (``game.eliminate``) with the others still
  playing, in games of three seats or more that take a seat out rather than end;
- **every seat**: the first decision of each seat (``playing as seat k``).

A game may add its own corner cases: :meth:`GeneralGame.probe_positions` (a method, or an
attribute holding the list) returning ``[(label, state), ...]``; each becomes a probe named ``label``.

Each :class:`Probe` names the seats the bot takes there: the acting seats (every seat at a chance
node or after an elimination, where who acts next depends on the draw or on who is out).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.games.model import CHANCE, SIMULTANEOUS, GeneralGame, draw_chance

#: Random playouts searched for probe positions (seeded: the same positions every run).
PLAYOUTS = 60
#: The words of a pass move (its wire form or description, case aside).
PASS_WORDS = frozenset({"pass", "skip", "none", "null", "--"})
#: Probes stop this many steps before the move cap, so that the bot is asked before the cap ends the game.
MARGIN = 3

FORCED_PASS = "a forced pass (the only legal move is a pass)"
SINGLE_MOVE = "a single legal move"
CHANCE_OUTCOME = "a chance outcome (arena draws, then a seat moves)"
SIMULTANEOUS_MOVE = "a simultaneous move (seats asked at once)"
SEAT_OUT = "a seat out (eliminated), the others playing on"


@dataclass(frozen=True)
class Probe:
    """A position to run the bot from: ``label`` names it in the report, ``seats`` are the seats
    the bot takes (the others get arena's random player)."""

    label: str
    state: Any
    seats: tuple[int, ...]


def is_pass(game: GeneralGame[Any, Any], move: Any) -> bool:
    """Whether ``move`` is a pass by its wire form or description."""
    wire = game.move_to_wire(move)
    return wire is None or str(wire).strip().lower() in PASS_WORDS or \
        game.describe_move(move).strip().lower() in PASS_WORDS


def derived_probes(game: GeneralGame[Any, Any], seed: int, cap: int, *, playouts: int = PLAYOUTS) -> list[Probe]:
    """The probes found in ``game`` by random play (see the module docstring), in a fixed order:
    every seat, then the kinds of position found. ``cap`` is the move cap of the probe games. The
    game's own corner cases are :func:`declared_probes`."""
    rng = random.Random(seed)
    found: dict[str, Probe] = {}
    wanted = [f"playing as seat {seat} ({game.seat_names[seat]})" for seat in range(game.players)]
    wanted += [FORCED_PASS, SINGLE_MOVE, CHANCE_OUTCOME, SIMULTANEOUS_MOVE]
    wanted += [SEAT_OUT] if game.players > 2 else []
    everyone = tuple(range(game.players))
    for _ in range(playouts):
        state = game.initial_state()
        while not game.is_terminal(state) and game.ply(state) < cap - MARGIN:
            who = game.actor(state)
            for probe in _kinds(game, state, who, everyone):
                found.setdefault(probe.label, probe)
            after = _step(game, state, who, rng)
            # A chance node right before a decision: from there the bot moves right after the draw.
            if who == CHANCE and not game.is_terminal(after) and game.actor(after) != CHANCE:
                found.setdefault(CHANCE_OUTCOME, Probe(CHANCE_OUTCOME, state, everyone))
            state = after
        if all(label in found for label in wanted):
            break
    return [found[label] for label in wanted if label in found]


def _kinds(game: GeneralGame[Any, Any], state: Any, who: int, everyone: tuple[int, ...]) -> list[Probe]:
    """The probes ``state`` (not a chance node) is an example of."""
    probes: list[Probe] = []
    if who == SIMULTANEOUS:
        probes.append(Probe(SIMULTANEOUS_MOVE, state, game.acting_seats(state)))
    elif who >= 0:
        probes.append(Probe(f"playing as seat {who} ({game.seat_names[who]})", state, (who,)))
        legal = game.legal_moves(state, who)
        if len(legal) == 1:
            probes.append(Probe(FORCED_PASS if is_pass(game, legal[0]) else SINGLE_MOVE, state, (who,)))
    else:
        return probes
    if game.players > 2:
        # One seat tried per position (the one after the actor): eliminate() may be costly, and one
        # example is enough.
        seat = (max(who, 0) + 1) % game.players
        after = game.eliminate(state, seat)
        if after is not None and not game.is_terminal(after):
            probes.append(Probe(SEAT_OUT, after, tuple(s for s in everyone if s != seat)))
    return probes


def _step(game: GeneralGame[Any, Any], state: Any, who: int, rng: random.Random) -> Any:
    if who == CHANCE:
        return game.apply(state, draw_chance(game.chance_outcomes(state), rng))
    if who == SIMULTANEOUS:
        return game.apply_joint(state, {s: rng.choice(game.legal_moves(state, s)) for s in game.acting_seats(state)})
    return game.apply(state, rng.choice(game.legal_moves(state, who)))


def declared_probes(game: GeneralGame[Any, Any]) -> list[Probe]:
    """The game's own corner cases: its ``probe_positions``, each ``(label, state)``."""
    source: Callable[[], Any] | list[tuple[str, Any]] = game.probe_positions
    everyone = tuple(range(game.players))
    probes = []
    for label, state in (source() if callable(source) else source):
        who = game.actor(state)
        seats = game.acting_seats(state) if who >= 0 or who == SIMULTANEOUS else everyone
        probes.append(Probe(str(label), state, tuple(seats) or everyone))
    return probes
