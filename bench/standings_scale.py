"""Ratings at scale (issue 24): ``arena standings`` of big synthetic logs, and a resume's time to
its first new game, for one or more arena source trees measured side by side in one run.

Logs (made once in ``--work``, default ``/tmp/arena-standings-scale``, then reused):

- ``rr100k``: 100,000 two-player games of a 50-agent round robin, rows as the runner writes them;
- ``rr1m``: 1,000,000 such games (``--big`` only: its log is 230 MB and the old code needs minutes);
- ``rr500``: a 500-agent round robin, one colour-swapped pair per couple (249,500 games);
- ``seat4``: 100,000 4-player games of 200 agents (seat-rotation groups of 4 games);
- ``resume``: a Shobu round robin of 50 agents with 100,000 games done (rows, record files and
  config.json as a run leaves them); the bots write the time they started to a file. Before each
  timed run the tree resumes it once untimed and stops that run as Ctrl-C does, so the folder
  holds what that tree's runs leave behind (``games.checked.json``, the checked prefix of
  ``games.jsonl``, where the tree writes one);
- ``resume-cold``: the same with ``games.checked.json`` removed before each run (a folder left by
  ``kill -9`` before any had been written, or by an arena that wrote none): every row is checked.

Each measurement is a fresh child process: ``python -m arena standings LOG --json`` with
``PYTHONPATH`` at a tree, timed end to end (the interpreter's start included), peak memory its
``ru_maxrss``; the resume is ``python -m arena run CONFIG --logs ROOT`` until a bot of the first
new game starts (then the run is ended). Trees alternate per repeat (``--repeat``, default 1), so
load hits both alike; the median is printed. ``--compare`` prints, per log, how far the standings
of each tree are from the first tree's (Elo to the printed 0.1, interval ends in Elo, and the largest
move of an interval end as a share of that interval's width).

    .venv/bin/python bench/standings_scale.py --tree /path/to/main --tree . [--big] [--repeat 3]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WINNERS = (("BLACK", "1-0"), ("WHITE", "0-1"), ("NONE", "1/2-1/2"))


def two_player_rows(agents: list[str], games_per_pair: int, limit: int, seed: int = 1) -> Any:
    """Rows of a round robin as the runner writes them, results drawn from made-up strengths."""
    from arena.tournament.schedule import build_schedule

    rng = random.Random(seed)
    strength = {a: rng.gauss(0.0, 200.0) for a in agents}
    for game in build_schedule("roundRobin", agents, games_per_pair=games_per_pair, seed=seed):
        if game.index >= limit:
            return
        p = 1.0 / (1.0 + 10.0 ** ((strength[game.white] - strength[game.black] - 30.0) / 400.0))
        x = rng.random()
        winner, result = WINNERS[0 if x < 0.9 * p else 2 if x < 0.9 * p + 0.1 else 1]
        yield {"index": game.index, "pair": game.pair, "black": game.black, "white": game.white,
               "players": [{"id": game.black, "colour": "BLACK"}, {"id": game.white, "colour": "WHITE"}],
               "winner": winner, "result": result, "termination": "draw" if winner == "NONE" else "win",
               "reason": "", "plies": 60, "duration_s": 0.5, "started_at": "2026-01-01T00:00:00Z",
               "record": f"games/{game.index:05d}.json", "seed": game.opening_seed}


def seat_rows(agents: list[str], games: int, players: int = 4, seed: int = 2) -> Any:
    """N-seat rows: groups of ``players`` games rotating the seats of one draw of agents."""
    rng = random.Random(seed)
    strength = {a: rng.gauss(0.0, 1.0) for a in agents}
    for group in range(games // players):
        table = rng.sample(agents, players)
        for turn in range(players):
            seats = table[turn:] + table[:turn]
            # Gumbel noise on the strengths: the finishing order is a Plackett-Luce draw.
            noisy = sorted(range(players), key=lambda s: -(strength[seats[s]] - math.log(-math.log(rng.random()))))
            ranks = [0] * players
            for place, s in enumerate(noisy, 1):
                ranks[s] = place
            if rng.random() < 0.05:  # two seats tied
                a, b = noisy[-2], noisy[-1]
                ranks[b] = ranks[a]
            index = group * players + turn
            yield {"index": index, "group": group, "seats": seats,
                   "players": [{"id": a, "seat": s} for s, a in enumerate(seats)], "ranks": ranks,
                   "returns": [float(players - r) for r in ranks], "termination": "win", "reason": "",
                   "eliminations": [], "plies": 40, "duration_s": 0.4, "started_at": "2026-01-01T00:00:00Z",
                   "record": f"games/{index:05d}.json", "seed": group}


def write_log(folder: Path, config: dict[str, Any], rows: Any) -> None:
    import orjson

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_bytes(orjson.dumps(config))
    with open(folder / "games.jsonl", "wb") as out:
        batch = []
        for row in rows:
            batch.append(orjson.dumps(row))
            if len(batch) >= 10000:
                out.write(b"\n".join(batch) + b"\n")
                batch = []
        if batch:
            out.write(b"\n".join(batch) + b"\n")


# The time it started on its stderr, which arena keeps in the log folder (a sandboxed bot may
# write nowhere else).
BOT = """#!/bin/sh
date +%s.%N >&2
exec cat > /dev/null
"""


def make_logs(work: Path, big: bool) -> dict[str, Path]:
    logs = {}
    names50 = [f"a{i:02d}" for i in range(50)]
    n500 = [f"b{i:03d}" for i in range(500)]
    n200 = [f"c{i:03d}" for i in range(200)]
    specs: list[tuple[str, Any]] = [
        ("rr100k", lambda: (names50, two_player_rows(names50, 82, 100_000))),
        ("rr500", lambda: (n500, two_player_rows(n500, 2, 10**9))),
        ("seat4", lambda: (n200, seat_rows(n200, 100_000))),
    ]
    if big:
        specs.append(("rr1m", lambda: (names50, two_player_rows(names50, 818, 1_000_000))))
    for name, make in specs:
        folder = work / name
        logs[name] = folder
        if (folder / "done").exists():
            continue
        print(f"writing {folder} ...", flush=True)
        agents, rows = make()
        config: dict[str, Any] = {"id": name, "game": "shobu", "seed": 7, "tournamentType": "roundRobin",
                                  "agents": [{"id": a, "type": "executable", "path": "x"} for a in agents]}
        if name == "seat4":
            config["players"] = 4
        write_log(folder, config, rows)
        (folder / "done").touch()
    return logs


def logs_root_of(base: Path) -> Path:
    return base / "logs"


#: What the resume folder's ``done`` file says: rows as today's runner writes them (kept by pairing).
RESUME_LAYOUT = "pairing\n"


def make_resume(work: Path) -> tuple[Path, Path, Path]:
    """A Shobu round robin config of 50 agents and its log folder with 100,000 games done."""
    import orjson

    base = work / "resume"
    marker = logs_root_of(base) / "t" / "stderr"  # the first new game's bots' stderr files
    config_path = base / "t.json"
    logs_root = logs_root_of(base)
    if (base / "done").exists() and (base / "done").read_text() == RESUME_LAYOUT:
        return config_path, logs_root, marker
    print(f"writing {base} ...", flush=True)
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    bot = base / "bot.sh"
    bot.write_text(BOT)
    bot.chmod(0o755)
    agents = [f"a{i:02d}" for i in range(50)]
    config = {"id": "t", "game": "shobu", "agents": [{"type": "executable", "id": a, "path": str(bot)} for a in agents],
              "tournamentType": "roundRobin", "gamesPerPair": 100, "timeLimit": 20000, "maxMoves": 8, "seed": 7}
    config_path.write_text(json.dumps(config))
    # The folder as a run leaves it: let arena itself write config.json (layout keys included).
    from arena.tournament.config import load_config
    from arena.tournament.runner import RunOptions, Tournament

    tournament = Tournament(load_config(config_path), RunOptions(logs_root=logs_root))
    tournament.prepare()
    # The games a fresh run plays first, as it numbers them (a folder kept by pairing).
    schedule = [tournament._take() for _ in range(100_000)]
    versions = dict(tournament.config.versions)
    tournament._close_backend()
    tournament._log.close()
    tournament._lock.release()
    folder = logs_root / "t"
    rng = random.Random(3)
    with open(folder / "games.jsonl", "wb") as out:
        for game in schedule:
            winner, result = WINNERS[rng.randrange(3)]
            row = {"index": game.index, "pair": game.pair, "black": game.black, "white": game.white,
                   "players": [{"id": game.black, "colour": "BLACK"}, {"id": game.white, "colour": "WHITE"}],
                   "winner": winner, "result": result, "termination": "draw" if winner == "NONE" else "win",
                   "reason": "", "plies": 8, "duration_s": 0.1, "started_at": "2026-01-01T00:00:00Z",
                   "record": f"games/{game.index:05d}.json", "seed": game.opening_seed,
                   **({"round": game.round} if game.round is not None else {}),
                   "versions": {game.black: versions[game.black], game.white: versions[game.white]}}
            out.write(orjson.dumps(row) + b"\n")
            (folder / f"games/{game.index:05d}.json").write_bytes(b"{}\n")
    (base / "done").write_text(RESUME_LAYOUT)
    return config_path, logs_root, marker


TIMEOUT = 600.0


def run_child(tree: Path, argv: list[str], stdout: Any = subprocess.DEVNULL) -> tuple[float, float, int]:
    """(seconds, peak MB, exit status) of ``python argv`` with PYTHONPATH at ``tree``; after
    :data:`TIMEOUT` seconds the child is ended and the time is reported as infinite."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, *argv], env=env, stdout=stdout, stderr=subprocess.PIPE, cwd=tree)
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - start > TIMEOUT:
            proc.kill()
            _, status, usage = os.wait4(proc.pid, 0)
            print(f"  {tree}: ended after {TIMEOUT:.0f} s")
            return math.inf, usage.ru_maxrss / 1024.0, -9
        time.sleep(0.01)
    took = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        print(f"  {tree}: exit {proc.returncode}: {proc.stderr.read().decode()[-400:] if proc.stderr else ''}")
    return took, usage.ru_maxrss / 1024.0, proc.returncode


