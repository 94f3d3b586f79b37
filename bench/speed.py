"""Issue 24's table in one command: each of arena's speed figures beside its anchor, measured in one run.

    .venv/bin/python bench/speed.py [--before DIR] [--games 200] [--plies 20000] [--repeats 3]
                                    [--profile] [--skip-scale]

Prints, with the machine's load average:

1. **The referee's ply** (``bench/engine_overhead.py``'s game: Shobu, two instant replay bots, a
   long game of ``--plies`` plies): arena's CPU per ply against, in the same run, a trio echo of
   the same turn through the same bots, the least a trio round trip costs (``os.write``/``os.read``
   and one ``wait_readable``), and a blocking C pipe (``bench/bots/pipe_floor.c``). Goal: at most
   2x the bare trio round trip. Beside it, the same game's match loop without pipes or processes
   (``engine_overhead.py``'s in-process instant players): the loop, the rules and the record alone.
2. **A tournament of instant C bots** (``bench/bots/breakthrough_instant.c``: a random legal
   Breakthrough move, at once): ``--games`` games at concurrency 1 and 2. Arena's own CPU per ply
   (the arena process, all its threads, from the first game to the final standings; not the
   stats worker, a separate process at idle priority; the bots' own CPU beside it), split into a per-game part (the same
   tournament capped at 2 plies a game) and a per-ply part, and games per second.
3. **fastchess** (optional), built from its public source, with its own instant engine
   (``app/tests/mock/engine/random_mover.cpp``): the same number of games at concurrency 1 and 2,
   its own CPU per ply (the fastchess process alone: read from ``/proc`` once it has exited and
   before it is reaped, so the engines it reaped are not counted) and games per second. Found
   through ``$FASTCHESS`` (the binary) and ``$FASTCHESS_ENGINE`` (the instant engine; default: a
   ``random_mover`` beside the binary), else ``fastchess`` on PATH; skipped with one line when
   absent. To build it (outside this repository)::

       git clone https://github.com/Disservin/fastchess && cd fastchess && make -j2
       g++ -O3 -std=c++17 app/tests/mock/engine/random_mover.cpp -o random_mover

4. The other scale benches of issue 24 (``bench/standings_scale.py``, ``bench/report_scale.py``)
   when they exist, each skipped with a line otherwise (``--skip-scale`` skips them all).

``--before DIR``: a checkout of the code to compare with (e.g. ``git worktree add /tmp/main main``);
every arena figure is then measured for both, interleaved (before, after, after, before...), and
each shown as a median with the ratio after/before. ``--profile``: one more tournament of this
checkout under cProfile (CPU time), its shares by area (trio, rules, process layer, match loop,
records, tournament, protocols) and its top functions.

Every measurement runs in a child process (``--child``) whose ``PYTHONPATH`` is the tree measured.
Needs ``cc`` for the two C programs (built into a temporary folder).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

# -- children (run with the measured tree first on sys.path) ----------------------------------------


def child_referee(plies: int, repeats: int) -> dict[str, Any]:
    """Arena's CPU per ply in a long Shobu game of replay bots, and the trio echo and floor."""
    import trio
    from engine_overhead import echo_round_trips, find_cycle, in_process_loop, long_game

    cycle = find_cycle("shobu")

    async def main() -> dict[str, Any]:
        await long_game(cycle, min(plies, 2000))  # warm up
        game, echo, floor, loop = [], [], [], []
        for _ in range(repeats):
            echo.append((await echo_round_trips(cycle, plies, floor=False))[1])
            floor.append((await echo_round_trips(cycle, plies, floor=True))[1])
            game.append((await long_game(cycle, plies))[2] / plies)
            loop.append(await in_process_loop(cycle, plies))
        return {"game": game, "echo": echo, "floor": floor, "loop": loop}

    return trio.run(main)


