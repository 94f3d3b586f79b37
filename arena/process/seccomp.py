"""The seccomp filter under which bubblewrap starts every bot (``bwrap --seccomp FD``).

What it refuses, and why:

- ``setsid`` and ``setpgid`` (EPERM; the sandbox only, :data:`KEEP_GROUP`): arena stops a bot between
  its turns and kills it at the end through its process group (``killpg``); a descendant that
  left the group would keep running (using CPU while the opponent's clock runs) until teardown.
- ``add_key``, ``request_key``, ``keyctl`` (EPERM): the kernel keyring is not namespaced. A key a
  bot stores in its user's keyring outlives its game and every process of it, and a later bot
  given the same uid could read it back: nothing a bot leaves may outlive its game.
- ``unshare`` and ``clone`` asked for a new user namespace (``CLONE_NEWUSER``; EPERM): inside one a
  bot would hold every capability over its own mounts, and could mount a private tmpfs past its
  scratch cap. ``clone3`` (its flags are in memory, which a filter cannot read) fails with ENOSYS,
  so the C library falls back to ``clone``, which is checked: threads and processes still start.

:func:`filter_program` returns the classic-BPF program for this machine (x86-64, with its i386 and
x32 ABIs, or aarch64 with arm32), or None on other architectures (the bot then runs without it).
"""

from __future__ import annotations

import errno
import functools
import platform
import struct

# Classic BPF opcodes and seccomp constants (linux/filter.h, linux/seccomp.h, linux/audit.h).
_LD_W_ABS = 0x20
_JEQ_K = 0x15
_JSET_K = 0x45
_RET_K = 0x06
_SECCOMP_RET_ALLOW = 0x7FFF0000
_SECCOMP_RET_ERRNO = 0x00050000
_DATA_NR = 0  # offsetof(struct seccomp_data, nr)
_DATA_ARCH = 4  # offsetof(struct seccomp_data, arch)
_DATA_ARG0_LOW = 16  # the low half of args[0] on these little-endian machines
_X32_BIT = 0x40000000
_CLONE_NEWUSER = 0x10000000

#: The calls refused under the sandbox only: leaving the process group.
KEEP_GROUP = ("setsid", "setpgid")
#: The calls refused outright, whether the sandbox is on or not.
KEYRING = ("add_key", "request_key", "keyctl")
#: Refused when their first argument (the flags) asks for a new user namespace.
NEW_USER = ("unshare", "clone")

# arch -> [(audit arch, {call: number})]: the native ABI first, then the compat ones.
_I386_ARM_COMMON = {"setsid": 66, "setpgid": 57, "clone": 120, "clone3": 435}
_TABLES: dict[str, list[tuple[int, dict[str, int]]]] = {
    "x86_64": [
        (0xC000003E, {"setsid": 112, "setpgid": 109, "add_key": 248, "request_key": 249, "keyctl": 250,
                      "unshare": 272, "clone": 56, "clone3": 435}),
        (0x40000003, {**_I386_ARM_COMMON, "add_key": 286, "request_key": 287, "keyctl": 288, "unshare": 310}),
    ],
    "aarch64": [
        (0xC00000B7, {"setsid": 157, "setpgid": 154, "add_key": 217, "request_key": 218, "keyctl": 219,
                      "unshare": 97, "clone": 220, "clone3": 435}),
        (0x40000028, {**_I386_ARM_COMMON, "add_key": 309, "request_key": 310, "keyctl": 311, "unshare": 337}),
    ],
}

# One instruction before assembly: (opcode, k, jump if true, jump if false); a jump is a label.
_Insn = tuple[int, int, str | None, str | None]


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def _assemble(blocks: list[tuple[str, list[_Insn]]]) -> bytes:
    """Labelled blocks to bytes; a jump names a label (None: the next instruction)."""
    labels: dict[str, int] = {}
    position = 0
    for label, block in blocks:
        labels[label] = position
        position += len(block)
    program = b""
    position = 0
    for _, block in blocks:
        for code, k, jt, jf in block:
            position += 1
            offsets = [labels[j] - position if j is not None else 0 for j in (jt, jf)]
            if any(not 0 <= o <= 255 for o in offsets):
                raise ValueError("seccomp jump out of range")  # a bug here, never a bot's doing
            program += _insn(code, offsets[0], offsets[1], k)
    return program


@functools.cache  # a constant of the architecture, asked for every bot
def filter_program(machine: str | None = None, *, keep_group: bool = True) -> bytes | None:
    """The filter as the bytes of an array of ``struct sock_filter`` (what ``bwrap --seccomp``
    reads), or None if this architecture is not known here. ``keep_group`` False: ``setsid`` and
    ``setpgid`` are allowed (a bot outside the sandbox, whose escapees arena finds by token)."""
    tables = _TABLES.get(machine or platform.machine())
    if tables is None:
        return None
    refused = (*KEYRING, *(KEEP_GROUP if keep_group else ()))
    blocks: list[tuple[str, list[_Insn]]] = []
    for index, (arch, numbers) in enumerate(tables):
        after = f"abi{index + 1}" if index + 1 < len(tables) else "allow"
        aliases = [0, _X32_BIT] if arch == 0xC000003E else [0]  # x32 calls carry the x32 bit
        checks: list[_Insn] = [(_LD_W_ABS, _DATA_ARCH, None, None), (_JEQ_K, arch, None, after),
                               (_LD_W_ABS, _DATA_NR, None, None)]
        for alias in aliases:
            checks += [(_JEQ_K, numbers[name] | alias, "eperm", None) for name in refused]
            checks += [(_JEQ_K, numbers[name] | alias, "flags", None) for name in NEW_USER]
            checks.append((_JEQ_K, numbers["clone3"] | alias, "enosys", None))
        checks.append((_RET_K, _SECCOMP_RET_ALLOW, None, None))
        blocks.append((f"abi{index}", checks))
    # Every jump goes forward (classic BPF has no other): the flags test before its targets.
    blocks.append(("flags", [(_LD_W_ABS, _DATA_ARG0_LOW, None, None), (_JSET_K, _CLONE_NEWUSER, "eperm", "allow")]))
    blocks.append(("allow", [(_RET_K, _SECCOMP_RET_ALLOW, None, None)]))
    blocks.append(("eperm", [(_RET_K, _SECCOMP_RET_ERRNO | errno.EPERM, None, None)]))
    blocks.append(("enosys", [(_RET_K, _SECCOMP_RET_ERRNO | errno.ENOSYS, None, None)]))
    return _assemble(blocks)
