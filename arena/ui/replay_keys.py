"""The replayer's keys: terminal bytes -> key names -> a new position. Pure (no terminal), so
``arena replay``'s key handling is tested without one; the viewer (:mod:`arena.ui.replay_view`)
reads the bytes and draws the positions."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass


class Action(enum.StrEnum):
    """What a key does."""

    NEXT = "next"
    PREVIOUS = "previous"
    FIRST = "first"
    LAST = "last"
    FORWARD = "forward"  # ten moves on
    BACK = "back"  # ten moves back
    PLAY = "play"  # start or pause autoplay
    QUIT = "quit"


#: Key name (from :func:`decode_keys`) -> action. Arrow keys, vi-ish and pager letters.
KEY_ACTIONS: dict[str, Action] = {
    "right": Action.NEXT, "n": Action.NEXT, "l": Action.NEXT, "down": Action.NEXT, "enter": Action.NEXT,
    "left": Action.PREVIOUS, "p": Action.PREVIOUS, "h": Action.PREVIOUS, "up": Action.PREVIOUS,
    "backspace": Action.PREVIOUS,
    "home": Action.FIRST, "g": Action.FIRST, "0": Action.FIRST,
    "end": Action.LAST, "G": Action.LAST, "$": Action.LAST,
    "pagedown": Action.FORWARD, "pageup": Action.BACK,
    "space": Action.PLAY, "a": Action.PLAY,
    "q": Action.QUIT, "Q": Action.QUIT, "escape": Action.QUIT,
}

#: The help line the terminal view shows.
KEYS_HELP = "←/→ or p/n step · Home/End or g/G first/last · PgUp/PgDn 10 moves · space autoplay · q quit"

_SEQUENCES: dict[bytes, str] = {
    b"\x1b[A": "up", b"\x1b[B": "down", b"\x1b[C": "right", b"\x1b[D": "left",
    b"\x1bOA": "up", b"\x1bOB": "down", b"\x1bOC": "right", b"\x1bOD": "left",
    b"\x1b[H": "home", b"\x1b[F": "end", b"\x1bOH": "home", b"\x1bOF": "end",
    b"\x1b[1~": "home", b"\x1b[4~": "end", b"\x1b[7~": "home", b"\x1b[8~": "end",
    b"\x1b[5~": "pageup", b"\x1b[6~": "pagedown",
}
_SINGLE: dict[bytes, str] = {b"\x03": "ctrl-c", b" ": "space", b"\r": "enter", b"\n": "enter", b"\x7f": "backspace",
                             b"\x08": "backspace"}
_CSI_END = re.compile(rb"\x1b(\[[0-9;]*[\x40-\x7e]|O[\x40-\x7e])")


def decode_keys(data: bytes) -> tuple[list[str], bytes]:
    """Key names in ``data`` (bytes read from a terminal in cbreak mode) and the tail that may be
    the start of an escape sequence cut between two reads (to be prefixed to the next read, or
    taken as a lone Escape when nothing follows). Unknown sequences and bytes are skipped."""
    keys: list[str] = []
    i = 0
    while i < len(data):
        byte = data[i:i + 1]
        if byte == b"\x1b":
            match = _CSI_END.match(data, i)
            if match:
                name = _SEQUENCES.get(match.group(0))
                if name:
                    keys.append(name)
                i = match.end()
                continue
            rest = data[i:]
            if len(rest) == 1 or rest[:2] in (b"\x1b[", b"\x1bO") and re.fullmatch(rb"\x1b[\[O][0-9;]*", rest):
                return keys, rest  # maybe cut off: wait briefly for the rest
            keys.append("escape")
            i += 1
            continue
        if byte in _SINGLE:
            keys.append(_SINGLE[byte])
        elif 0x20 < data[i] < 0x7f:
            keys.append(byte.decode("ascii"))
        i += 1
    return keys, b""


@dataclass
class Cursor:
    """Where the viewer is: ``position`` 0..``last``, and whether autoplay runs. Pure: the view
    feeds it key names and autoplay ticks, and draws whatever position results."""

    last: int
    position: int = 0
    playing: bool = False

    def press(self, key: str) -> bool:
        """Apply ``key`` (a :func:`decode_keys` name). Returns False when it asks to quit. Unknown
        keys do nothing. A manual step leaves autoplay running. Raises KeyboardInterrupt for a
        Ctrl-C that came as a byte (a terminal without signals) rather than as SIGINT."""
        if key == "ctrl-c":
            raise KeyboardInterrupt
        action = KEY_ACTIONS.get(key)
        if action is None:
            return True
        if action is Action.QUIT:
            return False
        if action is Action.PLAY:
            if not self.playing and self.position >= self.last:
                self.position = 0  # autoplay at the end starts the game over
            self.playing = not self.playing and self.last > 0
            return True
        target = {
            Action.NEXT: self.position + 1, Action.PREVIOUS: self.position - 1,
            Action.FIRST: 0, Action.LAST: self.last,
            Action.FORWARD: self.position + 10, Action.BACK: self.position - 10,
        }[action]
        self.position = max(0, min(self.last, target))
        if self.position >= self.last:
            self.playing = False
        return True

    def tick(self) -> None:
        """Autoplay's step: one move on; autoplay stops at the last position."""
        if self.playing:
            self.position = min(self.last, self.position + 1)
            if self.position >= self.last:
                self.playing = False


__all__ = ["KEYS_HELP", "KEY_ACTIONS", "Action", "Cursor", "decode_keys"]
