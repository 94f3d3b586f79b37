"""The HTML report and viewer without a browser: the boards round-trip to the registry renderer's
exact SVG, the page is self-contained and its data blocks parse, the commands and their errors."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from helpers import as_format_1
from report_support import record_with_plies, synthetic_record, tournament_records, write_log_folder

from arena.cli.replay_cmd import replay_command
from arena.cli.report_cmd import report_command
from arena.games.registry import game_names, get_spec, load_ref
from arena.records.replay import Replay
from arena.records.sources import open_source
from arena.report.frames import PieceTable, boards_digest, decode_frame, encode_frame, position_key, svg_hash
from arena.report.html import elo_plot, game_payload, report_html

_BLOCK = re.compile(r'<script type="application/json" id="([^"]+)">(.*?)</script>', re.DOTALL)


def blocks(page: str) -> dict[str, Any]:
    """The page's JSON data blocks, parsed as the browser does (``textContent`` then JSON)."""
    return {name: json.loads(text) for name, text in _BLOCK.findall(page)}


def boards(payload: dict[str, Any], pieces: list[str], starts: list[str]) -> list[str]:
    """Every position's SVG, rebuilt from ``payload`` as the page's script does."""
    out, previous = [], None
    for frame in payload["frames"]:
        previous = decode_frame(previous, frame, starts)
        out.append("".join(pieces[n] for n in previous))
    return out


