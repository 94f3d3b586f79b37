"""A gate over a config's agents (``arena roster check``): each entry, whether it loads and,
probed, whether ``arena check-bot``'s checks pass (:func:`arena.tools.check_bot.check_bot`).

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
    ``checks`` are check-bot's lines when probed (:meth:`arena.tools.check_bot.Check.to_json`)."""

    label: str
    where: str
    command: str
    argv: tuple[str, ...]
    reason: str | None
    language: str | None = None
    probed: bool = False
    checks: tuple[dict[str, Any], ...] = ()

    @property
    def ok(self) -> bool:
        return self.reason is None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.label, "where": self.where, "command": self.command, "argv": list(self.argv), "ok": self.ok, "reason": self.reason,
                "language": self.language, "probed": self.probed, "checks": list(self.checks)}


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


async def probe_entries(view: AgentsView, rows: list[EntryCheck], *, time_limit_ms: int = 5000, games: int = 2,
                        seed: int = 1, done: Callable[[EntryCheck], None] | None = None) -> list[EntryCheck]:
    """``rows`` with every loaded executable agent run through check-bot's checks, one agent at a
    time (``done`` is told of each row as it is settled); the reason of a failure is its first
    failed check. Agents that are not programs (arena's own, a person) pass unprobed. ConfigError
    when the game refuses the config's ``players`` or ``parameters``."""
    from arena.tools.check_bot import check_bot

    agents = {entry.where: entry.agent for entry in view.entries if entry.agent is not None}
    out = []
    for row in rows:
        agent = agents.get(row.where)
        if row.ok and agent is not None and agent.type == "executable" and agent.command:
            try:
                checks = await check_bot(shlex.join(agent.command), view.game, time_limit_ms=time_limit_ms,
                                         games=games, seed=seed, players=view.players, params=view.params,
                                         legal_moves=view.legal_moves, env=agent.env, bot_id=row.label)
            except GameError as exc:
                raise ConfigError(f"players: {exc}") from None
            run = [c for c in checks if not c.skipped]
            failed = [c for c in run if not c.ok]
            reason = (f"check-bot: {len(failed)} of {len(run)} checks failed; first: {failed[0].name}: "
                      f"{failed[0].detail}" if failed else None)
            row = replace(row, reason=reason, probed=True, checks=tuple(c.to_json() for c in checks))
        out.append(row)
        if done is not None:
            done(row)
    return out


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
                         done: Callable[[EntryCheck], None] | None = None) -> tuple[Any, list[EntryCheck]]:
    """The config at ``path`` with the entries that fail the roster check set aside (probed with
    check-bot's checks when ``probe``), and every entry's row. ConfigError as :func:`load_entries`,
    when fewer than two entries pass, and for the config's other mistakes."""
    from arena.tournament.config import parse_config, read_config

    view, rows = load_entries(path)
    if probe:
        rows = await probe_entries(view, rows, done=done)
    elif done is not None:
        for row in rows:
            done(row)
    obj, base_dir = read_config(path)
    return parse_config(set_aside(obj, rows), base_dir=base_dir, source=str(path)), rows
