"""The operating system's side of the sandbox: limits of run_isolated, the CPU time of a process tree, the
bubblewrap command line, the workers' users and environment.  Each expected value is written out by hand."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import psutil
import pytest

import duel_lessons.play.isolation as isolation
from duel_lessons.engine.errors import DuelError
from duel_lessons.play.isolation import (
    UID_BASE,
    Worker,
    bwrap_command,
    check_time_limit,
    printable,
    run_isolated,
    sweep_user,
    worker_environment,
)

POSIX = hasattr(os, "fork")


@pytest.mark.parametrize("good", [86_400, 1e-9, 0.25, 3])
def test_a_time_limit_up_to_a_day_is_kept(good: float) -> None:
    assert check_time_limit(good) == good


@pytest.mark.parametrize("bad", [86_400.5, 10**400, 0.0, -0.5])
def test_a_time_limit_over_a_day_or_not_above_zero_is_refused(bad: float) -> None:
    with pytest.raises(DuelError, match="The CPU limit must be"):
        check_time_limit(bad, "The CPU limit")


def test_printable_escapes_control_characters_but_keeps_newlines_and_letters() -> None:
    assert printable("a\tb\nc\x1b[2Jé\x00") == "a\\tb\nc\\x1b[2Jé\\x00"


def test_the_worker_environment_is_clean() -> None:
    os.environ["DUEL_TEACHER_SECRET"] = "x"
    try:
        env = worker_environment(["/extra"])
    finally:
        del os.environ["DUEL_TEACHER_SECRET"]
    assert "DUEL_TEACHER_SECRET" not in env
    assert env["HOME"] == "/tmp" and env["PATH"] == "/usr/bin:/bin" and env["PYTHONNOUSERSITE"] == "1"
    assert env["PYTHONPATH"].split(os.pathsep) == [str(isolation.PACKAGE.parent), "/extra"]


def test_the_bubblewrap_command_line() -> None:
    plain = bwrap_command()
    assert plain[0] == "bwrap" and plain[-3:] == ["--chdir", "/tmp", "--"]
    for flag in (
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-net",
        "--unshare-uts",
        "--die-with-parent",
        "--new-session",
    ):
        assert flag in plain
    assert "--unshare-user" not in plain and "--cap-drop" not in plain and "01777" not in plain
    assert "--unshare-user" in bwrap_command(user_namespace=True)
    scratch = bwrap_command(scratch=True)
    assert "--unshare-user" in scratch
    at = scratch.index("--uid")
    assert scratch[at : at + 6] == ["--uid", "65534", "--gid", "65534", "--cap-drop", "ALL"]
    tmpfs = scratch.index("--tmpfs")
    assert scratch[tmpfs - 2 : tmpfs + 2] == ["--perms", "01777", "--tmpfs", "/tmp"]
    folder = str(isolation.PACKAGE)
    bound = [plain[i + 1] for i, arg in enumerate(plain) if arg == "--ro-bind"]
    assert folder in bound and "/extra/folder" in [
        c[i + 1] for c in [bwrap_command(["/extra/folder"])] for i, arg in enumerate(c) if arg == "--ro-bind"
    ]


def test_a_folder_under_tmp_is_bound_into_the_private_tmp_not_hidden_by_it() -> None:
    """A venv made under /tmp (CI's lowest-versions run, a teacher's throwaway venv) stays visible."""
    command = bwrap_command(["/tmp/venv-under-tmp"])
    tmpfs = command.index("--tmpfs")
    binds = [i for i, arg in enumerate(command) if arg == "--ro-bind" and command[i + 1] == "/tmp/venv-under-tmp"]
    assert len(binds) == 1 and tmpfs < binds[0]


def test_sweep_user_never_touches_an_ordinary_user(monkeypatch: pytest.MonkeyPatch) -> None:
    looked: list[object] = []
    monkeypatch.setattr(isolation.psutil, "process_iter", lambda *a, **k: looked.append(a) or [])
    sweep_user(UID_BASE - 1)
    assert looked == []
    sweep_user(UID_BASE, keep=(1,))
    assert len(looked) == 1


@pytest.mark.skipif(not (POSIX and hasattr(os, "geteuid") and os.geteuid() == 0), reason="user ids of workers: root")
def test_worker_user_ids_are_above_every_real_user() -> None:
    ids = [isolation.next_uid() for _ in range(3)]
    assert all(isinstance(i, int) and UID_BASE <= i < UID_BASE + 10_000_000 for i in ids)
    assert len(set(ids)) == 3


@pytest.mark.skipif(not POSIX, reason="a process tree with fork")
def test_the_cpu_time_of_a_tree_counts_a_live_child() -> None:
    """A shell waiting for its child, which loops: the shell uses almost no CPU, the tree's time is the child's."""
    popen = subprocess.Popen(
        ["/bin/sh", "-c", f"{sys.executable} -c 'while True: pass'; sleep 60"], start_new_session=True
    )
    worker = Worker(popen.pid, None, popen)
    try:
        deadline = time.monotonic() + 120  # a safety net only: judged by CPU seconds
        while (worker.cpu() or 0.0) < 0.6 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (worker.cpu() or 0.0) >= 0.6
        assert len(worker.tree()) == 2 and worker.exit_code() is None  # the shell and its child, still running
    finally:
        worker.kill()
    assert not psutil.pid_exists(popen.pid) or psutil.Process(popen.pid).status() == psutil.STATUS_ZOMBIE
    assert worker.cpu() is None  # gone: nothing to read


def test_run_isolated_gives_the_output_and_exit_code() -> None:
    done = run_isolated(["-c", "import sys; sys.stdout.write(sys.stdin.read()[::-1]); sys.exit(3)"], stdin=b"abc")
    assert (done.returncode, done.stdout, done.stopped) == (3, b"cba", None)


def test_run_isolated_stops_a_loop_at_its_cpu_limit() -> None:
    done = run_isolated(["-c", "while True: pass"], cpu_limit=0.3, wall_limit=600)
    assert done.stopped == "used more than 0.3 s of CPU time" and done.returncode is None
    assert 0.3 < done.cpu <= 0.3 + isolation.CPU_MARGIN


def test_run_isolated_stops_a_sleeper_at_its_wall_limit() -> None:
    done = run_isolated(["-c", "import time; time.sleep(600)"], wall_limit=0.5)
    assert done.stopped == "did not finish within 0.5 s" and done.returncode is None


def test_run_isolated_stops_a_flood_at_its_output_limit() -> None:
    done = run_isolated(
        ["-c", "import os\nwhile True: os.write(1, b'x' * 65536)"], output_limit=200_000, wall_limit=600
    )
    assert done.stopped == "wrote more than 200,000 bytes" and len(done.stdout) > 200_000


def test_run_isolated_refuses_a_bad_limit() -> None:
    with pytest.raises(DuelError, match="The wall-clock limit must be"):
        run_isolated(["-c", "pass"], wall_limit=0)
    with pytest.raises(DuelError, match="The CPU limit must be"):
        run_isolated(["-c", "pass"], cpu_limit=float("nan"))


def test_run_isolated_survives_a_command_that_ends_without_reading_its_input() -> None:
    """The input is more than a pipe holds: writing it fails when the command ends, and that is no error."""
    done = run_isolated(["-c", "import sys; print('bye'); sys.exit(4)"], stdin=b"x" * 2**22, wall_limit=600)
    assert (done.returncode, done.stdout, done.stopped) == (4, b"bye\n", None)


def test_run_isolated_gives_empty_input_unless_told() -> None:
    done = run_isolated(["-c", "import sys; print(repr(sys.stdin.read()))"])
    assert (done.returncode, done.stdout) == (0, b"''\n")


ROOT = POSIX and hasattr(os, "geteuid") and os.geteuid() == 0
WRITES_TMP = "import os\nopen('/tmp/x', 'w').write('x')\nprint(os.getuid(), os.getgid(), os.environ['HOME'])"


@pytest.mark.skipif(not (ROOT and isolation.can_change_user()), reason="a user of its own needs a root caller")
def test_under_root_a_command_runs_as_a_user_of_its_own() -> None:
    done = run_isolated(["-c", "import os; print(os.getuid(), os.getgid())"])
    uid, gid = map(int, done.stdout.split())
    assert uid >= UID_BASE and gid == uid


@pytest.mark.skipif(not POSIX or isolation.bubblewrap()[0] is None, reason="scratch space inside bubblewrap")
def test_scratch_is_a_writable_tmp_for_an_unprivileged_user_and_only_with_scratch() -> None:
    done = run_isolated(["-c", WRITES_TMP], scratch=True)
    assert (done.returncode, done.stdout) == (0, b"65534 65534 /tmp\n")
    if ROOT and isolation.can_change_user():  # without scratch: its own user, who may not write bubblewrap's /tmp
        plain = run_isolated(["-c", WRITES_TMP])
        assert plain.returncode == 1 and b"PermissionError" in plain.stderr


SHOWS_FOLDERS = (
    "import os\nd = os.environ.get('TMPDIR', '-')\n"
    "if d != '-':\n    open(os.path.join(d, 'x'), 'w').write('x')\n"
    "e = os.environ\nprint(d, e['HOME'], e['JUPYTER_RUNTIME_DIR'], e['IPYTHONDIR'], os.getcwd(),\n"
    "      os.getsid(0) == os.getpid(), 'DUEL_TEACHER_SECRET' in e)"
)


@pytest.mark.skipif(not POSIX, reason="resource limits and the scratch folder: POSIX")
def test_without_bubblewrap_scratch_is_a_fresh_folder_removed_afterwards(monkeypatch: pytest.MonkeyPatch) -> None:
    """And the command gets a clean environment, the folder / and a session of its own."""
    from pathlib import Path

    monkeypatch.setattr(isolation, "bubblewrap", lambda: (None, "bubblewrap is not installed"))
    monkeypatch.setenv("DUEL_TEACHER_SECRET", "x")
    done = run_isolated(["-c", SHOWS_FOLDERS], scratch=True)
    folder, home, runtime, ipython, *rest = done.stdout.decode().split()
    assert done.returncode == 0 and folder == home == runtime == ipython
    assert Path(folder).name.startswith("duel-isolated-") and rest == ["/", "True", "False"]
    assert not Path(folder).exists()
    # (as the caller's user: a user of its own could not reach a Python installed under /root without bubblewrap)
    monkeypatch.setattr(isolation, "can_change_user", lambda: False)
    plain = run_isolated(["-c", SHOWS_FOLDERS])
    assert plain.stdout == b"- /nonexistent /nonexistent /nonexistent / True False\n"  # no scratch, no home


def test_run_isolated_allows_exactly_its_output_limit() -> None:
    done = run_isolated(
        ["-c", "import os\nos.write(1, b'x' * 100_000)\nos.write(2, b'y' * 100_000)"], output_limit=200_000
    )
    assert (done.stopped, done.returncode, len(done.stdout), len(done.stderr)) == (None, 0, 100_000, 100_000)


FORKS = """
import os, time
made = 0
for _ in range(150):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(3)  # alive long enough for the referee to count them
        os._exit(0)
    made += 1
