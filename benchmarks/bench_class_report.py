"""Time ``class-report`` on 30 handed-in copies of lesson 04 (target: at most 2 minutes on 2 cores).

Run: ``python benchmarks/bench_class_report.py [COUNT]``. The copies are student copies of the
teacher's lesson 04 with the guess made; each is re-run in the sandbox and judged, as in class.
Prints the wall time, the CPU time of the report's process, and the load average while it ran.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from duel_lessons.teaching.class_report import class_report
from duel_lessons.teaching.student_copies import student_notebook

TARGET_S = 120.0
ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    teacher = next((ROOT / "notebooks").glob("04-*.ipynb"))
    copy = student_notebook(json.loads(teacher.read_text(encoding="utf-8")))
    with tempfile.TemporaryDirectory() as folder:
        for i in range(count):
            Path(folder, f"student-{i:02}.ipynb").write_text(json.dumps(copy), encoding="utf-8")
        began, load = time.perf_counter(), os.getloadavg()[0]
        report = class_report(folder, teacher, lesson="04")
        took = time.perf_counter() - began
    graded = sum(row.graded for row in report.rows)
    verdict = "PASS" if took <= TARGET_S and graded == count else "FAIL"
    print(
        f"{count} notebooks of lesson 04: {graded} graded in {took:.1f} s on {os.cpu_count()} cores "
        f"(load {load:.1f} at the start; target <= {TARGET_S:.0f} s): {verdict}"
    )


if __name__ == "__main__":
    main()
