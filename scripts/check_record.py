#!/usr/bin/env python3
"""`arena check-record` without installing arena (see `arena check-record --help`).

Usage: check_record.py FILE...   (each file holds one record or a JSON array of records)
Exit status 0 when everything checks out, 1 otherwise (one line per problem on stdout), 2 for an
input that is not records. Needs only the standard library: the repository goes on
sys.path, so any Python 3.11+ runs it from a checkout, in a venv or not.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.errors import show_arena_warnings
from arena.records.check import run_check_record


def main(argv: list[str]) -> int:
    show_arena_warnings()
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if not argv else sys.stdout)
        return 2 if not argv else 0
    return run_check_record([Path(a) for a in argv], sys.stdout, sys.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
