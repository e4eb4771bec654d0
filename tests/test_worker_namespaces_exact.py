"""The decisions of :mod:`duel_lessons.play.worker_namespaces`, pinned exactly and fast, without entering a namespace.

A fake C library records every ``unshare``, ``mount``, ``prctl``, ``capset`` and system call (with Linux's numbers
written out by hand) and fails where a test says; the new root is built in a temporary folder instead of over
``/tmp``.  Only :func:`_wait_and_end_alike` runs for real, in a forked child.  The real namespaces and root are
judged in tests/test_sandbox_setups.py.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import re
import signal
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import duel_lessons.play.isolation as isolation
import duel_lessons.play.worker_namespaces as ns

NEW_NS, NEW_USER, NEW_NET = 0x20000, 0x10000000, 0x40000000
NEW_IPC, NEW_PID, NEW_UTS = 0x08000000, 0x20000000, 0x4000000
MORE = NEW_NET | NEW_IPC | NEW_PID | NEW_UTS
SETATTR = 442  # mount_setattr(2)
RDONLY_NOSUID = [1 | 2, 0, 0, 0]  # struct mount_attr: attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID


class Libc:
    """Records each call (a descriptor under /proc/self/fd as the path it names) and returns 0, or -1 where told:
    ``fail`` maps a call's name to the numbers (from 0) of its calls that fail; ``errno_`` is set on a failure."""

    def __init__(self, fail: dict[str, set[int]] | None = None, errno_: int = errno.EPERM) -> None:
        self.calls: list[tuple[Any, ...]] = []
        self.fail, self.errno_ = fail or {}, errno_
        self.counts: dict[str, int] = {}

    def _result(self, name: str, call: tuple[Any, ...]) -> int:
        self.calls.append(call)
        count = self.counts.get(name, 0)
        self.counts[name] = count + 1
        if count in self.fail.get(name, set()):
            ctypes.set_errno(self.errno_)
            return -1
        return 0

    def unshare(self, flags: int) -> int:
        return self._result("unshare", ("unshare", flags))

    def mount(self, source: bytes | None, target: bytes, fstype: bytes | None, flags: int, data: bytes | None) -> int:
        if source is not None and source.startswith(b"/proc/self/fd/"):  # opened O_PATH | O_CLOEXEC
            fd = int(source.rsplit(b"/", 1)[1])
            path_only = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_PATH and fcntl.fcntl(fd, fcntl.F_GETFD) & fcntl.FD_CLOEXEC
            source = (b"fd:" if path_only else b"fd, not O_PATH | O_CLOEXEC:") + os.fsencode(os.readlink(source))
        return self._result("mount", ("mount", source, target, fstype, flags, data))

    def umount2(self, target: bytes, flags: int) -> int:
        return self._result("umount2", ("umount2", target, flags))

    def syscall(self, number: int, *args: Any) -> int:
        if number == SETATTR:
            attr = list(args[3]._obj)
            return self._result("setattr", ("setattr", args[0], args[1], args[2], attr, args[4]))
        return self._result("syscall", ("syscall", number, *args))

    def prctl(self, *args: int) -> int:
        return self._result("prctl", ("prctl", *args))

    def capset(self, header: Any, data: Any) -> int:
        return self._result("capset", ("capset", list(header), list(data)))


def test_the_c_library_keeps_errno() -> None:
    libc = ns._libc()
    ctypes.set_errno(0)
    assert libc.syscall(100_000) == -1 and ctypes.get_errno() == errno.ENOSYS


# -- a user namespace ----------------------------------------------------------------------------


def test_a_user_namespace_maps_the_same_ids(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ns, "PROC_SELF", str(tmp_path))
    libc = Libc()
    assert ns._user_namespace(libc, 1000, 1001, 7) is True
    assert libc.calls == [("unshare", NEW_USER | NEW_NS | 7)]
    written = {p.name: p.read_text() for p in tmp_path.iterdir()}
    assert written == {"setgroups": "deny", "uid_map": "1000 1000 1", "gid_map": "1001 1001 1"}
    libc = Libc()
    assert ns._user_namespace(libc, 5, 6) is True
    assert libc.calls == [("unshare", NEW_USER | NEW_NS)]


