"""Reveal texts shared by lessons 05 onwards: how a guessed list of numbers compares with the truth.

>>> compare_picks([25, 49], (12, 25, 30, 49), []).split(". ")[-1]
'Your guess was right about 2 of the 4 numbers.'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from duel_lessons.teaching.feedback import as_whole, is_unanswered


def picked(guess: object) -> list[int] | None:
    """The whole numbers in a guessed list, sorted, or None if the guess is not a list of whole numbers.

    >>> picked([3, 1, 3]), picked(5), picked("x")
    ([1, 3], [5], None)
    """
    single = as_whole(guess)
    if single is not None:
        return [single]
    if isinstance(guess, (str, bytes)) or not isinstance(guess, Iterable):
        return None
    values = [as_whole(x) for x in guess]
    return None if any(v is None for v in values) else sorted({v for v in values if v is not None})


def compare_picks(guess: object, choices: Sequence[int], losing: Iterable[int]) -> str:
    """Say how a guessed list of losing numbers (from ``choices``) compares with the true ``losing`` ones."""
    if is_unanswered(guess):
        return "Make your guess first."
    chosen = picked(guess)
    truth = sorted(losing)
    words = ", ".join(map(str, truth)) or "none of them"
    if chosen is None:
        return f"Your guess was not a list of numbers. With best play, the player to move loses from: {words}."
    agree = [n for n in choices if (n in chosen) == (n in truth)]
    return (
        f"You picked {chosen or 'none of them'}. With best play, the player to move loses from: {words}. "
        f"Your guess was right about {len(agree)} of the {len(choices)} numbers."
    )
