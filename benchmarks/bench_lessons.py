"""Every lesson's run time at full size, without numba (as in the students' Binder and JupyterLite) or with it.

Run ``nice -n 10 python benchmarks/bench_lessons.py`` (a few minutes; ``--numba`` keeps numba; name lessons to run
only those, e.g. ``notebooks/04-which-numbers-lose.ipynb``).  Each lesson runs under nbval (``pytest
notebooks/NN-*.ipynb``, as CI does) in a fresh process where ``import numba`` fails, like the "without numba" step
of ``.ci/run``.  Printed per lesson: nbval's own time (kernel start and every cell), the whole command's wall time
(pytest's start-up too), and the CPU time of the command, its kernel and every process they waited for (user +
system, which other jobs on a shared machine inflate far less than the clock).  Target: <= 20 s a lesson.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 20.0


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", type=Path, help="notebooks (default: every lesson)")
    parser.add_argument("--numba", action="store_true", help="keep numba (default: hidden)")
    args = parser.parse_args()
    lessons = args.lessons or sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
    with tempfile.TemporaryDirectory() as hide:
        paths = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p] or [str(ROOT)]
        if not args.numba:
            (Path(hide) / "numba").mkdir()
            (Path(hide) / "numba" / "__init__.py").write_text("raise ImportError('numba hidden (bench_lessons)')\n")
            paths.insert(0, hide)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
        print(f"lessons {'with' if args.numba else 'without'} numba, {os.cpu_count()} CPUs, load {os.getloadavg()}")
        print(f"{'lesson':40} {'nbval s':>8} {'wall s':>7} {'CPU s':>6}  result")
        worst = 0.0
        for lesson in lessons:
            command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(lesson)]
            cpu, began = children_cpu(), time.perf_counter()
            run = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
            wall, cpu = time.perf_counter() - began, children_cpu() - cpu
            found = re.search(r"passed in ([0-9.]+)s", run.stdout)
            nbval = float(found.group(1)) if found else float("nan")
            ok = run.returncode == 0 and nbval <= TARGET_S
            worst = max(worst, nbval)
            verdict = "PASS" if ok else "FAIL" if run.returncode == 0 else f"FAIL (exit {run.returncode})"
            print(f"{lesson.name:40} {nbval:8.1f} {wall:7.1f} {cpu:6.1f}  {verdict}", flush=True)
        print(f"\nslowest {worst:.1f} s (nbval; target <= {TARGET_S:.0f} s); load {os.getloadavg()} at the end")


if __name__ == "__main__":
    main()
