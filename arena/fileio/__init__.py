"""Files arena reads and writes, safely: no symlink followed below a folder arena owns, nothing
but a regular file replaced, sizes bounded, writes atomic (:mod:`arena.fileio.files`), and strict
JSON reading with bounded depth and no duplicate keys (:mod:`arena.fileio.jsonfiles`).

May import: the standard library, orjson, :mod:`arena.limits` and :mod:`arena.errors` (with the
rules' :func:`arena.games.base.cap_text`). Everything above uses it. :mod:`arena.fileio.fields` holds
the typed readers of config fields that every config loader uses.
"""
