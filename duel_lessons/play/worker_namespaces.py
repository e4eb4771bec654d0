"""Namespaces without bubblewrap: a bot's worker makes its own pid, network, IPC and mount namespaces, and a root of
its own, as bubblewrap would.

As root directly, as a user through a user namespace (where the kernel allows it).  The new root
(:func:`own_namespaces`) is an empty, read-only tmpfs holding read-only binds of only the system's
library folders and the Python folders and package (:func:`root_plan`), a few devices, a ``/proc``
of the worker's own pid namespace, and a private, small ``/tmp`` and ``/dev/shm``; the rest of the
file system (the teacher's home, the bot folders, ``/run/lock``, ``/var/tmp``) is not there at all.
Used by the worker (:mod:`duel_lessons.play.bot_worker`) when bubblewrap is missing.
"""

from __future__ import annotations

import contextlib
import errno
import os
import platform
import signal
import sys
from collections.abc import Sequence
from typing import Any

#: Linux's flags for unshare(2) and mount(2).
CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWNET, CLONE_NEWIPC = 0x00020000, 0x10000000, 0x40000000, 0x08000000
CLONE_NEWPID, CLONE_NEWUTS = 0x20000000, 0x04000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 4096, 0x4000, 1 << 18
MS_REMOUNT, MNT_DETACH = 32, 2
#: The flags a remount must keep (statvfs's, then mount's): a user namespace may not clear them.
KEPT_FLAGS = ((4, MS_NODEV), (8, MS_NOEXEC), (1024, 1024), (2048, 2048), (4096, 1 << 21))
#: mount_setattr(2) (the same number on every architecture, Linux 5.12+) and its attributes.
SYS_MOUNT_SETATTR, MOUNT_ATTR_RDONLY, MOUNT_ATTR_NOSUID, AT_RECURSIVE = 442, 1, 2, 0x8000
#: pivot_root(2), which has no C library wrapper: its number on each architecture.
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "arm64": 41, "riscv64": 41, "ppc64le": 203, "ppc64": 203, "s390x": 217}
#: The devices of the new root's /dev (as bubblewrap's ``--dev``, without a terminal).
DEVICES = ("null", "zero", "full", "random", "urandom")
#: The folders a bot may write in its new root: each a fresh tmpfs of this size, gone with the namespace.
SCRATCH_FOLDERS = ("/tmp", "/dev/shm")
SCRATCH_OPTIONS = b"mode=1777,size=32m,nr_inodes=4096"
#: Where the new root is built (a tmpfs mounted over it, in the worker's own mount namespace), and this process's
#: folder of /proc (tests point both elsewhere).
NEW_ROOT, PROC_SELF = "/tmp", "/proc/self"


def _libc() -> Any:
    """The C library, with ``errno`` kept for :func:`ctypes.get_errno`."""
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def _user_namespace(libc: Any, uid: int, gid: int, more: int = 0) -> bool:
    """Enter a new user and mount namespace (and ``more``) in which this process keeps its user and group ids."""
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | more) != 0:
        return False
    try:
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"{PROC_SELF}/{name}", "w") as file:
                file.write(text)
    except OSError:
        return False
    return True


def _wait_and_end_alike(pid: int, signals: bool) -> None:
    """Hold nothing (every file closed), wait for child ``pid``, and end as it ended: its exit code, or, with
    ``signals``, killed by the same signal (the first process of a pid namespace, which cannot kill itself
    so, ends with 128 + the signal's number, and is read back the same way)."""
    os.closerange(0, 65536)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    code = os.waitstatus_to_exitcode(status)
    if signals and code > 128:
        code = 128 - code
    if code < 0 and signals:
        with contextlib.suppress(OSError, ValueError):  # (SIGKILL has no handler to reset)
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(128 - code if code < 0 else code & 0xFF)


def _fork_waiting(libc: Any, signals: bool) -> None:
    """Fork; this process waits for the child and ends alike (never returns); the child returns."""
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: the waiting parent dies with its own parent
    pid = os.fork()
    if pid:
        libc.prctl(4, 0)  # PR_SET_DUMPABLE 0: no process of the same user traces the waiting parent
        _wait_and_end_alike(pid, signals)
    libc.prctl(1, signal.SIGKILL)  # and the child with the waiting parent


