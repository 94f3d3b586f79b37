"""Statistics over game results, pure functions without I/O: ranked results of any number of seats
(:mod:`arena.stats.results`), the Plackett–Luce ratings with intervals
(:mod:`arena.stats.plackett_luce`), two-player ratings and tables (:mod:`arena.stats.ratings`),
N-seat tables and standings (:mod:`arena.stats.tables`) and the sequential probability ratio test
(:mod:`arena.stats.sprt`).

May import: the standard library, and numpy in :mod:`arena.stats.plackett_luce` alone (the other
modules import it only when a fit is asked for, so reading results and counting faults stays light).
"""
