"""Ratings and statistics: pure functions over finished games. No I/O, no trio.

Input is a list of :class:`GameResult` (built from ``games.jsonl`` rows or full game records with
:func:`result_from_row`). Everything here is deterministic: the bootstrap takes a seed.

- :func:`online_elo`: the checkers system's rating: start 1000, K=20, the usual logistic expectation,
  applied game by game in index order (so a rerun gives the same numbers, whatever order games
  finished in).
- :func:`bradley_terry`: a joint maximum-likelihood fit of *all* games. A game between black ``b`` and
  white ``w`` scores 1, 1/2 or 0 for black with probability ``p = sigmoid(r_b - r_w + h)``; a draw
  counts as half a win and half a loss. ``h`` is the optional first-mover advantage. A weak prior
  (``prior_draws`` virtual draws of every agent against an average opponent, and of ``h`` against 0)
  keeps 100% and 0% scorers finite and the fit unique. This is the two-player case of the
  Plackett–Luce fit of :mod:`arena.stats.plackett_luce` (black at seat 0, ``h`` its seat advantage),
  which does the work. Elo = ``400/ln(10) * r``, centred so the agents' mean is 0.
- :func:`bootstrap_intervals`: 95% intervals by resampling colour-swapped game pairs with replacement
  and refitting (percentile method); :func:`normal_intervals`: Elo ± 1.96 standard errors from the
  observed information. Standings report the union of the two, because the bootstrap sees no
  uncertainty when all resamples are alike (a single pair, a 100% score).
- :func:`likelihood_of_superiority`: ``0.5 * (1 + erf((w - l) / sqrt(2 (w + l))))`` over the
  decisive games of a couple, as engine-testing tools report it.
- :func:`crosstable`, :func:`termination_counts`, and :func:`compute_standings` that puts them all into
  the ``standings.json`` object.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

# ELO_PER_NAT, FAULTS and likelihood_of_superiority are re-exported: callers import them from here.
from arena.stats.results import ELO_PER_NAT, FAULTS, MAX_INDEX, describe, ranked_from_game  # noqa: F401
from arena.stats.tables import likelihood_of_superiority, pairwise_table, ranked_termination_counts  # noqa: F401

if TYPE_CHECKING:
    from arena.stats.plackett_luce import PlackettLuce


@dataclass(frozen=True)
class GameResult:
    """One finished game: ``score`` is black's points (1, 0.5 or 0); ``pair`` groups colour-swapped games."""

    index: int
    black: str
    white: str
    score: float
    termination: str = "win"
    pair: int | None = None


def result_from_row(row: Mapping[str, Any]) -> GameResult:
    """A :class:`GameResult` from a ``games.jsonl`` row or a full record (``players`` with colours).

    Raises ValueError (one line saying what is wrong) for anything else: not an object, agents that
    are not strings or are the same, a winner other than BLACK, WHITE or NONE, an index that is not an
    integer from 0 to :data:`MAX_INDEX` (``true`` is not 1).
    """
    if not isinstance(row, Mapping):
        raise ValueError(f"a game must be a JSON object, got {describe(row)}")  # noqa: TRY004 - the contract
    black, white = row.get("black"), row.get("white")
    if black is None or white is None:
        if "players" not in row:
            raise ValueError('a game needs "black" and "white" (or "players" with their colours)')
        players = row["players"]
        if not isinstance(players, list):
            raise ValueError(f'"players" must be a list, got {describe(players)}')
        for player in players:
            if not isinstance(player, Mapping):
                raise ValueError(f'each of "players" must be an object, got {describe(player)}')  # noqa: TRY004
            colour = str(player.get("colour", player.get("color", ""))).upper()
            if colour == "BLACK":
                black = player.get("id")
            elif colour == "WHITE":
                white = player.get("id")
    winner = row.get("winner")
    winner = winner.upper() if isinstance(winner, str) else winner
    scores = {"BLACK": 1.0, "WHITE": 0.0, "NONE": 0.5}
    if black is None or white is None or winner not in scores:
        raise ValueError("a game needs black, white and a winner of BLACK, WHITE or NONE")
    if not isinstance(black, str) or not isinstance(white, str) or black == white:
        raise ValueError("black and white must be the ids of two different agents")
    index = row.get("index", row.get("game_index"))
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= MAX_INDEX:
        raise ValueError(f"a game needs an index from 0 to {MAX_INDEX}, got {describe(index)}")
    pair = row.get("pair")
    termination = row.get("termination", "win")
    return GameResult(
        index=index,
        black=black,
        white=white,
        score=scores[winner],
        termination=termination if isinstance(termination, str) else "win",
        pair=pair if isinstance(pair, int) and not isinstance(pair, bool) else None,
    )


