"""A gate over a config's agents (``arena roster check``): each entry, whether it loads and,
probed, whether ``arena check-bot``'s checks pass (:func:`arena.tools.check_bot.check_bot`), then
whole games into the middle game at the tournament's time control and a warning for a bot too slow
for it (:mod:`arena.tournament.probe`; a passed probe is kept per version of the bot).

Works on a list of agents and on a roster (:mod:`arena.tournament.roster`) alike. A broken entry is
a row with its reason, never an exception: only a mistake that stops the agents being read at all
(the file, ``id``, ``game``, ``rules``, ``agents`` itself) raises ConfigError.

:func:`passing_config` is the gate before a run (``arena run --set-aside-failing``): the config with
the entries that fail set aside (:func:`set_aside`), so the rest play.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.games.base import GameError
from arena.tournament.agents import AgentEntry
from arena.tournament.config import AgentsView, config_agents, read_config


@dataclass(frozen=True)
class EntryCheck:
    """One row: ``label`` (the id, else where the entry is), ``command`` (as the config or the
    folder's ``bot.json`` wrote it; ``argv`` resolved, or the file of a hyperparameters agent; both
    empty for a person or an entry that did not load), and ``reason`` why it fails (None: it passes);
    ``checks`` are check-bot's lines when probed (:meth:`arena.tools.check_bot.Check.to_json`) and
    the middle game's; ``warning`` says when the bot is too slow for the time control (it still
    passes); ``kept``: the probe's result is the one kept for this version of the bot."""

    label: str
    where: str
    command: str
    argv: tuple[str, ...]
    reason: str | None
    language: str | None = None
    probed: bool = False
    checks: tuple[dict[str, Any], ...] = ()
    warning: str | None = None
    kept: bool = False

    @property
    def ok(self) -> bool:
        return self.reason is None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.label, "where": self.where, "command": self.command, "argv": list(self.argv), "ok": self.ok, "reason": self.reason,
                "language": self.language, "probed": self.probed, "checks": list(self.checks),
                "warning": self.warning, "kept": self.kept}


def load_entries(path: str | os.PathLike[str]) -> tuple[AgentsView, list[EntryCheck]]:
    """The config at ``path`` read as far as its agents, and one row per entry (loaded: passing)."""
    obj, base_dir = read_config(path)
    view = config_agents(obj, base_dir)
    return view, [_row(entry) for entry in view.entries]


def _row(entry: AgentEntry) -> EntryCheck:
    agent = entry.agent
    command = agent.raw_path or "" if agent is not None else ""
    argv = (agent.command or ((agent.path,) if agent.path else ())) if agent is not None else ()
    reason = entry.problem
    if reason is not None:
        # The row names the entry already: keep what follows its name (``path: ...``, ``bot.json: ...``).
        reason = reason.removeprefix(entry.where).lstrip(":. ") or reason
    return EntryCheck(entry.id or entry.where, entry.where, command, argv, reason, entry.language)


@dataclass(frozen=True)
class ProbeSetting:
    """How the probe plays: ``time_limit_ms`` each side's budget in check-bot's games; ``game_ms`` the
    tournament's (its ``timeLimit``) in the middle games and for the pace warning; ``logs_root``
    where passed probes are kept (None: nothing kept); ``base_dir`` the config's folder (an agent's
    version reads its files from there); ``again``: probe even a version whose probe is kept."""

    time_limit_ms: int = 5000
    games: int = 2
    seed: int = 1
    game_ms: int = 60_000
    logs_root: Path | None = None
    base_dir: Path | None = None
    again: bool = False


async def probe_entries(view: AgentsView, rows: list[EntryCheck], *, time_limit_ms: int = 5000, games: int = 2,
                        seed: int = 1, done: Callable[[EntryCheck], None] | None = None,
                        setting: ProbeSetting | None = None) -> list[EntryCheck]:
    """``rows`` with every loaded executable agent probed, one agent at a time (``done`` is told of
    each row as it is settled): check-bot's checks, then the middle games
    (:func:`arena.tournament.probe.middle_game`) and the pace warning; the reason of a failure is
    its first failed check. A version whose passed probe is kept is not probed again. Agents that
    are not programs (arena's own, a person) pass unprobed. ConfigError when the game refuses the
    config's ``players`` or ``parameters``. ``setting`` overrides the three keywords before it."""
    setting = setting or ProbeSetting(time_limit_ms, games, seed)
    agents = {entry.where: entry.agent for entry in view.entries if entry.agent is not None}
    out = []
    for row in rows:
        agent = agents.get(row.where)
        if row.ok and agent is not None and agent.type == "executable" and agent.command:
            row = await _probe(view, row, agent, setting)
        out.append(row)
        if done is not None:
            done(row)
    return out


