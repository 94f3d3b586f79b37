"""SPSA tuning: the update on a synthetic objective, resume, config errors, the charts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.errors import ConfigError
from arena.report.charts import html_page, sparkline, svg_chart
from arena.train.spsa import load_spsa_config, read_history, run_spsa

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "spsa"


def _config(tmp_path: Path, **changes: object) -> Path:
    (tmp_path / "start.json").write_text(json.dumps({"maxDepth": 1, "evaluation": {"three": 20}}))
    obj = {"game": "connect4", "agent": "start.json", "iterations": 40, "pairs": 1, "seed": 3,
           "parameters": {"evaluation.three": {"min": 0, "max": 200, "c": 10},
                          "evaluation.two": {"start": 50, "min": 0, "max": 100, "c": 5}}}
    obj.update(changes)
    path = tmp_path / "spsa.json"
    path.write_text(json.dumps(obj))
    return path


def _synthetic(plus: dict[str, float], minus: dict[str, float], k: int) -> float:
    """Points are best at three = 120 and two = 30: y says which probe was nearer."""

    def quality(theta: dict[str, float]) -> float:
        return -((theta["evaluation.three"] - 120) / 100) ** 2 - ((theta["evaluation.two"] - 30) / 50) ** 2

    return max(-1.0, min(1.0, 5 * (quality(plus) - quality(minus))))


def test_the_update_climbs_a_synthetic_objective(tmp_path: Path) -> None:
    config = load_spsa_config(_config(tmp_path))
    assert config.parameters[0].start == 20 and config.parameters[1].start == 50
    theta = run_spsa(config, tmp_path / "run", measure=_synthetic)
    assert abs(theta["evaluation.three"] - 120) < abs(20 - 120) / 2
    assert abs(theta["evaluation.two"] - 30) < abs(50 - 30)
    history = read_history(tmp_path / "run")
    assert [line["k"] for line in history] == list(range(40))
    tuned = json.loads((tmp_path / "run" / "tuned.json").read_text())
    assert tuned["evaluation"]["three"] == round(theta["evaluation.three"]) and tuned["maxDepth"] == 1


def test_resume_continues_where_it_stopped(tmp_path: Path) -> None:
    config = load_spsa_config(_config(tmp_path))
    straight = run_spsa(config, tmp_path / "a", iterations=10, measure=_synthetic)
    run_spsa(config, tmp_path / "b", iterations=4, measure=_synthetic)
    resumed = run_spsa(config, tmp_path / "b", iterations=10, measure=_synthetic)
    assert straight == resumed
    assert read_history(tmp_path / "a") == read_history(tmp_path / "b")


def test_real_games_play_the_iterations(tmp_path: Path) -> None:
    config = load_spsa_config(_config(tmp_path, iterations=2))
    theta = run_spsa(config, tmp_path / "run")
    assert len(read_history(tmp_path / "run")) == 2 and set(theta) == {"evaluation.three", "evaluation.two"}


@pytest.mark.parametrize(("changes", "message"), [
    ({"parameters": {"evaluation.nope": {"min": 0, "max": 1, "c": 1}}}, "evaluation.nope: unknown connect4 weight"),
    ({"parameters": {"evaluation.three": {"min": 5, "max": 1, "c": 1}}}, "needs min < max"),
    ({"parameters": {"bogus": {"min": 0, "max": 1, "c": 1}}}, "not a tunable key"),
    ({"pairs": 0}, "pairs: must be a positive integer, got 0"),
    ({"colour": 1}, "colour: unknown key (known keys: "),
])
def test_config_mistakes_are_one_line(tmp_path: Path, changes: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_spsa_config(_config(tmp_path, **changes))


def test_the_cli_tunes_plots_and_fails_in_one_line(tmp_path: Path) -> None:
    from arena.cli.tune_cmd import tune_command

    runner = CliRunner()
    result = runner.invoke(tune_command, ["spsa", str(_config(tmp_path)), "--out", str(tmp_path / "run"),
                                          "--iterations", "2"])
    assert result.exit_code == 0, result.output
    assert "evaluation.three" in result.output
    svg = (tmp_path / "run" / "history.svg").read_text()
    assert svg.count("<polyline") == 2
    page = (tmp_path / "run" / "history.html").read_text()
    assert set(re.findall(r"https?://[^\s\"'<>\\]+", page)) <= {"http://www.w3.org/2000/svg"}
    bad = runner.invoke(tune_command, ["spsa", str(tmp_path / "missing.json"), "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and "arena tune: error:" in bad.output


@pytest.mark.parametrize("name", ["connect4.json", "breakthrough.json"])
def test_the_example_configs_load(name: str) -> None:
    config = load_spsa_config(EXAMPLES / name)
    assert config.openings is not None and len(config.parameters) >= 3


def test_sparkline_and_chart() -> None:
    assert sparkline([0, 1, 2, 3, 4, 5, 6, 7]) == "▁▂▃▄▅▆▇█"
    assert len(sparkline(list(range(500)), 40)) == 40
    assert sparkline([]) == "" and sparkline([3, 3]) == "▄▄"
    svg = svg_chart({"x": [1, 2, 3], "y": [5.0, 4.0, 6.0]}, title="t <&>", bounds={"x": (0, 10)})
    assert svg.count("<polyline") == 2 and "t &lt;&amp;&gt;" in svg
    assert "<table>" in html_page("p", svg, [["a", "1"]], ["k", "v"])
