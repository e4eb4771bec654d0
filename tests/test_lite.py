"""The JupyterLite edition: every student lesson runs in a simulated Pyodide, and the site builds offline.

The simulation (:data:`PYODIDE`, an IPython startup script, so it applies before duel_lessons is imported):
``sys.platform`` is ``"emscripten"``; ``subprocess``, ``multiprocessing``, numba and psutil cannot be imported
(``sys.modules`` holds None for them, so ``import`` raises ImportError, as it does where a module is missing);
``piplite`` is a stand-in whose ``install`` only records what it was asked. The lessons are the lite edition's own
files (student copies with the install cell first, their declarations beside them), all run in one kernel, one
after the other, the namespace reset between them (``%reset -f``): one interpreter start and one import of numpy,
sympy and matplotlib for the thirteen lessons, on a 2-core machine.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

from duel_lessons.teaching.lite import INSTALL_TAG, MARKER, _stage_contents, lite_notebook, missing_extra

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))
#: The longest one cell may take (lesson 11's and 12's checks run their rules and bots in the kernel here).
TIMEOUT = 300

PYODIDE = """
def _simulate_pyodide():  # a function: its closures outlive %reset, which empties the user's namespace
    import builtins
    import errno
    import multiprocessing.process
    import os
    import subprocess
    import sys
    import types

    # Not in Pyodide at all: numba and psutil.
    for name in [m for m in sys.modules if m.split(".")[0] in ("numba", "llvmlite", "psutil")]:
        sys.modules[name] = None
    for name in ("numba", "llvmlite", "psutil"):
        sys.modules[name] = None

    # In Pyodide, subprocess and multiprocessing import (sympy imports subprocess) but no process ever starts.
    def no_process(*args, **kwargs):
        raise OSError(errno.ENOSYS, "no processes in Pyodide (simulated)")

    subprocess.Popen._execute_child = no_process
    multiprocessing.process.BaseProcess.start = no_process
    os.fork = os.system = os.posix_spawn = os.posix_spawnp = no_process

    # ...and duel_lessons may not even import them: its JupyterLite path needs neither.
    real_import = builtins.__import__

    def checked_import(name, globals=None, locals=None, fromlist=(), level=0):
        caller = (globals or {}).get("__name__") or ""
        if level == 0 and name.split(".")[0] in ("subprocess", "multiprocessing") and caller.startswith("duel_lessons"):
            raise ImportError(f"{caller} imports {name}, which has no processes in Pyodide (simulated)")
        return real_import(name, globals, locals, fromlist, level)

    builtins.__import__ = checked_import
    sys.platform = "emscripten"

    piplite = types.ModuleType("piplite")
    piplite.calls = []

    async def install(requirements, **options):
        piplite.calls.append(requirements)

    piplite.install = install
    sys.modules["piplite"] = piplite


_simulate_pyodide()
del _simulate_pyodide
"""

#: The last cell: what the run left behind, as one line of JSON.
REPORT = """
import json, sys
print("REPORT " + json.dumps({
    "platform": sys.platform,
    "installs": sys.modules["piplite"].calls,
    "hidden": [name for name in ("numba", "psutil") if sys.modules.get(name) is not None],
    "notes": list(result.notes) if "result" in globals() else None,
}))
"""


def _code(source: str, tags: list[str] | None = None, ident: str = "x") -> dict[str, Any]:
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": ident,
        "metadata": {"tags": tags or []},
        "outputs": [],
        "source": source,
    }


def _one_notebook(contents: Path) -> tuple[dict[str, Any], list[tuple[int, str]]]:
    """Every lesson of ``contents`` in one notebook, each after a reset; with (first cell index, lesson) pairs."""
    cells: list[dict[str, Any]] = []
    starts = []
    for name in LESSONS:
        notebook = json.loads((contents / name).read_text(encoding="utf-8"))
        cells.append(_code(f"%reset -f\nimport os\nos.chdir({str(contents)!r})  # {name}", ident=f"reset-{name[:2]}"))
        starts.append((len(cells), name))
        cells += [{**cell, "id": f"{name[:2]}-{cell.get('id', len(cells))}"} for cell in notebook["cells"]]
    cells.append(_code(REPORT, ident="report"))
    first = json.loads((contents / LESSONS[0]).read_text(encoding="utf-8"))
    return {**first, "cells": cells}, starts


def _lesson_of(index: int, starts: list[tuple[int, str]]) -> str:
    return [name for begin, name in starts if begin <= index][-1]


@pytest.fixture(scope="module")
def contents(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The files of the lite edition's site (what ``student-lite`` hands to ``jupyter lite build``)."""
    folder = tmp_path_factory.mktemp("lite") / "contents"
    folder.mkdir()
    _stage_contents(folder, ROOT)
    return folder


