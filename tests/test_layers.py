"""The import layers of the arena package: the one statement of them.

:data:`TABLE` below is the source: docs/contributing.md's table of layers is generated from it
(``python -m tests.test_layers`` rewrites it; a test checks it is current), and arena's package
docstring points there. Every module of ``arena`` is read as a syntax tree (nothing is imported),
and each ``import`` of arena's own modules is checked against the table: a module may import its
own layer and the layers below it, never one above. Imports made only for type checking (``if
TYPE_CHECKING:``) count too: a type from a higher layer is a dependency all the same. So do dotted
strings that name a module (``"arena.protocols.seats:SeatEnvelopeProtocol"``, loaded later by
:func:`arena.games.registry.load_ref`): a string naming a higher layer is allowed only where
:data:`STRING_REFERENCES` lists it, and every such string must name a module that exists. Further
rules: the rules package imports only the standard library (and :mod:`arena.limits`), the process
layer knows no game, arena's own agents import only what :data:`AGENTS_IMPORT` lists (so the search
bots start fast), and only the terminal UI, the report and the CLI import rich.
"""

from __future__ import annotations

import ast
import re
import sys
import textwrap
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "arena"
CONTRIBUTING = PACKAGE.parent / "docs" / "contributing.md"

#: Lowest first: each layer's packages, and what they may import besides the layers below (the
#: docs' words). A module belongs to the first entry its dotted name starts with.
TABLE: list[tuple[tuple[str, ...], str]] = [
    (("arena.limits",), "the standard library"),
    # The seams (issue 35): entry-point groups with their contracts, found through importlib.metadata.
    # OpenSpiel's games (the extra arena[openspiel]): the rules layer's provider of `spiel:` games.
    (("arena.games", "arena.errors", "arena.plugins", "arena.openspiel"),
     ("`games`: the standard library and `limits` only; `plugins`: the standard library and `errors`; "
      "`openspiel`: pyspiel (the extra `arena[openspiel]`), imported only when an OpenSpiel game is asked for")),
    (("arena.fileio", "arena.stats"), "`fileio`: orjson; `stats`: the standard library, and numpy for the fit"),
    (("arena.protocols", "arena.process"), "`protocols`: orjson, no I/O; `process`: trio, never a game"),
    (("arena.referee",), "orjson; an external game's referee program (docs/referees.md)"),
    (("arena.records", "arena.agents", "arena.openings"),
     ("`records`: orjson in replay.py only (the reader, the store and the checks run without a venv: "
      "`scripts/check_logs.py`); `agents`: see below")),
    (("arena.players",), "not rich"),
    (("arena.match",), ""),
    (("arena.backends", "arena.tools"), "Ray only inside the Ray backend, when it is opened"),
    # The public API (issue 35): names re-exported from the layers below (the seams' contracts among
    # them: a backend's), loaded when first used.
    (("arena.api",), "nothing of its own: names of the layers below, loaded when first used"),
    # The run layer (issue 35): the run loop, the one job builder, the lifecycle; schedules sit above.
    (("arena.runs",), "trio; no schedule's package (tournament, sprt, train), no rich, no click"),
    (("arena.tournament", "arena.sprt", "arena.train"), ""),
    (("arena.ui", "arena.report"), "rich"),
    # `arena serve` (issue 23): web pages over the report's pieces and a log folder, read only.
    (("arena.serve",), "starlette and uvicorn (the extra `arena[serve]`); reads a log folder, writes nothing"),
    (("arena.cli", "arena.__main__"), "click, rich; only here are errors turned into exits"),
]
LAYERS: list[tuple[str, ...]] = [packages for packages, _ in TABLE]
#: Packages and modules allowed to import rich.
RICH_ALLOWED = ("arena.ui", "arena.report", "arena.cli")
#: The most modules the top of the package may hold besides ``__init__`` and ``__main__``.
MAX_LOOSE_MODULES = 4
#: What arena's own agents (the search bots, started for every game they play) may import: fast to
#: load, no trio, no rich. Inside a function they may also load what AGENTS_IMPORT_LATER lists.
AGENTS_IMPORT = ("arena.agents", "arena.games", "arena.fileio", "arena.errors", "arena.limits",
                 "arena.protocols.framing")
