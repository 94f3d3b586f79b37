"""Abalone: the rules (``rules``), the hexagonal board and its notation (``board``) and the SVG (``svg``).

Its modules import only the standard library and :mod:`arena.games` (the rules layer)."""
