"""OpenSpiel's games (the optional extra ``arena[openspiel]``) as games of arena's general model,
named ``spiel:NAME`` (``spiel:hex``, ``spiel:liars_dice``).

:mod:`arena.openspiel.provider` is what the registry asks (it imports pyspiel only when a
``spiel:`` game is asked for or listed); :mod:`arena.openspiel.game` is the adapter.

May import: :mod:`arena.games` and pyspiel (lazily: importing it costs tens of milliseconds and
the extra may be absent); nothing above the rules layer, no trio, click or rich.
"""
