"""A class in the sandbox (issue 33): at least 20 students' bots in 5 languages from the starter
kits, and a thief that tries to read the project checkout, a classmate's folder and an earlier
run's logs, and to run a classmate's bot in its place.

    .venv/bin/python bench/class_view.py [--per-language 4] [--matches 60] [--concurrency 2]

Builds the kits (``make -C examples/kits/<kit>``; a kit whose toolchain is missing is left out
with one line), makes one roster folder per student in a temporary folder anyone may read (each
holding its own copy of its kit's program and a ``bot.json``), checks the roster (``arena roster
check``), then plays a ``randomMatches`` Connect Four tournament in the sandbox (``arena run``).
Prints the games, the honest bots' forfeits (a loss by anything but the rules: crash, timeout,
illegal move...), each of the thief's attempts and whether it got anything, the wall time and
arena's CPU (the ``arena run`` process and the children it reaped) per game. It prints figures; it
does not pass or fail.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
KITS = REPO / "examples" / "kits"
#: kit -> (files to copy from the kit's folder, the bot.json command, the programs it needs)
LANGUAGES = {
    "c": (["build/connect4"], "./connect4", ("make", "cc")),
    "cpp": (["build/connect4"], "./connect4", ("make", "g++")),
    "java": (["build/Connect4.class"], "java -cp . Connect4", ("make", "javac", "java")),
    "javascript": (["connect4.js"], "node connect4.js", ("make", "node")),
    "rust": (["build/release/connect4"], "./connect4", ("make", "cargo")),
}
HONEST = ("win", "draw", "max_moves")


def build(kit: str, tools: tuple[str, ...]) -> bool:
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        print(f"  {kit}: left out ({', '.join(missing)} not found)")
        return False
    done = subprocess.run(["make", "-C", str(KITS / kit)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"  {kit}: left out (does not build: {done.stderr.strip().splitlines()[-1:]})")
    return done.returncode == 0


def student(folder: Path, files: list[Path], command: str, language: str) -> None:
    folder.mkdir(mode=0o755)
    for file in files:
        shutil.copy2(file, folder / file.name)
    (folder / "bot.json").write_text(json.dumps({"command": command, "language": language, "game": "connect4"}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-language", type=int, default=4)
    parser.add_argument("--matches", type=int, default=60)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    print("Building the kits")
    languages = {kit: spec for kit, spec in LANGUAGES.items() if build(kit, spec[2])}
    work = Path(tempfile.mkdtemp(prefix="arena-class-"))
    work.chmod(0o755)
    try:
        classroom = work / "class"
        classroom.mkdir(mode=0o755)
        for kit, (files, command, _) in languages.items():
            for number in range(1, args.per_language + 1):
                student(classroom / f"{kit}-{number}", [KITS / kit / f for f in files], command, kit)
        victim = classroom / f"{next(iter(languages))}-1"
        thief = classroom / "thief"
        student(thief, [REPO / "bots" / "connect4_random.py", REPO / "tests" / "hostile" / "thief_bot.py"],
                "python3 thief_bot.py", "python")
        earlier = work / "logs" / "earlier-run"
        earlier.mkdir(parents=True, mode=0o755)
        (work / "logs").chmod(0o755)
        (earlier / "games.jsonl").write_text("an earlier run's record\n")
        (thief / "targets.json").write_text(json.dumps({
            "read": [str(REPO / "pyproject.toml"), str(victim / "bot.json"), str(earlier / "games.jsonl")],
            "list": [str(REPO), str(classroom), str(victim), str(earlier)], "exec": str(victim)}))
        config = work / "class.json"
        config.write_text(json.dumps({"id": "class", "game": "connect4", "tournamentType": "randomMatches",
                                      "matches": args.matches, "timeLimit": 20000, "agents": {"from": "class/*/"},
                                      "sandbox": True}))
        bots = len(list(classroom.iterdir()))
        print(f"A class of {bots} bots ({args.per_language} each in {', '.join(languages)}, and a thief)")
        arena = [sys.executable, "-m", "arena"]
        check = subprocess.run([*arena, "roster", "check", str(config)], capture_output=True, text=True, check=False)
        print(f"  arena roster check: exit {check.returncode}, {check.stdout.strip().splitlines()[-1]}")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        began = time.perf_counter()
        run = subprocess.run([*arena, "run", str(config), "--logs", str(work / "logs"), "--concurrency",
                              str(args.concurrency), "--json"], capture_output=True, text=True, check=False)
        wall = time.perf_counter() - began
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        print(f"  arena run: exit {run.returncode}{'' if run.returncode == 0 else ': ' + run.stderr.strip()[-300:]}")
        report(work / "logs" / "class", wall, cpu)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def report(folder: Path, wall: float, cpu: float) -> None:
    games = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines() if line.strip()]
    forfeits: dict[str, int] = {}
    thief_games = 0
    for game in games:
        ids = [p["id"] for p in game["players"]] if "players" in game else []
        thief_games += "thief" in ids
        if game["termination"] not in HONEST:
            loser = next((p["id"] for p in game.get("players", []) if p.get("color") != game.get("winner")), "?")
            if loser != "thief":
                forfeits[loser] = forfeits.get(loser, 0) + 1
    print(f"  {len(games)} games ({thief_games} with the thief); honest bots' forfeits: "
          f"{sum(forfeits.values())}{' ' + json.dumps(forfeits) if forfeits else ''}")
    print(f"  wall {wall:.1f} s ({wall / max(1, len(games)):.2f} s a game); arena's CPU with the children it "
          f"reaped {cpu:.1f} s ({cpu / max(1, len(games)) * 1e3:.0f} ms a game)")
    attempts: dict[str, str] = {}
    for log in sorted((folder / "stderr").glob("*thief*.log")):
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("REPORT "):
                _, what, answer = line.split(" ", 2)
                attempts[what] = answer
    for what, answer in attempts.items():
        got = json.loads(answer)
        shown = got.get("failed") or f"got {json.dumps(got['ok'])[:100]}"
        print(f"  thief {what}: {shown}")
    if not attempts:
        print("  the thief played no game")


if __name__ == "__main__":
    if os.geteuid() != 0:
        print("note: not root: bots run as your user (no user per bot)")
    main()
