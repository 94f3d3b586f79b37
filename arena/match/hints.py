"""Hints added to fault reasons: the likely cause of a bot's loss, in words its author can act on.

- A timeout with nothing at all on the bot's stdout, on its first move, is almost always an unflushed
  reply; after replies that arrived, its clock ran out while it thought.
- A malformed reply is most often something else printed on stdout: debug output belongs on stderr.
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


def timeout_hint(partial: bytes, good_replies: int = 0) -> str:
    """What to add to a timeout's reason, given the bytes the bot had sent of its reply and how many
    of its replies in this game had arrived before (then it does flush: it ran out of time)."""
    if not partial and good_replies > 0:
        earlier = f"its {good_replies} earlier repl{'y' if good_replies == 1 else 'ies'} arrived"
        return (f"; its clock ran out while it was thinking ({earlier}, so it does flush its moves): "
                "it needs less time per move, or a longer --time-limit")
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
    named = command_hint(game_name, command)  # "; its command names X: was --game X meant?"
    return (f"; it is alive but waiting for input it will not get: is it a bot for another game or protocol? "
            f"arena sent it {_sent(game_name)} (see 'arena games'){named or '.'} If not, it printed its move "
            "without flushing it (Python: print(..., flush=True); C: fflush(stdout); Java: System.out.flush())")


def first_crash_hint(game_name: str, command: str | None) -> str:
    """For a bot that died on arena's first message: the game its command names (:func:`command_hint`),
    else the question whether it plays another game, saying what arena sent."""
    return command_hint(game_name, command) or (
        f"; it died on arena's first message, {_sent(game_name)}: if it is a bot for another game, "
        "give --game (see 'arena games')")


def _sent(game_name: str) -> str:
    """What arena sends a bot of ``game_name``: ``a shobu position in arena's shobu protocol``."""
    from arena.games.registry import get_spec

    try:
        spec = get_spec(game_name)
    except GameError:
        return f"a {game_name} position"
    return f"a {spec.name} position in arena's {spec.protocol} protocol"


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


def names_game(command: str, game_name: str) -> bool:
    """Whether ``command`` names ``game_name`` as a word of its own (``checkers_random.py``,
    ``bots/kuhn_poker/bot``: letters and digits around it end the word, ``_``, ``-``, ``/`` do not)."""
    return re.search(rf"(?<![a-z0-9]){re.escape(game_name.lower())}(?![a-z0-9])", command.lower()) is not None


def games_named(command: str) -> list[str]:
    """The registered games that ``command`` names (:func:`names_game`), in the registry's order;
    the longest wins where one name holds another (``leduc_poker`` hides a game named ``poker``)."""
    from arena.games.registry import all_game_names

    try:
        names = [name for name in all_game_names() if names_game(command, name)]
    except GameError:
        return []
    return [name for name in names if not any(name != other and names_game(other, name) for other in names)]


def command_hint(game_name: str, command: str | None) -> str:
    """``"; its command names <game>: was --game <game> meant?"`` when the bot's command names another
    registered game (as a word: ``checkers_random.py``) and not this one, else ``""``."""
    if not command or names_game(command, game_name):
        return ""
    for name in games_named(command):
        if name != game_name:
            return f"; its command names {name}: was --game {name} meant?"
    return ""


def stdout_noise_hint(good_replies: int) -> str:
    """For a malformed reply after ``good_replies`` well-formed ones: likely stray output on stdout
    (on its first reply too: a greeting or a debug line printed before the move)."""
    if good_replies <= 0:
        return ("; its stdout must carry only its moves: is it printing something else there (a greeting, "
                "a debug line)? Debug output belongs on stderr (Python: print(..., file=sys.stderr))")
    return (f"; its {good_replies} earlier repl{'y was' if good_replies == 1 else 'ies were'} fine: is it "
            "writing something besides its moves on stdout? Debug output belongs on stderr")