def test_a_user_namespace_that_cannot_be_made_or_mapped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ns, "PROC_SELF", str(tmp_path))
    libc = Libc({"unshare": {0}})
    assert ns._user_namespace(libc, 1000, 1000) is False and list(tmp_path.iterdir()) == []
    (tmp_path / "gid_map").mkdir()  # the last map cannot be written: setgroups and uid_map were, first
    assert ns._user_namespace(Libc(), 1000, 1000) is False
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gid_map", "setgroups", "uid_map"]


# -- waiting for the child, and ending alike -----------------------------------------------------


def ended(child: str, signals: bool, ignore_term: bool = False) -> tuple[str, int]:
    """How a forked process that waits for a grandchild (which runs ``child``) with _wait_and_end_alike ends."""
    pid = os.fork()
    if pid == 0:
        try:
            if ignore_term:
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
            grandchild = os.fork()
            if grandchild == 0:
                kind, _, value = child.partition(" ")
                if kind == "exit":
                    os._exit(int(value))
                signal.signal(int(value), signal.SIG_DFL)
                os.kill(os.getpid(), int(value))
                os._exit(99)
            ns._wait_and_end_alike(grandchild, signals)
        finally:
            os._exit(98)  # (only a mutant returns)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return "signal", os.WTERMSIG(status)
    return "exit", os.WEXITSTATUS(status)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
@pytest.mark.parametrize(
    ("child", "signals", "end"),
    [
        ("exit 3", False, ("exit", 3)),
        ("exit 3", True, ("exit", 3)),
        ("exit 0", True, ("exit", 0)),
        ("exit 128", True, ("exit", 128)),
        ("exit 137", True, ("signal", 9)),  # a pid namespace's first process ended by SIGKILL: 128 + 9
        ("exit 137", False, ("exit", 137)),
        ("exit 129", True, ("signal", 1)),
        ("signal 15", True, ("signal", 15)),
        ("signal 15", False, ("exit", 143)),
        ("signal 10", False, ("exit", 138)),
    ],
)
def test_the_waiting_parent_ends_as_its_child_ended(child: str, signals: bool, end: tuple[str, int]) -> None:
    assert ended(child, signals) == end


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_signal_the_waiting_parent_ignored_still_ends_it() -> None:
    assert ended("signal 15", True, ignore_term=True) == ("signal", 15)


def test_fork_waiting_returns_in_the_child_only(monkeypatch: pytest.MonkeyPatch) -> None:
    libc = Libc()
    monkeypatch.setattr(os, "fork", lambda: 0)
    assert ns._fork_waiting(libc, signals=True) is None
    assert libc.calls == [("prctl", 1, 9), ("prctl", 1, 9)]  # PR_SET_PDEATHSIG SIGKILL, before and after

    class Waited(Exception):
        pass

    def wait(pid: int, signals: bool) -> None:
        libc.calls.append(("wait", pid, signals))
        raise Waited

    libc = Libc()
    monkeypatch.setattr(os, "fork", lambda: 4321)
    monkeypatch.setattr(ns, "_wait_and_end_alike", wait)
    with pytest.raises(Waited):
        ns._fork_waiting(libc, signals=False)
    assert libc.calls == [("prctl", 1, 9), ("prctl", 4, 0), ("wait", 4321, False)]  # PR_SET_DUMPABLE 0


# -- the plan of the new root --------------------------------------------------------------------


