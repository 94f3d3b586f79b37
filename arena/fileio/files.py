"""Opening, reading and writing files defensively (standard library only, cheap to import).

Three rules, each with one home here:

- **Inputs** (:func:`read_input`): a config, book, record, state or hyperparameters file must be a
  regular file, and is read with a bound. It is opened with ``O_NONBLOCK`` and checked with
  ``fstat`` before any read, so a FIFO cannot hang the open and ``/dev/zero`` cannot fill the
  memory. A path the user named may be a symbolic link to a regular file.
- **Arena's own folders** (:func:`open_beneath`, and ``root=`` of :func:`read_input` and
  :func:`atomic_write`): below a folder the user named (``--logs DIR``, a run's folder), every
  component is opened relative to its parent's descriptor with ``O_NOFOLLOW`` (openat-style), so a
  symbolic link planted anywhere in a log folder (``stderr/`` -> elsewhere) is refused, never
  written or read through.
- **Outputs** (:func:`atomic_write`): a file is replaced whole (temporary file, ``fsync``, rename,
  ``fsync`` of the folder), and only a regular file is ever replaced: a device (``-o /dev/full``), a
  FIFO, a folder or a symbolic link at the target is refused, never renamed over.
- **Modes** (:data:`FILE_MODE`, :data:`FOLDER_MODE`, :func:`make_folders`): every file and folder
  arena creates is its owner's alone (0600, 0700): bots run as users of their own and must not read
  one run's records, stderr logs or reports from another run's game. A file replaced keeps the
  mode its owner gave it. What bots must read (the players a training run breeds) is created
  with :data:`SHARED_FILE_MODE` and :data:`SHARED_FOLDER_MODE`, named where it is written.

Every refusal is an :class:`UnsafeFileError`, an :class:`OSError` whose ``strerror`` is the one-line
reason ("not a regular file (a FIFO)"), so callers that report ``exc.strerror`` need nothing new.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from collections.abc import Iterable
from pathlib import Path, PurePath

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_PathLike = str | os.PathLike[str]

#: The mode of every file arena creates: read and written by the user who ran arena, nobody else
#: (bots run as users of their own; see the module docstring).
FILE_MODE = 0o600
#: The mode of every folder arena creates, for the same reason.
FOLDER_MODE = 0o700
#: Files and folders bots must read (a training run's players): readable by all, written by arena.
SHARED_FILE_MODE = 0o644
SHARED_FOLDER_MODE = 0o755

# What each kind of file is called in a message.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class UnsafeFileError(OSError):
    """A file arena refuses to read or replace: not a regular file, a symbolic link inside one of
    arena's own folders, or larger than the bound. ``strerror`` is the one-line reason."""


