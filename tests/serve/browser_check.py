"""Run inside `unshare -n -p -f --mount-proc` with loopback up (test_serve_browser.py): the real `arena
serve` on 127.0.0.1 and headless Chromium (Debian's, driven by Playwright) on the same loopback.
Prints one line per check; exits non-zero at the first failure.

argv: LOGDIR SHOTS. LOGDIR is a played tournament's folder (a copy: it is changed here, as a run
would change it); SHOTS a folder for the screenshots (1280x900): the leaderboard with a game in
progress, that game's page, a finished game in the viewer and an agent's page.

What the run does is played here by hand, step by step, with the run's own writers: the last three
games are held back and appended one by one with standings recomputed (what the standings worker
does), and a game in progress is traced move by move with :class:`arena.tournament.live.LiveTrace`.
Each step waits for the DOM to show it (Playwright's waits; their timeout is a backstop), and a
marker set on the page's window proves it was never reloaded.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

from arena.fileio.files import atomic_write
from arena.games.registry import configured_game
from arena.match.progress import StepPlayed
from arena.records.logstore import STANDINGS_FILE, dumps
from arena.records.reader import record_name
from arena.tournament.live import LiveTrace
from arena.tournament.logs import standings_from_folder

folder, shots = Path(sys.argv[1]), Path(sys.argv[2])
shots.mkdir(parents=True, exist_ok=True)
URL = "http://127.0.0.1:8766"
WAIT_MS = 180_000  # a backstop: each wait ends as soon as the page shows what it waits for (generous:
# Chromium beside busy loops on 2 cores is slow, and a wait that ends early is a false failure)
shobu = configured_game("shobu")

games = folder / "games.jsonl"
# b2 was replaced: one game of its old version stays in the history (a row of b2's first game under
# an earlier digest, first in the file), out of the standings but on b2's page as a second version.
lines = games.read_bytes().splitlines(keepends=True)
rows = [json.loads(line) for line in lines]
old = next(row for row in rows if "b2" in row["versions"])
history = json.dumps({**old, "index": len(rows), "versions": {**old["versions"], "b2": "5e7d" * 16}}).encode() + b"\n"
held, lines = lines[-3:], [history, *lines[:-3]]
last = json.loads(held[2])
LIVE = last["index"]  # the game shown in progress, then finished: the last one held back
PLAYERS = [last["black"], last["white"]]
# Long reasons (words and one path of no break at all) must wrap, not widen the pages past 1280 px.
LONG = ("the bot wrote a reply the protocol cannot read, a very long one, and kept on writing: "
        + "words " * 60 + "/home/student/" + "very_long_folder_name_" * 12 + "bot.py")
lines[1] = json.dumps({**json.loads(lines[1]), "reason": LONG}).encode() + b"\n"
record_file = folder / record_name(LIVE)
record_file.write_text(json.dumps({**json.loads(record_file.read_text()), "reason": LONG}))


def write_games(kept: list[bytes]) -> None:
    """``games.jsonl`` as ``kept`` and the standings of those games, as the run writes them."""
    with games.open("wb") as out:
        out.writelines(kept)
    standings, _ = standings_from_folder(folder, bootstrap_samples=20)
    atomic_write(folder / STANDINGS_FILE, dumps(standings))


def move(trace: object, ply: int, text: str) -> None:
    """One move of the game in progress, as the engine's observer event."""
    assert callable(trace)
    step = {"ply": ply - 1, "kind": "move", "seat": (ply - 1) % 2, "move": None, "charged_ms": 12.5,
            "clock_left_ms": 0.0}
    trace(StepPlayed(shobu, step, text, None, (), (), LIVE))


#: The games of every agent's line of the leaderboard, added up (twice the games in the standings).
BOARD_GAMES = """[...document.querySelectorAll('#leaderboard-table tbody tr')]
    .reduce((n, tr) => n + Number(tr.cells[4].textContent), 0)"""