@dataclass(frozen=True)
class PlainColumns:
    """The columns of plain two-player rows (see :func:`plain_pair_columns`): per row its
    ``index``, ``black``, ``white``, black's ``points`` doubled (2, 1, 0), ``pair`` (None when the
    row has none that is an integer) and ``termination``."""

    index: list[int]
    black: list[str]
    white: list[str]
    points: list[int]
    pair: list[int | None]
    termination: list[str]


_DOUBLED_POINTS = {"BLACK": 2, "NONE": 1, "WHITE": 0}


def plain_pair_columns(rows: list[Any]) -> PlainColumns | None:
    """The columns of ``rows`` if each is a plain two-player row, one that :func:`result_from_row`
    accepts with ``black`` and ``white``, a winner of BLACK, WHITE or NONE in capitals and an
    ``index``: what it would make of them, a column at a time (about 1 us a row, against 5). None
    when one is not: the caller then reads them one by one (and names the bad one)."""
    try:
        index = [r["index"] for r in rows]
        black = [r["black"] for r in rows]
        white = [r["white"] for r in rows]
        points = [_DOUBLED_POINTS[r["winner"]] for r in rows]
    except (KeyError, TypeError):
        return None
    if not (set(map(type, index)) <= {int} and set(map(type, black)) <= {str} and set(map(type, white)) <= {str}):
        return None
    if index and (min(index) < 0 or max(index) > MAX_INDEX):
        return None
    if any(b == w for b, w in zip(black, white, strict=True)):
        return None
    pairs = [r.get("pair") for r in rows]
    if not set(map(type, pairs)) <= {int, type(None)}:  # a pair that is not an int is none (as result_from_row)
        pairs = [p if isinstance(p, int) and not isinstance(p, bool) else None for p in pairs]
    terminations = [r.get("termination", "win") for r in rows]
    if not set(map(type, terminations)) <= {str}:
        terminations = [t if isinstance(t, str) else "win" for t in terminations]
    return PlainColumns(index, black, white, points, pairs, terminations)


def _agents_of(results: Iterable[GameResult], agents: Sequence[str] | None) -> list[str]:
    if agents is not None:
        return list(agents)
    seen: dict[str, None] = {}
    for g in results:
        seen.setdefault(g.black)
        seen.setdefault(g.white)
    return list(seen)


# --- the checkers system's legacy online Elo ---------------------------------------------------------


def elo_expectation(rating: float, opponent: float) -> float:
    """Expected score of ``rating`` against ``opponent`` on the Elo logistic curve."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def elo_update(ratings: dict[str, float], game: GameResult, k: float = 20.0) -> None:
    """Apply one game to ``ratings`` in place (both players move by the same amount)."""
    elo_step(ratings, game.black, game.white, game.score, k)


def elo_step(ratings: dict[str, float], black: str, white: str, score: float, k: float = 20.0) -> None:
    """:func:`elo_update` of a game given by its players and black's ``score`` (no GameResult: a
    resumed run's rows are applied a column at a time)."""
    rb, rw = ratings[black], ratings[white]
    delta = k * (score - elo_expectation(rb, rw))
    ratings[black] = rb + delta
    ratings[white] = rw - delta


def online_elo(
    results: Iterable[GameResult], agents: Sequence[str] | None = None, *, start: float = 1000.0,
    k: float = 20.0,
) -> dict[str, float]:
    """The checkers system's legacy ratings after every game, applied in index order (unrounded)."""
    games = sorted(results, key=lambda g: g.index)
    ratings = {a: start for a in _agents_of(games, agents)}
    for g in games:
        elo_update(ratings, g, k)
    return ratings


# --- Bradley-Terry: the two-player case of the Plackett-Luce fit ------------------------------------


@dataclass(frozen=True)
class BTFit:
    """A Bradley–Terry fit: ``elo`` per agent (mean 0); ``first_move_elo`` is ``h`` in Elo (or None)."""

    elo: dict[str, float]
    first_move_elo: float | None
    iterations: int


