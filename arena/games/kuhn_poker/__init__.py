"""Kuhn poker, N seats: the rules (``rules``), the poker games' moves and hidden cards (``moves``, shared with Leduc poker) and the SVG (``svg``).

Its modules import only the standard library and :mod:`arena.games` (the rules layer)."""
