"""The SPRT's real error rates, by simulation: how often ``arena sprt`` accepts the wrong hypothesis.

For each game model below, the strength of NEW is set so that its true Elo (in the test's model:
normalized or logistic) is exactly ``elo0`` (then accepting H1 is an error: alpha) or exactly ``elo1``
(then accepting H0 is an error: beta), and SIMS sequential tests are run pair by pair with
arena's own statistic (:func:`arena.stats.sprt.llr`, the one ``arena sprt`` uses) until one of the
bounds ``log(beta/(1-alpha))``, ``log((1-beta)/alpha)`` is crossed or ``--max-pairs`` is reached.

The game models (each pair is NEW at seat 0 then at seat 1; ``x`` is NEW's strength in Elo):

- ``deterministic``: a game without chance from an opening that favours one seat by ``a`` Elo, ``a``
  drawn per pair (normal, sd 100): NEW scores ``logistic(x + a)`` then ``logistic(x - a)``, with
  30% draws where possible. The pair shares the opening, as ``arena sprt --openings`` does.
- ``chance-cancelled``: a game of chance whose luck ``L`` (normal, sd 400 Elo) falls on the seat
  in both games (a deal before anyone moves, as in poker): NEW wins with ``logistic(x + L)`` then
  ``logistic(x - L)``. This is what the shared chance seed of a pair gives when the chance draws
  happen in the same order in both games.
- ``chance-independent``: the same luck, drawn anew in each game (what unpaired seeds give).
- ``chance-doubled``: the same luck falling on the same *agent* in both games: NEW wins with
  ``logistic(x + L)`` twice. What the shared seed gives in Pig, where the k-th throw goes to whoever
  throws k-th and a bot that rolls long turns takes the same throws in both games (real pairs of
  hold-at-20 against random: NEW's two scores correlate +0.39, 64% of the throws went to the same
  agent; ``--real`` measures it, docs/sprt.md).

Each pair's pentanomial distribution is computed exactly (Gauss-Hermite quadrature over the luck);
the true Elo is that distribution's (nElo: ``(mean - 1/2) / sd`` of the pair score scaled as arena
does; logistic: the expected score's Elo).

``--real FOLDER`` (an ``arena sprt`` log folder, repeatable) adds the pairs of real games: the
pentanomial of the folder's pairs is taken as the true distribution, its own Elo as the truth, and
the tests are run at hypotheses placed on it (elo0 = its Elo for alpha, elo1 = its Elo for beta,
the other ``elo1 - elo0`` away): the error rates on the shape of real pairs. For a folder of seat
records it also prints what the shared chance seed cancelled (:func:`pairing`): the correlation of
NEW's scores in the two games of a pair (negative: luck that helped a seat in one game helped the
same seat, the other agent, in the other; 0: independent games), beside the same correlation with
the second games shuffled among the pairs (what unpaired games give), and where each game's chance
events fell: after a move of the same seat in both games (the roller, in a dice game: cancelled),
of the same agent (doubled), or in one game only.

    python bench/sprt_error_rates.py                    # 400 tests per cell, elo0 0, elo1 40, alpha = beta = 0.1
    python bench/sprt_error_rates.py --sims 1000 --alpha 0.05 --beta 0.05 --model logistic
    python bench/sprt_error_rates.py --real sprt_logs/a-vs-b-leduc_poker    # and a real run's pairs
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.stats.sprt import NELO_PER_T, llr, logistic_elo, sprt_bounds

NODES, WEIGHTS = np.polynomial.hermite_e.hermegauss(48)
WEIGHTS = WEIGHTS / WEIGHTS.sum()
DRAWS = 0.3


def expected(elo: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.power(10.0, -elo / 400.0))


def game(elo: np.ndarray, draws: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Win, draw and loss probabilities of NEW at expected score ``expected(elo)``."""
    s = expected(elo)
    d = np.minimum(draws, 2 * np.minimum(s, 1 - s))
    return s - d / 2, d, 1 - s - d / 2


def pair_of(first: tuple[np.ndarray, ...], second: tuple[np.ndarray, ...], weights: np.ndarray) -> list[float]:
    """The pentanomial distribution (pair scores 0, 1/2, 1, 3/2, 2) of two games given per node."""
    penta = np.zeros(5)
    for i, p in zip((2, 1, 0), first, strict=True):  # win 2 half-points, draw 1, loss 0
        for j, q in zip((2, 1, 0), second, strict=True):
            penta[i + j] += float(np.sum(weights * p * q))
    return list(penta / penta.sum())