def resolved(payload: dict[str, Any], games: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """``payload`` with the start it shares with an earlier game of ``games`` (by index) put back,
    as the page's script does: all its frames and notation, no ``from``."""
    if "from" not in payload:
        return payload
    first, depth = payload["from"]
    earlier = resolved(games[first], games)
    out = {k: v for k, v in payload.items() if k != "from"}
    out["frames"] = earlier["frames"][:depth] + payload["frames"]
    out["notation"] = earlier["notation"][:depth - 1] + payload["notation"]
    return out


# -- the boards -------------------------------------------------------------------------------------


def test_frames_round_trip_random_lists() -> None:
    rng = random.Random(3)
    previous: list[int] | None = None
    for _ in range(300):
        current = [rng.randrange(12) for _ in range(rng.randrange(0, 40))]
        assert decode_frame(previous, encode_frame(previous, current)) == current
        previous = current


@pytest.mark.parametrize("name", game_names())
def test_every_position_is_the_renderers_exact_svg(name: str) -> None:
    record = synthetic_record(name, seed=5, max_plies=40)
    replay = Replay.from_record(record)
    pieces = PieceTable()
    payload = game_payload(replay, pieces)
    ref = get_spec(name).svg
    assert ref is not None, f"{name} registers no SVG renderer"
    render = load_ref(ref)
    expected = [render(*replay.position(i)[:2]) for i in range(replay.last + 1)]
    assert boards(payload, pieces.pieces, pieces.starts) == expected
    assert payload["crc"] == boards_digest([svg_hash(svg) for svg in expected])
    assert payload["notation"] == [t["notation"] for t in record["turns"]]
    # Move numbers: the page counts them from the first position's ply.
    assert [(payload["ply0"] + i) // 2 + 1 for i in range(replay.last)] == [s.number for s in replay.steps]
    assert payload["movers"][:2].islower() and payload["movers"][2:].isupper()  # the 2 opening plies
    # Clocks: the start, each mover's clock after its move (opening plies leave it alone), the
    # record's final clocks.
    assert payload["clock0"] == [30_000, 30_000]
    assert payload["clocks"] == [30_000 if t["clock_left_ms"] is None else round(t["clock_left_ms"])
                                 for t in record["turns"]]
    assert payload["clock_end"] == [round(ms) for ms in record["clocks_left_ms"]]
    assert payload["reason"] == record["reason"]


@pytest.mark.parametrize("name", ["connect4", "shobu"])
def test_games_sharing_positions_draw_each_position_once(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Games share their openings (here: the same games again): a table draws a position once, and
    # every game's boards are still the renderer's exact SVG.
    import arena.report.html as report_html_module

    replays = [Replay.from_record(synthetic_record(name, seed=seed % 3, max_plies=30)) for seed in range(6)]
    render = load_ref(get_spec(name).svg or "")
    calls: list[int] = []

    def counted(game: Any) -> Any:
        def draw(state: Any, last_move: Any) -> str:
            calls.append(1)
            return str(render(state, last_move))

        return draw

    real_pieces = report_html_module.svg_pieces_renderer

    def counted_pieces(game: Any) -> Any:  # Shobu's picture comes as its pieces: counted too
        found = real_pieces(game)
        if found is None:
            return None

        def draw_pieces(state: Any, last_move: Any) -> list[str]:
            calls.append(1)
            return list(found(state, last_move))

        return draw_pieces

    monkeypatch.setattr(report_html_module, "svg_renderer", counted)
    monkeypatch.setattr(report_html_module, "svg_pieces_renderer", counted_pieces)
    pieces = PieceTable()
    payloads = [game_payload(replay, pieces) for replay in replays]
    for replay, payload in zip(replays, payloads, strict=True):
        assert boards(payload, pieces.pieces, pieces.starts) == [render(*replay.position(i)[:2]) for i in range(replay.last + 1)]
    distinct = {replay.position(i)[:2] for replay in replays[:3] for i in range(replay.last + 1)}
    assert len(calls) == len(distinct) < sum(replay.last + 1 for replay in replays)
    assert payloads[3:] == payloads[:3]


@pytest.mark.parametrize("name", ["connect4", "checkers"])
def test_a_game_that_starts_as_an_earlier_one_refers_to_it(name: str) -> None:
    # Games 3-5 repeat games 0-2: each is a reference to its twin and nothing of its own; every game,
    # its start put back as the page does, has all its boards and moves.
    replays = [Replay.from_record(synthetic_record(name, seed=seed % 3, max_plies=30)) for seed in range(6)]
    pieces = PieceTable()
    payloads = {k: game_payload(replay, pieces, k) for k, replay in enumerate(replays)}
    for k in range(3, 6):
        twin = resolved(payloads[k - 3], payloads)
        assert payloads[k]["from"][1] == replays[k].last + 1 and payloads[k]["frames"] == []
        assert payloads[k]["notation"] == [] and resolved(payloads[k], payloads) == twin
    render = load_ref(get_spec(name).svg or "")
    for k, replay in enumerate(replays):
        game = resolved(payloads[k], payloads)
        assert boards(game, pieces.pieces, pieces.starts) == [render(*replay.position(i)[:2])
                                                              for i in range(replay.last + 1)]
        assert game["notation"] == [step.notation for step in replay.steps]
        assert game == game_payload(replay, PieceTable()) | {"frames": game["frames"]}


def test_replays_of_one_run_read_each_state_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.games.connect4.rules import ConnectFourGame

    record = synthetic_record("connect4", seed=4, max_plies=20)
    plain = Replay.from_record(record)
    known: dict[tuple[str, bytes], Any] = {}
    first = Replay.from_record(record, known=known)
    assert first.states == plain.states and len(known) == len({json.dumps(s, sort_keys=True)
                                                                for s in record["game_states"]})
    read: list[Any] = []
    original = ConnectFourGame.state_from_json
    monkeypatch.setattr(ConnectFourGame, "state_from_json", lambda self, obj: read.append(obj) or original(self, obj))
    again = Replay.from_record(json.loads(json.dumps(record)), known=known)
    assert again.states == plain.states and read == []


def test_a_position_held_in_lists_has_no_key_and_is_drawn_every_time() -> None:
    pieces = PieceTable()
    drawn: list[str] = []

    def render() -> str:
        drawn.append("x")
        return '<svg><rect width="1"/></svg>'

    assert position_key("g", [1, 2], None) is None
    assert pieces.board(None, render) == pieces.board(None, render)
    assert pieces.board(position_key("g", (1, 2), None), render) == pieces.board(("g", (1, 2), None), render)
    assert len(drawn) == 3


def test_a_100_ply_game_is_small() -> None:
    # The boards of a 100-ply checkers game: about 8 kB of SVG each, about 20 bytes once encoded
    # (the first board is a start board of the table).
    replay = Replay.from_record(record_with_plies("checkers", 100))
    pieces = PieceTable()
    payload = game_payload(replay, pieces)
    size = len(json.dumps(payload["frames"], separators=(",", ":")))
    assert size < 40 * 101, size
    assert len(pieces.pieces) < 400


# -- the page ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    records = tournament_records("checkers", ["alpha", "beta", "gamma"], 4, max_plies=30)
    return write_log_folder(tmp_path_factory.mktemp("logs") / "t", records)


def test_report_page_is_self_contained_and_lists_every_game(folder: Path) -> None:
    page = report_html(open_source(folder))
    data = blocks(page)
    # Nothing is fetched: no external scripts, styles, images or fonts.
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=|@import|url\(", page)
    assert set(re.findall(r"https?://[^\s\"'<>\\]+", page)) <= {"http://www.w3.org/2000/svg"}
    rows = data["arena-data"]["rows"]
    assert [r[0] for r in rows] == list(range(12))
    assert {f"arena-game-{i}" for i in range(12)} <= set(data)
    jsonl = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    assert [(r[1], r[2], r[4], r[5]) for r in rows] == [(j["black"], j["white"], j["termination"], j["plies"])
                                                        for j in jsonl]
    # Standings (computed from the records: the folder has no standings.json), plot, crosstable.
    for part in ('id="standings"', 'class="eloplot"', 'id="crosstable"', 'id="terminations"', 'id="games"'):
        assert part in page
    for agent in ("alpha", "beta", "gamma"):
        assert f"<td>{agent}</td>" in page


def test_report_uses_the_folders_standings_when_they_cover_its_games(folder: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "t"
    shutil.copytree(folder, copy)
    from arena.tournament.logs import standings_from_folder

    standings, _ = standings_from_folder(copy, bootstrap_samples=50)
    standings["standings"][0]["id"] = "from-the-file"
    (copy / "standings.json").write_text(json.dumps(standings))
    assert "from-the-file" in report_html(open_source(copy))


def test_names_and_reasons_cannot_break_out_of_the_page() -> None:
    record = synthetic_record("connect4", seed=2, black="</script><b>x", white="<!--w")
    record["reason"] = "quoted </script><script>alert(1)</script>"
    page = report_html(open_source_of([record]))
    # arena-data, arena-pieces, arena-starts, arena-game-0 and the viewer script: nothing else opens
    # or closes one.
    assert page.count("<script") == page.count("</script>") == 5
    assert "<b>x" not in page
    data = blocks(page)
    assert data["arena-game-0"]["players"] == ["</script><b>x", "<!--w"]
    assert data["arena-game-0"]["reason"] == record["reason"]


def open_source_of(records: list[dict[str, Any]]) -> Any:
    from arena.records.sources import GameEntry, Source

    entries = tuple(GameEntry(i, "?", "?", r["winner"], r["termination"], r["plies"], record=r)
                    for i, r in enumerate(records))
    return Source("records", entries, is_folder=False)


def test_elo_plot_places_dots_inside_their_intervals() -> None:
    rows = [{"id": "a", "elo": 50.0, "elo_low": -10.0, "elo_high": 120.0},
            {"id": "b", "elo": -50.0, "elo_low": -130.0, "elo_high": 5.0}]
    svg = elo_plot(rows)
    dots = [float(x) for x in re.findall(r'<circle cx="([\d.]+)"', svg)]
    ends = [tuple(map(float, m)) for m in re.findall(r'<line x1="([\d.]+)" x2="([\d.]+)" y1="[\d.]+" y2="[\d.]+" '
                                                      r'class="ci"/><line', svg)]
    assert len(dots) == 2 and len(ends) == 2
    for dot, (lo, hi) in zip(dots, ends, strict=True):
        assert lo < dot < hi
    assert dots[0] > dots[1]


# -- the commands -----------------------------------------------------------------------------------


def test_arena_report_writes_the_file(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(report_command, [str(folder), "-o", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"wrote {out}: 12 games" in result.output
    assert len(blocks(out.read_text())["arena-data"]["rows"]) == 12


@pytest.mark.parametrize("args, message", [
    (["missing-folder"], "missing-folder: no such file or folder"),
    (["{empty}"], "no games here"),
])
def test_arena_report_bad_input_is_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    args = [a.replace("{empty}", str(tmp_path)) for a in args]
    result = CliRunner().invoke(report_command, [*args, "-o", str(tmp_path / "r.html")], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "r.html").exists()


def test_arena_replay_html_writes_one_game(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = CliRunner().invoke(replay_command, [str(folder), "--game", "3", "--html", str(out)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    data = blocks(out.read_text())
    assert data["arena-data"]["mode"] == "game" and [r[0] for r in data["arena-data"]["rows"]] == [3]
    assert 'id="standings"' not in out.read_text()
    # A folder of several games without --game: which one? Listed, exit 2, nothing written.
    result = CliRunner().invoke(replay_command, [str(folder), "--html", str(tmp_path / "x.html")])
    assert result.exit_code == 2 and "pick one with --game N" in result.output
    assert not (tmp_path / "x.html").exists()


def test_a_format_1_record_without_clocks_is_viewable(tmp_path: Path) -> None:

    record = synthetic_record("shobu", seed=4, max_plies=20)
    old = {k: v for k, v in as_format_1(record).items() if k != "time_control"}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    out = tmp_path / "old.html"
    result = CliRunner().invoke(replay_command, [str(path), "--html", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    payload = blocks(out.read_text())["arena-game-0"]
    assert payload["clock0"] is None and payload["movers"].isupper()
    assert "random opening plies that this record does not hold" in payload["note"]
    assert len(payload["frames"]) == old["plies"] + 1


@pytest.mark.parametrize("name", ["shobu"])  # the games whose SVG module has a board_svg_pieces
def test_a_renderers_pieces_twin_is_its_picture_cut(name: str) -> None:
    # A game's board_svg_pieces (Shobu's) gives the same picture as its board_svg, one piece a
    # string: the same piece numbers as cutting the picture, new pieces numbered alike.
    from arena.games.registry import get_game
    from arena.report.html import svg_pieces_renderer

    game = get_game(name)
    twin = svg_pieces_renderer(game)
    assert twin is not None
    render = load_ref(get_spec(name).svg or "")
    cut, given = PieceTable(), PieceTable()
    for seed in range(4):
        replay = Replay.from_record(synthetic_record(name, seed=seed, max_plies=60))
        for i in range(replay.last + 1):
            state, last_move, _ = replay.position(i)
            parts = twin(state, last_move)
            assert "".join(parts) == render(state, last_move)
            assert given.numbers(parts) == cut.split(render(state, last_move))
    assert given.pieces == cut.pieces
