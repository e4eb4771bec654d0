"""Simulated Binder: build a fresh environment only from binder/, as repo2docker would, and run every lesson in it.

repo2docker installs binder/requirements.txt, then runs binder/postBuild from the
repository root. This test does the same in a new virtual environment made from
a clean copy of the tracked files, then executes every lesson with that
environment's Jupyter. It prints the install time and the environment's size
(recorded in the README).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def tracked_files() -> list[str]:
    result = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail("tests/test_binder.py needs a git checkout to copy the tracked files")
    return result.stdout.splitlines()


def size_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink()) / 1e6


def test_binder_environment_runs_every_lesson(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    for name in tracked_files():
        if (ROOT / name).is_file():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, repo / name)
    lessons = sorted((repo / "notebooks").glob("*.ipynb"))
    assert lessons, "no notebooks to run"

    env_dir = tmp_path / "env"
    began = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True)
    bin_dir = env_dir / "bin"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHONPATH", "JUPYTER", "NUMBA"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    for var in ("MPLCONFIGDIR", "IPYTHONDIR", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        env[var] = str(tmp_path / var.lower())  # a fresh home for every cache, as on Binder
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "-q"]
    subprocess.run([*pip, "-r", str(repo / "binder" / "requirements.txt")], check=True, env=env, cwd=repo)
    build = subprocess.run(["bash", "binder/postBuild"], env=env, cwd=repo, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout + build.stderr
    install_s = time.perf_counter() - began
    print(f"\nBinder environment: installed in {install_s:.0f} s, {size_mb(env_dir):.0f} MB")

    slow = []
    for lesson in lessons:
        t0 = time.perf_counter()
        run = subprocess.run(
            [str(bin_dir / "jupyter"), "nbconvert", "--to", "notebook", "--execute", "--stdout",
             "--ExecutePreprocessor.timeout=300", str(lesson)],
            env=env, cwd=lesson.parent, capture_output=True, text=True,
        )  # fmt: skip
        seconds = time.perf_counter() - t0
        assert run.returncode == 0, f"{lesson.name} failed in the Binder environment:\n{run.stderr[-3000:]}"
        print(f"  {lesson.name}: {seconds:.1f} s")
        if seconds > 60:
            slow.append(lesson.name)
    assert not slow, f"lessons too slow for Binder: {slow}"
