"""The pure decisions of :mod:`duel_lessons.play.isolation`, pinned exactly and fast (no process is started).

Which set-up is chosen, the bubblewrap argument list, the paths bound, the worker's environment and user id,
the sandbox's notes and refusals, and :func:`run_isolated`'s command, limits and stop reasons (with a fake
``Popen`` whose output comes from real pipes, and a fake process tree).  The real processes are in
tests/test_isolation.py and tests/test_sandbox_setups.py.  Every expected value is written out by hand.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

import duel_lessons.play.isolation as isolation
from duel_lessons.engine.errors import DuelError
from duel_lessons.play.unisolated import INSTALL_ISOLATION, UNISOLATED_FLAG

HERE_PACKAGE = str(Path(__file__).resolve().parent.parent / "duel_lessons")


# -- which set-up --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "allowed"),
    [
        ("Name:\tpython\nCapInh:\t0000000000000000\nCapEff:\t00000000000000c0\nCapBnd:\t0\n", True),
        ("CapEff:\t0000000000000040\n", False),  # CAP_SETUID alone
        ("CapEff:\t0000000000000080\n", False),  # CAP_SETGID alone
        ("CapEff:\t0000000000000000\n", False),
        ("CapEff:\t00000000000000bf\n", False),  # bits 0-5 and 7: hexadecimal, not another base
        ("CapEff:\t000001ffffffffff\n", True),
        ("CapPrm:\t00000000000000c0\n", True),  # no CapEff line: not Linux
        ("", True),
        ("XCapEff:\t0000000000000000\n", True),  # a line that only holds the name is not it
    ],
)
def test_setuid_allowed_reads_the_effective_capabilities(status: str, allowed: bool) -> None:
    assert isolation.setuid_allowed(status) is allowed


def test_is_root_is_the_effective_user_id_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert isolation.is_root() is True
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert isolation.is_root() is False
    monkeypatch.delattr(os, "geteuid")
    assert isolation.is_root() is False


def test_can_change_user_only_as_root_with_both_capabilities(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []

    def status(path: Path, *args: Any, **kwargs: Any) -> str:
        read.append(str(path))
        return "CapEff:\t0000000000000040\n"

    monkeypatch.setattr(isolation.Path, "read_text", status)
    monkeypatch.setattr(isolation, "is_root", lambda: False)
    assert isolation.can_change_user() is False and read == []
    monkeypatch.setattr(isolation, "is_root", lambda: True)
    assert isolation.can_change_user() is False and read == ["/proc/self/status"]

    def missing(path: Path, *args: Any, **kwargs: Any) -> str:
        raise FileNotFoundError(path)

    monkeypatch.setattr(isolation.Path, "read_text", missing)
    assert isolation.can_change_user() is True  # not Linux: root can


# -- the paths bound -----------------------------------------------------------------------------


def test_system_paths_are_the_library_folders_as_they_are(tmp_path: Path) -> None:
    system = tmp_path / "system"
    for folder in ("usr/bin", "usr/lib", "sbin", "lib", "libx32", "etc"):
        (system / folder).mkdir(parents=True)
    (system / "bin").symlink_to("usr/bin")
    (system / "lib64").symlink_to("usr/lib64")  # a dangling link is still a link
    (system / "lib32").symlink_to("usr/lib32")
    (system / "etc/ld.so.cache").write_text("")
    (system / "etc/ld.so.conf").write_text("")
    (system / "etc/localtime").symlink_to("ld.so.cache")
    assert isolation.system_paths(str(system)) == [
        ("/usr", None),
        ("/bin", "usr/bin"),
        ("/sbin", None),
        ("/lib", None),
        ("/lib64", "usr/lib64"),
        ("/lib32", "usr/lib32"),
        ("/libx32", None),
        ("/etc/ld.so.cache", None),
        ("/etc/ld.so.conf", None),
        ("/etc/localtime", None),
    ]
    other = tmp_path / "other"
    (other / "etc").mkdir(parents=True)
    (other / "usr").write_text("a file, not a folder")
    (other / "etc/localtime").write_text("")
    assert isolation.system_paths(str(other)) == [("/etc/localtime", None)]
    assert isolation.system_paths(str(tmp_path / "nothing")) == []
    assert dict(isolation.system_paths()).get("/usr", "missing") is None  # this system's own: /usr is a folder


def test_the_system_binds_bind_folders_and_make_symlinks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation, "system_paths", lambda: [("/usr", None), ("/bin", "usr/bin"), ("/etc/x", None)])
    assert isolation._system_binds() == [
        *("--ro-bind", "/usr", "/usr"),
        *("--symlink", "usr/bin", "/bin"),
        *("--ro-bind", "/etc/x", "/etc/x"),
    ]


def test_python_dirs_are_every_python_folder_resolved_existing_and_sorted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import site
    import sysconfig

    names = ["prefix", "base", "exec", "base_exec", "install", "stdlib", "plat", "pure", "platlib", "site", "pkg"]
    d = {name: tmp_path / name for name in names}
    for path in d.values():
        path.mkdir()
    (d["install"] / "bin").mkdir()
    (tmp_path / "link").symlink_to(d["pure"])
    monkeypatch.setattr(sys, "prefix", str(d["prefix"]))
    monkeypatch.setattr(sys, "base_prefix", str(d["base"]))
    monkeypatch.setattr(sys, "exec_prefix", str(d["exec"]))
    monkeypatch.setattr(sys, "base_exec_prefix", str(d["base_exec"]))
    monkeypatch.setattr(sys, "executable", str(d["install"] / "bin" / "python3"))
    paths = {
        "stdlib": str(d["stdlib"]),
        "platstdlib": str(d["plat"]),
        "purelib": str(tmp_path / "link"),  # resolved: the same folder as "pure"
        "platlib": str(d["platlib"]),
        "scripts": str(tmp_path / "scripts-never-bound"),
        "data": str(tmp_path),
    }
    monkeypatch.setattr(sysconfig, "get_paths", lambda: paths)
    monkeypatch.setattr(site, "getsitepackages", lambda: [str(d["site"]), str(tmp_path / "missing")])
    monkeypatch.setattr(isolation, "PACKAGE", d["pkg"])
    expected = sorted(str(d[name].resolve()) for name in names)
    assert isolation.python_dirs() == expected
    # without site.getsitepackages (an old virtualenv) and with a partial sysconfig
    monkeypatch.delattr(site, "getsitepackages")
    monkeypatch.setattr(sysconfig, "get_paths", lambda: {"stdlib": str(d["stdlib"])})
    left = ["prefix", "base", "exec", "base_exec", "install", "stdlib", "pkg"]
    assert isolation.python_dirs() == sorted(str(d[name].resolve()) for name in left)


def test_the_package_root_is_the_folder_holding_the_package() -> None:
    assert isolation._package_root() == str(Path(HERE_PACKAGE).parent)
    assert str(isolation.PACKAGE) == HERE_PACKAGE


# -- the bubblewrap argument list ----------------------------------------------------------------


@pytest.fixture
def fixed_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        isolation, "_system_binds", lambda: ["--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib"]
    )
    monkeypatch.setattr(isolation, "python_dirs", lambda: ["/opt/py", "/srv/app/pkg"])


EXTRA = ["/opt/py/lib/site/x", "/data/x", "/opt/py"]
NAMESPACES = ["--unshare-pid", "--unshare-ipc", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
SYSTEM = ["--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib"]
VIEW = [
    *("--perms", "0755", "--dir", "/data"),
    *("--perms", "0755", "--dir", "/opt"),  # not /opt/py/lib nor /opt/py/lib/site: inside the bound /opt/py
    *("--perms", "0755", "--dir", "/srv"),
    *("--perms", "0755", "--dir", "/srv/app"),
    *("--ro-bind", "/data/x", "/data/x"),
    *("--ro-bind", "/opt/py", "/opt/py"),  # once, though named twice
    *("--ro-bind", "/opt/py/lib/site/x", "/opt/py/lib/site/x"),
    *("--ro-bind", "/srv/app/pkg", "/srv/app/pkg"),
    *("--chdir", "/tmp", "--"),
]


@pytest.mark.usefixtures("fixed_paths")
def test_the_bubblewrap_command_line_exactly() -> None:
    plain = ["bwrap", *NAMESPACES, *SYSTEM, "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", *VIEW]
    assert isolation.bwrap_command(EXTRA) == plain
    user = ["bwrap", *NAMESPACES, "--unshare-user", *SYSTEM, "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    assert isolation.bwrap_command(EXTRA, user_namespace=True) == [*user, *VIEW]
    scratch = ["bwrap", *NAMESPACES, "--unshare-user", "--uid", "65534", "--gid", "65534", "--cap-drop", "ALL"]
    scratch += [*SYSTEM, "--dev", "/dev", "--proc", "/proc", "--perms", "01777", "--tmpfs", "/tmp", *VIEW]
    assert isolation.bwrap_command(EXTRA, scratch=True) == scratch
    assert isolation.bwrap_command(EXTRA, True, True) == scratch
    assert isolation.bwrap_command() == [
        *("bwrap", *NAMESPACES, *SYSTEM, "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"),
        *("--perms", "0755", "--dir", "/opt", "--perms", "0755", "--dir", "/srv", "--perms", "0755", "--dir"),
        *("/srv/app", "--ro-bind", "/opt/py", "/opt/py", "--ro-bind", "/srv/app/pkg", "/srv/app/pkg"),
        *("--chdir", "/tmp", "--"),
    ]


# -- the notes and refusals ----------------------------------------------------------------------


def setup(
    monkeypatch: pytest.MonkeyPatch, wrap: bool | None, own: bool, root: bool, can: bool, why: str = "WHY"
) -> None:
    monkeypatch.setattr(isolation, "bubblewrap", lambda: (wrap, "" if wrap is not None else why))
    monkeypatch.setattr(isolation, "own_namespaces_here", lambda: own)
    monkeypatch.setattr(isolation, "is_root", lambda: root)
    monkeypatch.setattr(isolation, "can_change_user", lambda: can and root)


OWN = (
    "Sandbox: WHY; each bot makes namespaces and a root of its own instead (only Python and the package, "
    "read-only: none of your files or the other bots'; no network, no other process; nothing it writes "
    "outlives it)."
)
NONE = "Sandbox: WHY; bots are not in namespaces of their own."
ROOT_BWRAP = (
    "Sandbox: this process is root without the right to change user (CAP_SETUID): bots run as root; "
    "only bubblewrap's namespaces keep them from this process."
)
ROOT_BARE = (
    "Sandbox: this process is root without the right to change user (CAP_SETUID): bots run as root and could "
    "harm this process. Install bubblewrap, or run as an ordinary user."
)
USER = (
    "Sandbox: bots run as your own user, so a bot written to attack could signal this process; "
    "bot files are kept to a restricted namespace. Install bubblewrap for namespaces."
)
FUNCTIONS = (
    "Sandbox: bots given as functions that cannot be pickled run in workers forked from this process, "
    "outside bubblewrap; give bots as files for a fresh interpreter."
)
NO_FORK = "Sandbox: no resource limits or separate users on this system; bot files run restricted."


@pytest.mark.parametrize(
    ("wrap", "own", "root", "can", "notes"),
    [
        (False, True, True, True, []),  # bubblewrap: own namespaces are not even asked
        (True, True, False, False, []),  # a user, bubblewrap in a user namespace
        (None, True, True, True, [OWN]),
        (None, True, False, False, [OWN]),
        (None, False, True, True, [NONE]),
        (None, False, False, False, [NONE, USER]),
        (False, False, True, False, [ROOT_BWRAP]),
        (None, True, True, False, [OWN, ROOT_BARE]),
        (None, False, True, False, [NONE, ROOT_BARE]),
    ],
)
def test_isolation_notes_per_setup(
    wrap: bool | None, own: bool, root: bool, can: bool, notes: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    setup(monkeypatch, wrap, own, root, can)
    assert isolation.isolation_notes() == notes
    assert isolation.isolation_notes(functions=True) == [*notes, FUNCTIONS]


def test_isolation_notes_without_fork_or_user_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    setup(monkeypatch, None, False, False, False)
    monkeypatch.delattr(os, "geteuid")
    assert isolation.isolation_notes(functions=True) == [NONE, FUNCTIONS]
    monkeypatch.delattr(os, "fork")
    assert isolation.isolation_notes(functions=True) == [NONE, NO_FORK]
    assert isolation.isolation_notes() == [NONE, NO_FORK]


def refusal(why: str, who: str) -> str:
    return (
        f"The bot files cannot be isolated here: WHY{why}. Each bot would run as {who}, able to read your files and "
        "the other bots', leave files behind, reach your network and signal your processes. "
        f"{INSTALL_ISOLATION}, or, only for bot files you trust, take that risk with {UNISOLATED_FLAG} "
        "(run_untrusted_code_without_isolation=True in Python)."
    )


NO_CAP = ", and this root process may not change user (CAP_SETUID)"
NO_NS = ", and no process may make namespaces of its own here"


@pytest.mark.parametrize(
    ("wrap", "own", "root", "can", "said"),
    [
        (False, False, True, False, None),  # bubblewrap runs: isolated
        (True, False, False, False, None),
        (None, True, False, False, None),  # namespaces of each worker's own
        (None, True, True, True, None),
        (None, True, True, False, refusal(NO_CAP, "root")),
        (None, False, True, True, refusal(NO_NS, "root")),
        (None, False, False, False, refusal(NO_NS, "your own user")),
    ],
)
def test_bots_unisolated_per_setup(
    wrap: bool | None, own: bool, root: bool, can: bool, said: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup(monkeypatch, wrap, own, root, can)
    assert isolation.bots_unisolated() == said


# -- the environment and the user ids ------------------------------------------------------------

CLEAN = {
    "PATH": "/usr/bin:/bin",
    "PYTHONPATH": str(Path(HERE_PACKAGE).parent),
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONNOUSERSITE": "1",
    "HOME": "/tmp",
    "LANG": "C.UTF-8",
    "NUMBA_DISABLE_JIT": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MPLBACKEND": "Agg",
}


def test_the_worker_environment_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SystemRoot", "C:\\Windows")
    monkeypatch.setenv("TMP", "C:\\Temp")
    assert isolation.worker_environment() == CLEAN
    root = str(Path(HERE_PACKAGE).parent)
    assert isolation.worker_environment(["/a", "/b"]) == {**CLEAN, "PYTHONPATH": f"{root}:/a:/b"}
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("TEMP", "C:\\Temp2")
    monkeypatch.setenv("OTHER", "x")
    windows = isolation.worker_environment()
    assert windows == {**CLEAN, "SystemRoot": "C:\\Windows", "TMP": "C:\\Temp", "TEMP": "C:\\Temp2"}


def test_next_uid_is_one_per_live_worker_above_every_real_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation, "is_root", lambda: False)
    assert isolation.next_uid() is None
    monkeypatch.setattr(isolation, "is_root", lambda: True)
    monkeypatch.setattr(os, "getpid", lambda: 123_456)
    monkeypatch.setattr(isolation, "_uids", itertools.count(999))
    assert [isolation.next_uid() for _ in range(3)] == [1_903_456_999, 1_903_456_000, 1_903_456_001]
    assert isolation.UID_BASE == 1_900_000_000


# -- sweeping a worker's user ----------------------------------------------------------------------


class Proc:
    """A fake psutil process: its pid, name, user ids, CPU times, resident bytes and children."""

    def __init__(self, pid: int, name: str = "python", uids: Any = (0, 0, 0), cpu: float = 0.0, rss: int = 0,
                 born: float = 0.0, fail: bool = False) -> None:  # fmt: skip
        self.pid, self._name, self.uids, self.fail = pid, name, uids, fail
        self._cpu, self._rss, self._born = cpu, rss, born
        self.kids: list[Proc] = []
        self.killed = 0
        self.lost = False  # its children can no longer be read
        self.info = {"uids": uids}

    def _check(self) -> None:
        if self.fail:
            raise psutil.NoSuchProcess(self.pid)

    def name(self) -> str:
        self._check()
        return self._name

    def cpu_times(self) -> Any:
        self._check()
        # user, system, and the children's: 1 : 2 : 4 : 8 of the 15 parts
        part = self._cpu / 15
        from types import SimpleNamespace

        return SimpleNamespace(user=part, system=2 * part, children_user=4 * part, children_system=8 * part)

    def memory_info(self) -> Any:
        self._check()
        return type("M", (), {"rss": self._rss})()

    def oneshot(self) -> Any:
        import contextlib

        return contextlib.nullcontext()

    def create_time(self) -> float:
        return self._born

    def children(self, recursive: bool = False) -> list[Proc]:
        if self.lost:
            raise psutil.NoSuchProcess(self.pid)
        if not recursive:
            return list(self.kids)
        found: list[Proc] = []
        for kid in self.kids:
            found += [kid, *kid.children(recursive=True)]
        return found

    def kill(self) -> None:
        self.killed += 1
        self._check()


def test_sweep_user_kills_its_processes_and_removes_its_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    uid = isolation.UID_BASE + 7
    procs = [
        Proc(10, uids=(uid, uid, uid)),
        Proc(11, uids=(0, uid, 0)),
        Proc(12, uids=(5, 5, 5)),
        Proc(13, uids=(uid,), fail=True),
        Proc(14, uids=None),
        Proc(15, uids=(uid,)),
        Proc(16, uids=5),
    ]  # fmt: skip (None: access denied; an odd value stops nothing)
    asked: list[Any] = []
    monkeypatch.setattr(isolation.psutil, "process_iter", lambda *a: asked.append(a) or iter(procs))
    a, b = tmp_path / "a", tmp_path / "b"
    for folder in (a, b):
        folder.mkdir()
    (a / "mine").write_text("x")
    (a / "theirs").write_text("x")
    (a / "mine-dir" / "deep").mkdir(parents=True)
    (a / "mine-dir" / "deep" / "f").write_text("x")
    (b / "link").symlink_to(a / "theirs")
    (b / "dirlink").symlink_to(a / "mine-dir")  # a link is removed, not followed
    (tmp_path / "kept").mkdir()
    (b / "keptlink").symlink_to(tmp_path / "kept")  # (to a folder that stays)
    for path in (a / "mine", a / "mine-dir", a / "mine-dir" / "deep", a / "mine-dir" / "deep" / "f"):
        os.chown(path, uid, uid)
    os.chown(b / "link", uid, uid, follow_symlinks=False)
    os.chown(b / "dirlink", uid, uid, follow_symlinks=False)
    os.chown(b / "keptlink", uid, uid, follow_symlinks=False)
    folders = (str(a), str(tmp_path / "missing"), str(b))
    isolation.sweep_user(uid, keep=(15,), folders=folders)  # a live worker: its files stay
    assert asked == [(["uids"],)] and [p.killed for p in procs] == [1, 1, 0, 1, 0, 0, 0]
    assert sorted(os.listdir(a)) == ["mine", "mine-dir", "theirs"]
    isolation.sweep_user(uid, folders=folders)
    assert [p.killed for p in procs] == [2, 2, 0, 2, 0, 1, 0]
    assert os.listdir(a) == ["theirs"] and os.listdir(b) == []
    for name in ("stuck", "next"):
        (a / name).write_text("x")
        os.chown(a / name, uid, uid)
    real_unlink = os.unlink

    def unlink(path: str) -> None:
        if path.endswith("stuck"):
            raise PermissionError(path)
        real_unlink(path)

    monkeypatch.setattr(os, "unlink", unlink)
    isolation.sweep_user(uid, folders=folders)  # a file that cannot be removed stops nothing
    assert sorted(os.listdir(a)) == ["stuck", "theirs"]
    isolation.sweep_user(isolation.UID_BASE - 1, folders=folders)  # never anyone else's
    assert len(asked) == 3
    assert isolation.SWEPT_FOLDERS == ("/tmp", "/dev/shm", "/var/tmp")


def test_a_stuck_file_stops_nothing_else_in_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep goes on inside a folder past a file it cannot remove (rmtree ignores errors), whatever the order."""
    uid = isolation.UID_BASE + 8
    monkeypatch.setattr(isolation.psutil, "process_iter", lambda *a: iter(()))
    left = tmp_path / "tmp" / "left"
    left.mkdir(parents=True)
    for name in "abcd":
        (left / name).write_text("x")
    os.chown(left, uid, uid)
    real_unlink, refused = os.unlink, []

    def unlink(path: Any, *, dir_fd: int | None = None) -> None:
        if not refused:  # the first file the sweep tries, whichever it is, cannot be removed
            refused.append(path)
            raise PermissionError(path)
        real_unlink(path, dir_fd=dir_fd)

    monkeypatch.setattr(os, "unlink", unlink)
    isolation.sweep_user(uid, folders=(str(tmp_path / "tmp"),))
    assert len(refused) == 1 and os.listdir(left) == [os.path.basename(refused[0])]


