"""Time ``class-report`` on 30 handed-in copies of lesson 04 (target: at most 60 s on 2 cores, issue 28).

Run: ``python benchmarks/bench_class_report.py [COUNT] [--bomb]``. The copies are student copies of the
teacher's lesson 04 with proof step 1 answered (a different wrong expression in each, so each is judged
by sympy); each is re-run in the sandbox and judged, as in class. ``--bomb`` makes the first copy's
answer ``(N+d+1)^64*(N+2*d+3)^64``, which the judge refuses after its CPU limit. Prints the progress
as it goes, then the wall time, the CPU time of the report's process, of the sandboxes (as their
referee read it) and of the judges, and the load average before it started: on a loaded machine the
CPU times are the figures to compare (their sum over the cores is the least the wall time can be).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import duel_lessons.play.sandbox as sandbox
from duel_lessons.teaching.class_report import class_report
from duel_lessons.teaching.student_copies import student_notebook

TARGET_S = 60.0
ROOT = Path(__file__).resolve().parents[1]
BOMB = "(N+d+1)^64*(N+2*d+3)^64"


def answered(notebook: dict[str, object], proof_1: str) -> dict[str, object]:
    text = json.dumps(notebook).replace("proof_1 = ...", f"proof_1 = {proof_1!r}", 1)  # no " or \\ in it
    return json.loads(text)  # type: ignore[no-any-return]


def cpu(who: int) -> float:
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    count = int(args[0]) if args else 30
    teacher = next((ROOT / "notebooks").glob("04-*.ipynb"))
    copy = student_notebook(json.loads(teacher.read_text(encoding="utf-8")))
    with tempfile.TemporaryDirectory() as folder:
        for i in range(count):
            proof = BOMB if i == 0 and "--bomb" in sys.argv else f"d*(N - {i})"
            Path(folder, f"student-{i:02}.ipynb").write_text(json.dumps(answered(copy, proof)), encoding="utf-8")
        sandboxes: list[float] = []  # the CPU seconds of each re-run's whole process tree, as its referee read them
        run_isolated = sandbox.run_isolated

        def measured(*args: object, **kwargs: object) -> object:
            done = run_isolated(*args, **kwargs)  # type: ignore[arg-type]
            sandboxes.append(done.cpu)
            return done

        sandbox.run_isolated = measured  # type: ignore[assignment]
        load = os.getloadavg()[0]
        began, own, children = time.perf_counter(), cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
        report = class_report(
            folder, teacher, lesson="04", progress=lambda d, t, n: print(f"{d} of {t}: {n}", file=sys.stderr)
        )
        took = time.perf_counter() - began
        own, children = cpu(resource.RUSAGE_SELF) - own, cpu(resource.RUSAGE_CHILDREN) - children
    graded = sum(row.graded for row in report.rows)
    judged = sum(row.verdicts.get("proof-1") in ("right", "wrong", "partial") for row in report.rows)
    verdict = "PASS" if took <= TARGET_S and graded == count else "FAIL"
    print(
        f"{count} notebooks of lesson 04: {graded} graded, {judged} proof steps judged, in {took:.1f} s on "
        f"{os.cpu_count()} cores (CPU: {own:.1f} s in the report's process, {sum(sandboxes):.1f} s in the "
        f"sandboxes, {children:.1f} s in the judges and other ended children; "
        f"load {load:.1f} at the start; target <= {TARGET_S:.0f} s): {verdict}"
    )


if __name__ == "__main__":
    main()
