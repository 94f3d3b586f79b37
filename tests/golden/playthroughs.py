"""Golden playthroughs: fixed-seed matches of every game arena plays, and perft at a few depths,
stored under tests/golden/files/ and compared by tests/golden/test_golden.py.

One :class:`Case` per game: the ten built in, the tic-tac-toe plugin (examples/arena-tictactoe,
found through its entry point), the example referees (examples/referees/: nim.py, breakthrough-c,
othello-java; the compiled ones built as tests/referees builds them) and one OpenSpiel game. Each
case stores two files:

- ``<case>.match.json``: ``arena match`` run with ``--seed 7`` between seeded bots (the shipped
  random and heuristic bots, ``--seed N``) each wrapped in tests/golden/recording_bot.py: the
  records arena wrote (``--out``) and, per bot, the exact lines it was sent and sent back (from the
  wrapper's stderr, kept by ``--stderr-dir``).
- ``<case>.perft.json``: ``arena perft --json`` at a few depths (``nodes`` only).

What is normalised, and nothing else (see :func:`normalise_record` and :func:`normalise_line`):

- in records, the values of :data:`VOLATILE_KEYS` (timestamps, durations, clock readings, CPU
  times, the arena version) become ``"<volatile>"``; the paths of ``stderr_logs`` keep only the
  file's name;
- in every string of a record, this checkout's folder becomes ``<root>`` and this interpreter's
  path ``<python>``;
- in the bytes a bot was sent, the clock reading ``"timeLeftMs":N`` becomes ``"timeLeftMs":<clock>``,
  and a line that is only a number, after the first two lines (the checkers dialect's time left;
  its first line, the time limit, and second, the colour, are kept), becomes ``<clock>``.

Regenerate (after a change that is meant to alter what users see; review the diff)::

    .venv/bin/python -m tests.golden.playthroughs            # every case, both files
    .venv/bin/python -m tests.golden.playthroughs --perft    # only the perft files
    .venv/bin/python -m tests.golden.playthroughs kuhn_poker nim   # some cases

A case whose toolchain (cc, javac, OpenSpiel) is missing is skipped by the test and by this command.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FILES = Path(__file__).resolve().parent / "files"
WRAPPER = "tests/golden/recording_bot.py"
SEED = 7

#: Record keys whose values depend on the clock, the machine or the release, never on the game.
VOLATILE_KEYS = frozenset({
    "started_at", "duration_s", "arena_version", "cpuMs", "charged_ms", "clock_left_ms", "move_times_ms",
    "clocks_left_ms",
})
VOLATILE = "<volatile>"
_CLOCK = re.compile(rb'"timeLeftMs":\d+')
_BARE_CLOCK = re.compile(r"\d+\n")


class Missing(Exception):
    """A tool a case needs is not installed; the message names it."""


def _builtin() -> tuple[list[str], dict[str, str]]:
    return [], {}


def _plugin(site: Path) -> tuple[list[str], dict[str, str]]:
    """The tic-tac-toe example visible through its entry point (tests/test_plugin_example.py's way)."""
    from tests.test_plugin_example import fake_site, subprocess_env

    return [], subprocess_env(fake_site(site))


def _referee(example: str, tools: tuple[str, ...], command: Callable[[Path], str]) -> Callable[[Path], tuple[list[str], dict[str, str]]]:
    def setup(site: Path) -> tuple[list[str], dict[str, str]]:
        from tests.referees.driver import build

        try:
            folder = build(example, tools)
        except LookupError as missing:
            raise Missing(f"{missing} is not installed (examples/referees/{example})") from None
        return ["--rules", command(folder)], {}
    return setup


def _nim(site: Path) -> tuple[list[str], dict[str, str]]:
    return ["--rules", "python3 examples/referees/nim.py"], {}


def _spiel(site: Path) -> tuple[list[str], dict[str, str]]:
    if importlib.util.find_spec("pyspiel") is None:
        raise Missing("open_spiel is not installed (pip install -e '.[test]')")
    return [], {}


def _relative(folder: Path) -> str:
    return str(folder.relative_to(ROOT))


Perft = tuple[tuple[str, ...], tuple[int, ...]]


@dataclass(frozen=True)
class Case:
    """One golden playthrough: ``game`` args (``--game``/``--players``/``--param``) of the match,
    the inner bot commands (each wrapped in the recording bot), extra match options, ``perfts``:
    ``(game args, depths)`` pairs for ``arena perft`` (default: the match's game args), and
    ``setup``: the ``--rules`` args and environment a case needs (raises :class:`Missing`)."""

    name: str
    game: tuple[str, ...]
    bots: tuple[str, ...]
    depths: tuple[int, ...]
    match: tuple[str, ...] = ()
    setup: Callable[[Path], tuple[list[str], dict[str, str]]] = field(default=lambda site: _builtin())
    more_perfts: tuple[Perft, ...] = ()

    @property
    def perfts(self) -> tuple[Perft, ...]:
        return ((self.game, self.depths), *self.more_perfts)


def _py(bot: str, *args: str) -> str:
    return " ".join(["python3", f"bots/{bot}.py", *args])


def _seeded(bot: str, seed: int) -> str:
    return _py(bot, "--seed", str(seed))


LEGAL_RANDOM = tuple(_seeded("legal_random", n) for n in (1, 2, 3))
TICTACTOE = "python3 examples/arena-tictactoe/bots/tictactoe_random.py --seed {}"

# Depths: quick (the whole test stays short) and, for games that can end early, past the shortest
# game, so the convention for a game that ended before the depth shows in the counts.
CASES: tuple[Case, ...] = (
    Case("shobu", ("--game", "shobu"), (_seeded("shobu_random", 1), _seeded("shobu_greedy", 2)), (1, 2),
         ("--max-moves", "24")),
    Case("checkers", ("--game", "checkers"), (_seeded("checkers_random", 1), _seeded("checkers_greedy", 2)),
         (1, 2, 3, 4, 5), ("--max-moves", "40")),
    Case("breakthrough", ("--game", "breakthrough"),
         (_seeded("breakthrough_random", 1), _seeded("breakthrough_greedy", 2)), (1, 2, 3), ("--max-moves", "40")),
    Case("connect4", ("--game", "connect4"), (_seeded("connect4_random", 1), _seeded("connect4_greedy", 2)),
         (1, 2, 3, 4, 5)),
    Case("abalone", ("--game", "abalone"), (_seeded("abalone_random", 1), _seeded("abalone_greedy", 2)), (1, 2),
         ("--max-moves", "30")),
    Case("goofspiel", ("--game", "goofspiel", "--players", "3", "--param", "num_cards=4"),
         (_seeded("goofspiel_random", 1), _py("goofspiel_heuristic"), _seeded("goofspiel_random", 3)), (1, 2, 3, 4),
         more_perfts=((("--game", "goofspiel", "--players", "2", "--param", "num_cards=3"), (1, 2, 3, 4, 5, 6, 7)),)),
    Case("kuhn_poker", ("--game", "kuhn_poker", "--players", "3"),
         (_seeded("kuhn_poker_random", 1), _py("kuhn_poker_heuristic"), _seeded("kuhn_poker_random", 3)),
         (1, 2, 3, 4, 5, 6, 7, 8, 9), ("--games", "2"),
         more_perfts=((("--game", "kuhn_poker", "--players", "2"), (1, 2, 3, 4, 5, 6, 7)),)),
    Case("leduc_poker", ("--game", "leduc_poker", "--players", "2"),
         (_seeded("leduc_poker_random", 1), _py("leduc_poker_heuristic")), (1, 2, 3, 4, 5, 6)),
    Case("love_letter", ("--game", "love_letter", "--players", "3"),
         (_seeded("love_letter_random", 1), _py("love_letter_heuristic"), _seeded("love_letter_random", 3)),
         (1, 2, 3), ("--max-moves", "60")),
    Case("pig", ("--game", "pig", "--players", "3", "--param", "target=20"),
         (_seeded("pig_random", 1), _py("pig_hold20"), _seeded("pig_random", 3)), (1, 2, 3, 4, 5, 6, 7, 8),
         ("--games", "2")),
    Case("tictactoe", ("--game", "tictactoe"), (TICTACTOE.format(1), TICTACTOE.format(2)), (1, 2, 3, 4, 5, 6),
         ("--games", "2"), _plugin),
    Case("nim", (), LEGAL_RANDOM, (1, 2, 3, 4, 5, 6), ("--legal-moves",), _nim),
    Case("breakthrough_c", (), LEGAL_RANDOM[:2], (1, 2, 3), ("--legal-moves", "--max-moves", "40"),
         _referee("breakthrough-c", ("cc",), lambda folder: _relative(folder / "breakthrough-referee"))),
    Case("othello_java", (), LEGAL_RANDOM[:2], (1, 2, 3, 4), ("--legal-moves", "--max-moves", "30"),
         _referee("othello-java", ("javac", "java"), lambda folder: f"java -cp {_relative(folder)} OthelloReferee")),
    Case("spiel_liars_dice", ("--game", "spiel:liars_dice"), LEGAL_RANDOM[:2], (1, 2, 3), setup=_spiel),
)
BY_NAME = {case.name: case for case in CASES}


def arena(args: Sequence[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``python -m arena ARGS`` in the checkout, stdin closed; AssertionError quoting stderr on failure."""
    done = subprocess.run([sys.executable, "-m", "arena", *args], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=600, check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"arena {' '.join(args)} failed ({done.returncode}):\n{done.stderr[-3000:]}"
    return done


def _scrub(text: str) -> str:
    return text.replace(str(ROOT), "<root>").replace(sys.executable, "<python>")


def normalise_record(value: Any, key: str | None = None) -> Any:
    """``value`` with :data:`VOLATILE_KEYS` blanked, log paths cut to their names, paths scrubbed."""
    if key in VOLATILE_KEYS:
        return VOLATILE
    if key == "stderr_logs" and isinstance(value, dict):
        return {seat: Path(path).name for seat, path in value.items()}
    if isinstance(value, dict):
        return {k: normalise_record(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [normalise_record(v) for v in value]
    return _scrub(value) if isinstance(value, str) else value


def normalise_line(line: str, index: int) -> str:
    """The ``index``-th line a bot was sent, its clock reading blanked (module docstring)."""
    if index >= 2 and _BARE_CLOCK.fullmatch(line):
        return "<clock>\n"
    return _CLOCK.sub(b'"timeLeftMs":<clock>', line.encode("utf-8", errors="surrogateescape")).decode(
        "utf-8", errors="surrogateescape")


def transcript(log: Path) -> dict[str, list[str]]:
    """The recording wrapper's log -> ``{"sent": [...], "back": [...]}``, each in its own order (the
    two directions are written by two threads, so only each direction's order is kept)."""
    out: dict[str, list[str]] = {"sent": [], "back": []}
    for line in log.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        ((direction, text),) = entry.items()
        out[direction].append(normalise_line(text, len(out["sent"])) if direction == "sent" else text)
    return out


def play(case: Case, work: Path) -> dict[str, Any]:
    """Run the case's match in ``work``; its golden content (module docstring)."""
    rules, env = case.setup(work / "site")
    out, logs = work / "records.json", work / "logs"
    bots = [f"python3 {WRAPPER} {bot}" for bot in case.bots]
    command = ["match", *rules, *case.game, *case.match, "--seed", str(SEED), "-q", "--no-ponder", *bots]
    arena([*command, "--stderr-dir", str(logs), "--out", str(out)], env)
    records = json.loads(out.read_text(encoding="utf-8"))
    return {
        "command": ["arena", *(_scrub(a) for a in command)],
        "records": normalise_record(records if isinstance(records, list) else [records]),
        "bytes": {log.name: transcript(log) for log in sorted(logs.iterdir())},
    }


def perft(case: Case, work: Path) -> list[dict[str, Any]]:
    """``arena perft --json`` of each of the case's :attr:`Case.perfts`: ``[{"game", "args",
    "counts": {depth: nodes}}]``. One child process runs them all through the CLI
    (:func:`_perft_child`), with the case's environment (the plugin's path) and its own registry."""
    rules, env = case.setup(work / "site")
    runs = [{"args": [*rules, *game], "depths": depths} for game, depths in case.perfts]
    done = subprocess.run([sys.executable, "-m", "tests.golden.playthroughs", "--perft-child", json.dumps(runs)],
                          cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True, timeout=600,
                          check=False, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"perft of {case.name} failed ({done.returncode}):\n{done.stderr[-3000:]}"
    results: list[dict[str, Any]] = json.loads(done.stdout)
    for result in results:
        result["args"] = [_scrub(a) for a in result["args"]]
    return results


def _perft_child(request: str) -> None:
    from click.testing import CliRunner

    from arena.cli import cli

    results = []
    for run in json.loads(request):
        counts: dict[str, int] = {}
        name = ""
        for depth in run["depths"]:
            done = CliRunner().invoke(cli, ["perft", *run["args"], "--depth", str(depth), "--json"],
                                      catch_exceptions=False)
            assert done.exit_code == 0, done.output
            result = json.loads(done.stdout)
            name, counts[str(depth)] = result["game"], result["nodes"]
        results.append({"game": name, "args": run["args"], "counts": counts})
    print(json.dumps(results))


def golden_path(case: Case, kind: str) -> Path:
    return FILES / f"{case.name}.{kind}.json"


def dump(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def produce(case: Case, kind: str) -> str:
    """The text the golden file of ``kind`` (``match`` or ``perft``) of ``case`` should hold now."""
    with tempfile.TemporaryDirectory(prefix="arena-golden-") as tmp:
        return dump((play if kind == "match" else perft)(case, Path(tmp)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.golden.playthroughs",
                                     description="Rewrite the golden files under tests/golden/files/.")
    parser.add_argument("cases", nargs="*", help=f"cases to rewrite (default: all): {', '.join(BY_NAME)}")
    parser.add_argument("--perft", action="store_true", help="only the perft files")
    parser.add_argument("--perft-child", help=argparse.SUPPRESS)  # perft's own child process
    options = parser.parse_args(argv)
    if options.perft_child:
        _perft_child(options.perft_child)
        return 0
    unknown = [name for name in options.cases if name not in BY_NAME]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r}")
    FILES.mkdir(exist_ok=True)
    for case in [BY_NAME[name] for name in options.cases] or list(CASES):
        for kind in ("perft",) if options.perft else ("match", "perft"):
            try:
                text = produce(case, kind)
            except Missing as missing:
                print(f"skipped {case.name}: {missing}", file=sys.stderr)
                break
            golden_path(case, kind).write_text(text, encoding="utf-8")
            print(f"wrote {golden_path(case, kind).relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