def _model(results: Sequence[GameResult], agents: Sequence[str] | None, colour_advantage: bool,
           prior_draws: float) -> PlackettLuce:
    """The two-player games as Plackett–Luce rankings (black at seat 0: its advantage is ``h``)."""
    # Imported here: the record checker and the terminal UI import this module for FAULTS and
    # GameResult alone, and need not pay for numpy.
    from arena.stats.pair_games import PairGames, pair_model

    return pair_model(PairGames.from_results(results, _agents_of(results, agents)), colour_advantage, prior_draws)


def bradley_terry(
    results: Sequence[GameResult], agents: Sequence[str] | None = None, *,
    colour_advantage: bool = True, prior_draws: float = 2.0,
) -> BTFit:
    """Joint maximum-likelihood Bradley–Terry fit of ``results`` (see the module docstring).

    ``prior_draws`` must be positive for the fit to be finite when someone scores 100% or 0%.
    """
    fit = _model(results, agents, colour_advantage, prior_draws).fit()
    return BTFit(fit.elo, fit.seat_elo[0] if fit.seat_elo else None, fit.iterations)


def bootstrap_intervals(
    results: Sequence[GameResult], agents: Sequence[str] | None = None, *, samples: int = 200,
    seed: int = 0, level: float = 0.95, colour_advantage: bool = True, prior_draws: float = 2.0,
) -> dict[str, tuple[float, float]]:
    """Percentile bootstrap intervals of each agent's Bradley–Terry Elo.

    The unit of resampling is a colour-swapped pair of games (games sharing ``pair``; a game without
    one is its own unit), because the two games of a pair are not independent.
    """
    return _model(results, agents, colour_advantage, prior_draws).bootstrap_intervals(samples, seed, level)


def normal_intervals(
    results: Sequence[GameResult], agents: Sequence[str] | None = None, *, level: float = 0.95,
    colour_advantage: bool = True, prior_draws: float = 2.0,
) -> dict[str, tuple[float, float]]:
    """Elo ± z·SE of each agent, the standard error from the inverse observed information at the
    fit (prior included) of the agent's rating minus the mean rating."""
    return _model(results, agents, colour_advantage, prior_draws).normal_intervals(level)


# --- tables ------------------------------------------------------------------------------------------


def wdl(results: Iterable[GameResult], agents: Sequence[str] | None = None) -> dict[str, dict[str, int]]:
    """Per agent: games, wins, draws, losses."""
    games = list(results)
    table = {a: {"games": 0, "wins": 0, "draws": 0, "losses": 0} for a in _agents_of(games, agents)}
    for g in games:
        for me, my_score in ((g.black, g.score), (g.white, 1.0 - g.score)):
            row = table.setdefault(me, {"games": 0, "wins": 0, "draws": 0, "losses": 0})
            row["games"] += 1
            row["wins" if my_score == 1.0 else "losses" if my_score == 0.0 else "draws"] += 1
    return table


def crosstable(
    results: Iterable[GameResult], agents: Sequence[str] | None = None
) -> dict[str, dict[str, dict[str, float]]]:
    """``table[a][b]``: a's games, wins, draws, losses, points against b, and a's LOS over b."""
    games = list(results)
    return pairwise_table([ranked_from_game(g) for g in games], _agents_of(games, agents))


def termination_counts(results: Iterable[GameResult]) -> dict[str, Any]:
    """How games ended: ``total`` per termination, and ``faults`` per agent that lost by one."""
    return ranked_termination_counts(ranked_from_game(g) for g in results)


def compute_standings(
    results: Sequence[GameResult], agents: Sequence[str] | None = None, *,
    bootstrap_samples: int = 200, seed: int = 0, colour_advantage: bool = True,
    prior_draws: float = 2.0, warm: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything ``standings.json`` holds; ``standings`` is sorted best first (computed on the
    games as columns: :func:`arena.stats.pair_games.pair_standings`, ``warm`` its warm start)."""
    from arena.stats.pair_games import PairGames, pair_standings  # numpy: only when ratings are asked for

    return pair_standings(PairGames.from_results(results, _agents_of(results, agents)),
                          bootstrap_samples=bootstrap_samples, seed=seed, colour_advantage=colour_advantage,
                          prior_draws=prior_draws, warm=warm)