# -- a worker's process tree -----------------------------------------------------------------------


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> dict[int, Proc]:
    found: dict[int, Proc] = {}

    def process(pid: int) -> Proc:
        if pid not in found:
            raise psutil.NoSuchProcess(pid)
        return found[pid]

    monkeypatch.setattr(isolation.psutil, "Process", process)
    return found


def test_a_worker_whose_process_is_gone_has_no_tree(table: dict[int, Proc]) -> None:
    worker = isolation.Worker(99, None, None)
    assert (worker.root, worker.tree(), worker.cpu(), worker.usage()) == (None, [], None, (0.0, 0, 0))
    assert (worker.worker_pid, worker.nested, worker.between, worker.uid, worker.mp) == (None, False, None, None, None)


def test_the_cpu_and_usage_of_a_tree(table: dict[int, Proc], monkeypatch: pytest.MonkeyPatch) -> None:
    root = table[1] = Proc(1, "bwrap", cpu=1.5, rss=100)
    child, grandchild, gone = Proc(2, cpu=3.0, rss=20), Proc(3, cpu=0.75, rss=3), Proc(4, cpu=30.0, rss=9, fail=True)
    root.kids, child.kids = [child, gone], [grandchild]
    table.update({2: child, 3: grandchild})
    worker = isolation.Worker(1, None, None)
    assert [p.pid for p in worker.tree()] == [1, 2, 3, 4]
    assert worker.cpu() == pytest.approx(5.25)
    monkeypatch.setattr(isolation, "_children_files", lambda: False)
    assert worker.usage() == (pytest.approx(5.25), 2, 123)  # bubblewrap's own process not counted
    monkeypatch.setattr(isolation, "_children_files", lambda: True)
    monkeypatch.setattr(isolation, "_descendants", lambda pid: [3, 77] if pid == 1 else [])
    assert worker.usage() == (pytest.approx(2.25), 1, 103)  # the tree read from /proc: 1 and 3 (77 is gone)
    assert [p.pid for p in isolation._processes([3, 77, 2])] == [3, 2]
    root.lost = True
    assert worker.tree() == [] and worker.cpu() is None


