"""The JupyterLite edition: the student edition as a static web site, Python running in the browser (Pyodide).

``duel-lessons student-lite DEST`` (:func:`write_lite_site`) builds, offline, with ``jupyter lite build``
(the ``lite`` extra: ``jupyterlite-core`` and ``jupyterlite-pyodide-kernel``), a folder that any static
web host serves as it is (GitHub Pages, a school's web server, ``python -m http.server``).  It holds:

* the **student edition** of the student branch (:func:`duel_lessons.teaching.editions.write_student_branch`'s
  layout: student copies of the lessons at the top, each with its declarations, and ``docs/rulebooks/``);
  never a model solution, teacher note, answer key or teacher guide;
* the package's **wheel**, built from the checkout (or given), which piplite installs from the site;
* the **widget front ends** (ipywidgets' and anywidget's), which ``jupyter lite build`` copies from the
  environment it runs in.

**The first cell.**  Each notebook of this edition, and only of this edition, starts with
:data:`INSTALL_SOURCE`: under Pyodide (``sys.platform == "emscripten"``) it installs duel-lessons from the
site's own wheel with piplite; anywhere else it does nothing.  It is added when the site is built, not kept in
the lessons: students in JupyterLab never see a cell that is not for them, the lessons' own tests are
untouched, and the cell cannot drift from the site that holds the wheel it installs.

**What needs the network** when the page runs: the Pyodide interpreter and its packages (numpy,
matplotlib, sympy...) come from the Pyodide CDN (cdn.jsdelivr.net), and the pure-Python dependencies that
Pyodide does not carry (anywidget, psygnal...) from PyPI.  duel-lessons itself comes from the site.

**Lessons 11 and 12** run without processes there: the sum rule and the bots run in the kernel under a
time limit (:mod:`duel_lessons.play.in_kernel`), and the tournament's page says that its isolation is absent.

>>> cell = install_cell()
>>> cell["metadata"]["tags"], 'sys.platform == "emscripten"' in cell["source"]
(['lite-install'], True)
>>> lite_notebook({"cells": [{"cell_type": "markdown", "source": "# A", "metadata": {}}]})["cells"][0] == cell
True
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duel_lessons.teaching.editions import EditionError, lesson_files

#: The distribution the first cell installs (the wheel the site bundles).
PACKAGE_NAME = "duel-lessons"
#: The tag of the first cell, so tools can find (and tests can check) it.
INSTALL_TAG = "lite-install"
#: The first cell of every notebook of the JupyterLite edition.
INSTALL_SOURCE = f"""\
# JupyterLite only: install the lessons' package into this browser's Python (anywhere else this does nothing).
import sys

if sys.platform == "emscripten":
    import piplite

    await piplite.install("{PACKAGE_NAME}")"""
#: The file a site made by this command holds at its top (so that --force replaces only such a site).
MARKER = "duel-lessons-lite.json"
#: What the commands say when the extra is missing.
MISSING_EXTRA = (
    "The JupyterLite edition is built with jupyterlite-core and jupyterlite-pyodide-kernel, which are not "
    "installed: pip install 'duel-lessons[lite]' (inside your clone: pip install -e '.[lite]')"
)


def install_cell() -> dict[str, Any]:
    """The first cell of a lesson in the JupyterLite edition (a plain nbformat 4 code cell)."""
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": "lite-install",
        "metadata": {"tags": [INSTALL_TAG]},
        "outputs": [],
        "source": INSTALL_SOURCE,
    }


def lite_notebook(notebook: dict[str, Any]) -> dict[str, Any]:
    """``notebook`` with :func:`install_cell` first (once: a notebook that starts with it is returned as it is)."""
    cells = list(notebook.get("cells", []))
    if cells and INSTALL_TAG in (cells[0].get("metadata", {}).get("tags") or []):
        return notebook
    return {**notebook, "cells": [install_cell(), *cells]}


def missing_extra() -> str | None:
    """None when the ``lite`` extra is installed, else what to install."""
    import importlib.util

    for module in ("jupyterlite_core", "jupyterlite_pyodide_kernel"):
        if importlib.util.find_spec(module) is None:
            return MISSING_EXTRA
    return None


@dataclass(frozen=True)
class LiteSite:
    """A site written by :func:`write_lite_site`: its folder, its lessons (file names) and the wheel it bundles."""

    folder: Path
    lessons: tuple[str, ...]
    wheel: str


def _run(command: list[str], cwd: Path, what: str) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise EditionError(f"{what} failed (exit code {done.returncode}):\n{tail}")


def build_wheel(root: Path, out: Path) -> Path:
    """The package's wheel built from the checkout ``root`` into ``out`` (pip; setuptools from the index if needed)."""
    if not (root / "pyproject.toml").is_file():
        raise EditionError(f"{root} has no pyproject.toml: give the wheel with --wheel, or build from a clone.")
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(root)]
    _run(command, root, "Building the wheel")
    wheels = sorted(out.glob("duel_lessons-*.whl"))
    if not wheels:
        raise EditionError(f"Building the wheel of {root} gave no duel_lessons-*.whl.")
    return wheels[-1]


