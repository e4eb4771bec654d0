"""Simulated Binder: Binder's base environment, then binder/, as repo2docker does; then the student edition runs in it.

mybinder.org (repo2docker) starts from its own Python 3.11 base environment,
which already holds jupyterlab, notebook, ipywidgets and more. It then installs
binder/requirements.txt on top and runs binder/postBuild from the repository
root. This test does the same in a new virtual environment: it installs
tests/repo2docker-base-py3.11.txt (the Python packages of repo2docker's own lock
file, pinned), then binder/requirements.txt, then runs postBuild in a clean copy
of the tracked files, and requires ``pip check`` to be clean and the students'
file tree to hold no build/ or *.egg-info.

From that installed package it then writes both editions of the lessons and a
student repository (``duel-lessons lessons`` / ``student-repo``), checks that the
student repository holds no answers, and runs every student lesson with that
environment's Jupyter kernel. It prints the install time, the environment's size
and each lesson's time (recorded in the README).

Refresh the base environment from a newer repo2docker lock file::

    python tests/test_binder.py PATH/TO/environment.py-3.11-linux-64.lock COMMIT > tests/repo2docker-base-py3.11.txt
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "tests" / "repo2docker-base-py3.11.txt"

#: conda-forge names whose PyPI name differs.
PYPI_NAMES = {
    "brotli-python": "brotli",
    "python-fastjsonschema": "fastjsonschema",
    "jupyterhub-base": "jupyterhub",
    "nbconvert-core": "nbconvert",
}

#: Run inside the Binder environment: execute the given lessons, printing each one's time.
RUN_LESSONS = """
import sys, time
from pathlib import Path
import nbformat
from nbclient import NotebookClient
for path in map(Path, sys.argv[1:]):
    t0 = time.perf_counter()
    notebook = nbformat.read(path, as_version=4)
    resources = {"metadata": {"path": str(path.parent)}}
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources=resources).execute()
    print(f"{path.name} {time.perf_counter() - t0:.1f}", flush=True)
"""


def base_requirements(lock: str, source: str) -> str:
    """pip requirements for the Python packages of a conda-lock file (the ``pyh*``/``py311`` builds), with a header."""
    pins = {}
    for match in re.finditer(r"/([^/\s]+)-([^-/\s]+)-((?:pyh|py311)[^-/#\s]*)\.(?:conda|tar\.bz2)#", lock):
        name = PYPI_NAMES.get(match.group(1), match.group(1)).replace("_", "-").lower()
        if name != "pip":
            pins[name] = match.group(2)
    header = [
        "# repo2docker's Python 3.11 base environment (what mybinder.org has before binder/requirements.txt),",
        "# as pip requirements: the Python packages of",
        f"# {source}",
        "# (conda names mapped to PyPI names: " + ", ".join(f"{a} -> {b}" for a, b in PYPI_NAMES.items()) + ").",
        "# Made by tests/test_binder.py, which installs it, then binder/requirements.txt, then runs pip check.",
    ]
    return "\n".join(header + [f"{name}=={version}" for name, version in sorted(pins.items())]) + "\n"


def tracked_files() -> list[str]:
    result = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail("tests/test_binder.py needs a git checkout to copy the tracked files")
    return result.stdout.splitlines()


def size_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6


def test_base_environment_file_is_current() -> None:
    """The base environment file names the repo2docker lock it came from, and pins Binder's jupyterlab and notebook."""
    text = BASE.read_text(encoding="utf-8")
    assert "repo2docker/blob/" in text and "environment.py-3.11-linux-64.lock" in text
    pins = dict(line.split("==") for line in text.splitlines() if line and not line.startswith("#"))
    assert {"jupyterlab", "notebook", "ipywidgets", "jupyter-server"} <= pins.keys()


