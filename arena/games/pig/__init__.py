"""Pig, 2-4 seats, dice: the rules (``rules``) and the SVG (``svg``).

Its modules import only the standard library and :mod:`arena.games` (the rules layer)."""
