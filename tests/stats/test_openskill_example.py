"""The example rating plugin (examples/arena-openskill): Weng–Lin ratings from the openskill package,
installed as pip would install it (its module and the entry points its pyproject.toml declares,
arena's own files untouched), rate every agent of a log folder with an interval through
``arena standings --rating weng-lin``, for two seats and for three, and docs/extending.md's
commands run as written."""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.standings_cmd import standings_command
from arena.stats.methods import RATING_SEAM, rating_names
from arena.stats.results import RankedResult
from tests.helpers import installed_plugin
from tests.test_readme_examples import Example, run_example

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "arena-openskill"
PYPROJECT = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())
#: openskill's prior sigma (25/3) on the example's scale: an agent without a game is 0 ± 1.96 of it.
PRIOR_HALF_WIDTH = 1.959963984540054 * 25 / 3 * 400 / (math.log(10) * math.sqrt(2) * 25 / 6)


def entry_points_txt(project: dict[str, Any]) -> str:
    """What pip writes to ``entry_points.txt`` for the groups of a ``[project]`` table."""
    return "".join(f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in points.items())
                   for group, points in project["entry-points"].items())


@pytest.fixture
def weng_lin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The example installed: its module in a site folder beside its dist-info, as pip leaves them."""
    module = PYPROJECT["tool"]["setuptools"]["py-modules"][0]
    with installed_plugin(monkeypatch, tmp_path / "site", RATING_SEAM, PYPROJECT["project"]["name"],
                          entry_points_txt(PYPROJECT["project"]),
                          {f"{module}.py": (EXAMPLE / f"{module}.py").read_text()}) as site:
        yield site


def standings(folder: Path) -> dict[str, Any]:
    result = CliRunner().invoke(standings_command, [str(folder), "--json", "--bootstrap", "0", "--rating", "weng-lin"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def two_seat_folder(folder: Path) -> Path:
    """``strong`` beats ``mid`` and ``weak`` in every game (each colour four times); ``mid`` beats
    ``weak`` three times in four, the fourth a draw."""
    folder.mkdir()
    games = [(b, w, "BLACK" if b == "strong" else "WHITE")
             for other in ("mid", "weak") for b, w in [("strong", other), (other, "strong")] * 4]
    games += [("mid", "weak", "BLACK"), ("weak", "mid", "WHITE"), ("mid", "weak", "BLACK"), ("weak", "mid", "NONE")]
    rows = [{"index": i, "pair": i // 2, "black": b, "white": w, "winner": winner, "termination": "win",
             "reason": "", "plies": 10} for i, (b, w, winner) in enumerate(games)]
    (folder / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


def three_seat_folder(folder: Path) -> Path:
    """Three-seat games of four agents, the group and the seats rotating: ``ace`` is first whenever
    it plays, the others are ranked in seat order, and every third game the last two tie."""
    folder.mkdir()
    agents = ["ace", "bo", "cy", "di"]
    rows = []
    for index in range(24):
        seats = [agents[(index + k) % 4] for k in range(3)]
        first, second, third = sorted(range(3), key=lambda s: (seats[s] != "ace", s))
        ranks = [0, 0, 0]
        ranks[first], ranks[second], ranks[third] = 1, 2, 2 if index % 3 == 0 else 3
        rows.append({"index": index, "group": index, "seats": seats,
                     "players": [{"id": a, "seat": s} for s, a in enumerate(seats)], "ranks": ranks,
                     "returns": [float(3 - r) for r in ranks], "termination": "win", "reason": "by the rules",
                     "eliminations": [], "plies": 10, "duration_s": 0.1})
    (folder / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


def check_intervals(data: dict[str, Any], agents: set[str]) -> dict[str, dict[str, float]]:
    """The weng-lin ratings of ``data``: every agent of ``agents`` with a rating inside an interval."""
    method = data["ratings"]["weng-lin"]
    assert "openskill Plackett-Luce" in method["unit"] and "95% interval mu +- 1.96 sigma" in method["unit"]
    ratings: dict[str, dict[str, float]] = method["ratings"]
    assert set(ratings) == agents
    for agent, rating in ratings.items():
        assert rating["low"] < rating["rating"] < rating["high"], agent
    return ratings


def test_the_example_is_one_module_and_one_entry_point_depending_on_openskill() -> None:
    assert PYPROJECT["tool"]["setuptools"]["py-modules"] == ["arena_openskill"]
    assert PYPROJECT["project"]["entry-points"] == {"arena.ratings": {"weng-lin": "arena_openskill:WengLin"}}
    assert any(re.match(r"openskill\b", d) for d in PYPROJECT["project"]["dependencies"])


def test_installed_it_is_a_method(weng_lin: Path) -> None:
    assert rating_names() == ("online-elo", "plackett-luce", "weng-lin")
    assert RATING_SEAM.load("weng-lin").unit.startswith("Elo-like: Weng-Lin")


def test_two_seats_the_stronger_agent_is_rated_above(weng_lin: Path, tmp_path: Path) -> None:
    data = standings(two_seat_folder(tmp_path / "t"))
    ratings = check_intervals(data, {"strong", "mid", "weak"})
    assert ratings["strong"]["rating"] > ratings["mid"]["rating"] > ratings["weak"]["rating"]
    assert ratings["strong"]["low"] > ratings["weak"]["high"]  # 8 wins out of 8 against it
    # The same order as arena's own fit.
    assert [row["id"] for row in data["standings"]] == ["strong", "mid", "weak"]


def test_three_seats_with_ties_rate_every_agent(weng_lin: Path, tmp_path: Path) -> None:
    data = standings(three_seat_folder(tmp_path / "t"))
    ratings = check_intervals(data, {"ace", "bo", "cy", "di"})
    assert max(ratings, key=lambda a: ratings[a]["rating"]) == "ace"
    assert ratings["ace"]["low"] > max(ratings[a]["high"] for a in ("bo", "cy", "di"))  # first in all 18 of its games
    result = CliRunner().invoke(standings_command, [str(tmp_path / "t"), "--bootstrap", "0", "--rating", "weng-lin"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "weng-lin" in result.stdout and f"{ratings['ace']['rating']:.1f}" in result.stdout


def test_the_method_itself_ties_order_and_agents_without_games(weng_lin: Path) -> None:
    method = RATING_SEAM.load("weng-lin")
    games = [RankedResult(index=1, seats=("a", "b", "c"), ranks=(1, 1, 3)),
             RankedResult(index=0, seats=("c", "a"), ranks=(2, 1)),
             RankedResult(index=2, seats=("solo",), ranks=(1,))]
    rated = method.rate(games, ["a", "b", "c", "idle", "solo"])
    # Game-index order: the same games in another order are the same ratings.
    assert rated == method.rate(sorted(games, key=lambda g: g.index), ["a", "b", "c", "idle", "solo"])
    assert rated["a"].rating > rated["b"].rating > 0 > rated["c"].rating
    for agent in ("idle", "solo"):  # no game, or a game of one seat: the prior
        assert rated[agent].rating == 0
        assert rated[agent].high == pytest.approx(PRIOR_HALF_WIDTH) and rated[agent].low == pytest.approx(-PRIOR_HALF_WIDTH)
    # Two seats tied from equal ratings stay equal.
    tied = method.rate([RankedResult(index=0, seats=("x", "y", "z"), ranks=(2, 1, 2))], ["x", "y", "z"])
    assert tied["x"] == tied["z"] and tied["y"].rating > tied["x"].rating


def test_the_docs_commands_run_as_written(weng_lin: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    block = re.search(r"```sh\n(pip install examples/arena-openskill\n.*?)```",
                      (REPO / "docs" / "extending.md").read_text(), re.DOTALL).group(1)  # type: ignore[union-attr]
    install, command = block.splitlines()
    assert install == "pip install examples/arena-openskill"  # what the fixture did
    # The commands run in a fresh process: the installed plugin is on its path as on this one's.
    monkeypatch.setenv("PYTHONPATH", str(weng_lin))
    ran, out = run_example(Example(command, None), tmp_path)
    assert out.returncode == 0, f"{ran}: exit {out.returncode}: {out.stderr[-500:]}"
    assert "weng-lin: Elo-like" in " ".join(out.stdout.split())
    data = standings(tmp_path / "logs" / "goofspiel4")
    ratings = check_intervals(data, {"heuristic", "random1", "random2", "random3", "random4"})
    assert data["standings"][0]["id"] == max(ratings, key=lambda a: ratings[a]["rating"]) == "heuristic"
