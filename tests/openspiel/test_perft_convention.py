"""`arena perft` counts every game by one convention, chess's: a game that ended before a depth
contributes nothing to it. Arena's own N-seat games, counted by the one perft of the rules tools
(:func:`arena.tools.perft.perft`, what `arena perft` prints), equal OpenSpiel's trees walked here by
the same convention (a chance outcome, whatever its probability, and a simultaneous node's joint
action are one step each), at every depth down past the longest game."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.games import registry
from arena.tools.perft import perft
from tests.helpers import spiel_perft_profile

pyspiel = pytest.importorskip("pyspiel")


@pytest.mark.parametrize(("game", "players", "params", "depth"), [
    ("kuhn_poker", 2, {}, 6),              # the longest hand is 5 steps
    ("kuhn_poker", 3, {}, 9),
    ("leduc_poker", 2, {}, 12),            # 11 steps at most
    ("goofspiel", 2, {"num_cards": 3}, 6),  # chance and simultaneous steps; every game is 4 steps
    ("goofspiel", 3, {"num_cards": 3}, 5),
])
def test_arenas_perft_equals_openspiels_tree_by_the_chess_convention(game: str, players: int,
                                                                      params: dict[str, int], depth: int) -> None:
    ours = registry.get_table_game(game, players, params)
    start = ours.initial_state()
    counts = [perft(ours, start, d).nodes for d in range(1, depth + 1)]
    reference = pyspiel.load_game(game, {"players": players, **params})
    assert counts == spiel_perft_profile(reference.new_initial_state(), depth)
    assert counts[-1] == 0 < counts[-2] or game == "goofspiel"  # past the longest game nothing is left
    assert perft(ours, start, depth, divide=True).nodes == counts[-1]


def test_the_command_prints_the_same_figure_for_a_finished_and_a_live_game() -> None:
    """Kuhn poker, 2 players: depth 5 counts only the pass-bet hands (6 deals x 2 answers), and a
    finished hand counts 1 at depth 0 and nothing below, as a mated chess position does."""
    run = CliRunner().invoke(cli, ["perft", "--game", "kuhn_poker", "--players", "2", "--depth", "5", "--json"],
                             catch_exceptions=False)
    assert run.exit_code == 0, run.output
    assert json.loads(run.stdout)["nodes"] == 12
    game = registry.get_table_game("kuhn_poker", 2)
    state = game.initial_state()
    for step in (0, 1, "pass", "pass"):
        state = game.apply(state, step)
    assert game.is_terminal(state)
    assert [perft(game, state, d).nodes for d in (0, 1, 2)] == [1, 0, 0]
    assert perft(game, state, 1, divide=True).divide == []
