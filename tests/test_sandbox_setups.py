"""The attacker's view of the sandbox, in every set-up this machine can make: each attack is a bot file.

A referee script runs in a child process set up as a teacher's machine might be: as root with
bubblewrap, as root without it (``PATH`` without ``bwrap``: as if not installed), as root that
may not change user (its capabilities taken away with ``setpriv``, as in some containers), and
as the ordinary user ``nobody``.  Nothing is forced inside the sandbox: the set-up is the
machine's.  Each attack bot is loaded *without* the restricted namespace (``restricted=False``,
as an attacker who found a way round it), so these tests judge the process, user and namespace
layers alone.  An attack is *contained* when the bot could not do it, judged by its outcome (a
file not written, a process not signalled, nothing left behind), never by time.

Where a set-up cannot hold (root that may not change user, without bubblewrap), the test checks
that the tournament says so (:func:`~duel_lessons.play.sandbox.isolation_notes`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from duel_lessons.play.isolation import PACKAGE, bwrap_command, python_dirs, worker_environment
from duel_lessons.play.unisolated import UNISOLATED_FLAG

LINUX_ROOT = sys.platform.startswith("linux") and hasattr(os, "geteuid") and os.geteuid() == 0
SETPRIV = shutil.which("setpriv")
BWRAP = shutil.which("bwrap")

#: Each attack: the body of ``move(state)``; it returns a legal move when it failed (contained), or raises ESCAPED.
ATTACKS = {
    "signal the referee": (
        "try:\n        os.kill(REFEREE, 0)\n    except OSError:\n        return state.legal_moves[0]\n"
        "    raise RuntimeError('ESCAPED: could signal the referee')"
    ),
    "signal another bot": (
        "import psutil\n    mine = {os.getpid(), *(p.pid for p in psutil.Process().parents())}\n"
        "    for p in psutil.process_iter(['cmdline']):\n"
        "        if p.pid not in mine and 'bot_worker' in ' '.join(p.info['cmdline'] or []):\n"
        "            try:\n                os.kill(p.pid, 0)\n            except OSError:\n                continue\n"
        "            raise RuntimeError('ESCAPED: could signal another bot')\n    return state.legal_moves[0]"
    ),
    "read the referee's memory": (  # or hold a capability (to mount, trace, change user): none, in any namespace
        "status = open('/proc/self/status').read()\n"
        "    held = [line for line in status.splitlines() if line.startswith(('CapEff', 'CapPrm'))]\n"
        "    if any(int(line.split()[1], 16) for line in held):\n"
        "        raise RuntimeError('ESCAPED: holds ' + ', '.join(held))\n"
        "    try:\n        open(f'/proc/{REFEREE}/mem', 'rb').close()\n    except OSError:\n"
        "        return state.legal_moves[0]\n    raise RuntimeError('ESCAPED: opened the referee memory')"
    ),
    "read the teacher's files": (  # 0600 and 0644 in the teacher's folder; 0644 beside the package (a venv in a home)
        "import glob\n    for path in [SECRET, OPEN, *glob.glob(os.path.join(BESIDE_PACKAGE, '*'))]:\n"
        "        if os.path.isfile(path) or path in (SECRET, OPEN):\n            try:\n"
        "                open(path).read(1)\n            except OSError:\n                continue\n"
        "            raise RuntimeError('ESCAPED: read ' + path)\n    return state.legal_moves[0]"
    ),
    "write the teacher's folder": (
        "try:\n        open(os.path.join(TEACHER, 'pwned'), 'w').write('x')\n    except OSError:\n"
        "        return state.legal_moves[0]\n    raise RuntimeError('ESCAPED: wrote a file')"
    ),
    "leave a daemon": (
        "try:\n        pid = os.fork()\n    except OSError:\n        return state.legal_moves[0]\n"
        "    if pid == 0:\n        os.setsid()\n        if os.fork() == 0:\n"
        "            os.execv('/bin/sh', ['sh', '-c', 'sleep 20; : ' + MARK + '-daemon'])\n        os._exit(0)\n"
        "    os.waitpid(pid, 0)\n    return state.legal_moves[0]"
    ),
    "use CPU in a forked child": (
        "try:\n        pid = os.fork()\n    except OSError:\n        return state.legal_moves[0]\n"
        "    if pid == 0:\n        end = time.process_time() + 3\n        while time.process_time() < end:\n"
        "            pass\n        os._exit(0)\n    os.waitpid(pid, 0)\n"
        "    return state.legal_moves[1]"  # 3, not 2: its child's 3 s of CPU were not counted (escaped)
    ),
    "leave files anywhere": (  # every folder anyone may write, and a world-writable subfolder of the teacher's
        "for folder in ('/tmp', '/dev/shm', '/run/lock', '/var/tmp', SHARED, '/tmp/.X11-unix'):\n        try:\n"
        "            open(os.path.join(folder, MARK), 'wb').write(b'x' * 500_000)\n        except OSError:\n"
        "            pass\n    return state.legal_moves[0]"
    ),
    "read another bot's file": (
        "try:\n        text = open(OTHER).read()\n    except OSError:\n        return state.legal_moves[0]\n"
        "    raise RuntimeError('ESCAPED: read another bot file: ' + text[:20])"
    ),
    "read another bot's private copy": (
        "try:\n        text = open(OTHER_COPY).read()\n    except OSError:\n        return state.legal_moves[0]\n"
        "    raise RuntimeError('ESCAPED: read the private copy of another bot: ' + text[:20])"
    ),
    "list the private copies": (
        "import glob\n    for path in glob.glob(os.path.join(COPIES, '*', '*.py')):\n        try:\n"
        "            if 'OTHER-BOT-' + 'SECRET' in open(path).read():\n"
        "                raise RuntimeError('ESCAPED: found another bot copy at ' + path)\n"
        "        except OSError:\n            pass\n    return state.legal_moves[0]"
    ),
    "reach the network": (  # the referee's port on 127.0.0.1; any interface but a loopback (no address anywhere)
        "import socket\n    others = [name for _, name in socket.if_nameindex() if name != 'lo']\n"
        "    if others:\n        raise RuntimeError('ESCAPED: saw the interfaces ' + ', '.join(others))\n"
        "    try:\n        socket.create_connection(('127.0.0.1', PORT), timeout=5).close()\n"
        "    except OSError:\n        return state.legal_moves[0]\n"
        "    raise RuntimeError('ESCAPED: connected to a port on 127.0.0.1')"
    ),
    "find another bot's source": (
        "import gc\n    for obj in gc.get_objects():\n"
        "        if isinstance(obj, str) and 'OTHER-BOT-' + 'SECRET' in obj:\n"
        "            raise RuntimeError('ESCAPED: found another bot source')\n    return state.legal_moves[0]"
    ),
}

REFEREE = r"""
import json, os, socket, sys, time
import psutil
from pathlib import Path
from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import new_game
from duel_lessons.play.isolation import PACKAGE
from duel_lessons.play.sandbox import BotFile, Forfeit, Sandbox, isolation_notes
from duel_lessons.play.tournament import bot_files, round_robin
import duel_lessons.play.sandbox as sandbox_module
sandbox_module.LOAD_WALL_LIMIT = 600.0  # a start is judged by its CPU time; the clock only as a safety net (load)

