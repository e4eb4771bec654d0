r"""The operating system's side of the bot sandbox: which isolation layers run here, and starting, watching
and ending a worker's process tree (see :mod:`duel_lessons.play.sandbox` for why each layer is there).

* :func:`bubblewrap` finds whether ``bwrap`` runs here (namespaces of its own, read-only binds of only the
  Python folders and the package, a private ``/tmp`` and ``/dev``); :func:`isolation_notes` says, once,
  which layers are missing.
* A root referee gives each worker a user id of its own (:func:`next_uid`); :func:`sweep_user` kills that
  user's processes and removes its files from ``/tmp`` and ``/dev/shm`` when the worker ends.
* :class:`Worker` reads the CPU time of the whole process tree and kills it.
* :func:`run_isolated` runs any Python command with the same layers (a handed-in notebook, say).

>>> printable("bell\x07")
'bell\\x07'
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil  # type: ignore[import-untyped]

from duel_lessons.play.referee import check_time_limit as check_time_limit
from duel_lessons.play.referee import printable as printable
from duel_lessons.play.unisolated import INSTALL_ISOLATION, UNISOLATED_FLAG

#: How far past its CPU limit a looping bot can get before the referee sees it: the referee reads the CPU
#: time at least every ``CPU_TICK`` seconds, and a tick on a loaded machine can be late by about as much again.
CPU_TICK = 0.05
CPU_MARGIN = 0.25
#: The folder of the duel_lessons package (bound read-only into bubblewrap; its parent is on the worker's path).
PACKAGE = Path(__file__).resolve().parent.parent
#: Where Linux shows the processes (tests point it elsewhere).
PROC = "/proc"
#: The first user id given to workers of a root referee (one id per live worker, never a real user's).
UID_BASE = 1_900_000_000


# -- the layers available here -------------------------------------------------------------------


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def can_change_user() -> bool:
    """Whether this (root) process holds CAP_SETUID and CAP_SETGID (a container may take them away)."""
    if not is_root():
        return False
    try:
        text = Path("/proc/self/status").read_text()
    except OSError:
        return True  # not Linux: root can
    return setuid_allowed(text)


def setuid_allowed(status: str) -> bool:
    r"""Whether a /proc/PID/status text holds CAP_SETUID (bit 6) and CAP_SETGID (bit 7) among the effective ones
    (no ``CapEff`` line: not Linux, where root can).

    >>> setuid_allowed("Name:\tpython\nCapEff:\t00000000000000c0\n"), setuid_allowed("CapEff:\t0000000000000040\n")
    (True, False)
    """
    for line in status.splitlines():
        if line.startswith("CapEff:"):
            caps = int(line.split()[1], 16)
            return bool(caps & (1 << 6)) and bool(caps & (1 << 7))
    return True


def system_paths(root: str = "") -> list[tuple[str, str | None]]:
    """The system folders and files a worker's Python needs, each with its symlink's target (None: bound as it is);
    ``root``: where the system's ``/`` is (tests)."""
    found: list[tuple[str, str | None]] = []
    for path in ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"):
        if os.path.islink(root + path):
            found.append((path, os.readlink(root + path)))
        elif os.path.isdir(root + path):
            found.append((path, None))
    for path in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/localtime"):
        if os.path.exists(root + path):
            found.append((path, None))
    return found


def _system_binds() -> list[str]:
    binds: list[str] = []
    for path, target in system_paths():
        binds += ["--symlink", target, path] if target is not None else ["--ro-bind", path, path]
    return binds


def python_dirs() -> list[str]:
    """The folders the worker's Python needs: its installation, its site-packages, and this package."""
    import site
    import sysconfig

    dirs = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    dirs.add(str(Path(sys.executable).resolve().parent.parent))
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        with contextlib.suppress(KeyError):
            dirs.add(sysconfig.get_paths()[key])
    with contextlib.suppress(AttributeError):
        dirs.update(site.getsitepackages())
    dirs.add(str(PACKAGE))
    return sorted(d for d in {str(Path(d).resolve()) for d in dirs} if os.path.isdir(d))


def _package_root() -> str:
    return str(PACKAGE.parent)


#: The user and group id inside a ``scratch`` sandbox's own user namespace (``nobody``'s).
SCRATCH_ID = 65534


