"""Self-checking exercises for the lessons.

An exercise is three cells::

    answer = ...          # the student's cell: replace ... with an answer
    answer = [2, 3, 4]    # tagged "solution": removed from student copies
    check(answer, expected=sorted(divisors(12))[1:-1], hint="Leave out 1 and 12.")

``check`` prints kind feedback and never raises, so a lesson runs to the end
even when an exercise is unanswered or wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

NOT_ANSWERED = "⏳ Not answered yet: replace the ... with your answer and run the cell again."


class Result:
    """Whether an answer was right: true or false, and invisible in a notebook.

    (A plain True/False would be printed under the feedback when ``check`` is
    the last line of a cell.)
    """

    def __init__(self, right: bool) -> None:
        self.right = right

    def __bool__(self) -> bool:
        return self.right

    def __repr__(self) -> str:
        return f"Result(right={self.right})"

    def _ipython_display_(self) -> None:
        """Show nothing: the feedback has been printed already."""


def _same(answer: Any, expected: Any, unordered: bool) -> bool:
    if unordered and isinstance(answer, Iterable) and not isinstance(answer, str):
        return sorted(answer) == sorted(expected)
    if isinstance(expected, (list, tuple)) and isinstance(answer, (list, tuple)):
        return list(answer) == list(expected)
    return bool(answer == expected)


def check(
    answer: Any,
    expected: Any = None,
    *,
    hint: str = "",
    test: Callable[[Any], bool] | None = None,
    unordered: bool = False,
    praise: str = "",
) -> Result:
    """Print feedback on an answer; return whether it is right (as a :class:`Result`).

    Give ``expected`` (compared with ``==``; lists and tuples alike; any order if
    ``unordered``) or ``test``, a function that says whether an answer is right.
    """
    if answer is ... or answer is None:
        print(NOT_ANSWERED)
        return Result(False)
    try:
        right = test(answer) if test is not None else _same(answer, expected, unordered)
    except Exception as error:  # a student's answer of the wrong type must not stop the lesson
        right = False
        hint = f"{hint} (Checking it raised {type(error).__name__}: {error}.)".strip()
    if right:
        print(f"✅ Correct! {praise}".rstrip())
        return Result(True)
    print(f"❌ Not quite: your answer was {answer!r}.")
    if hint:
        print(f"💡 Hint: {hint}")
    return Result(False)