attacks = json.loads(sys.argv[1])
teacher, mark = Path(sys.argv[2]), sys.argv[3]
secret = teacher / "secret.txt"
secret.write_text("the answers")
secret.chmod(0o600)
readable = teacher / "open.txt"
readable.write_text("the notes")
readable.chmod(0o644)
shared = teacher / "shared"
shared.mkdir()
shared.chmod(0o1777)
beside = PACKAGE.parent  # what lives beside the package (the teacher's, if Python is in a home) is not bound
bots = teacher / "bots"
bots.mkdir()
(bots / "other.py").write_text("# OTHER-BOT-SECRET\ndef move(state):\n    return state.legal_moves[-1]\n")
header = (f"import os, sys, time\nREFEREE = {os.getpid()}\nSECRET = {str(secret)!r}\nTEACHER = {str(teacher)!r}\n"
          f"MARK = {mark!r}\nOTHER = {str(bots / 'other.py')!r}\nCOPIES = {sandbox_module.copies_folder()!r}\n"
          f"OPEN = {str(readable)!r}\nSHARED = {str(shared)!r}\nBESIDE_PACKAGE = {str(beside)!r}\n")
listener = socket.create_server(("127.0.0.1", 0))  # a local service a bot must not reach
header += f"PORT = {listener.getsockname()[1]}\n"
results = {"notes": isolation_notes(), "hidden": []}
other = BotFile.snapshot(bots / "other.py")
try:  # the class tournament: it runs other people's bot files only where it can isolate them
    round_robin([other, "random"], starts=[12], time_limit=0.5)
    results["tournament"] = "ran"