def test_the_root_plan_is_the_system_paths_and_the_python_folders(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(isolation, "system_paths", lambda: [("/usr", None), ("/lib", "usr/lib"), ("/etc/x", None)])
    monkeypatch.setattr(isolation, "python_dirs", lambda: ["/usr", "/opt/py", "/lib"])
    assert ns.root_plan() == [("/etc/x", None), ("/lib", "usr/lib"), ("/opt/py", None), ("/usr", None)]


def test_the_mount_points_under_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ns, "PROC_SELF", str(tmp_path))
    table = tmp_path / "mounts"  # as /proc/self/mounts
    table.write_bytes(
        b"proc /proc proc rw 0 0\nx /a tmpfs rw 0 0\nx /a/b tmpfs rw 0 0\nx /a\\040b tmpfs rw 0 0\n"
        b"x /a/c\\040d tmpfs rw 0 0\nx /ab tmpfs rw 0 0\nshort\n\nx /a tmpfs rw 0 0\nx /a/b/e tmpfs rw 0 0\n"
        b"x /a/two\nx /a/\xff tmpfs rw 0 0\n"  # two fields are enough; a name not in UTF-8 is read all the same
    )
    assert ns._mount_points_under("/a") == ["/a", "/a/b", "/a/c d", "/a/b/e", "/a/two", "/a/\ufffd"]
    assert ns._mount_points_under("/z") == ["/z"]


@pytest.mark.parametrize(
    ("path", "folders", "inside"),
    [
        ("/a", ["/a"], True),
        ("/a/b", ["/a/"], True),
        ("/b/c", ["/a", "/b"], True),
        ("/boX/c", ["/boX"], True),  # only slashes are stripped
        ("/ab", ["/a"], False),
        ("/a", [], False),
        ("/", ["/b"], False),
    ],
)
def test_within(path: str, folders: list[str], inside: bool) -> None:
    assert ns._within(path, folders) is inside


# -- read-only mounts ----------------------------------------------------------------------------


def test_read_only_by_mount_setattr() -> None:
    libc = Libc()
    assert ns._read_only(libc, "/p", recursive=True) is True
    assert libc.calls == [("setattr", -100, b"/p", 0x8000, RDONLY_NOSUID, 32)]
    libc = Libc()
    assert ns._read_only(libc, "/q", recursive=False) is True
    assert libc.calls == [("setattr", -100, b"/q", 0, RDONLY_NOSUID, 32)]
    libc = Libc({"setattr": {0}}, errno.EPERM)  # refused: no remount tried
    assert ns._read_only(libc, "/q", recursive=False) is False and len(libc.calls) == 1


REMOUNT = 32 | 4096 | 1 | 2  # MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID


def test_read_only_by_remounting_where_mount_setattr_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    flags = {"/p": 4 | 8 | 1024 | 2048 | 4096 | 1, "/p/a": 0, "/p/b": 4 | 16}  # statvfs: nodev noexec noatime...
    monkeypatch.setattr(os, "statvfs", lambda path: SimpleNamespace(f_flag=flags[path]))
    monkeypatch.setattr(ns, "_mount_points_under", lambda path: [path, f"{path}/a", f"{path}/b"])
    libc = Libc({"setattr": {0}}, errno.ENOSYS)
    assert ns._read_only(libc, "/p", recursive=True) is True
    assert libc.calls[1:] == [
        ("mount", None, b"/p", None, REMOUNT | 4 | 8 | 1024 | 2048 | (1 << 21), None),
        ("mount", None, b"/p/a", None, REMOUNT, None),
        ("mount", None, b"/p/b", None, REMOUNT | 4, None),
    ]
    libc = Libc({"setattr": {0}}, errno.ENOSYS)
    assert ns._read_only(libc, "/p/b", recursive=False) is True
    assert libc.calls[1:] == [("mount", None, b"/p/b", None, REMOUNT | 4, None)]
    libc = Libc({"setattr": {0}, "mount": {1}}, errno.ENOSYS)  # the second remount fails: the third is not tried
    assert ns._read_only(libc, "/p", recursive=True) is False and len(libc.calls) == 3


# -- capabilities --------------------------------------------------------------------------------


