"""Running an arena command on an embedded Ray instance in its own network and PID namespaces."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PATIENCE = Path(__file__).resolve().parent / "patience"


def patient_env(**extra: str) -> dict[str, str]:
    """This environment with ``extra``, and Ray's node start-up waiting for the raylet to register
    instead of giving up after Ray's fixed 30 s (tests/ray/patience/sitecustomize.py): on a busy
    machine the raylet's agents take longer to start."""
    path = os.pathsep.join(filter(None, [str(PATIENCE), os.environ.get("PYTHONPATH")]))
    # The raylet itself waits for its agents' port files and aborts (a failed check, seen beside busy
    # loops) after a bound of its own: Ray's configs, read from the environment, made as patient.
    return {**os.environ, "PYTHONPATH": path, "RAY_agent_register_timeout_ms": "300000",
            "RAY_raylet_start_wait_time_s": "300", **extra}


def run_in_namespace(command: str, *, timeout: float = 540) -> subprocess.CompletedProcess[str]:
    """``command`` (a shell line) inside ``unshare -n -p -f --mount-proc`` with loopback up, from the
    repository root: 127.0.0.1 is the only address and every process it starts (Ray's daemons
    included) dies with the namespace. Ray's session files and token stay in a temporary folder
    (short: Ray's socket paths are bounded), not in /tmp/ray and ~/.ray of the machine."""
    ray_home = Path(tempfile.mkdtemp(prefix="arena-ray-"))
    env = patient_env(HOME=str(ray_home), RAY_TMPDIR=str(ray_home), RAY_AUTH_MODE="disabled",
                      RAY_USAGE_STATS_ENABLED="0")
    try:
        return subprocess.run(["unshare", "-n", "-p", "-f", "--mount-proc", "bash", "-c", f"ip link set lo up && {command}"],
                              cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False,
                              stdin=subprocess.DEVNULL, env=env)
    finally:
        shutil.rmtree(ray_home, ignore_errors=True)
