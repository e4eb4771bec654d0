"""What the class report reads from a lesson notebook, without running it: its lesson, parameters and checks.

The teacher's copy of a lesson says what is right: the lesson's number (``Lesson("04", ...)``),
the teacher's parameters (the literal assignments of the ``# PARAMETERS`` cell, passed to the
lesson by the set-up cell) and which expression answers each check, guess and conjecture test
(``lesson.check(2, answer_2)``).  Everything here reads source with :mod:`ast`; nothing is run.

>>> parameters_of({"cells": [{"cell_type": "code", "metadata": {"tags": ["parameters"]},
...     "source": "# PARAMETERS\\nRULES = 'divisor-duel'\\nUPTO, BIG = 100, [8]"}]})
{'RULES': 'divisor-duel', 'UPTO': 100, 'BIG': [8]}
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duel_lessons.engine.errors import DuelError


class ReportError(DuelError):
    """The report cannot be made at all (no teacher copy, an output path that may not be written)."""


def _code(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def code_cells(notebook: Mapping[str, Any]) -> list[str]:
    """The sources of a notebook's code cells, in order."""
    cells = notebook.get("cells", [])
    return [_code(c) for c in cells if isinstance(c, Mapping) and c.get("cell_type") == "code"]


def _tags(cell: Mapping[str, Any]) -> list[str]:
    tags = cell.get("metadata", {}).get("tags", []) if isinstance(cell.get("metadata"), Mapping) else []
    return [str(t).lower() for t in (tags if isinstance(tags, list) else [tags])]


def parameters_of(notebook: Mapping[str, Any]) -> dict[str, Any]:
    """The literal assignments of a notebook's ``# PARAMETERS`` cell (tagged ``parameters``)."""
    for cell in notebook.get("cells", []):
        if not isinstance(cell, Mapping) or cell.get("cell_type") != "code":
            continue
        source = _code(cell)
        if "parameters" not in _tags(cell) and not source.lstrip().startswith("# PARAMETERS"):
            continue
        found: dict[str, Any] = {}
        for node in ast.parse(source).body:
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            target = node.targets[0]
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            if isinstance(target, ast.Name):
                found[target.id] = value
            elif isinstance(target, ast.Tuple) and isinstance(value, tuple) and len(value) == len(target.elts):
                found.update({t.id: v for t, v in zip(target.elts, value, strict=True) if isinstance(t, ast.Name)})
        return found
    return {}


#: A code cell longer than this is not parsed (a lesson's cells are a few thousand characters).
MAX_SOURCE = 200_000


def _calls(notebook: Mapping[str, Any]) -> Iterable[ast.Call]:
    for source in code_cells(notebook):
        if len(source) > MAX_SOURCE:
            continue
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):  # a handed-in cell may be built to break it
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                node.source = ast.get_source_segment(source, node) or ""  # type: ignore[attr-defined]
                yield node


def _method(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "lesson":
        return func.attr
    return None


def lesson_of(notebook: Mapping[str, Any]) -> str | None:
    """The lesson number a notebook makes (``Lesson("04", ...)``), or None."""
    for call in _calls(notebook):
        if isinstance(call.func, ast.Name) and call.func.id == "Lesson" and call.args:
            first = call.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, (str, int)):
                return str(first.value).zfill(2)
    return None


@dataclass(frozen=True)
class Plan:
    """What to read from a submission and how to judge it, from the teacher's copy of the lesson."""

    lesson: str
    params: dict[str, Any]
    checks: dict[str, str] = field(default_factory=dict)  # check name -> expression ("": answered by a call)
    guesses: dict[str, str] = field(default_factory=dict)  # guess name -> expression
    tests: dict[str, tuple[str, int]] = field(default_factory=dict)  # truth name -> (expression, upto)
    #: the student edition of the lesson's declarations (file name -> text), for the re-run of a hand-in
    files: dict[str, str] = field(default_factory=dict)
    #: the folder of the teacher's copy ("" if not known): the judge reads the declarations there
    folder: str = ""


def _literal(node: ast.expr, names: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    return ast.literal_eval(node)


def plan_of(teacher: Mapping[str, Any], folder: Path | None = None) -> Plan:
    """Read the lesson, its parameters and its check, guess and test cells from the teacher's copy.

    ``folder`` is where the teacher's copy lives: its declared exercises are read from there, and their
    student edition goes with each hand-in's re-run (as it does with the student's own copy).
    """
    import duel_lessons.teaching.declared as declared
    from duel_lessons.teaching.checks import spec

    number = lesson_of(teacher)
    if number is None:
        raise ReportError("The teacher's copy makes no Lesson(...): is it one of the duel-lessons lessons?")
    assigned = parameters_of(teacher)
    params: dict[str, Any] = {}
    checks: dict[str, str] = {}
    guesses: dict[str, str] = {}
    tests: dict[str, tuple[str, int]] = {}
    lesson_spec = spec(number, folder=folder)
    for call in _calls(teacher):
        if isinstance(call.func, ast.Name) and call.func.id == "Lesson":
            for keyword in call.keywords:
                if keyword.arg is not None:
                    try:
                        params[keyword.arg] = _literal(keyword.value, assigned)
                    except ValueError:
                        continue
        method = _method(call)
        if method is None or not call.args:
            continue
        first = call.args[0]
        if method == "parsons" and isinstance(first, ast.Constant):
            checks.setdefault(str(first.value), "")  # no answer variable: answered by a call or in the widget
        elif method in ("check", "guess") and len(call.args) >= 2 and isinstance(first, ast.Constant):
            expression = ast.unparse(call.args[1])
            if method == "check" and checks.get(str(first.value)) == "":
                continue  # a proof order: its lesson.check call in the teacher's copy is the model's, not a variable
            (checks if method == "check" else guesses)[str(first.value)] = expression
        elif method == "test":
            keywords = {k.arg: k.value for k in call.keywords}
            name_node = keywords.get("name")
            name = str(name_node.value) if isinstance(name_node, ast.Constant) else None
            if name is None and len(lesson_spec.truths) == 1:
                (name,) = lesson_spec.truths
            if name is None:
                continue
            upto_node = keywords.get("upto") or (call.args[1] if len(call.args) > 1 else None)
            try:
                upto = int(_literal(upto_node, assigned)) if upto_node is not None else int(params.get("upto", 100))
            except (ValueError, TypeError):
                upto = int(params.get("upto", 100))
            tests[name] = (ast.unparse(first), max(1, min(upto, 10_000)))
    files: dict[str, str] = {}
    found = declared.find(number, None if folder is None else [folder])
    if found is not None:
        try:
            files[found.name] = declared.load(found).student_text()
        except declared.DeclarationError as error:
            raise ReportError(str(error)) from None
    return Plan(number, params, checks, guesses, tests, files, str(folder or ""))