def test_the_descendants_read_from_proc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every task's children file, depth first; a process that ended meanwhile (no folder, no file) is skipped."""
    for pid, task, children in [(1, 1, "2 3\n"), (1, 8, "7"), (2, 2, "4"), (3, 3, "5 9"), (5, 5, ""), (9, 9, None)]:
        (tmp_path / str(pid) / "task" / str(task)).mkdir(parents=True)
        if children is not None:
            (tmp_path / str(pid) / "task" / str(task) / "children").write_text(children)
    monkeypatch.setattr(isolation, "PROC", str(tmp_path))
    assert sorted(isolation._descendants(1)) == [2, 3, 4, 5, 7, 9]  # 4 and 7 have no folder: ended
    assert isolation._descendants(4) == [] and isolation._descendants(3) == [5, 9]


def test_proc_is_linuxs() -> None:
    assert isolation.PROC == "/proc"


class Popen:
    def __init__(self, code: int | None, pid: int = 1) -> None:
        self.code, self.pid, self.waits, self.kills = code, pid, [], 0
        self.stdin = self.stdout = self.stderr = None

    def wait(self, timeout: float) -> int:
        self.waits.append(timeout)
        if self.code is None:
            raise subprocess.TimeoutExpired("x", timeout)
        return self.code

    def kill(self) -> None:
        self.kills += 1


