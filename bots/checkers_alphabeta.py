#!/usr/bin/env python3
"""A strong Checkers bot: iterative-deepening alpha-beta from arena's search engine.

Unlike the other example bots this one is not standalone: it uses arena's rules and search
(`arena.games`, `arena.agents`), which need only the standard library. It finds them in the
arena checkout it lives in (the folder above bots/), so a plain `python3` (3.11+) works from a
clone; elsewhere, install arena (`pip install arena-bots`) and run it with that Python.

    arena match --game checkers "python3 bots/checkers_alphabeta.py" "python3 bots/checkers_greedy.py"

Options: --move-time MS (default: a share of the time left, which arena sends every turn;
pass --max-moves N when the cap is not 100 plies);
--depth N, --seed N, --no-table, --quiet. One line per move on stderr: depth, score, nodes, time.
"""

from __future__ import annotations

import sys
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent
if (_CHECKOUT / "arena" / "__init__.py").is_file():
    sys.path.insert(0, str(_CHECKOUT))

from arena.api import run_alphabeta_bot  # noqa: E402  (needs the path above)

if __name__ == "__main__":
    sys.exit(run_alphabeta_bot("checkers", sys.argv[1:], name="checkers_alphabeta"))
