"""The one job builder (arena.runs.jobs): every field of a run's setting, its seats and its opening
reach the job, and the three drivers that play pairs build their jobs with it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from arena.backends import GameJob
from arena.match.clock import TimeControl
from arena.match.pairs import Openings, pair_games, pair_opening
from arena.players.spec import AgentSpec
from arena.process.isolation import DEFAULT_ISOLATION
from arena.runs.jobs import GameSetting, game_job

ROOT = Path(__file__).resolve().parents[2]
A, B = AgentSpec(id="a", command="python3 a.py"), AgentSpec(id="b", command="python3 b.py")
SETTING = GameSetting(game="checkers", time_control=TimeControl(time_limit_ms=500), max_moves=80,
                      isolation=DEFAULT_ISOLATION, players=2, parameters=(("size", 8),), rules=("python3", "ref.py"),
                      legal_moves=True, player_opts={"x": 1})


def test_every_setting_field_reaches_the_job() -> None:
    job = game_job(SETTING, [A, B], 7, seed=42)
    shared = {f.name for f in dataclasses.fields(GameSetting)}
    assert shared <= {f.name for f in dataclasses.fields(GameJob)}
    assert {name: getattr(job, name) for name in shared} == {name: getattr(SETTING, name) for name in shared}
    assert (job.agents, job.game_index, job.seed, job.start_state, job.opening_plies) == ((A, B), 7, 42, None, 0)


def test_a_pairs_opening_gives_the_start_the_plies_and_the_seed() -> None:
    opening = pair_opening(3, 99, Openings(4), always_record_seed=True)
    job = game_job(SETTING, (B, A), 5, opening, seed=1)
    assert (job.start_state, job.opening_plies, job.seed) == (opening.start_state, 4, opening.seed)
    assert job.seed is not None and job.seed != 1  # the opening's seed, not the fallback


def test_both_games_of_a_pair_share_the_opening() -> None:
    first, second = (game_job(SETTING, (g.black, g.white), i, g.opening)
                     for i, g in enumerate(pair_games(A, B, 2, 11, Openings(3))))
    assert (first.agents, second.agents) == ((A, B), (B, A))
    assert (first.seed, first.opening_plies) == (second.seed, second.opening_plies)


def test_the_drivers_build_jobs_only_here() -> None:
    """A GameJob literal in a driver would be a second builder that misses the next field."""
    drivers = ["arena/tournament/runner.py", "arena/sprt/run.py", "arena/train/spsa_play.py"]
    assert [d for d in drivers if "GameJob(" in (ROOT / d).read_text()] == []
    assert all("game_job(" in (ROOT / d).read_text() for d in drivers)