except DuelError as refusal:
    results["tournament"] = str(refusal)
for name, body in attacks.items():
    before = time.process_time()
    with Sandbox(other, new_game().rules, 0.5, wall_limit=300, restricted=False) as rival:  # wall: a safety net
        rival.ask(new_game("divisor-duel", 12))  # a live rival worker while the attack runs
        path = bots / "attack.py"
        copy = str(rival._copy / "other.py")  # where the rival's private copy is
        path.write_text(header + f"OTHER_COPY = {copy!r}\n" + "def move(state):\n    " + body + "\n")
        bot = BotFile.snapshot(path)
        results["hidden"].append(rival.hidden)
        with Sandbox(bot, new_game().rules, 0.5, wall_limit=300, restricted=False) as box:
            try:
                answer = box.ask(new_game("divisor-duel", 12))
                outcome = "contained" if answer == 2 else f"answered {answer}"
            except Forfeit as forfeit:
                outcome = "ESCAPED" if "ESCAPED" in forfeit.reason else "contained: " + forfeit.reason[:120]
            box.new_game()  # the game is over: nothing of the bot may outlive it
            time.sleep(0.3)
            daemons = [p for p in psutil.process_iter(["cmdline"])
                       if mark + "-daemon" in " ".join(p.info["cmdline"] or [])]
    for p in daemons:
        p.kill()  # (only in a set-up where it escaped)
    places = ("/tmp", "/dev/shm", "/run/lock", "/var/tmp", str(shared), "/tmp/.X11-unix")
    escaped_files = [p for p in (teacher / "pwned", *(Path(f, mark) for f in places)) if p.exists()]
    for p in escaped_files:
        p.unlink()
    left = [str(p) for p in escaped_files] + [f"daemon {p.pid}" for p in daemons]
    results[name] = {"outcome": outcome, "files": left}
