"""What an arena killed with its guardian leaves (issue 18, the Ray item): run cgroups and scratch
roots. The cgroup file systems and /tmp are shared by every PID namespace on the machine, so their
liveness is their arena's lock, never the pid in their name.

A live arena in another PID namespace (a Ray worker in the cluster tests, a container) keeps its
folders and bots whatever another arena sweeps; the folders of a SIGKILLed arena are removed, with
what still runs in them, by the next sweep; killed runs leave nothing that accumulates. The cgroup
tests need root and a writable cgroup hierarchy (skipped otherwise).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import eventually

from arena.process import cgroups, runcgroups

REPO = Path(__file__).resolve().parents[2]

# An arena stand-in: makes its run folders and one bot cgroup holding a `sleep` in a session of its
# own (so the sleep outlives it when it is SIGKILLed), prints the run folder's name and the sleep's
# pid, then waits for its stdin to close.
HOLDER = """\
import subprocess, sys
from arena.process import runcgroups
run = runcgroups.for_run()
bot = run.create(memory_mb=None, max_processes=None)
child = subprocess.Popen(["sleep", "600"], start_new_session=True)
bot.attach(child.pid)
print(run.name, child.pid, flush=True)
sys.stdin.read()
"""


def _unavailable() -> str | None:
    if os.geteuid() != 0:
        return "needs root (the cgroup hierarchies)"
    if cgroups.layout() is None:
        return "no writable cgroup hierarchy here"
    if shutil.which("unshare") is None or shutil.which("sleep") is None:
        return "unshare or sleep is missing"
    return None


_SKIP = _unavailable()
needs_cgroups = pytest.mark.skipif(_SKIP is not None, reason=_SKIP or "")


def start_holder(*, own_pid_namespace: bool) -> tuple[subprocess.Popen[str], str, int]:
    """A holder process, and the name and sleep pid it printed (the sleep's pid as seen from its
    namespace: only meaningful here when ``own_pid_namespace`` is False)."""
    prefix = ["unshare", "-p", "-f", "--kill-child", "--mount-proc"] if own_pid_namespace else []
    proc = subprocess.Popen([*prefix, sys.executable, "-c", HOLDER], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=REPO,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.stdout is not None
    name, pid = proc.stdout.readline().split()
    return proc, name, int(pid)


def run_folders(name: str) -> list[Path]:
    layout = cgroups.layout()
    assert layout is not None
    return [root / name for root in layout.folders() if (root / name).exists()]


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


@needs_cgroups
def test_a_live_arena_in_another_pid_namespace_keeps_its_cgroups() -> None:
    holder, name, _ = start_holder(own_pid_namespace=True)
    try:
        folders = run_folders(name)
        assert folders, name
        layout = cgroups.layout()
        assert layout is not None and layout.v2 is not None
        bot = layout.v2 / name / "bot-1"
        assert cgroups._procs(bot), "the holder's sleep is in its bot cgroup"
        # Its pid means nothing in this namespace: a name-based check would call it dead.
        runcgroups.sweep_stale()
        assert run_folders(name) == folders and cgroups._procs(bot)
    finally:
        holder.kill()  # unshare --kill-child: the namespace, the holder and its sleep go
        holder.wait()
    # Now it is stale (emptied by the namespace's end) and the next sweep removes it.
    eventually(lambda: runcgroups.sweep_stale() >= 0 and run_folders(name) == [])


@needs_cgroups
def test_a_killed_arenas_cgroups_are_removed_with_what_still_runs_in_them() -> None:
    holders = [start_holder(own_pid_namespace=False) for _ in range(3)]
    for proc, _, _ in holders:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    try:
        for _, name, sleeper in holders:
            assert run_folders(name) and alive(sleeper), "SIGKILL of the holder left its sleep and folders"
        # Not a count of this sweep's removals: every arena's first bot sweeps too (other tests
        # running beside this one), and may take some of these first. What matters is that none is left.
        runcgroups.sweep_stale()
        for _, name, sleeper in holders:
            assert run_folders(name) == [], "stale folders accumulate"
            eventually(lambda pid=sleeper: not alive(pid), what="the sweep killed what ran in them")
    finally:
        for _, _, sleeper in holders:
            if alive(sleeper):
                os.kill(sleeper, signal.SIGKILL)


def in_new_pid_namespace(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Python ``code`` (with ``args``) run as a child of PID 1 in a fresh PID namespace (not as
    PID 1, which a signal from inside its namespace could not kill), in a session of its own."""
    return subprocess.run(["unshare", "-p", "-f", "--kill-child", "--mount-proc", "sh", "-c",
                           f'{sys.executable} -c "$0" "$@"; exit $?', code, *args],
                          capture_output=True, text=True, timeout=60, cwd=REPO, start_new_session=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, check=False)


