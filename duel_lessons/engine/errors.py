"""One error family: every error the package raises on bad input is a :class:`DuelError`.

``DuelError`` is a ``ValueError``, so code that catches ``ValueError`` keeps working.

>>> from duel_lessons.engine.numbers import read_number
>>> try:
...     read_number("2²")
... except DuelError as error:
...     print(type(error).__name__)
NumberInputError
"""

from __future__ import annotations


class DuelError(ValueError):
    """Base class of every error the package raises on bad input."""


class RulesError(DuelError):
    """A rule book is inconsistent, or its name is unknown, or a shipped book would be replaced."""


class BadStartError(DuelError):
    """A start number that the rule book forbids."""


class PositionError(DuelError):
    """A position that is not a whole number from 1 to 10**18 (a float, a bool, text, 0, ...)."""


class NumberInputError(DuelError):
    """Typed text that is not a whole number written with the digits 0-9."""


class TooBigError(DuelError):
    """A question about a number too big to answer: no proved closed form, and above the largest table."""


class IllegalMoveError(DuelError):
    """A move that the rules do not allow; the state it was tried on is unchanged."""

    def __init__(self, value: object, number: int, reason: str) -> None:
        self.value = value
        self.number = number
        self.reason = reason
        super().__init__(f"Cannot play {value!r} from {number}: {reason}.")


class GameOverError(IllegalMoveError):
    """A move or pass tried after the game has ended."""


class TurnLimitError(DuelError):
    """A game went on for more turns than :func:`~duel_lessons.engine.game.play_out` allows."""
