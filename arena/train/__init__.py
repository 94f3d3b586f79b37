"""Players that learn: TD(lambda) self-play, the evolutionary bootstrap and SPSA tuning.

The learners work on the linear evaluation of arena's built-in search agent. A game takes part
when its search adapter's module (:func:`arena.agents.parts.search_ref`) follows the linear-feature
contract: it exposes ``FEATURE_NAMES`` (weight names of ``DEFAULT_WEIGHTS``) and
``features(position) -> dict[str, float]`` from the side to move's point of view, such that the
adapter's evaluation is ``sum(weights[name] * features[name])`` (over its linear part, where the
module says the evaluation has more).

- :mod:`arena.train.model`: a game's linear model, in-process games between weight vectors, the
  hyperparameters files the learners write;
- :mod:`arena.train.td`: TD(lambda) self-play (``arena train td``);
- :mod:`arena.train.evolve`: the seed's evolutionary bootstrap through tournaments
  (``arena train evolve``);
- :mod:`arena.train.spsa`: SPSA tuning of a hyperparameters file's numbers (``arena tune spsa``).

May import: the tournament and SPRT layers and everything below them; not the UI or the CLI.
"""

from __future__ import annotations
