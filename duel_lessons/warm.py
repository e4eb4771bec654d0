"""Warm the caches a lesson would otherwise fill on its first run (``python -m duel_lessons.warm``).

Binder's postBuild runs this: matplotlib builds its font cache and, where numba is
installed (the ``numba`` extra), numba compiles the solver's kernel into its on-disk
cache, so a student's first cell is quick. Without numba there is nothing to
compile, and the note says so. Where neither cache can be written (a read-only
home) it still runs: the caches are then made in memory, for this process only.
"""

from __future__ import annotations

import time


def warm() -> float:
    """Compile the solver and draw one plot; return the seconds taken."""
    began = time.perf_counter()
    from matplotlib.figure import Figure

    from duel_lessons.engine.rules import RULEBOOKS
    from duel_lessons.solving.tables import compiled, tabulate

    compiled()  # loads numba's kernel first: before that, tables this small run as plain Python
    for rules in RULEBOOKS.values():
        tabulate(rules, 1000)
    Figure().subplots().plot([1, 2], [1, 2])
    return time.perf_counter() - began


if __name__ == "__main__":
    from duel_lessons.solving.tables import compiled

    seconds = warm()
    how = "compiled by numba" if compiled() else "plain Python: numba is not installed"
    print(f"duel-lessons: caches warmed in {seconds:.1f} s (solver {how})")