def deterministic(x: float) -> list[float]:
    a = 100.0 * NODES
    return pair_of(game(x + a, DRAWS), game(x - a, DRAWS), WEIGHTS)


def chance_cancelled(x: float) -> list[float]:
    luck = 400.0 * NODES
    return pair_of(game(x + luck, 0.0), game(x - luck, 0.0), WEIGHTS)


def chance_independent(x: float) -> list[float]:
    luck = 400.0 * NODES
    one = tuple(np.array([float(np.sum(WEIGHTS * p))]) for p in game(x + luck, 0.0))
    return pair_of(one, one, np.ones(1))


def chance_doubled(x: float) -> list[float]:
    luck = 400.0 * NODES
    return pair_of(game(x + luck, 0.0), game(x + luck, 0.0), WEIGHTS)


MODELS: dict[str, Callable[[float], list[float]]] = {
    "deterministic": deterministic, "chance-cancelled": chance_cancelled, "chance-independent": chance_independent,
    "chance-doubled": chance_doubled}


def true_elo(penta: list[float], model: str) -> float:
    values = [i / 4 for i in range(5)]
    mu = sum(p * v for p, v in zip(penta, values, strict=True))
    if model == "logistic":
        return logistic_elo(mu)
    sd = math.sqrt(sum(p * (v - mu) ** 2 for p, v in zip(penta, values, strict=True)))
    return (mu - 0.5) / sd / math.sqrt(2.0) * NELO_PER_T


def strength_for(target: float, pentanomial: Callable[[float], list[float]], model: str) -> float:
    """NEW's strength ``x`` whose pair distribution has true Elo ``target`` (bisection)."""
    lo, hi = -800.0, 800.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if true_elo(pentanomial(mid), model) < target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def run_tests(penta: list[float], sims: int, *, model: str, elo0: float, elo1: float, alpha: float, beta: float,
              max_pairs: int, seed: int) -> tuple[int, int, int, float]:
    """``sims`` sequential tests on pairs drawn from ``penta``: (H1 accepted, H0 accepted,
    undecided, mean pairs)."""
    lower, upper = sprt_bounds(alpha, beta)
    rng = random.Random(seed)
    cumulative = list(np.cumsum(penta))

    @functools.lru_cache(maxsize=1 << 18)
    def statistic(counts: tuple[int, ...]) -> float:
        return llr(model, elo0, elo1, counts)  # type: ignore[arg-type]

    h1 = h0 = 0
    pairs_played = 0
    for _ in range(sims):
        counts = [0] * 5
        while sum(counts) < max_pairs:
            u = rng.random()
            counts[next((k for k, c in enumerate(cumulative) if u < c), 4)] += 1
            value = statistic(tuple(counts))
            if value >= upper:
                h1 += 1
                break
            if value <= lower:
                h0 += 1
                break
        pairs_played += sum(counts)
    return h1, h0, sims - h1 - h0, pairs_played / sims


def _chance_seats(steps: list[dict]) -> list[int | None]:
    """For each chance step of a seat record, the seat whose move came last before it (None: none)."""
    seats: list[int | None] = []
    last: int | None = None
    for step in steps:
        if step.get("kind") == "move":
            last = step.get("seat")
        elif step.get("kind") == "chance":
            seats.append(last)
    return seats


def _score(record: dict, seat: int) -> float:
    ranks = record["ranks"]
    if ranks.count(ranks[seat]) > 1:
        return 0.5
    return 1.0 if ranks[seat] == 1 else 0.0