class Mp:
    def __init__(self) -> None:
        self.exitcode, self.calls = 5, []

    def join(self, timeout: float) -> None:
        self.calls.append(("join", timeout))

    def kill(self) -> None:
        self.calls.append("kill")

    def close(self) -> None:
        self.calls.append("close")


def test_the_exit_code_of_a_worker(table: dict[int, Proc]) -> None:
    popen = Popen(3)
    assert isolation.Worker(1, None, popen).exit_code() == 3 and popen.waits == [1]  # type: ignore[arg-type]
    assert isolation.Worker(1, None, Popen(None)).exit_code() is None  # type: ignore[arg-type]
    mp = Mp()
    assert isolation.Worker(1, None, None, mp).exit_code() == 5 and mp.calls == [("join", 1)]


def test_strays_are_killed_but_the_worker_and_bubblewrap(
    table: dict[int, Proc], monkeypatch: pytest.MonkeyPatch
) -> None:
    swept: list[Any] = []
    monkeypatch.setattr(isolation, "sweep_user", lambda uid, keep=(): swept.append((uid, keep)))
    root = table[1] = Proc(1, "bwrap")
    inner, bot, stray, gone = Proc(2, "bwrap"), Proc(3), Proc(4), Proc(5, fail=True)
    deep = Proc(6)
    root.kids, inner.kids, bot.kids, stray.kids = [inner], [bot], [stray, gone], [deep]
    worker = isolation.Worker(1, 1_900_000_001, None)
    worker.strays()
    assert [p.killed for p in (root, inner, bot, stray, gone, deep)] == [0, 0, 0, 1, 1, 1]
    assert worker.worker_pid == 3 and worker.between is None
    assert swept == [(1_900_000_001, (1, 2, 3))]
    worker.uid = None
    worker.strays()  # the worker is remembered
    assert [p.killed for p in (root, inner, bot, stray, gone, deep)] == [0, 0, 0, 2, 2, 2] and len(swept) == 1


