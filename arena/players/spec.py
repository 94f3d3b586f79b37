"""Who plays a side: :class:`AgentSpec`, the one description of an agent every layer passes on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: The kinds of agent: a program (``command``, or ``path`` as in the checkers configs), arena's
#: search bot with a hyperparameters file (``path``), or a person at this terminal.
AgentKind = Literal["executable", "hyperparameters", "human"]
AGENT_KINDS: tuple[AgentKind, ...] = ("executable", "hyperparameters", "human")


@dataclass(frozen=True)
class AgentSpec:
    """Who plays: ``kind`` is ``executable`` (``command``, or ``path``), ``hyperparameters``
    (``path`` of the JSON file) or ``human`` (a person at the terminal; configs and records call it
    ``player``, the word of the checkers configs arena reads)."""

    id: str
    kind: AgentKind = "executable"
    command: str | None = None
    path: str | None = None
    cwd: str | None = None
    #: Extra environment variables for this agent's process (config ``agents[].env``).
    env: tuple[tuple[str, str], ...] = ()
    #: The bot's own folder (absolute) when its command came from that folder's ``bot.json`` (a
    #: roster entry): the sandbox shows it whole and nothing else the command names.
    folder: str | None = None
    #: More paths shown to this bot read-only in the sandbox (config ``agents[].readOnlyPaths``).
    read_only: tuple[str, ...] = ()

    @property
    def is_human(self) -> bool:
        return self.kind == "human"

    @property
    def record_kind(self) -> str:
        """The kind as records and configs spell it (a human is ``player`` there)."""
        return "player" if self.kind == "human" else self.kind

    @classmethod
    def from_config_type(cls, agent_id: str, agent_type: str, **fields: object) -> AgentSpec:
        """The spec of a config agent of ``type`` ``agent_type`` (``player`` is a human)."""
        kind: AgentKind = "human" if agent_type == "player" else agent_type  # type: ignore[assignment]
        if kind not in AGENT_KINDS:
            raise ValueError(f"unknown agent type {agent_type!r}")
        return cls(agent_id, kind, **fields)  # type: ignore[arg-type]
