"""Statistics over game results, pure and standard-library only: ratings with intervals
(:mod:`arena.stats.ratings`) and the sequential probability ratio test (:mod:`arena.stats.sprt`).

May import: the standard library only.
"""
