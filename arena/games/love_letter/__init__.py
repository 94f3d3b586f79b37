"""Love Letter, 2-4 seats: the rules (``rules``), sampling the hidden cards (``determinize``), reading a state object back (``state_json``) and the SVG (``svg``).

Its modules import only the standard library and :mod:`arena.games` (the rules layer)."""