def child_tournament(games: int, concurrency: int, max_moves: int | None, bot: str,
                     profile: str | None) -> dict[str, Any]:
    """A round robin of two instant C bots: arena's CPU, the plies, the wall clock."""
    import trio

    from arena.tournament.config import load_config
    from arena.tournament.runner import RunOptions, SilentReporter, Tournament

    folder = Path(tempfile.mkdtemp(prefix="speed-"))
    try:
        agents = [{"type": "executable", "id": f"instant{i}", "path": f"{bot} {i + 1}"} for i in range(2)]
        config: dict[str, Any] = {"id": "speed", "game": "breakthrough", "agents": agents,
                                  "tournamentType": "roundRobin", "gamesPerPair": games, "timeLimit": 60000}
        if max_moves is not None:
            config["maxMoves"] = max_moves
        (folder / "speed.json").write_text(json.dumps(config))
        tournament = Tournament(load_config(str(folder / "speed.json")),
                                RunOptions(logs_root=folder / "logs", concurrency=concurrency), SilentReporter())
        tournament.prepare()

        workers_cpu: list[float] = []

        async def main() -> Any:
            await tournament.play()
            # The worker processes' own CPU (issue 36), read while they still run: arena's CPU is
            # the driver's and theirs. A tree without workers has none.
            pids: list[int] = getattr(tournament.backend, "worker_pids", list)()
            workers_cpu.extend(process_cpu(pid) for pid in pids)
            return await tournament.finish()

        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile(time.process_time)
        cpu0, wall0 = time.process_time(), time.perf_counter()
        if profiler is not None:
            profiler.enable()
        summary = trio.run(main)
        if profiler is not None and profile:
            profiler.disable()
            profiler.dump_stats(profile)
        driver, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        cpu = driver + sum(workers_cpu)
        plies = bots_cpu = 0.0
        for path in folder.rglob("games.jsonl"):
            for line in path.read_text().splitlines():
                plies += json.loads(line)["plies"] or 0
        for path in folder.rglob("games/*.json"):
            for player in json.loads(path.read_text()).get("players", []):
                bots_cpu += player.get("cpuMs", 0.0) / 1000
        return {"games": summary.finished, "plies": plies, "cpu": cpu, "driver": driver, "wall": wall,
                "bots": bots_cpu, "workers": len(workers_cpu)}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def process_cpu(pid: int) -> float:
    """``pid``'s own CPU seconds so far (user + system, not its children's; 0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the parent ---------------------------------------------------------------------------------------


def run_child(tree: Path, *args: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", *args], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"speed: a measurement failed in {tree}:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def build_c(name: str, folder: Path) -> str:
    out = folder / name
    subprocess.run(["cc", "-O2", "-o", str(out), str(HERE / "bots" / f"{name}.c")], check=True)
    return str(out)


def load() -> str:
    return f"load average {os.getloadavg()[0]:.2f}"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:6.1f} us"


def median(values: list[float]) -> float:
    return statistics.median(values)


def trees(args: argparse.Namespace) -> list[tuple[str, Path]]:
    found = [("after", REPO)]
    if args.before:
        found.insert(0, ("before", Path(args.before).resolve()))
    return found


def in_turn(found: list[tuple[str, Path]], round_: int) -> list[tuple[str, Path]]:
    """The trees in the order of this round: the order alternates, because the second of two
    children measured back to back came out slower by itself (6% on the referee's ply)."""
    return found if round_ % 2 == 0 else found[::-1]


def versus(label: str, figures: dict[str, float], unit: Any = us) -> str:
    """'label: after X | before Y (after/before Z)'."""
    parts = [f"{name} {unit(value)}" for name, value in figures.items()]
    text = f"{label}: " + " | ".join(parts)
    if figures.get("before"):
        text += f"  (after/before {figures['after'] / figures['before']:.2f})"
    return text


def referee_section(args: argparse.Namespace, floor_c: str) -> None:
    print(f"\n1. The referee's ply: Shobu, instant replay bots, {args.plies} plies a game, "
          f"{args.repeats} rounds ({load()})")
    results: dict[str, dict[str, list[float]]] = {}
    for round_ in range(args.repeats):
        for name, tree in in_turn(trees(args), round_):
            got = run_child(tree, "referee", str(args.plies), "1")
            for key, values in got.items():
                results.setdefault(name, {}).setdefault(key, []).extend(values)
    c_pipe = [float(subprocess.run([floor_c, str(args.plies), "400"], capture_output=True, text=True,
                                   check=True).stdout.split()[0]) / 1e6 for _ in range(args.repeats)]
    game = {name: median(r["game"]) for name, r in results.items()}
    loop = {name: median(r["loop"]) for name, r in results.items()}
    echo = median([v for r in results.values() for v in r["echo"]])
    floor = median([v for r in results.values() for v in r["floor"]])
    pipe = median(c_pipe)
    print("   " + versus("arena CPU per ply", game))
    print("   " + versus("the match loop without pipes (in-process instant players), CPU per ply", loop))
    print(f"   anchors: trio echo {us(echo)}; bare trio round trip {us(floor)}; blocking C pipe {us(pipe)}")
    for name, value in game.items():
        print(f"   {name}: {value / echo:.1f}x the trio echo, {value / floor:.1f}x a bare trio round trip"
              f" (goal: at most 2x), {value / pipe:.0f}x a blocking C pipe")


def tournament_section(args: argparse.Namespace, bot: str) -> dict[str, dict[str, float]]:
    levels = sorted(set(args.concurrency))
    print(f"\n2. A tournament of instant C bots: Breakthrough, {args.games} games, concurrency "
          f"{', '.join(map(str, levels))} ({load()})")
    full: dict[str, dict[int, list[dict[str, Any]]]] = {}
    short: dict[str, list[dict[str, Any]]] = {}
    loads: dict[str, dict[int, list[float]]] = {}
    for round_ in range(args.repeats):
        for name, tree in in_turn(trees(args), round_):
            for concurrency in levels:
                loads.setdefault(name, {}).setdefault(concurrency, []).append(os.getloadavg()[0])
                got = run_child(tree, "tournament", str(args.games), str(concurrency), "-", bot)
                full.setdefault(name, {}).setdefault(concurrency, []).append(got)
            short.setdefault(name, []).append(run_child(tree, "tournament", str(args.games), "1", "2", bot))
    per_ply: dict[str, dict[str, float]] = {}
    for name in full:
        runs = full[name][levels[0]]
        cpu = median([r["cpu"] / r["plies"] for r in runs])
        game_cpu = median([r["cpu"] / r["games"] for r in short[name]])
        plies_short = median([r["plies"] / r["games"] for r in short[name]])
        plies_game = median([r["plies"] / r["games"] for r in runs])
        ply_part = (cpu * plies_game - game_cpu) / max(1.0, plies_game - plies_short)
        per_ply[name] = {"total": cpu, "game": game_cpu, "ply": ply_part}
        bots = median([r["bots"] / r["plies"] for r in runs])
        print(f"   {name}: arena CPU per ply {us(cpu)} ({plies_game:.0f} plies a game, concurrency {levels[0]}): "
              f"per game {game_cpu * 1e3:.1f} ms (2-ply games) + per ply {us(ply_part)}; the bots' own CPU "
              f"(their cgroups: bubblewrap and setpriv included) {us(bots)} per ply")
        rates = {c: median([r["games"] / r["wall"] for r in full[name][c]]) for c in levels}
        for c in levels:
            done = full[name][c]
            driver = median([r.get("driver", r["cpu"]) / r["games"] for r in done])
            workers = max(r.get("workers", 0) for r in done)
            print(f"   {name}: concurrency {c}: {rates[c]:.1f} games/s (runs: "
                  f"{figures([r['games'] / r['wall'] for r in done])}; load "
                  f"{figures(loads[name][c])}), {c_ratio(rates, levels[0], c)}"
                  f"{workers} worker processes; the driver's own CPU {driver * 1e3:.2f} ms a game, "
                  f"so one driver core runs out at {1 / driver:.0f} games/s")
    if "before" in per_ply:
        print(f"   after/before arena CPU per ply: {per_ply['after']['total'] / per_ply['before']['total']:.2f}")
    return per_ply


def figures(values: list[float]) -> str:
    """'1.2, 3.4': each run's figure, beside the median shown."""
    return ", ".join(f"{v:.1f}" for v in values)


def c_ratio(rates: dict[int, float], base: int, level: int) -> str:
    """'x.xx the rate at concurrency base; ' (nothing for the base itself)."""
    return "" if level == base else f"{rates[level] / rates[base]:.2f}x concurrency {base}; "


def find_fastchess() -> tuple[str, str] | None:
    binary = os.environ.get("FASTCHESS") or shutil.which("fastchess")
    if not binary or not os.access(binary, os.X_OK):
        return None
    engine = os.environ.get("FASTCHESS_ENGINE") or str(Path(binary).parent / "random_mover")
    if not os.access(engine, os.X_OK):
        return None
    return binary, engine


def fastchess_run(binary: str, engine: str, games: int, concurrency: int, folder: Path,
                  restart: bool = False) -> dict[str, float]:
    """fastchess's own CPU (its process alone), the plies and the wall clock for ``games`` games
    (``restart``: its engines started again for every game, as arena starts its bots)."""
    pgn = folder / f"fastchess-{concurrency}.pgn"
    pgn.unlink(missing_ok=True)
    argv = [binary, "-engine", f"cmd={engine}", "name=a", "-engine", f"cmd={engine}", "name=b",
            "-each", "tc=60+0", f"restart={'on' if restart else 'off'}", "-rounds", str(max(1, games // 2)), "-games", "2", "-repeat",
            "-concurrency", str(concurrency), "-pgnout", f"file={pgn}", "notation=uci"]
    began = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
    os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)  # a zombie still shows its own CPU
    wall = time.perf_counter() - began
    cpu = process_cpu(proc.pid)
    proc.wait()
    plies = played = 0
    for line in pgn.read_text().splitlines():
        if line.startswith("[PlyCount "):
            plies += int(line.split('"')[1])
            played += 1
    return {"cpu": cpu, "wall": wall, "plies": plies, "games": played}


def fastchess_section(args: argparse.Namespace, arena_per_ply: dict[str, dict[str, float]]) -> None:
    found = find_fastchess()
    if found is None:
        print("\n3. fastchess: skipped (set FASTCHESS to its binary and FASTCHESS_ENGINE to an instant UCI "
              "engine, or put fastchess on PATH with random_mover beside it)")
        return
    binary, engine = found
    print(f"\n3. fastchess ({binary}), its instant engine, {args.games} games ({load()})")
    with tempfile.TemporaryDirectory() as tmp:
        levels = sorted(set(args.concurrency))
        runs: dict[int, list[dict[str, float]]] = {c: [] for c in levels}
        loads: dict[int, list[float]] = {c: [] for c in levels}
        restarting: list[dict[str, float]] = []
        for _ in range(args.repeats):
            for concurrency in levels:
                loads[concurrency].append(os.getloadavg()[0])
                runs[concurrency].append(fastchess_run(binary, engine, args.games, concurrency, Path(tmp)))
            restarting.append(fastchess_run(binary, engine, args.games, 1, Path(tmp), restart=True))
    cpu = median([r["cpu"] / max(1, r["plies"]) for r in runs[levels[0]]])
    plies = median([r["plies"] / max(1, r["games"]) for r in runs[levels[0]]])
    rates = {c: median([r["games"] / r["wall"] for r in runs[c]]) for c in levels}
    # Its engines started for every game, as arena's bots are: what a game costs it beyond its plies.
    cpu_restart = median([r["cpu"] / max(1, r["plies"]) for r in restarting])
    plies_restart = median([r["plies"] / max(1, r["games"]) for r in restarting])
    per_game = max(0.0, cpu_restart - cpu) * plies_restart
    print(f"   fastchess CPU per ply {us(cpu)} ({plies:.0f} plies a game)")
    for c in levels:
        print(f"   fastchess concurrency {c}: {rates[c]:.1f} games/s (runs: "
              f"{figures([r['games'] / r['wall'] for r in runs[c]])}; load {figures(loads[c])})"
              f"{'' if c == levels[0] else ', ' + c_ratio(rates, levels[0], c)[:-2]}")
    print(f"   restarting its engines every game: CPU per ply {us(cpu_restart)}, so about "
          f"{per_game * 1e3:.1f} ms a game beyond its plies")
    for name, value in arena_per_ply.items():
        parts = f"; part by part: per ply {value['ply'] / cpu:.1f}x, per game {value['game'] / per_game:.1f}x " \
            "its restart's" if per_game > 0 else ""
        print(f"   {name}: arena CPU per ply is {value['total'] / cpu:.1f}x fastchess's (goal: at most 1x){parts}")


def scale_section(args: argparse.Namespace) -> None:
    print(f"\n4. Scale ({load()})")
    for name in ("standings_scale.py", "report_scale.py"):
        path = HERE / name
        if not path.exists():
            print(f"   bench/{name}: skipped (not in this checkout)")
            continue
        print(f"   bench/{name}:", flush=True)
        subprocess.run([sys.executable, str(path)], check=False, env={**os.environ, "PYTHONPATH": str(REPO)})


# The parts of a game whose inclusive time the profile shows: (file suffix, function, ...).
PARTS = {
    "per game: starting a bot (user, cgroup, paths, bubblewrap argv, spawn)": ("process/confinement.py", "start_confined"),
    "per game: stopping a bot (kill, reap, cgroup and user given back)": ("process/bot.py", "kill"),
    "per game: the record (built at the end)": ("match/game.py", "record"),
    "per game: the row, records on disk and the stats hand-off": ("tournament/runner.py", "_persist"),
    "per ply: a turn's input written and its reply read (players)": ("players/process_player.py", "request_move_under"),
    "per ply: the state encoded (state_to_json)": ("games/breakthrough/rules.py", "state_to_json"),
    "per ply: the turn's wire message (encode_turn)": ("protocols/json_envelope.py", "encode_turn"),
    "per ply: the reply judged (parse_move, validate_move)": ("games/breakthrough/rules.py", "validate_move"),
    "per ply: stop and continue (cgroup freeze and thaw)": ("process/bot.py", "stop", "resume"),
    "per ply: the record's turn entry": ("records/format.py", "turn_entry"),
}


def profile_section(args: argparse.Namespace, bot: str) -> None:
    import pstats

    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "tournament.prof")
        run_child(REPO, "tournament", str(args.games), "1", "-", bot, out)
        stats = pstats.Stats(out)
    areas = {"trio": "/trio/", "rules (arena/games)": "/arena/games/", "protocols": "/arena/protocols/",
             "process layer": "/arena/process/", "match loop and players": ("/arena/match/", "/arena/players/"),
             "records": "/arena/records/", "tournament": "/arena/tournament/"}
    shares: dict[str, float] = {}
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in raw.values())
    for (filename, _, _), row in raw.items():
        area = next((a for a, m in areas.items() if any(x in filename for x in (m if isinstance(m, tuple) else (m,)))),
                    "other (standard library, built-ins, syscalls)")
        shares[area] = shares.get(area, 0.0) + row[2]
    print(f"\n5. cProfile of this checkout's tournament ({args.games} games, concurrency 1; CPU time, own time per area)")
    for area, value in sorted(shares.items(), key=lambda kv: -kv[1]):
        print(f"   {area:46s} {value / total:6.1%}")
    print("   inclusive shares of the parts (they overlap where one calls another):")
    for part, (suffix, *funcs) in PARTS.items():
        value = sum(row[3] for (filename, _, name), row in raw.items() if filename.endswith(suffix) and name in funcs)
        print(f"   {part:62s} {value / total:6.1%}")
    print("   top functions by own time:")
    top = sorted(raw.items(), key=lambda kv: -kv[1][2])[:12]
    for (filename, line, func), row in top:
        short = filename.split("/arena/", 1)[-1] if "/arena/" in filename else Path(filename).name
        print(f"   {row[2] / total:6.1%}  {row[1]:7d} calls  {short}:{line}({func})")


