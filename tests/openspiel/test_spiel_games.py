"""OpenSpiel's games as ``spiel:NAME`` (arena.openspiel): the adapter keeps the general model's
contract, moves are read by name or id, chance is exact, a seat sees only its own, the registry
finds them only when asked, and without OpenSpiel the message is one line saying what to install."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.games import registry
from arena.games.base import GameError, IllegalMoveError, MoveSyntaxError
from arena.games.conformance import check_spec
from arena.games.model import CHANCE, SIMULTANEOUS

pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("name", "players", "params"), [
    ("spiel:liars_dice", [2], {}),                       # chance, hidden dice
    ("spiel:hex", [2], {"board_size": 5}),               # an integer parameter
    ("spiel:goofspiel", [2, 3], {"num_cards": 4}),      # simultaneous bids, chance
    ("spiel:kuhn_poker", [2, 3, 4], {}),                 # N seats
    ("spiel:tic_tac_toe", [2], {}),
])
def test_spiel_games_pass_the_general_models_conformance_check(name: str, players: list[int],
                                                                params: dict[str, int]) -> None:
    spec = registry.get_spec(name)
    report = check_spec(spec, players=players, params=params, games=20)
    assert report.players == tuple(players) and sum(report.endings.values()) == 20 * len(players)


def test_spiel_kuhn_poker_has_the_tree_of_arenas_own() -> None:
    for players, depth in ((2, 6), (3, 9)):
        ours = registry.get_table_game("kuhn_poker", players)
        theirs = registry.get_table_game("spiel:kuhn_poker", players)
        assert theirs.perft(theirs.initial_state(), depth) == ours.perft(ours.initial_state(), depth)


def test_a_move_is_read_by_name_or_by_id_and_checked() -> None:
    game = registry.get_table_game("spiel:liars_dice")
    state = game.initial_state()
    while game.actor(state) == CHANCE:
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    by_name = game.validate_move(state, 0, game.parse_move("1-4"))
    by_id = game.validate_move(state, 0, game.parse_move(3))
    assert by_name == by_id and (by_id.id, by_id.name) == (3, "1-4")
    assert game.move_to_wire(by_id) == "1-4" and game.move_from_record(game.move_to_record(by_id)).id == 3
    with pytest.raises(IllegalMoveError, match="Liar is not a legal move for seat 0 here"):
        game.validate_move(state, 0, game.parse_move("Liar"))  # nobody has bid yet
    with pytest.raises(IllegalMoveError):
        game.validate_move(state, 1, by_id)  # not seat 1's turn
    for wire in (None, 1.5, "", [3], True):
        with pytest.raises(MoveSyntaxError):
            game.parse_move(wire)


def test_chance_probabilities_are_exact_fractions_summing_to_one() -> None:
    game = registry.get_table_game("spiel:backgammon")
    state = game.initial_state()
    outcomes = game.chance_outcomes(state)
    assert sum(p for _, p in outcomes) == 1 and all(isinstance(p, Fraction) for _, p in outcomes)
    assert {p for _, p in outcomes} == {Fraction(1, 30)} or all(p.denominator <= 10**6 for _, p in outcomes)


def test_a_seat_sees_its_own_die_and_the_bids_never_the_others_die() -> None:
    game = registry.get_table_game("spiel:liars_dice")

    def after(rolls: list[int]) -> object:
        return game.state_from_json({"history": [*rolls, 2]})  # seat 0 bids 1-3

    seen = [game.observation(after([first, 5]), 1) for first in range(6)]
    assert all(obs == seen[0] for obs in seen)  # seat 0's die changes nothing seat 1 sees
    assert seen[0]["text"] == "6 1-3" and seen[0]["legalNames"][-1] == "Liar"
    assert seen[0]["legalActions"] == list(range(3, 13)) and seen[0]["shape"] == [len(seen[0]["tensor"])]
    assert game.observation(after([0, 5]), 0)["text"] == "1 1-3"  # seat 0's own die
    assert game.observation(after([0, 5]), 0)["legalNames"] == []  # not its turn


def test_a_simultaneous_step_replays_from_the_history() -> None:
    game = registry.get_table_game("spiel:goofspiel", 3, {"num_cards": 4})
    state = game.initial_state()
    state = game.apply(state, game.chance_outcomes(state)[0][0])
    assert game.actor(state) == SIMULTANEOUS and game.acting_seats(state) == (0, 1, 2)
    state = game.apply_joint(state, {seat: game.legal_moves(state, seat)[seat] for seat in range(3)})
    again = game.state_from_json(game.state_to_json(state))
    assert again == state and game.ply(again) == 2
    with pytest.raises(GameError, match="not playable"):
        game.state_from_json({"history": [0, 9, 9, 9]})
    with pytest.raises(GameError, match="history"):
        game.state_from_json({"moves": []})


def test_parameters_come_from_the_games_spec_and_are_checked() -> None:
    spec = registry.get_spec("spiel:hex")
    assert spec.model == registry.GENERAL and spec.protocol == "json-seats" and spec.origin.startswith("open_spiel")
    hex5 = spec.table(2, {"board_size": 5})
    assert hex5.default_max_moves == 25 and hex5.identity()["params"]["board_size"] == 5
    with pytest.raises(GameError, match="unknown parameter 'size'"):
        spec.table(2, {"size": 5})
    with pytest.raises(GameError, match="swap must be an integer from 0 to 1"):
        spec.table(2, {"swap": 2})
    assert registry.get_spec("spiel:kuhn_poker").player_bounds() == (2, 10)


def test_games_arena_cannot_play_are_refused_in_one_line() -> None:
    for name, reason in (("spiel:no_such_game", "OpenSpiel has no game 'no_such_game'"),
                         ("spiel:2048", "a game of one player"),
                         ("spiel:mfg_garnet", "a mean-field game"),
                         ("spiel:negotiation", "chance is drawn inside OpenSpiel"),
                         ("spiel:Hex", "bad game name")):
        with pytest.raises(GameError, match=reason) as caught:
            registry.get_spec(name)
        assert "\n" not in str(caught.value)


def test_arena_games_lists_them_and_all_gives_a_row_each() -> None:
    result = CliRunner().invoke(cli, ["games"])
    assert result.exit_code == 0, result.output
    assert "spiel:NAME games (" in result.output and "spiel:liars_dice," in result.output
    result = CliRunner().invoke(cli, ["games", "--all", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    rows = {row["name"]: row for row in data["games"]}
    assert rows["spiel:hex"]["players"] == [2, 2] and rows["spiel:hex"]["maxMoves"] == 121
    assert "spiel:hex" in data["families"]["spiel"]["games"] and data["families"]["spiel"]["problem"] is None


PROBE = """
import sys
{block}
from arena.cli import main
try:
    main({args!r})
