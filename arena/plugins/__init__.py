"""Seams: the kinds of part arena is extended by, each an entry-point group with a written contract.

A seam is one :class:`Seam`: an entry-point group (``arena.backends``...), the config key and
option that name a part of it, and the check a loaded part must pass. arena's own parts are
registered through the same groups, in arena's ``pyproject.toml``, exactly as a plugin registers
its own in its package's: there is no second list of them. What each group's object must be is
written where the seam is declared (docs/extending.md gathers them):

- ``arena.backends`` (:data:`arena.backends.BACKEND_SEAM`): where games run; an entry point names a
  callable taking :class:`arena.backends.BackendOptions` and returning a
  :class:`arena.backends.Backend`.

Entry points are read when a part is first asked for (``importlib.metadata`` costs about 30 ms to
import, so ``arena --help`` never reads them), and a part's module is imported only when that part
is used. arena's own parts come first, by name, then plugins in discovery order; a plugin's part named like one
of arena's, or like a plugin's already found, is left out and reported by :meth:`Seam.problems`.

A checkout whose installed metadata predates a group (``pip install -e .`` not run again after
``pyproject.toml`` gained it) finds no part of arena's in the group: arena's own are then read from
that checkout's ``pyproject.toml``, the same source.

May import: the standard library and :mod:`arena.errors` (the layer of ``games`` and ``errors``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from arena.errors import ConfigError

#: The distribution that installs arena (``arena`` on PyPI is another project).
OWN_DISTRIBUTION = "arena-bots"
#: The name of a part: what a config's key or an option gives.
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_-]{0,31}\Z")

T = TypeVar("T")


@dataclass(frozen=True)
class Part:
    """One registered part: its ``name``, the entry point's ``value`` (``module:attr``) and
    ``origin`` (the distribution that registered it)."""

    name: str
    value: str
    origin: str
    entry: Any = field(repr=False, compare=False, default=None)

    @property
    def own(self) -> bool:
        """Registered by arena itself."""
        return _normal(self.origin) == OWN_DISTRIBUTION


@dataclass
class Seam(Generic[T]):
    """One kind of part: the entry-point ``group`` its parts are registered in, the ``key`` a
    config and an option name one by (error messages start with it), and ``check``, which is given
    the loaded object and where it came from and returns the part (raising ConfigError in one
    line when the object is not one)."""

    group: str
    key: str
    check: Callable[[Any, str], T]
    _parts: dict[str, Part] | None = field(default=None, repr=False)
    _problems: dict[str, str] = field(default_factory=dict, repr=False)
    _loaded: dict[str, T] = field(default_factory=dict, repr=False)

    def parts(self) -> dict[str, Part]:
        """Every usable part by name: arena's own first (by name), then plugins in discovery order."""
        if self._parts is None:
            self._parts = self._scan()
        return self._parts

    def names(self) -> tuple[str, ...]:
        """The names :meth:`load` accepts, arena's own first."""
        return tuple(self.parts())

    def problems(self) -> dict[str, str]:
        """Plugins left out, by name: why (one line each)."""
        self.parts()
        return dict(self._problems)

    def unknown(self, name: str) -> str:
        """Why ``name`` is not a part of this seam, in one line listing those that are (a plugin of
        that name left out says why)."""
        known = ", ".join(self.names()) or "none (is arena installed? pip install -e . in a checkout)"
        line = f"{name!r} is not one of {known}"
        problem = self.problems().get(name)
        return f"{line} ({problem})" if problem else line

    def check_name(self, name: str) -> str:
        """``name`` if a part of that name is registered (nothing is imported). Raises ConfigError,
        ``KEY: 'name' is not one of ...``, otherwise."""
        if name not in self.parts():
            raise ConfigError(f"{self.key}: {self.unknown(name)}")
        return name

    def load(self, name: str) -> T:
        """The part ``name``, its module imported (once). Raises ConfigError: no such part, or it
        cannot be loaded or is not a part of this seam (the message names the plugin)."""
        if name in self._loaded:
            return self._loaded[name]
        part = self.parts().get(name)
        if part is None:
            raise ConfigError(f"{self.key}: {self.unknown(name)}")
        where = f"{self.key} {name!r} ({part.value}, from {part.origin})"
        try:
            obj = part.entry.load() if part.entry is not None else _load_value(part.value)
        except Exception as exc:  # noqa: BLE001 - a plugin's import fails in its own way
            raise ConfigError(f"{where}: cannot load: {type(exc).__name__}: {exc}") from None
        self._loaded[name] = self.check(obj, where)
        return self._loaded[name]

    def reload(self) -> None:
        """Forget what was found and loaded (tests that change the installed plugins)."""
        self._parts = None
        self._problems = {}
        self._loaded = {}

    def _scan(self) -> dict[str, Part]:
        self._problems = {}
        found = [_part(entry) for entry in _entry_points(self.group)]
        if not any(part.own for part in found):
            found = _checkout_parts(self.group) + found
        # The installed metadata keeps no order of its own (setuptools sorts it): arena's by name.
        own = sorted((part for part in found if part.own), key=lambda part: part.name)
        parts: dict[str, Part] = {}
        for part in own + [part for part in found if not part.own]:
            if not NAME_PATTERN.match(part.name):
                self._problems[part.name] = (f"{self.key} {part.name!r} ({part.value}, from {part.origin}): a name "
                                             "must be 1-32 of a-z, 0-9, _ and - (starting with a letter)")
            elif part.name in parts:
                if part.value != parts[part.name].value or part.origin != parts[part.name].origin:
                    self._problems[part.name] = (f"{self.key} {part.name!r} ({part.value}, from {part.origin}): "
                                                 f"already registered by {parts[part.name].origin}")
            else:
                parts[part.name] = part
        return parts