#: Loaded by the agents only when asked for: an external game's referee (``--rules``).
AGENTS_IMPORT_LATER = ("arena.referee.registration",)
#: The dotted strings by which a module names a higher layer, ``(module, named module)``. A game's
#: parts above the rules (its search adapter, terminal view, protocol dialect) are found by the
#: layers that own them, never named by the rules layer (issue 35); what is left: the conformance
#: check's command line (``python -m arena.games.conformance --rules CMD``) loads the referee's
#: registration when asked for. A new one fails the test, and one that is gone must leave this list.
STRING_REFERENCES: frozenset[tuple[str, str]] = frozenset({
    ("arena.games.conformance", "arena.referee.registration"),
})
#: A string that names an arena module, maybe with an attribute: ``arena.x.y`` or ``arena.x.y:Name``.
DOTTED = re.compile(r"arena(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_][\w.]*)?")


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


def imports_of(source: str, module: str) -> list[tuple[int, str, bool]]:
    """``(line, imported module, inside a function)`` for every import in ``source``, relative ones
    resolved."""
    found: list[tuple[int, str, bool]] = []

    def visit(node: ast.AST, lazy: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name, lazy) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")[: -node.level]  # a package's __init__ is named as its package
                base = ".".join(anchor + ([base] if base else []))
            if base == "arena":  # `from arena import x`: x may be a module
                found.extend((node.lineno, f"arena.{alias.name}", lazy) for alias in node.names)
            else:
                found.append((node.lineno, base, lazy))
        lazy = lazy or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        for child in ast.iter_child_nodes(node):
            visit(child, lazy)

    visit(ast.parse(source), False)
    return found


