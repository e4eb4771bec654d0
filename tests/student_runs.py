"""Each lesson's student copy, executed once (Run All, nothing answered) and shared by the tests that read it.

tests/test_student_copies.py, tests/test_model_solutions.py and tests/test_spoilers.py all need the
outputs of Run All of every student copy; :func:`run_student_copy` executes each one once per test
session and keeps the result, so no notebook is run twice.  Callers must not change what it returns.
:func:`run_student_copies` runs many side by side (tests/test_spoilers.py runs them all at once).

The kernel starts with a startup script (:data:`FIGURE_TEXT`) that makes a matplotlib figure's plain
text show its words (titles, axis labels, legends, annotations; not tick numbers), so that what a plot
says is in the outputs as text, where tests/test_spoilers.py reads it.  The picture is unchanged.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from duel_lessons.teaching.student_copies import student_notebook

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
#: The longest one cell of a lesson may take (a lesson runs in under 20 s on a slow machine).
TIMEOUT = 180
#: Run in the kernel before the notebook: a figure's text (its repr) lists the words it shows.
FIGURE_TEXT = """
import matplotlib.figure


def _figure_words(figure):
    from matplotlib.text import Text

    ticks = set()
    for axes in figure.get_axes():
        for axis in (axes.xaxis, axes.yaxis):
            for tick in [*axis.get_major_ticks(), *axis.get_minor_ticks()]:
                ticks.update((id(tick.label1), id(tick.label2)))
    words = [t.get_text() for t in figure.findobj(Text) if id(t) not in ticks and t.get_text().strip()]
    return "<Figure: " + " | ".join(words) + ">"


matplotlib.figure.Figure.__repr__ = _figure_words  # the inline backend drops display formatters for figures
"""


def load(path: Path) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return notebook


def run_notebook(notebook: dict[str, Any], files: dict[str, str] | None = None) -> Any:
    """``notebook`` (a dict) after Run All, as an nbformat notebook with outputs and widget state.

    ``files`` (name -> text) are written beside it first: a student copy's declarations, say.
    """
    import nbclient
    import nbformat

    copy = nbformat.reads(json.dumps(notebook), as_version=4)  # type: ignore[no-untyped-call]
    with tempfile.TemporaryDirectory() as folder:
        startup = Path(folder, "ipython", "profile_default", "startup")
        startup.mkdir(parents=True)
        (startup / "00-figure-words.py").write_text(FIGURE_TEXT, encoding="utf-8")
        work = Path(folder, "work")
        work.mkdir()
        for name, text in (files or {}).items():
            (work / name).write_text(text, encoding="utf-8")
        client = nbclient.NotebookClient(
            copy, timeout=TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(work)}}
        )
        client.execute(env={**os.environ, "IPYTHONDIR": str(Path(folder, "ipython"))})
    return copy


@functools.cache
def run_student_copy(path: Path) -> Any:
    """The student copy of the lesson at ``path`` after Run All (an nbformat notebook with outputs).

    It runs beside the student edition of its declarations, as ``student-copies`` writes them.
    """
    from duel_lessons.teaching.student_copies import write_student_copies

    with tempfile.TemporaryDirectory() as folder:
        written = write_student_copies(path, Path(folder))
        files = {p.name: p.read_text(encoding="utf-8") for p in written if p.suffix != ".ipynb"}
    return run_notebook(student_notebook(load(path)), files)


def run_student_copies(paths: list[Path]) -> None:
    """Run the student copies of ``paths`` side by side (one kernel per core), filling the cache."""
    from concurrent.futures import ThreadPoolExecutor

    workers = max(1, min(len(paths), os.cpu_count() or 1, 4))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(run_student_copy, path) for path in paths]:
            future.exception()  # an error shows again in the test that reads that lesson
