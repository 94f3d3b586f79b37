"""`arena report` at scale: wall time and peak memory of whole runs, before and after, and the page's
load time in Chromium.

    python bench/report_scale.py [--games 5000] [--big 100000] [--before /path/to/other/checkout]

Makes synthetic log folders (in a temporary folder, removed at the end): ``--games`` Connect Four
games, ``--games`` Shobu games, ``--games`` checkers games, ``--games`` / 5 three-seat Goofspiel games, and ``--big`` Connect
Four games. A folder is a pool of distinct random games (``--pool``, played with the rules by
``tests/report/report_support.py``) written again under new indexes (as a tournament's log writes them: compact orjson), with a ``standings.json`` as a
tournament leaves one: of all the games (two players; N seats: the pool's, its count of games set). Each report is ``python -m arena report FOLDER -o report.html`` in a
subprocess (interleaved with the ``--before`` tree's, when given, under the same load); its peak RSS
is ``ru_maxrss`` of ``getrusage(RUSAGE_CHILDREN)`` in a wrapper process of its own (so the largest
of the run and its workers), its CPU the user and system time of the run and its workers (on a busy
machine the fairer figure: wall time there is mostly waiting for a core). A run longer than ``--timeout`` is stopped and shown as such.

With ``chromium`` on the PATH: the page's self-test on the last game (which loads its chunk),
printing chromium's wall time, the page's own time to a usable game list (``ready_ms``), one
filter pass and one sort over all games (``filter_ms``, ``sort_ms``) and the chunk's load time,
then, with ``--shot FILE.png``, a 1280x900 screenshot of the last report.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "report")]

WRAPPER = r"""
import ctypes, os, resource, subprocess, sys, time
# A subreaper: the report's forkserver (and so its workers) is reaped here, not by init, and its CPU
# counts in RUSAGE_CHILDREN (PR_SET_CHILD_SUBREAPER = 36).
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
started = time.monotonic()
try:
    code = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=float(sys.argv[1])).returncode
except subprocess.TimeoutExpired:
    code = "timeout"
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(code, time.monotonic() - started, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def replicate(pool: Path, folder: Path, games: int) -> Path:
    """``folder``: the pool's records again and again under indexes 0 .. games - 1."""
    rows = [json.loads(line) for line in (pool / "games.jsonl").read_text().splitlines() if line.strip()]
    records = [json.loads((pool / row["record"]).read_text()) for row in rows]
    (folder / "games").mkdir(parents=True)
    with open(folder / "games.jsonl", "wb") as out:
        for index in range(games):
            k = index % len(rows)
            name = f"games/{index:05d}.json" if index < 100_000 else f"games/{index}.json"
            # Written as a tournament's log writes them (arena.tournament.logs): compact orjson.
            (folder / name).write_bytes(orjson.dumps({**records[k], "game_index": index}) + b"\n")
            out.write(orjson.dumps({**rows[k], "index": index, "record": name}) + b"\n")
    if (pool / "standings.json").exists():  # a tournament's own: the standings of all these games
        from arena.records.sources import open_source
        from arena.report.html import source_standings
        from arena.stats.ratings import result_from_row

        started = time.monotonic()
        try:
            with open(folder / "games.jsonl") as lines:
                results = [result_from_row(json.loads(line)) for line in lines]
            standings = source_standings(open_source(folder), results)  # none there yet: computed
        except ValueError:  # games of N seats: the pool's standings stand for them
            standings = {**json.loads((pool / "standings.json").read_text()), "games": games}
        (folder / "standings.json").write_text(json.dumps(standings))
        print(f"    standings.json of {games} games: {time.monotonic() - started:.1f} s", flush=True)
    return folder


def two_player_pool(folder: Path, game: str, size: int) -> Path:
    from report_support import tournament_records, write_log_folder

    from arena.records.sources import open_source
    from arena.report.html import source_standings
    from arena.stats.ratings import result_from_row

    agents = ["alpha", "beta", "gamma", "delta"]
    per_pair = max(1, size // 6)
    write_log_folder(folder, tournament_records(game, agents, per_pair, max_plies=80))
    source = open_source(folder)
    results = [result_from_row({**source.load(e), "index": e.index}) for e in source.entries]
    (folder / "standings.json").write_text(json.dumps(source_standings(source, results)))
    return folder


def seat_pool(folder: Path, size: int) -> Path:
    from standings_fixtures import write_seat_folder

    return write_seat_folder(folder, games=size, players=3)


def run_report(tree: Path, folder: Path, out: Path, timeout: float) -> tuple[str, float, float, float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, "-c", WRAPPER, str(timeout), sys.executable, "-m", "arena", "report", str(folder),
               "-o", str(out)]
    found = subprocess.run(command, env=env, capture_output=True, text=True, check=True, cwd=tree).stdout.split()
    return found[0], float(found[1]), int(found[2]) / 1024, float(found[3])


def chromium_check(page: Path, game: int, profile: Path) -> str:
    chromium = shutil.which("chromium")
    if chromium is None:
        return "chromium not installed: page load not measured"
    started = time.monotonic()
    proc = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           f"--user-data-dir={profile}", "--virtual-time-budget=30000", "--dump-dom",
                           f"{page.as_uri()}#selftest={game}"], check=False, capture_output=True, text=True,
                          timeout=300)
    elapsed = time.monotonic() - started
    match = re.search(r'<pre id="selftest">([^<]*)</pre>', proc.stdout)
    verdict = match.group(1).strip() if match else "no verdict"
    return f"chromium run {elapsed:.1f} s: {verdict}"


