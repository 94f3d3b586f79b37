"""Issue 18, items 1-3 and 6: what one bot can reach — its opponent's pipes, arena and its guardian,
other runs, processes that outlive the game, root's files and the loopback network — with the
sandbox on (the default) and off. Each attack is a real ``arena`` command with real hostile bots
(:mod:`red_team`); each assertion is on what an outsider sees (records, exit codes, /proc).

The marks ``xfail(strict=True)`` stand for the fixes of issue 18 not yet built: each such test fails
on the code before them (the figures in the module docstring of ``bench/redteam.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import red_team

from arena.isolation import sandbox_available

pytestmark = [
    pytest.mark.skipif(os.geteuid() != 0, reason="issue 18's guarantees are for arena running as root"),
    pytest.mark.timeout(180),
]

#: The isolation under test: the default (the sandbox when bubblewrap works here) and explicitly off.
ISOLATION = [pytest.param([], id="default"), pytest.param(["--no-sandbox"], id="no-sandbox")]


def issue18(what: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(reason=f"issue 18: {what}", strict=True)


def _sandboxed(flags: list[str]) -> bool:
    return "--no-sandbox" not in flags and sandbox_available() is None


def _records_ok(measured: red_team.Measured, games: int) -> None:
    run = measured.run
    assert run is not None
    assert run.returncode == 0, run.stderr[-2000:]
    assert len(run.records) == games, run.stderr[-2000:]


# -- 1. move injection ----------------------------------------------------------------------------


@issue18("a bot under its own uid cannot open another bot's /proc/<pid>/fd")
@pytest.mark.parametrize("flags", ISOLATION)
def test_a_bot_cannot_write_moves_into_its_opponents_stdout(marker: str, public_dir: Path, flags: list[str]) -> None:
    measured = red_team.injection_match(marker, public_dir, flags, games=2)
    _records_ok(measured, 2)
    assert measured.numbers["decided"] == 0, measured.figure
    assert {r["termination"] for r in measured.run.records} == {"max_moves"}  # type: ignore[union-attr]


@issue18("a bot under its own uid cannot reach the bots of other games")
@pytest.mark.parametrize("flags", ISOLATION)
def test_an_injector_decides_no_game_of_a_tournament(marker: str, public_dir: Path, flags: list[str]) -> None:
    measured = red_team.injection_tournament(marker, public_dir, flags, others=2)
    _records_ok(measured, 6)
    assert measured.numbers["decided"] == 0, measured.figure


@issue18("bytes a bot writes before its turn's input are discarded")
@pytest.mark.parametrize("flags", ISOLATION)
def test_a_reply_written_before_its_turns_input_is_discarded(marker: str, public_dir: Path, flags: list[str]) -> None:
    # The bot writes, with each reply, a fake move for its next turn: it must never be read as one.
    measured = red_team.early_reply(marker, public_dir, flags, games=2)
    _records_ok(measured, 2)
    assert measured.numbers["taken"] == 0, measured.figure
    assert {r["termination"] for r in measured.run.records} == {"max_moves"}  # type: ignore[union-attr]


# -- 2. signals -----------------------------------------------------------------------------------


@issue18("a bot under its own uid cannot signal arena (its helper would stop arena for 2 s)")
@pytest.mark.parametrize("flags", ISOLATION)
def test_a_bot_cannot_stop_arena_to_run_out_its_opponents_clock(marker: str, public_dir: Path,
                                                                 flags: list[str]) -> None:
    measured = red_team.stop_arena(marker, public_dir, flags, games=2)
    _records_ok(measured, 2)
    assert measured.numbers["stopped"] == 0 and measured.numbers["lost_on_time"] == 0, measured.figure


@issue18("a bot under its own uid cannot kill arena")
@pytest.mark.parametrize("flags", ISOLATION)
def test_a_bot_cannot_kill_arena(marker: str, public_dir: Path, flags: list[str]) -> None:
    measured = red_team.kill_arena(marker, public_dir, flags, games=2)
    _records_ok(measured, 2)


@issue18("a bot under its own uid cannot kill the guardian; the game's cgroup is killed with arena")
@pytest.mark.parametrize("flags", ISOLATION)
def test_nothing_survives_kill_9_of_arena_after_a_bot_went_for_the_guardian(marker: str, public_dir: Path,
                                                                            flags: list[str]) -> None:
    measured = red_team.kill_guardian(marker, public_dir, flags, wait=3.0)
    assert measured.numbers["killed_arena"], "the bot's child never appeared"
    assert measured.numbers["guardian_alive"], measured.figure
    assert measured.numbers["survivors"] == 0, measured.figure


@issue18("a bot under its own uid cannot signal another run's guardian")
@pytest.mark.parametrize("flags", ISOLATION)
def test_a_bot_cannot_kill_another_runs_guardian(marker: str, public_dir: Path, flags: list[str]) -> None:
    measured = red_team.other_guardians(marker, public_dir, flags)
    assert measured.numbers["found_guardian"], "the other run never started its guardian"
    assert measured.numbers["other_guardian_alive"], measured.figure


# -- 3. escapes -----------------------------------------------------------------------------------


@issue18("each bot's cgroup is frozen between its turns and killed at the game's end")
@pytest.mark.parametrize("flags", ISOLATION)
def test_a_scrubbed_setsid_escapee_is_frozen_and_dies_with_its_game(marker: str, public_dir: Path,
                                                                     flags: list[str]) -> None:
    measured = red_team.escape_burn(marker, public_dir, flags, games=2, burners=2, wait=1.0, victim_cpu_ms=0,
                                    move_time_limit=None, max_moves=8, watch=True)
    _records_ok(measured, 2)
    numbers = measured.numbers
    # Game 1's burners are gone before game 2's start: never more than one game's at once.
    assert numbers["most_alive"] <= 2, measured.figure
    assert numbers["at_exit"] == 0, measured.figure
    # While the victim thinks, the burners (when it can see them at all) get no CPU.
    seen = [ticks for count, ticks in numbers["watched"] if count]
    assert all(ticks == 0 for ticks in seen), numbers["watched"]
    if not _sandboxed(flags):
        assert seen, "the victim never saw the burners: the test proves nothing"


# -- 6. root stays root ---------------------------------------------------------------------------


@issue18("every bot runs under an unprivileged uid/gid of its own")
@pytest.mark.parametrize("flags", ISOLATION)
def test_every_bot_runs_under_an_unprivileged_uid_of_its_own(marker: str, public_dir: Path, flags: list[str]) -> None:
    measured = red_team.root_probe(marker, public_dir, flags)
    _records_ok(measured, 1)
    seen = measured.numbers["ids"]
    modes = {mode for mode, _ in seen.values()}
    assert {"root_probe", "plain"} <= modes, seen  # both bots were seen running
    arena_uid, arena_gid = os.getuid(), os.getgid()
    for mode, ids in seen.values():
        assert all(uid >= 10000 and uid != arena_uid for uid in ids["Uid"]), (mode, ids)
        assert all(gid != 0 and gid != arena_gid for gid in ids["Gid"]), (mode, ids)
        assert 0 not in ids["Groups"], (mode, ids)
    by_mode = {mode: {ids["Uid"][0] for m, ids in seen.values() if m == mode} for mode in modes}
    assert not by_mode["root_probe"] & by_mode["plain"], by_mode  # not the same uid as its opponent


@issue18("a bot under its own uid cannot read root's files or write arena's")
@pytest.mark.parametrize("flags", ISOLATION)
def test_a_bot_started_by_root_cannot_use_roots_files(marker: str, public_dir: Path, flags: list[str]) -> None:
    measured = red_team.root_probe(marker, public_dir, flags)
    _records_ok(measured, 1)
    probe = measured.numbers["probe"]
    for key in ("shadow", "root_home", "root_write", "forge"):
        assert str(probe.get(key, "")).startswith("denied"), (key, probe)
    assert not measured.numbers["root_owned_written"]
    assert not measured.numbers["forged_row_in_file"]
    if _sandboxed(flags):
        assert str(probe.get("connect", "")).startswith("denied"), probe  # no network in the sandbox


@issue18("the sandbox is on by default when bubblewrap works")
def test_the_sandbox_is_on_by_default(marker: str, public_dir: Path) -> None:
    if sandbox_available() is not None:
        pytest.skip(str(sandbox_available()))
    measured = red_team.root_probe(marker, public_dir, [])
    _records_ok(measured, 1)
    probe = measured.numbers["probe"]
    assert probe["pids_seen"] <= 4, probe  # its own PID namespace
    assert str(probe.get("connect", "")).startswith("denied"), probe


@pytest.mark.parametrize("flags", [["--sandbox"], ["--no-sandbox"]], ids=["--sandbox", "--no-sandbox"])
def test_the_sandbox_flags_stay_accepted(marker: str, public_dir: Path, flags: list[str]) -> None:
    if "--sandbox" in flags and sandbox_available() is not None:
        pytest.skip(str(sandbox_available()))
    measured = red_team.root_probe(marker, public_dir, flags)
    _records_ok(measured, 1)
    probe = measured.numbers["probe"]
    if "--sandbox" in flags:
        assert probe["pids_seen"] <= 4 and str(probe.get("connect", "")).startswith("denied"), probe
    else:
        assert probe["pids_seen"] > 4, probe  # it sees the machine's processes: no PID namespace
