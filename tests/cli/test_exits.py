"""Errors to exit statuses in one place (arena/cli/exits.py): every command applies it, no command
catches ArenaError to choose a status itself, and the help and the docs show the table it holds."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arena.backends import ClusterError
from arena.cli import COMMANDS, cli
from arena.cli.exits import EXIT_STATUSES, ArenaCommand, ArenaGroup, exit_status, voice_of
from arena.errors import ArenaError, ConfigError, Interrupted, ResourceError, UsageError
from arena.records.logstore import LogError
from arena.referee.client import RefereeError

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "arena" / "cli"


@pytest.mark.parametrize(("error", "status"), [
    (Interrupted("stopped"), 130), (ResourceError("out of disk"), 1), (RefereeError("rules program broke"), 1),
    (ClusterError("no cluster"), 1), (ConfigError("bad key"), 2), (UsageError("bad option"), 2),
    (LogError("in use"), 2), (ArenaError("anything else"), 2),
])
def test_each_error_class_has_its_status(error: ArenaError, status: int) -> None:
    assert exit_status(error) == status


def test_what_is_not_an_arena_error_has_no_status() -> None:
    with pytest.raises(TypeError):
        exit_status(ValueError("a bug"))


def _every_command() -> list[click.Command]:
    found: list[click.Command] = []
    for module, attr, _ in COMMANDS.values():
        command = getattr(importlib.import_module(module), attr)
        found.append(command)
        if isinstance(command, click.Group):
            found.extend(command.commands.values())
    return found


def test_every_command_maps_errors() -> None:
    unmapped = [c.name for c in _every_command() if not isinstance(c, (ArenaCommand, ArenaGroup))]
    assert unmapped == []


def test_no_command_catches_arena_error_itself() -> None:
    """The mapping is the one place: an ``except ArenaError`` elsewhere in the CLI would choose a
    status of its own."""
    catching = []
    for path in sorted(CLI.glob("*.py")):
        if path.name == "exits.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                names = {n.id if isinstance(n, ast.Name) else getattr(n, "attr", "") for n in ast.walk(node.type)}
                if names & {"ArenaError", "ClusterError", "Interrupted", "ResourceError"}:
                    catching.append(f"{path.name}:{node.lineno}")
    assert catching == []


def _raising(error: ArenaError, name: str = "probe") -> click.Command:
    def fail() -> None:
        raise error

    return ArenaCommand(name, callback=fail)


@pytest.mark.parametrize(("error", "status", "line"), [
    (ConfigError("agents[0]: no path"), 2, "arena: error: agents[0]: no path"),
    (ResourceError("out of file descriptors"), 1, "arena: error: out of file descriptors"),
    (Interrupted("interrupted; run the same command again to resume"), 130,
     "arena: interrupted; run the same command again to resume"),
])
def test_a_command_says_its_error_in_one_line_with_its_status(error: ArenaError, status: int, line: str) -> None:
    result = CliRunner().invoke(_raising(error), [], catch_exceptions=False)
    assert (result.exit_code, result.output) == (status, line + "\n")


def test_a_multi_line_config_error_keeps_its_lines() -> None:
    result = CliRunner().invoke(_raising(ConfigError("2 problems:\n  a\n  b")), [], catch_exceptions=False)
    assert (result.exit_code, result.output) == (2, "arena: error: 2 problems:\n  a\n  b\n")


def test_a_subcommand_speaks_as_its_voiced_group() -> None:
    group = ArenaGroup("train")
    group.add_command(_raising(UsageError("--keep: must be a positive integer"), "evolve"))
    result = CliRunner().invoke(group, ["evolve"], catch_exceptions=False)
    assert (result.exit_code, result.output) == (2, "arena train: error: --keep: must be a positive integer\n")
    with click.Context(group, info_name="train") as ctx, click.Context(ArenaCommand("evolve"), parent=ctx) as sub:
        assert voice_of(sub) == "arena train"


def _rows(text: str) -> list[tuple[int, str]]:
    return [(int(status), meaning) for status, meaning in
            (line.strip().split(None, 1) for line in text.splitlines()
             if line.strip()[:1].isdigit())]


def _table() -> list[tuple[int, str]]:
    return [(0, "done (whatever the games' results)")] + sorted(
        ((status, meaning) for _, status, meaning in EXIT_STATUSES), key=lambda row: row[0])


def test_the_help_shows_the_table() -> None:
    result = CliRunner().invoke(cli, ["--help"], catch_exceptions=False)
    assert result.exit_code == 0
    assert _rows(result.output.split("Exit statuses:")[1]) == _table()


def test_the_docs_show_the_table() -> None:
    page = (ROOT / "docs" / "README.md").read_text()
    section = page.split("## Exit statuses")[1].split("\n\n")
    table = next(block for block in section if block.startswith("| status"))
    rows = [(int(cells[1]), cells[2]) for cells in
            ([c.strip() for c in line.split("|")] for line in table.splitlines()[2:])]
    assert rows == _table()
