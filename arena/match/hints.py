"""Hints added to fault reasons: the likely cause of a bot's loss, in words its author can act on.

- A timeout with nothing at all on the bot's stdout is almost always an unflushed reply.
- A reply that is a well-formed move of another registered game, or a crash right at the start by a
  bot whose command names another game, most likely means the wrong ``--game``.
- A bot alive, silent, and asleep reading for more input after arena's whole message is either a
  bot of another game or protocol, or one that did not flush its reply: the first is named first.

Pure functions over the registry; they never raise (a hint is a courtesy, not a verdict).
"""

from __future__ import annotations

import re

from arena.games.base import GameError
from arena.protocols import quote_raw

FLUSH_HINT = ("; nothing at all arrived on its stdout: if it printed a move, it probably did not flush it "
              "(Python: print(..., flush=True); C: fflush(stdout); Java: System.out.flush())")


def timeout_hint(partial: bytes) -> str:
    """What to add to a timeout's reason, given the bytes the bot had sent of its reply."""
    if not partial:
        return FLUSH_HINT
    if partial.strip():
        return (f"; it had sent only {quote_raw(partial)}, not a whole reply "
                "(a line protocol's reply ends with a newline; a JSON reply is one complete object)")
    return ""


def waiting_hint(game_name: str, command: str | None) -> str:
    """For a bot that read all of its input and waits for more (:mod:`arena.process.waiting`): the
    wrong game or protocol first (what arena sent; its command naming another game), then an
    unflushed reply, the two causes of a bot that cannot reply."""
    from arena.games.registry import get_spec

    try:
        spec = get_spec(game_name)
        sent = f"a {spec.name} position in arena's {spec.protocol} protocol"
    except GameError:
        sent = f"a {game_name} position"
    named = command_hint(game_name, command)  # "; its command names X: was --game X meant?"
    return (f"; it is alive but waiting for input it will not get: is it a bot for another game or protocol? "
            f"arena sent it {sent} (see 'arena games'){named or '.'} If not, it printed its move without "
            "flushing it (Python: print(..., flush=True); C: fflush(stdout); Java: System.out.flush())")


def _other_games(game_name: str) -> list[str]:
    from arena.games.registry import game_names

    try:
        return [name for name in game_names() if name != game_name]
    except GameError:
        return []


def reply_hint(game_name: str, raw: bytes) -> str:
    """``"; it reads as a <game> move: was --game <game> meant?"`` when ``raw`` is a well-formed move
    of another registered game speaking a different protocol, else ``""``."""
    from arena.games.registry import get_spec
    from arena.protocols import protocol_for

    try:
        own = get_spec(game_name).protocol
    except GameError:
        return ""
    for name in _other_games(game_name):
        try:
            spec = get_spec(name)
            if spec.protocol == own:
                continue  # the same wire dialect: its moves say nothing about the game meant
            wire = protocol_for(name).decode_reply(raw)
            spec.rules_object().parse_move(wire)
        except Exception:  # noqa: BLE001, S112 - not that game's move (or a broken plugin): no hint
            continue
        return f"; it reads as a {name} move: was --game {name} meant?"
    return ""


def command_hint(game_name: str, command: str | None) -> str:
    """``"; its command names <game>: was --game <game> meant?"`` when the bot's command names another
    registered game (as a word: ``checkers_random.py``) and not this one, else ``""``."""
    if not command:
        return ""
    words = set(re.split(r"[^a-z0-9]+", command.lower()))
    if game_name in words:
        return ""
    for name in _other_games(game_name):
        if name in words:
            return f"; its command names {name}: was --game {name} meant?"
    return ""


def stdout_noise_hint(good_replies: int) -> str:
    """For a malformed reply after ``good_replies`` well-formed ones: likely stray output on stdout."""
    if good_replies <= 0:
        return ""
    return (f"; its {good_replies} earlier repl{'y was' if good_replies == 1 else 'ies were'} fine: is it "
            "writing something besides its moves on stdout? Debug output belongs on stderr")
