"""The HTML report in a real browser: Debian's ``chromium``, headless.

The page's own self-test (``report.html#selftest=N``, see :mod:`arena.report.viewer`) checks the
game list, then steps through game ``N`` with real ``keydown`` events (Home, ArrowRight to the end,
ArrowLeft back, End, Home) and compares, after every key, the board in the DOM with the CRC of the
registry renderer's SVG of the record's state at that ply; any page error fails it. The test reads
the verdict from ``chromium --dump-dom``. Screenshots of the report and of the viewer are kept in
``tests/report/artifacts/`` (ignored by git) for people to look at.

Without ``chromium`` on the PATH these tests are skipped, loudly: ``.ci/run`` installs it.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import struct
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from report_support import record_with_plies, synthetic_record, write_log_folder

from arena.records.replay import Replay
from arena.records.sources import GameEntry, open_source
from arena.report.html import report_html, viewer_html, write_page

CHROMIUM = shutil.which("chromium")
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
#: A hang backstop only (a run takes one to two seconds idle; a page of 80 games took 60-80 s with
#: the machine at load 16-24, so the backstop leaves room for a busy machine).
BROWSER_TIMEOUT_S = 600

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="SKIPPED LOUDLY: `chromium` is not installed, so the HTML viewer is NOT tested in a browser. "
           "Install it (Debian: `apt-get install -y chromium`; .ci/run does this as root) and run again.")


def run_chromium(url: str, *args: str, profile: Path) -> str:
    """Run headless chromium on ``url``; its stdout. The whole process group dies on every path."""
    assert CHROMIUM is not None
    command = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-extensions", f"--user-data-dir={profile}", "--virtual-time-budget=10000", *args, url]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=BROWSER_TIMEOUT_S)
    finally:
        # chromium leaves helper processes (zygote, utility) in its group: end them all.
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
    return out.decode("utf-8", "replace")


def selftest(page: Path, game: int | str, profile: Path) -> tuple[list[str], float]:
    """The page's self-test verdicts (one line per game; ``game`` may be ``"all"``) and the wall
    time of the browser run (s)."""
    started = time.monotonic()
    dom = run_chromium(f"{page.as_uri()}#selftest={game}", "--dump-dom", profile=profile)
    elapsed = time.monotonic() - started
    match = re.search(r'<pre id="selftest">([^<]*)</pre>', dom)
    assert match, f"no self-test verdict in the page (chromium printed {len(dom)} characters)"
    return match.group(1).splitlines(), elapsed


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A report of four games: a 100-ply checkers game (game 0), and Shobu, Breakthrough and
    Connect Four games with a random opening."""
    records = [record_with_plies("checkers", 100, black="alphabeta", white="greedy"),
               synthetic_record("shobu", seed=3, max_plies=40, black="greedy", white="alphabeta"),
               synthetic_record("breakthrough", seed=4, max_plies=40),
               synthetic_record("connect4", seed=5, max_plies=40)]
    folder = write_log_folder(tmp_path_factory.mktemp("logs") / "t", records)
    page = tmp_path_factory.mktemp("html") / "report.html"
    write_page(page, report_html(open_source(folder), title="arena report: browser test"))
    return page


def test_stepping_through_every_game_by_keys(report: Path, tmp_path: Path) -> None:
    verdicts, elapsed = selftest(report, "all", tmp_path / "profile")
    print(f"\nbrowser self-test (one chromium run of {elapsed:.1f} s):\n  " + "\n  ".join(verdicts))
    assert len(verdicts) == 4 and all(v.startswith("PASS") for v in verdicts), verdicts
    # The 100-ply game: Home, 100 x ArrowRight, one more at the end, 100 x ArrowLeft, End, Home.
    assert "game=0 plies=100 steps=204 " in verdicts[0], verdicts[0]
    assert " list=4 " in verdicts[0], verdicts[0]


def test_single_game_page(tmp_path: Path) -> None:
    record = synthetic_record("shobu", seed=9, max_plies=30)
    page = tmp_path / "game.html"
    entry = open_source_entry(record)
    write_page(page, viewer_html(entry, Replay.from_record(record)))
    verdicts, _ = selftest(page, 0, tmp_path / "profile")
    assert len(verdicts) == 1 and verdicts[0].startswith("PASS") and "plies=30 " in verdicts[0], verdicts


def open_source_entry(record: dict[str, Any]) -> GameEntry:
    return GameEntry(0, "?", "?", str(record["winner"]), str(record["termination"]), None, record=dict(record))