def test_dropping_every_capability() -> None:
    libc = Libc()
    assert ns._drop_capabilities(libc) is True
    assert libc.calls == [
        *(("prctl", 24, c, 0, 0, 0) for c in range(64)),  # PR_CAPBSET_DROP, every one
        ("prctl", 38, 1, 0, 0, 0),  # PR_SET_NO_NEW_PRIVS
        ("capset", [0x20080522, 0], [0] * 6),  # version 3, this process: nothing effective, permitted, inheritable
    ]
    assert ns._drop_capabilities(Libc({"capset": {0}})) is False


# -- the new root --------------------------------------------------------------------------------

PLAN = [
    *(("/bin", "usr/bin"), ("/etc/group", None), ("/etc/passwd", None), ("/usr", None), ("/usr/lib", None)),
    ("/zz", "usr/zz"),  # after one skipped: still made
]
DEVICES = [d for d in ("null", "zero", "full", "random", "urandom") if os.path.exists(f"/dev/{d}")]


def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, libc: Libc, name: str = "root") -> tuple[bool, Path]:
    """_new_root over a fresh folder of tmp_path, with /usr/share made there first (a bot folder in a bound one)."""
    root = tmp_path / name
    (root / "usr" / "share").mkdir(parents=True)
    monkeypatch.setattr(os, "chdir", lambda path: libc.calls.append(("chdir", path)))
    monkeypatch.setattr(ns.platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(ns, "NEW_ROOT", str(root))
    done = ns._new_root(libc, PLAN, ["/usr/share", "/gone"])
    return done, root


def expected_calls(root: Path) -> list[tuple[Any, ...]]:
    r = str(root).encode()
    nosuid_nodev = 2 | 4
    scratch = b"mode=1777,size=32m,nr_inodes=4096"
    return [
        ("mount", b"tmpfs", r, b"tmpfs", nosuid_nodev, b"mode=0755,size=1m,nr_inodes=4096"),
        ("mount", b"tmpfs", r + b"/tmp", b"tmpfs", nosuid_nodev, scratch),
        ("mount", b"tmpfs", r + b"/dev/shm", b"tmpfs", nosuid_nodev, scratch),
        ("mount", b"fd:/etc/group", r + b"/etc/group", None, 4096 | 0x4000, None),  # MS_BIND | MS_REC
        ("setattr", -100, r + b"/etc/group", 0x8000, RDONLY_NOSUID, 32),
        ("mount", b"fd:/etc/passwd", r + b"/etc/passwd", None, 4096 | 0x4000, None),
        ("setattr", -100, r + b"/etc/passwd", 0x8000, RDONLY_NOSUID, 32),
        ("mount", b"fd:/usr", r + b"/usr", None, 4096 | 0x4000, None),
        ("setattr", -100, r + b"/usr", 0x8000, RDONLY_NOSUID, 32),
        *(("mount", f"/dev/{d}".encode(), r + f"/dev/{d}".encode(), None, 4096, None) for d in DEVICES),
        ("mount", b"proc", r + b"/proc", b"proc", nosuid_nodev | 8, None),  # and MS_NOEXEC
        ("mount", b"tmpfs", r + b"/usr/share", b"tmpfs", nosuid_nodev | 8 | 1, b"mode=0555"),  # read-only
        ("chdir", str(root)),
        ("syscall", 155, b".", b"."),  # pivot_root on x86_64
        ("umount2", b".", 2),  # MNT_DETACH
        ("chdir", "/"),
        ("setattr", -100, b"/", 0, RDONLY_NOSUID, 32),
    ]


def open_fds() -> list[str]:
    return sorted(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="descriptors of /proc/self/fd")
def test_the_new_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    libc = Libc()
    before, mask = open_fds(), os.umask(0o077)
    try:
        done, root = built(tmp_path, monkeypatch, libc)
        assert os.umask(0o077) == 0o077  # put back
    finally:
        os.umask(mask)
    assert done is True and libc.calls == expected_calls(root)
    assert open_fds() == before  # every descriptor opened is closed
    assert os.readlink(root / "zz") == "usr/zz"
    assert os.readlink(root / "bin") == "usr/bin" and (root / "etc" / "passwd").read_text() == ""
    assert {p.name for p in (root / "dev").iterdir()} == {*DEVICES, "shm", "fd", "stdin", "stdout", "stderr"}
    links = {name: os.readlink(root / "dev" / name) for name in ("fd", "stdin", "stdout", "stderr")}
    assert links == {"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1",
                     "stderr": "/proc/self/fd/2"}  # fmt: skip
    for made in ("tmp", "dev", "dev/shm", "etc", "proc"):  # made traversable (umask 022), whatever the caller's
        assert (root / made).stat().st_mode & 0o777 == 0o755, made
    assert [p.name for p in (root / "usr").iterdir()] == ["share"]  # /usr/lib: inside the bound /usr, not made


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="descriptors of /proc/self/fd")
def test_the_new_root_stops_at_the_first_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    full = expected_calls(tmp_path / "root")
    before = open_fds()
    for kind in ("mount", "setattr", "syscall", "umount2"):
        calls = [c for c in full if c[0] == kind]
        for number in range(len(calls)):
            libc = Libc({kind: {number}})
            name = f"{kind}-{number}"
            done, _ = built(tmp_path, monkeypatch, libc, name)
            assert done is False, name
            last = [c for c in libc.calls if c[0] == kind][-1]
            assert libc.calls[-1] == last, name  # nothing after the failed call
            if kind != "umount2":
                assert re.sub(r"^.*?/" + re.escape(name), "", repr(last)) == re.sub(
                    r"^.*?/root", "", repr(calls[number])
                ), name
    assert open_fds() == before


