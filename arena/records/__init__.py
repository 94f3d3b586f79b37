"""Game records: the format, 4 for every game (:mod:`arena.records.seats` and, for a game of two
colours, :mod:`arena.records.format`; published as
``arena/schemas/record.schema.json``), the one reader of records (:mod:`arena.records.reader`), the
log folder store (:mod:`arena.records.logstore`: ``games.jsonl``, ``standings.json``, the lock), the
checker of records and log folders (:mod:`arena.records.check`), the games of a file or folder
(:mod:`arena.records.sources`), any record of any format as one timeline
(:mod:`arena.records.replay`), the accessors every reader uses instead of branching on a record's
format and the upgrade of old records to format 4 (:mod:`arena.records.normal`;
:mod:`arena.records.migrate` rewrites files).

May import: the standard library, :mod:`arena.games`, :mod:`arena.fileio`, :mod:`arena.stats`,
:mod:`arena.errors` and :mod:`arena.limits`.
"""
