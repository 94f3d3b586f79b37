"""`arena report` of a learner's run folder: an SPSA run's parameter history and a TD run's learning
curve come first, as a chart and a table, then the games the run kept (issue 13, item 4)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner
from report_support import synthetic_record

from arena.cli.report_cmd import report_command
from arena.report.training import run_chart
from arena.train.spsa import load_spsa_config, run_spsa
from arena.train.td import TdSettings, train_td

ROOT = Path(__file__).resolve().parents[2]
_BLOCK = re.compile(r'<script type="application/json" id="([^"]+)">(.*?)</script>', re.DOTALL)


def _spsa_run(folder: Path) -> Path:
    config = load_spsa_config(ROOT / "examples" / "spsa" / "connect4.json")
    run_spsa(config, folder, iterations=2)
    return folder


def _report(source: Path, out: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(report_command, [str(source), "-o", str(out)])
    page = out.read_text() if out.exists() else ""
    return result.exit_code, result.output, page


def test_an_spsa_run_is_reported_with_its_parameter_history(tmp_path: Path) -> None:
    run = _spsa_run(tmp_path / "spsa")
    code, output, page = _report(run, tmp_path / "spsa.html")
    assert code == 0, output
    assert "the SPSA chart and 0 games" in output
    assert "SPSA history (connect4)" in page and "<svg" in page
    for key in ("evaluation.three", "evaluation.threat", "evaluation.centre"):
        assert f"<td>{key}</td>" in page
    data = dict(_BLOCK.findall(page))
    assert json.loads(data["arena-data"])["rows"] == []


def test_an_spsa_run_that_kept_games_lists_them_after_the_chart(tmp_path: Path) -> None:
    run = _spsa_run(tmp_path / "spsa")
    (run / "games").mkdir()
    for index in range(2):
        record = synthetic_record("connect4", seed=index, black="plus", white="minus", index=index)
        (run / "games" / f"{index:05d}.json").write_text(json.dumps(record))
    code, output, page = _report(run, tmp_path / "spsa.html")
    assert code == 0, output
    assert "the SPSA chart and 2 games" in output
    assert page.index("SPSA history") < page.index('id="games-section"')
    assert len(json.loads(dict(_BLOCK.findall(page))["arena-data"])["rows"]) == 2


def test_a_td_run_is_reported_with_its_learning_curve(tmp_path: Path) -> None:
    run = tmp_path / "td"
    train_td(TdSettings(game="connect4", eval_every=2, eval_pairs=1, eval_depth=1, seed=3), run, 4)
    chart = run_chart(run)
    assert chart is not None and chart.kind == "td" and [row[0] for row in chart.rows] == ["2", "4"]
    code, output, page = _report(run, tmp_path / "td.html")
    assert code == 0, output
    assert "the TD chart and 0 games" in output and "learning curve: connect4" in page


def test_a_damaged_run_folder_is_one_line_and_exit_2(tmp_path: Path) -> None:
    run = _spsa_run(tmp_path / "spsa")
    (run / "state.json").write_text("{not json")
    code, output, _ = _report(run, tmp_path / "x.html")
    assert code == 2 and output.strip() == f"arena: error: {run / 'state.json'}: not JSON"
    assert not (tmp_path / "x.html").exists()


def test_a_folder_that_is_no_run_and_holds_no_games_is_still_refused(tmp_path: Path) -> None:
    assert run_chart(tmp_path) is None
    code, output, _ = _report(tmp_path, tmp_path / "x.html")
    assert code == 2 and "no games here" in output and "Traceback" not in output


def test_a_td_run_without_a_curve_point_and_an_evolve_run_say_what_they_are(tmp_path: Path) -> None:
    run = tmp_path / "td"
    train_td(TdSettings(game="connect4", eval_pairs=0, seed=3), run, 1)
    code, output, _ = _report(run, tmp_path / "x.html")
    assert code == 2 and "a TD run without a point of its learning curve yet" in output
    evolve = tmp_path / "evolve"
    (evolve / "tournament_logs" / "round-1").mkdir(parents=True)
    (evolve / "tournament_logs" / "final").mkdir()
    (evolve / "evolve.json").write_text("{}")
    code, output, _ = _report(evolve, tmp_path / "y.html")
    assert code == 2 and output.strip() == (f"arena: error: {evolve}: an evolve run; its games are tournaments: "
                                            f"report one of {evolve / 'tournament_logs'}/{{final,round-1}}")
