"""`arena openings`: generate an opening book (see :mod:`arena.openings.generate`)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from arena.cli.exits import ArenaCommand
from arena.cli.options import game_option


@click.command(cls=ArenaCommand, name="openings", short_help="Generate a book of balanced opening positions.", epilog="""\b
Examples:
  arena openings --game checkers --plies 4 --count 50 -o checkers-4ply.jsonl
  arena openings --game connect4 --plies 2 --count 20""")
@game_option()
@click.option("--plies", type=click.IntRange(min=1, max=200), default=4, show_default=True,
              help="Random plies from the start.")
@click.option("--count", type=click.IntRange(min=1, max=100_000), default=50, show_default=True,
              help="Positions wanted (fewer if the game does not have that many).")
@click.option("--seed", type=click.IntRange(min=0, max=2**63 - 1), default=0, show_default=True)
@click.option("--depth", type=click.IntRange(min=1, max=8), default=3, show_default=True,
              help="Search depth of the balance check.")
@click.option("--max-score", type=click.IntRange(min=0), default=None,
              help="Also drop positions whose |score| is above this, in the search's units (100 is about "
                   "a piece in checkers and Shobu). Default: no cap; the most balanced quarter is kept.")
@click.option("-o", "--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the book here (atomically) instead of stdout.")
def openings_command(game_name: str, plies: int, count: int, seed: int, depth: int, max_score: int | None,
                     out: Path | None) -> None:
    """Write an opening book: the --count most balanced of 4 x --count distinct positions after
    --plies random plies (scored by arena's search for the side to move), one state object per
    line (JSONL), ready for --openings."""
    import orjson

    from arena.fileio.files import output_refusal
    from arena.openings.generate import generate

    refusal = output_refusal(out) if out is not None else None
    if refusal is not None:  # before the search: -o /dev/full, a FIFO, a link or a folder
        raise click.BadParameter(f"{out}: {refusal.strerror}", param_hint="--out")

    lines = [orjson.dumps(state) + b"\n" for state in generate(
        game_name, plies=plies, count=count, seed=seed, depth=depth, max_score=max_score)]
    data = b"".join(lines)
    if out is None:
        sys.stdout.buffer.write(data)
    else:
        from arena.fileio.files import atomic_write

        try:
            atomic_write(out, data)
        except OSError as exc:
            raise click.ClickException(f"cannot write {out}: {exc.strerror or exc}") from None
    click.echo(f"{len(lines)} positions" + ("" if len(lines) == count else f" (of {count} asked: no more "
                                                                          "distinct positions found)"), err=True)
