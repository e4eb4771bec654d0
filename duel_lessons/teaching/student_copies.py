"""Student copies of the lessons (solutions and teacher notes removed), and the answer key.

A cell is removed when it is tagged ``solution`` or ``teacher``, or when its
first line is the marker ``# SOLUTION`` (code) or starts with
``**Teacher note.**`` (markdown).  Outputs are cleared; exercises and their
checks stay, and an unanswered exercise prints "Not answered yet".
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REMOVED_TAGS = frozenset({"solution", "teacher"})
MARKERS = ("# SOLUTION", "**Teacher note.**")


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def is_removed(cell: dict[str, Any]) -> bool:
    """Whether a cell holds a solution or a teacher note."""
    tags = set(cell.get("metadata", {}).get("tags", []))
    return bool(tags & REMOVED_TAGS) or _source(cell).lstrip().startswith(MARKERS)


def student_notebook(notebook: dict[str, Any]) -> dict[str, Any]:
    """A copy of a notebook (as parsed JSON) without solutions, teacher notes or outputs."""
    cells = []
    for cell in notebook.get("cells", []):
        if is_removed(cell):
            continue
        cell = dict(cell)
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        cells.append(cell)
    return {**notebook, "cells": cells}


def write_student_copies(src: Path | str, dest: Path | str) -> list[Path]:
    """Write student copies of every ``.ipynb`` in ``src`` (a folder or one notebook) into ``dest``.

    Returns the paths written.  ``dest`` must not be inside ``src`` nor the same folder.
    """
    src, dest = Path(src), Path(dest)
    if not src.exists():
        raise FileNotFoundError(f"{src} does not exist.")
    notebooks = [src] if src.is_file() else sorted(src.glob("*.ipynb"))
    if not notebooks:
        raise FileNotFoundError(f"No notebooks (*.ipynb) in {src}.")
    folder = src.parent if src.is_file() else src
    if dest.resolve() == folder.resolve():
        raise ValueError(f"Refusing to overwrite the teacher's notebooks: {dest} is the source folder.")
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    for path in notebooks:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        target = dest / path.name
        target.write_text(json.dumps(student_notebook(notebook), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(target)
    return written


def _title(notebook: dict[str, Any], fallback: str) -> str:
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "markdown":
            for line in _source(cell).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return fallback


def answer_key(src: Path | str) -> str:
    """Markdown listing every exercise of the lessons in ``src`` with its solution cell."""
    src = Path(src)
    notebooks = [src] if src.is_file() else sorted(src.glob("[0-9][0-9]-*.ipynb"))
    parts = [
        "# Answer key",
        "",
        "Made from the lessons' solution cells by `duel-lessons answer-key notebooks/`; "
        "the answers hold for each lesson's default parameters.",
    ]
    for path in notebooks:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        parts += ["", f"## {path.stem}: {_title({'cells': cells}, path.stem)}"]
        for i, cell in enumerate(cells):
            if cell.get("cell_type") != "code" or not is_removed(cell):
                continue
            question = _source(cells[i - 1]).strip() if i else ""
            if question.startswith("lesson.check(") and i > 1:  # answer cell, check cell, solution cell
                question = _source(cells[i - 2]).strip()
            solution = _source(cell).strip()
            parts += ["", "```python", question, "```", "", "```python", solution, "```"]
    return "\n".join(parts) + "\n"