def root_plan() -> list[tuple[str, str | None]]:
    """What the new root holds: each path with its symlink's target, or None for a read-only bind of the real one
    (the system's library folders and files, the Python folders and this package), parents before children.

    >>> plan = dict(root_plan())
    >>> from duel_lessons.play.isolation import PACKAGE
    >>> plan[str(PACKAGE)] is None and "/home" not in plan
    True
    """
    from duel_lessons.play.isolation import python_dirs, system_paths

    found = dict(system_paths())
    for folder in python_dirs():
        found.setdefault(folder, None)
    return sorted(found.items())


def _mount_points_under(path: str) -> list[str]:
    """The mount points at and under ``path`` in this mount namespace (``path`` first)."""
    with open(f"{PROC_SELF}/mounts", encoding="utf-8", errors="replace") as file:
        points = [line.split()[1].replace("\\040", " ") for line in file if len(line.split()) > 1]
    return [path, *(p for p in points if p != path and _within(p, [path]))]


def _read_only(libc: Any, path: str, recursive: bool) -> bool:
    """Make the mount at ``path`` (and, ``recursive``, every one under it) read-only and nosuid: mount_setattr
    (Linux 5.12+), or else a remount that keeps the flags a mount has (a user namespace may not clear them)."""
    import ctypes

    attr = (ctypes.c_uint64 * 4)(MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID, 0, 0, 0)  # struct mount_attr: attr_set
    flags, at_fdcwd = AT_RECURSIVE if recursive else 0, -100
    if (
        libc.syscall(SYS_MOUNT_SETATTR, at_fdcwd, os.fsencode(path), flags, ctypes.byref(attr), ctypes.sizeof(attr))
        == 0
    ):
        return True
    if ctypes.get_errno() != errno.ENOSYS:
        return False
    for point in _mount_points_under(path) if recursive else [path]:
        has = os.statvfs(point).f_flag
        kept = sum(ms for st, ms in KEPT_FLAGS if has & st)
        if libc.mount(None, os.fsencode(point), None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | kept, None):
            return False
    return True


def _drop_capabilities(libc: Any) -> bool:
    """Give up every capability, for good (bounding set, then effective and permitted ones; no new privileges
    from a program run later): what bubblewrap does in its user namespace."""
    import ctypes

    for capability in range(64):  # PR_CAPBSET_DROP (those past the kernel's last one fail, and need not drop)
        libc.prctl(24, capability, 0, 0, 0)
    libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    return bool(libc.capset(header, (ctypes.c_uint32 * 6)()) == 0)