@needs_cgroups
def test_processes_outside_the_pid_namespace_are_never_listed_as_pid_0() -> None:
    # cgroup v2 lists a process outside the reader's PID namespace as 0: signalling it would be
    # kill(0, SIGKILL), the sweeper's own process group.
    proc, name, _ = start_holder(own_pid_namespace=False)
    try:
        layout = cgroups.layout()
        assert layout is not None
        folders = [root / name / "bot-1" for root in layout.folders()]
        listed = in_new_pid_namespace("import sys; from pathlib import Path; from arena.process import cgroups; "
                                      "print([cgroups._procs(Path(f)) for f in sys.argv[1:]])",
                                      *map(str, folders))
        assert listed.returncode == 0, listed.stderr
    finally:
        proc.kill()
        proc.wait()
        runcgroups.sweep_stale()
    assert listed.stdout.strip() == repr([[] for _ in folders])


@needs_cgroups
def test_a_sweep_from_inside_a_pid_namespace_kills_what_it_cannot_see_and_not_itself() -> None:
    # Another arena's sweep (a test running beside this one starts bots) may take the stale folder
    # before the namespace's sweep does: then the scenario is played again, up to five times.
    for _ in range(5):
        proc, name, sleeper = start_holder(own_pid_namespace=False)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        try:
            sweep = in_new_pid_namespace("from arena.process import runcgroups; print(runcgroups.sweep_stale())")
            assert sweep.returncode == 0, (sweep.returncode, sweep.stderr[-2000:])
            if int(sweep.stdout) == 0 and run_folders(name) == []:
                continue  # swept by someone else first
            assert int(sweep.stdout) >= 1, run_folders(name)
            eventually(lambda pid=sleeper: not alive(pid), what="cgroup.kill reaches across PID namespaces")
            assert run_folders(name) == []
            return
        finally:
            if alive(sleeper):
                os.kill(sleeper, signal.SIGKILL)
    pytest.fail("every attempt's stale folder was swept by another arena first")


# An arena stand-in for scratch roots: makes its own (arena.process.sandbox.scratch_root, which starts the
# guardian first), prints it and the guardian's pid, waits.
SCRATCH_HOLDER = """\
import sys
from arena.process import sandbox, spawn
root = sandbox.scratch_root()
(root / "ray-game-x").mkdir()
print(root, spawn.guardian_pid(), flush=True)
sys.stdin.read()
"""


def start_scratch_holder(*, own_pid_namespace: bool) -> tuple[subprocess.Popen[str], Path, int]:
    prefix = ["unshare", "-p", "-f", "--kill-child", "--mount-proc"] if own_pid_namespace else []
    proc = subprocess.Popen([*prefix, sys.executable, "-c", SCRATCH_HOLDER], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.stdout is not None
    root, guardian = proc.stdout.readline().split()
    return proc, Path(root), int(guardian)


@pytest.mark.skipif(shutil.which("unshare") is None or os.geteuid() != 0, reason="needs unshare and root")
def test_a_scratch_root_is_made_only_with_a_guardian_that_removes_it() -> None:
    proc, root, guardian = start_scratch_holder(own_pid_namespace=False)
    assert alive(guardian) and root.is_dir()
    proc.kill()
    proc.wait()
    eventually(lambda: not root.exists(), what="the guardian removed the killed arena's root")


@pytest.mark.skipif(shutil.which("unshare") is None or os.geteuid() != 0, reason="needs unshare and root")
def test_scratch_roots_of_dead_arenas_are_swept_and_live_ones_in_other_namespaces_kept() -> None:
    from arena.process import sandbox

    live, live_root, _ = start_scratch_holder(own_pid_namespace=True)
    dead = [start_scratch_holder(own_pid_namespace=False) for _ in range(2)]
    try:
        for proc, _, guardian in dead:
            os.kill(guardian, signal.SIGKILL)  # killed with its guardian: only a sweep removes its root
            eventually(lambda pid=guardian: not alive(pid))
            proc.kill()
            proc.wait()
        assert live_root.is_dir()
        # An arena that a test beside this one starts sweeps too, and may take the dead roots
        # first: whoever sweeps, they must be gone and the live arena's root kept.
        sandbox.sweep_stale_scratch()
        assert not any(root.exists() for _, root, _ in dead), "stale scratch roots accumulate"
        assert (live_root / "ray-game-x").is_dir(), "a live arena's root was taken from it"
    finally:
        live.kill()  # unshare --kill-child: its holder dies a moment later
        live.wait()
    eventually(lambda: sandbox.sweep_stale_scratch() >= 0 and not live_root.exists())
