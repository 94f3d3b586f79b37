"""The one replay (arena.records.replay): every stored record of every format (the golden
playthroughs' records, formats 2 and 3, and a stored record of format 1) loads into the one
timeline of seats, steps, states and result, in every seat's view, and replays by command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.replay_cmd import replay_command
from arena.games.registry import BUILTIN_GAMES
from arena.records.normal import two_colour
from arena.records.replay import Replay, ReplayError
from arena.records.sources import open_source
from arena.ui.replay_view import plain_text

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "files"
FORMAT_1 = Path(__file__).resolve().parent / "data" / "format1_connect4.json"
OLD_RECORDS = Path(__file__).resolve().parents[1] / "data" / "old_records"


def _filled(value: Any, key: str | None = None) -> Any:
    """A golden record with its blanked values (times, clocks, versions) given fixed ones."""
    if isinstance(value, dict):
        return {k: _filled(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_filled(v, key) for v in value]
    if value == "<volatile>":
        return {"arena_version": "0", "started_at": "2026-01-01T00:00:00Z"}.get(key or "", 250.0)
    return value


def _stored() -> list[tuple[str, dict[str, Any]]]:
    """The golden records of the games built into arena (the others need their referee), and the
    records an earlier arena wrote (tests/data/old_records: formats 2 and 3)."""
    out = []
    for path in sorted(GOLDEN.glob("*.match.json")):
        for k, record in enumerate(json.loads(path.read_text())["records"]):
            if record.get("game") in BUILTIN_GAMES:
                record = _filled(record)
                if two_colour(record):
                    record["move_times_ms"] = [250.0] * len(record["turns"])
                    record["clocks_left_ms"] = [250.0, 250.0]
                else:
                    record["clocks_left_ms"] = [250.0] * len(record["seats"])
                out.append((f"{path.name.split('.')[0]}-{k}", record))
    for path in sorted(OLD_RECORDS.glob("*.json")):
        out.append((path.stem, json.loads(path.read_text())))
    return out


STORED = _stored()


def test_the_stored_records_cover_both_formats_and_hidden_information() -> None:
    formats = {record.get("record_format") for _, record in STORED}
    assert formats == {2, 3, 4}, formats
    assert {"kuhn_poker", "leduc_poker", "goofspiel", "love_letter", "checkers", "shobu"} <= {r["game"] for _, r in STORED}


@pytest.mark.parametrize(("name", "record"), STORED, ids=[name for name, _ in STORED])
def test_every_stored_record_is_one_timeline(name: str, record: dict[str, Any]) -> None:
    replay = Replay.from_record(record, label=name)
    game, n = replay.game, replay.players
    assert len(replay.states) == replay.last + 1 and len(replay.seat_ids) == n
    assert len(replay.returns()) == n and min(replay.ranks()) == 1
    assert all(step.kind in ("move", "chance", "joint", "elimination") for step in replay.steps)
    assert [step.number for step in replay.steps] == sorted(step.number for step in replay.steps)
    assert replay.termination == record["termination"] and f"[{record['termination']}]" in replay.result()
    if replay.paired:  # two colours: the result by colour, +1/-1 returns, the notation the record wrote
        assert record.get("record_format") in (2, 4) and game.seat_names == ("BLACK", "WHITE")
        winner = record["winner"]
        assert replay.returns() == {"BLACK": [1.0, -1.0], "WHITE": [-1.0, 1.0]}.get(winner, [0.0, 0.0])
        assert [s.notation for s in replay.steps] == [t["notation"] for t in record["turns"]]
        if record["record_format"] == 4:
            assert replay.clocks_at(replay.last) == {0: 250.0, 1: 250.0}
        with pytest.raises(ReplayError, match="--seat is for games of N seats"):
            Replay.from_record(record, seat=0)
        return
    assert replay.returns() == [float(r) for r in record["returns"]] and replay.ranks() == record["ranks"]
    for seat in range(n):
        seen = Replay.from_record(record, label=name, seat=seat)
        assert [seen.observation(i) for i in range(seen.last + 1)] == [game.observation(s, seat) for s in replay.states]
        for mine, everyone in zip(seen.steps, replay.steps, strict=True):
            assert (mine.kind, mine.actors) == (everyone.kind, everyone.actors)
            if mine.kind in ("move", "joint"):  # its own moves it always sees; the others' at most as they were
                assert mine.moves[seat] == everyone.moves[seat] if seat in mine.actors else True
                assert all(mine.moves[s] in (None, everyone.moves[s]) for s in mine.actors)
            if mine.charged_ms:
                assert set(mine.charged_ms) == {seat}
        assert set(seen.clocks_at(seen.last) or {seat: 0}) == {seat}


def test_a_stored_format_1_record_replays_with_its_clocks_worked_out() -> None:
    """A record as arena wrote it before complete records: bare turns, no record_format, times in
    move_times_ms, the clocks only at the end."""
    record = json.loads(FORMAT_1.read_text())
    assert "record_format" not in record and not any("charged_ms" in turn or "opening" in turn for turn in record["turns"])
    source = open_source(FORMAT_1)
    replay = Replay.from_record(source.load(source.entries[0]))
    assert replay.paired and replay.seat_ids == ("recording_bot-1", "recording_bot-2")
    assert replay.result() == "WHITE (recording_bot-2) wins [win]" and replay.ranks() == [2, 1]
    assert [s.charged_ms for s in replay.steps] == [{s.seat: ms} for s, ms in zip(replay.steps, record["move_times_ms"], strict=True)]
    # The match's rule, no increment: each mover's clock drops by its charged time.
    left = {0: 10_000.0, 1: 10_000.0}
    for i, step in enumerate(replay.steps):
        assert step.seat is not None
        left[step.seat] -= record["move_times_ms"][i]
        assert replay.clocks_at(i + 1) == (left if i + 1 < replay.last else {0: 9_950.0, 1: 9_940.0})
    text = plain_text(replay)
    assert text.startswith("game 0, connect4: recording_bot-1 (BLACK) vs recording_bot-2 (WHITE)\nresult: WHITE")
    assert text.endswith("clocks: BLACK 0:09.9  WHITE 0:09.9\n")


def test_every_stored_record_replays_by_command(tmp_path: Path) -> None:
    runner = CliRunner()
    for name, record in [*STORED, ("format1", json.loads(FORMAT_1.read_text()))]:
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(record))
        plain = runner.invoke(replay_command, [str(path), "--plain"], catch_exceptions=False)
        assert plain.exit_code == 0, (name, plain.output)
        page = tmp_path / f"{name}.html"
        html = runner.invoke(replay_command, [str(path), "--html", str(page)], catch_exceptions=False)
        assert html.exit_code == 0 and page.read_text().count('id="arena-game-') == 1, (name, html.output)
