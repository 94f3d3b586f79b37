"""Shobu: the rules (``rules``), the bitboard move generator (``core``), legality with reasons (``checks``) and the board's SVG (``svg``).

Its modules import only the standard library and :mod:`arena.games` (the rules layer)."""
