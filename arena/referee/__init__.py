"""External rules: a game played by a referee, a program in any language that speaks arena's rules
protocol (version 1, docs/referees.md) over its stdin and stdout.

- :mod:`arena.referee.protocol`: the protocol itself, I/O-free: requests as bytes, replies decoded
  and checked into :class:`~arena.referee.protocol.Info` and :class:`~arena.referee.protocol.Node`
  (every malformed reply is a :class:`~arena.referee.protocol.ReplyError` of one line).
- :mod:`arena.referee.client`: :class:`~arena.referee.client.RefereeClient`, one referee process
  kept for many games (blocking request/response with a deadline, bounded output, restarted after a
  failure, ended when arena exits), the pool of them (one per command per arena process) and
  :class:`~arena.referee.client.RefereeError`, the one exception a referee's failure raises (an
  :class:`arena.errors.ResourceError`: arena's failure, never a bot's).
- :mod:`arena.referee.game`: :class:`~arena.referee.game.ExternalGame`, a
  :class:`arena.games.model.GeneralGame` whose every answer comes from a referee, one round trip
  per step.
- :mod:`arena.referee.registration`: :func:`~arena.referee.registration.register_referee`, which
  asks a referee its name and registers its game (a :class:`arena.games.registry.GameSpec` of the
  general model) for this process.

May import: the standard library, orjson, :mod:`arena.errors`, :mod:`arena.limits`, :mod:`arena.fileio`,
:mod:`arena.games` (the model and the registry) and :mod:`arena.process` (how a command's words are
read); never the engines, the players or anything above them.
"""
