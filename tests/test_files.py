"""arena.fileio.files: the one home of defensive reads, writes inside arena's own folders, and outputs."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from arena.fileio.files import UnsafeFileError, atomic_write, open_beneath, output_refusal, read_input


def _odd_files(tmp_path: Path) -> dict[str, Path]:
    """A FIFO, a link, a folder and (as root) a character device node, by their message names."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "target")
    (tmp_path / "folder").mkdir()
    odd = {"a FIFO": fifo, "a symbolic link": link, "a folder": tmp_path / "folder"}
    if os.geteuid() == 0:
        device = tmp_path / "full"
        os.mknod(device, 0o644 | stat.S_IFCHR, os.makedev(1, 7))  # a copy of /dev/full's node
        odd["a character device"] = device
    return odd


def test_atomic_write_replaces_only_a_regular_file(tmp_path: Path) -> None:
    for kind, path in _odd_files(tmp_path).items():
        before = os.lstat(path)
        with pytest.raises(UnsafeFileError, match=rf"not a regular file \({kind}\); arena replaces only regular"):
            atomic_write(path, b"data")
        after = os.lstat(path)
        assert (after.st_ino, after.st_mode, after.st_rdev) == (before.st_ino, before.st_mode, before.st_rdev)
        refusal = output_refusal(path)
        assert refusal is not None and kind in str(refusal.strerror)
    assert not (tmp_path / "target").exists() and not list(tmp_path.glob(".*.tmp"))
    atomic_write(tmp_path / "new", b"one")
    atomic_write(tmp_path / "new", b"two")
    assert (tmp_path / "new").read_bytes() == b"two" and output_refusal(tmp_path / "new") is None


def test_atomic_write_removes_a_stale_temporary_file_of_its_pid(tmp_path: Path) -> None:
    stale = tmp_path / f".out.{os.getpid()}.tmp"
    stale.symlink_to(tmp_path / "victim")  # even a link planted there is only removed, never followed
    atomic_write(tmp_path / "out", b"x")
    assert (tmp_path / "out").read_bytes() == b"x" and not stale.is_symlink() and not (tmp_path / "victim").exists()


def test_read_input_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    odd = _odd_files(tmp_path)
    with pytest.raises(UnsafeFileError, match=r"^\[Errno 22\] not a regular file \(a FIFO\)$"):
        read_input(odd["a FIFO"], 100)  # at once: O_NONBLOCK, then fstat
    with pytest.raises(UnsafeFileError, match=r"not a regular file \(a character device\)"):
        read_input("/dev/zero", 100)
    with pytest.raises(UnsafeFileError) as info:
        read_input(odd["a folder"], 100)
    assert info.value.errno == errno.EISDIR
    (tmp_path / "target").write_bytes(b"12345")
    assert read_input(odd["a symbolic link"], 5) == b"12345"  # the user's link to a regular file
    with pytest.raises(UnsafeFileError, match="larger than 4 bytes") as info:
        read_input(tmp_path / "target", 4)
    assert info.value.errno == errno.EFBIG


def test_open_beneath_refuses_a_link_at_any_component(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "t" / "stderr").mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    os.close(open_beneath(root, root / "t" / "stderr" / "x.log", os.O_WRONLY | os.O_CREAT))
    for component in ("t/stderr", "t"):
        real = root / component
        real.rename(real.with_name("moved"))
        real.symlink_to(elsewhere)
        with pytest.raises(UnsafeFileError, match=rf"'{Path(component).name}' is a symbolic link inside arena's own"):
            open_beneath(root, "t/stderr/y.log", os.O_WRONLY | os.O_CREAT)
        with pytest.raises(UnsafeFileError):
            atomic_write(root / "t" / "stderr" / "z", b"1", root=root)
        with pytest.raises(UnsafeFileError):
            read_input(root / "t" / "stderr" / "x.log", 100, root=root)
        real.unlink()
        real.with_name("moved").rename(real)
    assert list(elsewhere.iterdir()) == []
    (root / "t" / "stderr" / "l").symlink_to("/etc/passwd")
    with pytest.raises(UnsafeFileError, match="'l' is a symbolic link"):
        read_input("t/stderr/l", 10_000, root=root)
    for bad in ("../escape", "/etc/passwd", "t/../../x"):
        with pytest.raises(ValueError):
            open_beneath(root, bad, os.O_RDONLY)
    # The root itself is the user's: a link to a folder is fine there.
    (tmp_path / "alias").symlink_to(root)
    assert read_input("t/stderr/x.log", 10, root=tmp_path / "alias") == b""


def test_open_beneath_fresh_never_writes_through_what_was_at_the_name(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("precious")
    (tmp_path / "logs").mkdir()
    os.link(victim, tmp_path / "logs" / "a.log")  # a hard link: O_TRUNC would empty the victim
    (tmp_path / "logs" / "b.log").symlink_to(victim)
    os.mkfifo(tmp_path / "logs" / "c.log")
    for name in ("a.log", "b.log", "c.log", "new/d.log"):
        fd = open_beneath(tmp_path, Path("logs") / name, os.O_WRONLY, make_dirs=True, fresh=True)
        os.write(fd, b"log")
        os.close(fd)
        assert (tmp_path / "logs" / name).read_bytes() == b"log"
    assert victim.read_text() == "precious"


def test_open_beneath_refuses_a_fifo_without_hanging(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "f")
    for flags in (os.O_RDONLY, os.O_WRONLY, os.O_WRONLY | os.O_APPEND | os.O_CREAT):
        with pytest.raises(UnsafeFileError, match=r"not a regular file \(a FIFO\)"):
            open_beneath(tmp_path, "f", flags)
