"""The first second (issue 9): `arena --help`, `arena games` and the rules tools import neither trio
nor rich; the lazily loaded commands are the ones the command list describes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest

from arena.cli import COMMANDS, LazyGroup, cli

PROBE = """
import sys
from arena.cli import main
try:
    main({args!r})
except SystemExit as exit:
    code = exit.code
heavy = sorted({{m.split('.')[0] for m in sys.modules}} & {{'trio', 'rich'}})
sys.stderr.write('HEAVY=' + ','.join(heavy) + ' CODE=' + str(code) + '\\n')
"""


@pytest.mark.parametrize("args", [
    ["--help"], ["--version"], ["games"], ["perft", "--game", "checkers", "--depth", "2"],
    ["moves", "--help"], ["pass-through", "--help"]
])
def test_light_commands_never_import_trio_or_rich(args: list[str]) -> None:
    out = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, check=False, timeout=120)
    line = out.stderr.strip().splitlines()[-1]
    assert line.startswith("HEAVY= "), out.stderr
    assert line.endswith("CODE=0"), out.stderr


def test_the_command_list_matches_the_commands() -> None:
    group = cli
    assert isinstance(group, LazyGroup)
    ctx = click.Context(group)
    for name, (_module, _attr, summary) in COMMANDS.items():
        command = group.get_command(ctx, name)
        assert command is not None and command.name == name
        assert summary.endswith(".") and len(summary) <= 60, summary
    assert group.get_command(ctx, "no-such-command") is None


def test_an_unknown_command_is_a_usage_error() -> None:
    out = subprocess.run([sys.executable, "-m", "arena", "nosuch"], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, check=False, timeout=120)
    assert out.returncode == 2 and "No such command 'nosuch'" in out.stderr and "Traceback" not in out.stderr


def test_a_match_written_to_a_pipe_never_imports_rich() -> None:
    """Scripts and CI run matches with stderr piped: plain lines, no rich (~50 ms of imports)."""
    args = ["match", "--game", "shobu", "--max-moves", "4", f"{sys.executable} bots/shobu_random.py --seed 1",
            f"{sys.executable} bots/shobu_random.py --seed 2"]
    out = subprocess.run([sys.executable, "-c", PROBE.format(args=args)], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, timeout=120, check=False, cwd=Path(__file__).resolve().parents[2])
    lines = out.stderr.strip().splitlines()
    assert lines[-1] == "HEAVY=trio CODE=0", out.stderr
    assert lines[0].startswith("game: draw [max_moves] after 4 plies"), out.stderr