def test_no_new_root_without_pivot_root_or_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    libc = Libc()
    monkeypatch.setattr(ns.platform, "machine", lambda: "vax")
    monkeypatch.setattr(ns, "NEW_ROOT", str(tmp_path))
    assert ns._new_root(libc, PLAN, []) is False
    monkeypatch.setattr(ns.platform, "machine", lambda: "aarch64")
    monkeypatch.setattr(ns, "NEW_ROOT", str(tmp_path / "missing"))
    assert ns._new_root(libc, PLAN, []) is False
    assert libc.calls == []
    assert ns.SYS_PIVOT_ROOT["aarch64"] == 41 and ns.SYS_PIVOT_ROOT["x86_64"] == 155


def test_the_new_root_is_built_over_tmp_and_proc_is_this_process() -> None:
    assert (ns.NEW_ROOT, ns.PROC_SELF) == ("/tmp", "/proc/self")


# -- own_namespaces: the order of it all ---------------------------------------------------------


def arranged(monkeypatch: pytest.MonkeyPatch, uid: int, libc: Libc, new_root: bool = True,
             user_ns: tuple[bool, ...] = (True, True), caps: bool = True) -> list[tuple[Any, ...]]:  # fmt: skip
    log = libc.calls
    answers = list(user_ns)
    monkeypatch.setattr(ns, "_libc", lambda: libc)
    monkeypatch.setattr(os, "getuid", lambda: uid)
    monkeypatch.setattr(os, "getgid", lambda: uid + 1)
    monkeypatch.setattr(ns, "root_plan", lambda: [("/plan", None)])
    monkeypatch.setattr(ns, "_fork_waiting", lambda lib, signals: log.append(("fork", lib is libc, signals)))
    monkeypatch.setattr(
        ns, "_new_root", lambda lib, plan, folders: log.append(("root", lib is libc, plan, folders)) or new_root
    )
    monkeypatch.setattr(
        ns, "_user_namespace", lambda lib, u, g, more=0: log.append(("user", lib is libc, u, g, more)) or answers.pop(0)
    )
    monkeypatch.setattr(ns, "_drop_capabilities", lambda lib: log.append(("drop", lib is libc)) or caps)
    return log


