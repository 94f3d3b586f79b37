"""What a game's ranking says to the Plackett–Luce model, shared places included, and nothing more. No I/O.

A game of ``k`` seats with utilities ``u`` (agent plus seat advantage) ranks its seats into
classes of equal rank, best first. Its log-likelihood is

    sum_s linear[s] * u_s  -  sum_t weight_t * log(sum_s multiplier_t[s] * exp(u_s))  -  sum_stages N(u)

(:func:`tie_terms` gives ``linear``, the terms and the stages), by these rules, one per class with
the seats ``W`` ranked below it:

- **A place held by one seat**: it was chosen among itself and ``W`` (Plackett–Luce's factor
  ``exp(u_s) / sum_{s and W} exp(u)``).
- **The last place, however many share it** (``W`` empty): nothing. Ranks 1, 2, 2, 2 (one winner,
  three losers: what Goofspiel's, Pig's and most race games' win/loss returns give) say that the
  winner beat the other three and nothing about the losers' order: a *partial ranking* whose
  remainder is unordered.
- **A place shared by ``m >= 2`` seats above others** (a shared first or a tie in the middle): the
  tied seats were all chosen before any of ``W``, in an order the game did not reveal. Its
  probability is the sum over the ``m!`` orders of the Plackett–Luce product (the marginal
  likelihood of the partial ranking, as in the R package PlackettLuce's treatment of an unordered
  set). Its log is ``sum_C u - N(u)``, ``N`` a :class:`TiedStage`: exact up to
  :data:`MARGINAL_MAX` tied seats; a larger shared place (5,040 orders and up) is approximated by
  a composite likelihood: each tied seat chosen before all of ``W`` as if the others were not
  there (no word on the tied seats' own order; it overstates the evidence against ``W`` a little:
  within 30 Elo of the exact fit on 150 games of 8 seats with 6 sharing second place).
- **Two seats**: a draw is half a win and half a loss (the mean of the two orders'
  log-likelihoods), the Bradley–Terry model with draws: between two players a draw is a result of
  its own (chess's), where the shared last place of more seats is not.

Each rule is log-concave in ``u`` (a marginal of Plackett–Luce over a convex event of its
exponential race, by Prékopa's theorem), so the fit's log-posterior stays strictly concave.

Before issue 34 every tie was the *mean* over the tied seats' orders, as a two-player draw is: a
game with ranks 1, 2, 2, 2 then told the fit that the three losers drew with each other, and 8
agents spread over 600 Elo came back squeezed into 236 with none inside its 95% interval
(``python3 bench/ratings_simulation.py``, docs/ratings.md).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Floats = NDArray[np.float64]

#: The largest shared place above other seats whose orders are summed exactly (120 orders of 31
#: subsets); a larger one is approximated (see the module docstring).
MARGINAL_MAX = 5

#: Elements of the largest games x orders x seats array of a stage (32 MB of floats): games are
#: taken that many at a time.
STAGE_ELEMENTS = 4_000_000

#: A term: the multiplier of each seat's ``exp(u)`` inside the logarithm, and the term's weight.
Term = tuple[list[float], float]


@dataclass(frozen=True)
class TiedStage:
    """A shared place above others: the seats ``tied`` were chosen before any of ``worse``, in some
    order. ``N(u) = -log sum_orders exp(-sum_{R in chain} L_R)`` with ``L_R = log sum_{R + worse}
    exp(u)`` and ``chain`` the sets of tied seats still unchosen before each pick of the order; the
    stage's log-probability is ``sum_tied u - N(u)``."""

    tied: tuple[int, ...]
    worse: tuple[int, ...]

    @functools.cached_property
    def _tables(self) -> tuple[Floats, Floats]:
        """(log-masks: for each nonempty subset R of ``tied``, 0 on R and ``worse``, -inf elsewhere
        (subsets x seats); chains: 1 where an order's chain holds a subset (orders x subsets))."""
        k = max(self.tied + self.worse) + 1
        subsets = [frozenset(c) for r in range(1, len(self.tied) + 1) for c in itertools.combinations(self.tied, r)]
        number = {s: i for i, s in enumerate(subsets)}
        masks = np.full((len(subsets), k), -np.inf)
        for i, subset in enumerate(subsets):
            masks[i, list(subset | set(self.worse))] = 0.0
        orders = list(itertools.permutations(self.tied))
        chains = np.zeros((len(orders), len(subsets)))
        for o, order in enumerate(orders):
            for j in range(len(order)):
                chains[o, number[frozenset(order[j:])]] = 1.0
        return masks, chains

    def parts(self, u: Floats, hessian: bool = True) -> tuple[Floats, Floats, Floats | None]:
        """``N`` (games), its gradient (games x seats) and, if ``hessian``, its Hessian (games x
        seats x seats; positive semi-definite) at the utilities ``u`` (games x seats)."""
        masks, chains = self._tables
        g, k = u.shape
        width = masks.shape[1]
        value, grad = np.empty(g), np.zeros((g, k))
        hess = np.zeros((g, k, k)) if hessian else None
        chunk = max(1, STAGE_ELEMENTS // (len(chains) * width))
        for start in range(0, g, chunk):
            rows = slice(start, min(g, start + chunk))
            x = u[rows, None, :width] + masks[None]  # games x subsets x seats
            top = x.max(axis=2, keepdims=True)
            with np.errstate(under="ignore"):
                e = np.exp(x - top)
            total = e.sum(axis=2, keepdims=True)
            p = e / total  # each subset's softmax over itself and the worse seats
            logs = (top + np.log(total))[:, :, 0]  # L_R
            a = -(logs @ chains.T)  # games x orders: each order's log-probability but sum_tied u
            peak = a.max(axis=1, keepdims=True)
            with np.errstate(under="ignore"):
                weights = np.exp(a - peak)
            mass = weights.sum(axis=1, keepdims=True)
            value[rows] = -(peak + np.log(mass))[:, 0]
            pi = weights / mass  # the orders' posterior weights
            q = pi @ chains  # how likely each subset is on the order's chain
            slope = np.einsum("gs,gsk->gk", q, p)
            grad[rows, :width] = slope
            if hess is not None:
                per_order = np.einsum("os,gsk->gok", chains, p)  # each order's gradient of its chain
                second = np.einsum("gs,gsk,gsl->gkl", q, p, p) + np.einsum("go,gok,gol->gkl", pi, per_order, per_order)
                block = -second + slope[:, :, None] * slope[:, None, :]
                block[:, np.arange(width), np.arange(width)] += slope
                hess[rows, :width, :width] = block
        return value, grad, hess


def tie_terms(ranks: Sequence[int]) -> tuple[list[float], list[Term], list[TiedStage]]:
    """The log-likelihood of a game with ``ranks`` (1 best; equal ranks share a place) as
    ``sum_s linear[s] * u_s`` minus ``sum weight * log(sum_s multiplier[s] * exp(u_s))`` over
    ``terms`` = [(multiplier, weight)], minus ``N(u)`` of each :class:`TiedStage` (module docstring).

    Terms over one seat are folded into ``linear`` (their log-sum-exp is that seat's utility).
    """
    k = len(ranks)
    linear = [1.0] * k
    terms: list[Term] = []
    stages: list[TiedStage] = []
    if k == 2 and ranks[0] == ranks[1]:  # a two-player draw: the mean of the two orders
        return [0.5, 0.5], [([1.0, 1.0], 1.0)], []
    worse: list[int] = []
    for rank in sorted(set(ranks), reverse=True):  # worst class first: nothing below it
        tied = [s for s in range(k) if ranks[s] == rank]
        m = len(tied)
        if not worse:  # the last place: an unordered remainder, chosen by nobody
            for s in tied:
                linear[s] = 0.0
        elif m == 1:
            terms.append(([1.0 if s in tied or s in worse else 0.0 for s in range(k)], 1.0))
        elif m <= MARGINAL_MAX:
            stages.append(TiedStage(tuple(tied), tuple(worse)))
        else:  # each tied seat before all of the worse ones, as if apart (a composite likelihood)
            for c in tied:
                terms.append(([1.0 if s == c or s in worse else 0.0 for s in range(k)], 1.0))
        worse += tied
    return linear, terms, stages
