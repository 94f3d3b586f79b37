"""Checkers (English draughts): the rules (``rules``), the board and its PDN squares (``board``), why a path is illegal (``explain``), PDN import and export (``pdn``) and the SVG (``svg``).

Its modules import only the standard library and :mod:`arena.games` (the rules layer)."""