PRIVATE = ("mount", b"none", b"/", None, 0x4000 | (1 << 18), None)  # MS_REC | MS_PRIVATE
TAIL = [("fork", True, True), ("root", True, [("/plan", None)], ["/bots"])]


def test_own_namespaces_as_root(monkeypatch: pytest.MonkeyPatch) -> None:
    log = arranged(monkeypatch, 0, Libc())
    assert ns.own_namespaces(["/bots"]) is True
    assert log == [("unshare", NEW_NS | MORE), PRIVATE, *TAIL, ("fork", True, False)]


def test_own_namespaces_as_root_where_the_kernel_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    log = arranged(monkeypatch, 0, Libc({"unshare": {0}}))
    assert ns.own_namespaces(["/bots"]) is False
    assert log == [("unshare", NEW_NS | MORE)]  # root maps itself into no user namespace


def test_own_namespaces_as_a_user(monkeypatch: pytest.MonkeyPatch) -> None:
    log = arranged(monkeypatch, 1000, Libc({"unshare": {0}}))
    assert ns.own_namespaces(["/bots"]) is True
    assert log == [
        ("unshare", NEW_NS | MORE),
        ("user", True, 1000, 1001, MORE),
        PRIVATE,
        *TAIL,
        ("user", True, 1000, 1001, 0),  # a second one: the mounts are locked
        ("drop", True),
        ("fork", True, False),
    ]


@pytest.mark.parametrize(
    ("user_ns", "caps", "new_root", "tail"),
    [
        ((True, False), True, True, [("user", True, 1000, 1001, 0)]),
        ((True, True), False, True, [("user", True, 1000, 1001, 0), ("drop", True)]),
        ((True, True), True, False, [("user", True, 1000, 1001, 0), ("drop", True)]),
    ],
)
def test_own_namespaces_as_a_user_fails_if_any_step_does(
    user_ns: tuple[bool, ...], caps: bool, new_root: bool, tail: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = arranged(monkeypatch, 1000, Libc({"unshare": {0}}), new_root, user_ns, caps)
    assert ns.own_namespaces(["/bots"]) is False
    assert log == [("unshare", NEW_NS | MORE), ("user", True, 1000, 1001, MORE), PRIVATE, *TAIL, *tail,
                   ("fork", True, False)]  # fmt: skip


def test_own_namespaces_where_nothing_can_be_made(monkeypatch: pytest.MonkeyPatch) -> None:
    log = arranged(monkeypatch, 1000, Libc({"unshare": {0}}), user_ns=(False,))
    assert ns.own_namespaces([]) is False and log == [("unshare", NEW_NS | MORE), ("user", True, 1000, 1001, MORE)]
    log = arranged(monkeypatch, 0, Libc({"mount": {0}}))
    assert ns.own_namespaces([]) is False and log == [("unshare", NEW_NS | MORE), PRIVATE]
    log = arranged(monkeypatch, 0, Libc(), new_root=False)
    assert ns.own_namespaces(["/bots"]) is False and log == [("unshare", NEW_NS | MORE), PRIVATE, *TAIL,
                                                             ("fork", True, False)]  # fmt: skip


@pytest.mark.parametrize("error", [OSError, AttributeError, ImportError])
def test_own_namespaces_says_no_on_an_error(error: type[Exception], monkeypatch: pytest.MonkeyPatch) -> None:
    arranged(monkeypatch, 0, Libc())

    def fails(*args: Any) -> bool:
        raise error("no")

    monkeypatch.setattr(ns, "_new_root", fails)
    assert ns.own_namespaces([]) is False


def test_own_namespaces_only_on_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    log = arranged(monkeypatch, 0, Libc())
    monkeypatch.setattr(sys, "platform", "darwin")
    assert ns.own_namespaces([]) is False and log == []