def made(obj: Any, where: str) -> Any:
    """``obj``, or an instance of it when it is a class (called with no arguments): what a seam
    whose entry points may name a class or an object checks. Raises ConfigError (``where: cannot
    be made: ...``) when the class cannot be instantiated so."""
    if not isinstance(obj, type):
        return obj
    try:
        return obj()
    except Exception as exc:  # noqa: BLE001 - a plugin's constructor fails in its own way
        raise ConfigError(f"{where}: cannot be made: {type(exc).__name__}: {exc}") from None


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _part(entry: Any) -> Part:
    dist = getattr(getattr(entry, "dist", None), "name", None)
    return Part(entry.name, entry.value, dist or entry.value.split(":")[0].split(".")[0], entry)


def _entry_points(group: str) -> list[Any]:
    # importlib.metadata costs ~30 ms to import: paid only when a part is asked for.
    from importlib.metadata import entry_points

    try:
        return list(entry_points(group=group))
    except Exception:  # noqa: BLE001 - a broken installation's metadata must not hide arena's own parts
        return []


def _checkout_parts(group: str) -> list[Part]:
    """arena's own parts of ``group`` from the ``pyproject.toml`` of the checkout arena is imported
    from, when it has one (none in an installed wheel, whose metadata is always current)."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        import tomllib

        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    project = data.get("project", {})
    if _normal(str(project.get("name", ""))) != OWN_DISTRIBUTION:
        return []
    table = project.get("entry-points", {}).get(group, {})
    return [Part(name, value, OWN_DISTRIBUTION) for name, value in table.items() if isinstance(value, str)]


def _load_value(value: str) -> Any:
    """The object ``module:attr.attr`` names (an entry point's value)."""
    import importlib

    module, _, attrs = value.partition(":")
    obj: Any = importlib.import_module(module.strip())
    for attr in filter(None, attrs.strip().split(".")):
        obj = getattr(obj, attr)
    return obj


__all__ = ["NAME_PATTERN", "OWN_DISTRIBUTION", "Part", "Seam", "made"]
