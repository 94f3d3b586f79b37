"""Generating opening books: distinct positions after a few random plies that the built-in search
scores near balanced (`arena openings`).

A book is JSONL: one state object per line (``{"board", "turn", "turnNumber"}``, as records and the
rules tools write them), which ``--openings FILE`` reads. A candidate is the position after
``plies`` uniformly random legal moves from the start (never a finished game); it is kept when it is
new and the game's search adapter, searching ``depth`` plies (at most :data:`CHECK_TIME_MS` per
position), scores it within ``max_score`` of 0
for the side to move (the adapter's units: in checkers and Shobu 100 is about one piece). Games
without a search adapter keep every distinct position.
"""

from __future__ import annotations

import random
from typing import Any

from arena.games.base import random_opening

#: Distinct candidates scored per position wanted: the book keeps the most balanced quarter.
CANDIDATES_PER_POSITION = 4
#: Random openings drawn per candidate before giving up (a game may not have that many positions).
TRIES_PER_CANDIDATE = 10


#: Thinking time per candidate: the balance check searches to ``depth`` or for this long.
CHECK_TIME_MS = 150


def _scorer(game_name: str, depth: int) -> Any:
    """``score(state) -> int`` from the game's search adapter, or None when it has none."""
    from arena.agents.hyperparameters import search_adapter_class
    from arena.agents.search import Searcher
    from arena.errors import ConfigError
    from arena.games.registry import get_spec

    try:
        adapter = search_adapter_class(get_spec(game_name))({})
    except ConfigError:
        return None
    searcher = Searcher(adapter, rng=random.Random(0))

    def score(state: Any) -> int:
        return int(searcher.search(adapter.from_state(state), time_ms=CHECK_TIME_MS, max_depth=depth).score)

    return score


def generate(game_name: str, *, plies: int, count: int, seed: int = 0, depth: int = 3,
             max_score: int | None = None) -> list[dict[str, Any]]:
    """Up to ``count`` book lines (state objects) for ``game_name``: the ``count`` most balanced of
    up to ``CANDIDATES_PER_POSITION * count`` distinct candidates (by the search's |score|, ties in
    the order found), dropping any beyond ``max_score``. Fewer when the game has fewer distinct
    positions after ``plies`` plies."""
    from arena.games.registry import get_game

    game = get_game(game_name)
    score = _scorer(game_name, depth)
    rng = random.Random(seed)
    seen: set[str] = set()
    candidates: list[tuple[int, int, dict[str, Any]]] = []
    for _ in range(count * CANDIDATES_PER_POSITION * TRIES_PER_CANDIDATE):
        if len(candidates) >= count * CANDIDATES_PER_POSITION:
            break
        state = random_opening(game, plies, rng)
        if game.ply(state) < plies or game.outcome(state) is not None:
            continue  # the game ran out of live moves before the opening's end
        obj = game.state_to_json(state)
        key = repr(obj)
        if key in seen:
            continue
        seen.add(key)
        value = abs(score(state)) if score is not None else 0
        if max_score is None or value <= max_score:
            candidates.append((value, len(candidates), obj))
    candidates.sort(key=lambda item: (item[0], item[1]))
    return [obj for _, _, obj in candidates[:count]]
