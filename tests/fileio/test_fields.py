"""The typed config-field readers (:mod:`arena.fileio.fields`): values, defaults, bounds and the one
message format ``<where>.<key>: <problem>``."""

from __future__ import annotations

import re
from typing import Any

import pytest

from arena.errors import ConfigError
from arena.fileio import fields
from arena.limits import MAX_ENV_VALUE, MAX_ENV_VARS


def _refused(reader: Any, obj: Any, key: str, message: str, **options: Any) -> None:
    with pytest.raises(ConfigError, match="^" + re.escape(message) + "$"):
        reader(obj, key, **options)


def test_integer_reads_integral_floats_and_applies_bounds() -> None:
    assert fields.integer({"n": 2000.0}, "n", low=1, high=5000) == 2000
    assert type(fields.integer({"n": 2000.0}, "n", low=1, high=5000)) is int
    assert fields.integer({}, "n", low=1, high=5, default=3) == 3
    assert fields.integer({"n": None}, "n", low=1, high=5, default=3) == 3
    assert fields.integer({}, "n", low=1, high=5) is None
    _refused(fields.integer, {"n": 2000.5}, "n", "n: must be a positive integer, got 2000.5", low=1, high=5000)
    _refused(fields.integer, {"n": True}, "n", "n: must be a positive integer, got true", low=1, high=5000)
    _refused(fields.integer, {"n": "7"}, "n", "n: must be a positive integer, got '7'", low=1, high=5000)
    _refused(fields.integer, {"n": -1}, "n", "n: must be a non-negative integer, got -1", low=0, high=5)
    _refused(fields.integer, {"n": 1}, "n", "n: must be an integer of at least 2, got 1", low=2, high=5)
    _refused(fields.integer, {"n": 10**6}, "n", "n: at most 5,000 allowed, got 1000000", low=1, high=5000)
    _refused(fields.integer, {"n": 1e300}, "n", "n: at most 5 allowed, got an integer of 301 digits", low=1, high=5)
    _refused(fields.integer, {}, "n", "agents[1].n: missing (required)", low=1, high=5, where="agents[1]", need=True)


def test_number_boolean_string_and_lists() -> None:
    assert fields.number({"x": 1}, "x") == 1.0 and fields.number({}, "x", default=0.5) == 0.5
    _refused(fields.number, {"x": "1"}, "x", "sprt.x: must be a number, got '1'", where="sprt")
    _refused(fields.number, {"x": False}, "x", "x: must be a number, got false")
    _refused(fields.number, {"x": 2}, "x", "x: must be a number from 0 to 1, got 2", low=0, high=1)
    assert fields.boolean({"b": False}, "b", default=True) is False and fields.boolean({}, "b", default=True)
    _refused(fields.boolean, {"b": 1}, "b", "b: must be true or false, got 1")
    assert fields.string({"s": "x"}, "s") == "x" and fields.string({"s": None}, "s", default="d") == "d"
    _refused(fields.string, {"s": 3}, "s", "s: must be a path, got 3", what="a path")
    _refused(fields.string, {"s": "a\0b"}, "s", "s: contains a NUL character")
    assert fields.string({"s": "a\0b"}, "s", nul=True) == "a\0b"
    _refused(fields.string, {"s": None}, "s", "s: must be a string, got null", need=True)
    assert fields.string_list({"l": ["a", "b"]}, "l") == ("a", "b")
    _refused(fields.string_list, {"l": ["a", 1]}, "l", 'l: must be a list of strings, got ["a",1]')


def test_one_of_and_unknown_keys() -> None:
    assert fields.one_of({}, "t", ("a", "b"), default="a") == "a"
    _refused(fields.one_of, {"t": "c"}, "t", "agents[0].t: 'c' is not one of a, b", choices=("a", "b"),
             where="agents[0]")
    _refused(fields.one_of, {"t": 5}, "t", "t: must be a string, got 5", choices=("a", "b"))
    fields.check_keys({"a": 1}, ("a", "b"))
    with pytest.raises(ConfigError, match=r"^sprt\.c\\n: unknown key \(known keys: a, b\)$"):
        fields.check_keys({"c\n": 1}, ("a", "b"), "sprt")


def test_env_map_is_sorted_and_capped() -> None:
    assert fields.env_map({"env": {"B": "2", "A": "1"}}, "env") == (("A", "1"), ("B", "2"))
    assert fields.env_map({}, "env") == ()
    many = {f"V{i}": "" for i in range(MAX_ENV_VARS + 1)}
    _refused(fields.env_map, {"env": many}, "env", f"a.env: at most {MAX_ENV_VARS} variables allowed, got {MAX_ENV_VARS + 1}",
             where="a")
    _refused(fields.env_map, {"env": {"X": "x" * (MAX_ENV_VALUE + 1)}}, "env",
             f"env.X: at most {MAX_ENV_VALUE} characters allowed, got {MAX_ENV_VALUE + 1}")
    _refused(fields.env_map, {"env": {"X": "a\0"}}, "env", "env.X: contains a NUL character")
    _refused(fields.env_map, {"env": {"1X": "a"}}, "env",
             "env.1X: not a valid environment variable name (letters, digits and '_', not starting with a digit)")
    _refused(fields.env_map, {"env": ["X=1"]}, "env", 'env: must be an object of names to strings, like {"DEPTH": "4"}, '
             'got ["X=1"]')


def test_prefixed_puts_the_file_first() -> None:
    with (pytest.raises(ConfigError, match=r"^SPSA config 'x': pairs: must be a positive integer, got 0$"),
          fields.prefixed("SPSA config 'x'")):
        fields.integer({"pairs": 0}, "pairs", low=1, high=5)
    with pytest.raises(ConfigError, match=r"^pairs: "), fields.prefixed(""):
        fields.integer({"pairs": 0}, "pairs", low=1, high=5)
    assert len(fields.show("x" * 100)) <= 60


def test_the_evolve_command_names_its_options(tmp_path: Any) -> None:
    from click.testing import CliRunner

    from arena.cli.train_cmd import train_command

    result = CliRunner().invoke(train_command, ["evolve", "--game", "connect4", "--population", "4", "--keep", "5",
                                                "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert result.output == "arena train: error: --keep: at most the population (4) allowed, got 5\n"
