#!/usr/bin/env python3
"""Check a tournament's log folder (tournament_logs/<id>/) for consistency.

Usage: check_logs.py FOLDER...
Checks: config.json, games.jsonl (one line per finished game, indices unique), every game's record
file (states follow from turns, winner right: see check_record.py) agreeing with its games.jsonl
line, each agent's <agentId>.json counts (games = wins + draws + losses, matching games.jsonl), and
standings.json covering every agent. Exit status 0 when all is consistent, 1 otherwise.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from check_record import check


def check_folder(folder: Path) -> list[str]:
    problems: list[str] = []
    for name in ("config.json", "games.jsonl", "standings.json"):
        if not (folder / name).is_file():
            return [f"missing {name}"]
    config = json.loads((folder / "config.json").read_text())
    rows = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines() if line.strip()]
    if not rows:
        return ["games.jsonl is empty"]
    indices = [row["index"] for row in rows]
    if len(set(indices)) != len(indices):
        problems.append(f"games.jsonl repeats game indices: {sorted(k for k, v in Counter(indices).items() if v > 1)}")
    tally: dict[str, Counter] = {a["id"]: Counter() for a in config["agents"]}
    for row in rows:
        record = json.loads((folder / row["record"]).read_text())
        if (record["winner"], record["termination"]) != (row["winner"], row["termination"]):
            problems.append(f"game {row['index']}: games.jsonl and {row['record']} disagree")
        problems += [f"game {row['index']}: {p}" for p in check(record)]
        for player in record["players"]:
            result = "draws" if record["winner"] == "NONE" else "wins" if record["winner"] == player["colour"] else "losses"
            tally[player["id"]]["games"] += 1
            tally[player["id"]][result] += 1
    standings = json.loads((folder / "standings.json").read_text())
    listed = {entry["id"] for entry in standings["standings"]}
    for agent_id, counts in tally.items():
        stats = json.loads((folder / f"{agent_id}.json").read_text())
        for key in ("games", "wins", "draws", "losses"):
            if stats[key] != counts[key]:
                problems.append(f"{agent_id}.json: {key} = {stats[key]}, but the records say {counts[key]}")
        if agent_id not in listed:
            problems.append(f"standings.json has no entry for {agent_id}")
    return problems


def main(folders: list[str]) -> int:
    failed = False
    for name in folders:
        problems = check_folder(Path(name))
        for problem in problems:
            print(f"{name}: {problem}", file=sys.stderr)
        if problems:
            failed = True
        else:
            rows = (Path(name) / "games.jsonl").read_text().count("\n")
            print(f"{name}: {rows} games, records, per-agent files and standings agree")
    return 1 if failed or not folders else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
