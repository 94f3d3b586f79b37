"""The evolutionary bootstrap: breeding, and a tiny run through real tournaments."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.train.evolve import Evolution, EvolveSettings, breed, crossover, mutate, table_lines


def test_crossover_takes_each_weight_from_one_parent() -> None:
    rng = random.Random(1)
    a = {f"w{i}": float(i) for i in range(20)}
    b = {f"w{i}": float(100 + i) for i in range(20)}
    child = crossover(a, b, rng)
    assert set(child) == set(a)
    assert all(child[name] in (a[name], b[name]) for name in a)
    assert any(child[n] == a[n] for n in a) and any(child[n] == b[n] for n in a)


def test_breeding_makes_every_ordered_couple_and_a_parent_with_itself_is_its_copy() -> None:
    parents = [{"x": float(i), "y": float(10 * i)} for i in range(3)]
    children = breed(parents, random.Random(2), 0.0, 0.0)
    assert len(children) == 9
    assert children[0] == parents[0] and children[4] == parents[1] and children[8] == parents[2]


def test_mutation_moves_weights_only_when_asked() -> None:
    weights = {"x": 1.0, "y": 2.0}
    assert mutate(weights, random.Random(3), 0.0, 5.0) == weights
    assert mutate(weights, random.Random(3), 1.0, 5.0) != weights


def test_a_tiny_run_plays_tournament_folders_and_resumes_without_replaying(tmp_path: Path) -> None:
    settings = EvolveSettings(game="connect4", population=3, keep=2, rounds=2, games_per_pair=1, depth=1,
                              final_games=2, seed=4)
    lines: list[str] = []
    summary = Evolution(settings, tmp_path, concurrency=2, say=lines.append).run()
    for name in ("round-1", "round-2", "final"):
        assert (tmp_path / "tournament_logs" / name / "standings.json").exists()
    assert len(list((tmp_path / "players").glob("r2-*.json"))) == 4  # keep x keep children
    assert summary.winner.startswith("r2-") and (tmp_path / "winner.json").exists()
    assert [row["ancestor"] for row in summary.table] == json.loads((tmp_path / "round-1.result.json").read_text())[
        "ranking"][:2]
    assert all(row["games"] == 2 for row in summary.table)
    assert len(table_lines(summary)) == 2 + len(summary.table)

    again: list[str] = []
    assert Evolution(settings, tmp_path, concurrency=2, say=again.append).run().winner == summary.winner
    assert sum(line.startswith("round ") and "already played" in line for line in again) == 2
    assert not any(line.startswith("tournament round") for line in again)  # finished rounds are not run

    with pytest.raises(ConfigError, match="--keep 2, this run asks 3"):
        Evolution(EvolveSettings(**{**settings.__dict__, "keep": 3}), tmp_path).run()


def test_cli_mistakes_are_one_line_with_exit_2(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from arena.cli.train_cmd import train_command

    result = CliRunner().invoke(train_command, ["evolve", "--game", "connect4", "--keep", "0",
                                                "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert result.output == "arena train: error: --keep: must be a positive integer, got 0\n"


def test_players_can_learn_by_td_before_their_tournament(tmp_path: Path) -> None:
    settings = EvolveSettings(game="connect4", population=2, keep=1, rounds=1, td_games=2, seed=5)
    evolution = Evolution(settings, tmp_path)
    evolution._check_folder()
    ids = evolution.population(1, [])
    untaught = Evolution(EvolveSettings(**{**settings.__dict__, "td_games": 0}), tmp_path / "plain")
    untaught._check_folder()
    plain = untaught.population(1, [])
    taught = [json.loads((tmp_path / "players" / f"{i}.json").read_text())["evaluation"] for i in ids]
    first = [json.loads((tmp_path / "plain" / "players" / f"{i}.json").read_text())["evaluation"] for i in plain]
    assert taught != first and "TD(lambda)" in json.loads((tmp_path / "players" / f"{ids[0]}.json").read_text())[
        "description"]


def test_a_round_where_everyone_scored_the_same_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Untrained Abalone players drew every game by the cap: the ranking then falls back to ids,
    and the run says so instead of presenting arbitrary parents as the best."""
    settings = EvolveSettings(game="connect4", population=3, keep=2, rounds=1, final_games=0, depth=1)
    evolution = Evolution(settings, tmp_path, say=(lines := []).append)

    def drawn(name: str, ids: list[str], kind: str, games_per_pair: int) -> dict[str, object]:
        return {"standings": [{"id": i, "points": 1.0, "elo": 0.0, "games": 2} for i in ids]}

    monkeypatch.setattr(evolution, "_tournament", drawn)
    evolution.run()
    assert any("warning: every player scored the same" in line for line in lines), lines
