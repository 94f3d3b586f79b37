"""A league on an embedded Ray instance whose roster changes mid-run (run by test_ray_league.py).

Usage: league_scenario.py WORKDIR. Inside the caller's network and PID namespaces: three copies of
the shipped connect4 random bot in WORKDIR/bots, a league of 10 games played one at a time on Ray
(1 CPU a game), a bot added after the 3rd game and alice's bot rewritten after the 6th by the
reporter hook of tests/tournament/test_league.py (its second version writes a line to stderr,
naming the folder it runs in). Prints one JSON object: the league's changes, per-agent counts and
the seconds each shipping of the changed folder took.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.backends import BackendOptions
from arena.tournament.league import League, LeagueSettings, load_league
from arena.tournament.runner import RunOptions
from tests.tournament.test_league import ChangeAfter, add_bot, play_through

#: What alice's second version writes to stderr when it starts (then the folder it runs in).
MARKER = "alice v2 runs in "


class Rewrite(ChangeAfter):
    """test_league's hook (a bot added after ``add`` games, alice's edited after ``edit``), alice's
    edit being a new behaviour: a line on stderr."""

    def game_finished(self, row: dict[str, Any], done: int, stats: dict[str, dict[str, Any]]) -> None:
        if self.done + 1 == self.edit:
            script = self.root / "bots" / "alice" / "connect4_random.py"
            head, _, tail = script.read_text().partition("from __future__ import annotations\n")
            script.write_text(f"{head}from __future__ import annotations\nimport os as _os, sys as _sys\n"
                              f"_sys.stderr.write({MARKER!r} + _os.getcwd() + '\\n'); _sys.stderr.flush()\n{tail}")
            self.edit = -1  # ChangeAfter's own edit (a comment) must not make a third version
        super().game_finished(row, done, stats)


def main(work: Path) -> None:
    for name in ("alice", "bob", "carol"):
        add_bot(work, name)
    config = work / "league.json"
    config.write_text(json.dumps({"id": "lg", "game": "connect4", "agents": {"from": "bots/*/"}, "timeLimit": 20000}))
    backend = BackendOptions(kind="ray", num_cpus=2, cpus_per_game=1)
    run = League(load_league(config), RunOptions(logs_root=work / "logs", concurrency=1, stats_worker=False,
                                                 backend=backend),
                 Rewrite(work, add=3, edit=6), LeagueSettings(games=10, rescan_s=0))
    run.prepare()
    assert run.backend is not None
    shipped, seconds = run.backend.update_agents, []

    def timed(agents: list[Any]) -> dict[str, str]:  # how long each shipping takes, for the report
        start = time.monotonic()
        try:
            return shipped(agents)
        finally:
            seconds.append(round(time.monotonic() - start, 2))

    run.backend.update_agents = timed  # type: ignore[method-assign]
    play_through(run)
    print(json.dumps({"changes": run.changes, "field": run.game_counts(), "describe": run.backend.describe(),
                      "update_s": seconds}))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
