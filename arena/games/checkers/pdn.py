"""Checkers records as PDN (Portable Draughts Notation), the format draughts software exchanges.

Standard library only. :func:`record_to_pdn` is checkers' ``GameSpec.pdn`` (``arena export --pdn``):
one game record (either record format: with the random opening in ``turns``, or starting after it)
becomes one PDN game::

    [Event "arena match"]
    [Site "?"]
    [Date "2026.11.22"]
    [Round "1"]
    [Black "greedy"]
    [White "random"]
    [Result "1-0"]
    [GameType "21"]
    [PlyCount "57"]
    [Termination "normal"]
    [ArenaTermination "no_legal_moves"]
    [ArenaReason "WHITE has no legal move: all its pieces are blocked"]

    1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17x10x1 ... 1-0

Conventions (English draughts / American checkers, as CheckerBoard and the PDN standard write it):

- Squares are the standard numbers 1-32: square 1 is on Black's side (arena's row 0, column 1),
  Black's men start on 1-12 and move first, White's on 21-32. Arena's own numbering is this one
  (``arena.games.checkers.rules.square_number``), so a move is written exactly as ``describe_move`` does:
  ``11-15`` for a step, ``22x15x8`` for a capture listing every landing square.
- Each move number holds Black's move then White's (``1. 11-15 23-19``). A game set up with White to
  move starts with ``1... 22-18``.
- ``Result`` names the first player's score first, and Black moves first: ``1-0`` Black won, ``0-1``
  White won, ``1/2-1/2`` a draw (arena's move cap included), ``*`` an interrupted game. A game lost
  by a fault (timeout, crash, illegal or malformed reply) has its result and the moves played
  before the fault; ``Termination`` (PGN's words) and ``ArenaTermination``/``ArenaReason`` (the
  record's) say why it ended.
- ``GameType "21"`` is English draughts. A game that does not start from the standard position
  (a record written before the random opening was kept in ``turns``, or a game set up from a
  position) has ``[SetUp "1"]`` and ``[FEN "B:W21,...,K30:B1,..."]`` (side to move, White's then
  Black's squares, ``K`` before a king).
- Movetext lines are at most :data:`LINE_WIDTH` columns; a move number stays with its move.
  ``ArenaOpeningPlies`` counts the random opening plies at the start of the movetext.

Unknown tags are to be ignored by PDN readers (as PGN's are); pydraughts reads every game this
module writes (``tests/games/test_checkers_pdn.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from arena.games.base import Color, GameError, cap_text
from arena.games.checkers.rules import CheckersGame, CheckersMove, CheckersState

#: PDN's GameType for English draughts (American checkers).
GAME_TYPE = "21"
#: Movetext line width (PGN's export format keeps lines under 80 columns).
LINE_WIDTH = 79
#: PGN caps a tag value at 255 characters.
TAG_VALUE_LIMIT = 255
DEFAULT_EVENT = "arena match"

# PGN's Termination tag words for arena's terminations (an unknown one is left out).
_PGN_TERMINATION = {
    "win": "normal",
    "no_legal_moves": "normal",
    "draw": "normal",
    "max_moves": "adjudication",
    "resign": "normal",
    "timeout": "time forfeit",
    "illegal_move": "rules infraction",
    "malformed_reply": "rules infraction",
    "crash": "abandoned",
    "memory_limit": "abandoned",
    "output_limit": "rules infraction",
    "interrupted": "unterminated",
}
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_FEN_SIDE = re.compile(r"([WB])((?:K?\d{1,2}(?:,K?\d{1,2})*)?)\Z")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")

_GAME = CheckersGame()


class PdnError(GameError):
    """A record that cannot be written as PDN (not a checkers record, or moves that do not follow
    from its states); the message names the field or the ply."""


# -- positions ---------------------------------------------------------------------------------------


def state_to_fen(state: CheckersState) -> str:
    """The PDN FEN of ``state``: ``"B:W21,22,K30:B1,5"`` (side to move, White's squares, Black's;
    ``K`` marks a king; squares in increasing order)."""

    def side(letter: str, mask: int) -> str:
        squares = [("K" if state.kings >> i & 1 else "") + str(i + 1) for i in range(32) if mask >> i & 1]
        return letter + ",".join(squares)

    turn = "B" if state.turn is Color.BLACK else "W"
    return f"{turn}:{side('W', state.white)}:{side('B', state.black)}"


def fen_to_state(fen: str, turn_number: int = 0) -> CheckersState:
    """The position a PDN FEN describes (the inverse of :func:`state_to_fen`; the two colours in
    either order, squares in any order). Raises :class:`PdnError` naming what is wrong."""
    text = fen.strip().strip('"')
    parts = text.split(":")
    if len(parts) != 3 or parts[0] not in ("B", "W"):
        raise PdnError(f"FEN {cap_text(fen, 60)!r}: expected 'B|W:W<squares>:B<squares>'")
    masks = {"W": 0, "B": 0}
    kings = 0
    seen = set()
    for part in parts[1:]:
        match = _FEN_SIDE.match(part.replace(" ", ""))
        if match is None or match.group(1) in seen:
            raise PdnError(f"FEN {cap_text(fen, 60)!r}: {part!r} is not a colour letter and its squares")
        seen.add(match.group(1))
        for item in filter(None, match.group(2).split(",")):
            number = int(item.lstrip("K"))
            if not 1 <= number <= 32:
                raise PdnError(f"FEN {cap_text(fen, 60)!r}: square {number} is not in 1-32")
            bit = 1 << (number - 1)
            if (masks["W"] | masks["B"]) & bit:
                raise PdnError(f"FEN {cap_text(fen, 60)!r}: square {number} is given twice")
            masks[match.group(1)] |= bit
            if item.startswith("K"):
                kings |= bit
    turn = Color.BLACK if parts[0] == "B" else Color.WHITE
    return CheckersState(masks["B"], masks["W"], kings, turn, turn_number)


def is_standard_start(state: CheckersState) -> bool:
    """True when ``state`` is the standard starting position with Black to move (the move
    counter aside): a PDN game from there needs no FEN."""
    start = _GAME.initial_state()
    return state[:4] == start[:4]


# -- the record --------------------------------------------------------------------------------------


def record_to_pdn(record: dict[str, Any], *, event: str | None = None) -> str:
    """One checkers game record as PDN text (tags, a blank line, the movetext ending with the
    result), ending with a newline. ``event`` is the ``Event`` tag (the tournament's id; default
    ``"arena match"``).

    The moves are replayed from ``game_states[0]`` and checked (each legal, the last position equal
    to the record's final state), so what is written is a game other software can replay. Raises
    :class:`PdnError` naming the problem for a record that is not a consistent checkers record.
    """
    if not isinstance(record, dict):
        raise PdnError(f"a record is a JSON object, got {type(record).__name__}")
    start, moves = _replay(record)
    opening = sum(1 for turn in record.get("turns") or () if isinstance(turn, dict) and turn.get("opening") is True)
    tags = _tags(record, start, len(moves), opening, event)
    lines = [f'[{name} "{_tag_value(value)}"]' for name, value in tags]
    result = _result(record)
    movetext = _wrap(_move_tokens(start, moves) + [result], LINE_WIDTH)
    return "\n".join(lines) + "\n\n" + "\n".join(movetext) + "\n"


def records_to_pdn(records: Iterable[dict[str, Any]], *, event: str | None = None) -> str:
    """Several games, one after the other, separated by a blank line (a PDN file)."""
    return "\n".join(record_to_pdn(record, event=event) for record in records)


def _replay(record: dict[str, Any]) -> tuple[CheckersState, list[tuple[CheckersState, CheckersMove]]]:
    """``(start, [(state before, move), ...])`` from the record's states and turns, each move
    checked legal and the last position checked against the record's last state."""
    states, turns = record.get("game_states"), record.get("turns")
    if not isinstance(states, list) or not states:
        raise PdnError("the record has no 'game_states' (a list with at least the start state)")
    if not isinstance(turns, list):
        raise PdnError("the record has no 'turns' list")
    try:
        start = _GAME.state_from_json(states[0])
    except GameError as exc:
        raise PdnError(f"game_states[0] is not a checkers state: {exc}") from None
    state = start
    moves: list[tuple[CheckersState, CheckersMove]] = []
    for ply, turn in enumerate(turns):
        path = _turn_path(turn)
        try:
            move = _GAME.validate_move(state, _GAME.move_from_record({"path": path}))
        except GameError as exc:
            raise PdnError(f"turns[{ply}] does not follow from the position before it: {exc}") from None
        moves.append((state, move))
        state = _GAME.apply(state, move)
    if len(states) == len(turns) + 1:
        try:
            recorded = _GAME.state_from_json(states[-1])
        except GameError as exc:
            raise PdnError(f"the last of game_states is not a checkers state: {exc}") from None
        if recorded[:4] != state[:4]:
            raise PdnError("the turns do not lead to the record's last state: the record is inconsistent")
    return start, moves


def _turn_path(turn: Any) -> Any:
    """The ``path`` of a turn object: checkers' record form, possibly with arena's keys beside it
    (record format 2) or wrapped under ``"move"``."""
    if isinstance(turn, dict):
        if "path" in turn:
            return turn["path"]
        inner = turn.get("move")
        if isinstance(inner, dict) and "path" in inner:
            return inner["path"]
    raise PdnError(f"a checkers turn is {{\"path\": [[col, row], ...]}}, got {cap_text(repr(turn), 60)}")


def _result(record: dict[str, Any]) -> str:
    """PDN's result token: the first player's (Black's) score first."""
    if record.get("termination") == "interrupted":
        return "*"
    winner = record.get("winner")
    if winner == "BLACK":
        return "1-0"
    if winner == "WHITE":
        return "0-1"
    if winner == "NONE":
        return "1/2-1/2"
    return "*"


def _players(record: dict[str, Any]) -> dict[str, str]:
    names = {"BLACK": "?", "WHITE": "?"}
    for entry in record.get("players") or ():
        if isinstance(entry, dict) and entry.get("colour") in names and entry.get("id") is not None:
            names[entry["colour"]] = str(entry["id"])
    return names


def _tags(record: dict[str, Any], start: CheckersState, plies: int, opening: int,
          event: str | None) -> list[tuple[str, str]]:
    """The tag pairs, the seven-tag roster first (Black before White: Black moves first)."""
    date = _DATE.match(str(record.get("started_at") or ""))
    index = record.get("game_index")
    names = _players(record)
    tags = [
        ("Event", event or DEFAULT_EVENT),
        ("Site", "?"),
        ("Date", ".".join(date.groups()) if date else "????.??.??"),
        ("Round", str(index + 1) if type(index) is int and index >= 0 else "-"),
        ("Black", names["BLACK"]),
        ("White", names["WHITE"]),
        ("Result", _result(record)),
        ("GameType", GAME_TYPE),
    ]
    if not is_standard_start(start):
        tags += [("SetUp", "1"), ("FEN", state_to_fen(start))]
    tags.append(("PlyCount", str(plies)))
    if opening:
        tags.append(("ArenaOpeningPlies", str(opening)))
    termination = record.get("termination")
    if termination in _PGN_TERMINATION:
        tags.append(("Termination", _PGN_TERMINATION[termination]))
    if isinstance(termination, str) and termination:
        tags.append(("ArenaTermination", termination))
    reason = record.get("reason")
    if isinstance(reason, str) and reason.strip():
        tags.append(("ArenaReason", reason))
    return tags


def _tag_value(value: str) -> str:
    """A tag value as PGN writes it: one line, ``\\`` and ``"`` escaped, at most 255 characters."""
    text = _CONTROL.sub(" ", value).strip()
    if len(text) > TAG_VALUE_LIMIT:
        text = text[: TAG_VALUE_LIMIT - 3] + "..."
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _move_tokens(start: CheckersState, moves: list[tuple[CheckersState, CheckersMove]]) -> list[str]:
    """``["1. 11-15", "23-19", "2. 8-11", ...]``: Black's moves carry the move number; a first move
    by White carries ``N...``. Numbering starts at 1 from the start position (a FEN has no counter)."""
    offset = 0 if start.turn is Color.BLACK else 1
    tokens = []
    for ply, (state, move) in enumerate(moves):
        number = (ply + offset) // 2 + 1
        text = _GAME.describe_move(move)
        if state.turn is Color.BLACK:
            tokens.append(f"{number}. {text}")
        elif ply == 0:
            tokens.append(f"{number}... {text}")
        else:
            tokens.append(text)
    return tokens


def _wrap(tokens: list[str], width: int) -> list[str]:
    """Tokens joined by spaces into lines of at most ``width`` characters (a longer token gets its
    own line; tokens are never split)."""
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    if line:
        lines.append(line)
    return lines


__all__ = [
    "DEFAULT_EVENT",
    "GAME_TYPE",
    "LINE_WIDTH",
    "PdnError",
    "fen_to_state",
    "is_standard_start",
    "record_to_pdn",
    "records_to_pdn",
    "state_to_fen",
]
