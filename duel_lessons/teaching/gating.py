"""Text that opens after a guess: markdown cells tagged ``after:GUESS`` in a teacher's notebook.

The teacher edition shows them as they are.  The student copy replaces each with a code cell
``lesson.text("part-N")`` (:func:`gated_cell`), and the text goes, sealed, into the student
edition of the lesson's declarations (:func:`gated_texts`), shown only once the guess is made.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any


def _tags(cell: Mapping[str, Any]) -> set[str]:
    tags = cell.get("metadata", {}).get("tags", []) if isinstance(cell.get("metadata"), Mapping) else []
    return {str(t).strip() for t in (tags if isinstance(tags, list) else [tags])}


def _source(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


#: A markdown cell tagged ``after:GUESS`` states what the guess discovers: the student copy shows it only
#: once the guess is made (``lesson.text``), and keeps its text sealed in the lesson's declarations.
AFTER_TAG = re.compile(r"^after:([A-Za-z0-9_-]+)$")


def gate_of(cell: Mapping[str, Any]) -> str | None:
    """The guess a markdown cell waits for (its tag ``after:GUESS``), or None.

    >>> gate_of({"cell_type": "markdown", "metadata": {"tags": ["after:big"]}, "source": "Odd numbers lose."})
    'big'
    >>> gate_of({"cell_type": "code", "metadata": {"tags": ["after:big"]}, "source": ""}) is None
    True
    """
    if cell.get("cell_type") != "markdown":
        return None
    found = [m.group(1) for tag in _tags(cell) if (m := AFTER_TAG.match(tag))]
    return found[0] if found else None


def gated_texts(notebook: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """The gated markdown cells of a teacher's notebook, by the names the student copy gives them.

    >>> gated_texts({"cells": [{"cell_type": "markdown", "metadata": {"tags": ["after:big"]}, "source": "Odd."}]})
    {'part-1': ('big', 'Odd.')}
    """
    from duel_lessons.teaching.markers import is_removed

    cells = [cell for cell in notebook.get("cells", []) if not is_removed(cell)]
    gated = [(gate, _source(cell)) for cell in cells if (gate := gate_of(cell))]
    return {f"part-{i}": pair for i, pair in enumerate(gated, 1)}


def gated_cell(name: str) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "id": f"gated-{name}",
        "metadata": {"tags": ["gated"]},
        "source": f'lesson.text("{name}")   # this part opens once you have answered above',
        "outputs": [],
        "execution_count": None,
    }


def tool_lock(lesson: Any, attempts: Any) -> Callable[[str], str | None]:
    """A board's lock for a student's lesson (``views.tool_lock``): Show P/N, Explain and the last hint name
    what the lesson asks students to discover, so they open once every guess (or conjecture test) that
    states a discovery (``lesson.spoilers``) is made (``attempts``: the lesson's memory).

    >>> from types import SimpleNamespace as S
    >>> lesson, attempts = S(spoilers={"big": ()}, truths={}), S(guesses={}, tested={})
    >>> tool_lock(lesson, attempts)("show_pn")
    'it opens once you have made your guess: lesson.guess("big", ...) in this lesson.'
    >>> attempts.guesses["big"] = [8]; tool_lock(lesson, attempts)("show_pn") is None
    True
    """

    def call(name: str) -> str:
        return "lesson.test(...)" if name in lesson.truths else f'lesson.guess("{name}", ...)'

    def lock(tool: str) -> str | None:
        waiting = [call(g) for g in lesson.spoilers if g not in attempts.guesses and g not in attempts.tested]
        return f"it opens once you have made your guess: {waiting[0]} in this lesson." if waiting else None

    return lock
