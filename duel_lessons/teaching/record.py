"""What a student tried, saved in the notebook itself: one display output per attempt.

Every ``lesson.check``, ``lesson.guess`` and ``lesson.test`` shows, besides its feedback,
a display output of the project's own MIME type :data:`MIME` holding a small JSON record
(the lesson, the exercise, the kind of verdict, the mistake's key, the answer as text, and
the mistakes that came before it in this kernel, since re-running a cell replaces its output).
Jupyter saves display outputs with the notebook, so the file a student downloads from Binder
or saves in Lab carries its history, with no server.  Front ends that do not know the type
show its empty ``text/plain`` part: nothing.

The records are a history for the teacher's discussion (what the class guessed first, how
many tries it took, which mistakes came up), never a grade: ``duel-lessons class-report``
re-executes each notebook and judges its answers itself, and a record that claims more than
the re-executed answer earns nothing (:mod:`duel_lessons.teaching.class_report`).

>>> r = attempt("04", "check", "1", kind="miss", key="miss:48", shown="48")
>>> r["lesson"], r["name"], r["kind"], r["version"]
('04', '1', 'miss', 1)
>>> records({"cells": [{"cell_type": "code", "outputs": [{"output_type": "display_data",
...     "data": {MIME: r, "text/plain": ""}}]}]}) == [r]
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

#: The MIME type of an attempt record (a JSON object).
MIME = "application/vnd.duel-lessons.attempt+json"
#: The record format's version.
VERSION = 1
#: The longest answer text a record keeps.
MAX_TEXT = 300
#: The kinds of action a record describes.
ACTIONS = ("check", "guess", "test")


#: Who hears of every answer given to ``lesson.check`` (the class report's re-run listens; nobody else).
_LISTENERS: list[Callable[[str, str, object], None]] = []


def listen(listener: Callable[[str, str, object], None]) -> None:
    """Call ``listener(lesson, name, answer)`` with the plain value of every answer checked from now on.

    The class report's re-run of a hand-in listens, so that an answer given by a call such as
    ``lesson.check("order", [...])`` counts exactly as an answer variable does.

    >>> heard = []
    >>> listen(lambda lesson, name, answer: heard.append((lesson, name, answer)))
    >>> answered("04", "order", ["B", "A"]); heard
    [('04', 'order', ['B', 'A'])]
    >>> _LISTENERS.clear()
    """
    _LISTENERS.append(listener)


def answered(lesson: str, name: str, answer: object) -> None:
    """Tell the listeners (if any) that ``answer`` (a plain value) was checked for exercise ``name``."""
    for listener in _LISTENERS:
        listener(lesson, name, answer)


def attempt(
    lesson: str, action: str, name: str, *, kind: str, key: str = "", shown: str = "", **extra: Any
) -> dict[str, Any]:
    """A record of one attempt: lesson "04", action "check"/"guess"/"test", the exercise or guess name.

    ``kind`` is the verdict's kind ("right", "format", "partial", "misconception", "miss",
    "noted" for a guess, "holds"/"fails" for a test); ``key`` names the mistake; ``shown`` is
    the answer as the student wrote it (cut to :data:`MAX_TEXT` characters); ``extra`` holds
    plain values such as the first counterexample ``n``.
    """
    if action not in ACTIONS:
        raise ValueError(f"action must be one of {ACTIONS}, not {action!r}")
    record: dict[str, Any] = {
        "version": VERSION,
        "lesson": str(lesson),
        "action": action,
        "name": str(name),
        "kind": str(kind),
        "key": str(key)[:MAX_TEXT],
        "shown": str(shown)[:MAX_TEXT],
        "time": round(time.time()),
    }
    for field, value in extra.items():
        if isinstance(value, (bool, int, float)) or value is None:
            record[field] = value
        elif isinstance(value, str):
            record[field] = value[:MAX_TEXT]
        elif isinstance(value, (list, tuple)):  # such as the keys of the mistakes made so far
            record[field] = [str(v)[:MAX_TEXT] for v in value[:50]]
    return record


def emit(record: Mapping[str, Any], display_id: str | None = None, update: bool = False) -> None:
    """Show the record as a display output (invisible in Lab and in nbconvert's HTML); no-op outside IPython.

    With ``display_id``, ``update=True`` replaces the output shown under that id, wherever its cell is:
    a widget's answer (a proof ordered by clicks) is saved in the notebook so, in its own cell.
    """
    try:
        from IPython import get_ipython
        from IPython.display import display, update_display
    except ImportError:  # pragma: no cover - the package's lessons always have IPython
        return
    if get_ipython() is None:
        return
    bundle = {MIME: dict(record), "text/plain": ""}
    if update and display_id is not None:
        update_display(bundle, display_id=display_id, raw=True)
    else:
        display(bundle, raw=True, display_id=display_id)


def _outputs(notebook: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
    cells = notebook.get("cells", [])
    if not isinstance(cells, list):
        return
    for cell in cells:
        if not isinstance(cell, Mapping) or cell.get("cell_type") != "code":
            continue
        outputs = cell.get("outputs", [])
        if isinstance(outputs, list):
            yield from (o for o in outputs if isinstance(o, Mapping))


def well_formed(record: object) -> bool:
    """Whether a value read from a notebook has the shape of a record (anything else is ignored)."""
    return (
        isinstance(record, Mapping)
        and record.get("version") == VERSION
        and record.get("action") in ACTIONS
        and all(isinstance(record.get(f), str) for f in ("lesson", "name", "kind", "key", "shown"))
    )


def records(notebook: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every well-formed attempt record in a notebook (a dict as read from JSON), in cell order."""
    found = []
    for output in _outputs(notebook):
        data = output.get("data")
        if isinstance(data, Mapping) and well_formed(data.get(MIME)):
            found.append(dict(data[MIME]))
    return found


@dataclass(frozen=True)
class Progress:
    """A student's own summary of a lesson: (what, where it stands, how many tries) per row."""

    lesson: str
    rows: list[tuple[str, str, int]]

    def __str__(self) -> str:
        width = max((len(what) for what, _, _ in self.rows), default=0)
        lines = [f"Lesson {self.lesson}: your progress in this session"]
        for what, state, tries in self.rows:
            lines.append(f"  {what:<{width}}  {state}" + (f" ({tries} tries)" if tries > 1 else ""))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from html import escape

        body = "".join(
            f"<tr><td>{escape(what)}</td><td>{escape(state)}</td><td>{tries}</td></tr>"
            for what, state, tries in self.rows
        )
        return (
            f"<table><caption>Lesson {escape(self.lesson)}: your progress in this session</caption>"
            f"<tr><th>what</th><th>where you are</th><th>tries</th></tr>{body}</table>"
        )