def test_strays_of_a_worker_in_a_pid_namespace_of_its_own(
    table: dict[int, Proc], monkeypatch: pytest.MonkeyPatch
) -> None:
    swept: list[Any] = []
    monkeypatch.setattr(isolation, "sweep_user", lambda uid, keep=(): swept.append((uid, sorted(keep))))
    root = table[1] = Proc(1, born=1.0)
    first, late = Proc(2, born=3.0), Proc(9, born=4.0)
    bot, stray = Proc(7, born=6.0), Proc(5, born=7.0)
    root.kids, first.kids = [late, first], [stray, bot]
    worker = isolation.Worker(1, 1_900_000_002, None)
    worker.nested = True
    worker.strays()
    assert (worker.worker_pid, worker.between) == (7, 2)
    assert [p.killed for p in (root, first, late, bot, stray)] == [0, 0, 1, 0, 1]
    assert swept == [(1_900_000_002, [1, 2, 7])]


def test_strays_of_a_nested_worker_whose_tree_cannot_be_read(table: dict[int, Proc]) -> None:
    """Its process gone (psutil's error), or no worker under the namespace's first process (an empty ``min``):
    nothing is decided about the worker and nothing is raised."""
    root = table[1] = Proc(1)
    root.lost = True
    worker = isolation.Worker(1, None, None)
    worker.nested = True
    worker.strays()
    assert (worker.worker_pid, worker.between) == (None, None)
    root.lost, root.kids = False, [Proc(2)]
    worker.strays()
    assert worker.between is None


