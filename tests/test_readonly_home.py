"""Every command, the lessons and the boards work for a user who can write neither $HOME nor the package folder.

JupyterHub images and ``docker run --user 1234`` give such users: numba then finds no place for its
cache (it used to fail at import: "cannot cache function 'all_divisors': no locator available"),
and nothing may be written beside the code. This test runs them in a private mount namespace
(``unshare --mount``) where this checkout, its virtual environment and a fresh $HOME are mounted
read-only, so that even root gets "Read-only file system" for any write there; only the folders a
command is asked to write to (under the test's temporary folder) are writable.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Run inside the namespace: each command (stdin given), a board, and lessons run top to bottom.
RUNNER = r"""
import json, os, subprocess, sys, tempfile
from pathlib import Path
work = Path(sys.argv[1])
root = Path(sys.argv[2])
results = {}
def command(name, args, stdin=""):
    done = subprocess.run([sys.executable, "-m", "duel_lessons", *args], input=stdin, capture_output=True,
                          text=True, cwd=work, timeout=600)
    results[name] = [done.returncode, done.stdout[-400:], done.stderr[-1500:]]
bots = work / "bots"
bots.mkdir()
(bots / "first.py").write_text("def move(state):\n    return state.legal_moves[0]\n")
(bots / "last.py").write_text("def move(state):\n    return state.legal_moves[-1]\n")
command("help", ["--help"])
command("rules", ["rules"])
command("solve", ["solve", "divisor-duel", "60"])
command("solve variant", ["solve", "divisor-duel", "40", "--misere"])
command("table", ["table", "factor-duel", "--upto", "5000", "--format", "csv", "--output", str(work / "t.csv")])
command("play", ["play", "--start", "12"], "6\n3\n")
command("play computer", ["play", "--vs", "computer", "--level", "coach", "--start", "30"], "hint\n15\n")
command("play sum", ["play", "--sum", "6", "8"], "")
command("answer-key", ["answer-key", str(root / "notebooks"), "--output", str(work / "key.md")])
command("student-copies", ["student-copies", str(root / "notebooks"), str(work / "copies")])
command("lessons", ["lessons", str(work / "teacher"), "--from", str(root)])
command("student-repo", ["student-repo", str(work / "repo"), "--from", str(root), "--url", "https://github.com/a/b"])
command("student-branch", ["student-branch", str(work / "branch"), "--from", str(root), "--package", "duel-lessons"])
command("printables", ["printables", str(work / "print")])
command("tournament", ["tournament", str(bots), "--starts", "2"])
# A board, played in Python as the lessons do.
board = subprocess.run([sys.executable, "-c", (
    "from duel_lessons.views.widgets import GameBoard\n"
    "board = GameBoard('divisor-duel', 12, opponent='computer')\n"
    "from duel_lessons.solving.tables import tabulate, compiled\n"
    "print(compiled(), tabulate('divisor-duel', 10**5).outcome[:10].tolist())\n"
)], capture_output=True, text=True, cwd=work, timeout=600)
results["board"] = [board.returncode, board.stdout, board.stderr[-1500:]]
# Lessons top to bottom (as a student runs them: the student copies written above).
import nbformat
from nbclient import NotebookClient
for name in sys.argv[3:]:
    notebook = nbformat.read(work / "copies" / name, as_version=4)
    try:
        NotebookClient(notebook, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(work / "copies")}}).execute()
        results[name] = [0, "", ""]
    except Exception as error:
        results[name] = [1, "", str(error)[-1500:]]
print(json.dumps(results))
"""

#: A lesson run read-only: the solver's tables (numba, where installed, compiling in memory), checks and plots.
#: (The boards are built and played by the script above; every lesson runs in tests/test_publish.py.)
LESSONS = ["04-which-numbers-lose.ipynb"]


def can_unshare() -> bool:
    if shutil.which("unshare") is None or not sys.platform.startswith("linux"):
        return False
    return subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(not can_unshare(), reason="needs `unshare --mount` (Linux, as root or with user namespaces)")
def test_everything_runs_with_a_read_only_home_and_package(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    nbclient = pytest.importorskip("nbclient", reason="running the lessons needs nbclient (in the test extra)")
    del nbclient
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER, encoding="utf-8")
    venv = Path(sys.prefix)
    read_only = [ROOT, venv, home] + ([Path(sys.base_prefix)] if sys.base_prefix != sys.prefix else [])
    mounts = " && ".join(f"mount --bind {p} {p} && mount -o remount,bind,ro {p}" for p in read_only)
    probe = " && ".join(f"! touch {p}/.probe 2>/dev/null" for p in read_only)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "NUMBA_", "MPLCONFIGDIR", "IPYTHONDIR"))}
    env.update(HOME=str(home), JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"), PYTHONDONTWRITEBYTECODE="1")
    script = f"{mounts} && {probe} && exec {sys.executable} {runner} {work} {ROOT} {' '.join(LESSONS)}"
    run = subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c", script], env=env,
                         capture_output=True, text=True, timeout=3000)  # fmt: skip
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    results = json.loads(run.stdout.strip().splitlines()[-1])
    games = ("play", "play computer", "play sum")  # they end when input ends: exit status 1, saying so
    failed = {name: result for name, result in results.items() if result[0] != 0 and name not in games}
    assert not failed, json.dumps(failed, indent=1)
    for game in games:
        code, out, err = results[game]
        assert code in (0, 1) and "Traceback" not in err and "Player 1" in out, (game, out, err)
    assert "RuntimeError" not in run.stderr and "no locator available" not in json.dumps(results)
    # The board's solver ran (compiled in memory where numba is installed, else as plain Python).
    compiled_flag, outcome = results["board"][1].split(" ", 1)
    assert compiled_flag in ("True", "False") and outcome.startswith("[")
    assert not list(home.iterdir())  # nothing was written in $HOME