def standings(tree: Path, log: Path, out: Path | None = None) -> tuple[float, float]:
    """(seconds, peak MB) of ``arena standings LOG --json``; NaN seconds when it failed."""
    with open(out if out is not None else os.devnull, "wb") as sink:
        took, mb, status = run_child(tree, ["-m", "arena", "standings", str(log), "--json"], stdout=sink)
    return (took if status in (0, -9) else math.nan), mb


def first_game(tree: Path, config: Path, logs_root: Path, marker: Path, timeout: float = 120.0,
               cold: bool = False, interrupt: bool = False) -> float:
    """Seconds from starting ``arena run`` on the resumed folder to the first bot's start; ``cold``:
    without the folder's ``games.checked.json``; ``interrupt``: the run is then stopped as Ctrl-C
    stops it (it writes what it writes at its end; no game has ended by then), else killed."""
    for stale in marker.glob("1[0-9][0-9][0-9][0-9][0-9]-*.log"):
        stale.unlink()
    if cold:
        (logs_root / "t" / "games.checked.json").unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.time()
    proc = subprocess.Popen([sys.executable, "-m", "arena", "run", str(config), "--logs", str(logs_root),
                             "--concurrency", "1"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=tree, start_new_session=True)
    try:
        while True:
            for log in marker.glob("100000-*.log"):
                text = log.read_text().split()
                if text:
                    if interrupt:
                        proc.send_signal(signal.SIGINT)
                        with contextlib.suppress(subprocess.TimeoutExpired):
                            proc.wait(TIMEOUT)
                    return float(text[0]) - start
            if proc.poll() is not None or time.time() - start > timeout:
                return math.nan
            time.sleep(0.005)
    finally:
        with contextlib.suppress(ProcessLookupError):  # the run we started, its bots and worker with it
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        folder = logs_root / "t"
        games = folder / "games.jsonl"
        data = games.read_bytes()
        if data.count(b"\n") > 100_000:  # the killed run may have finished games: keep the first 100,000
            games.write_bytes(b"\n".join(data.split(b"\n")[:100_000]) + b"\n")
        for extra in (folder / "games").glob("1[0-9][0-9][0-9][0-9][0-9].json"):
            extra.unlink()


def compare(first: Path, other: Path) -> dict[str, float]:
    a, b = json.loads(first.read_text()), json.loads(other.read_text())
    rows_a = {r["id"]: r for r in a["standings"]}
    rows_b = {r["id"]: r for r in b["standings"]}
    elo = max(abs(rows_a[k]["elo"] - rows_b[k]["elo"]) for k in rows_a)
    ends = [abs(rows_a[k][e] - rows_b[k][e]) for k in rows_a for e in ("elo_low", "elo_high")]
    width = statistics.median(rows_a[k]["elo_high"] - rows_a[k]["elo_low"] for k in rows_a)
    # The largest move of an interval end as a share of that agent's interval width (first tree's).
    relative = max(abs(rows_a[k][e] - rows_b[k][e]) / max(rows_a[k]["elo_high"] - rows_a[k]["elo_low"], 1e-9)
                   for k in rows_a for e in ("elo_low", "elo_high"))
    same = {key: a[key] == b[key] for key in ("crosstable", "pairwise", "terminations", "seats") if key in a}
    return {"elo_max_diff": elo, "interval_end_max_diff": max(ends), "interval_end_median_diff": statistics.median(ends),
            "median_interval_width": width, "interval_end_max_over_width": round(relative, 4), **{f"{k}_identical": v for k, v in same.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", action="append", type=Path, help="an arena source tree (repeatable)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/arena-standings-scale"))
    parser.add_argument("--big", action="store_true", help="also the 1,000,000-game log")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only", action="append",
                        help="only these logs (rr100k, rr500, seat4, rr1m, resume, resume-cold)")
    parser.add_argument("--compare", action="store_true", help="compare each tree's standings with the first's")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds before a child is ended (default 600)")
    args = parser.parse_args()
    globals()["TIMEOUT"] = args.timeout
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    logs = make_logs(args.work, args.big)
    resume = make_resume(args.work)
    wanted = args.only or [*logs, "resume", "resume-cold"]
    print(f"load before: {os.getloadavg()}")
    for name in wanted:
        times: dict[Path, list[tuple[float, float]]] = {t: [] for t in trees}
        resuming = name.startswith("resume")
        for _ in range(args.repeat):
            for number, tree in enumerate(trees):
                if name == "resume":
                    first_game(tree, *resume, interrupt=True)  # the folder as this tree's runs leave it
                if resuming:
                    times[tree].append((first_game(tree, *resume, cold=name == "resume-cold"), math.nan))
                else:
                    out = args.work / f"{name}.{number}.json" if args.compare else None
                    times[tree].append(standings(tree, logs[name], out))
        for tree in trees:
            seconds = statistics.median(t for t, _ in times[tree])
            mb = max(m for _, m in times[tree])
            what = "first new game after" if resuming else "standings"
            print(f"{name:7} {what} {seconds:7.2f} s  peak {mb:6.0f} MB  [{tree}]  "
                  f"runs: {', '.join(f'{t:.2f}' for t, _ in times[tree])}", flush=True)
        if len(trees) > 1:
            base = statistics.median(t for t, _ in times[trees[0]])
            for tree in trees[1:]:
                print(f"{name:7} ratio {statistics.median(t for t, _ in times[tree]) / base:.3f} of the first tree")
        if args.compare and not resuming:
            for number in range(1, len(trees)):
                if not all(math.isfinite(t) for tree in (trees[0], trees[number]) for t, _ in times[tree]):
                    print(f"{name:7} not compared: a run failed or was ended")
                    continue
                diff = compare(args.work / f"{name}.0.json", args.work / f"{name}.{number}.json")
                print(f"{name:7} vs first tree: {json.dumps(diff)}")
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