def bwrap_command(extra: Sequence[str] = (), user_namespace: bool = False, scratch: bool = False) -> list[str]:
    """The bubblewrap command line before the worker's own; ``scratch``: a user namespace of its own with an
    unprivileged user and no capabilities, and a /tmp that user may write (see :func:`run_isolated`)."""
    command = ["bwrap", "--unshare-pid", "--unshare-ipc", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
    if user_namespace or scratch:
        command.append("--unshare-user")
    if scratch:
        command += ["--uid", str(SCRATCH_ID), "--gid", str(SCRATCH_ID), "--cap-drop", "ALL"]
    command += ["--die-with-parent", "--new-session", *_system_binds()]
    # A private /tmp first, then the folders: a Python or package that lives under /tmp (a venv made
    # there) is bound into the new /tmp rather than hidden by it.
    command += ["--dev", "/dev", "--proc", "/proc", *(["--perms", "01777"] if scratch else []), "--tmpfs", "/tmp"]
    folders = sorted({*python_dirs(), *extra})
    parents = sorted({str(p) for f in folders for p in Path(f).parents if str(p) != "/"} - set(folders))
    for parent in parents:  # made by bubblewrap, traversable by the worker's user (the real ones may not be)
        if not any(parent.startswith(f + "/") for f in folders):
            command += ["--perms", "0755", "--dir", parent]
    for folder in folders:
        command += ["--ro-bind", folder, folder]
    return [*command, "--chdir", "/tmp", "--"]


@functools.cache
def bubblewrap() -> tuple[bool | None, str]:
    """Whether bubblewrap works here: (None if not, else whether it needs a user namespace of its own), and why not."""
    if not sys.platform.startswith("linux"):
        return None, "bubblewrap is Linux only"
    if shutil.which("bwrap") is None:
        return None, "bubblewrap (bwrap) is not installed"
    why = ""
    for user_namespace in (False, True) if can_change_user() else (True,):
        try:
            done = subprocess.run(
                [*bwrap_command(user_namespace=user_namespace), sys.executable, "-c", "import math"],
                capture_output=True,
                timeout=60,
                env=worker_environment(),
                check=False,
            )
        except (OSError, subprocess.SubprocessError) as error:
            why = str(error)
            continue
        if done.returncode == 0:
            return user_namespace, ""
        why = printable(done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:][0] if done.stderr else "")
    return None, f"bubblewrap cannot run here ({why or 'namespaces not allowed'})"


@functools.cache
def own_namespaces_here() -> bool:
    """Whether a worker without bubblewrap can make namespaces of its own here (pid, network, mount: see
    :func:`duel_lessons.play.bot_worker.own_namespaces`), tried once in a fresh interpreter."""
    if not sys.platform.startswith("linux"):
        return False
    code = (
        "import sys\nfrom duel_lessons.play.bot_worker import own_namespaces\nsys.exit(0 if own_namespaces([]) else 3)"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-s", "-c", code], capture_output=True, timeout=60, env=worker_environment(), check=False
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def isolation_notes(functions: bool = False) -> list[str]:
    """The layers missing here, one sentence each (empty when every layer runs).

    ``functions``: some bots are functions that cannot be pickled (they run in a forked worker).
    """
    notes = []
    wrap, why = bubblewrap()
    own = wrap is None and own_namespaces_here()
    if own:
        notes.append(
            f"Sandbox: {why}; each bot makes namespaces and a root of its own instead (only Python and the package, "
            "read-only: none of your files or the other bots'; no network, no other process; nothing it writes "
            "outlives it)."
        )
    elif wrap is None:
        notes.append(f"Sandbox: {why}; bots are not in namespaces of their own.")
    if is_root() and not can_change_user():
        notes.append(
            "Sandbox: this process is root without the right to change user (CAP_SETUID): bots run as root"
            + (
                "; only bubblewrap's namespaces keep them from this process."
                if wrap is not None
                else " and could harm this process. Install bubblewrap, or run as an ordinary user."
            )
        )
    elif not is_root() and wrap is None and not own and hasattr(os, "geteuid"):
        notes.append(
            "Sandbox: bots run as your own user, so a bot written to attack could signal this process; "
            "bot files are kept to a restricted namespace. Install bubblewrap for namespaces."
        )
    if not hasattr(os, "fork"):
        notes.append("Sandbox: no resource limits or separate users on this system; bot files run restricted.")
    if functions and hasattr(os, "fork"):
        notes.append(
            "Sandbox: bots given as functions that cannot be pickled run in workers forked from this process, "
            "outside bubblewrap; give bots as files for a fresh interpreter."
        )
    return notes


def bots_unisolated() -> str | None:
    """Why other people's bot files cannot be isolated here, saying what to install and naming
    :data:`UNISOLATED_FLAG`; None when they can: bubblewrap runs, or each worker can make namespaces and a root
    of its own (:func:`own_namespaces_here`) and, under root, become a user of its own."""
    wrap, why = bubblewrap()
    if wrap is not None:
        return None
    own = own_namespaces_here()
    if own and (not is_root() or can_change_user()):
        return None
    if own:  # namespaces, but a root worker would keep every capability in them
        why += ", and this root process may not change user (CAP_SETUID)"
    else:
        why += ", and no process may make namespaces of its own here"
    who = "root" if is_root() else "your own user"
    return (
        f"The bot files cannot be isolated here: {why}. Each bot would run as {who}, able to read your files and "
        "the other bots', leave files behind, reach your network and signal your processes. "
        f"{INSTALL_ISOLATION}, or, only for bot files you trust, take that risk with {UNISOLATED_FLAG} "
        "(run_untrusted_code_without_isolation=True in Python)."
    )


def worker_environment(extra_paths: Sequence[str] = ()) -> dict[str, str]:
    """A clean environment (none of the teacher's variables): the package on the path, a private HOME."""
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": os.pathsep.join([_package_root(), *extra_paths]),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "NUMBA_DISABLE_JIT": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MPLBACKEND": "Agg",
    }
    if sys.platform == "win32":  # Windows needs its system folder to start Python
        env.update({k: v for k, v in os.environ.items() if k.upper() in ("SYSTEMROOT", "TEMP", "TMP")})
    return env


