"""The run layer: what every run of many games shares, whatever decides its games.

A tournament, a league, an SPRT and an SPSA tuning are schedules; this package plays them:

- :mod:`arena.runs.loop`: :func:`play_schedule`, the one run loop (a fixed or adaptive schedule
  played by a pool of workers).
- :mod:`arena.runs.jobs`: :func:`game_job`, the one builder of the :class:`arena.backends.GameJob`
  a backend plays, from a run's :class:`GameSetting`, the seats and the opening.
- :mod:`arena.runs.lifecycle`: a run's set-up and its end: the set-up notes, play under signal
  handling with the final flush shielded, and stop signals that exit at once outside play.

May import: the backends, the match and process layers and below; never a schedule's package
(tournament, sprt, train), which hand their runs to this one, nor rich or click.
"""
