"""What `arena serve` refuses and adds (issue 33, item 9; arena/serve/guard.py): Host names it does
not serve (a DNS-rebinding page), a Content-Security-Policy on every answer that lets a page run
only its own scripts, and a 4xx, never a 500 or a traceback, for every malformed request (the
routes' parameters fuzzed)."""

from __future__ import annotations

import base64
import hashlib
import random
import re
import warnings
from pathlib import Path
from urllib.parse import quote

import pytest
import trio

from arena.serve.app import create_app, game_number
from arena.serve.guard import host_allowed, known_names, script_hashes

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def client(folder: Path, base: str = "http://127.0.0.1", **kwargs: object) -> TestClient:
    return TestClient(create_app(folder, **kwargs), base_url=base, raise_server_exceptions=False)  # type: ignore[arg-type]


# -- Host names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000",
                                  "192.168.1.20:8000", "localhost."])
def test_the_names_it_serves_are_answered(played: Path, host: str) -> None:
    assert client(played).get("/", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:8000", "127.0.0.1.attacker.example",
                                  "localhost.attacker.example", "[::1", "[::1]x", "127.0.0.1:80:80", "a b", ""])
def test_a_rebinding_page_is_refused_on_every_route(played: Path, host: str) -> None:
    http = client(played)
    for path in ("/", "/game/0", "/agent/b1", "/standings.json", "/events"):
        answer = http.get(path, headers={"Host": host})
        assert answer.status_code == 400, (path, host, answer.status_code)
        assert "--allow-host" in answer.text and "Traceback" not in answer.text


def test_allow_host_adds_a_name_and_only_that_one(played: Path) -> None:
    http = client(played, allowed_hosts=["arena.example.org"])
    assert http.get("/", headers={"Host": "arena.example.org"}).status_code == 200
    assert http.get("/", headers={"Host": "Arena.Example.org:443"}).status_code == 200
    assert http.get("/", headers={"Host": "other.example.org"}).status_code == 400


def test_a_request_without_host_is_refused(played: Path) -> None:
    assert not host_allowed(None, known_names())
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.0", "method": "GET", "scheme": "http",
             "path": "/", "raw_path": b"/", "query_string": b"", "root_path": "", "headers": [],
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    trio.run(create_app(played), scope, receive, send)
    assert sent[0]["status"] == 400


# -- Content-Security-Policy ----------------------------------------------------------------------------


def _policy(answer: object) -> dict[str, str]:
    header = answer.headers["content-security-policy"]  # type: ignore[attr-defined]
    return {part.split()[0]: part.strip() for part in header.split(";")}


@pytest.mark.parametrize("path", ["/", "/game/3", "/agent/b2"])
def test_each_page_may_run_exactly_its_own_inline_scripts(played: Path, path: str) -> None:
    answer = client(played).get(path)
    assert answer.status_code == 200
    policy = _policy(answer)
    scripts = re.findall(r"<script>(.*?)</script>", answer.text, re.DOTALL)
    wanted = {"'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'" for s in scripts}
    assert set(policy["script-src"].split()[1:]) == (wanted or {"'none'"})
    assert bool(scripts) == (path != "/agent/b2")  # the leaderboard and the viewer run scripts
    assert "unsafe" not in policy["script-src"] and policy["default-src"] == "default-src 'none'"
    assert policy["connect-src"] == "connect-src 'self'" and policy["frame-ancestors"] == "frame-ancestors 'none'"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_what_is_not_a_page_runs_no_script(played: Path) -> None:
    for path in ("/standings.json", "/game/99999", "/nowhere"):
        answer = client(played).get(path)
        assert _policy(answer)["script-src"] == "script-src 'none'", path


def test_data_blocks_and_external_scripts_are_not_hashed() -> None:
    page = (b'<script type="application/json">{"a":1}</script><script src="/x.js"></script>'
            b"<script>run()</script><script type='text/javascript'>run()</script>")
    assert script_hashes(page) == ["'sha256-" + base64.b64encode(hashlib.sha256(b"run()").digest()).decode() + "'"]


# -- malformed requests: a 4xx, never a 500 ---------------------------------------------------------------


def test_a_game_number_of_5000_digits_is_a_4xx(played: Path) -> None:
    http = client(played)
    assert http.get("/events?game=" + "9" * 5000).status_code == 400
    assert http.get("/game/" + "9" * 5000).status_code == 404
    assert game_number("9" * 5000) is None and game_number("²") is None and game_number("12") == 12


def _fuzz_values(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    fixed = ["", " ", "-1", "+1", "1e3", "0x10", "1.5", "²", "٣", "１", "9" * 5000, "0" * 13, "%", "%zz", "%00",
             "\x00", "../../etc/passwd", "<script>", "a" * 10000, "\udcff", "🙂", "1 OR 1=1", "[]", "{}"]
    alphabet = "0123456789-+ .%/\\?#&=;<>\"'\x00\x7f²٣éあ🙂"
    randoms = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))) for _ in range(count)]
    return fixed + randoms


def test_fuzzed_parameters_of_every_route_are_answered_below_500(played: Path) -> None:
    http = client(played)
    bad = []
    for value in _fuzz_values(33, 150):
        quoted = quote(value, safe="", errors="surrogateescape")
        asks = [f"/game/{quoted}", f"/agent/{quoted}", f"/standings.json?{quoted}", f"/?game={quoted}"]
        if game_number(value) is None:  # a game number would open an endless stream
            asks.append(f"/events?game={quoted}")
        for path in asks:
            answer = http.get(path)
            if answer.status_code >= 500 or "Traceback" in answer.text:
                bad.append((path[:80], answer.status_code))
            if path.startswith("/events"):
                assert answer.status_code == 400, path[:80]
    assert not bad, bad
