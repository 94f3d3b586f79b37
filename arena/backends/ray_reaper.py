"""The reaper of an embedded Ray instance: when arena's driver ends, even by ``kill -9``, every
process of the instance it started ends and the instance's folder is removed.

Ray shares the fate of its driver only in part: killed with ``kill -9``, the driver leaves Ray's
``DashboardAgent`` and ``RuntimeEnvAgent`` running and its session folder (logs, sockets, the
runtime environments' packages) on the disk (issue 33). So the driver gives its embedded instance
a folder of its own (``ray.init(_temp_dir=...)``, a fresh ``ray-*`` folder, mode 0700) and
starts this program beside it, in a session of its own (a Ctrl-C at the terminal does not stop
it): ``python ray_reaper.py DRIVER_PID FOLDER``.

It waits for the driver's end (a pidfd: no polling) or for a line on its stdin (the driver's
clean close, after ``ray.shutdown()``). Then the instance's processes are those that hold a file,
their working folder or their program inside ``FOLDER`` — every Ray process logs there, under
whatever name it gave itself (``ray::DashboardAgent``), and nothing else on the machine can: the
folder is new and closed to other users. Each is SIGKILLed by pid (its start time checked, so a
reused pid is never hit), until none is left (:data:`GIVE_UP_S` at most), then the folder is
removed. The bots of the instance's games are not its processes: they die with their Ray worker
(parent-death signal, guardian; :mod:`arena.backends.ray_backend`).

Standard library only: it is run as a file, never imported by arena's other layers.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import sys
import time

#: How long the reaper keeps looking for processes of the instance after the driver ended.
GIVE_UP_S = 30.0
#: The pause between two looks while processes of the instance are still dying.
LOOK_S = 0.1


def start_time(pid: int) -> int | None:
    """The start time of ``pid`` (clock ticks after boot; field 22 of ``/proc/PID/stat``), None if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read()
    except OSError:
        return None
    return int(text[text.rindex(b")") + 2:].split()[19])


def _inside(link: str, folder: str) -> bool:
    return link == folder or link.startswith(folder + "/")


def holders(folder: str, skip: set[int]) -> dict[int, int]:
    """pid -> start time of each process (but those of ``skip``) whose open files, working folder
    or program lie inside ``folder``."""
    found: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in skip:
            continue
        pid = int(entry)
        links: list[str] = []
        with contextlib.suppress(OSError):
            links.append(os.readlink(f"/proc/{pid}/cwd"))
        with contextlib.suppress(OSError):
            links.append(os.readlink(f"/proc/{pid}/exe"))
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    links.append(os.readlink(f"/proc/{pid}/fd/{fd}"))
        if any(_inside(link, folder) for link in links):
            started = start_time(pid)
            if started is not None:
                found[pid] = started
    return found


def sweep(folder: str, driver: int, give_up_s: float = GIVE_UP_S) -> int:
    """Kill every process (but this one and ``driver``, alive at a clean close) holding something
    inside ``folder`` until none is left (or ``give_up_s`` passed), then remove ``folder``. Returns
    how many processes were killed."""
    folder = os.path.realpath(folder)
    killed: set[tuple[int, int]] = set()
    deadline = time.monotonic() + give_up_s
    while time.monotonic() < deadline:
        found = holders(folder, {os.getpid(), driver})
        if not found:
            break
        for pid, started in found.items():
            if start_time(pid) == started:  # still that process, not a reused pid
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
                    killed.add((pid, started))
        time.sleep(LOOK_S)
    shutil.rmtree(folder, ignore_errors=True)
    return len(killed)


def wait_for_end(driver: int) -> None:
    """Return once the process ``driver`` ended or a line (or end of file) arrived on stdin."""
    watched = [sys.stdin.fileno()]
    try:
        pidfd = os.pidfd_open(driver)
    except ProcessLookupError:
        return
    watched.append(pidfd)
    try:
        select.select(watched, [], [])
    finally:
        os.close(pidfd)


def main(argv: list[str]) -> int:
    driver, folder = int(argv[1]), argv[2]
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver's Ctrl-C is not ours: we clean up after it
    wait_for_end(driver)
    sweep(folder, driver)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
