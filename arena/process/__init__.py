"""A bot as an operating-system process, knowing no game: start it under its own user and cgroup
in its sandbox, move bytes to and from it, freeze it between turns, account for its CPU time and end
it with everything it started.

- :mod:`arena.process.bot`: :class:`BotProcess`, the transport a player drives (start, send, read a
  reply, stop), and the teardown of a bot's every process.
- :mod:`arena.process.replies`: reading one reply from a bot's stdout (framed by
  :mod:`arena.protocols.framing`) within a deadline.
- :mod:`arena.process.command`: how a bot command's words are read (interpreters, scripts).
- :mod:`arena.process.isolation`: the policy (:class:`Isolation`, :class:`BotLimits`) every layer
  passes on, and the bot's environment.
- :mod:`arena.process.confinement`, :mod:`arena.process.botuser`, :mod:`arena.process.cgroups`,
  :mod:`arena.process.sandbox`, :mod:`arena.process.seccomp`, :mod:`arena.process.spawn`: the
  mechanisms (a user per bot, a cgroup per bot, bubblewrap, the start hand-shake).
- :mod:`arena.process.escapees`, :mod:`arena.process.guardian`: nothing a bot started outlives its
  game, or arena.
- :mod:`arena.process.signals`: Ctrl-C, SIGTERM and SIGHUP for every long command.
- :mod:`arena.process.waiting`: whether a bot sleeps reading for more input after reading all of
  it (it cannot reply), told from ``/proc``.

May import: the standard library, trio, :mod:`arena.errors`, :mod:`arena.limits`,
:mod:`arena.fileio` and :mod:`arena.protocols.framing` (the one framer); never a game (a test enforces it).
"""
