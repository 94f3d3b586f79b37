"""Rating methods are the ``arena.ratings`` entry-point group: arena's own (plackett-luce, online-elo)
are registered by arena's pyproject.toml as a plugin's are and agree with the standings' own
figures; a plugin's method (one module, one entry point) is a column of ``arena standings
--rating``; what a method cannot rate, and a name that is no method, are one line each."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from standings_fixtures import synthetic_seat_rows

from arena.cli.standings_cmd import standings_command
from arena.errors import ConfigError
from arena.stats.methods import RATING_SEAM, rate_with, rating_names
from arena.stats.results import RankedResult
from tests.cli.test_standings_cmd import two_player_folder
from tests.helpers import installed_plugin, own_entry_points

REPO = Path(__file__).resolve().parents[2]

#: A third party's method: docs/extending.md's example, as written there.
PLUGIN = re.search(r"```python\n# arena_win_share.py\n(.*?)```", (REPO / "docs" / "extending.md").read_text(),
                   re.DOTALL).group(1)  # type: ignore[union-attr]


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with installed_plugin(monkeypatch, tmp_path / "site", RATING_SEAM, "arena-win-share",
                          "[arena.ratings]\nwin-share = arena_win_share:WinShare\n", {"arena_win_share.py": PLUGIN}) as site:
        yield site


def standings(folder: Path, *args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(standings_command, [str(folder), "--json", "--bootstrap", "0", *args],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_arena_own_methods_are_entry_points_of_its_distribution() -> None:
    assert set(own_entry_points("arena.ratings")) == {"plackett-luce", "online-elo"}
    assert rating_names()[:2] == ("online-elo", "plackett-luce")


def test_arena_own_methods_agree_with_the_standings(tmp_path: Path) -> None:
    data = standings(two_player_folder(tmp_path / "t"), "--rating", "online-elo", "--rating", "plackett-luce")
    assert list(data["ratings"]) == ["online-elo", "plackett-luce"]
    for row in data["standings"]:
        seed = data["ratings"]["online-elo"]["ratings"][row["id"]]
        assert round(seed["rating"]) == row["online_elo"] and seed["low"] is seed["high"] is None
        fit = data["ratings"]["plackett-luce"]["ratings"][row["id"]]
        assert fit["rating"] == pytest.approx(row["elo"], abs=0.11)
        assert fit["low"] < fit["rating"] < fit["high"]
    assert "ratings" not in standings(tmp_path / "t")  # asked for only


def test_a_plugins_method_is_a_column_of_arena_standings(plugin: Path, tmp_path: Path) -> None:
    assert rating_names() == ("online-elo", "plackett-luce", "win-share")
    folder = two_player_folder(tmp_path / "t")
    data = standings(folder, "--rating", "win-share")
    # Four games each: a beat b twice and c once (a draw with c); b beat c once, c beat b once.
    assert data["ratings"] == {"win-share": {"unit": "games won outright, in %", "ratings": {
        "a": {"rating": 75.0, "low": None, "high": None}, "b": {"rating": 25.0, "low": None, "high": None},
        "c": {"rating": 25.0, "low": None, "high": None}}}}
    result = CliRunner().invoke(standings_command, [str(folder), "--bootstrap", "0", "--rating", "win-share"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "win-share" in result.stdout and "75.0" in result.stdout and "games won outright, in %" in result.stdout


def test_what_a_method_cannot_rate_and_unknown_names_are_one_line(tmp_path: Path) -> None:
    agents = ["p0", "p1", "p2", "p3"]
    games = [RankedResult(index=r["index"], seats=tuple(r["seats"]), ranks=tuple(r["ranks"]))
             for r in synthetic_seat_rows(agents, 10, 3)]
    with pytest.raises(ConfigError, match=r"^rating 'online-elo': game 0 has 3 seats; online Elo rates two-player games$"):
        rate_with(["online-elo"], games, agents)
    assert set(rate_with(["plackett-luce"], games, agents)["plackett-luce"]["ratings"]) == set(agents)
    result = CliRunner().invoke(standings_command, [str(tmp_path), "--rating", "glicko"], catch_exceptions=False)
    assert result.exit_code == 2
    assert "Invalid value for '--rating': 'glicko' is not one of online-elo, plackett-luce" in result.output
