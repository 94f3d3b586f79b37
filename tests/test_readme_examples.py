"""The command examples of the README and of every docs/ page run verbatim from the repository root
(issue 10, item 6; issue 19 for the docs).

Each ```sh block whose lines start with `arena ` is split into commands (a trailing `# comment` is
dropped; a comment that is just a number is the output the command must print; paths under /tmp/ go to
the test's own temporary folder). Commands that play
for long or need a person (`arena run`, `human`, a bot of your own such as ./my_bot) or a Ray cluster
(`--backend ray`) are skipped.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# `arena run` plays for long, but for the small example tournaments named in QUICK_RUNS (seconds).
QUICK_RUNS = ("examples/goofspiel-four-players.json", "examples/referees/nim-round-robin.json",
              "examples/spiel-liars-dice.json")
SKIP = re.compile(r"\barena run\b(?!.*(?:" + "|".join(map(re.escape, QUICK_RUNS)) + r"))|\bhuman\b|my_bot|my_tournament|\bcd bots\b|--games [0-9]{2,}|--backend ray")


#: The pages whose commands run: the README and every page under docs/.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def page_commands(page: Path) -> list[tuple[str, str | None]]:
    commands: list[tuple[str, str | None]] = []
    for block in re.findall(r"```sh\n(.*?)```", page.read_text(), re.DOTALL):
        for line in block.splitlines():
            if not line.startswith("arena ") or line.rstrip().endswith("\\") or SKIP.search(line):
                continue
            command, _, comment = line.partition("  #")
            expected = comment.strip().split()[0] if comment.strip() else None
            commands.append((command.strip(), expected if expected and expected.isdigit() else None))
    return commands


COMMANDS = list(dict.fromkeys(c for page in PAGES for c in page_commands(page)))


def test_the_readme_and_docs_have_runnable_examples() -> None:
    assert len(page_commands(ROOT / "README.md")) >= 3
    assert len(COMMANDS) >= 20, COMMANDS


@pytest.mark.parametrize(("command", "expected"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_a_readme_example_runs_verbatim(command: str, expected: str | None, tmp_path: Path) -> None:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    # Output folders the README puts under /tmp go to this test's own folder: a folder left there by
    # an earlier run (of other settings) would make a resumable command refuse it.
    command = command.replace(" /tmp/", f" {tmp_path}/")
    out = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=ROOT, env=env,
                         stdin=subprocess.DEVNULL, timeout=300, check=False)
    assert out.returncode == 0, f"{command}: exit {out.returncode}: {out.stderr[-500:]}"
    assert "Traceback" not in out.stderr
    if expected is not None:
        assert expected in out.stdout + out.stderr, f"{command} did not print {expected}"
    assert shlex.split(command)[0] == "arena"


def test_the_shipped_example_configs_load() -> None:
    from arena.tournament.config import load_config

    config = load_config(ROOT / "examples" / "checkers-system-tournament.json")
    assert [a.id for a in config.agents] == ["hyp1", "bot2"] and config.game == "checkers"
