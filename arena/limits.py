"""The bounds arena accepts for every number a user can give it (config keys and CLI options), and
the defaults of the clock settings.

One source for each bound, read by the config loader and by the click options alike, so that a
number arena cannot honour is a one-line error up front instead of a crash after the games were
played (an integer past 64 bits cannot even be written to a JSON record).
"""

from __future__ import annotations

#: Any duration in milliseconds (timeLimit, timeMargin, startupTime, moveTimeLimit, increment):
#: seven days, far beyond any real game, far below anything that overflows.
MAX_TIME_MS = 7 * 24 * 3600 * 1000
#: maxMoves and openingPlies.
MAX_MOVES = 100_000
#: gamesPerPair, matches, and `arena match --games`.
MAX_GAMES = 10**9
#: Seeds are recorded in JSON: they must fit a signed 64-bit integer.
MAX_SEED = 2**63 - 1
#: Games played at once (arena.tournament.concurrency caps further by the open-file limit).
MAX_CONCURRENCY = 256
#: The ``concurrency`` a config or --concurrency may ask for (more is refused; above
#: MAX_CONCURRENCY it is accepted and capped, with a note).
MAX_CONFIG_CONCURRENCY = 1_000_000
#: Agents in one tournament, and variables in one agent's ``env`` (each value at most 32 KiB).
MAX_AGENTS = 1000
MAX_ENV_VARS = 256
MAX_ENV_VALUE = 32 * 1024
#: `arena perft --depth`: deeper is not a question anyone can wait for the answer to.
MAX_PERFT_DEPTH = 64

# -- the files arena reads (arena.fileio.files.read_input refuses anything larger, and anything that is not
# -- a regular file: /dev/zero, a FIFO; arena.fileio.jsonfiles.strict_loads bounds what is inside) --

#: Bytes of a state given with `--state` (inline, @FILE or one object on stdin).
MAX_STATE_BYTES = 1 << 20
#: Bytes of a config or hyperparameters file.
MAX_FILE_BYTES = 16 << 20
#: Bytes of an opening book (100,000 openings of a few hundred bytes fit four times over).
MAX_BOOK_BYTES = 64 << 20
#: Bytes of a file of game records (``arena match --out``: one record, an array or JSON lines), of
#: one record in a log folder, of a log folder's ``games.jsonl`` (about 700,000 rows) and of the
#: state files of runs (SPRT, SPSA, TD, evolution). A long game's record is under a megabyte.
MAX_RECORDS_BYTES = 256 << 20
#: Bytes of a ``games.jsonl`` read a piece at a time (``arena standings``: about 13 million rows;
#: its memory is the columns kept, not the file).
MAX_GAMES_LOG_BYTES = 4 << 30
#: Nesting depth of arrays and objects in any JSON file arena reads (its own records nest 6 deep).
MAX_JSON_DEPTH = 64
#: The largest ``turnNumber`` a game state may carry (a book's, a record's, ``--state``'s): far
#: beyond any game, far below what overflows when the game goes on (``MAX_MOVES`` more plies).
MAX_TURN_NUMBER = 10**9


# -- defaults shared by `arena match`, tournament configs, the match engine and arena's own bots --

#: Each side's budget for the whole game (``timeLimit``, ``--time-limit``), in ms.
DEFAULT_TIME_LIMIT_MS = 60_000
#: Grace for OS jitter (``timeMargin``), never added to the budget.
DEFAULT_TIME_MARGIN_MS = 50
#: Uncharged allowance for a bot's first reply (``startupTime``).
DEFAULT_STARTUP_MS = 2_000
#: A human at the terminal needs minutes, not seconds (`arena match ... human`).
DEFAULT_HUMAN_TIME_LIMIT_MS = 600_000