def _within(path: str, folders: Sequence[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def _new_root(libc: Any, plan: Sequence[tuple[str, str | None]], folders: Sequence[str]) -> bool:
    """Build the new root in a tmpfs over :data:`NEW_ROOT` (the real folders reached through descriptors opened
    first, so that one under ``/tmp`` is still found), move into it and drop the old one; whether all of it was done."""
    root = NEW_ROOT
    pivot = SYS_PIVOT_ROOT.get(platform.machine())
    if pivot is None or not os.path.isdir(root):
        return False
    fds = {path: os.open(path, os.O_PATH | os.O_CLOEXEC) for path, target in plan if target is None}
    mask = os.umask(0o022)  # parents made here are traversable by a worker's user of its own
    try:
        flags = MS_NOSUID | MS_NODEV
        if libc.mount(b"tmpfs", root.encode(), b"tmpfs", flags, b"mode=0755,size=1m,nr_inodes=4096") != 0:
            return False
        for folder in SCRATCH_FOLDERS:  # first: a Python folder under /tmp is bound into the private one
            os.makedirs(root + folder)
            if libc.mount(b"tmpfs", (root + folder).encode(), b"tmpfs", flags, SCRATCH_OPTIONS) != 0:
                return False
        bound: list[str] = []
        for path, target in plan:
            where = root + path
            if target is not None:
                os.makedirs(os.path.dirname(where), exist_ok=True)
                os.symlink(target, where)
                continue
            if _within(path, bound):
                continue  # already there, read-only, inside its parent's bind
            if os.path.isdir(f"/proc/self/fd/{fds[path]}"):
                os.makedirs(where, exist_ok=True)
            else:
                os.makedirs(os.path.dirname(where), exist_ok=True)
                open(where, "a").close()
            source = f"/proc/self/fd/{fds[path]}".encode()
            if libc.mount(source, where.encode(), None, MS_BIND | MS_REC, None) != 0:
                return False
            if not _read_only(libc, where, recursive=True):
                return False
            bound.append(path)
        for name in DEVICES:
            if os.path.exists(f"/dev/{name}"):
                open(f"{root}/dev/{name}", "a").close()
                if libc.mount(f"/dev/{name}".encode(), f"{root}/dev/{name}".encode(), None, MS_BIND, None) != 0:
                    return False
        for name, target in (("fd", "/proc/self/fd"), ("stdin", "0"), ("stdout", "1"), ("stderr", "2")):
            os.symlink(target if name == "fd" else f"/proc/self/fd/{target}", f"{root}/dev/{name}")
        os.makedirs(root + "/proc")
        if libc.mount(b"proc", (root + "/proc").encode(), b"proc", flags | MS_NOEXEC, None) != 0:
            return False
        for folder in folders:  # a bot folder inside a bound one (a folder removed since is skipped)
            if os.path.isdir(root + folder) and libc.mount(
                b"tmpfs", (root + folder).encode(), b"tmpfs", flags | MS_NOEXEC | MS_RDONLY, b"mode=0555"
            ):
                return False
    finally:
        os.umask(mask)
        for fd in fds.values():
            os.close(fd)
    os.chdir(root)
    if libc.syscall(pivot, b".", b".") != 0 or libc.umount2(b".", MNT_DETACH) != 0:
        return False
    os.chdir("/")
    return _read_only(libc, "/", recursive=False)


def own_namespaces(folders: list[str] | tuple[str, ...]) -> bool:
    """Linux, where bubblewrap did not run: pid, network, IPC, UTS and mount namespaces of this process's own, and a
    root of its own (see the module's docstring) in which each of ``folders`` that a bound folder holds is
    covered by an empty, read-only tmpfs; whether all of it was done.

    The worker goes on as the first process of the new pid namespace, with a ``/proc`` of its own: it
    sees, signals and traces no process outside (the referee, the other bots).  The new network
    namespace has no interface but a loopback that is down: no address, local or not, can be reached
    (the referee's socket, made before, still works).  Of the file system it sees only what Python
    needs, read-only, and writes only its private ``/tmp`` and ``/dev/shm``.  Root (with CAP_SYS_ADMIN)
    needs no more; anyone else needs a user namespace too, where the kernel allows them, and then a
    second one, so that the mounts are locked: neither this process nor anything it runs can lift them,
    whatever namespace it makes later; there it gives up every capability, as bubblewrap does.  A bot
    that becomes another user afterwards (a root referee's worker) holds no capability either.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = _libc()
        uid, gid = os.getuid(), os.getgid()
        nested = False
        plan = root_plan()
        more = CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWUTS  # (UTS: as bubblewrap)
        if libc.unshare(CLONE_NEWNS | more) != 0:
            if uid == 0 or not _user_namespace(libc, uid, gid, more):
                return False  # (root may map itself into a user namespace only with CAP_SETFCAP)
            nested = True
        if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
            return False
        _fork_waiting(libc, signals=True)  # here, the first process of the new pid namespace (it mounts its /proc)
        done = _new_root(libc, plan, folders)
        locked = not nested or (_user_namespace(libc, uid, gid) and _drop_capabilities(libc))  # mounts: locked
        _fork_waiting(libc, signals=False)  # the worker is its second process (the first ignores its own signals)
        return locked and done  # the caller's parent is now this namespace's first process: it notes it
    except (OSError, AttributeError, ImportError):
        return False