except SystemExit as exit:
    code = exit.code
sys.stderr.write('PYSPIEL=' + str('pyspiel' in sys.modules) + ' CODE=' + str(code) + '\\n')
"""


@pytest.mark.parametrize("args", [["--help"], ["match", "--help"], ["perft", "--game", "connect4", "--depth", "2"],
                                  ["perft", "--game", "kuhn_poker", "--depth", "3"]])
def test_arena_never_imports_pyspiel_unless_a_spiel_game_is_asked_for(args: list[str]) -> None:
    out = subprocess.run([sys.executable, "-c", PROBE.format(block="", args=args)], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, check=False, timeout=120, cwd=ROOT)
    assert out.stderr.strip().splitlines()[-1] == "PYSPIEL=False CODE=0", out.stderr


def test_without_openspiel_a_spiel_game_is_one_line_saying_what_to_install() -> None:
    hide = "sys.modules['pyspiel'] = None  # what an absent module looks like to an import"
    for args in (["perft", "--game", "spiel:hex", "--depth", "1"], ["games"]):
        out = subprocess.run([sys.executable, "-c", PROBE.format(block=hide, args=args)], capture_output=True,
                             text=True, stdin=subprocess.DEVNULL, check=False, timeout=120, cwd=ROOT)
        assert "Traceback" not in out.stderr
        said = out.stdout + out.stderr
        assert "OpenSpiel is not installed: pip install 'arena-bots[openspiel]'" in said, said
        assert ("spiel:hex is one of OpenSpiel's games" if "perft" in args else "spiel:NAME games are OpenSpiel's") \
            in said
    assert out.stderr.strip().splitlines()[-1].endswith("CODE=0")  # `arena games` still lists arena's own


def test_with_openspiel_a_spiel_game_plays_through_the_rules_tools() -> None:
    out = subprocess.run([sys.executable, "-m", "arena", "perft", "--game", "spiel:liars_dice", "--depth", "3"],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "432" in out.stdout  # 6 x 6 rolls x 12 opening bids
