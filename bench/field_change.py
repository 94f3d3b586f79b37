"""A class of bots whose field changes: checked, played, changed three ways, then compared with a
fresh run of the final field (issue 23, "a field that changes").

    .venv/bin/python bench/field_change.py [--agents 60] [--broken 3] [--games-per-pair 1] [-j 2]

It writes a roster folder (``students/sNN/``: each a copy of a shipped Connect Four bot, random or
greedy, with its own ``--seed``; the last ``--broken`` ones broken: one crashes at start, one has no
bot at all, one answers an illegal move) and a config ``{"agents": {"from": "students/*/"}}``, then
runs ``arena`` as a user would and prints, for each step, the games played and the games the step
needed:

1. ``arena run --set-aside-failing``: every entry checked first, the broken ones set aside (which,
   why), the rest play their round robin; the set-aside folders are then excluded in the config.
2. The field changes three ways at once: a student added (a new folder), one replaced (its bot file
   edited: a new version), one withdrawn (excluded). ``arena run`` prints what changed and plays
   only the games needed: the newcomer's and the new version's.
3. The same command again: nothing to play (resuming never doubles a game).
4. A fresh run of the final field in another log folder: its ``standings.json`` must equal the
   changed folder's (standings and crosstable), on the games that count.

Exit 0 when every check holds, 1 otherwise. ``--workdir DIR`` keeps the files (default: a temporary
folder, removed at the end).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
BOTS = ("connect4_random.py", "connect4_greedy.py", "connect4_random.py")


def make_roster(root: Path, agents: int, broken: int) -> list[str]:
    """``agents`` student folders under ``root/students``; the last ``broken`` are broken. Returns
    the names of the broken ones."""
    students = root / "students"
    students.mkdir(parents=True)
    bad = []
    for number in range(agents):
        name = f"s{number:02d}"
        folder = students / name
        folder.mkdir()
        kind = agents - number  # 1, 2, 3 for the last three
        if kind <= broken:
            bad.append(name)
            if kind % 3 == 1:  # crashes at start
                (folder / "bot.py").write_text("import sys\nsys.exit(3)\n")
                (folder / "bot.json").write_text(json.dumps({"command": "python3 bot.py"}))
            elif kind % 3 == 2:  # nothing to run
                (folder / "README").write_text("forgot to hand in\n")
            else:  # answers an illegal column
                (folder / "bot.py").write_text(
                    "import sys\nfor line in sys.stdin:\n    print('{\"type\": \"turn\", \"payload\": 99}', flush=True)\n")
                (folder / "bot.json").write_text(json.dumps({"command": "python3 bot.py"}))
            continue
        bot = BOTS[number % len(BOTS)]
        shutil.copy(REPO / "bots" / bot, folder / "bot.py")
        (folder / "bot.json").write_text(json.dumps({"command": f"python3 bot.py --seed {number}",
                                                     "language": "python", "game": "connect4"}))
    return bad


def write_config(root: Path, exclude: list[str], games_per_pair: int) -> Path:
    path = root / "class.json"
    path.write_text(json.dumps({"id": "class", "game": "connect4", "seed": 23, "timeLimit": 20000,
                                "gamesPerPair": games_per_pair,
                                "agents": {"from": "students/*/", **({"exclude": exclude} if exclude else {})}}))
    return path


def arena_run(config: Path, logs: Path, jobs: int, *extra: str) -> tuple[dict[str, Any], list[str], float]:
    """``arena run`` as a user types it: (its --json summary, its stderr lines, seconds)."""
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "arena", "run", str(config), "--logs", str(logs), "--json",
                           "-j", str(jobs), "--bootstrap", "50", *extra],
                          check=False, capture_output=True, text=True, cwd=REPO)
    took = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"arena run failed ({done.returncode}):\n{done.stderr}")
    return json.loads(done.stdout[done.stdout.index("{"):]), done.stderr.splitlines(), took


def say(step: str, summary: dict[str, Any], needed: int, took: float, lines: list[str]) -> bool:
    shown = [line for line in lines if line.startswith(("field:", "games:", "set aside:", "checking"))
             or " agents pass the check" in line or " games finished." in line]
    for line in shown:
        print(f"    | {line}")
    played = summary["games_played_now"]
    ok = played == needed and summary["complete"]
    print(f"{step}: played {played} games (needed {needed}), {summary['games_finished']} count now, "
          f"{took:.1f} s{'' if ok else '  <-- MISMATCH'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=60, help="folders in the roster (at least 10)")
    parser.add_argument("--broken", type=int, default=3, choices=range(4))
    parser.add_argument("--games-per-pair", type=int, default=1)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--workdir", type=Path, default=None)
    args = parser.parse_args()
    if args.agents < 10:
        parser.error("--agents: at least 10 (s03 and s05 are changed)")
    root = args.workdir or Path(tempfile.mkdtemp(prefix="field-change-"))
    try:
        return run(root, args)
    finally:
        if args.workdir is None:
            shutil.rmtree(root, ignore_errors=True)


def run(root: Path, args: argparse.Namespace) -> int:
    g = args.games_per_pair
    bad = make_roster(root, args.agents, args.broken)
    config = write_config(root, [], g)
    logs = root / "logs"
    good = args.agents - len(bad)
    checks = []

    summary, lines, took = arena_run(config, logs, args.jobs, "--set-aside-failing")
    set_aside = sorted(line.split(":")[1].strip() for line in lines if line.startswith("set aside:"))
    print(f"roster: {args.agents} folders, {len(bad)} broken ({', '.join(bad)}); set aside: {', '.join(set_aside)}")
    checks.append(set_aside == bad)
    checks.append(say("1. checked and played", summary, good * (good - 1) // 2 * g, took, lines))

    # Three changes at once: one added, one replaced (a new version of its files), one withdrawn.
    added, replaced, withdrawn = f"s{args.agents:02d}", "s05", "s03"
    folder = root / "students" / added
    folder.mkdir()
    shutil.copy(REPO / "bots" / "connect4_greedy.py", folder / "bot.py")
    (folder / "bot.json").write_text(json.dumps({"command": f"python3 bot.py --seed {args.agents}"}))
    bot = root / "students" / replaced / "bot.py"
    bot.write_text(bot.read_text() + "\n# fixed after the first round\n")
    config = write_config(root, [*bad, withdrawn], g)
    summary, lines, took = arena_run(config, logs, args.jobs)
    changed = summary.get("field", {})
    checks.append((changed.get("added"), changed.get("replaced"), changed.get("withdrawn"))
                  == ([added], [replaced], [withdrawn]))
    # The newcomer and the new version each meet everyone else once per game of a pair, minus their own game.
    checks.append(say("2. one added, one replaced, one withdrawn", summary, (2 * (good - 1) - 1) * g, took, lines))

    summary, lines, took = arena_run(config, logs, args.jobs)
    checks.append(say("3. run again (resume)", summary, 0, took, lines))
    rows = [json.loads(line) for line in (logs / "class" / "games.jsonl").read_text().splitlines() if line]
    keys = {(r["black"], r["white"], r["round"], *sorted(r["versions"].items())) for r in rows}
    print(f"games.jsonl: {len(rows)} rows ({summary['games_finished']} count now, the rest history), "
          f"{len(keys)} distinct (pairing, versions)")
    checks.append(len(keys) == len(rows))

    fresh, lines, took = arena_run(config, root / "fresh", args.jobs)
    checks.append(say("4. fresh run of the final field", fresh, good * (good - 1) // 2 * g, took, lines))
    changed_standings = json.loads((logs / "class" / "standings.json").read_text())
    fresh_standings = json.loads((root / "fresh" / "class" / "standings.json").read_text())
    same = all(changed_standings[k] == fresh_standings[k] for k in ("games", "standings", "crosstable"))
    print(f"standings of the changed folder == the fresh run's (games, standings, crosstable): {same}")
    for row in changed_standings["standings"][:3]:
        print(f"    {row['rank']:>2} {row['id']}  elo {row['elo']:+.1f}  {row['wins']}-{row['draws']}-{row['losses']}")
    checks.append(same)
    print("all checks hold" if all(checks) else f"FAILED checks: {[i for i, ok in enumerate(checks) if not ok]}")
    return 0 if all(checks) else 1


if __name__ == "__main__":
    sys.exit(main())
