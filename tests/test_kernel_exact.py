"""The solver's kernel, exactly: its small loops on hand-worked cases, and how it chooses numba or plain Python.

The kernel's tables are checked against brute force elsewhere (tests/test_solver.py, tests/test_retrograde.py);
here each function's own decisions, with values worked out by hand, fast enough for mutation testing.
"""

from __future__ import annotations
