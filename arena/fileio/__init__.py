"""Files arena reads and writes, safely: no symlink followed below a folder arena owns, nothing
but a regular file replaced, sizes bounded, writes atomic (:mod:`arena.fileio.files`), and strict
JSON reading with bounded depth and no duplicate keys (:mod:`arena.fileio.jsonfiles`).

May import: the standard library, orjson and :mod:`arena.limits`. Everything above uses it.
"""
