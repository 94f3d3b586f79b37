"""The CPU time each test costs, to find what makes the suite slow on a busy machine (where wall
times say more about the neighbours than about the tests).

    .venv/bin/python -m pytest -n 4 -p tests.cpu_profile --cpu-profile .cpu/run [TESTS]
    .venv/bin/python -m tests.cpu_profile .cpu/run [--top N]

The plugin writes one line per test (its id, then the CPU seconds of the test's process and of the
children it reaped, set-up and teardown included, and its wall seconds) to ``<PATH>.<worker>.tsv``,
one file per pytest-xdist worker. A module's or the session's fixture is charged to the first test
that uses it. Children count once reaped (``RUSAGE_CHILDREN``): a process that outlives its parent
and is reaped elsewhere (Ray's daemons, which the namespace's PID 1 reaps) is missed; for the CPU of
a whole process tree run pytest in a cgroup of its own. The module, run, prints the total and the
costliest files and tests.
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import TextIO

import pytest

_out: list[TextIO] = []


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, reaped.ru_utime + reaped.ru_stime


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-profile", metavar="PATH", help="write each test's CPU seconds to PATH.<worker>.tsv")


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--cpu-profile")
    if path:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        target = Path(f"{path}.{worker}.tsv")
        target.parent.mkdir(parents=True, exist_ok=True)
        _out.append(target.open("w", buffering=1))


def pytest_unconfigure(config: pytest.Config) -> None:
    while _out:
        _out.pop().close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    own, reaped, wall = *_cpu(), time.monotonic()
    yield
    if _out:
        own_after, reaped_after = _cpu()
        _out[0].write(f"{item.nodeid}\t{own_after - own:.3f}\t{reaped_after - reaped:.3f}\t"
                      f"{time.monotonic() - wall:.3f}\n")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.cpu_profile", description=__doc__.split("\n\n")[0])
    parser.add_argument("path", help="the --cpu-profile PATH of a run")
    parser.add_argument("--top", type=int, default=40, help="how many files and tests to list (default 40)")
    args = parser.parse_args(argv)
    files = sorted(Path(args.path).parent.glob(Path(args.path).name + ".*.tsv"))
    if not files:
        parser.exit(2, f"python -m tests.cpu_profile: error: no {args.path}.*.tsv\n")
    tests: dict[str, tuple[float, float, float]] = {}
    for file in files:
        for line in file.read_text().splitlines():
            name, *figures = line.split("\t")
            tests[name] = (float(figures[0]), float(figures[1]), float(figures[2]))
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for name, (own, reaped, _wall) in tests.items():
        by_file[name.split("::")[0]][0] += own + reaped
        by_file[name.split("::")[0]][1] += 1
    print(f"{len(tests)} tests: {sum(o + r for o, r, _ in tests.values()):.1f} CPU-s "
          f"({sum(o for o, _, _ in tests.values()):.1f} in pytest's processes, "
          f"{sum(r for _, r, _ in tests.values()):.1f} in the processes they started)")
    print("\nfiles by CPU (CPU-s, tests):")
    for name, (cpu, count) in sorted(by_file.items(), key=lambda kv: -kv[1][0])[:args.top]:
        print(f"{cpu:8.1f} {int(count):5d}  {name}")
    print("\ntests by CPU (CPU-s, wall s):")
    for name, (own, reaped, wall) in sorted(tests.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:args.top]:
        print(f"{own + reaped:8.1f} {wall:7.1f}  {name}")


if __name__ == "__main__":
    main()
