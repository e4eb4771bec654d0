"""A proof to put in order, declared as a dependency graph: its lines, checked, and the orders it allows.

>>> topological({"A": {"uses": ["B"]}, "B": {"shows": "b"}})
['B', 'A']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from duel_lessons.engine.rules import DuelError

#: The fields of one line of a proof.
LINE_FIELDS = ("text", "uses", "shows", "wrong")


class DeclarationError(DuelError):
    """A declarations file that cannot be read: the message names the file, the exercise and the field."""


def check_lines(lines: object, where: str) -> None:
    """A proof's lines: each known field, every ``uses`` a line of the proof, no cycle, one conclusion."""
    if not isinstance(lines, dict) or len(lines) < 2:
        raise DeclarationError(f"{where} lines: give at least two lines, as [exercise.NAME.lines.A] tables.")
    for label, line in lines.items():
        at = f"{where} lines.{label}"
        if not isinstance(line, dict) or not isinstance(line.get("text"), str):
            raise DeclarationError(f"{at} text: every line needs its text.")
        for key in line:
            if key not in LINE_FIELDS:
                raise DeclarationError(f"{at} {key}: not a field of a line (its fields: {', '.join(LINE_FIELDS)}).")
        uses = line.get("uses", [])
        if not isinstance(uses, list) or not all(isinstance(x, str) for x in uses):
            raise DeclarationError(f'{at} uses: give a list of line labels, such as ["A", "C"].')
        if "wrong" in line and (uses or "shows" in line):
            raise DeclarationError(f"{at} wrong: a line that does not belong uses nothing and shows nothing.")
        for used in uses:
            if used not in lines:
                raise DeclarationError(f"{at} uses: {used!r} is not a line here.")
            if "wrong" in lines[used]:
                raise DeclarationError(f"{at} uses: line {used} is marked wrong, so nothing can use it.")
            shows = lines[used].get("shows")
            if not isinstance(shows, str) or not shows.strip():
                raise DeclarationError(
                    f"{where} lines.{used} shows: line {used} is used by line {label}, so say in other words what it "
                    "shows (the feedback names that fact, never the label)."
                )
    proof = [x for x, line in lines.items() if "wrong" not in line]
    used_by_some = {u for x in proof for u in lines[x].get("uses", [])}
    ends = [x for x in proof if x not in used_by_some]
    if len(ends) != 1:
        raise DeclarationError(
            f"{where} lines: a proof has one conclusion, a line no other line uses; here {', '.join(ends) or 'none'}."
        )
    try:
        topological(lines)
    except ValueError:
        raise DeclarationError(f"{where} lines: the uses go round in a circle.") from None


def respects(order: list[str], lines: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether ``order`` puts every line after the lines it uses."""
    at = {x: i for i, x in enumerate(order)}
    return all(at[u] < at[x] for x in order for u in lines[x].get("uses", []))


def topological(lines: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """One order of the proof's lines (those not ``wrong``) in which every line comes after what it uses.

    Ties go to the line written first, so the result is the order written when that order is valid.

    >>> topological({"A": {"uses": ["B"]}, "B": {}, "C": {"wrong": "no"}})
    ['B', 'A']
    """
    pending = [x for x, line in lines.items() if "wrong" not in line]
    done: list[str] = []
    while pending:
        ready = next((x for x in pending if all(u in done for u in lines[x].get("uses", []))), None)
        if ready is None:
            raise ValueError("cycle")
        done.append(ready)
        pending.remove(ready)
    return done
