"""The game app's start (issue 31: its first card within 3 s): what the first card waits for, and what it does not.

The time itself is measured in benchmarks/bench_voila.py, in a browser; these tests check the causes: the app
makes only its board at once (the other tabs when first opened), and a board's small tables run as plain
Python without importing numba or matplotlib.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from duel_lessons.views.app import TITLES, PlayApp

START = """
import json, sys
from duel_lessons.views.app import PlayApp
from duel_lessons.solving.tables import tabulate
app = PlayApp(delay=0)
table = tabulate("divisor-duel", 1000)
print(json.dumps({"loaded": sorted(m for m in ("numba", "matplotlib.pyplot", "sympy") if m in sys.modules),
                  "p": [n for n in range(1, 1001) if table.is_p(n)]}))
"""


def brute_force_p_positions(upto: int) -> list[int]:
    """Divisor Duel's P-positions by definition: n is P when every n - d (d a divisor of n, 1 < d < n) is N
    (so a number with no such divisor, 1 or a prime, is P: the player to move cannot move and loses)."""
    is_p = [False] * (upto + 1)
    for n in range(1, upto + 1):
        is_p[n] = all(not is_p[n - d] for d in range(2, n) if n % d == 0)
    return [n for n in range(1, upto + 1) if is_p[n]]


def test_the_app_starts_without_numba_matplotlib_or_sympy_and_its_small_tables_are_right() -> None:
    run = subprocess.run([sys.executable, "-c", START], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.splitlines()[-1])
    assert result["loaded"] == []
    assert result["p"] == brute_force_p_positions(1000)


def test_the_other_tabs_are_made_when_first_opened() -> None:
    app = PlayApp(delay=0)
    assert app._explorer is None and app._follow is None and app._builder is None
    assert [page.children[0].value for page in app._pages] == [f"Opening {t}…" for t in TITLES[1:]]
    app.tabs.selected_index = 2
    assert app._follow is not None and app._pages[1].children == (app._follow.widget,)
    assert app._explorer is None and app._builder is None
    app.large = True  # made later, a tab has the large type the app has then
    app.tabs.selected_index = 1
    assert app.explorer.large and "duel-large-type" in app.explorer.widget._dom_classes
    assert app._pages[0].children == (app.explorer.widget,)
    assert app.builder.play_it() is app.board and app.tabs.selected_index == 0


def test_voila_json_preheats_the_app_only() -> None:
    """``voila notebooks/play.ipynb`` run from the root reads ./voila.json: one kernel pre-heated for the app (named
    as voila names it when given the notebook, and when serving the root), none for the lessons."""
    config = json.loads((Path(__file__).resolve().parents[1] / "voila.json").read_text(encoding="utf-8"))
    assert config["VoilaConfiguration"] == {"preheat_kernel": True}  # progressive_rendering would make voila refuse
    pools = config["VoilaKernelManager"]["kernel_pools_config"]
    one = {"pool_size": 1}
    assert pools == {"default": {"pool_size": 0}, "play.ipynb": one, "notebooks/play.ipynb": one}