def test_binder_environment_runs_the_student_edition(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    for name in tracked_files():
        if (ROOT / name).is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, repo / name)

    env_dir = tmp_path / "env"
    began = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
    bin_dir = env_dir / "bin"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER", "NUMBA"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    for var in ("MPLCONFIGDIR", "IPYTHONDIR", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        env[var] = str(tmp_path / var.lower())  # a fresh home for every cache, as on Binder
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    python = str(bin_dir / "python")
    pip = [python, "-m", "pip", "install", "-q"]
    # Binder's base environment. The lock file is a complete set, as conda installed it: no resolving needed.
    subprocess.run([*pip, "--no-deps", "-r", str(BASE)], check=True, env=env, cwd=repo)
    base_s = time.perf_counter() - began
    subprocess.run([*pip, "-r", str(repo / "binder" / "requirements.txt")], check=True, env=env, cwd=repo)
    build = subprocess.run(["bash", "binder/postBuild"], env=env, cwd=repo, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout + build.stderr
    install_s = time.perf_counter() - began
    print(
        f"\nBinder environment: base {base_s:.0f} s, installed in {install_s:.0f} s in all, {size_mb(env_dir):.0f} MB"
    )

    check = subprocess.run([python, "-m", "pip", "check"], env=env, capture_output=True, text=True)
    assert check.returncode == 0, f"pip check in the Binder environment:\n{check.stdout}{check.stderr}"
    left = sorted(p.name for p in repo.iterdir() if p.name == "build" or p.name.endswith(".egg-info"))
    assert not left, f"postBuild left {left} in the students' file tree"

    # Both editions from the installed package (run outside the checkout, so the package data is read).
    work = tmp_path / "work"
    work.mkdir()
    for args in (["lessons", "teacher"], ["student-repo", "student", "--url", "https://github.com/a/duel-class"]):
        made = subprocess.run([str(bin_dir / "duel-lessons"), *args], env=env, cwd=work, capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
    assert "git-pull%3Frepo%3Dhttps%253A%252F%252Fgithub.com%252Fa%252Fduel-class" in made.stdout
    teacher = {p.relative_to(work / "teacher").as_posix() for p in (work / "teacher").rglob("*") if p.is_file()}
    student = {p.relative_to(work / "student").as_posix() for p in (work / "student").rglob("*") if p.is_file()}
    assert {"docs/answer-key.md", "docs/teacher-guide.md", "notebooks/00-start-here.ipynb"} <= teacher
    assert not {"docs/answer-key.md", "docs/teacher-guide.md", "docs/authoring.md"} & student
    lessons = sorted((work / "student" / "notebooks").glob("*.ipynb"))
    assert [p.name for p in lessons] == sorted(n.removeprefix("notebooks/") for n in teacher if n.endswith(".ipynb"))
    for lesson in lessons:
        text = lesson.read_text(encoding="utf-8")
        assert '"# SOLUTION' not in text and "**Teacher note.**" not in text, f"{lesson.name} holds answers"

    # Two kernels at a time (lessons in two interleaved halves): the machine has two cores.
    t0 = time.perf_counter()
    halves = [[str(p) for p in lessons[i::2]] for i in range(2)]
    runs = [subprocess.Popen([python, "-c", RUN_LESSONS, *half], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for half in halves]  # fmt: skip
    outputs = [run.communicate() for run in runs]
    for run, (_out, err) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, f"a student lesson failed in the Binder environment:\n{err[-3000:]}"
    times = sorted(line.split() for out, _err in outputs for line in out.splitlines())
    print("".join(f"  {name}: {seconds} s\n" for name, seconds in times), end="")
    print(f"  every student lesson, two at a time: {time.perf_counter() - t0:.0f} s")
    assert len(times) == len(lessons)
    slow = [name for name, seconds in times if float(seconds) > 60]
    assert not slow, f"lessons too slow for Binder: {slow}"


if __name__ == "__main__":
    lock_path, commit = sys.argv[1], sys.argv[2]
    source = (
        f"https://github.com/jupyterhub/repo2docker/blob/{commit}/repo2docker/buildpacks/conda/{Path(lock_path).name}"
    )
    sys.stdout.write(base_requirements(Path(lock_path).read_text(encoding="utf-8"), source))