def test_screenshots(report: Path, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    shots = {"report.png": report.as_uri(), "viewer.png": f"{report.as_uri()}#game=0&ply=41"}
    for name, url in shots.items():
        target = ARTIFACTS / name
        target.unlink(missing_ok=True)
        run_chromium(url, f"--screenshot={target}", "--window-size=1280,900", "--hide-scrollbars",
                     profile=tmp_path / f"profile-{name}")
        assert target.exists(), f"chromium wrote no screenshot {target}"
        assert png_size(target) == (1280, 900)
        assert target.stat().st_size > 20_000  # a drawn page, not a blank one
        print(f"\nscreenshot: {target}")
    shutil.copy(report, ARTIFACTS / "report.html")


# -- N-seat tournaments and large fields ------------------------------------------------------------


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The report of a 60-agent league of four-player Goofspiel (80 games, standings counted by
    hand in the N-seat standings format)."""
    from standings_fixtures import write_seat_folder

    folder = write_seat_folder(tmp_path_factory.mktemp("logs") / "league", game="goofspiel",
                               agents=[f"bot-{i:02d}" for i in range(60)], games=80, players=4, seed=3)
    page = tmp_path_factory.mktemp("html") / "league.html"
    write_page(page, report_html(open_source(folder), title="arena report: 60-agent league"))
    return page


def test_n_seat_report_in_a_browser(league: Path, tmp_path: Path) -> None:
    verdicts, elapsed = selftest(league, "all", tmp_path / "profile")
    print(f"\nN-seat report self-test ({elapsed:.1f} s): {verdicts[0]}")
    assert len(verdicts) == 80 and all(v.startswith("PASS") for v in verdicts), [v for v in verdicts if "FAIL" in v]
    # The game list, then the standings sorted by a header click both ways, then every game by keys.
    assert " list=80 " in verdicts[0] and verdicts[0].endswith(" standings=60"), verdicts[0]


def test_league_screenshots(league: Path, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for name, url in {"league.png": league.as_uri(), "league-game.png": f"{league.as_uri()}#game=5&ply=6"}.items():
        target = ARTIFACTS / name
        target.unlink(missing_ok=True)
        run_chromium(url, f"--screenshot={target}", "--window-size=1280,900", "--hide-scrollbars",
                     profile=tmp_path / f"profile-{name}")
        assert target.exists() and png_size(target) == (1280, 900) and target.stat().st_size > 20_000
        print(f"\nscreenshot: {target}")
    shutil.copy(league, ARTIFACTS / "league.html")


def test_a_report_with_its_boards_in_chunk_files(tmp_path: Path) -> None:
    """A report of many games (arena.report.chunks): every game's chunk is loaded from beside the
    page when the game is opened, and its boards pass the same self-test."""
    from arena.report.chunks import write_report

    records = [synthetic_record("connect4", seed=seed, max_plies=30) for seed in range(5)]
    folder = write_log_folder(tmp_path / "t", records)
    page = tmp_path / "html" / "report.html"
    page.parent.mkdir()
    write_report(open_source(folder), page, split_at=2, chunk_games=2, workers=1)
    verdicts, _ = selftest(page, "all", tmp_path / "profile")
    assert len(verdicts) == 5 and all(v.startswith("PASS") and " load_ms=" in v for v in verdicts), verdicts


def test_a_chunk_file_missing_or_broken_is_named_with_why(tmp_path: Path) -> None:
    """A game whose chunk file is gone, or is not a compressed chunk, fails with a reason; the
    games of the chunk files that are there still open."""
    from arena.report.chunks import games_folder, write_report

    records = [synthetic_record("connect4", seed=seed, max_plies=30) for seed in range(6)]
    folder = write_log_folder(tmp_path / "t", records)
    page = tmp_path / "html" / "report.html"
    page.parent.mkdir()
    write_report(open_source(folder), page, split_at=2, chunk_games=2, workers=1)
    chunks = games_folder(page)
    (chunks / "chunk-1.js").write_text('arenaChunkZ(1,"bm90IHpsaWI=");\n')  # base64 of "not zlib"
    (chunks / "chunk-2.js").unlink()
    verdicts, _ = selftest(page, "all", tmp_path / "profile")
    assert len(verdicts) == 6, verdicts
    assert all(v.startswith("PASS") for v in verdicts[:2]), verdicts
    assert all(v.startswith("FAIL") and "its chunk file: it cannot be read: " in v for v in verdicts[2:4]), verdicts
    assert all(v.startswith("FAIL") and "it must sit beside this page" in v for v in verdicts[4:]), verdicts


def rules_boards(game_name: str, seed: int, max_plies: int) -> list[str]:
    """The CRC of the renderer's picture at each ply of :func:`synthetic_record`'s game ``seed``
    (two opening plies), played again here with the game's own rules (the same seeded random moves
    and charged times drawn), not read from the record."""
    import random

    from arena.games.registry import get_game, get_spec, load_ref
    from arena.report.frames import svg_hash

    game = get_game(game_name)
    ref = get_spec(game_name).svg
    assert ref is not None
    render = load_ref(ref)
    rng = random.Random(seed)
    state, move = game.initial_state(), None
    out = [svg_hash(render(state, None))]
    for ply in range(max_plies):
        if game.outcome(state) is not None:
            break
        move = rng.choice(game.legal_moves(state))
        if ply >= 2:
            rng.uniform(0.5, 400.0)  # the record's charged time, drawn after the move
        state = game.apply(state, move)
        out.append(svg_hash(render(state, move)))
    return out


@pytest.mark.parametrize("split", [False, True])
def test_each_ply_drawn_is_the_rules_position(tmp_path: Path, split: bool) -> None:
    """A Connect Four, a Shobu and a checkers game (each twice, so the second shares the first's
    boards), in one page or in chunk files: the board the page draws at each ply, as the browser
    hashes it, is the renderer's picture of the position the rules reach."""
    from arena.report.chunks import write_report

    games = [("connect4", 5, 40), ("shobu", 3, 60), ("checkers", 7, 80)]
    records = [synthetic_record(name, seed=seed, max_plies=plies) for name, seed, plies in games for _ in (0, 1)]
    folder = write_log_folder(tmp_path / "t", records)
    page = tmp_path / "html" / "report.html"
    page.parent.mkdir()
    write_report(open_source(folder), page, split_at=2 if split else 10, chunk_games=4, workers=1)
    verdicts, _ = selftest(page, "all&boards", tmp_path / "profile")
    assert len(verdicts) == 6 and all(v.startswith("PASS") for v in verdicts), verdicts
    for k, verdict in enumerate(verdicts):
        name, seed, plies = games[k // 2]
        shown = re.search(r" boards=([0-9a-f,]+)", verdict)
        assert shown, verdict
        assert shown.group(1).split(",") == rules_boards(name, seed, plies), f"game {k} ({name})"
