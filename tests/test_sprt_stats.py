"""arena.stats.sprt against an independent computation, and simulated SPRT error rates.

The independent computation shares no code with arena.stats.sprt: it maximizes the likelihood under
*linear* moment constraints through the concave dual (damped Newton in one or two variables), and
for the normalized model profiles the t-value constraint ``(mu - 1/2) / sigma = t`` over the mean
``m`` (a fine grid, then golden-section refinement): for a fixed ``m`` the constraint becomes two
linear ones, ``E[a] = m`` and ``E[(a - m)^2] = ((m - 1/2) / t)^2``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import pytest

from arena.stats import sprt

NELO_PER_T = 800 / math.log(10)


# -- the independent computation --------------------------------------------------------------------


def _max_loglik_linear(phat: Sequence[float], features: Sequence[Sequence[float]],
                       warm: list[float] | None = None) -> float:
    """max sum phat_i log p_i over distributions p with sum_i p_i g_ji = 0 for every row j of
    ``features`` (already centred on their targets); -inf when no such distribution exists.

    Dual: the maximum equals sum phat log phat - max_lam sum phat log(1 + lam . g_i), a concave
    problem solved by Newton's method with backtracking that keeps every 1 + lam . g_i positive.
    ``warm`` (updated in place) carries the multipliers between neighbouring problems.
    """
    k = len(features)
    gs = [[features[j][i] for j in range(k)] for i in range(len(phat))]
    lam = [0.0] * k

    def h(vec: Sequence[float]) -> float:
        dens = [1.0 + sum(v * g for v, g in zip(vec, gi, strict=True)) for gi in gs]
        if min(dens) <= 0.0:
            return -math.inf
        return sum(p * math.log(d) for p, d in zip(phat, dens, strict=True))

    if warm is not None and len(warm) == k and h(warm) > 0.0:
        lam = list(warm)  # a start with h > h(0) = 0 that is strictly feasible

    for _ in range(200):
        dens = [1.0 + sum(v * g for v, g in zip(lam, gi, strict=True)) for gi in gs]
        grad = [sum(p * gi[j] / d for p, gi, d in zip(phat, gs, dens, strict=True)) for j in range(k)]
        hess = [[-sum(p * gi[j] * gi[m] / d**2 for p, gi, d in zip(phat, gs, dens, strict=True))
                 for m in range(k)] for j in range(k)]
        if k == 1:
            step = [-grad[0] / hess[0][0]]
        else:
            det = hess[0][0] * hess[1][1] - hess[0][1] * hess[1][0]
            step = [-(hess[1][1] * grad[0] - hess[0][1] * grad[1]) / det,
                    -(-hess[1][0] * grad[0] + hess[0][0] * grad[1]) / det]
        if sum(g * st for g, st in zip(grad, step, strict=True)) < 1e-20:
            break  # the Newton decrement: the dual optimum is reached to float precision
        base, scale = h(lam), 1.0
        while scale > 1e-12:
            trial = [v + scale * s for v, s in zip(lam, step, strict=True)]
            if h(trial) >= base:
                break
            scale /= 2
        else:
            break
        lam = trial
        if max(abs(v) for v in lam) > 1e9:
            return -math.inf  # the dual is unbounded: the constraints cannot be met
    if warm is not None:
        warm[:] = lam
    return sum(p * math.log(p) for p in phat) - h(lam)


def _golden_max(f: Callable[[float], float], lo: float, hi: float) -> float:
    inv_phi = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - inv_phi * (b - a), a + inv_phi * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(200):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - inv_phi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + inv_phi * (b - a)
            fd = f(d)
        if b - a < 1e-11:
            break
    return max(fc, fd)


def _brute_loglik(phat: Sequence[float], values: Sequence[float], model: str, target: float) -> float:
    """Per-observation maximum log-likelihood under one hypothesis (``target``: a mean score for
    the logistic model, a t-value for the normalized one)."""
    if model == "logistic" or target == 0.0:
        mean = target if model == "logistic" else 0.5
        return _max_loglik_linear(phat, [[a - mean for a in values]])

    warm: list[float] = []

    def profile(sigma: float) -> float:
        m = 0.5 + target * sigma
        if not 0.0 < m < 1.0 or sigma**2 >= m * (1.0 - m):
            return -math.inf  # no distribution on [0, 1] has this mean and spread
        features = [[a - m for a in values], [(a - m) ** 2 - sigma**2 for a in values]]
        return _max_loglik_linear(phat, features, warm)

    # Profile over the standard deviation (the mean follows from the constraint): a coarse grid
    # for the global picture, then golden-section refinement around the best grid point.
    steps = 20
    grid = [0.5 * i / steps for i in range(1, steps)]
    scores = [profile(sigma) for sigma in grid]
    best = max(range(len(grid)), key=scores.__getitem__)
    step = 0.5 / steps
    return _golden_max(profile, grid[best] - step, grid[best] + step)


def brute_llr(model: str, elo0: float, elo1: float, counts: Sequence[int]) -> float:
    """The generalized LLR from first principles, with fishtest's documented regularization (a
    zero count counts as 1e-3)."""
    reg = [c if c > 0 else 1e-3 for c in counts]
    total = sum(reg)
    phat = [c / total for c in reg]
    values = [i / (len(counts) - 1) for i in range(len(counts))]
    if model == "logistic":
        targets = [1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1)]
    else:
        scale = math.sqrt(2) if len(counts) == 5 else 1.0
        targets = [scale * e / NELO_PER_T for e in (elo0, elo1)]
    ll0, ll1 = (_brute_loglik(phat, values, model, t) for t in targets)
    return total * (ll1 - ll0)


#: (counts as L..W / N0..N4, elo0, elo1): a mix of sizes, skews and zero counts.
TABLE: list[tuple[tuple[int, ...], float, float]] = [
    ((39, 8843, 26675, 9240, 44), 0.5, 2.5),
    ((3, 10, 20, 12, 5), 0.0, 10.0),
    ((0, 1, 3, 0, 0), 0.0, 5.0),
    ((12, 95, 230, 101, 15), -2.0, 3.0),
    ((50, 40, 30, 20, 10), 0.0, 20.0),
    ((0, 0, 40, 60, 25), 0.0, 10.0),
    ((5, 0, 0, 0, 9), -5.0, 5.0),
    ((200, 800, 1500, 900, 250), 1.0, 4.0),
    ((22569, 44137, 22976), 0.5, 2.5),
    ((30, 20, 10), 0.0, 10.0),
    ((10, 0, 14), -3.0, 7.0),
    ((0, 50, 3), 0.0, 5.0),
    ((120, 300, 170), 2.0, 12.0),
]


@pytest.mark.parametrize("model", ["normalized", "logistic"])
@pytest.mark.parametrize(("counts", "elo0", "elo1"), TABLE)
def test_llr_matches_a_brute_force_constrained_maximization(
    model: str, counts: tuple[int, ...], elo0: float, elo1: float
) -> None:
    ours = sprt.llr(model, elo0, elo1, counts)  # type: ignore[arg-type]
    theirs = brute_llr(model, elo0, elo1, counts)
    assert ours == pytest.approx(theirs, rel=1e-6, abs=1e-6)


def test_bounds_verdict_and_published_shape() -> None:
    lower, upper = sprt.sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944438979) and upper == pytest.approx(2.944438979)
    assert sprt.sprt_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    assert sprt.verdict(3.0, lower, upper) == "H1" and sprt.verdict(-3.0, lower, upper) == "H0"
    assert sprt.verdict(0.0, lower, upper) == "continue"
    # Symmetry: swapping the players mirrors the counts and the hypotheses.
    for model in sprt.MODELS:
        assert sprt.llr(model, -5, 5, [3, 10, 20, 12, 5]) == pytest.approx(
            -sprt.llr(model, -5, 5, [5, 12, 20, 10, 3]), abs=1e-9)


def test_elo_estimates_los_and_degenerate_counts() -> None:
    est = sprt.elo_estimates([0, 0, 10, 0, 0])
    assert est["normalized"].elo == 0.0 and est["logistic"].elo == 0.0
    even = sprt.elo_estimates([10, 20, 40, 20, 10])
    assert even["normalized"].elo == pytest.approx(0.0, abs=1e-9)
    assert even["normalized"].low < 0 < even["normalized"].high
    up = sprt.elo_estimates([5, 15, 40, 25, 15])
    assert up["logistic"].low < up["logistic"].elo < up["logistic"].high and up["logistic"].elo > 0
    # Pentanomial mean score 0.575 per game: logistic Elo = -400 log10(1/0.575 - 1).
    assert up["logistic"].elo == pytest.approx(-400 * math.log10(1 / 0.575 - 1))
    assert sprt.los([10, 20, 40, 20, 10]) == pytest.approx(0.5)
    assert sprt.los([5, 15, 40, 25, 15]) > 0.99
    with pytest.raises(sprt.SPRTError, match="every count is 0"):
        sprt.llr("normalized", 0, 5, [0, 0, 0, 0, 0])
    with pytest.raises(sprt.SPRTError, match="3 .* or 5"):
        sprt.llr("normalized", 0, 5, [1, 2, 3, 4])
    with pytest.raises(sprt.SPRTError, match="non-negative"):
        sprt.llr("logistic", 0, 5, [1, -2, 3])


# -- simulation: the test's error rates ---------------------------------------------------------------

BASE = [0.04, 0.21, 0.5, 0.21, 0.04]  # a plausible symmetric pair distribution (nElo 0)
VALUES = [i / 4 for i in range(5)]


def _tilted(theta: float) -> list[float]:
    weights = [b * math.exp(theta * a) for b, a in zip(BASE, VALUES, strict=True)]
    total = sum(weights)
    return [w / total for w in weights]


def _true_elo(model: str, probs: Sequence[float]) -> float:
    mu = sum(p * a for p, a in zip(probs, VALUES, strict=True))
    if model == "logistic":
        return -400 * math.log10(1 / mu - 1)
    sd = math.sqrt(sum(p * (a - mu) ** 2 for p, a in zip(probs, VALUES, strict=True)))
    return (mu - 0.5) / (math.sqrt(2) * sd) * NELO_PER_T


def pair_distribution(model: str, elo: float) -> list[float]:
    """An exponential tilt of BASE whose true Elo (in ``model``) is ``elo``."""
    lo, hi = -20.0, 20.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _true_elo(model, _tilted(mid)) < elo else (lo, mid)
    return _tilted((lo + hi) / 2)


def simulate(model: str, elo0: float, elo1: float, true_elo: float, runs: int, seed: int,
             alpha: float = 0.05, beta: float = 0.05, batch: int = 4) -> dict[str, int]:
    """Verdict counts over ``runs`` SPRTs whose pairs are drawn at ``true_elo`` (the LLR is
    looked at every ``batch`` pairs, as a running test sees completed pairs in bursts)."""
    rng = random.Random(seed)
    cum = []
    acc = 0.0
    for p in pair_distribution(model, true_elo):
        acc += p
        cum.append(acc)
    lower, upper = sprt.sprt_bounds(alpha, beta)
    outcome = {"H0": 0, "H1": 0, "continue": 0}
    for _ in range(runs):
        counts = [0] * 5
        verdict = "continue"
        while verdict == "continue" and sum(counts) < 20000:
            for k in rng.choices(range(5), cum_weights=cum, k=batch):
                counts[k] += 1
            verdict = sprt.verdict(sprt.llr(model, elo0, elo1, counts), lower, upper)  # type: ignore[arg-type]
        outcome[verdict] += 1
    return outcome


@pytest.mark.parametrize(("model", "elo1", "batch"), [("normalized", 60.0, 2), ("logistic", 40.0, 1)])
def test_simulated_error_rates_stay_near_alpha_and_beta(model: str, elo1: float, batch: int) -> None:
    # alpha = beta = 0.1 so that 200 runs per side measure the rates, not just their absence
    # (standard error about 0.021); fixed seeds keep the test deterministic.
    runs, alpha = 200, 0.1
    at_h0 = simulate(model, 0.0, elo1, 0.0, runs, seed=11, alpha=alpha, beta=alpha, batch=batch)
    at_h1 = simulate(model, 0.0, elo1, elo1, runs, seed=12, alpha=alpha, beta=alpha, batch=batch)
    assert at_h0["continue"] == at_h1["continue"] == 0
    false_positive, false_negative = at_h0["H1"] / runs, at_h1["H0"] / runs
    print(f"{model}: false positives {false_positive:.3f}, false negatives {false_negative:.3f}")
    # About 3.5 standard errors above; below, the GSPRT and looking only every `batch` pairs
    # overshoot the bounds, which lowers the rates a little, never to nothing.
    assert 0.03 <= false_positive <= 0.175, at_h0
    assert 0.03 <= false_negative <= 0.175, at_h1
