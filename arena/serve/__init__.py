"""``arena serve LOGDIR``: a local web page of a tournament's log folder that everyone can watch.

- :mod:`arena.serve.folder`: the folder read only, never written: its finished games and
  standings, re-read when ``games.jsonl`` or ``standings.json`` change (size, mtime, inode).
- :mod:`arena.serve.live`: the games in progress, from the run's ``live/`` files
  (:mod:`arena.tournament.live`), each read from where the last look stopped.
- :mod:`arena.serve.agents`: one agent's games, versions, results by opponent and faults; pure
  functions over ``games.jsonl`` rows.
- :mod:`arena.serve.pages`: the HTML of the leaderboard, the live fragments, an agent's page, a
  game in progress and one game in the report's viewer.
- :mod:`arena.serve.app`: the ASGI app (Starlette): the pages and ``/events``, the server-sent
  events that push new standings, the latest games and the moves of the games in progress.

The server (uvicorn) and Starlette come with the extra ``arena[serve]``; only the CLI's ``serve``
command imports this package.

May import: every layer below the CLI (records, stats, tournament, report) and Starlette.
"""

from __future__ import annotations
