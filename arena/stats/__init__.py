"""Statistics over game results, pure functions without I/O: ranked results of any number of seats
(:mod:`arena.stats.results`), the Plackett–Luce ratings with intervals
(:mod:`arena.stats.plackett_luce`; what a game's shared places tell them, :mod:`arena.stats.ties`), two-player ratings and tables (:mod:`arena.stats.ratings`;
the same as columns of numpy arrays in :mod:`arena.stats.pair_games`), N-seat tables and standings (:mod:`arena.stats.tables`) and the sequential probability ratio test
(:mod:`arena.stats.sprt`).

May import: the standard library, and numpy in :mod:`arena.stats.plackett_luce`,
:mod:`arena.stats.ties` and :mod:`arena.stats.pair_games` alone (the other modules import those only when a fit is asked for,
so reading results and counting faults stays light).
"""
