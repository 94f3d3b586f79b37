#!/usr/bin/env python3
"""A strong Shobu bot: iterative-deepening alpha-beta from arena's search engine.

Unlike the other example bots this one is not standalone: it uses arena's rules and search
(`arena.games`, `arena.agents`), which need only the standard library. It finds them in the
arena checkout it lives in (the folder above bots/), so a plain `python3` (3.11+) works from a
clone; elsewhere, install arena (`pip install arena-bots`) and run it with that Python.

    arena match "python3 bots/shobu_alphabeta.py" "python3 bots/shobu_greedy.py"

Options: --move-time MS (default: the game budget spread over the turns; Shobu sends no clock, so
pass --time-limit MS when the match budget is not 60000 and --max-moves N when the cap is not 60);
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
    sys.exit(run_alphabeta_bot("shobu", sys.argv[1:], name="shobu_alphabeta"))
