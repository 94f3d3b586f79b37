"""SPRT runs: NEW against OLD in colour-swapped pairs until a bound is crossed
(:mod:`arena.sprt.run`, ``arena sprt``), and the settings of a tournament config with an ``sprt``
key (:mod:`arena.sprt.config`, ``arena run``).

May import: the layers below (match, backends, records, openings, stats) and the tournament config
and log-folder helpers it shares with tournaments.
"""