def test_every_lesson_of_the_lite_edition_starts_with_the_install_cell(contents: Path) -> None:
    for name in [*LESSONS, "play.ipynb"]:
        first = json.loads((contents / name).read_text(encoding="utf-8"))["cells"][0]
        assert first["metadata"]["tags"] == [INSTALL_TAG], name
        assert 'if sys.platform == "emscripten":' in first["source"]
        assert 'await piplite.install("duel-lessons")' in first["source"]
    # ...and the lessons themselves do not hold it (it is added when the edition is built)
    for name in LESSONS:
        source = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
        assert not any(INSTALL_TAG in (c["metadata"].get("tags") or []) for c in source["cells"]), name


def test_the_install_cell_is_added_once() -> None:
    once = lite_notebook({"cells": [_code("x = 1")]})
    assert lite_notebook(once) == once and len(once["cells"]) == 2


def test_the_install_cell_does_nothing_outside_pyodide() -> None:
    """Run here (CPython, no piplite): the cell must not import piplite."""
    from duel_lessons.teaching.lite import INSTALL_SOURCE

    assert "piplite" not in sys.modules
    source = INSTALL_SOURCE.replace("await ", "")  # the await is never reached here; compiled as plain code
    exec(compile(source, "<install cell>", "exec"), {})  # the project's own cell text, not user input
    assert "piplite" not in sys.modules


def test_every_student_lesson_runs_in_simulated_pyodide(contents: Path) -> None:
    import nbclient
    import nbformat

    notebook, starts = _one_notebook(contents)
    copy = nbformat.reads(json.dumps(notebook), as_version=4)  # type: ignore[no-untyped-call]
    with tempfile.TemporaryDirectory() as folder:
        startup = Path(folder, "ipython", "profile_default", "startup")
        startup.mkdir(parents=True)
        (startup / "00-pyodide.py").write_text(PYODIDE, encoding="utf-8")
        client = nbclient.NotebookClient(
            copy, timeout=TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(contents)}}
        )
        try:
            client.execute(env={**os.environ, "IPYTHONDIR": str(Path(folder, "ipython")), "MPLBACKEND": "agg"})
        except nbclient.exceptions.CellExecutionError as error:
            failed = next(
                i
                for i, c in enumerate(copy.cells)
                if any(o.get("output_type") == "error" for o in c.get("outputs", []))
            )
            pytest.fail(f"{_lesson_of(failed, starts)} fails under simulated Pyodide:\n{str(error)[-3000:]}")
    text = "".join(o.get("text", "") for o in copy.cells[-1].outputs)
    report = json.loads(text.split("REPORT ", 1)[1])
    assert report["platform"] == "emscripten" and report["hidden"] == []
    assert report["installs"] == ["duel-lessons"] * len(LESSONS)  # every lesson's first cell asked piplite
    # lesson 12 (the last) played its tournament in the kernel, and its page says the isolation is absent
    assert report["notes"] and "cannot start processes" in report["notes"][0]
    for cell in copy.cells:
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error"


# -- the site, built offline -----------------------------------------------------------------------

TEACHER_WORDS = (
    "answer key",
    "teacher note",
    "teacher's model answer",
    "model solution",
    "### begin solution",
    "lesson.solution(",
)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's wheel, built once (pip, from this checkout)."""
    from duel_lessons.teaching.lite import build_wheel

    return build_wheel(ROOT, tmp_path_factory.mktemp("wheel"))


