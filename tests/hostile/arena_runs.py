"""Running arena as a user would, for the red-team scenarios (red_team.py) and the benches: an
``arena match`` or ``arena run`` command (``sys.executable -m arena``) started, bounded by a
timeout, watched while it runs, and what it left read back (exit code, stderr, records, the bots'
stderr logs with their ``REPORT`` lines); and the readers of those records the scenarios share
(which hostile bot played which side, who lost how, charged time against a bot's own measure,
CPU time per side).
"""

from __future__ import annotations

import contextlib
import json
import shlex
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hostile_support import BOT_FILE, BoundCgroup, reap_adopted_zombies, reports

ROOT = Path(__file__).resolve().parents[2]
ARENA = (sys.executable, "-m", "arena")
GAME = "checkers"


@dataclass
class ArenaRun:
    """One arena command: its exit code (None: it outlived its timeout and was killed), stderr, the
    records it wrote, the folder of its bots' stderr logs, its pid."""

    returncode: int | None
    stderr: str
    records: list[dict[str, Any]]
    logs: Path
    pid: int

    def reports(self, name: str | None = None) -> list[tuple[str, str, str]]:
        return reports(self.logs, name)


Watch = Callable[[subprocess.Popen[bytes], Path], None]


def run_arena(argv: Sequence[str], *, logs: Path, load: Callable[[], list[dict[str, Any]]], timeout: float,
         cgroup: BoundCgroup | None = None, env: Mapping[str, str] | None = None, watch: Watch | None = None,
         cwd: Path = ROOT) -> ArenaRun:
    full = cgroup.wrap(argv) if cgroup is not None else list(argv)
    proc = subprocess.Popen(full, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            cwd=cwd, env=dict(env) if env is not None else None)
    # stderr is read by a thread so that a chatty arena never blocks on a full pipe.
    chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: chunks.append(proc.stderr.read() if proc.stderr else b""), daemon=True)
    reader.start()
    deadline = time.monotonic() + timeout
    returncode: int | None = None
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            if watch is not None:
                watch(proc, logs)
            time.sleep(0.01)
        returncode = proc.poll()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        reader.join(10)
        reap_adopted_zombies()
    try:
        records = load()
    except (OSError, ValueError):
        records = []
    return ArenaRun(returncode, b"".join(chunks).decode(errors="replace"), records, logs, proc.pid)


def play_match(black: str, white: str, folder: Path, *, flags: Sequence[str] = (), games: int = 2,
               max_moves: int = 10, time_limit: int = 30000, extra: Sequence[str] = (), timeout: float = 120,
               cgroup: BoundCgroup | None = None, env: Mapping[str, str] | None = None,
               watch: Watch | None = None) -> ArenaRun:
    """``arena match black white`` (colours alternate: ``black`` is BLACK in even games), records in
    ``folder/records.json``, stderr logs in ``folder/stderr``."""
    folder.mkdir(parents=True, exist_ok=True)
    out, logs = folder / "records.json", folder / "stderr"

    def load() -> list[dict[str, Any]]:
        data = json.loads(out.read_bytes())
        return [data] if isinstance(data, dict) else list(data)

    argv = [*ARENA, "match", black, white, "--game", GAME, "--games", str(games), "--max-moves", str(max_moves),
            "--time-limit", str(time_limit), "--quiet", "--out", str(out), "--stderr-dir", str(logs), *flags, *extra]
    return run_arena(argv, logs=logs, load=load, timeout=timeout, cgroup=cgroup, env=env, watch=watch)


