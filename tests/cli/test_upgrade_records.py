"""`arena upgrade-records`: old record files rewritten as format 4 in place, atomically, once."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from arena.cli.upgrade_cmd import upgrade_records_command
from arena.records.check import check_record
from arena.records.normal import record_format, upgrade

DATA = Path(__file__).resolve().parents[1] / "data" / "old_records"
FORMAT_1 = Path(__file__).resolve().parents[1] / "records" / "data" / "format1_connect4.json"


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(upgrade_records_command, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def _copies(tmp_path: Path) -> list[Path]:
    paths = []
    for source in [*sorted(DATA.glob("*.json")), FORMAT_1]:
        target = tmp_path / source.name
        shutil.copyfile(source, target)
        paths.append(target)
    return paths


def test_old_records_are_rewritten_once_and_then_left_byte_for_byte(tmp_path: Path) -> None:
    paths = _copies(tmp_path)
    before = {p: json.loads(p.read_text()) for p in paths}
    os.chmod(paths[0], 0o640)
    code, out, err = invoke(*map(str, paths))
    assert code == 0 and err == "", err
    assert out.splitlines() == [f"{p}: 1 record upgraded (format {record_format(before[p])} -> 4)" for p in paths]
    for path in paths:
        record = json.loads(path.read_text())
        assert record == upgrade(before[path]) and check_record(record) == []
        assert path.read_bytes().startswith(b"{\n  ")  # indented as arena match --out writes it
    assert oct(paths[0].stat().st_mode & 0o777) == oct(0o640)  # the owner's permissions kept
    assert sorted(os.listdir(tmp_path)) == sorted(p.name for p in paths)  # no temporary file left
    written = {p: p.read_bytes() for p in paths}
    stamps = {p: p.stat().st_mtime_ns for p in paths}
    code, out, _ = invoke(*map(str, paths))
    assert code == 0 and out.splitlines() == [f"{p}: 1 record, already format 4; unchanged" for p in paths]
    assert {p: p.read_bytes() for p in paths} == written and {p: p.stat().st_mtime_ns for p in paths} == stamps


def test_arrays_and_json_lines_keep_their_shape(tmp_path: Path) -> None:
    records = [json.loads(p.read_text()) for p in sorted(DATA.glob("*.json"))]
    array, lines = tmp_path / "all.json", tmp_path / "all.jsonl"
    array.write_text(json.dumps(records, indent=2))
    lines.write_text("".join(json.dumps(r) + "\n" for r in records))
    compact = tmp_path / "00000.json"  # a tournament folder's record: one line
    compact.write_text(json.dumps(records[0]) + "\n")
    code, out, _ = invoke(str(array), str(lines), str(compact))
    assert code == 0, out
    assert out.splitlines()[0] == f"{array}: 3 records upgraded (format 2, 3 -> 4)"
    assert json.loads(array.read_text()) == [upgrade(r) for r in records]
    assert [json.loads(line) for line in lines.read_text().splitlines()] == [upgrade(r) for r in records]
    assert compact.read_text().count("\n") == 1 and json.loads(compact.read_text()) == upgrade(records[0])


def test_bad_input_is_one_line_and_nothing_is_written(tmp_path: Path) -> None:
    good = _copies(tmp_path)[0]
    original = good.read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    link = tmp_path / "link.json"
    link.symlink_to(good)
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps({**json.loads(original), "game": "no_such_game"}))
    cases = [
        (bad, "not a game record (no 'game', 'turns', 'game_states', 'winner', 'termination')"),
        (link, "a symbolic link, not a regular file"),
        (tmp_path, "a folder, not a regular file; only record files are upgraded: give its record files"),
        (tmp_path / "missing.json", "no such file"),
        (unknown, "cannot upgrade: game 'no_such_game' cannot be loaded"),
    ]
    for path, message in cases:
        code, out, err = invoke(str(good), str(path))
        assert code == 2 and out == "", (path, out)
        assert err.count("\n") == 1 and err.startswith(f"arena: error: {path}") and message in err, err
        assert good.read_bytes() == original  # checked before anything is written