def screenshot(page: Path, shot: Path, profile: Path) -> None:
    chromium = shutil.which("chromium")
    if chromium is not None:
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                        f"--user-data-dir={profile}", "--window-size=1280,900", "--virtual-time-budget=10000",
                        f"--screenshot={shot}", page.as_uri()], check=False, capture_output=True, timeout=300)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--big", type=int, default=100_000, help="0: no big run")
    parser.add_argument("--pool", type=int, default=120,
                        help="distinct games a folder is made of (--pool equal to --games: every game different)")
    parser.add_argument("--before", type=Path, default=None, help="another checkout of arena (say main's)")
    parser.add_argument("--before-big", action="store_true", help="run the --before tree on the big folder too")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--shot", type=Path, default=None, help="a PNG file for a screenshot of the last report")
    parser.add_argument("--cases", default="connect4,shobu,checkers,seats,big",
                        help="which folders to report (comma-separated, from connect4, shobu, checkers, seats, big)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="report-scale-") as tmp:
        base = Path(tmp)
        print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; making folders...", flush=True)
        wanted = set(args.cases.split(","))
        c4 = two_player_pool(base / "pool-c4", "connect4", args.pool)
        cases: list[tuple[str, Path, bool]] = []
        if "connect4" in wanted:
            cases.append((f"connect4 {args.games}", replicate(c4, base / "c4", args.games), True))
        if "shobu" in wanted:
            shobu = two_player_pool(base / "pool-shobu", "shobu", args.pool)
            cases.append((f"shobu {args.games}", replicate(shobu, base / "shobu", args.games), True))
        if "checkers" in wanted:
            checkers = two_player_pool(base / "pool-checkers", "checkers", args.pool)
            cases.append((f"checkers {args.games}", replicate(checkers, base / "checkers", args.games), True))
        if "seats" in wanted:
            seats = seat_pool(base / "pool-seats", args.pool)
            cases.append((f"goofspiel 3 seats {args.games // 5}", replicate(seats, base / "seats", args.games // 5),
                          True))
        if args.big and "big" in wanted:
            cases.append((f"connect4 {args.big}", replicate(c4, base / "big", args.big), args.before_big))
        trees = [("after", ROOT)] + ([("before", args.before)] if args.before else [])
        results: dict[tuple[str, str], float] = {}
        for name, folder, with_before in cases:
            games = len((folder / "games.jsonl").read_text().splitlines())
            for label, tree in trees:  # interleaved: after, then before, per case
                if label == "before" and not with_before:
                    continue
                out = base / f"out-{label}" / folder.name / "report.html"
                out.parent.mkdir(parents=True)
                code, wall, rss, cpu = run_report(tree, folder, out, args.timeout)
                size = sum(f.stat().st_size for f in out.parent.rglob("*") if f.is_file()) / 1e6
                load = os.getloadavg()[0]
                results[(name, label)] = wall
                print(f"{name:28} {label:6} exit {code:7} {wall:7.1f} s  CPU {cpu:7.1f} s  peak RSS {rss:6.0f} MB  "
                      f"{size:7.1f} MB written  {1000 * cpu / games:5.2f} ms CPU/game  load {load:.1f}", flush=True)
                if code == "0" and label == "after":
                    print("    " + chromium_check(out, games - 1, base / "profile"), flush=True)
            if (name, "before") in results and (name, "after") in results:
                print(f"    before/after: {results[(name, 'before')] / results[(name, 'after')]:.1f}x", flush=True)
        last = base / "out-after" / cases[-1][1].name / "report.html"
        if args.shot is not None and last.exists():
            screenshot(last, args.shot.resolve(), base / "profile")
            print(f"screenshot of the last report: {args.shot}")


if __name__ == "__main__":
    main()