def string_references(source: str) -> list[tuple[int, str]]:
    """``(line, module)`` for every string constant of ``source`` that names a module of one of
    arena's packages (:data:`DOTTED`; the attribute after a colon left out). Other dotted strings
    (a click context key, ``"arena.read_only"``) are not module names. An f-string that starts
    with one (``f"arena.agents.eval_{name}"``, a module found by name) names the package its whole
    components give (``arena.agents``)."""
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")} | {p.stem for p in PACKAGE.glob("*.py")}
    found: list[tuple[int, str]] = []
    tree = ast.parse(source)
    pieces = {id(part) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for part in node.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            head = str(node.values[0].value).split(":")[0]
            text = head.rpartition(".")[0] if len(node.values) > 1 else head
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in pieces:
            text = node.value
        else:
            continue
        if DOTTED.fullmatch(text) and text.split(":")[0].split(".")[1] in packages:
            found.append((node.lineno, text.split(":")[0]))
    return found


def within(target: str, prefixes: tuple[str, ...]) -> bool:
    return any(target == p or target.startswith(p + ".") for p in prefixes)


def violations(source: str, module: str) -> list[str]:
    """The rule breaks of ``module`` (given as ``source``), one line each."""
    problems: list[str] = []
    own = layer_of(module)
    for line, target, lazy in imports_of(source, module):
        top = target.split(".")[0]
        if top == "rich" and not module.startswith(RICH_ALLOWED):
            problems.append(f"{module}:{line} imports rich (only {', '.join(RICH_ALLOWED)} may)")
        if top != "arena":
            continue
        if module.startswith("arena.games") and target.split(".")[1] not in ("games", "limits"):
            problems.append(f"{module}:{line} imports {target}: the rules use the standard library only")
        if module.startswith("arena.process") and target.startswith("arena.games"):
            problems.append(f"{module}:{line} imports {target}: the process layer knows no game")
        if within(module, ("arena.agents",)) and not within(target, AGENTS_IMPORT) and \
                not (lazy and within(target, AGENTS_IMPORT_LATER)):
            problems.append(f"{module}:{line} imports {target}: the agents import only "
                            f"{', '.join(AGENTS_IMPORT)} (and, inside a function, {', '.join(AGENTS_IMPORT_LATER)})")
        theirs = layer_of(target)
        if own is not None and theirs is not None and theirs > own:
            problems.append(f"{module}:{line} imports {target}, a higher layer ({LAYERS[theirs][0]} above "
                            f"{LAYERS[own][0]})")
    for line, target in string_references(source):
        theirs = layer_of(target)
        if own is not None and theirs is not None and theirs > own and (module, target) not in STRING_REFERENCES:
            problems.append(f"{module}:{line} names {target} by string, a higher layer ({LAYERS[theirs][0]} above "
                            f"{LAYERS[own][0]}), and STRING_REFERENCES does not list it")
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


def upward_string_references() -> set[tuple[str, str]]:
    """``(module, named module)`` for every dotted string naming a higher layer than its module's."""
    found = set()
    for path in arena_modules():
        module = module_name(path)
        for _, target in string_references(path.read_text(encoding="utf-8")):
            own, theirs = layer_of(module), layer_of(target)
            if own is not None and theirs is not None and theirs > own:
                found.add((module, target))
    return found


def test_the_string_references_to_higher_layers_are_exactly_the_listed_ones() -> None:
    assert upward_string_references() == STRING_REFERENCES


def test_every_dotted_string_names_a_module_that_exists() -> None:
    def exists(target: str) -> bool:
        path = PACKAGE.parent.joinpath(*target.split("."))
        return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()

    missing = [f"{module_name(path)}:{line} names {target}" for path in arena_modules()
               for line, target in string_references(path.read_text(encoding="utf-8")) if not exists(target)]
    assert missing == []


def test_the_top_level_holds_at_most_four_loose_modules() -> None:
    loose = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(loose) <= MAX_LOOSE_MODULES, loose


def test_every_package_says_what_it_holds_and_may_import() -> None:
    silent = [str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("__init__.py")
              if "import" not in (ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) or "")]
    assert silent == []


@pytest.mark.parametrize(("module", "source", "expected"), [
    ("arena.process.spawn", "from arena.games.checkers.rules import CheckersState", "knows no game"),
    ("arena.match.game", "from arena.tournament.runner import run_tournament", "a higher layer"),
    ("arena.players.base", "if TYPE_CHECKING:\n    from arena.match.game import GameClock", "a higher layer"),
    ("arena.records.format", "from rich.text import Text", "imports rich"),
    ("arena.games.shobu.rules", "import arena.fileio.files", "standard library only"),
    ("arena.stats.ratings", "from ..cli import main", "a higher layer"),
    ("arena.agents.search", "import trio", ""),  # not arena's: the docs' words (no check) and the next
    ("arena.agents.search", "from arena.process.spawn import spawn", "the agents import only"),
    ("arena.agents.search", "from arena.referee.registration import register_command", "the agents import only"),
    ("arena.games.shobu.rules", 'SPEC = GameSpec(view="arena.cli.main:view")', "names arena.cli.main by string"),
    ("arena.games.shobu.rules", 'SEARCH = "arena.agents.eval_shobu:ShobuSearch"', "names arena.agents.eval_shobu"),
    ("arena.games.registry", 'PROTOCOLS = {"json": "arena.protocols.json_envelope:JsonEnvelopeProtocol"}',
     "names arena.protocols.json_envelope"),
    ("arena.games.registry", 'ref = f"arena.agents.eval_{name}:ADAPTER"', "names arena.agents by string"),
])
def test_a_wrong_import_is_caught(module: str, source: str, expected: str) -> None:
    problems = violations(textwrap.dedent(source), module)
    assert (problems and any(expected in line for line in problems)) if expected else problems == []


