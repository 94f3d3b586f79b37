"""Bad numbers and oversized input on the command line: one line, a non-zero exit, no traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.errors import ConfigError
from arena.fileio.jsonfiles import nesting_depth

BOTS = Path(__file__).resolve().parents[2] / "bots"
RANDOM = f"{sys.executable} {BOTS / 'shobu_random.py'}"


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("option", ["--time-limit", "--max-moves", "--seed", "--games", "--increment",
                                    "--time-margin", "--startup-time", "--move-time-limit", "--opening-plies"])
def test_match_refuses_numbers_past_its_bounds_before_any_game(option: str) -> None:
    code, output = invoke("match", RANDOM, RANDOM, "--game", "shobu", option, str(10**20))
    assert code == 2
    assert "is not in the range" in output and option in output
    assert "Traceback" not in output


def test_match_refuses_an_opening_as_long_as_the_move_cap() -> None:
    code, output = invoke("match", RANDOM, RANDOM, "--game", "shobu", "--max-moves", "10", "--opening-plies", "10")
    assert code == 2
    assert "--opening-plies" in output and "move cap (10)" in output


def test_match_puts_the_records_on_stdout_when_out_cannot_be_written(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    code, output = invoke("match", RANDOM, RANDOM, "--game", "shobu", "--max-moves", "4", "-q", "--out", str(blocker / "r.json"))
    assert code == 1
    assert "cannot write" in output and '"winner"' in output


@pytest.mark.parametrize("target", ["/dev/null", "link"])
def test_match_never_renames_over_a_device_or_a_link(tmp_path: Path, target: str) -> None:
    path = Path(target)
    if target == "link":
        path = tmp_path / "link"
        path.symlink_to(tmp_path / "elsewhere.json")
    code, output = invoke("match", RANDOM, RANDOM, "--game", "shobu", "--max-moves", "4", "-q", "--out", str(path))
    assert code == 2 and "not a regular file" in output
    assert Path("/dev/null").is_char_device()


def test_perft_state_input_is_capped(tmp_path: Path) -> None:
    code, output = invoke("perft", "--game", "shobu", "--depth", "1", "--state", "@/dev/zero")
    assert code == 2 and "not a regular file (a character device)" in output
    with open(tmp_path / "huge.json", "wb") as handle:
        handle.truncate(2**20 + 1)
    code, output = invoke("perft", "--game", "shobu", "--depth", "1", "--state", f"@{tmp_path / 'huge.json'}")
    assert code == 2 and "at most 1048576 bytes" in output


def test_perft_depth_is_bounded() -> None:
    code, output = invoke("perft", "--depth", str(2**64))
    assert code == 2 and "--depth" in output


def test_a_deeply_nested_hyperparameters_file_is_one_config_error(tmp_path: Path) -> None:
    from arena.agents.hyperparameters import load_hyperparameters

    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000)
    with pytest.raises(ConfigError, match="nested more than 64 levels"):
        load_hyperparameters(deep, "shobu")
    with pytest.raises(ConfigError, match=r"not a regular file \(a character device\)"):
        load_hyperparameters("/dev/zero", "shobu")
    with open(tmp_path / "huge.json", "wb") as handle:
        handle.truncate(16 * 2**20 + 1)  # sparse: no disk used
    with pytest.raises(ConfigError, match="larger than 16 MiB"):
        load_hyperparameters(tmp_path / "huge.json", "shobu")


@pytest.mark.parametrize(("text", "depth"), [
    (b"{}", 1), (b"[[1, [2]], {}]", 3), (b'{"a": "[[[{{{"}', 1), (b'["\\"[["]', 1), (b"7", 0),
])
def test_nesting_depth_counts_brackets_outside_strings(text: bytes, depth: int) -> None:
    assert nesting_depth(text, 64) == depth


def test_nesting_depth_stops_counting_past_the_limit() -> None:
    assert nesting_depth(b"[" * 10**6, 64) == 65


def test_match_refuses_a_stderr_dir_that_is_not_a_folder() -> None:
    code, output = invoke("match", RANDOM, RANDOM, "--game", "shobu", "--stderr-dir", "/dev/null")
    assert code == 2 and "not a folder" in output
