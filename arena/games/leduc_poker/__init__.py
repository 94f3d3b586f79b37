"""Leduc poker, N seats: the rules (``rules``) and the SVG (``svg``); its moves come from :mod:`arena.games.kuhn_poker.moves`.

Its modules import only the standard library and :mod:`arena.games` (the rules layer)."""
