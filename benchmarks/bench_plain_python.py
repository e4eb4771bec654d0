"""The solver's kernel compiled by numba against the solver without numba (numpy: solving/retrograde.py).

Run ``python benchmarks/bench_plain_python.py``. For each size it times, side by
side, a table of Divisor Duel built in a fresh process with numba (compile cache
warm, table time only) and in a fresh process where numba cannot be imported (as
on JupyterLite or a machine without numba), and prints the ratio. The figures
go in the README (Performance) and guide :func:`duel_lessons.solving.tables.lesson_size`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPT = """
import json, time
from duel_lessons.solving import tables
tables.tabulate("divisor-duel", 100)  # imports and compiles (or not) outside the timing
tables.clear_cache()
start = time.perf_counter()
tables.tabulate("divisor-duel", {n})
print(json.dumps({{"compiled": tables.COMPILED, "seconds": time.perf_counter() - start}}))
"""


def timed(n: int, hide_numba: Path | None) -> tuple[bool, float]:
    paths = [str(hide_numba)] if hide_numba else []
    paths += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(n=n)], env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(out.stderr)
    result = json.loads(out.stdout)
    return result["compiled"], result["seconds"]


def main() -> None:
    with tempfile.TemporaryDirectory() as hide:
        (Path(hide) / "numba").mkdir()
        (Path(hide) / "numba" / "__init__.py").write_text("raise ImportError('numba hidden by the benchmark')\n")
        print(f"divisor-duel table, warm, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}: numba against none\n")
        print(f"{'N':>10}  {'numba':>8}  {'no numba':>12}  {'ratio':>6}")
        for n in (10**5, 10**6):
            compiled, fast = timed(n, None)
            plain_compiled, slow = timed(n, Path(hide))
            assert compiled and not plain_compiled, "numba must be installed here for the side-by-side run"
            print(f"{n:>10,}  {fast:>7.2f}s  {slow:>11.2f}s  {slow / fast:>5.0f}×")


if __name__ == "__main__":
    main()
