"""Tools for bot authors that play or query the rules: the rules tools behind ``arena moves``,
``arena perft`` and ``arena pass-through`` (:mod:`arena.tools.rules`) and the conformance report of
``arena check-bot`` (:mod:`arena.tools.check_bot`; games of N seats: :mod:`arena.tools.check_table_bot`,
with the probe positions found in the game itself, :mod:`arena.tools.probes`).

May import: the layers below (games, match, players, records); no rich, no click.
"""
