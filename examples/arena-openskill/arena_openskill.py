"""Weng–Lin ratings for arena: the ``weng-lin`` rating method (entry point group ``arena.ratings``).

The Bayesian online rating of Weng and Lin (JMLR 12, 2011), as the `openskill` package implements
it: every agent's skill is a normal distribution (mu, sigma), updated game by game from the seats'
ranks. The model is openskill's ``PlackettLuce`` with its defaults (prior mu 25, sigma 25/3,
beta 25/6, tau 25/300): any number of seats, ties shared by equal ranks.

The numbers are put on an Elo-like scale: ``(mu - 25) * ELO_PER_MU``, so 0 is the prior (an
agent without a game) and, between two seats whose skills are known (sigma -> 0), a difference of
400 means odds of 10 to 1, as in Elo. The 95% interval is ``mu ± 1.96 sigma`` on that scale.
An online rating depends on the order of the games: they are taken in game-index order, so the
same log folder always gives the same ratings.

The contract (arena's ``RatingMethod``, docs/extending.md): ``unit`` and ``rate(games, agents)``.
Imports ``arena.api`` (the public API) and ``openskill`` only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import fmean

from openskill.models import PlackettLuce

from arena.api import RankedResult, Rating

#: openskill's default prior mean and beta (the skill difference that gives about 76% to win).
PRIOR_MU = 25.0
BETA = 25.0 / 6.0
#: Elo points per unit of mu: in openskill's Plackett–Luce, two seats of known skill win with odds
#: exp(d / c), c = sqrt(2) * beta; Elo's odds are 10 ** (D / 400), so D = d * 400 / (ln 10 * c).
ELO_PER_MU = 400.0 / (math.log(10.0) * math.sqrt(2.0) * BETA)
#: A 95% interval is mu ± Z95 sigma.
Z95 = 1.959963984540054


class WengLin:
    """``weng-lin``: openskill's Weng–Lin Plackett–Luce model, game by game, on an Elo-like scale."""

    unit = (f"Elo-like: Weng-Lin (openskill Plackett-Luce, game by game), (mu - 25) x {ELO_PER_MU:.2f}, "
            "0 = no games; 95% interval mu +- 1.96 sigma")

    def rate(self, games: Sequence[RankedResult], agents: Sequence[str]) -> dict[str, Rating]:
        """Every agent of ``agents`` to its rating after ``games`` in index order. A game of one
        seat says nothing and is skipped; an agent in several seats of one game plays each with
        its rating before the game and keeps the mean of its seats' updates."""
        model = PlackettLuce(mu=PRIOR_MU, beta=BETA)
        skill = {a: (model.mu, model.sigma) for a in agents}
        for game in sorted(games, key=lambda g: g.index):
            if len(game.seats) < 2:
                continue
            before = [skill.setdefault(a, (model.mu, model.sigma)) for a in game.seats]
            teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
            after = model.rate(teams, ranks=[float(rank) for rank in game.ranks])
            updates: dict[str, list[tuple[float, float]]] = {}
            for agent, (rating,) in zip(game.seats, after, strict=True):
                updates.setdefault(agent, []).append((rating.mu, rating.sigma))
            for agent, seats in updates.items():
                skill[agent] = (fmean(mu for mu, _ in seats), fmean(sigma for _, sigma in seats))
        return {a: _on_elo_scale(*skill[a]) for a in agents}


def _on_elo_scale(mu: float, sigma: float) -> Rating:
    return Rating((mu - PRIOR_MU) * ELO_PER_MU, (mu - Z95 * sigma - PRIOR_MU) * ELO_PER_MU,
                  (mu + Z95 * sigma - PRIOR_MU) * ELO_PER_MU)
