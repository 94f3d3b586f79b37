"""The one builder of a colour-swapped pair's games: who plays which colour, and from where.

A *pair* is two games between the same two agents with the colours swapped, both from the same
opening. Tournaments, SPRT runs, SPSA's command-agent games and ``arena match`` all play pairs;
:func:`pair_games` is how each of them builds one, so a pair's opening is the same function of the
run's seed everywhere:

- a book (:class:`arena.openings.book.Book`): the book's pick for the pair (``sequential`` or
  seeded ``random`` order), no random plies;
- otherwise ``plies`` random plies seeded :func:`arena.games.base.opening_seed` ``(seed, pair)``
  (played by :func:`arena.match.game.play_game`, so the record's ``seed`` replays them).

The recorded ``seed`` differs by caller and stays as each has always written it (record bytes are
part of the format): tournaments and ``arena match`` record the pair's opening seed whenever the run
has a seed (``always_record_seed``); SPRT runs and SPSA record it only for random plies.

Pure: no I/O, no randomness but the seeded kind. Generic over what an agent is (an
:class:`arena.players.spec.AgentSpec`, or a tournament's agent id).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from arena.games.base import opening_seed

if TYPE_CHECKING:
    from arena.openings.book import Book, Order

A = TypeVar("A")


@dataclass(frozen=True)
class Openings:
    """Where a run's pairs start: ``plies`` random plies, or a ``book`` picked in ``order`` (the two
    exclude each other; with a book ``plies`` is ignored)."""

    plies: int = 0
    book: Book | None = None
    order: Order = "random"


@dataclass(frozen=True)
class PairOpening:
    """A pair's opening: the start state (None: the game's start), the random plies played from
    it, the seed recorded, and the book line (None without a book)."""

    start_state: Any
    plies: int
    seed: int | None
    line: int | None


@dataclass(frozen=True)
class PairGame(Generic[A]):
    """One game of a pair: ``black`` and ``white``, and the pair's opening."""

    black: A
    white: A
    opening: PairOpening


def pair_opening(pair: int, seed: int | None, openings: Openings = Openings(), *,
                 always_record_seed: bool = False) -> PairOpening:
    """The opening of pair ``pair`` (0-based) of a run seeded ``seed`` (module docstring)."""
    if openings.book is not None:
        picked = openings.book.pick(pair, openings.order, seed if seed is not None else 0)
        recorded = opening_seed(seed, pair) if always_record_seed and seed is not None else None
        return PairOpening(picked.state, 0, recorded, picked.line)
    if seed is None or not (openings.plies or always_record_seed):
        return PairOpening(None, openings.plies, None, None)
    return PairOpening(None, openings.plies, opening_seed(seed, pair), None)


def pair_games(first: A, second: A, pair: int, seed: int | None, openings: Openings = Openings(), *,
               always_record_seed: bool = False) -> tuple[PairGame[A], PairGame[A]]:
    """The two games of pair ``pair``: ``first`` plays BLACK in the first, ``second`` in the other,
    both from :func:`pair_opening`. Which index each game gets is the caller's schedule."""
    opening = pair_opening(pair, seed, openings, always_record_seed=always_record_seed)
    return PairGame(first, second, opening), PairGame(second, first, opening)


__all__ = ["Openings", "PairGame", "PairOpening", "pair_games", "pair_opening"]
