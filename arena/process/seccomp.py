"""A seccomp filter that keeps a sandboxed bot's processes in its process group.

Arena stops a bot between its turns and kills it at the end through its process group
(``killpg``). A descendant that calls ``setsid()`` or ``setpgid()`` leaves the group, and would keep
running (using CPU while the opponent's clock runs) until teardown. Under the sandbox, bubblewrap
installs this filter (``bwrap --seccomp FD``) before it starts the bot: both calls fail with EPERM,
so everything the bot starts stays in the group that arena stops and kills.

:func:`filter_program` returns the classic-BPF program for this machine (x86-64, with its i386 and
x32 ABIs, or aarch64 with arm32), or None on other architectures (the sandbox then runs without it).
"""

from __future__ import annotations

import errno
import functools
import platform
import struct

# Classic BPF opcodes and seccomp constants (linux/filter.h, linux/seccomp.h, linux/audit.h).
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_RET_K = 0x06
_SECCOMP_RET_ALLOW = 0x7FFF0000
_SECCOMP_RET_ERRNO = 0x00050000
_DATA_NR = 0  # offsetof(struct seccomp_data, nr)
_DATA_ARCH = 4  # offsetof(struct seccomp_data, arch)
_X32_BIT = 0x40000000

# arch -> [(audit arch, [syscall numbers to refuse])]: the native ABI first, then compat ones.
_TABLES: dict[str, list[tuple[int, list[int]]]] = {
    "x86_64": [
        (0xC000003E, [112, 109, 112 | _X32_BIT, 109 | _X32_BIT]),  # x86-64 and x32: setsid, setpgid
        (0x40000003, [66, 57]),  # i386
    ],
    "aarch64": [
        (0xC00000B7, [157, 154]),  # aarch64: setsid, setpgid
        (0x40000028, [66, 57]),  # arm32
    ],
}


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def _jump(label: int | str, position: int, labels: dict[str, int]) -> int:
    """The jump offset, from the instruction at ``position``, to ``label``: a name in ``labels``
    (an absolute position) or an offset from the next instruction."""
    where = labels[label] if isinstance(label, str) else position + 1 + label
    return where - position - 1


@functools.cache  # a constant of the architecture, asked for every sandboxed bot
def filter_program(machine: str | None = None) -> bytes | None:
    """The filter as the bytes of an array of ``struct sock_filter`` (what ``bwrap --seccomp``
    reads), or None if this architecture is not known here."""
    tables = _TABLES.get(machine or platform.machine())
    if tables is None:
        return None
    # Layout: for each ABI: load arch; if not this ABI jump to the next ABI's block; load nr; one
    # JEQ per refused call (to DENY); then ALLOW. The last two instructions are ALLOW and DENY.
    blocks: list[list[tuple[str, int, int | str, int | str]]] = []
    for arch, numbers in tables:
        block: list[tuple[str, int, int | str, int | str]] = [("ld", _DATA_ARCH, 0, 0), ("jeq_arch", arch, 0, "next")]
        block.append(("ld", _DATA_NR, 0, 0))
        for index, number in enumerate(numbers):
            block.append(("jeq", number, "deny", 0 if index < len(numbers) - 1 else "allow"))
        blocks.append(block)
    flat: list[tuple[str, int, int | str, int | str]] = [insn for block in blocks for insn in block]
    allow_at = len(flat)
    deny_at = allow_at + 1
    starts = []
    position = 0
    for block in blocks:
        starts.append(position)
        position += len(block)
    program = b""
    position = 0
    for block_index, block in enumerate(blocks):
        next_block = starts[block_index + 1] if block_index + 1 < len(blocks) else allow_at
        labels = {"deny": deny_at, "allow": allow_at, "next": next_block}
        for kind, k, jt, jf in block:
            if kind == "ld":
                program += _insn(_LD_W_ABS, 0, 0, k)
            else:
                program += _insn(_JEQ_K, _jump(jt, position, labels), _jump(jf, position, labels), k)
            position += 1
    program += _insn(_RET_K, 0, 0, _SECCOMP_RET_ALLOW)
    program += _insn(_RET_K, 0, 0, _SECCOMP_RET_ERRNO | errno.EPERM)
    return program
