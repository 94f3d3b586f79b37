"""Opening books: reading a JSONL book of start positions (:mod:`arena.openings.book`) and
generating one with arena's search (:mod:`arena.openings.generate`, ``arena openings``).

May import: the games, :mod:`arena.fileio`, :mod:`arena.agents` (to score candidate positions) and
:mod:`arena.errors`.
"""
