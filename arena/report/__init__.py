"""Self-contained HTML pages of recorded games: a tournament report (``arena report``) and a single
game's viewer (``arena replay --html``).

- :mod:`arena.report.frames`: the boards, as the game registry's SVG renderer draws them, stored
  small (distinct SVG pieces once, each position an edit of the previous one).
- :mod:`arena.report.html`: the page: data, standings, crosstable, terminations, game list.
- :mod:`arena.report.chunks`: a report of many games: the page, and its boards in chunk files
  beside it drawn by worker processes, loaded when a game is opened.
- :mod:`arena.report.viewer`: the page's CSS and the one game viewer's JavaScript, for every game
  (kept as Python strings, so no package data is needed), including the self-test the browser
  test runs; :mod:`arena.report.page_script`: the script of the game list around it.

May import: every layer below the CLI (records, stats, train); the pages are self-contained.
"""

from __future__ import annotations
