"""The backend seam and the Ray backend's parts that need no cluster (issue 12): lazy import of Ray,
the files shipped to workers and how paths are found there, the config keys, a driver with an
injected backend (rows and standings name the node), and one-line errors of ``--backend ray``."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.backends import BackendOptions, GameJob
from arena.backends.local import LocalBackend
from arena.backends.ray_files import (
    DEFAULT_EXCLUDES,
    default_working_dir,
    missing_on_this_node,
    ray_excludes,
    remap_spec,
    ship_size,
)
from arena.cli import cli
from arena.errors import ConfigError
from arena.players.spec import AgentSpec
from arena.tournament.config import comparable, load_config
from arena.tournament.runner import RunOptions, Tournament, backend_options, run_tournament

REPO = Path(__file__).resolve().parents[2]
RANDOM_BOT = REPO / "bots" / "connect4_random.py"


def write_config(folder: Path, **extra: Any) -> Path:
    path = folder / "c.json"
    path.write_text(json.dumps({
        "id": "u", "game": "connect4", "gamesPerPair": 2, "timeLimit": 20000,
        "agents": [{"id": "a", "path": f"python3 {RANDOM_BOT} --seed 1"},
                   {"id": "b", "path": f"python3 {RANDOM_BOT} --seed 2"}], **extra}))
    return path


# -- Ray is imported only when the ray backend is opened ------------------------------------------------


@pytest.mark.parametrize("code", [
    "import arena, arena.tournament.runner, arena.cli.run_cmd, arena.backends, arena.backends.local",
    "from click.testing import CliRunner; from arena.cli import cli; CliRunner().invoke(cli, ['run', '--help'])",
])
def test_ray_is_not_imported_unless_the_ray_backend_runs(code: str) -> None:
    probe = f"import sys; {code}; print('ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "False"


# -- files for the workers -------------------------------------------------------------------------------


def spec(command: str | None = None, path: str | None = None, kind: str = "executable") -> AgentSpec:
    return AgentSpec("x", kind, command=command, path=path)


def test_the_default_working_dir_holds_the_config_and_the_bots_it_names(tmp_path: Path) -> None:
    (tmp_path / "configs").mkdir()
    (tmp_path / "bots").mkdir()
    bot = tmp_path / "bots" / "b.py"
    bot.write_text("")
    agents = [spec(f"python3 {bot} --depth 3")]
    assert default_working_dir(tmp_path / "configs", agents) == tmp_path
    # A program named by a system path is expected on the workers: only the config's folder is shipped.
    assert default_working_dir(tmp_path / "configs", [spec("/usr/bin/python3 -V")]) == tmp_path / "configs"


def test_paths_in_the_shipped_folder_are_found_under_the_workers_copy() -> None:
    moved = remap_spec(spec("python3 /p/bots/b.py --book /p/data/book.json /q/other.py"), "/p", "/w/pkg")
    assert moved.command == "python3 /w/pkg/bots/b.py --book /w/pkg/data/book.json /q/other.py"
    assert remap_spec(spec(path="/p/h.json", kind="hyperparameters"), "/p", "/w").path == "/w/h.json"
    assert remap_spec(spec("python3 /pp/b.py"), "/p", "/w").command == "python3 /pp/b.py"  # not a prefix match
    same = spec("python3 /p/b.py")
    assert remap_spec(same, None, "/w") is same  # shared files: as they are


def test_a_missing_program_or_file_is_named(tmp_path: Path) -> None:
    script = tmp_path / "b.py"
    script.write_text("")
    assert missing_on_this_node(spec(f"python3 {script}")) is None
    assert missing_on_this_node(spec(f"python3 {tmp_path / 'gone.py'}")) == f"file {tmp_path / 'gone.py'} is missing"
    assert missing_on_this_node(spec("no-such-program-here --x")) == "program 'no-such-program-here' is not on PATH"
    assert missing_on_this_node(spec(str(script))) == f"program {script} is not executable"
    assert missing_on_this_node(spec(path=str(tmp_path / "h.json"), kind="hyperparameters")) == \
        f"hyperparameters file {tmp_path / 'h.json'} is missing"


def test_the_shipped_size_leaves_out_the_excludes_and_the_logs(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_bytes(b"x" * 100)
    for folder in (".git", ".venv", "__pycache__", "logs"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "big").write_bytes(b"x" * 10_000)
    assert ship_size(tmp_path, DEFAULT_EXCLUDES, [tmp_path / "logs"]) == 100
    assert ship_size(tmp_path, (), [], limit=5_000) > 5_000  # stops counting past the limit
    assert ray_excludes(tmp_path, ("*.pyc",), [tmp_path / "logs", Path("/elsewhere")]) == ["*.pyc", "/logs"]


# -- config keys -----------------------------------------------------------------------------------------


def test_backend_keys_are_read_and_are_not_part_of_the_identity(tmp_path: Path) -> None:
    plain = load_config(write_config(tmp_path))
    (tmp_path / "ship").mkdir()
    ray = load_config(write_config(tmp_path, backend="ray", rayAddress="auto", rayCpusPerGame=1.5,
                                   rayWorkingDir="ship"))
    assert (ray.backend, ray.ray_address, ray.ray_cpus_per_game, ray.ray_working_dir) == \
        ("ray", "auto", 1.5, str(tmp_path / "ship"))
    assert comparable(ray.to_json()) == comparable(plain.to_json())
    assert "backend" not in ray.to_json()
    options = backend_options(ray)
    assert (options.kind, options.address, options.cpus_per_game, options.working_dir) == \
        ("ray", "auto", 1.5, tmp_path / "ship")
    assert backend_options(ray, "local", "127.0.0.1:1", 4).kind == "local"
    assert backend_options(plain) == BackendOptions()


@pytest.mark.parametrize(("extra", "message"), [
    ({"backend": "spark"}, "backend: 'spark' is not one of local, ray"),
    ({"rayCpusPerGame": 0}, "rayCpusPerGame: must be a positive number of at most 1024, got 0"),
    ({"rayCpusPerGame": True}, "rayCpusPerGame: must be a positive number of at most 1024, got true"),
    ({"rayAddress": " "}, 'rayAddress: empty; give "local", "auto" or HOST:PORT'),
    ({"rayWorkingDir": "nope"}, "rayWorkingDir: "),
    ({"raySharedFiles": True, "rayWorkingDir": "."}, "raySharedFiles: nothing is shipped with shared files"),
])
def test_bad_backend_keys_are_one_line_naming_the_key(tmp_path: Path, extra: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write_config(tmp_path, **extra))
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


# -- the driver with an injected backend -------------------------------------------------------------------


class NodeBackend(LocalBackend):
    """Local games that say they ran on one of two nodes (as the Ray backend's records do)."""

    name = "fake-cluster"

    def __init__(self) -> None:
        self.opened: dict[str, Any] = {}
        self.jobs: list[GameJob] = []
        self.closed = 0

    def open(self, agents: list[AgentSpec], *, base_dir: Path | None, logs_dir: Path | None,
             sandbox: bool = False) -> None:
        self.opened = {"agents": [a.id for a in agents], "base_dir": base_dir, "logs_dir": logs_dir}

    def capacity(self) -> int | None:
        return 3

    async def play(self, job: GameJob, *, stderr_dir: Path | None = None, observer: Any = None) -> dict[str, Any]:
        self.jobs.append(job)
        record = await super().play(job, stderr_dir=stderr_dir, observer=observer)
        node = f"n{(job.game_index or 0) % 2}"
        record["node"] = {"id": node, "ip": "127.0.0.1", "hostname": node, "pid": 1}
        if job.game_index == 1:
            record["ray_retries"] = ["attempt 1 discarded (its partial play was lost with it): test"]
        return record

    def close(self) -> None:
        self.closed += 1


async def test_the_driver_persists_what_the_backend_returns_and_counts_nodes(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path, gamesPerPair=4))
    backend = NodeBackend()
    tournament = Tournament(config, RunOptions(logs_root=tmp_path / "logs", backend=backend, stats_worker=False))
    tournament.prepare()
    assert tournament.concurrency == 3  # the backend's room, as no concurrency was asked for
    assert backend.opened == {"agents": ["a", "b"], "base_dir": tmp_path, "logs_dir": tmp_path / "logs" / "u"}
    await tournament.play()
    summary = await tournament.finish()
    assert backend.closed >= 1 and sorted(j.game_index for j in backend.jobs) == [0, 1, 2, 3]
    rows = [json.loads(line) for line in (tmp_path / "logs" / "u" / "games.jsonl").read_text().splitlines()]
    assert {r["index"]: r["node"]["id"] for r in rows} == {0: "n0", 1: "n1", 2: "n0", 3: "n1"}
    assert [r.get("retried") for r in sorted(rows, key=lambda r: r["index"])] == [None, 1, None, None]
    standings = json.loads((tmp_path / "logs" / "u" / "standings.json").read_text())
    assert standings["nodes"] == [{"node": "n0", "ip": "127.0.0.1", "hostname": "n0", "games": 2},
                                  {"node": "n1", "ip": "127.0.0.1", "hostname": "n1", "games": 2}]
    assert summary.standings["nodes"] == standings["nodes"]


