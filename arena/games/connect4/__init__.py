"""Connect Four: the rules and notation (``rules``).

Its modules import only the standard library and :mod:`arena.games` (the rules layer)."""
