"""Arena's own players: the search engine, its game adapters and evaluations, Monte Carlo tree
search for every game (:mod:`arena.agents.mcts`, :mod:`arena.agents.mcts_bot`), the
``hyperparameters`` agent (:mod:`arena.agents.search_bot`), and this layer's parts of each game
(:mod:`arena.agents.parts`: its search adapter, the bot side of its wire dialect).

Everything here imports only the standard library, :mod:`arena.games` and the framer, so the search
bots start quickly and run with any Python 3.11+ that can import arena. Importing this package loads nothing.

May import: the standard library, :mod:`arena.games`, :mod:`arena.fileio`, :mod:`arena.errors`,
:mod:`arena.limits` and :mod:`arena.protocols.framing` (the one framer, for the JSON envelope).
"""
