"""The protocol loops of arena's own bots: tolerant reading, one flushed reply per request."""

from __future__ import annotations

import io
import json

from arena.agents.protocol_io import Request, serve_checkers, serve_json
from arena.games import Color, get_game

SHOBU = get_game("shobu")
CHECKERS = get_game("checkers")
START = "oooooooo................xxxxxxxxoooooooo................xxxxxxxx"


def first_legal(request: Request):
    return get_game("shobu" if hasattr(request.state, "board") else "checkers").legal_moves(request.state)[0]


def test_shobu_loop_reads_pretty_printed_states_and_skips_junk() -> None:
    seen: list[Request] = []

    def choose(request: Request):
        seen.append(request)
        return SHOBU.legal_moves(request.state)[0]

    pretty = json.dumps({"type": "game_state", "payload": {"board": START, "turn": "WHITE", "turnNumber": 1}},
                        indent=2)
    text = ("not json at all\n" + json.dumps({"type": "hello"}) + "\n"
            + json.dumps({"type": "game_state", "payload": {"board": START, "turn": "BLACK", "turnNumber": 0}})
            + "\n" + pretty + "\n")
    out = io.StringIO()
    assert serve_json(SHOBU, choose, stdin=io.BytesIO(text.encode()), stdout=out) == 0
    replies = out.getvalue().splitlines()
    assert [r.state.turn for r in seen] == [Color.BLACK, Color.WHITE]
    assert all(r.time_left_ms is None for r in seen)
    for reply, request in zip(replies, seen, strict=True):
        message = json.loads(reply)
        assert message["type"] == "turn"
        SHOBU.play_wire(request.state, message["payload"])


def test_shobu_loop_stops_on_an_invalid_state() -> None:
    text = json.dumps({"type": "game_state", "payload": {"board": "x" * 10, "turn": "BLACK", "turnNumber": 0}})
    out = io.StringIO()
    assert serve_json(SHOBU, first_legal, stdin=io.BytesIO(text.encode() + b"\n"), stdout=out) == 1
    assert out.getvalue() == ""


def test_checkers_loop_tolerates_crlf_and_blank_lines_and_counts_plies() -> None:
    seen: list[Request] = []

    def choose(request: Request):
        seen.append(request)
        return CHECKERS.legal_moves(request.state)[0]

    start = CHECKERS.initial_state()
    after = CHECKERS.apply(start, CHECKERS.legal_moves(start)[0])
    board = "\r\n".join(line + " " for line in CHECKERS.board_lines(after))
    text = f"60000\r\n\r\nWHITE\r\n59000\r\n{board}\r\n\r\n58000\r\n{board}\r\n"
    out = io.StringIO()
    assert serve_checkers(CHECKERS, choose, stdin=io.StringIO(text), stdout=out) == 0
    assert [(r.time_left_ms, r.total_time_ms, r.state.turn_number) for r in seen] == [
        (59000.0, 60000.0, 1), (58000.0, 60000.0, 3)]
    for line, request in zip(out.getvalue().splitlines(), seen, strict=True):
        CHECKERS.play_wire(request.state, line)


def test_checkers_loop_rejects_a_bad_colour_line() -> None:
    assert serve_checkers(CHECKERS, first_legal, stdin=io.StringIO("60000\npurple\n"), stdout=io.StringIO()) == 1


def test_json_loop_passes_the_clock_when_the_envelope_has_one() -> None:
    seen: list[Request] = []

    def choose(request: Request):
        seen.append(request)
        return SHOBU.legal_moves(request.state)[0]

    state = {"board": START, "turn": "BLACK", "turnNumber": 0}
    text = "".join(json.dumps({"type": "game_state", "payload": state, "timeLeftMs": left}) + "\n"
                   for left in (1500, -3, "soon"))
    out = io.StringIO()
    assert serve_json(SHOBU, choose, stdin=io.BytesIO(text.encode()), stdout=out) == 0
    # A clock that is not a non-negative number is ignored, not trusted.
    assert [r.time_left_ms for r in seen] == [1500.0, None, None]
    assert len(out.getvalue().splitlines()) == 3


def test_serve_seats_answers_each_decision_with_the_chosen_move() -> None:
    import io
    import json

    from arena.agents.protocol_io import SeatRequest, serve_seats

    seen: list[SeatRequest] = []

    def choose(request: SeatRequest) -> object:
        seen.append(request)
        return (request.legal_moves or ["pass"])[-1]

    lines = [{"type": "game_state", "payload": {"card": 2}, "timeLeftMs": 900, "seat": 1, "players": 3,
              "simultaneous": False, "legalMoves": ["pass", "bet"]},
             {"type": "game_state", "payload": {"card": 2}, "timeLeftMs": 800, "seat": 1, "players": 3,
              "simultaneous": True}]
    out = io.StringIO()
    data = b"garbage\n" + b"".join(json.dumps(m).encode() + b"\n" for m in lines)
    assert serve_seats(choose, stdin=io.BytesIO(data), stdout=out) == 0
    assert [json.loads(x) for x in out.getvalue().splitlines()] == [{"type": "turn", "payload": "bet"},
                                                                     {"type": "turn", "payload": "pass"}]
    assert [(r.seat, r.players, r.simultaneous, r.legal_moves, r.time_left_ms) for r in seen] == [
        (1, 3, False, ["pass", "bet"], 900.0), (1, 3, True, None, 800.0)]
    bad = io.BytesIO(b'{"type": "game_state", "payload": {"board": "x"}, "timeLeftMs": 5}\n')
    assert serve_seats(choose, stdin=bad, stdout=io.StringIO()) == 1
