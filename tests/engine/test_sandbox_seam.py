"""Sandbox backends are the ``arena.sandboxes`` entry-point group: arena's own (bubblewrap, none) are
registered by arena's pyproject.toml as a plugin's are; the config's ``sandbox`` and
``--sandbox-backend`` take a backend's name while ``true``/``false`` and ``--sandbox``/``--no-sandbox``
keep their meaning; a plugin's backend wraps the bots of a real match; unknown and broken
backends are one line each."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import cli
from arena.errors import ConfigError
from arena.process.isolation import sandbox_available
from arena.process.sandboxes import SANDBOX_SEAM, NoSandbox, backend_of, names, normal_sandbox, sandbox_field
from arena.tournament.config import load_config
from tests.helpers import installed_plugin, own_entry_points

REPO = Path(__file__).resolve().parents[2]
BOT = f"python3 {REPO / 'bots' / 'connect4_random.py'}"

#: A third party's backend: bubblewrap's wrapping, each request kept for the test to read.
PLUGIN = '''\
from arena.process.sandbox import BubblewrapSandbox


class Audited:
    requests = []

    def available(self):
        return BubblewrapSandbox().available()

    def wrap(self, request):
        type(self).requests.append(request)
        return BubblewrapSandbox().wrap(request)


class Missing:
    def available(self):
        return "the audited sandbox needs auditd (apt-get install auditd)"

    def wrap(self, request):
        raise AssertionError("never asked: it is not available")
'''
ENTRY_POINTS = """\
[arena.sandboxes]
audited = arena_audited_sandbox:Audited
missing = arena_audited_sandbox:Missing
none = arena_audited_sandbox:Audited
broken = arena_audited_sandbox:NoSuchClass
"""

needs_bubblewrap = pytest.mark.skipif(sandbox_available() is not None, reason=str(sandbox_available()))


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    with installed_plugin(monkeypatch, tmp_path / "site", SANDBOX_SEAM, "arena-audited-sandbox", ENTRY_POINTS,
                          {"arena_audited_sandbox.py": PLUGIN}):
        yield SANDBOX_SEAM.load("audited")


def test_arena_own_backends_are_entry_points_of_its_distribution() -> None:
    assert set(own_entry_points("arena.sandboxes")) == {"bubblewrap", "none"}
    assert tuple(names())[:2] == ("bubblewrap", "none")
    assert type(backend_of(True)).__name__ == "BubblewrapSandbox" and isinstance(backend_of(False), NoSandbox)


def test_booleans_and_names_are_one_choice() -> None:
    assert [normal_sandbox(v) for v in (None, True, False, "bubblewrap", "none")] == [None, True, False, True, False]
    assert sandbox_field({}) is None and sandbox_field({"sandbox": "none"}) is False
    with pytest.raises(ConfigError, match=r"^sandbox: 'nsjail' is not one of bubblewrap, none$"):
        sandbox_field({"sandbox": "nsjail"})
    with pytest.raises(ConfigError, match=r"^sandbox: must be true, false or a sandbox backend's name "
                                          r"\(bubblewrap, none\), got 1$"):
        sandbox_field({"sandbox": 1})


def _config(tmp_path: Path, sandbox: Any) -> Path:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"id": "s", "game": "connect4", "sandbox": sandbox,
                                "agents": [{"id": "a", "path": BOT}, {"id": "b", "path": BOT}]}))
    return path


@needs_bubblewrap
def test_configs_old_and_new_spellings(tmp_path: Path) -> None:
    assert load_config(str(_config(tmp_path, True))).sandbox is True
    assert load_config(str(_config(tmp_path, "bubblewrap"))).sandbox is True  # the same config as true
    assert load_config(str(_config(tmp_path, False))).sandbox is False
    assert load_config(str(_config(tmp_path, "none"))).sandbox is False
    with pytest.raises(ConfigError, match=r"sandbox: 'firejail' is not one of bubblewrap, none"):
        load_config(str(_config(tmp_path, "firejail")))


def match(*args: str) -> Any:
    return CliRunner().invoke(cli, ["match", "--game", "connect4", BOT, BOT, "--json", *args], catch_exceptions=False)


def test_cli_names_and_contradictions_are_one_line() -> None:
    result = match("--sandbox-backend", "nsjail")
    assert result.exit_code == 2
    assert "Invalid value for '--sandbox-backend': 'nsjail' is not one of bubblewrap, none" in result.output
    result = match("--no-sandbox", "--sandbox-backend", "bubblewrap")
    assert result.exit_code == 2 and "--no-sandbox contradicts --sandbox-backend bubblewrap" in result.output


def test_sandbox_backend_none_is_no_sandbox() -> None:
    result = match("--sandbox-backend", "none")
    assert result.exit_code == 0, result.output
    assert "--no-sandbox: bots run" in result.stderr
    assert json.loads(result.stdout)["termination"] in ("win", "draw")


@needs_bubblewrap
def test_a_plugins_backend_wraps_the_bots_of_a_match(plugin: Any) -> None:
    assert tuple(names()) == ("bubblewrap", "none", "audited", "missing", "broken")
    assert SANDBOX_SEAM.problems()["none"].endswith("already registered by arena-bots")
    result = match("--sandbox-backend", "audited")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["termination"] in ("win", "draw")
    assert len(plugin.requests) == 2, "each bot went through the plugin"
    for request in plugin.requests:
        assert str(REPO / "bots" / "connect4_random.py") in request.inner
        assert request.scratch_bytes and request.view.workdir


def test_unavailable_and_broken_plugins_are_one_line(plugin: Any) -> None:
    result = match("--sandbox-backend", "missing")
    assert result.exit_code == 2
    assert "the audited sandbox needs auditd (apt-get install auditd)" in result.output
    result = match("--sandbox-backend", "broken")
    assert result.exit_code == 2
    assert ("sandbox 'broken' (arena_audited_sandbox:NoSuchClass, from arena-audited-sandbox): cannot load: "
            "AttributeError") in " ".join(result.output.split())


def test_doctor_says_whether_each_plugin_sandbox_works(plugin: Any) -> None:
    result = CliRunner().invoke(cli, ["doctor", "--json"], catch_exceptions=False)
    found = {f["what"]: f for f in json.loads(result.stdout)}
    assert found["sandbox missing"] == {"what": "sandbox missing", "ok": False,
                                        "detail": "the audited sandbox needs auditd (apt-get install auditd)"}
    assert found["sandbox audited"]["ok"] is (sandbox_available() is None)
    assert "sandbox broken" in found and not found["sandbox broken"]["ok"]
    own = [f for what, f in found.items() if not what.startswith("sandbox ")]
    assert result.exit_code == (0 if all(f["ok"] for f in own) else 1), "a plugin's sandbox never fails arena's doctor"