print(made)
"""
#: The same, with the children and the parent alive for a minute: the tree stays large for as long as the
#: referee's watch may take to see it, however loaded the machine (the parent would otherwise end at once).
LASTING_FORKS = FORKS.replace("time.sleep(3)", "time.sleep(60)") + "time.sleep(60)\n"


@pytest.mark.skipif(not POSIX, reason="fork")
@pytest.mark.parametrize("wrapped", [True, False])
def test_a_command_cannot_start_more_processes_than_its_limit(wrapped: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """150 children (issue 28): the kernel refuses the 21st (RLIMIT_NPROC, where it counts) or the tree is stopped;
    with neither limit the command would print 150."""
    if not wrapped:
        monkeypatch.setattr(isolation, "bubblewrap", lambda: (None, "bubblewrap is not installed"))
    done = run_isolated(["-c", LASTING_FORKS], scratch=True, max_processes=20, wall_limit=600)
    if done.stopped is None:
        assert int(done.stdout) < 20
    else:
        assert done.stopped == "started more than 20 processes"


TREE_MEMORY = """
import os, time
children = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        block = b"x" * (100 * 2**20)  # written, so resident
        time.sleep(5)
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
print("all four kept 100 MB")
"""


@pytest.mark.skipif(not POSIX, reason="fork and resource limits")
def test_the_memory_limit_holds_for_the_whole_tree() -> None:
    """Four children of 100 MB each: within a 256 MB limit per process, over it together."""
    done = run_isolated(["-c", TREE_MEMORY], scratch=True, memory_limit=256 * 2**20, wall_limit=600)
    assert done.stopped == "used more than 256 MB of memory" and done.stdout == b""


@pytest.mark.skipif(not POSIX, reason="resource limits")
def test_the_memory_limit_holds_for_each_process() -> None:
    """300 MB asked for at once, never written (so never resident): only the address-space limit refuses it."""
    done = run_isolated(
        ["-c", "block = bytearray(300 * 2**20)\nprint('allocated')"], scratch=True, memory_limit=200 * 2**20
    )
    assert (done.stopped, done.returncode, done.stdout) == (None, 1, b"")
    assert done.stderr.rstrip().endswith(b"MemoryError")


@pytest.mark.skipif(
    not (ROOT and isolation.can_change_user() and isolation.bubblewrap()[0] is not None),
    reason="a user id of its own (root caller) that can start Python (bubblewrap binds it)",
)
def test_with_a_user_id_of_its_own_the_kernel_refuses_the_process_past_the_limit() -> None:
    """RLIMIT_NPROC counts that user's processes: the command and 19 children make 20, the 20th fork fails."""
    done = run_isolated(["-c", FORKS], max_processes=20, wall_limit=600)
    assert (done.stopped, done.stdout) == (None, b"19\n")