def pairing(folder: Path, seed: int) -> str | None:
    """What the shared chance seed of the pairs of ``folder`` cancelled (module docstring), or None
    when its games are not seat records (pair ``p``: game ``2p`` NEW at seat 0, ``2p + 1`` at seat 1)."""
    records = sorted((folder / "games").glob("*.json"))
    games = {int(f.stem): json.loads(f.read_text()) for f in records}
    if not games or any("steps" not in g or "ranks" not in g for g in games.values()):
        return None
    first, second = [], []
    same_seat = same_agent = alone = 0
    for p in range(len(games) // 2):
        a, b = games.get(2 * p), games.get(2 * p + 1)
        if a is None or b is None:
            continue
        first.append(_score(a, 0))
        second.append(_score(b, 1))
        sa, sb = _chance_seats(a["steps"]), _chance_seats(b["steps"])
        for x, y in zip(sa, sb, strict=False):
            same_seat += x is not None and x == y
            same_agent += x is not None and y is not None and x != y
        alone += abs(len(sa) - len(sb))
    r = float(np.corrcoef(first, second)[0, 1]) if np.std(first) and np.std(second) else float("nan")
    rng = random.Random(seed)
    shuffled = []
    for _ in range(200):
        other = second[:]
        rng.shuffle(other)
        shuffled.append(float(np.corrcoef(first, other)[0, 1]) if np.std(other) else 0.0)
    events = same_seat + same_agent + alone
    if not events:
        return f"{len(first)} pairs: NEW's scores in the pair's two games correlate {r:+.3f} (unpaired: sd {np.std(shuffled):.3f})"
    return (f"{len(first)} pairs: NEW's scores in the pair's two games correlate {r:+.3f} (shuffled pairs: "
            f"{np.mean(shuffled):+.3f}, sd {np.std(shuffled):.3f}); of {events} chance events after a move, "
            f"{same_seat / events:.0%} followed the same seat's move in both games (cancelled), "
            f"{same_agent / events:.0%} the same agent's (doubled), {alone / events:.0%} came in one game only")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", type=int, default=400)
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=40.0)
    parser.add_argument("--alpha", type=float, default=0.1)
    parser.add_argument("--beta", type=float, default=0.1)
    parser.add_argument("--model", choices=["normalized", "logistic"], default="normalized")
    parser.add_argument("--max-pairs", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--real", type=Path, action="append", default=[], help="an arena sprt log folder")
    parser.add_argument("--simulated", action=argparse.BooleanOptionalAction, default=True,
                        help="run the simulated game models (--no-simulated: only --real)")
    parser.add_argument("--game-model", choices=list(MODELS), action="append",
                        help="only this simulated game model (repeatable; default: all)")
    args = parser.parse_args()
    print(f"{args.model} model, elo0 {args.elo0:g}, elo1 {args.elo1:g}, alpha {args.alpha:g}, beta {args.beta:g}, "
          f"{args.sims} tests per cell")
    print("| game model | true Elo | NEW's strength x | pairs scoring 1 | H1 accepted | H0 accepted | undecided | error | mean pairs | s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    chosen = {name: MODELS[name] for name in args.game_model or MODELS}
    for name, pentanomial in (chosen.items() if args.simulated else ()):
        for target, wrong in ((args.elo0, "alpha"), (args.elo1, "beta")):
            started = time.perf_counter()
            x = strength_for(target, pentanomial, args.model)
            penta = pentanomial(x)
            h1, h0, undecided, mean_pairs = run_tests(
                penta, args.sims, model=args.model, elo0=args.elo0, elo1=args.elo1, alpha=args.alpha,
                beta=args.beta, max_pairs=args.max_pairs, seed=args.seed)
            error = (h1 if wrong == "alpha" else h0) / args.sims
            print(f"| {name} | {target:g} | {x:+.1f} | {penta[2]:.0%} | {h1} | {h0} | {undecided} | "
                  f"{wrong} = {error:.3f} | {mean_pairs:.0f} | {time.perf_counter() - started:.0f} |", flush=True)
    width = args.elo1 - args.elo0
    for folder in args.real:
        said = pairing(folder, args.seed)
        if said:
            print(f"{folder.name}: {said}")
        scores = [p["score"] for p in json.loads((folder / "sprt.json").read_text())["pairs"]]
        penta = [scores.count(k / 2) / len(scores) for k in range(5)]
        truth = true_elo(penta, args.model)
        for elo0, wrong in ((truth, "alpha"), (truth - width, "beta")):
            started = time.perf_counter()
            h1, h0, undecided, mean_pairs = run_tests(
                penta, args.sims, model=args.model, elo0=elo0, elo1=elo0 + width, alpha=args.alpha,
                beta=args.beta, max_pairs=args.max_pairs, seed=args.seed)
            error = (h1 if wrong == "alpha" else h0) / args.sims
            print(f"| real: {folder.name} ({len(scores)} pairs), elo0 {elo0:+.1f} elo1 {elo0 + width:+.1f} | "
                  f"{truth:+.1f} | - | {penta[2]:.0%} | {h1} | {h0} | {undecided} | {wrong} = {error:.3f} | "
                  f"{mean_pairs:.0f} | {time.perf_counter() - started:.0f} |", flush=True)


if __name__ == "__main__":
    main()