def test_killing_a_worker_kills_its_tree_and_sweeps_its_user(
    table: dict[int, Proc], monkeypatch: pytest.MonkeyPatch
) -> None:
    swept: list[Any] = []
    groups: list[Any] = []
    monkeypatch.setattr(isolation, "sweep_user", lambda uid, keep=(): swept.append((uid, keep)))
    monkeypatch.setattr(os, "killpg", lambda pid, sig: groups.append((pid, sig)))
    root = table[1] = Proc(1)
    kid = Proc(2, fail=True)
    root.kids = [kid]
    popen = Popen(None)
    r, w = os.pipe()
    streams = [os.fdopen(w, "wb"), os.fdopen(r, "rb")]
    popen.stdin, popen.stdout = streams  # type: ignore[assignment]
    isolation.Worker(1, 1_900_000_003, popen).kill()  # type: ignore[arg-type]
    assert (root.killed, kid.killed, groups) == (1, 1, [(1, 9)])
    assert (popen.kills, popen.waits, [s.closed for s in streams]) == (1, [5], [True, True])
    assert swept == [(1_900_000_003, ())]
    mp = Mp()
    isolation.Worker(1, None, None, mp).kill()
    assert mp.calls == ["kill", ("join", 5), "close"] and len(swept) == 1


def test_killing_a_worker_already_gone_raises_nothing(table: dict[int, Proc], monkeypatch: pytest.MonkeyPatch) -> None:
    """Its process group gone, a stream that fails to close, a process object already closed: no error."""

    def gone(pid: int, sig: int) -> None:
        raise ProcessLookupError(pid)

    class Broken:
        closed = False

        def close(self) -> None:
            raise OSError("bad descriptor")

    monkeypatch.setattr(os, "killpg", gone)

    class Ended(Popen):
        def kill(self) -> None:
            self.kills += 1
            raise ProcessLookupError(self.pid)

    popen = Ended(None)
    popen.stdin = Broken()  # type: ignore[assignment]
    isolation.Worker(1, None, popen).kill()  # type: ignore[arg-type]
    assert popen.kills == 1
    for error in (OSError, ValueError):

        class Closed(Mp):
            raises = error

            def kill(self) -> None:
                raise self.raises("closed")

            def close(self) -> None:
                raise ValueError("closed")

        mp = Closed()
        isolation.Worker(1, None, None, mp).kill()
        assert mp.calls == [("join", 5)]


# -- run_isolated: the command, the limits, the stop reasons -------------------------------------


def limits(uid: int | None, memory: int = 2 * 2**30, output: int = 50 * 2**20, processes: int = 64) -> str:
    return (
        "import os, resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))\n"
        "resource.setrlimit(resource.RLIMIT_CORE, (0, 0))\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({output}, {output}))\n"
        f"uid = {uid}\n"
        "if uid is not None:\n"
        "    os.setgroups([]); os.setgid(uid); os.setuid(uid)\n"
        f"    resource.setrlimit(resource.RLIMIT_NPROC, ({processes}, {processes}))\n"
        "os.execv(sys.executable, [sys.executable, '-s', *sys.argv[1:]])\n"
    )