def play_tournament(marker: str, agents: Mapping[str, str], folder: Path, *, flags: Sequence[str] = (),
                    config: Mapping[str, Any] | None = None, logs_root: Path | None = None, timeout: float = 180,
                    cgroup: BoundCgroup | None = None, env: Mapping[str, str] | None = None,
                    watch: Watch | None = None) -> ArenaRun:
    """``arena run`` of a round robin of ``agents`` (id -> command); the config file is named after
    ``marker`` (so arena's argv carries it); records from ``<logs>/redteam/games/``."""
    folder.mkdir(parents=True, exist_ok=True)
    logs_root = logs_root or folder / "logs"
    settings = {"id": "redteam", "game": GAME, "gamesPerPair": 2, "maxMoves": 10, "timeLimit": 30000,
                "concurrency": 1, **(config or {}),
                "agents": [{"id": aid, "path": command} for aid, command in agents.items()]}
    path = folder / f"{marker}.json"
    path.write_text(json.dumps(settings))
    games_dir = logs_root / "redteam" / "games"

    def load() -> list[dict[str, Any]]:
        return [json.loads(p.read_bytes()) for p in sorted(games_dir.glob("*.json"))]

    argv = [*ARENA, "run", str(path), "--logs", str(logs_root), *flags]
    return run_arena(argv, logs=logs_root / "redteam" / "stderr", load=load, timeout=timeout, cgroup=cgroup, env=env,
                watch=watch, cwd=folder)


# -- reading records -------------------------------------------------------------------------------


def mode_of(player: Mapping[str, Any]) -> str | None:
    """The hostile bot's mode in a record's player entry (None for another program)."""
    words = shlex.split(str(player.get("command") or ""))
    for index, word in enumerate(words):
        if word.endswith(BOT_FILE.name) and len(words) > index + 3:
            return words[index + 3]
    return None


def options_of(player: Mapping[str, Any]) -> dict[str, Any]:
    """The hostile bot's options in a record's player entry (empty for none or another program)."""
    words = shlex.split(str(player.get("command") or ""))
    for index, word in enumerate(words):
        if word.endswith(BOT_FILE.name) and len(words) > index + 5:
            with contextlib.suppress(ValueError):
                return dict(json.loads(bytes.fromhex(words[index + 5])))
    return {}


def loser(record: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The losing player's entry (None for a draw)."""
    if record.get("winner") not in ("BLACK", "WHITE"):
        return None
    return next(p for p in record["players"] if p["colour"] != record["winner"])


def lost_by(record: Mapping[str, Any], mode: str, terminations: Sequence[str]) -> bool:
    """Whether the bot of ``mode`` lost ``record`` by one of ``terminations``."""
    beaten = loser(record)
    return beaten is not None and mode_of(beaten) == mode and record["termination"] in terminations


def count_losses(records: Sequence[Mapping[str, Any]], mode: str, terminations: Sequence[str]) -> int:
    return sum(lost_by(r, mode, terminations) for r in records)


def own_and_charged(run: ArenaRun, skip_first: bool = True) -> tuple[list[float], list[float]]:
    """Per move of each bot that reports ``think`` (its own measure, from its first byte of input to
    its reply), its first move left out with ``skip_first`` (charged after the start-up allowance):
    (its own measures, arena's charged times), in ms, in the same order."""
    thinks: dict[str, list[float]] = {}
    for name, _, text in run.reports("think"):
        thinks.setdefault(name.split("-", 2)[0] + "-" + name.split("-", 2)[1], []).append(float(text))
    own: list[float] = []
    charged: list[float] = []
    for record in run.records:
        index = record.get("game_index") or 0
        for player in record["players"]:
            colour = player["colour"]
            mine_own = thinks.get(f"{index:05d}-{colour.lower()}", [])
            if not mine_own:
                continue
            parity = 0 if colour == "BLACK" else 1
            mine = [t["charged_ms"] for i, t in enumerate(record["turns"]) if i % 2 == parity and not t["opening"]]
            pairs = list(zip(mine_own, mine, strict=False))[1 if skip_first else 0:]
            own += [a for a, _ in pairs]
            charged += [b for _, b in pairs]
    return own, charged


def cpu_ms_of(record: Mapping[str, Any], colour: str) -> float | None:
    """A side's CPU time in a record: ``cpuMs`` in its player entry, or a ``cpuMs``/``cpu_ms`` map by
    colour (None when the record has neither)."""
    for player in record.get("players", []):
        if player.get("colour") == colour and "cpuMs" in player:
            return float(player["cpuMs"])
    for key in ("cpuMs", "cpu_ms"):
        by_colour = record.get(key)
        if isinstance(by_colour, dict) and colour in by_colour:
            return float(by_colour[colour])
    return None
