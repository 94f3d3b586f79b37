#!/usr/bin/env python3
"""A newcomer's pass: every command of README.md and docs/*.md, run as written in a scratch copy of
the checkout, one table row each (issue 31: "every README and docs command with its result").

Usage: python scripts/newcomer_pass.py [--keep] [--only TEXT] [--timeout S]

The commands are found and run exactly as the docs test finds and runs them
(tests/test_readme_examples.py: every fenced block whatever it is marked, ``make -C`` lines of a
block built first, output folders under /tmp/ put in the scratch copy's own tmp/); the copy holds
the checkout's files (``git ls-files``: tracked and new, not ignored), so nothing a command writes
lands in the checkout. The commands the docs test does not run are listed with their reason.

Prints a Markdown table on stdout: page, command, exit code, seconds, the first line of its output
(stdout, else stderr), then one summary line (commands run, how many failed and which). Exit 0
when every command run exits 0 and prints no traceback, else 1. ``--only TEXT`` runs the commands
containing TEXT; ``--keep`` keeps the scratch copy (its path is printed on stderr).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_readme_examples import PAGES, build, missing_tool, not_run, page_examples, run_example  # noqa: E402

#: How much of a command and of its first line of output a row shows.
COMMAND_CELL = 110
OUTPUT_CELL = 90


def scratch_copy(into: Path) -> Path:
    """The checkout's files (tracked and new, not ignored) copied under ``into``."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    copy = into / "checkout"
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            target = copy / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target, follow_symlinks=False)
    return copy


def cell(text: str, width: int) -> str:
    """``text`` as one Markdown table cell of at most ``width`` characters."""
    text = " ".join(text.split()).replace("|", "\\|")
    return text if len(text) <= width else text[:width - 1] + "…"


def first_line(out: subprocess.CompletedProcess[str]) -> str:
    for stream in (out.stdout, out.stderr):
        line = next((line for line in stream.splitlines() if line.strip()), None)
        if line is not None:
            return line
    return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the scratch copy")
    parser.add_argument("--only", default="", help="run only the commands containing this text")
    parser.add_argument("--timeout", type=float, default=600, help="seconds one command may take")
    args = parser.parse_args()

    scratch = Path(tempfile.mkdtemp(prefix="newcomer-pass-"))
    copy = scratch_copy(scratch)
    tmp = scratch / "tmp"
    tmp.mkdir()
    print(f"scratch copy: {copy}", file=sys.stderr)
    print("| page | command | exit | s | first line of output |\n|---|---|---:|---:|---|")
    failed: list[str] = []
    ran = 0
    skipped: list[tuple[str, str, str]] = []
    started = time.monotonic()
    try:
        for page in PAGES:
            name = str(page.relative_to(ROOT))
            examples, not_here = page_examples(page)
            skipped += [(name, command, not_run(command) or "") for command in not_here]
            for example in examples:
                if args.only not in example.command:
                    continue
                ran += 1
                clock = time.monotonic()
                missing = missing_tool(example.setup) if example.setup else None
                problem = (f"`{missing[0]}` is not installed" if missing else build(example.setup, copy)
                           if example.setup else None)
                if problem is not None:
                    code, line = "-", f"not built: {problem}"
                else:
                    try:
                        _, out = run_example(example, tmp, cwd=copy, timeout=args.timeout)
                        code, line = str(out.returncode), first_line(out)
                        if "Traceback" in out.stderr:
                            line = "TRACEBACK: " + line
                    except subprocess.TimeoutExpired:
                        code, line = "-", f"timed out after {args.timeout:g} s"
                if code != "0" or line.startswith("TRACEBACK"):
                    failed.append(f"{name}: {example.command.partition(chr(10))[0]} (exit {code})")
                print(f"| {name} | `{cell(example.command, COMMAND_CELL)}` | {code} | "
                      f"{time.monotonic() - clock:.1f} | {cell(line, OUTPUT_CELL)} |", flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    print()
    for name, command, why in skipped:
        if args.only in command:
            print(f"- not run: {name}: `{cell(command, COMMAND_CELL)}`: {why}")
    print(f"\n{ran} commands run in {time.monotonic() - started:.0f} s; {len(failed)} failed"
          + "".join(f"\n- FAILED {line}" for line in failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