class Started:
    """What the fake Popen and Worker saw and did, with the worker's usage scripted."""

    def __init__(self, usage: list[tuple[float, int, int]], out: bytes = b"", err: bytes = b"", end: bool = True,
                 stdin_fails: bool = False) -> None:  # fmt: skip
        self.usage, self.out, self.err, self.end, self.stdin_fails = usage, out, err, end, stdin_fails
        self.popen: dict[str, Any] = {}
        self.worker: list[Any] = []
        self.written: list[Any] = []
        self.fds: list[int] = []
        self.removes_tmpdir = False


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Started]]:
    box: list[Started] = []

    class Stdin:
        def write(self, data: bytes) -> None:
            box[0].written.append(data)
            if box[0].stdin_fails:
                raise BrokenPipeError

        def close(self) -> None:
            box[0].written.append("closed")
            if box[0].stdin_fails:
                raise BrokenPipeError

    class FakePopen:
        def __init__(self, command: list[str], **kwargs: Any) -> None:
            run = box[0]
            run.popen = {"command": command, **kwargs}
            if run.removes_tmpdir:  # the command removed its own scratch folder: nothing left to remove, no error
                shutil.rmtree(kwargs["env"]["TMPDIR"])
            self.pid, self.returncode, self.stdin = 4242, 3, Stdin()
            pipes = []
            for data in (run.out, run.err):
                r, w = os.pipe()
                os.write(w, data)
                if run.end:
                    os.close(w)
                else:
                    run.fds.append(w)
                pipes.append(os.fdopen(r, "rb"))
            self.stdout, self.stderr = pipes

    class FakeWorker:
        def __init__(self, pid: int, uid: int | None, popen: Any) -> None:
            box[0].worker.append((pid, uid, popen))

        def usage(self) -> tuple[float, int, int]:
            run = box[0]
            return run.usage.pop(0) if len(run.usage) > 1 else run.usage[0]

        def kill(self) -> None:
            box[0].worker.append("killed")
            for stream in (box[0].worker[0][2].stdout, box[0].worker[0][2].stderr):
                stream.close()

    monkeypatch.setattr(isolation.subprocess, "Popen", FakePopen)
    monkeypatch.setattr(isolation, "Worker", FakeWorker)
    monkeypatch.setattr(isolation, "next_uid", lambda: 1_900_000_042)
    monkeypatch.setattr(isolation, "bwrap_command", lambda *a: ["bwrap", repr(a), "--"])
    yield box
    for run in box:
        for fd in run.fds:
            os.close(fd)


def again(started: list[Started], run: Started) -> None:
    """The next run in place of the last (its pipes' write ends closed)."""
    for fd in started[0].fds:
        os.close(fd)
    started[0] = run


def arrange(monkeypatch: pytest.MonkeyPatch, wrap: bool | None, can: bool) -> None:
    monkeypatch.setattr(isolation, "bubblewrap", lambda: (wrap, "" if wrap is not None else "no bwrap"))
    monkeypatch.setattr(isolation, "can_change_user", lambda: can)


def test_run_isolated_in_bubblewrap_as_a_user_of_its_own(
    started: list[Started], monkeypatch: pytest.MonkeyPatch
) -> None:
    arrange(monkeypatch, False, True)
    started.append(run := Started([(0.5, 1, 10), (0.25, 1, 10)], out=b"out", err=b"err"))
    done = isolation.run_isolated(["-c", "pass"], stdin=b"in", readable=["/data"])
    assert done == isolation.Isolated(3, b"out", b"err", None, 0.5)  # the most CPU time seen
    assert run.popen == {
        "command": ["bwrap", "(['/data'], False, False)", "--", sys.executable, "-s", "-c", limits(1_900_000_042),
                    "-c", "pass"],
        "stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE,
        "env": {**CLEAN, "HOME": "/tmp", "JUPYTER_RUNTIME_DIR": "/tmp", "IPYTHONDIR": "/tmp"},
        "cwd": "/", "start_new_session": True,
    }  # fmt: skip
    assert run.written == [b"in", "closed"]
    assert run.worker[0][:2] == (4242, 1_900_000_042) and run.worker[-1] == "killed"


