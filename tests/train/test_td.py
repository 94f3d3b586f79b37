"""TD(lambda) self-play: mechanics with tiny budgets (a few games)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.agents.hyperparameters import load_hyperparameters
from arena.errors import ConfigError, Interrupted
from arena.train.td import TdSettings, load_checkpoint, read_curve, train_td

GAME = "connect4"


def _settings(**changes: object) -> TdSettings:
    base = {"game": GAME, "eval_every": 2, "eval_pairs": 1, "eval_depth": 1, "seed": 7}
    base.update(changes)
    return TdSettings(**base)  # type: ignore[arg-type]


def test_weights_change_and_the_files_are_loadable(tmp_path: Path) -> None:
    summary = train_td(_settings(), tmp_path, 4)
    assert summary.games_done == 4 and summary.played_now == 4
    initial = load_hyperparameters(tmp_path / "initial.json", GAME).evaluation
    trained = load_hyperparameters(tmp_path / "trained.json", GAME).evaluation
    assert initial != trained
    curve = read_curve(tmp_path)
    assert [point["games"] for point in curve] == [2, 4]
    best = max(curve, key=lambda point: point["score"])  # the first of equal scores is kept
    assert load_hyperparameters(tmp_path / "best.json", GAME).evaluation == best["theta"]
    assert all(point["wins"] + point["draws"] + point["losses"] == 2 for point in curve)


def test_a_checkpoint_round_trips(tmp_path: Path) -> None:
    settings = _settings()
    train_td(settings, tmp_path, 3)
    state = load_checkpoint(tmp_path, settings)
    assert state is not None and state.games_done == 3
    data = json.loads((tmp_path / "checkpoint.json").read_text())
    assert data["w"] == state.w and data["rms"] == state.scales and data["games_done"] == 3


def test_resuming_continues_exactly_where_an_unbroken_run_would_be(tmp_path: Path) -> None:
    settings = _settings()
    train_td(settings, tmp_path / "straight", 6)
    train_td(settings, tmp_path / "broken", 3)
    summary = train_td(settings, tmp_path / "broken", 6)
    assert summary.played_now == 3
    straight = json.loads((tmp_path / "straight" / "checkpoint.json").read_text())
    broken = json.loads((tmp_path / "broken" / "checkpoint.json").read_text())
    assert straight["w"] == broken["w"] and straight["rng"] == broken["rng"]
    assert read_curve(tmp_path / "straight") == read_curve(tmp_path / "broken")


def test_an_interruption_saves_the_last_finished_game(tmp_path: Path) -> None:
    lines: list[str] = []

    def progress(line: str) -> None:
        lines.append(line)
        # "td G: 2/10 games (0.2/s), ...": the count, not the rate (which can read "2/s" too).
        if line.startswith("td ") and re.search(r": 2/\d+ games", line):
            raise KeyboardInterrupt

    with pytest.raises(Interrupted, match="after 2 games"):
        train_td(_settings(), tmp_path, 10, progress_every=1, progress=progress)
    state = load_checkpoint(tmp_path, _settings())
    assert state is not None and state.games_done == 2
    assert train_td(_settings(), tmp_path, 3).played_now == 1


def test_a_folder_made_with_other_settings_is_refused(tmp_path: Path) -> None:
    train_td(_settings(), tmp_path, 1)
    with pytest.raises(ConfigError, match="--lambda 0.5, this run asks 0.9"):
        train_td(_settings(lam=0.9), tmp_path, 2)


def test_the_cli_trains_and_errors_are_one_line_with_exit_2(tmp_path: Path) -> None:
    from arena.cli.train_cmd import train_command

    runner = CliRunner()
    out = tmp_path / "run"
    result = runner.invoke(train_command, ["td", "--game", GAME, "--games", "2", "--out", str(out),
                                           "--eval-every", "1", "--eval-pairs", "1", "--eval-depth", "1"])
    assert result.exit_code == 0, result.output
    assert (out / "trained.json").exists() and len(read_curve(out)) == 2
    assert (out / "curve.svg").read_text().count("<polyline") == 1 and (out / "curve.html").exists()
    result = runner.invoke(train_command, ["td", "--game", GAME, "--out", str(out), "--alpha", "0.5"])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and "arena train: error:" in result.output
    result = runner.invoke(train_command, ["td", "--game", GAME, "--out", str(tmp_path / "x"), "--lambda", "2"])
    assert result.exit_code == 2 and result.output.strip() == "arena train: error: --lambda must be from 0 to 1"


def test_the_written_weights_are_averaged_over_the_games() -> None:
    from arena.train.td import TdState

    state = TdState([0.0], [1.0], {}, w_avg=[0.0])
    for games, value in enumerate([2.0, 4.0, 6.0], start=1):
        state.w, state.games_done = [value], games
        state.average_after_game(2)
    assert state.w_avg == [pytest.approx(4.5)]  # the mean of the first two (3), then half-way to 6


def test_a_run_killed_with_sigkill_resumes_from_its_last_checkpoint(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    code = ("import sys; from arena.cli.train_cmd import train_command; "
            "train_command(sys.argv[1:], standalone_mode=True)")
    args = ["td", "--game", GAME, "--games", "100000", "--out", str(out), "--checkpoint-every", "1",
            "--eval-every", "3", "--eval-pairs", "1", "--eval-depth", "1", "--seed", "7"]
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 240  # a hang backstop only
        while time.monotonic() < deadline:
            try:
                if json.loads((out / "checkpoint.json").read_text())["games_done"] >= 4:
                    break
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.05)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    done = json.loads((out / "checkpoint.json").read_text())["games_done"]
    assert done >= 4
    from arena.cli.train_cmd import train_command

    args[args.index("--games") + 1] = str(done + 2)
    result = CliRunner().invoke(train_command, args)
    assert result.exit_code == 0, result.output
    assert f"resuming {out} after {done} games" in result.output and f"{done + 2} games done (2 now)" in result.output
    games = [point["games"] for point in read_curve(out)]
    assert games == sorted(set(games)) and all(g % 3 == 0 for g in games)


@pytest.mark.parametrize("game_name", ["breakthrough", "checkers", "shobu"])
def test_every_game_with_features_trains(tmp_path: Path, game_name: str) -> None:
    summary = train_td(TdSettings(game=game_name, eval_pairs=0, seed=2), tmp_path, 1)
    assert summary.games_done == 1
    initial = load_hyperparameters(tmp_path / "initial.json", game_name).evaluation
    assert load_hyperparameters(tmp_path / "trained.json", game_name).evaluation != initial


def test_the_lead_of_a_game_that_declares_one_is_the_marble_lead_over_six() -> None:
    """Abalone self-play nearly always reaches the cap: TD scores such a game by the lead the
    adapter module declares (LEAD_WEIGHTS: the marble lead over six, from the side to move's view),
    not as a flat draw; games without LEAD_WEIGHTS have none."""
    from arena.train.model import linear_game

    game = linear_game("abalone")
    adapter = game.adapter()
    start = game.initial(adapter)
    assert game.lead(game.vector(start)) == 0.0
    mine, theirs, black, ply = start
    one_down = (mine, theirs & (theirs - 1), black, ply)  # the opponent lost a marble
    assert game.lead(game.vector(one_down)) == pytest.approx(1 / 6)
    assert game.lead(game.vector((one_down[1], one_down[0], not black, ply))) == pytest.approx(-1 / 6)
    connect4 = linear_game("connect4")
    assert connect4.lead_weights == () and connect4.lead(connect4.vector(connect4.initial(connect4.adapter()))) == 0.0


def test_the_lead_is_part_of_the_written_weights_and_zero_init_is_the_lead_alone(tmp_path: Path) -> None:
    """theta = scale * (w / deviation + lead): a zero start values the marbles and nothing else,
    and theta round-trips through standardized_weights."""
    from arena.train.model import linear_game
    from arena.train.td import new_state, standardized_weights, theta

    game = linear_game("abalone")
    settings = TdSettings(game="abalone", init="zero", eval_pairs=0)
    state = new_state(game, settings)
    assert state.initial["ourMarbles"] == pytest.approx(1000 / 6, abs=0.5)
    assert state.initial["theirMarbles"] == pytest.approx(-1000 / 6, abs=0.5)
    assert all(v == 0 for k, v in state.initial.items() if k not in ("ourMarbles", "theirMarbles"))
    weights = {name: float(i * 37 - 200) for i, name in enumerate(game.feature_names)}
    w = standardized_weights(game, weights, state.scales, settings.scale)
    state.w = w
    assert theta(game, state, settings, averaged=False) == pytest.approx(weights)


def test_features_are_centred_and_scaled_by_their_spread() -> None:
    """x = (value - mean) / max(0.2, deviation): Abalone's marble count (about 14, barely moving in
    random play) becomes a feature a lost marble moves by more than one unit."""
    from arena.train.model import linear_game
    from arena.train.td import new_state

    game = linear_game("abalone")
    state = new_state(game, TdSettings(game="abalone", seed=3))
    marbles = game.feature_names.index("ourMarbles")
    assert 13.0 < state.mean[marbles] < 14.0 and 0.2 <= state.scales[marbles] < 1.0
    adapter = game.adapter()
    mine, theirs, black, ply = game.initial(adapter)
    full = state.standardize(game.vector((mine, theirs, black, ply)))
    down = state.standardize(game.vector((mine & (mine - 1), theirs, black, ply)))
    assert full[marbles] - down[marbles] > 1.0


def test_random_starts_are_not_saturated() -> None:
    """The seed starts from random weights; drawn in standardized space they keep the value off
    tanh's flat ends, where TD's updates vanish (Abalone's integer-range draw gave w.x near 30)."""
    import math

    from arena.train.model import linear_game
    from arena.train.td import new_state

    game = linear_game("abalone")
    start = game.initial(game.adapter())
    for seed in range(5):
        state = new_state(game, TdSettings(game="abalone", seed=seed))
        x = state.standardize(game.vector(start))
        value = sum(w * xi for w, xi in zip(state.w, x, strict=True))
        assert abs(math.tanh(value)) < 0.999, (seed, value)