_uids = itertools.count()


def next_uid() -> int | None:
    """A user id for the next worker of a root referee, unused by any other live worker (None: not root)."""
    if not is_root():
        return None
    return UID_BASE + (os.getpid() % 10_000) * 1000 + next(_uids) % 1000


#: The folders every user may write, where :func:`sweep_user` removes a worker user's files.
SWEPT_FOLDERS = ("/tmp", "/dev/shm", "/var/tmp")


def sweep_user(uid: int, keep: Sequence[int] = (), folders: Sequence[str] = SWEPT_FOLDERS) -> None:
    """Kill every process of the worker user ``uid`` (but ``keep``) and remove its files from ``folders``."""
    if uid < UID_BASE:  # never anyone else's
        return
    for process in psutil.process_iter(["uids"]):
        with contextlib.suppress(psutil.Error, TypeError):
            if process.pid not in keep and uid in tuple(process.info["uids"] or ()):
                process.kill()
    if keep:
        return
    for folder in folders:
        with contextlib.suppress(OSError):
            for entry in os.scandir(folder):
                with contextlib.suppress(OSError):
                    if entry.stat(follow_symlinks=False).st_uid != uid:
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        shutil.rmtree(entry.path, ignore_errors=True)
                    else:
                        os.unlink(entry.path)


# -- the worker's process, however it was started --------------------------------------------------


@functools.cache
def _children_files() -> bool:
    """Whether Linux lists each task's children in /proc/PID/task/TID/children here."""
    return os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")