async def _probe(view: AgentsView, row: EntryCheck, agent: Any, setting: ProbeSetting) -> EntryCheck:
    """One agent's probe (:func:`probe_entries`), or the one kept for its version."""
    from arena.games.registry import get_spec
    from arena.tools.check_bot import check_bot
    from arena.tournament import probe
    from arena.tournament.versions import agent_version

    key = None
    if setting.logs_root is not None:
        version = agent_version(agent, setting.base_dir)
        key = probe.probe_key(version, view.game, view.players, view.params, view.legal_moves, setting.game_ms)
        kept = None if setting.again else probe.kept_probe(setting.logs_root, key)
        if kept is not None:
            return replace(row, probed=True, checks=tuple(kept["checks"]), warning=kept.get("warning"), kept=True)
    command = shlex.join(agent.command)
    try:
        checks = await check_bot(command, view.game, time_limit_ms=setting.time_limit_ms, games=setting.games,
                                 seed=setting.seed, players=view.players, params=view.params,
                                 legal_moves=view.legal_moves, env=agent.env, bot_id=row.label)
        spec = get_spec(view.game)
        middle = None
        if all(c.ok for c in checks if not c.skipped):
            middle = await probe.middle_game(command, spec, time_limit_ms=setting.game_ms, seed=setting.seed,
                                             env=agent.env, bot_id=row.label)
            if middle.check is not None:
                checks = [*checks, middle.check]
        typical = probe.typical_bot_moves(spec, setting.seed, view.players, view.params)
    except GameError as exc:
        raise ConfigError(f"players: {exc}") from None
    run = [c for c in checks if not c.skipped]
    failed = [c for c in run if not c.ok]
    reason = (f"check-bot: {len(failed)} of {len(run)} checks failed; first: {failed[0].name}: "
              f"{failed[0].detail}" if failed else None)
    times = [t for c in checks for r in c.records for t in _replies(r, row.label)]
    warning = probe.pace_warning(times, typical, setting.game_ms)
    row = replace(row, reason=reason, probed=True, checks=tuple(c.to_json() for c in checks), warning=warning)
    if key is not None and setting.logs_root is not None and reason is None:
        probe.keep_probe(setting.logs_root, key, {"checks": list(row.checks), "warning": warning})
    return row


def _replies(record: dict[str, Any], label: str) -> list[float]:
    """The bot's reply times (ms) in one of its probe games (two-player records; none otherwise)."""
    from arena.tools.check_bot import _bot_replies, safe_bot_id

    if "game_states" not in record or "turns" not in record:
        return []
    return _bot_replies(record, safe_bot_id(label))


def set_aside(obj: dict[str, Any], rows: list[EntryCheck]) -> dict[str, Any]:
    """The decoded config ``obj`` without the entries of ``rows`` that fail: a list of agents loses
    them, a roster excludes their folders. ConfigError when fewer than two entries are left."""
    failing = [row for row in rows if not row.ok]
    left = len(rows) - len(failing)
    if left < 2:
        raise ConfigError(f"agents: {left} of {len(rows)} entries pass the roster check; a tournament needs two "
                          "('arena roster check' shows why each fails)")
    out = dict(obj)
    agents = obj.get("agents")
    if isinstance(agents, list):
        dropped = {row.where for row in failing}
        out["agents"] = [entry for number, entry in enumerate(agents) if f"agents[{number}]" not in dropped]
    elif isinstance(agents, dict):
        folders = [os.path.basename(row.where.removeprefix("agents: ").rstrip("/")) for row in failing]
        out["agents"] = {**agents, "exclude": [*agents.get("exclude", ()), *folders]}
    return out


async def passing_config(path: str | os.PathLike[str], *, probe: bool = True,
                         done: Callable[[EntryCheck], None] | None = None,
                         logs_root: Path | None = None) -> tuple[Any, list[EntryCheck]]:
    """The config at ``path`` with the entries that fail the roster check set aside (probed when
    ``probe``, at the config's ``timeLimit``; passed probes kept under ``logs_root``), and every
    entry's row. ConfigError as :func:`load_entries`, when fewer than two entries pass, and for the
    config's other mistakes."""
    from arena.tournament.config import parse_config, read_config

    view, rows = load_entries(path)
    obj, base_dir = read_config(path)
    if probe:
        rows = await probe_entries(view, rows, done=done, setting=probe_setting(obj, base_dir, logs_root))
    elif done is not None:
        for row in rows:
            done(row)
    return parse_config(set_aside(obj, rows), base_dir=base_dir, source=str(path)), rows


def probe_setting(obj: Any, base_dir: Path, logs_root: Path | None, **overrides: Any) -> ProbeSetting:
    """The probe's setting for the decoded config ``obj``: its ``timeLimit`` (when a valid one; else
    the default) for the middle games, passed probes kept under ``logs_root``."""
    from arena.limits import DEFAULT_TIME_LIMIT_MS

    limit = obj.get("timeLimit") if isinstance(obj, dict) else None
    game_ms = limit if type(limit) is int and limit > 0 else DEFAULT_TIME_LIMIT_MS
    return ProbeSetting(game_ms=game_ms, logs_root=logs_root, base_dir=base_dir, **overrides)
