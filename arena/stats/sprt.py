"""SPRT statistics for "is the new bot better?": pure functions over outcome counts.

Counts come in two shapes:

* **pentanomial** ``[N0, N1, N2, N3, N4]``: colour-swapped game *pairs* scoring 0, 1/2, 1, 3/2, 2
  points for the new bot (normalised per game: 0, 0.25, 0.5, 0.75, 1);
* **trinomial** ``[L, D, W]``: single games scoring 0, 1/2, 1 (the CLI takes ``W,D,L`` and
  reorders).

The log-likelihood ratio is the *generalized* SPRT one that fishtest uses (M. Van den Bergh's notes
"support_MLE_multinomial" and "normalized_elo_practical"): for each hypothesis the
maximum-likelihood distribution on the observed outcomes is found under a constraint, and
``LLR = N * sum_i phat_i * log(p1_i / p0_i)``. The constraint is

* **logistic** model: the expected score per game equals ``L(elo) = 1 / (1 + 10**(-elo/400))``;
  the MLE is ``p_i = phat_i / (1 + x (a_i - s))`` with ``x`` the root of the secular equation
  ``sum_i phat_i (a_i - s) / (1 + x (a_i - s)) = 0`` (found here by safeguarded bisection);
* **normalized** model: the t-value ``(mu - 1/2) / sigma`` equals ``t``, where for trinomial
  counts ``t = nElo / (800 / ln 10)`` and for pentanomial counts ``t = sqrt(2) * nElo / (800 / ln
  10)`` (``sigma`` is then the spread of a pair's average score, and the per-game spread of a pair
  is ``sqrt(2)`` times it). The Lagrange condition gives ``p_i = phat_i / (1 + x c_i)`` with
  ``c_i = a_i - 1/2 - t sigma (1 + ((a_i - mu) / sigma)**2) / 2``, which depends on the solution's
  own ``mu`` and ``sigma``: iterate from the uniform distribution until the distribution stops
  moving (fishtest stops after 10 rounds; we iterate to 1e-13 or 1000 rounds).

Zero counts: like fishtest (``regularize``), a count of 0 is replaced by 1e-3 before the MLE, and
``N`` is the regularized total. Without it an outcome never seen would get probability 0 under
both hypotheses and the secular equation's bracket would collapse (and with all mass on one
outcome the variance would be 0). The effect is below 1e-3 of a game.

Standard library only: this module is imported by the CLI and by the SPRT runner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal

Model = Literal["normalized", "logistic"]
MODELS: tuple[Model, ...] = ("normalized", "logistic")

#: Normalized Elo per unit of per-game t-value: 800 / ln 10 (about 347.4).
NELO_PER_T = 800.0 / math.log(10.0)
#: What a zero count is replaced by before the maximum-likelihood fits (fishtest's value).
ZERO_COUNT = 1e-3
_Z975 = NormalDist().inv_cdf(0.975)



def seated_game_refusal(game: str, players: int) -> str:
    """Why there is no SPRT of ``game`` set for ``players`` seats, more than two (one line)."""
    return (f"an SPRT decides between two bots from games of two seats, and {game} is set for {players}; "
            "set it for 2 players if it takes two, or, for a new bot's rating against a field, run a "
            "gauntlet with the new bot first")


class SPRTError(ValueError):
    """Counts or parameters the statistics cannot work with (the message is one line)."""


# -- small helpers -------------------------------------------------------------------------------


def logistic_score(elo: float) -> float:
    """The expected score per game of a player ``elo`` logistic Elo above its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def logistic_elo(score: float) -> float:
    """Inverse of :func:`logistic_score`; the score is clamped to [1e-6, 1 - 1e-6] so a perfect
    result gives a large finite Elo rather than infinity."""
    score = min(max(score, 1e-6), 1.0 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``.

    Raises :class:`SPRTError` unless ``0 < alpha < 1``, ``0 < beta < 1`` and ``alpha + beta < 1``.
    """
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0 and alpha + beta < 1.0):
        raise SPRTError(f"alpha and beta must be in (0, 1) with alpha + beta < 1, got {alpha} and {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def check_counts(counts: Sequence[float]) -> list[float]:
    """Validate counts: 3 or 5 finite non-negative numbers, at least one positive."""
    values = [float(c) for c in counts]
    if len(values) not in (3, 5):
        raise SPRTError(f"expected 3 (trinomial) or 5 (pentanomial) counts, got {len(values)}")
    if any(not math.isfinite(v) or v < 0 for v in values):
        raise SPRTError(f"counts must be non-negative numbers, got {','.join(str(c) for c in counts)}")
    if sum(values) <= 0:
        raise SPRTError("no results yet: every count is 0")
    return values


def _pdf(counts: Sequence[float]) -> tuple[float, list[float], list[float]]:
    """Regularized total, outcome values (score per game, 0..1) and empirical probabilities."""
    reg = [c if c > 0 else ZERO_COUNT for c in check_counts(counts)]
    total = sum(reg)
    k = len(reg) - 1
    return total, [i / k for i in range(len(reg))], [c / total for c in reg]


def _moments(values: Sequence[float], probs: Sequence[float]) -> tuple[float, float]:
    mu = sum(p * a for a, p in zip(values, probs, strict=True))
    var = sum(p * (a - mu) ** 2 for a, p in zip(values, probs, strict=True))
    return mu, var


def _secular_root(probs: Sequence[float], shifts: Sequence[float]) -> float:
    """The root ``x`` of ``sum p_i c_i / (1 + x c_i) = 0`` with every ``1 + x c_i > 0``.

    The function is strictly decreasing on that interval and goes from +inf to -inf when the
    ``c_i`` take both signs, so the root is unique: Newton's method from 0, kept inside a bracket
    that shrinks with every step (a step leaving the bracket is replaced by bisection).
    """
    lo_c, hi_c = min(shifts), max(shifts)
    if not (lo_c < 0.0 < hi_c):
        raise SPRTError("the hypothesis is outside what these outcomes can express")
    lo, hi = -1.0 / hi_c, -1.0 / lo_c
    x = 0.0
    for _ in range(300):
        f = df = 0.0
        for p, c in zip(probs, shifts, strict=True):
            q = c / (1.0 + x * c)
            f += p * q
            df -= p * q * q
        if f == 0.0:
            return x
        if f > 0.0:
            lo = x
        else:
            hi = x
        new = x - f / df
        if not lo < new < hi:
            new = 0.5 * (lo + hi)
        if abs(new - x) <= 1e-15 * (1.0 + abs(x)) or new in (lo, hi):
            return new
        x = new
    return x


def mle_mean(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution on ``values`` maximizing ``sum probs_i log p_i`` with mean ``s``."""
    shifts = [a - s for a in values]
    x = _secular_root(probs, shifts)
    return [p / (1.0 + x * c) for p, c in zip(probs, shifts, strict=True)]


def mle_t_value(values: Sequence[float], probs: Sequence[float], ref: float, t: float) -> list[float]:
    """The distribution on ``values`` maximizing ``sum probs_i log p_i`` with
    ``(mean - ref) / sd == t`` (fixed-point iteration on the Lagrange condition, see module doc)."""
    n = len(values)
    current = [1.0 / n] * n
    for _ in range(1000):
        mu, var = _moments(values, current)
        sigma = math.sqrt(var)
        shifts = [a - ref - t * sigma * (1.0 + ((a - mu) / sigma) ** 2) / 2.0 for a in values]
        x = _secular_root(probs, shifts)
        new = [p / (1.0 + x * c) for p, c in zip(probs, shifts, strict=True)]
        total = sum(new)
        new = [p / total for p in new]
        moved = max(abs(a - b) for a, b in zip(new, current, strict=True))
        current = new
        if moved < 1e-13:
            break
    return current


def _log_likelihood_ratio(probs: Sequence[float], p0: Sequence[float], p1: Sequence[float]) -> float:
    return sum(p * (math.log(b) - math.log(a)) for p, a, b in zip(probs, p0, p1, strict=True))


def llr_logistic(elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """Generalized LLR of H1 (logistic Elo ``elo1``) against H0 (``elo0``) for 3 or 5 counts."""
    total, values, probs = _pdf(counts)
    p0, p1 = (mle_mean(values, probs, logistic_score(e)) for e in (elo0, elo1))
    return total * _log_likelihood_ratio(probs, p0, p1)


def llr_normalized(nelo0: float, nelo1: float, counts: Sequence[float]) -> float:
    """Generalized LLR of H1 (normalized Elo ``nelo1``) against H0 (``nelo0``) for 3 or 5 counts."""
    total, values, probs = _pdf(counts)
    scale = math.sqrt(2.0) if len(values) == 5 else 1.0
    p0, p1 = (mle_t_value(values, probs, 0.5, scale * e / NELO_PER_T) for e in (nelo0, nelo1))
    return total * _log_likelihood_ratio(probs, p0, p1)


def llr(model: Model, elo0: float, elo1: float, counts: Sequence[float]) -> float:
    """The generalized LLR in ``model`` ("normalized" or "logistic")."""
    if model == "logistic":
        return llr_logistic(elo0, elo1, counts)
    if model == "normalized":
        return llr_normalized(elo0, elo1, counts)
    raise SPRTError(f"unknown model {model!r} (expected normalized or logistic)")


# -- estimates -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """Elo with a 95% interval in one model."""

    elo: float
    low: float
    high: float


def elo_estimates(counts: Sequence[float]) -> dict[Model, Estimate]:
    """Elo and 95% intervals in both models from raw (unregularized) counts.

    Logistic: the mean score per game ``mu`` (a pair counts as its average) with normal interval
    ``mu +- 1.96 sd / sqrt(N)`` mapped through the inverse logistic. Normalized: ``nElo = (mu -
    1/2) / sigma_game * 800 / ln 10`` with ``sigma_game = sqrt(2) * sd`` for pairs, ``sd`` for games,
    and the delta-method variance of a t-value ``(1 - skew t + t^2 (kurt - 1) / 4) / N``. With no
    spread at all (every result identical) the normalized Elo is 0 for draws, else +-infinity.
    """
    values_raw = check_counts(counts)
    total = sum(values_raw)
    k = len(values_raw) - 1
    values = [i / k for i in range(len(values_raw))]
    probs = [c / total for c in values_raw]
    mu, var = _moments(values, probs)
    sd = math.sqrt(var)
    half = _Z975 * sd / math.sqrt(total)
    logistic = Estimate(logistic_elo(mu), logistic_elo(mu - half), logistic_elo(mu + half))
    if var <= 0.0:
        # Every result identical: no spread, so the normalized Elo is 0 for all draws and
        # unbounded otherwise (summary() reports that as null).
        nelo = 0.0 if mu == 0.5 else math.copysign(math.inf, mu - 0.5)
        return {"normalized": Estimate(nelo, nelo, nelo), "logistic": logistic}
    t = (mu - 0.5) / sd
    m3 = sum(p * (a - mu) ** 3 for a, p in zip(values, probs, strict=True)) / sd**3
    m4 = sum(p * (a - mu) ** 4 for a, p in zip(values, probs, strict=True)) / var**2
    var_t = max(1.0 - m3 * t + t * t * (m4 - 1.0) / 4.0, 0.0) / total
    per_game = NELO_PER_T / (math.sqrt(2.0) if k == 4 else 1.0)
    nelo, nhalf = t * per_game, _Z975 * math.sqrt(var_t) * per_game
    return {"normalized": Estimate(nelo, nelo - nhalf, nelo + nhalf), "logistic": logistic}


def los(counts: Sequence[float]) -> float:
    """Likelihood of superiority: ``Phi((mu - 1/2) / (sd / sqrt(N)))`` (0.5 when nothing varies)."""
    values_raw = check_counts(counts)
    total = sum(values_raw)
    k = len(values_raw) - 1
    mu, var = _moments([i / k for i in range(k + 1)], [c / total for c in values_raw])
    if var <= 0.0:
        return 0.5 if mu == 0.5 else float(mu > 0.5)
    return NormalDist().cdf((mu - 0.5) / math.sqrt(var / total))


Verdict = Literal["H0", "H1", "continue"]


def verdict(llr_value: float, lower: float, upper: float) -> Verdict:
    """H1 once the LLR reaches the upper bound, H0 once it reaches the lower one."""
    if llr_value >= upper:
        return "H1"
    if llr_value <= lower:
        return "H0"
    return "continue"


def summary(counts: Sequence[float], *, elo0: float, elo1: float, alpha: float, beta: float,
            model: Model) -> dict[str, object]:
    """Everything ``arena llr`` and the SPRT display show, as a JSON-ready dict.

    Keys: ``llr``, ``lower``, ``upper``, ``verdict``, ``model``, ``elo0``, ``elo1``, ``alpha``,
    ``beta``, ``elo`` and ``elo_ci`` (in ``model``), ``elo_normalized``/``elo_logistic``
    (``[low, elo, high]`` in both), ``los``, ``draw_ratio`` (drawn games for trinomial counts;
    pairs scoring exactly 1 for pentanomial counts), ``pairs`` and ``games`` (pentanomial) or
    ``games`` (trinomial), and ``pentanomial`` or ``trinomial`` (the counts, trinomial as W, D, L).

    Raises :class:`SPRTError` for bad counts, bounds, model, or ``elo0 >= elo1``.
    """
    if model not in MODELS:
        raise SPRTError(f"unknown model {model!r} (expected normalized or logistic)")
    if not elo0 < elo1:
        raise SPRTError(f"elo0 must be below elo1, got {elo0} and {elo1}")
    values = check_counts(counts)
    lower, upper = sprt_bounds(alpha, beta)
    value = llr(model, elo0, elo1, values)
    est = elo_estimates(values)
    total = sum(values)
    out: dict[str, object] = {
        "llr": value, "lower": lower, "upper": upper, "verdict": verdict(value, lower, upper),
        "model": model, "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta,
        "elo": _finite(est[model].elo), "elo_ci": [_finite(est[model].low), _finite(est[model].high)],
        "elo_normalized": [_finite(x) for x in (est["normalized"].low, est["normalized"].elo, est["normalized"].high)],
        "elo_logistic": [_finite(x) for x in (est["logistic"].low, est["logistic"].elo, est["logistic"].high)],
        "los": los(values),
    }
    if len(values) == 5:
        out.update(draw_ratio=values[2] / total, pairs=_int_if_whole(total), games=_int_if_whole(2 * total),
                   pentanomial=[_int_if_whole(v) for v in values])
    else:
        out.update(draw_ratio=values[1] / total, games=_int_if_whole(total),
                   trinomial=[_int_if_whole(v) for v in reversed(values)])
    return out


def check_hypotheses(*, elo0: float, elo1: float, alpha: float, beta: float, model: Model) -> None:
    """Raise :class:`SPRTError` when a test with these settings could not be computed (an unknown
    model, ``elo0 >= elo1``, bounds out of range, hypotheses the model cannot express), so that a
    run fails before its first pair rather than after it."""
    summary([1, 1, 1, 1, 1], elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, model=model)


def _finite(value: float) -> float | None:
    """JSON has no infinity: an unbounded estimate becomes null; -0.0 becomes 0.0."""
    return value + 0.0 if math.isfinite(value) else None


def _int_if_whole(value: float) -> float | int:
    return int(value) if value == int(value) else value