def _descendants(pid: int) -> list[int]:
    """The process ids under ``pid``, read from /proc/PID/task/TID/children (those that end meanwhile skipped)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        with contextlib.suppress(OSError):
            for task in os.listdir(f"{PROC}/{parent}/task"):
                with contextlib.suppress(OSError), open(f"{PROC}/{parent}/task/{task}/children", "rb") as file:
                    children = [int(c) for c in file.read().split()]
                    found += children
                    todo += children
    return found


def _processes(pids: Sequence[int]) -> list[psutil.Process]:
    found = []
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            found.append(psutil.Process(pid))
    return found


class Worker:
    """A started worker: its process tree, its user (root referee), its CPU time, killing it."""

    def __init__(self, pid: int, uid: int | None, popen: subprocess.Popen[bytes] | None, mp: Any = None) -> None:
        self.pid, self.uid, self.popen, self.mp = pid, uid, popen, mp
        self.worker_pid: int | None = None
        #: Whether the worker forked itself into a pid namespace of its own (then it is this process's grandchild).
        self.nested = False
        self.between: int | None = None
        try:
            self.root: psutil.Process | None = psutil.Process(pid)
        except psutil.Error:
            self.root = None

    def tree(self) -> list[psutil.Process]:
        if self.root is None:
            return []
        try:
            return [self.root, *self.root.children(recursive=True)]
        except psutil.Error:
            return []

    def cpu(self) -> float | None:
        """The CPU seconds of the worker and every process under it (those ended included), or None."""
        total, seen = 0.0, False
        for process in self.tree():
            with contextlib.suppress(psutil.Error):
                t = process.cpu_times()
                total += t.user + t.system + t.children_user + t.children_system
                seen = True
        return total if seen else None

    def usage(self) -> tuple[float, int, int]:
        """The whole tree's CPU seconds (as :meth:`cpu`), how many processes it has (bubblewrap's own not
        counted), and their resident bytes (read often: the tree's own entries of /proc, where Linux has
        them, rather than every process of the machine)."""
        if self.root is None:
            return 0.0, 0, 0
        tree = self.tree() if not _children_files() else [self.root, *_processes(_descendants(self.root.pid))]
        total, count, memory = 0.0, 0, 0
        for process in tree:
            with contextlib.suppress(psutil.Error), process.oneshot():
                t = process.cpu_times()
                total += t.user + t.system + t.children_user + t.children_system
                memory += process.memory_info().rss
                count += process.name() != "bwrap"
        return total, count, memory

    def exit_code(self) -> int | None:
        if self.popen is not None:
            try:
                return self.popen.wait(1)
            except subprocess.TimeoutExpired:
                return None
        self.mp.join(1)
        return self.mp.exitcode  # type: ignore[no-any-return]

    def strays(self) -> None:
        """Kill every process under the worker but the worker itself (and bubblewrap's own)."""
        keep = {self.pid}
        if self.nested and self.worker_pid is None and self.root is not None:
            with contextlib.suppress(psutil.Error, ValueError):  # the pid namespace's first process, then the worker
                first = min(self.root.children(), key=lambda p: p.create_time())
                self.worker_pid = min(first.children(), key=lambda p: p.create_time()).pid
                self.between = first.pid
        if self.between is not None:
            keep.add(self.between)
        for process in self.tree():
            with contextlib.suppress(psutil.Error):
                if process.name() == "bwrap":
                    keep.add(process.pid)
                elif self.worker_pid is None:
                    self.worker_pid = process.pid  # the first process under bubblewrap is the worker
        if self.worker_pid is not None:
            keep.add(self.worker_pid)
        for process in self.tree():
            if process.pid not in keep:
                with contextlib.suppress(psutil.Error):
                    process.kill()
        if self.uid is not None:
            sweep_user(self.uid, keep=tuple(keep))

    def kill(self) -> None:
        for process in reversed(self.tree()):
            with contextlib.suppress(psutil.Error):
                process.kill()
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGKILL)
        if self.popen is not None:
            with contextlib.suppress(OSError):
                self.popen.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.popen.wait(5)
            for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()
        else:
            with contextlib.suppress(OSError, ValueError):
                self.mp.kill()
            self.mp.join(5)
            with contextlib.suppress(ValueError):
                self.mp.close()
        if self.uid is not None:
            sweep_user(self.uid)


# -- any Python command, with the same layers ------------------------------------------------------


@dataclass(frozen=True)
class Isolated:
    """What :func:`run_isolated` saw: the exit code, the output (capped), and why it was stopped (or None)."""

    returncode: int | None
    stdout: bytes
    stderr: bytes
    stopped: str | None
    cpu: float