def test_allowed_imports_pass() -> None:
    assert violations("from arena.games.base import Color\nimport trio", "arena.match.game") == []
    assert violations("from rich.console import Console", "arena.ui.console") == []
    assert violations("from arena.limits import MAX_MOVES", "arena.games.base") == []
    assert violations("def main():\n    from arena.referee.registration import register_command",
                      "arena.agents.search_bot") == []
    assert violations('DIALECTS = {"json": "arena.protocols.json_envelope:JsonEnvelopeProtocol"}',
                      "arena.protocols") == []
    assert violations('PROVIDERS = {"spiel": "arena.openspiel.provider"}', "arena.games.registry") == []
    assert violations('ref = f"arena.ui.views.{name}"', "arena.ui.views") == []


# -- the docs' table, generated from TABLE -----------------------------------------------------------

BEGIN = "<!-- The layers: generated from tests/test_layers.py by `python -m tests.test_layers`. -->"
END = "<!-- End of the generated layers. -->"


def short(name: str) -> str:
    return f"`{name.removeprefix('arena.')}`"


def layers_markdown() -> str:
    """docs/contributing.md's table of layers and its rules, from :data:`TABLE` and the constants."""
    rows = [f"| {n} | {', '.join(short(p) for p in packages)} | {words} |".replace(" |  |", " | |")
            for n, (packages, words) in enumerate(TABLE, 1)]
    agents = ", ".join(short(p) for p in AGENTS_IMPORT if p != "arena.agents")
    later = ", ".join(short(p) for p in AGENTS_IMPORT_LATER)
    by_string = ", ".join(sorted({short(target) for _, target in STRING_REFERENCES}))
    return "\n".join([
        BEGIN,
        "| layer | packages | may import besides the layers below |",
        "|---|---|---|",
        *rows,
        "",
        textwrap.fill(f"`agents` imports only {agents} (so the search bots start fast), and inside a function "
        f"{later} (an external game's referee, with `--rules`). A dotted string that names a module "
        "(`\"arena.protocols.seats:SeatEnvelopeProtocol\"`, loaded later) counts as an import. A game's parts "
        "above the rules (search adapter, terminal view, protocol dialect) are found by the layers that own "
        f"them; {len(STRING_REFERENCES)} higher module is named by a lower one so ({by_string}), listed in "
        "`STRING_REFERENCES`, and a new one fails the test.", 100, break_on_hyphens=False),
        "",
        textwrap.fill("The test fails when a lower layer imports a higher one, when `games` imports anything but the "
        "standard library and `limits`, when `process` imports a game, when `agents` imports beyond its "
        "list, when a dotted string names a module that does not exist, or when anything outside "
        f"{', '.join(short(p) for p in RICH_ALLOWED)} imports rich. At most {MAX_LOOSE_MODULES} loose "
        "modules sit at the top of `arena/`.", 100, break_on_hyphens=False),
        END,
    ])


def generated_part(text: str) -> str:
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[start:end]


def test_the_docs_table_is_generated_from_this_one() -> None:
    text = CONTRIBUTING.read_text(encoding="utf-8")
    assert generated_part(text) == layers_markdown(), "run `python -m tests.test_layers` to rewrite it"


def test_the_docs_layout_names_every_package() -> None:
    layout = CONTRIBUTING.read_text(encoding="utf-8").split("```")[1]
    packages = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
    assert [p for p in packages if f"\n  {p}/" not in layout] == []


def test_the_package_docstring_points_at_the_one_table() -> None:
    import arena

    assert "docs/contributing.md" in (arena.__doc__ or "") and "games; errors" not in (arena.__doc__ or "")


def main() -> int:
    """Rewrite docs/contributing.md's generated table of layers from :data:`TABLE`."""
    text = CONTRIBUTING.read_text(encoding="utf-8")
    CONTRIBUTING.write_text(text.replace(generated_part(text), layers_markdown()), encoding="utf-8")
    print(f"rewrote the layers of {CONTRIBUTING.relative_to(PACKAGE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
