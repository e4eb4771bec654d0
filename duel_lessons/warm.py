"""Warm the caches a lesson would otherwise fill on its first run (``python -m duel_lessons.warm``).

Binder's postBuild runs this: numba compiles the solver's kernel into its on-disk
cache, and matplotlib builds its font cache, so a student's first cell is quick.
Without numba there is nothing to compile, and the note says so.
"""

from __future__ import annotations

import time


def warm() -> float:
    """Compile the solver and draw one plot; return the seconds taken."""
    began = time.perf_counter()
    from matplotlib.figure import Figure

    from duel_lessons.engine.rules import RULEBOOKS
    from duel_lessons.solving.tables import tabulate

    for rules in RULEBOOKS.values():
        tabulate(rules, 1000)
    Figure().subplots().plot([1, 2], [1, 2])
    return time.perf_counter() - began


if __name__ == "__main__":
    from duel_lessons.solving.tables import COMPILED

    seconds = warm()
    how = "compiled by numba" if COMPILED else "plain Python: numba is not installed"
    print(f"duel-lessons: caches warmed in {seconds:.1f} s (solver {how})")