def run_isolated(
    args: Sequence[str],
    *,
    stdin: bytes = b"",
    cpu_limit: float = 60.0,
    wall_limit: float = 300.0,
    memory_limit: int = 2 * 2**30,
    output_limit: int = 50 * 2**20,
    readable: Sequence[str] = (),
    scratch: bool = False,
    max_processes: int = 64,
) -> Isolated:
    """Run ``python ARGS`` (a module with ``-m``, or a script) in the bot sandbox's layers; ``stdin`` is its input.

    The same layers as a bot (a fresh interpreter, bubblewrap with only the Python folders and
    ``readable`` bound read-only, a user of its own under a root caller, a clean environment,
    resource limits but processes allowed (a notebook needs a kernel), every process killed at
    the end), with a CPU limit over the whole process tree and a wall-clock limit.

    Memory is limited twice: ``memory_limit`` bytes of address space for each process (``RLIMIT_AS``)
    and as much resident memory for the whole tree. So are processes: ``RLIMIT_NPROC`` where the command
    has a user id of its own (a root caller without ``scratch``; the kernel counts per user, and not at
    all for root, even inside bubblewrap's user namespace), and at most ``max_processes`` in the tree at
    once. The tree's totals are read every :data:`CPU_TICK` seconds; the whole tree is stopped when one
    is passed. Hand data in on ``stdin`` and read the result from ``stdout``: nothing of the caller's is
    writable.

    ``scratch`` gives the command a private, writable ``/tmp`` (a notebook's libraries keep caches
    there). Under bubblewrap that is a user namespace of its own, with an unprivileged user inside and
    every capability dropped, in place of a user id of its own outside (which could write nowhere).
    Without bubblewrap it is a fresh folder of the caller's, removed afterwards, and the command runs
    as the caller's user: :func:`isolation_notes` says that layer is missing.

    >>> run_isolated(["-c", "print(6 * 7)"]).stdout
    b'42\\n'
    """
    cpu_limit = check_time_limit(cpu_limit, "The CPU limit")
    wall_limit = check_time_limit(wall_limit, "The wall-clock limit")
    user_namespace, _ = bubblewrap()
    uid = next_uid() if can_change_user() and not scratch else None
    private = tempfile.mkdtemp(prefix="duel-isolated-") if scratch and user_namespace is None else None
    limits = (
        "import os, resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({memory_limit}, {memory_limit}))\n"
        "resource.setrlimit(resource.RLIMIT_CORE, (0, 0))\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({output_limit}, {output_limit}))\n"
        f"uid = {uid!r}\n"
        "if uid is not None:\n"
        "    os.setgroups([]); os.setgid(uid); os.setuid(uid)\n"
        f"    resource.setrlimit(resource.RLIMIT_NPROC, ({max_processes}, {max_processes}))\n"
        "os.execv(sys.executable, [sys.executable, '-s', *sys.argv[1:]])\n"
    )
    command = [sys.executable, "-s", "-c", limits, *args]
    if user_namespace is not None:
        command = bwrap_command(list(readable), user_namespace, scratch) + command
    env = worker_environment()
    home = "/tmp" if user_namespace is not None else private or "/nonexistent"
    env["HOME"] = env["JUPYTER_RUNTIME_DIR"] = env["IPYTHONDIR"] = home
    if private is not None:
        env["TMPDIR"] = private
    popen = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd="/",
        start_new_session=True,
    )
    worker = Worker(popen.pid, uid, popen)
    began = time.monotonic()
    out: list[bytes] = []
    err: list[bytes] = []
    stopped: str | None = None
    cpu = 0.0
    assert popen.stdin is not None and popen.stdout is not None and popen.stderr is not None
    with contextlib.suppress(OSError):
        popen.stdin.write(stdin)
    with contextlib.suppress(OSError):
        popen.stdin.close()
    streams = {popen.stdout: out, popen.stderr: err}
    size = 0
    try:
        while streams:
            ready, _, _ = select.select(list(streams), [], [], CPU_TICK)
            for stream in ready:
                chunk = os.read(stream.fileno(), 65536)
                if not chunk:
                    del streams[stream]
                    continue
                size += len(chunk)
                streams[stream].append(chunk)
            used, processes, memory = worker.usage()
            cpu = max(cpu, used)
            if size > output_limit:
                stopped = f"wrote more than {output_limit:,} bytes"
            elif processes > max_processes:
                stopped = f"started more than {max_processes} processes"
            elif memory > memory_limit:
                stopped = f"used more than {memory_limit / 2**20:,.0f} MB of memory"
            elif cpu > cpu_limit:
                stopped = f"used more than {cpu_limit:g} s of CPU time"
            elif time.monotonic() - began > wall_limit:
                stopped = f"did not finish within {wall_limit:g} s"
            if stopped:
                break
    finally:
        worker.kill()
        if private is not None:
            shutil.rmtree(private, ignore_errors=True)
    return Isolated(popen.returncode if stopped is None else None, b"".join(out), b"".join(err), stopped, cpu)
