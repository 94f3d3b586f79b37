"""Everything drawn on a terminal (the only package besides :mod:`arena.report` and
:mod:`arena.cli` that imports rich).

- :mod:`arena.ui.console`: consoles and the live match view of ``arena match``.
- :mod:`arena.ui.standings`: the live tournament display of ``arena run``.
- :mod:`arena.ui.boards` and :mod:`arena.ui.views`: boards drawn as text.
- :mod:`arena.ui.human`: a person playing at the terminal (registers itself with
  :mod:`arena.players`).
- :mod:`arena.ui.replay_view`: ``arena replay`` in the terminal (full screen and plain text), for
  every game; :mod:`arena.ui.replay_keys`: its key handling (pure).

May import: every layer below the CLI, and rich.
"""
