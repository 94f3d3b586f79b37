"""`python -m arena` and the `arena` console script.

The entry point imports the CLI (trio, click, rich...) only after it is ready for Ctrl-C: an
interrupt while Python is still importing exits with status 130 and one line, not a traceback.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Console-script entry point."""
    try:
        from arena.cli import main as cli_main

        cli_main()
    except KeyboardInterrupt:
        # Only reachable outside trio.run (start-up, argument parsing): inside it the signal
        # watcher in arena.process.signals handles Ctrl-C and flushes results.
        sys.stderr.write("arena: interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