print(json.dumps(results))
"""


def _run(setup: str, tmp_path: Path, attacks: dict[str, str]) -> dict[str, object]:
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    teacher.chmod(0o755)
    mark = f"duel-attack-{os.getpid()}-{setup}"
    env = {**os.environ}
    command = [sys.executable, "-c", REFEREE, json.dumps(attacks), str(teacher), mark]
    if "no-bwrap" in setup:
        env["PATH"] = "/nonexistent"
    if setup.startswith("root-nocap"):
        assert SETPRIV is not None
        command = [SETPRIV, "--bounding-set=-all", "--inh-caps=-all", *command]
    if setup.startswith("user"):
        # Python lives under /root here, which `nobody` cannot enter: a bubblewrap view of the same folders
        # (made traversable; no namespace but the mounts, so the referee's own bubblewrap can nest) lets the
        # referee run as nobody; inside it, the referee is an ordinary user.
        teacher.chmod(0o777)
        outer = bwrap_command([], False)
        tmp_path.chmod(0o755)
        outer = [a for a in outer if a not in ("--unshare-net", "--die-with-parent", "--unshare-pid")]
        proc = outer.index("--proc")
        outer[proc : proc + 2] = ["--bind", "/proc", "/proc"]  # the host's processes, as an ordinary user sees them
        outer[0] = str(BWRAP)
        tmpfs = outer.index("--tmpfs")
        outer[tmpfs:tmpfs] = ["--perms", "01777"]  # a /tmp every user may write, as on a teacher's machine
        outer[-1:-1] = ["--bind", str(tmp_path), "/teacher"]
        command = [
            *outer,
            SETPRIV,
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",  # type: ignore[list-item]
            sys.executable,
            "-c",
            REFEREE,
            json.dumps(attacks),
            "/teacher/teacher",
            mark,
        ]
        env = {**worker_environment(), "PATH": "/usr/bin:/bin" if "no-bwrap" not in setup else "/nonexistent"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _contained(results: dict[str, object], name: str) -> bool:
    result = results[name]
    assert isinstance(result, dict)
    return str(result["outcome"]).startswith("contained") and not result["files"]


def _user_namespaces() -> bool:
    """Whether the user ``nobody`` may make a user namespace and mount in it here, asked of util-linux's
    ``unshare`` (not of the package): some kernels forbid it, or let AppArmor take the namespace's rights away."""
    unshare = shutil.which("unshare")
    if not LINUX_ROOT or SETPRIV is None or unshare is None:
        return False
    command = [SETPRIV, "--reuid=65534", "--regid=65534", "--clear-groups", unshare, "--user", "--map-root-user"]
    command += ["--mount", "--pid", "--net", "--fork", "mount", "-t", "tmpfs", "none", "/tmp"]
    try:
        return subprocess.run(command, capture_output=True, timeout=60, check=False).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


#: Whether this kernel lets an ordinary user make namespaces (then a worker hides the other bots' files itself).
USER_NAMESPACES = _user_namespaces()

SETUPS = ["root", "root-no-bwrap", "root-nocap", "root-nocap-no-bwrap", "user", "user-no-bwrap"]


@pytest.mark.skipif(not LINUX_ROOT or SETPRIV is None, reason="the set-ups are made with setpriv, as root on Linux")
@pytest.mark.parametrize("setup", SETUPS)
def test_attacks_per_setup(setup: str, tmp_path: Path) -> None:
    if "no-bwrap" not in setup and BWRAP is None:
        pytest.skip("bubblewrap is not installed here (.ci/run installs it)")
    results = _run(setup, tmp_path, ATTACKS)
    notes = " ".join(results["notes"])  # type: ignore[arg-type]
    escaped = sorted(name for name in ATTACKS if not _contained(results, name))
    namespaces = "bubblewrap" not in notes  # bubblewrap ran (it may be installed and still not run: root without caps)
    if setup.startswith("root-nocap") and not namespaces:
        # Root that may not change user, with no namespaces: a bot *is* root. The tournament says so, and refuses
        # other people's bot files without the flag that names the risk.
        assert "could harm this process" in notes
        assert not _contained(results, "signal the referee")  # the attack is real in this set-up
        assert _contained(results, "find another bot's source")  # the fresh interpreter still holds
        assert _contained(results, "use CPU in a forked child")  # the CPU of the whole tree still counts
        assert UNISOLATED_FLAG in str(results["tournament"]) and "apt-get install bubblewrap" in str(
            results["tournament"]
        )
    elif setup.startswith("user") and not namespaces and not USER_NAMESPACES:
        # An ordinary user, no bubblewrap, no user namespaces: bots run as the teacher's user. Said, refused without
        # the flag, and still no fork and no other bot's source.
        assert "signal this process" in notes
        assert results["hidden"] == [None] * len(ATTACKS)
        for name in ("leave a daemon", "use CPU in a forked child", "find another bot's source"):
            assert _contained(results, name), (name, results[name])
        assert UNISOLATED_FLAG in str(results["tournament"])
    else:
        # bubblewrap, or (without it) namespaces and a root of each worker's own: every attack is contained.
        assert escaped == [], {name: results[name] for name in escaped}
        assert results["tournament"] == "ran"
        if not namespaces:
            assert "a root of its own" in notes
            assert results["hidden"] == [True] * len(ATTACKS)