def _stage_contents(contents: Path, source: Path | str | None) -> list[str]:
    """The student edition, lessons at the top, each notebook with the install cell first; the lessons' names."""
    from duel_lessons.teaching.editions import _stage

    names = _stage(contents, student=True, source=source, lessons_at="")
    for name in names:
        if name.endswith(".ipynb") and "/" not in name:
            path = contents / name
            notebook = lite_notebook(json.loads(path.read_text(encoding="utf-8")))
            path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return sorted(name for name in names if name.endswith(".ipynb") and name[:2].isdigit())


def _ours(folder: Path) -> bool:
    return (folder / MARKER).is_file() and (folder / "jupyter-lite.json").is_file()


def write_lite_site(
    dest: Path | str, source: Path | str | None = None, wheel: Path | str | None = None, force: bool = False
) -> LiteSite:
    """Build the JupyterLite edition into the folder ``dest`` (which must not exist) and return what it holds.

    ``source``: the teacher edition to take the lessons from (default: the clone, see
    :func:`~duel_lessons.teaching.editions.lesson_files`); ``wheel``: a built duel-lessons wheel (default: built
    from that clone).  The site is built under a temporary name beside ``dest`` and renamed into place; an
    existing ``dest`` is refused, unless ``force`` and it is a site this command made (it is then replaced).
    """
    problem = missing_extra()
    if problem is not None:
        raise EditionError(problem)
    dest = Path(dest)
    if dest.exists() and not (force and dest.is_dir() and _ours(dest)):
        what = "a site this command made: add --force to replace it" if _ours(dest) else "not a site of this command"
        raise EditionError(f"Refusing to overwrite {dest}: it exists ({what}). Choose a new folder.")
    root = lesson_files(source)
    parent = dest.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{dest.resolve().name}-building-", dir=parent) as work_name:
        work = Path(work_name)
        contents = work / "contents"
        contents.mkdir()
        lessons = _stage_contents(contents, root)
        if wheel is None:
            built = build_wheel(root, work / "wheels")
        else:
            built = Path(wheel)
            if not built.is_file() or not built.name.startswith("duel_lessons-") or built.suffix != ".whl":
                raise EditionError(f"{built} is not a duel_lessons-*.whl file.")
        site = work / "site"
        command = [sys.executable, "-m", "jupyterlite_core", "build", "--contents", str(contents)]
        command += ["--piplite-wheels", str(built), "--output-dir", str(site), "--no-sourcemaps"]
        _run(command, work, "jupyter lite build")
        summary = {"made_by": f"duel-lessons student-lite ({PACKAGE_NAME} wheel {built.name})", "lessons": lessons}
        (site / MARKER).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        old = None
        if dest.exists():  # force, and ours: moved aside first, removed once the new site is in place
            old = work / "replaced"
            os.replace(dest, old)
        os.replace(site, dest)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    return LiteSite(dest, tuple(lessons), built.name)
