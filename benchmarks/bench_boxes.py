"""Count P-positions of sums over boxes by Grundy values (solving.boxes), against listing them one by one.

Run: ``python benchmarks/bench_boxes.py`` (about a minute). Targets (issue 15):
three components up to 10**6 each (10**18 positions) in at most 1 s warm and at most 300 MB;
up to 10**7 per axis (the table limit) in seconds.

Part 1 counts (``p_count``, by Grundy values) and lists (``p_positions()``, which visits every position,
as the old enumeration did) on boxes that can still be listed (at most ``LIST_LIMIT`` positions), checks
that they agree, and prints the ratio.  Part 2 counts where no listing can go, each box in a fresh
process so that its peak memory (ru_maxrss) is its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

from duel_lessons import DIVISOR_DUEL, FACTOR_DUEL
from duel_lessons.solving.boxes import count_box

TARGET_S = 1.0
TARGET_MB = 300.0

CHILD = """
import json, resource, sys, time
from duel_lessons.engine.rules import get_rules, DIVISOR_DUEL
from duel_lessons.solving.boxes import count_box
rules = DIVISOR_DUEL.variant(allow_one=True) if sys.argv[1] == "allow-one" else get_rules(sys.argv[1])
top, axes = int(sys.argv[2]), int(sys.argv[3])
box = [range(1, top + 1)] * axes
t0 = time.perf_counter(); count_box(rules, box, every_number=True); cold = time.perf_counter() - t0
t0 = time.perf_counter(); result = count_box(rules, box, every_number=True); warm = time.perf_counter() - t0
mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"cold": cold, "warm": warm, "mb": mb, "p": str(result.p_count), "total": str(result.total)}))
"""


def timed(fn, repeat: int = 3) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    best, result = float("inf"), None
    for _ in range(repeat):
        began = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - began)
    return best, result


def side_by_side() -> None:
    print("Part 1: listing against counting on the same boxes (best of 3, warm)")
    print(f"{'rules':<14}{'box':<22}{'positions':>14}{'list':>12}{'count':>12}{'ratio':>9}  agree")
    for rules in (DIVISOR_DUEL, FACTOR_DUEL):
        for top, axes in ((500, 2), (1002, 2), (50, 3), (102, 3)):
            box = [range(3, top + 1)] * axes
            new_s, new = timed(lambda b=box, r=rules: count_box(r, b))
            old_s, listed = timed(lambda c=new: c.p_positions())  # type: ignore[attr-defined]
            agree = len(listed) == new.p_count  # type: ignore[arg-type, attr-defined]
            print(
                f"{rules.name:<14}{f'{axes} × 3..{top}':<22}{new.total:>14,}"  # type: ignore[attr-defined]
                f"{old_s:>11.3f}s{new_s:>11.4f}s{old_s / new_s:>8.0f}×  {agree}"
            )


def beyond() -> None:
    print("\nPart 2: boxes far too big to list (fresh process each; warm = second call)")
    print(f"{'rules':<14}{'box':<18}{'positions':>12}{'cold':>9}{'warm':>9}{'peak MB':>9}  targets")
    for name, top, axes in (
        ("divisor-duel", 10**6, 3),
        ("factor-duel", 10**6, 3),
        ("divisor-duel", 10**7, 3),
        ("allow-one", 10**18, 3),
    ):
        out = subprocess.run([sys.executable, "-c", CHILD, name, str(top), str(axes)], capture_output=True, text=True)
        if out.returncode:
            print(f"{name:<14} failed: {out.stderr.strip().splitlines()[-1]}")
            continue
        row = json.loads(out.stdout)
        verdict = ""
        if top == 10**6:
            ok = row["warm"] <= TARGET_S and row["mb"] <= TARGET_MB
            verdict = f"{'PASS' if ok else 'FAIL'} (<= {TARGET_S:.0f} s warm, <= {TARGET_MB:.0f} MB)"
        positions = f"10^{len(row['total']) - 1}"
        print(
            f"{name:<14}{f'{axes} × 1..{top:.0e}':<18}{positions:>12}"
            f"{row['cold']:>8.2f}s{row['warm']:>8.4f}s{row['mb']:>9.0f}  {verdict}"
        )


if __name__ == "__main__":
    side_by_side()
    beyond()
