"""Where ``arena train evolve`` plays its tournaments (issue 13 item 3, the Ray backend when chosen):
every round and the final go through the backend it is given, the backend is not part of the run
(a run resumes on another one), Ray options ship the run's ``players/``, and a cluster that cannot
be used is one line before anything is written. No Ray cluster here: tests/ray runs a real one."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.backends import BackendOptions, GameJob
from arena.backends.local import LocalBackend
from arena.players.spec import AgentSpec
from arena.train.evolve import Evolution, EvolveSettings

TINY = EvolveSettings(game="connect4", population=3, keep=2, rounds=2, games_per_pair=1, depth=1, final_games=2,
                      seed=4)
# 3 couples in round 1, 4 children (2 x 2) so 6 couples in round 2, 2 ancestors x 2 games in the final.
GAMES = {"round-1": 3, "round-2": 6, "final": 4}


class FakeCluster(LocalBackend):
    """Local games whose records name a node, as the Ray backend's do; counts what it is asked."""

    name = "fake-cluster"

    def __init__(self) -> None:
        self.opened: list[dict[str, Any]] = []
        self.closed = 0
        self.played: list[GameJob] = []

    def open(self, agents: list[AgentSpec], *, base_dir: Path | None, logs_dir: Path | None,
             sandbox: bool = False) -> None:
        self.opened.append({"agents": [a.id for a in agents], "paths": [a.path for a in agents],
                            "logs": logs_dir.name if logs_dir else None})

    def describe(self) -> str | None:
        return "fake cluster: 1 node"

    async def play(self, job: GameJob, *, stderr_dir: Path | None = None, observer: Any = None) -> dict[str, Any]:
        self.played.append(job)
        record = await super().play(job, stderr_dir=stderr_dir, observer=observer)
        record["node"] = {"id": "feedc0de" * 7, "ip": "10.0.0.9", "hostname": "worker-9", "pid": 9}
        return record

    def close(self) -> None:
        self.closed += 1


def rows(folder: Path, name: str) -> list[dict[str, Any]]:
    text = (folder / "tournament_logs" / name / "games.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_every_tournament_goes_through_the_backend_and_the_run_resumes_on_another(tmp_path: Path) -> None:
    cluster = FakeCluster()
    lines: list[str] = []
    summary = Evolution(TINY, tmp_path, concurrency=2, say=lines.append, backend=cluster).run()
    # Each tournament opened the backend with its own players (files of the run folder) and closed it.
    assert [o["logs"] for o in cluster.opened] == ["round-1", "round-2", "final"]
    assert cluster.opened[0]["agents"] == ["r1-p01", "r1-p02", "r1-p03"]
    assert all(Path(p) == (tmp_path / "players" / f"{a}.json").resolve()
               for o in cluster.opened for a, p in zip(o["agents"], o["paths"], strict=True))
    assert cluster.closed >= 3 and len(cluster.played) == sum(GAMES.values())
    for name, count in GAMES.items():
        assert [r["node"]["hostname"] for r in rows(tmp_path, name)] == ["worker-9"] * count
        standings = json.loads((tmp_path / "tournament_logs" / name / "standings.json").read_text())
        assert standings["nodes"][0]["games"] == count
        record = json.loads((tmp_path / "tournament_logs" / name / "games" / "00000.json").read_text())
        assert record["node"]["ip"] == "10.0.0.9"
    assert "tournament round-1: fake cluster: 1 node" in lines
    assert "tournament final: games per node: 10.0.0.9 feedc0de (worker-9) 4" in lines
    settings = json.loads((tmp_path / "evolve.json").read_text())
    assert not any("backend" in key or "ray" in key for key in settings)  # not part of the run

    # Stopped during round 2 (its last two games never finished), the run resumes in this process:
    # the missing games are played locally (no node), the rest is kept as the cluster played it.
    log = tmp_path / "tournament_logs" / "round-2" / "games.jsonl"
    kept = log.read_text().splitlines()[:-2]
    log.write_text("".join(line + "\n" for line in kept))
    for name in ("round-2.result.json", "final.json", "winner.json"):
        (tmp_path / name).unlink()
    shutil.rmtree(tmp_path / "tournament_logs" / "final")
    again: list[str] = []
    resumed = Evolution(TINY, tmp_path, concurrency=2, say=again.append, backend=LocalBackend()).run()
    assert "round 1: already played" in again[0]
    round2 = rows(tmp_path, "round-2")
    assert len(round2) == 6 and sum("node" in r for r in round2) == 4
    assert all("node" not in r for r in rows(tmp_path, "final"))
    assert resumed.winner.startswith("r2-") and (tmp_path / "winner.json").exists()
    assert len(resumed.table) == len(summary.table) == 2


def test_ray_options_ship_the_players_folder_unless_told_otherwise(tmp_path: Path) -> None:
    def given(options: BackendOptions | None) -> Any:
        return Evolution(TINY, tmp_path / "run", backend=options).tournament_backend()

    shipped = given(BackendOptions(kind="ray", address="auto", cpus_per_game=1))
    assert shipped == BackendOptions(kind="ray", address="auto", cpus_per_game=1,
                                     working_dir=(tmp_path / "run" / "players").resolve())
    named = BackendOptions(kind="ray", working_dir=tmp_path)
    shared = BackendOptions(kind="ray", shared_files=True)
    local = BackendOptions(kind="local")
    assert given(named) == named and given(shared) == shared and given(local) == local and given(None) is None


def _refused_address() -> str:
    """A loopback port nothing listens on (just released by this process)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"127.0.0.1:{port}"


def evolve(tmp_path: Path, *extra: str) -> Any:
    from arena.cli.train_cmd import train_command

    return CliRunner().invoke(train_command, ["evolve", "--game", "connect4", "--out", str(tmp_path / "run"),
                                              *extra], catch_exceptions=False)


def test_an_unreachable_cluster_is_one_line_exit_1_before_anything_is_written(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    address = _refused_address()
    result = evolve(tmp_path, "--td-games", "50", "--ray-address", address)  # a Ray option alone means ray
    assert result.exit_code == 1
    assert result.output.startswith(f"arena train: error: cannot reach the Ray cluster at {address}: ")
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    assert not (tmp_path / "run").exists()  # nothing bred, nothing trained


@pytest.mark.parametrize(("extra", "message"), [
    (["--ray-address", "headnode"], "--ray-address: 'headnode' is not HOST:PORT, 'auto' or 'local'"),
    (["--backend", "ray"], "the ray backend needs Ray: pip install 'arena-bots[ray]' (on the driver and every worker)"),
])
def test_backend_mistakes_are_one_line_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: list[str],
                                              message: str) -> None:
    if "--backend" in extra:
        monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    else:
        pytest.importorskip("ray")
    result = evolve(tmp_path, *extra)
    assert (result.exit_code, result.output) == (1, f"arena train: error: {message}\n")


def test_the_help_names_the_backend_and_where_td_runs_without_importing_ray() -> None:
    probe = ("import sys; from click.testing import CliRunner; from arena.cli.train_cmd import train_command; "
             "out = CliRunner().invoke(train_command, ['evolve', '--help']).output; "
             "print('ray' in sys.modules); print(out)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    first, _, text = done.stdout.partition("\n")
    assert first == "False"
    flat = " ".join(text.split())
    assert "--backend [local|ray]" in flat and "--ray-address ADDR" in flat and "--ray-cpus-per-game" in flat
    assert "even with --backend ray" in flat and "--td-games training stays in this process" in flat
