"""Game records: the format (:mod:`arena.records.format`, published as
``arena/schemas/record.schema.json``), the one reader of records (:mod:`arena.records.reader`), the
log folder store (:mod:`arena.records.logstore`: ``games.jsonl``, ``standings.json``, the lock), the
checker of records and log folders (:mod:`arena.records.check`), the games of a file or folder
(:mod:`arena.records.sources`) and any record of any format as one timeline
(:mod:`arena.records.replay`).

May import: the standard library, :mod:`arena.games`, :mod:`arena.fileio`, :mod:`arena.stats`,
:mod:`arena.errors` and :mod:`arena.limits`.
"""