def common_arguments(parser: argparse.ArgumentParser, games: int) -> None:
    """The options of the parts measured here, for this bench and for bench/ratios.py."""
    parser.add_argument("--before", help="a checkout of the code to compare with, measured in the same run")
    parser.add_argument("--games", type=int, default=games, help="games per tournament (fastchess too)")
    parser.add_argument("--plies", type=int, default=20000, help="plies of the referee's long game")
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds; medians are shown")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2],
                        help="the concurrencies of the tournaments (default: 1 2); the first is the CPU's")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    common_arguments(parser, games=200)
    parser.add_argument("--profile", action="store_true", help="also profile a tournament of this checkout")
    parser.add_argument("--skip-scale", action="store_true", help="skip the standings and report benches")
    parser.add_argument("--only", choices=("referee", "tournament", "fastchess"), help="one part only")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        if kind == "referee":
            result = child_referee(int(rest[0]), int(rest[1]))
        else:
            games, concurrency, cap, bot, *profile = rest
            result = child_tournament(int(games), int(concurrency), None if cap == "-" else int(cap), bot,
                                      profile[0] if profile else None)
        print(json.dumps(result))
        return
    if shutil.which("cc") is None:
        raise SystemExit("speed: needs a C compiler (cc) for its instant bot and pipe floor")
    print(f"arena speed (issue 24): {os.cpu_count()} cores, {load()}; trees: "
          + ", ".join(f"{name} = {tree}" for name, tree in trees(args)))
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)  # the bots run as their own users (arena as root): they must reach it
        bot = build_c("breakthrough_instant", Path(tmp))
        floor_c = build_c("pipe_floor", Path(tmp))
        per_ply: dict[str, dict[str, float]] = {}
        if args.only in (None, "referee"):
            referee_section(args, floor_c)
        if args.only in (None, "tournament"):
            per_ply = tournament_section(args, bot)
        if args.only in (None, "fastchess"):
            fastchess_section(args, per_ply)
        if args.profile:
            profile_section(args, bot)
    if args.only is None and not args.skip_scale:
        scale_section(args)
    print(f"\ndone ({load()})")


if __name__ == "__main__":
    main()
