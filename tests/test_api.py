"""The public API (:mod:`arena.api`): its names are pinned, each resolves, and what arena ships for
authors to copy (the plugin example, the shipped bots, the docs' Python) imports nothing else."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import arena.api

ROOT = Path(__file__).resolve().parents[1]

#: Changing this list is changing what authors may rely on: say so in the changelog of the commit.
PINNED = [
    "Backend", "BackendOptions", "ClusterError", "GameJob", "run_job", "RankedResult", "Rating", "RatingMethod",
    "SandboxBackend", "SandboxCommand", "SandboxRequest",
    "CHANCE", "Color", "Game", "GameError", "GameSpec", "GeneralGame", "IllegalMoveError",
    "MoveSyntaxError", "Outcome", "Parameter", "Record", "SIMULTANEOUS", "SeatRecord", "StateError",
    "TERMINAL", "Termination", "cap_text", "check_spec", "game_names", "get_spec", "ranks",
    "read_state_fields", "register_referee", "run_alphabeta_bot", "serve_checkers", "serve_json",
    "serve_seats", "show_value",
]


def test_the_names_are_the_pinned_ones() -> None:
    assert sorted(arena.api.__all__) == sorted(PINNED)
    assert len(set(arena.api.__all__)) == len(PINNED)
    assert sorted(dir(arena.api)) == sorted(PINNED)


@pytest.mark.parametrize("name", PINNED)
def test_each_name_resolves(name: str) -> None:
    value = getattr(arena.api, name)
    assert value is not None
    assert getattr(arena.api, name) is value  # the same object on the second lookup


def test_an_unknown_name_is_an_attribute_error_that_lists_the_names() -> None:
    with pytest.raises(AttributeError, match="GeneralGame"):
        arena.api.Nothing  # noqa: B018


def test_importing_it_loads_none_of_the_engine() -> None:
    """A rules plugin imports arena.api while arena lists its games: that must stay cheap."""
    code = ("import sys, arena.api; heavy = [m for m in ('trio', 'arena.agents.search_bot', 'arena.referee',"
            " 'arena.records.types') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def _shipped_python() -> list[Path]:
    files = sorted((ROOT / "bots").glob("*.py")) + sorted((ROOT / "examples").rglob("*.py"))
    return [path for path in files if ".venv" not in path.parts]


def test_shipped_code_imports_arena_only_through_the_api() -> None:
    offending: list[str] = []
    for path in _shipped_python():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            offending += [f"{path.relative_to(ROOT)}:{node.lineno}: {name}" for name in names
                          if (name == "arena" or name.startswith("arena.")) and name != "arena.api"]
    assert offending == []


def test_the_docs_python_imports_arena_only_through_the_api() -> None:
    pattern = re.compile(r"^\s*(?:from (arena(?:\.\w+)*) import|import (arena(?:\.\w+)*))", re.MULTILINE)
    offending: list[str] = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "examples").rglob("*.md"))]:
        for match in pattern.finditer(page.read_text(encoding="utf-8")):
            module = match.group(1) or match.group(2)
            if module != "arena.api":
                offending.append(f"{page.relative_to(ROOT)}: {match.group(0).strip()}")
    assert offending == []
