"""Namespaces without bubblewrap: a bot's worker makes its own pid, network, IPC and mount namespaces.

As root directly, as a user through a user namespace (where the kernel allows it); every mount
read-only except a private ``/tmp``, ``/var/tmp``, ``/dev/shm`` and ``/run/lock``.  Used by the
worker (:mod:`duel_lessons.play.bot_worker`) when bubblewrap is missing.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import Any

#: Linux's flags for unshare(2) and mount(2).
CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWNET, CLONE_NEWIPC = 0x00020000, 0x10000000, 0x40000000, 0x08000000
CLONE_NEWPID = 0x20000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 1, 2, 4, 8, 0x4000, 1 << 18


def _user_namespace(libc: Any, uid: int, gid: int, more: int = 0) -> bool:
    """Enter a new user and mount namespace (and ``more``) in which this process keeps its user and group ids."""
    if libc.unshare(CLONE_NEWUSER | CLONE_NEWNS | more) != 0:
        return False
    try:
        for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
            with open(f"/proc/self/{name}", "w") as file:
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
        _wait_and_end_alike(pid, signals)
    libc.prctl(1, signal.SIGKILL)  # and the child with the waiting parent


#: The folders every user may write on a Linux system: each gets a fresh, private tmpfs in a worker's namespace.
SCRATCH_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")


def _read_only_but_scratch(libc: Any) -> bool:
    """Make every mount read-only (mount_setattr, Linux 5.12+), then give each of :data:`SCRATCH_FOLDERS` a fresh
    tmpfs: whatever the bot writes is gone with its namespace, and nothing of the teacher's is writable."""
    import ctypes

    attr = (ctypes.c_uint64 * 4)(1, 0, 0, 0)  # struct mount_attr: attr_set = MOUNT_ATTR_RDONLY
    at_fdcwd, at_recursive, sys_mount_setattr = -100, 0x8000, 442
    if libc.syscall(sys_mount_setattr, at_fdcwd, b"/", at_recursive, ctypes.byref(attr), ctypes.sizeof(attr)) != 0:
        return False
    done = True
    needed = [os.path.realpath(p) for p in (*sys.path, sys.prefix, sys.base_prefix) if p]
    for folder in SCRATCH_FOLDERS:  # (one that holds Python or the package, a venv in /tmp say, stays as it is)
        if any(n.startswith(folder + "/") for n in needed):
            continue
        if os.path.isdir(folder) and libc.mount(
            b"tmpfs", folder.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, b"mode=1777"
        ):
            done = False
    return done


def own_namespaces(folders: list[str] | tuple[str, ...]) -> bool:
    """Linux, where bubblewrap did not run: a pid, network, IPC and mount namespace of this process's own,
    in which each of ``folders`` is covered by an empty, read-only tmpfs; whether all of it was done.

    Every mount is made read-only, and the folders anyone may write (:data:`SCRATCH_FOLDERS`) fresh
    and private.  The worker goes on as the first process of the new pid namespace, with a ``/proc`` of its own: it
    sees, signals and traces no process outside (the referee, the other bots).  The new network
    namespace has no interface but a loopback that is down: no address, local or not, can be reached
    (the referee's socket, made before, still works).  Root (with CAP_SYS_ADMIN) needs
    no more; anyone else needs a user namespace too, where the kernel allows them, and then a second
    one, so that the covers are locked: neither this process nor anything it runs can lift them (nor
    bind-mount what is under them), whatever namespace it makes later.  A bot that becomes another
    user afterwards (a root referee's worker) holds no capability at all.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        uid, gid = os.getuid(), os.getgid()
        nested = False
        more = CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWPID
        if libc.unshare(CLONE_NEWNS | more) != 0:
            if uid == 0 or not _user_namespace(libc, uid, gid, more):
                return False  # (root may map itself into a user namespace only with CAP_SETFCAP)
            nested = True
        if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
            return False
        done = True
        flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
        for folder in folders:  # (a folder removed since is skipped: there is nothing left to read)
            if os.path.isdir(folder) and libc.mount(
                b"tmpfs", os.fsencode(folder), b"tmpfs", flags | MS_RDONLY, b"mode=0555"
            ):
                done = False
        done = _read_only_but_scratch(libc) and done
        _fork_waiting(libc, signals=True)  # here, the first process of the new pid namespace
        if libc.mount(b"proc", b"/proc", b"proc", flags, None) != 0:
            done = False
        locked = not nested or _user_namespace(libc, uid, gid)  # covers made in the parent: locked
        _fork_waiting(libc, signals=False)  # the worker is its second process (the first ignores its own signals)
        return locked and done  # the caller's parent is now this namespace's first process: it notes it
    except (OSError, AttributeError, ImportError):
        return False
