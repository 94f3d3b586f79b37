"""Tools for bot authors that play or query the rules: the rules tools behind ``arena moves``,
``arena perft`` and ``arena pass-through`` (:mod:`arena.tools.rules`) and the conformance report of
``arena check-bot`` (:mod:`arena.tools.check_bot`, with the probe positions found in the game itself,
:mod:`arena.tools.probes`), one of each for every game; the leaf count is :mod:`arena.tools.perft`.

May import: the layers below (games, match, players, records); no rich, no click.
"""
