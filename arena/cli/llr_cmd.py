"""`arena llr`: SPRT statistics (LLR, bounds, verdict, Elo, LOS) from outcome counts."""

from __future__ import annotations

import json

import click

from arena.cli.exits import ArenaCommand
from arena.errors import UsageError


def _parse_counts(text: str, expected: int, option: str) -> list[float]:
    """Comma-separated non-negative counts (integers, or decimals for weighted tallies)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != expected:
        raise UsageError(f"{option} takes {expected} comma-separated counts, got {text!r}")
    try:
        return [float(p) for p in parts]
    except ValueError:
        raise UsageError(f"{option}: not a number in {text!r}") from None


@click.command(cls=ArenaCommand, name="llr", epilog="""\b
Examples:
  arena llr --pentanomial 12,95,230,101,15 --elo0 0 --elo1 5
  arena llr --trinomial 410,380,395 --model logistic --elo0 -1 --elo1 4
\b
Exit status: 0 whatever the verdict (read "verdict": H1, H0 or continue); 2 for bad input.""")
@click.option("--pentanomial", metavar="N0,N1,N2,N3,N4",
              help="Counts of colour-swapped pairs scoring 0, 1/2, 1, 3/2 and 2 points for the new bot.")
@click.option("--trinomial", metavar="W,D,L", help="Counts of single games won, drawn and lost by the new bot.")
@click.option("--elo0", type=float, default=0.0, show_default=True, help="Elo difference of H0.")
@click.option("--elo1", type=float, default=5.0, show_default=True, help="Elo difference of H1.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="False-positive rate (accept H1 when H0).")
@click.option("--beta", type=float, default=0.05, show_default=True, help="False-negative rate (accept H0 when H1).")
@click.option("--model", type=click.Choice(["normalized", "logistic"]), default="normalized", show_default=True,
              help="Elo model of elo0/elo1 (normalized Elo as fishtest, or logistic Elo).")
def llr_command(pentanomial: str | None, trinomial: str | None, elo0: float, elo1: float,
                alpha: float, beta: float, model: str) -> None:
    """Compute the generalized SPRT log-likelihood ratio the way fishtest does, from pentanomial
    pair counts or trinomial game counts, and print one JSON object: llr, lower, upper, verdict
    (H1, H0 or continue), elo and elo_ci (95%) in the chosen model, both models' estimates, los,
    draw_ratio, pairs/games, model, elo0, elo1."""
    from arena.stats.sprt import SPRTError, summary

    if (pentanomial is None) == (trinomial is None):
        raise UsageError("give exactly one of --pentanomial N0,N1,N2,N3,N4 or --trinomial W,D,L")
    if pentanomial is not None:
        counts = _parse_counts(pentanomial, 5, "--pentanomial")
    else:
        assert trinomial is not None
        counts = list(reversed(_parse_counts(trinomial, 3, "--trinomial")))  # the statistics take L, D, W
    try:
        result = summary(counts, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta,
                         model="logistic" if model == "logistic" else "normalized")
    except SPRTError as exc:
        raise UsageError(str(exc)) from None
    click.echo(json.dumps(result))
