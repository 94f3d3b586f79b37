"""Every command of the README and of every docs/ page runs verbatim from the repository root (issue
10, item 6; issue 19 for the docs; issue 31: whatever its block is marked).

Every fenced block is read (```sh, ```text or unmarked alike; ```json, ```python and ```toml hold no
commands). A command is a line that starts with ``arena `` or ``cd DIR && arena `` (a ``$ `` prompt
is dropped; a line ending in ``\\`` continues on the next; a ``<<'WORD'`` here-document takes the
lines up to ``WORD``). A trailing ``  # comment`` is dropped, and a comment that is just a number is
the output the command must print; paths under /tmp/ go to the test's own temporary folder. A
``make -C examples/...`` line builds what the later commands of its block need: it runs before each
of them. Commands that cannot run here are in :data:`NOT_RUN`, each with its reason, and every
entry there must still match a line of the docs.
"""

from __future__ import annotations

import fcntl
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Commands of the docs that are not run here, with why (each pattern must match some line).
NOT_RUN: dict[str, str] = {
    r"^make (run|test)\b": "the whole default tournament, or this test suite itself",
    r"^pip install": "installs packages (tests/test_plugin_example.py installs the example plugin)",
    r"--game tictactoe": "needs the example plugin installed (tests/test_plugin_example.py plays it)",
    r"--rating weng-lin": "needs the example rating plugin installed (tests/stats/test_openskill_example.py "
                          "installs it and runs the command as written)",
    r"--sandbox-backend unshare": "needs the example sandbox plugin installed (tests/engine/test_unshare_sandbox.py "
                                  "plays it)",
    r"\bhuman\b": "needs a person at the terminal",
    r"my_bot": "a bot of your own",
    r"--backend ray": "needs a Ray cluster (tests/ray runs the Ray backend)",
    r"^arena serve\b": "serves until interrupted (tests/serve runs it)",
    r"^arena run (configs/|examples/checkers-system-tournament\.json)": "plays for minutes",
    r"^arena run bench/ratings/": "real tournaments of 240 games each (docs/ratings.md), minutes each",
    r"^arena sprt \"python3 bots/checkers_alphabeta": "an SPRT of search bots plays for minutes",
    r"^arena sprt \"python3 bots/leduc_poker_heuristic": "exits 3 (H0 accepted) by design; tests/cli/test_sprt_leduc.py "
                                                      "runs it as written",
}

#: The pages whose commands run: the README and every page under docs/.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```([\w-]*)\n(.*?)^```", re.DOTALL | re.MULTILINE)
NO_COMMANDS = {"json", "python", "toml"}
COMMAND = re.compile(r"^(cd [\w./-]+ && )?arena ")
SETUP = re.compile(r"^make -C examples/[\w./-]+")
HEREDOC = re.compile(r"<<-?'?(\w+)'?")


@dataclass(frozen=True)
class Example:
    """One command of a page, what it must print (a number, or None), and the ``make`` lines of its
    block that come before it."""

    command: str
    expected: str | None
    setup: tuple[str, ...] = ()


def block_lines(block: str) -> list[str]:
    """The block's logical lines: prompts dropped, continuations joined, here-documents kept whole."""
    lines, raw = [], block.splitlines()
    i = 0
    while i < len(raw):
        line = raw[i].removeprefix("$ ")
        while line.endswith("\\") and i + 1 < len(raw):
            i += 1
            line = line[:-1].rstrip() + " " + raw[i].strip()
        heredoc = HEREDOC.search(line)
        if heredoc and COMMAND.match(line):
            end = next((j for j in range(i + 1, len(raw)) if raw[j].strip() == heredoc.group(1)), len(raw) - 1)
            line = "\n".join([line, *raw[i + 1:end + 1]])
            i = end
        lines.append(line)
        i += 1
    return lines


def split_comment(line: str) -> tuple[str, str | None]:
    """The command without its trailing comment, and the number the comment says it prints."""
    first, newline, rest = line.partition("\n")
    command, _, comment = first.partition("  #")
    expected = comment.strip().split()[0] if comment.strip() else None
    return command.strip() + newline + rest, expected if expected and expected.isdigit() else None


def not_run(command: str) -> str | None:
    return next((why for pattern, why in NOT_RUN.items() if re.search(pattern, command)), None)


def page_examples(page: Path) -> tuple[list[Example], list[str]]:
    """The commands of ``page`` that run, and those that do not (:data:`NOT_RUN`)."""
    run: list[Example] = []
    skipped: list[str] = []
    for language, block in BLOCK.findall(page.read_text()):
        if language in NO_COMMANDS:
            continue
        setup: list[str] = []
        for line in block_lines(block):
            command, expected = split_comment(line)
            if SETUP.match(command):
                setup.append(command)
            elif COMMAND.match(command) or command.startswith(("make ", "pip ")):
                if not_run(command):
                    skipped.append(command)
                else:
                    run.append(Example(command, expected, tuple(setup)))
    return run, skipped


