"""The worker pipe's event pickling (:mod:`arena.backends.wire`): objects an event shares with the
game's other events are sent once, and an event that cannot be pickled leaves nothing behind that
a later event would refer to."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import pytest

from arena.backends.wire import EventPickler, EventUnpickler


@dataclass
class Event:
    game: Any
    players: Any
    ply: int


def test_the_game_and_players_are_sent_once_and_read_back() -> None:
    pickler, unpickler = EventPickler(), EventUnpickler()
    game, players = {"name": "nim"}, ("a", "b")
    fresh, data = pickler.dumps(Event(game, players, 1))
    assert fresh == [game, players]
    first = unpickler.loads(fresh, data)
    fresh, data = pickler.dumps(Event(game, players, 2))
    assert fresh == []
    second = unpickler.loads(fresh, data)
    assert (second.game, second.players, second.ply) == (game, players, 2)
    assert second.game is first.game  # one copy on the driver's side


def test_an_event_whose_game_cannot_be_pickled_is_refused_and_shares_nothing() -> None:
    pickler, unpickler = EventPickler(), EventUnpickler()
    game = {"process": threading.Lock()}  # like a plugin's game holding a handle
    for ply in range(3):
        with pytest.raises(TypeError):
            pickler.dumps(Event(game, ("a", "b"), ply))
    fresh, data = pickler.dumps(Event({"name": "nim"}, ("a", "b"), 4))
    assert unpickler.loads(fresh, data).ply == 4  # before the fix: IndexError, the run died