def test_run_isolated_scratch_in_bubblewrap_is_its_user_namespace(
    started: list[Started], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    arrange(monkeypatch, True, True)
    monkeypatch.setattr(isolation.tempfile, "mkdtemp", lambda **k: pytest.fail("no folder of the caller's"))
    started.append(run := Started([(0.0, 1, 0)]))
    assert (
        isolation.run_isolated(["x.py"], scratch=True, memory_limit=5, output_limit=6, max_processes=7).stopped is None
    )
    assert run.popen["command"] == ["bwrap", "([], True, True)", "--", sys.executable, "-s", "-c",
                                    limits(None, 5, 6, 7), "x.py"]  # fmt: skip
    assert run.popen["env"] == {**CLEAN, "HOME": "/tmp", "JUPYTER_RUNTIME_DIR": "/tmp", "IPYTHONDIR": "/tmp"}
    assert run.written == [b"", "closed"] and run.worker[0][1] is None


def test_run_isolated_without_bubblewrap(
    started: list[Started], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    arrange(monkeypatch, None, False)
    made: list[Any] = []

    def mkdtemp(**kwargs: Any) -> str:
        made.append(kwargs)
        folder = tmp_path / "private"
        folder.mkdir()
        (folder / "cache").write_text("x")
        return str(folder)

    monkeypatch.setattr(isolation.tempfile, "mkdtemp", mkdtemp)
    started.append(run := Started([(0.0, 1, 0)], stdin_fails=True))
    done = isolation.run_isolated(["-m", "x"], scratch=True, stdin=b"big")
    private = str(tmp_path / "private")
    assert made == [{"prefix": "duel-isolated-"}] and not (tmp_path / "private").exists()
    assert run.popen["command"] == [sys.executable, "-s", "-c", limits(None), "-m", "x"]
    assert run.popen["env"] == {**CLEAN, "HOME": private, "JUPYTER_RUNTIME_DIR": private, "IPYTHONDIR": private,
                                "TMPDIR": private}  # fmt: skip
    assert run.written == [b"big", "closed"] and done.returncode == 3
    again(started, gone := Started([(0.0, 1, 0)]))
    gone.removes_tmpdir = True
    assert isolation.run_isolated(["-m", "x"], scratch=True).returncode == 3
    started.append(plain := Started([(0.0, 1, 0)]))
    started.pop(0)
    isolation.run_isolated(["-m", "x"])
    assert len(made) == 2 and "TMPDIR" not in plain.popen["env"]
    home = "/nonexistent"
    assert plain.popen["env"] == {**CLEAN, "HOME": home, "JUPYTER_RUNTIME_DIR": home, "IPYTHONDIR": home}


@pytest.mark.parametrize(
    ("usage", "stopped"),
    [
        ((0.0, 8, 0), "started more than 7 processes"),
        ((0.0, 7, 3 * 2**30 + 1), "used more than 3,072 MB of memory"),
        ((1.5001, 7, 3 * 2**30), "used more than 1.5 s of CPU time"),
        ((9.0, 99, 2**40), "started more than 7 processes"),  # the first limit passed is named
        ((9.0, 7, 2**40), "used more than 3,072 MB of memory"),
    ],
)
def test_run_isolated_stops_at_the_first_limit_passed(
    usage: tuple[float, int, int], stopped: str, started: list[Started], monkeypatch: pytest.MonkeyPatch
) -> None:
    arrange(monkeypatch, False, False)
    started.append(run := Started([(1.5, 7, 3 * 2**30), usage], out=b"x", end=False))
    done = isolation.run_isolated(["-c", "pass"], cpu_limit=1.5, memory_limit=3 * 2**30, max_processes=7)
    assert (done.stopped, done.returncode, done.stdout, done.cpu) == (stopped, None, b"x", max(1.5, usage[0]))
    assert run.worker[-1] == "killed" and run.usage == [usage]


def test_run_isolated_stops_at_its_output_limit(started: list[Started], monkeypatch: pytest.MonkeyPatch) -> None:
    arrange(monkeypatch, False, False)
    started.append(Started([(0.0, 1, 0)], out=b"x" * 10, err=b"y", end=False))
    done = isolation.run_isolated(["-c", "pass"], output_limit=10)
    assert (done.stopped, done.returncode) == ("wrote more than 10 bytes", None)
    again(started, Started([(0.0, 1, 0)], out=b"x" * 9, err=b"y"))
    done = isolation.run_isolated(["-c", "pass"], output_limit=10)  # exactly the limit: kept
    assert (done.stopped, done.stdout, done.stderr) == (None, b"x" * 9, b"y")
    again(started, Started([(0.0, 1, 0)], out=b"z" * 1_001, end=False))
    assert isolation.run_isolated(["-c", "pass"], output_limit=1_000).stopped == "wrote more than 1,000 bytes"


def test_run_isolated_stops_at_its_wall_limit(started: list[Started], monkeypatch: pytest.MonkeyPatch) -> None:
    arrange(monkeypatch, False, False)
    clock = iter([100.0, 102.25, 102.2501])
    monkeypatch.setattr(isolation.time, "monotonic", lambda: next(clock))
    started.append(Started([(0.0, 1, 0)], end=False))
    done = isolation.run_isolated(["-c", "pass"], wall_limit=2.25)
    assert (done.stopped, done.returncode) == ("did not finish within 2.25 s", None)


def test_run_isolated_lets_a_command_run_exactly_its_wall_limit(
    started: list[Started], monkeypatch: pytest.MonkeyPatch
) -> None:
    arrange(monkeypatch, False, False)
    times = [100.0]
    monkeypatch.setattr(isolation.time, "monotonic", lambda: times.pop(0) if len(times) > 1 else times[0])
    times.append(102.25)  # from the first check on: exactly the limit
    started.append(Started([(0.0, 1, 0)], out=b"done"))
    done = isolation.run_isolated(["-c", "pass"], wall_limit=2.25)
    assert (done.stopped, done.returncode, done.stdout) == (None, 3, b"done")


def test_run_isolated_refuses_bad_limits_before_starting(started: list[Started]) -> None:
    with pytest.raises(DuelError, match=r"^The CPU limit must be"):
        isolation.run_isolated(["-c", "pass"], cpu_limit=0)
    with pytest.raises(DuelError, match=r"^The wall-clock limit must be"):
        isolation.run_isolated(["-c", "pass"], wall_limit=86_401)
    assert started == []


def test_run_isolated_default_time_limits(started: list[Started], monkeypatch: pytest.MonkeyPatch) -> None:
    """60 s of CPU time and 300 s on the clock (the memory, output and process limits are in the command)."""
    arrange(monkeypatch, False, False)
    started.append(Started([(60.0, 1, 2 * 2**30), (60.0001, 1, 0)], end=False))
    assert isolation.run_isolated(["-c", "pass"]).stopped == "used more than 60 s of CPU time"
    again(started, Started([(0.0, 1, 2 * 2**30 + 1)], end=False))
    assert isolation.run_isolated(["-c", "pass"]).stopped == "used more than 2,048 MB of memory"
    clock = iter([0.0, 300.0, 300.0001])
    monkeypatch.setattr(isolation.time, "monotonic", lambda: next(clock))
    again(started, Started([(0.0, 64, 0)], end=False))
    assert isolation.run_isolated(["-c", "pass"]).stopped == "did not finish within 300 s"
