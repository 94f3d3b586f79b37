"""One game of any game, with no files: the clocks, the one match loop, the fault reasons and the
record it returns.

- :mod:`arena.match.game`: :func:`play_game`, the one match loop for every game.
- :mod:`arena.match.clock`: :class:`TimeControl` and :class:`GameClock`.
- :mod:`arena.match.progress`: a game as it goes and the record it becomes, per kind of game (the
  wire dialect, the record format), and the observer events, the same for every game.
- :mod:`arena.match.hints`: the likely cause of a bot's loss, added to its fault reason.
- :mod:`arena.match.pairs`: :func:`pair_games`, the one builder of a colour-swapped pair's games
  (colours, opening, recorded seed), used by tournaments, SPRT, SPSA and ``arena match``.

May import: the layers below it (games, process, protocols, records, openings, players). Writing
records to disk is the caller's business (a tournament's log folder, ``arena match --out``).
"""