def new_page(browser: Browser) -> Page:
    """A 1280x900 page whose every wait, navigation included, has :data:`WAIT_MS` as its backstop
    (Playwright's own default is 30 s)."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(WAIT_MS)
    page.set_default_navigation_timeout(WAIT_MS)
    return page


def games_in_board(page: Page) -> int:
    return int(page.evaluate(BOARD_GAMES))


def fits(page: Page, what: str) -> None:
    """The page does not scroll sideways at its 1280 px (long reasons wrap)."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 1280, f"{what} is {wide} px wide at 1280"


def negative_zero() -> None:
    """The standings as written, with one agent's Elo and score a hair below zero (as a run's
    can be): the pages must show them as 0, never -0.0."""
    path = folder / STANDINGS_FILE
    standings = json.loads(path.read_text())
    standings["standings"][-1].update(elo=-0.004, elo_low=-0.3, score_pct=-0.001)
    atomic_write(path, dumps(standings))


write_games(lines)
negative_zero()
live = LiveTrace(folder, folder.parent)
live.clear()
server = subprocess.Popen([sys.executable, "-m", "arena", "serve", str(folder), "--port", "8766"],
                          stderr=subprocess.PIPE, text=True)
chromium = shutil.which("chromium") or shutil.which("chromium-browser")
assert chromium is not None
try:
    assert server.stderr is not None
    banner = server.stderr.readline()  # printed once the socket listens
    assert banner.startswith(f"serving {folder} on {URL}/"), banner
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"], timeout=WAIT_MS)
        errors: list[str] = []
        board = new_page(browser)
        board.on("pageerror", lambda exc: errors.append(str(exc)))
        board.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)
        answer = board.goto(URL + "/")
        assert answer is not None and "script-src 'sha256-" in answer.headers["content-security-policy"], answer
        board.wait_for_function("() => " + "document.body.classList.contains('live') && document.body.dataset.games === '4'",
                                timeout=WAIT_MS)
        board.evaluate("window.arenaMarker = 'not reloaded'")
        before = games_in_board(board)
        assert before == 2 * 3, before
        assert board.inner_text("#live").strip() == "No game in progress."
        print("leaderboard: 3 games, live")
        shown = board.inner_text("#leaderboard") + board.inner_html("#plot")
        assert "-0.0" not in shown and "-0 " not in shown and "-0%" not in shown, shown
        assert board.locator("#latest td.reason", has_text="very_long_folder_name_").count() == 1
        fits(board, "the leaderboard")
        print("no -0.00 in the standings; a long reason wraps")

        trace = live.start(LIVE, PLAYERS)
        move(trace, 1, "a1b2")
        move(trace, 2, "c3d4")
        board.wait_for_function("() => " + f"(document.querySelector('#live tr[data-live=\"{LIVE}\"]') || {{}}).textContent"
                                "?.includes('c3d4')", timeout=WAIT_MS)
        row = board.inner_text(f'#live tr[data-live="{LIVE}"]')
        assert f"{PLAYERS[0]} – {PLAYERS[1]}" in row and "1.a1b2" in row and "2.c3d4" in row, row
        print("a game in progress shows its moves")

        write_games(lines + held[:2])
        board.wait_for_function("() => " + f"document.body.dataset.games === '6' && ({BOARD_GAMES}) === 10", timeout=WAIT_MS)
        after = games_in_board(board)
        assert after == 2 * 5, after
        assert board.evaluate("window.arenaMarker") == "not reloaded"
        print(f"leaderboard changed without a reload: {before // 2} -> {after // 2} games")
        board.screenshot(path=str(shots / "leaderboard.png"))

        game = new_page(browser)
        game.on("pageerror", lambda exc: errors.append(str(exc)))
        game.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)
        game.goto(f"{URL}/game/{LIVE}")
        game.wait_for_function("() => " + "document.body.classList.contains('live')", timeout=WAIT_MS)
        game.evaluate("window.arenaMarker = 'not reloaded'")
        move(trace, 3, "e5f6")
        game.wait_for_function("() => " + "document.querySelector('#live-game').textContent.includes('e5f6')", timeout=WAIT_MS)
        assert game.evaluate("window.arenaMarker") == "not reloaded"
        moves = [li.strip() for li in game.locator("#live-game li").all_inner_texts()]
        assert moves == [f"{PLAYERS[0]} a1b2 12 ms", f"{PLAYERS[1]} c3d4 12 ms", f"{PLAYERS[0]} e5f6 12 ms"], moves
        # A long game: its list outgrows the window, and the page keeps the latest move in view.
        for ply in range(4, 301):
            move(trace, ply, f"m{ply}")
        game.wait_for_function("() => " + "(document.querySelector('#live-game li.latest') || {}).textContent?.includes('m300')",
                               timeout=WAIT_MS)
        assert game.locator("#live-game li.latest").count() == 1
        assert game.locator("#live-game li").last.inner_text().strip() == f"{PLAYERS[1]} m300 12 ms"
        game.wait_for_function("() => " + "(r => r.top >= 0 && r.bottom <= window.innerHeight + 1)("  # + 1: sub-pixel layout
                               "document.querySelector('#live-game li.latest').getBoundingClientRect())", timeout=WAIT_MS)
        assert game.evaluate("window.scrollY") > 0  # it was scrolled there: 300 moves do not fit in 900 px
        board.wait_for_function("() => " + f"document.querySelector('#live tr[data-live=\"{LIVE}\"]').textContent.includes('m300')",
                                timeout=WAIT_MS)
        game.screenshot(path=str(shots / "game-in-progress.png"))
        print("the game's page follows its moves, the latest in view")

        # The game ends: its trace goes, its line arrives; its page becomes the viewer of its record.
        live.end(LIVE, trace)
        write_games(lines + held)
        game.wait_for_selector(f"#arena-game-{LIVE}", state="attached", timeout=WAIT_MS)
        board.wait_for_function("() => " + f"document.body.dataset.games === '7' && ({BOARD_GAMES}) === 12", timeout=WAIT_MS)
        board.wait_for_function("() => " + "document.querySelector('#live').textContent.includes('No game in progress')",
                                timeout=WAIT_MS)
        assert board.evaluate("window.arenaMarker") == "not reloaded"
        print("a finished game leaves the games in progress and opens in the viewer")
        game.goto(f"{URL}/game/{LIVE}")
        game.wait_for_load_state("load")
        # The viewer's own script ran under the policy: its board is drawn, its moves listed.
        game.wait_for_function("() => " + "document.querySelectorAll('svg').length > 0", timeout=WAIT_MS)
        # A finished game opens at its last position, with the result and its reason shown.
        game.wait_for_function("() => " + "document.querySelector('#result').textContent.includes('very_long_folder_name_')",
                               timeout=WAIT_MS)
        at = game.evaluate("[document.querySelector('#board').dataset.ply, document.querySelector('#slider').max]")
        assert at[0] == at[1] and int(at[0]) > 0, at
        assert game.locator("#result").is_visible() and "Result: " in game.inner_text("#result")
        fits(game, "a finished game's page")
        assert game.evaluate("(r => r.scrollWidth <= r.clientWidth)(document.querySelector('#result'))"), \
            "the reason overflows its box"
        game.keyboard.press("Home")  # the viewer's keys still work from there
        game.wait_for_function("() => " + "document.querySelector('#board').dataset.ply === '0'", timeout=WAIT_MS)
        game.goto(f"{URL}/game/{LIVE}#ply=1")  # an address that asks for a position gets it
        game.wait_for_function("() => " + "(document.querySelector('#board') || {dataset: {}}).dataset.ply === '1'",
                               timeout=WAIT_MS)
        game.goto(f"{URL}/game/{LIVE}")
        game.wait_for_function("() => " + "document.querySelector('#result').textContent.includes('Result: ')",
                               timeout=WAIT_MS)
        game.screenshot(path=str(shots / "game.png"))
        print("a finished game opens at its end: the result and its reason, wrapped")

        agent = new_page(browser)
        agent.on("pageerror", lambda exc: errors.append(str(exc)))
        agent.on("console", lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None)
        agent.goto(f"{URL}/agent/b2")
        assert "crashing on purpose" in agent.inner_text("#faults")
        assert agent.locator("#versions tbody tr").count() == 2
        fits(agent, "an agent's page")
        agent.screenshot(path=str(shots / "agent.png"), full_page=False)
        print("an agent's page shows its faults with their stderr")
        assert not errors, errors
        browser.close()
finally:
    server.terminate()
    server.wait(60)