def test_the_worker_binds_only_python_and_the_package() -> None:
    """Bubblewrap's view holds the Python folders and the package, never the folder of the tests or bots."""
    folders = python_dirs()
    assert str(Path(__file__).parent) not in folders
    assert not any(Path(f) == Path.home() for f in folders)


VIEW = r"""
import json, os, sys
from duel_lessons.play import worker_namespaces
from duel_lessons.play.isolation import PACKAGE
from duel_lessons.play.worker_namespaces import own_namespaces, root_plan
if sys.argv[1] == "remount":
    worker_namespaces.SYS_MOUNT_SETATTR = 100_000  # no such system call (ENOSYS), as on Linux before 5.12
plan = root_plan()
done = own_namespaces([])
def writes(path):
    try:
        with open(path, "w") as file:
            file.write("x")
    except OSError:
        return False
    if path != "/dev/null":
        os.unlink(path)  # (a test that fails leaves nothing in the package)
    return True
print(json.dumps({
    "done": done, "pid": os.getpid(), "plan": sorted({p.split("/")[1] for p, _ in plan}),
    "top": sorted(os.listdir("/")),
    "dev": sorted(os.listdir("/dev")), "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
    "writes": [writes(p) for p in ("/x", str(PACKAGE / "x"), "/usr/x", "/tmp/x", "/dev/shm/x", "/dev/null")],
    "beside": sorted(os.listdir(PACKAGE.parent)),
}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's namespaces")
@pytest.mark.parametrize("read_only_by", ["mount_setattr", "remount"])
def test_a_root_of_its_own_holds_only_the_system_python_and_the_package(read_only_by: str) -> None:
    """Without bubblewrap, the worker's own root: what it binds, a few devices, its own processes, two scratch
    folders; nothing else of the file system, and nothing writable but the scratch folders (and /dev/null).
    The same where the kernel has no mount_setattr: each mount is remounted read-only."""
    from duel_lessons.play.isolation import own_namespaces_here

    if not own_namespaces_here():
        pytest.skip("this kernel allows this process no namespaces (the tournament refuses bot files here)")
    done = subprocess.run(
        [sys.executable, "-c", VIEW, read_only_by],
        capture_output=True,
        text=True,
        env=worker_environment(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    view = json.loads(done.stdout)
    assert view["done"] is True and view["pid"] == 2 and view["pids"] == [1, 2]
    assert view["top"] == sorted({*view["plan"], "dev", "proc", "tmp"})
    assert view["dev"] == ["fd", "full", "null", "random", "shm", "stderr", "stdin", "stdout", "urandom", "zero"]
    assert view["writes"] == [False, False, False, True, True, True]
    # The package's folder (here, the repository) holds the tests, docs and notebooks: not bound. Only the package
    # is, and a Python folder that lives there (CI's venv is the repository's .venv).
    parent = PACKAGE.parent
    inside = [Path(d) for d in python_dirs() if Path(d).is_relative_to(parent)]
    assert parent not in inside, "an installed package's folder is site-packages: run this from a clone"
    pythons = {d.relative_to(parent).parts[0] for d in inside}
    assert view["beside"] == sorted({"duel_lessons", *pythons})
    assert not {"tests", "docs", "notebooks", "pyproject.toml"} & set(view["beside"])
