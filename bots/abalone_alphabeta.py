#!/usr/bin/env python3
"""A strong Abalone bot: iterative-deepening alpha-beta from arena's search engine, with the
linear evaluation over the Abalone learning program's 14 features (arena/agents/eval_abalone.py, default weights).

Unlike the other example bots this one is not standalone: it uses arena's rules and search
(`arena.games`, `arena.agents`), which need only the standard library. It finds them in the
arena checkout it lives in (the folder above bots/), so a plain `python3` (3.11+) works from a
clone; elsewhere, install arena (`pip install arena-bots`) and run it with that Python.

    arena match --game abalone "python3 bots/abalone_alphabeta.py" "python3 bots/abalone_greedy.py"

Options: --move-time MS (default: a share of the time left, which arena sends every turn;
pass --max-moves N when the cap is not the game's, 200 plies); --depth N, --seed N, --no-table,
--quiet. One line per move on stderr: depth, score, nodes, time.
"""

from __future__ import annotations

import sys
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent
if (_CHECKOUT / "arena" / "__init__.py").is_file():
    sys.path.insert(0, str(_CHECKOUT))

from arena.api import run_alphabeta_bot  # noqa: E402  (needs the path above)

if __name__ == "__main__":
    sys.exit(run_alphabeta_bot("abalone", sys.argv[1:], name="abalone_alphabeta"))
