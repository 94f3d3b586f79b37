"""``arena doctor``: how bots are kept apart on this machine (users, cgroups, the sandbox)."""

from __future__ import annotations

import os
import sys

import click
import orjson

from arena.cli.exits import ArenaCommand


def _findings() -> list[tuple[str, bool, str]]:
    """(what, in place, one line) for each protection arena uses."""
    from arena.process import botuser, cgroups
    from arena.process.isolation import sandbox_available

    found = []
    if botuser.can_switch_users():
        first, count = botuser.pool()
        found.append(("user per bot", True, f"each bot runs as its own uid, from {count} uids starting at {first}"))
    else:
        why = "arena is not root" if os.geteuid() != 0 else "setpriv (util-linux) is not installed"
        found.append(("user per bot", False, (f"{why}: bots run as arena's own user and can reach each "
                                              "other's processes unless the sandbox separates them")))
    layout = cgroups.layout()
    if layout is not None:
        found.append(("cgroup per bot", True, layout.describe()))
    else:
        found.append(("cgroup per bot", False, ("no writable cgroup hierarchy: bots are stopped and killed "
                                                "by process group and signals, with no memory or task limit")))
    reason = sandbox_available()
    found.append(("sandbox", reason is None, "bubblewrap works: the sandbox is on by default" if reason is None
                  else f"{reason}; bots run without it"))
    return found


def _plugin_sandboxes() -> list[tuple[str, bool, str]]:
    """(what, works here, one line) for each installed plugin's sandbox backend (docs/extending.md)."""
    from arena.process.sandboxes import SANDBOX_SEAM, unavailable

    found = []
    for name, part in SANDBOX_SEAM.parts().items():
        if not part.own:
            reason = unavailable(name)
            found.append((f"sandbox {name}", reason is None,
                          f"works here (from {part.origin}): --sandbox-backend {name}" if reason is None else reason))
    return found


@click.command(cls=ArenaCommand, name="doctor")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
def doctor_command(as_json: bool) -> None:
    """Say how bots are kept apart on this machine: a user and a cgroup per bot (which cgroup
    version does what), and whether the sandbox can run (and each plugin's sandbox backend). Exit 1
    if any of arena's own is missing."""
    found = _findings()
    plugins = _plugin_sandboxes()  # said, but arena's own protections alone decide the exit status
    if as_json:
        click.echo(orjson.dumps([{"what": w, "ok": ok, "detail": d} for w, ok, d in found + plugins]).decode())
    else:
        for what, ok, detail in found + plugins:
            click.echo(f"{'✓' if ok else '✗'} {what}: {detail}")
    sys.exit(0 if all(ok for _, ok, _ in found) else 1)
