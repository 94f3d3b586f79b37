"""The import layers of the arena package (docs/contributing.md, "Layout").

Every module of ``arena`` is read as a syntax tree (nothing is imported), and each ``import`` of
arena's own modules is checked against the layer table below: a module may import its own layer
and the layers below it, never one above. Imports made only for type checking (``if
TYPE_CHECKING:``) count too: a type from a higher layer is a dependency all the same. Two further
rules: the rules package imports only the standard library (and :mod:`arena.limits`), the process
layer knows no game, and only the terminal UI, the report and the CLI import rich.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "arena"

#: Lowest first. A module belongs to the first entry its dotted name starts with.
LAYERS: list[tuple[str, ...]] = [
    ("arena.limits",),
    ("arena.games", "arena.errors"),
    # OpenSpiel's games (the extra arena[openspiel]): the rules layer's adapter over pyspiel.
    ("arena.openspiel",),
    ("arena.fileio", "arena.stats"),
    ("arena.protocols", "arena.process"),
    ("arena.referee",),
    ("arena.records", "arena.agents", "arena.openings"),
    # The public API (issue 35): names re-exported from the layers below, loaded when first used.
    ("arena.api",),
    ("arena.players",),
    ("arena.match",),
    ("arena.backends", "arena.tools"),
    ("arena.tournament", "arena.sprt", "arena.train"),
    ("arena.ui", "arena.report"),
    # `arena serve` (issue 23): web pages over the report's pieces and a log folder, read only.
    ("arena.serve",),
    ("arena.cli", "arena.__main__"),
]
#: Packages and modules allowed to import rich.
RICH_ALLOWED = ("arena.ui", "arena.report", "arena.cli")
#: The most modules the top of the package may hold besides ``__init__`` and ``__main__``.
MAX_LOOSE_MODULES = 4


def layer_of(module: str) -> int | None:
    """The index of ``module``'s layer, or None for the package root (``arena`` itself)."""
    for index, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return index
    return None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str) -> list[tuple[int, str]]:
    """(line, imported module) for every import in ``source``, relative ones resolved."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")[: -node.level]  # a package's __init__ is named as its package
                base = ".".join(anchor + ([base] if base else []))
            if base == "arena":  # `from arena import x`: x may be a module
                found += [(node.lineno, f"arena.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, base))
    return found


def violations(source: str, module: str) -> list[str]:
    """The rule breaks of ``module`` (given as ``source``), one line each."""
    problems: list[str] = []
    own = layer_of(module)
    for line, target in imports_of(source, module):
        top = target.split(".")[0]
        if top == "rich" and not module.startswith(RICH_ALLOWED):
            problems.append(f"{module}:{line} imports rich (only {', '.join(RICH_ALLOWED)} may)")
        if top != "arena":
            continue
        if module.startswith("arena.games") and target.split(".")[1] not in ("games", "limits"):
            problems.append(f"{module}:{line} imports {target}: the rules use the standard library only")
        if module.startswith("arena.process") and target.startswith("arena.games"):
            problems.append(f"{module}:{line} imports {target}: the process layer knows no game")
        theirs = layer_of(target)
        if own is not None and theirs is not None and theirs > own:
            problems.append(f"{module}:{line} imports {target}, a higher layer ({LAYERS[theirs][0]} above "
                            f"{LAYERS[own][0]})")
    return problems


def arena_modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer() -> None:
    unplaced = [module_name(p) for p in arena_modules() if module_name(p) != "arena" and layer_of(module_name(p)) is None]
    assert unplaced == []


def test_no_module_imports_a_higher_layer() -> None:
    problems = [line for path in arena_modules() for line in violations(path.read_text(encoding="utf-8"),
                                                                       module_name(path))]
    assert problems == []


def test_the_top_level_holds_at_most_four_loose_modules() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(loose) <= MAX_LOOSE_MODULES, loose


def test_every_package_says_what_it_holds_and_may_import() -> None:
    silent = [str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("__init__.py")
              if "import" not in (ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) or "")]
    assert silent == []


@pytest.mark.parametrize(("module", "source", "expected"), [
    ("arena.process.spawn", "from arena.games.checkers import CheckersState", "knows no game"),
    ("arena.match.game", "from arena.tournament.runner import run_tournament", "a higher layer"),
    ("arena.players.base", "if TYPE_CHECKING:\n    from arena.match.game import GameClock", "a higher layer"),
    ("arena.records.format", "from rich.text import Text", "imports rich"),
    ("arena.games.shobu", "import arena.fileio.files", "standard library only"),
    ("arena.stats.ratings", "from ..cli import main", "a higher layer"),
])
def test_a_wrong_import_is_caught(module: str, source: str, expected: str) -> None:
    problems = violations(textwrap.dedent(source), module)
    assert problems and any(expected in line for line in problems)


def test_allowed_imports_pass() -> None:
    assert violations("from arena.games.base import Color\nimport trio", "arena.match.game") == []
    assert violations("from rich.console import Console", "arena.ui.console") == []
    assert violations("from arena.limits import MAX_MOVES", "arena.games.base") == []