EXAMPLES = list(dict.fromkeys(e for page in PAGES for e in page_examples(page)[0]))
SKIPPED = [c for page in PAGES for c in page_examples(page)[1]]


def test_the_readme_and_docs_have_runnable_examples() -> None:
    assert len(page_examples(ROOT / "README.md")[0]) >= 3
    assert len(EXAMPLES) >= 40, EXAMPLES


@pytest.mark.parametrize("pattern", list(NOT_RUN))
def test_every_command_not_run_is_still_in_the_docs(pattern: str) -> None:
    assert any(re.search(pattern, command) for command in SKIPPED), f"{pattern!r} matches no command of the docs"


def test_commands_are_found_whatever_their_block_is_marked() -> None:
    page = "```\n$ arena games --json\nNAME\n```\n```text\narena perft --game connect4 \\\n    --depth 2  # 49\n```\n" \
           "```sh\n$ arena --json-pass-through <<'JSON'\n{\"a\": 1}\nJSON\n{\"b\": 2}\n```\n" \
           "```json\narena not a command\n```\n"
    examples = [e for _, block in BLOCK.findall(page) for e in block_lines(block)]
    assert [split_comment(e) for e in examples if COMMAND.match(e)] == [
        ("arena games --json", None), ("arena perft --game connect4 --depth 2", "49"),
        ("arena --json-pass-through <<'JSON'\n{\"a\": 1}\nJSON", None), ("arena not a command", None)]


def missing_tool(setup: tuple[str, ...]) -> tuple[str, str] | None:
    """``(tool, line)``: a tool a ``make -C`` line of ``setup`` needs that is not installed, else None."""
    for line in setup:
        for tool in ("make", "javac" if "java" in line else "cc"):
            if shutil.which(tool) is None:
                return tool, line
    return None


def build(setup: tuple[str, ...], cwd: Path = ROOT) -> str | None:
    """Runs ``setup`` (``make -C examples/...``) in ``cwd``, one process at a time (make skips what
    is built); None, or why a line failed (one line with the end of its stderr)."""
    lock_path = cwd / "build" / ".docs-lock"
    lock_path.parent.mkdir(exist_ok=True)
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for line in setup:
            done = subprocess.run(["bash", "-c", line], cwd=cwd, capture_output=True, text=True, timeout=600,
                                  check=False, stdin=subprocess.DEVNULL)
            if done.returncode != 0:
                return f"{line}: exit {done.returncode}: {done.stderr[-500:]}"
    return None


def run_example(example: Example, tmp: Path, cwd: Path = ROOT, timeout: float = 600) -> tuple[str, subprocess.CompletedProcess[str]]:
    """``(the command as run, its result)``: ``example`` run by bash in ``cwd`` with this Python's
    ``arena`` first on the PATH. Output folders the docs put under /tmp go to ``tmp``: a folder left
    there by an earlier run (of other settings) would make a resumable command refuse it."""
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    command = example.command.replace(" /tmp/", f" {tmp}/")
    return command, subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=cwd, env=env,
                                   stdin=subprocess.DEVNULL, timeout=timeout, check=False)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.command.partition("\n")[0] for e in EXAMPLES])
def test_a_docs_example_runs_verbatim(example: Example, tmp_path: Path) -> None:
    if example.setup:
        missing = missing_tool(example.setup)
        if missing is not None:
            pytest.skip(f"SKIPPED LOUDLY: `{missing[0]}` is not installed, so `{missing[1]}` cannot build")
        failed = build(example.setup)
        assert failed is None, failed
    command, out = run_example(example, tmp_path)
    assert out.returncode == 0, f"{command}: exit {out.returncode}: {out.stderr[-500:]}"
    assert "Traceback" not in out.stderr
    if example.expected is not None:
        assert example.expected in out.stdout + out.stderr, f"{command} did not print {example.expected}"
    # An arena command, maybe between others (``cd bots && arena match ... && cd ..``).
    assert any(shlex.split(part)[:1] == ["arena"] for part in command.partition("\n")[0].split("&& ")), command


def test_the_shipped_example_configs_load() -> None:
    from arena.tournament.config import load_config

    config = load_config(ROOT / "examples" / "checkers-system-tournament.json")
    assert [a.id for a in config.agents] == ["hyp1", "bot2"] and config.game == "checkers"