def kind_of(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, for a message: "a FIFO", "a character device"..."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _not_regular(mode: int) -> UnsafeFileError:
    if stat.S_ISDIR(mode):
        return UnsafeFileError(errno.EISDIR, "a folder, not a file")
    return UnsafeFileError(errno.EINVAL, f"not a regular file ({kind_of(mode)})")


def _link_refused(name: str) -> UnsafeFileError:
    return UnsafeFileError(errno.ELOOP, f"{name!r} is a symbolic link inside arena's own folder (never followed)")


def size_text(limit: int) -> str:
    """``16 MiB``, ``1 MiB``, ``512 KiB`` or ``100 bytes``: a bound for a message."""
    for unit, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if limit >= unit and limit % unit == 0:
            return f"{limit // unit} {name}"
    return f"{limit} bytes"


# -- inside arena's own folders ----------------------------------------------------------------------


def _parts_below(root: int | _PathLike, path: _PathLike) -> list[str]:
    """The components of ``path`` below ``root``: ``path`` is either inside ``root`` (as written,
    e.g. ``root / "games" / "00001.json"``) or relative to it. ``..``, ``.`` and an empty path are
    refused (ValueError): arena's own names never need them."""
    pure = PurePath(path)
    if not isinstance(root, int):
        try:
            pure = pure.relative_to(PurePath(root))
        except ValueError:
            if pure.is_absolute():
                raise ValueError(f"{path} is not inside {root}") from None
    parts = list(pure.parts)
    if not parts or any(part in ("..", ".", "/") for part in parts):
        raise ValueError(f"{path}: not a plain path below {root}")
    return parts


def _open_folder(root: int | _PathLike, parts: list[str], make_dirs: bool) -> int:
    """A new descriptor of the folder ``root/parts...``: ``root`` as given (a descriptor, or a path
    the user named: links followed), each of ``parts`` opened with ``O_NOFOLLOW`` from its parent."""
    fd = os.dup(root) if isinstance(root, int) else os.open(root, _DIRECTORY_FLAGS)
    try:
        for part in parts:
            try:
                child = os.open(part, _DIRECTORY_FLAGS | _NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                if not make_dirs:
                    raise
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, FOLDER_MODE, dir_fd=fd)
                child = _open_child_folder(fd, part)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise _refusal(fd, part) from None
                raise
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_child_folder(fd: int, part: str) -> int:
    try:
        return os.open(part, _DIRECTORY_FLAGS | _NOFOLLOW, dir_fd=fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise _refusal(fd, part) from None
        raise


def _refusal(fd: int, part: str) -> OSError:
    """Why ``part`` (in the folder ``fd``) could not be opened as a folder without following links."""
    try:
        mode = os.stat(part, dir_fd=fd, follow_symlinks=False).st_mode
    except OSError as exc:
        return exc
    if stat.S_ISLNK(mode):
        return _link_refused(part)
    return UnsafeFileError(errno.ENOTDIR, f"{part!r} is {kind_of(mode)}, not a folder")


def open_beneath(root: int | _PathLike, path: _PathLike, flags: int, mode: int = FILE_MODE, *,
                 make_dirs: bool = False, fresh: bool = False) -> int:
    """Open the regular file ``path`` inside arena's own folder ``root``; return its descriptor.

    ``root`` is a folder descriptor or a path the user named (followed if it is a link); ``path`` is
    relative to it, or a path inside it (``root / "t1" / "stderr" / "x.log"``). Every component of
    ``path`` below ``root`` is opened relative to its parent's descriptor with ``O_NOFOLLOW``: a
    symbolic link anywhere there is refused. ``make_dirs`` creates missing folders
    (:data:`FOLDER_MODE`) on the way; a new file gets ``mode`` (:data:`FILE_MODE`). With ``O_DIRECTORY`` in ``flags`` the last component must be a folder; otherwise it
    must be a regular file (a FIFO cannot hang the open: it is opened with ``O_NONBLOCK``, then
    checked with ``fstat``; the returned descriptor is blocking again).

    ``fresh``: whatever is at the name (an old file, a link, a hard link to someone's file) is
    unlinked, never followed or truncated, and the file is created exclusively (``O_CREAT | O_EXCL``
    are added) — what a per-game log file needs.

    Raises :class:`UnsafeFileError` for a link or a file of the wrong kind, another OSError as the
    system reports it (FileNotFoundError...), ValueError for a ``path`` with ``..``.
    """
    parts = _parts_below(root, path)
    name = parts.pop()
    folder = _open_folder(root, parts, make_dirs)
    try:
        if flags & os.O_DIRECTORY:
            if make_dirs:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, FOLDER_MODE, dir_fd=folder)
            return _open_child_folder(folder, name)
        if fresh:
            return _create_fresh(folder, name, flags, mode)
        return _open_regular(folder, name, flags, mode)
    finally:
        os.close(folder)


def _open_regular(folder: int, name: str, flags: int, mode: int) -> int:
    try:
        existing = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
    except FileNotFoundError:
        existing = None
    if existing is not None and not stat.S_ISREG(existing):
        raise _link_refused(name) if stat.S_ISLNK(existing) else _not_regular(existing)
    try:
        fd = os.open(name, flags | _NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, mode, dir_fd=folder)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _link_refused(name) from None
        if exc.errno == errno.ENXIO:  # a FIFO planted since the check, with nobody reading it
            raise UnsafeFileError(errno.EINVAL, "not a regular file (a FIFO)") from None
        raise
    return _regular_or_close(fd)


def _create_fresh(folder: int, name: str, flags: int, mode: int) -> int:
    for _ in range(5):
        with contextlib.suppress(FileNotFoundError, IsADirectoryError):
            os.unlink(name, dir_fd=folder)  # a link itself, never its target
        try:
            fd = os.open(name, flags | os.O_CREAT | os.O_EXCL | _NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=folder)
        except FileExistsError:
            continue  # planted again between the unlink and the open: once more
        return _regular_or_close(fd)
    raise UnsafeFileError(errno.EEXIST, f"cannot create {name!r}: something keeps re-creating it")


def _regular_or_close(fd: int) -> int:
    """``fd`` (made blocking) if it is a regular file; else it is closed and the refusal raised."""
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(mode)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    except BaseException:
        os.close(fd)
        raise
    return fd


def append_line(root: int | _PathLike, path: _PathLike, line: bytes) -> None:
    """Append ``line`` to the file ``path`` inside arena's own folder ``root`` (created if missing;
    no link followed below ``root``; a FIFO or device in its place refused). Raises OSError."""
    fd = open_beneath(root, path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        view = memoryview(line)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


# -- inputs --------------------------------------------------------------------------------------------


def read_input(path: _PathLike, limit: int, *, root: int | _PathLike | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    Without ``root`` the path is the user's (a link to a regular file is fine); with ``root`` it is
    inside arena's own folder and read with :func:`open_beneath` (no link followed below ``root``).
    Raises :class:`UnsafeFileError` for a FIFO, device, socket or folder (``errno`` EISDIR), or a
    file over ``limit`` (``errno`` EFBIG, strerror "larger than 16 MiB"); else the OSError of the
    system (FileNotFoundError, PermissionError...).
    """
    if root is None:
        fd = _regular_or_close(os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK))
    else:
        fd = open_beneath(root, path, os.O_RDONLY)
    with open(fd, "rb", closefd=True) as handle:
        if os.fstat(fd).st_size > limit:
            raise too_large(limit)
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise too_large(limit)
    return data


def too_large(limit: int) -> UnsafeFileError:
    """The refusal of an input over ``limit`` bytes."""
    return UnsafeFileError(errno.EFBIG, f"larger than {size_text(limit)}")


# -- outputs -------------------------------------------------------------------------------------------


def atomic_write(path: _PathLike, data: bytes | Iterable[bytes], *, root: int | _PathLike | None = None,
                 sync: bool = True, mode: int = FILE_MODE) -> None:
    """Replace ``path`` with ``data`` (bytes, or pieces written one after another: a large output
    need not be held whole) so that readers see the old or the new file, never a mix, and
    the new one survives a crash of the machine once this returns (file and folder ``fsync``;
    ``sync`` False skips both, for derived files rewritten every few seconds anyway).

    Only a regular file is replaced, or a new one created: a device, FIFO, socket, folder or
    symbolic link at ``path`` raises :class:`UnsafeFileError` and is left alone. Without ``root``
    the folder of ``path`` is the user's (a link to a folder is fine); with ``root``, ``path`` is
    inside arena's own folder and no link below ``root`` is followed (:func:`open_beneath`). The
    temporary file beside the target is created exclusively, without following a planted link, and
    removed when the write fails (disk full). A new file gets ``mode`` (:data:`FILE_MODE`: its
    owner's alone); a file replaced keeps the permissions it had. Raises OSError.
    """
    target = Path(path)
    if root is None:
        folder = os.open(target.parent, _DIRECTORY_FLAGS)
    else:
        parts = _parts_below(root, target)
        folder = _open_folder(root, parts[:-1], make_dirs=False)
    try:
        _replace_in(folder, target.name, data, sync, mode)
    finally:
        os.close(folder)


def output_refusal(path: _PathLike, *, dir_fd: int | None = None) -> UnsafeFileError | None:
    """Why :func:`atomic_write` would refuse to replace ``path`` (None: it is a regular file, or
    nothing): a command checks its output with this before doing the work, then writes."""
    try:
        mode = os.stat(path, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except OSError:  # nothing there, or no such folder: the write itself will say what is wrong
        return None
    if stat.S_ISREG(mode):
        return None
    return UnsafeFileError(errno.EINVAL, f"not a regular file ({kind_of(mode)}); arena replaces only regular files")


def _replace_in(folder: int, name: str, data: bytes | Iterable[bytes], sync: bool, mode: int) -> None:
    refusal = output_refusal(name, dir_fd=folder)
    if refusal is not None:
        raise refusal
    kept: int | None = None
    with contextlib.suppress(OSError):
        kept = stat.S_IMODE(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)  # its owner's choice
    tmp = f".{name}.{os.getpid()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | _NOFOLLOW
    try:
        fd = os.open(tmp, flags, mode, dir_fd=folder)
    except FileExistsError:  # left by a process of this pid that was killed: ours to remove
        os.unlink(tmp, dir_fd=folder)
        fd = os.open(tmp, flags, mode, dir_fd=folder)
    try:
        if kept is not None:
            os.fchmod(fd, kept)
        with open(fd, "wb", closefd=True) as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                handle.writelines(data)
            handle.flush()
            if sync:
                os.fsync(handle.fileno())
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folder)
        raise
    if sync:
        sync_folder(folder)


def make_folders(path: _PathLike, mode: int = FOLDER_MODE) -> Path:
    """Create the folder ``path`` and any missing folder above it, each new one with ``mode``
    (:data:`FOLDER_MODE`: its owner's alone; ``mkdir -p`` would give the parents the umask's mode),
    and return it. Folders already there are left as they are (a link to a folder is followed:
    this is the user's part of a path). Raises OSError (FileExistsError when a file is in the way)."""
    target = Path(path)
    missing: list[Path] = []
    folder = target
    while not folder.is_dir():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, mode)
        except FileExistsError:
            if not folder.is_dir():
                raise
    return target


def sync_folder(folder: int) -> None:
    """``fsync`` the folder descriptor ``folder`` so a rename or a new name in it is durable; a
    file system that cannot sync folders (EINVAL) is not an error."""
    try:
        os.fsync(folder)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF, errno.EROFS):
            raise


__all__ = ["FILE_MODE", "FOLDER_MODE", "SHARED_FILE_MODE", "SHARED_FOLDER_MODE", "UnsafeFileError", "append_line",
           "atomic_write", "kind_of", "make_folders", "open_beneath", "output_refusal", "read_input", "size_text",
           "sync_folder", "too_large"]