async def test_a_run_with_nothing_left_to_play_does_not_open_the_backend(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path))
    await run_tournament(config, RunOptions(logs_root=tmp_path / "logs", stats_worker=False))
    backend = NodeBackend()
    summary = await run_tournament(config, RunOptions(logs_root=tmp_path / "logs", backend=backend,
                                                      stats_worker=False))
    assert summary.complete and backend.opened == {} and backend.jobs == []


# -- one-line errors of --backend ray -------------------------------------------------------------------


def invoke(args: list[str]) -> Any:
    return CliRunner().invoke(cli, args, catch_exceptions=False)


def test_backend_ray_without_ray_installed_is_one_line_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    result = invoke(["run", str(write_config(tmp_path)), "--backend", "ray", "--logs", str(tmp_path / "logs")])
    assert result.exit_code == 1
    assert result.stderr == "arena: error: the ray backend needs Ray: pip install 'arena-bots[ray]' (on the driver " \
                            "and every worker)\n"
    assert not (tmp_path / "logs" / "u" / "games.jsonl").read_text()  # logs intact, nothing played


def test_a_human_player_is_refused_by_the_ray_backend(tmp_path: Path) -> None:
    config = tmp_path / "h.json"
    config.write_text(json.dumps({"id": "h", "game": "connect4", "agents": [
        {"id": "me", "type": "player"}, {"id": "b", "path": f"python3 {RANDOM_BOT}"}]}))
    result = invoke(["run", str(config), "--backend", "ray", "--logs", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == "arena: error: backend: 'me' is a human player, who plays at this terminal, not on a " \
                            "Ray worker; use the local backend\n"


def test_a_ray_address_that_is_not_host_port_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    result = invoke(["run", str(write_config(tmp_path)), "--ray-address", "headnode", "--logs", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr == "arena: error: --ray-address: 'headnode' is not HOST:PORT, 'auto' or 'local'\n"


# -- arena's own package on a worker (arena.backends.ray_entry) --------------------------------------------

ENTRY = REPO / "arena" / "backends" / "ray_entry.py"
# As on a Ray worker: the current folder (the shipped one) first on sys.path; ray_entry loaded from its
# file (Ray ships it by value); then what `import arena` gives.
ON_A_WORKER = f"""
import importlib.util, os, sys
sys.path.insert(0, os.getcwd())
spec = importlib.util.spec_from_file_location("ray_entry", {str(ENTRY)!r})
entry = importlib.util.module_from_spec(spec)
spec.loader.exec_module(entry)
try:
    entry.use_arenas_package()
except ImportError as exc:
    print("ImportError:", exc)
else:
    import arena
    print(arena.__file__)
"""


def on_a_worker(shipped: Path, *python_flags: str) -> str:
    done = subprocess.run([sys.executable, *python_flags, "-c", ON_A_WORKER], cwd=shipped, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("stray", ["clone", "junk"])
def test_arenas_package_wins_over_a_folder_named_arena_in_the_shipped_folder(tmp_path: Path, stray: str) -> None:
    (tmp_path / "arena").mkdir()
    if stray == "junk":
        (tmp_path / "arena" / "__init__.py").write_text("__version__ = 'junk'\n")
    else:
        (tmp_path / "arena" / "README.md").write_text("a clone's root: no __init__.py\n")
    assert on_a_worker(tmp_path) == str(REPO / "arena" / "__init__.py")


def test_a_worker_python_without_arena_says_what_to_install_where(tmp_path: Path) -> None:
    (tmp_path / "arena").mkdir()
    (tmp_path / "arena" / "__init__.py").write_text("__version__ = 'junk'\n")
    # -S: no site-packages, so this Python has no arena (nor trio...): as a worker where it is not installed.
    said = on_a_worker(tmp_path, "-S")
    assert said == (f"ImportError: arena is not installed in the Python that runs Ray's workers ({sys.executable} "
                    f"on {socket.gethostname()}); the folder {tmp_path / 'arena'} in the shipped folder is not "
                    "arena's package: install arena there (pip install 'arena-bots[ray]'), in the Python the Ray node "
                    "was started with")


def test_a_worker_python_without_arena_uses_a_copy_of_arena_in_the_shipped_folder(tmp_path: Path) -> None:
    (tmp_path / "arena").symlink_to(REPO / "arena")  # the clone itself was shipped
    assert on_a_worker(tmp_path, "-S") == str(tmp_path / "arena" / "__init__.py")