@pytest.mark.skipif(missing_extra() is not None and os.environ.get("CI") != "true", reason="needs the lite extra")
def test_the_site_builds_offline_with_every_lesson_and_the_wheel_and_no_teacher_material(
    tmp_path: Path, wheel: Path
) -> None:
    from duel_lessons.cli.app import main

    site = tmp_path / "site"
    assert main(["student-lite", str(site), "--wheel", str(wheel)]) == 0
    files = site / "files"
    assert sorted(p.name for p in files.glob("[0-9][0-9]-*.ipynb")) == LESSONS
    assert sorted(p.name for p in (site / "pypi").glob("*.whl")) == [wheel.name]
    assert zipfile.ZipFile(site / "pypi" / wheel.name).testzip() is None
    index = json.loads((site / "pypi" / "all.json").read_text(encoding="utf-8"))
    assert "duel-lessons" in index
    # the widget front ends (ipywidgets', the board's anywidget) and the Pyodide kernel, loaded by the page
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    loaded = {extension["name"] for extension in config["federated_extensions"]}
    wanted = {"@jupyter-widgets/jupyterlab-manager", "anywidget", "@jupyterlite/pyodide-kernel-extension"}
    assert wanted <= loaded
    for extension in config["federated_extensions"]:
        if extension["name"] in wanted:
            assert (site / "extensions" / extension["name"] / extension["load"]).is_file()
    assert json.loads((site / MARKER).read_text(encoding="utf-8"))["lessons"] == LESSONS
    # no teacher material anywhere in the site's files: no solution cell, teacher note or answer key
    assert not (files / "docs" / "answer-key.md").exists() and not (files / "docs" / "teacher-guide.md").exists()
    for path in files.rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8").lower()
            found = [word for word in TEACHER_WORDS if word in text]
            assert not found, f"{path.relative_to(site)} holds {found}"
            if path.suffix == ".ipynb":
                for cell in json.loads(text)["cells"]:
                    assert "solution" not in (cell["metadata"].get("tags") or []), path.name


@pytest.mark.skipif(missing_extra() is not None, reason="needs the lite extra")
def test_an_existing_folder_is_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from duel_lessons.cli.app import main

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my notes", encoding="utf-8")
    for extra in ([], ["--force"]):
        assert main(["student-lite", str(mine), *extra]) == 2
        assert "Refusing to overwrite" in capsys.readouterr().err
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    assert not [p for p in tmp_path.iterdir() if p.name != "mine"]  # no building folder left behind


def test_a_missing_extra_is_said_clearly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from duel_lessons.cli.app import main

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name.startswith("jupyterlite") else real(name, *a)
    )
    assert main(["student-lite", str(tmp_path / "site")]) == 2
    assert "pip install 'duel-lessons[lite]'" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()


@pytest.mark.skipif(missing_extra() is not None, reason="needs the lite extra")
def test_force_replaces_only_a_site_this_command_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``jupyter lite build`` stood in for by a stub (the real build is tested above): what is replaced, and when."""
    import duel_lessons.teaching.lite as lite
    from duel_lessons.teaching.editions import EditionError

    def fake_build(command: list[str], cwd: Path, what: str) -> None:
        out = Path(command[command.index("--output-dir") + 1])
        out.mkdir()
        (out / "jupyter-lite.json").write_text("{}", encoding="utf-8")

    monkeypatch.setattr(lite, "_run", fake_build)
    wheel = tmp_path / "duel_lessons-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"stand-in")
    site = tmp_path / "site"
    lite.write_lite_site(site, ROOT, wheel)
    (site / "left-by-the-old-build.txt").write_text("old", encoding="utf-8")
    with pytest.raises(EditionError, match="add --force to replace it"):
        lite.write_lite_site(site, ROOT, wheel)
    assert (site / "left-by-the-old-build.txt").exists()
    made = lite.write_lite_site(site, ROOT, wheel, force=True)
    assert made.lessons == tuple(LESSONS) and not (site / "left-by-the-old-build.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [wheel.name, "site"]  # no building folder left
    with pytest.raises(EditionError, match="is not a duel_lessons"):
        lite.write_lite_site(tmp_path / "other", ROOT, tmp_path / "site" / MARKER)