@pytest.mark.skipif(not POSIX, reason="fork")
def test_without_the_children_files_of_proc_the_tree_is_read_all_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Some kernels lack /proc/PID/task/TID/children: psutil's scan of every process finds the same tree."""
    monkeypatch.setattr(isolation, "_children_files", lambda: False)
    done = run_isolated(["-c", LASTING_FORKS], scratch=True, max_processes=20, wall_limit=600)
    assert done.stopped == "started more than 20 processes" or int(done.stdout) < 20
    done = run_isolated(["-c", TREE_MEMORY], scratch=True, memory_limit=256 * 2**20, wall_limit=600)
    assert done.stopped == "used more than 256 MB of memory"


def test_the_descendants_read_from_proc_are_psutils() -> None:
    popen = subprocess.Popen(["/bin/sh", "-c", "sleep 30 & (sleep 30 & wait) ; wait"], start_new_session=True)
    worker = Worker(popen.pid, None, popen)
    try:
        deadline = time.monotonic() + 120  # a safety net only: the shells start their children
        while len(worker.tree()) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        if isolation._children_files():
            assert sorted(isolation._descendants(popen.pid)) == sorted(p.pid for p in worker.tree()[1:])
        assert worker.usage()[1] == len(worker.tree()) == 4  # sh, sleep, the subshell and its sleep
    finally:
        worker.kill()
