"""Lesson 07's one unusual check: exercise 2, an exact fraction of the games (the rest is declared in
``notebooks/07-number-factor.lesson.toml``; the seeded simulation lives in :mod:`duel_lessons.play.careless`).

It stays in Python because a declared formula has no exact division, and because text is refused with the same
words whether or not it is right (a slip confirms nothing).

>>> p = {"ex_games": 7}
>>> [SPEC.checks["2"](a, p).kind for a in (3 / 7, 0.5, 4 / 7, "3/7")]
['right', 'misconception', 'misconception', 'format']
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.feedback import Misconception, Verdict, expect_number

SPEC = register(LessonSpec("07"))


def _near(x: float, odd: bool) -> Callable[[object], bool]:
    return lambda a: odd and abs(float(a) - x) < 1e-9  # type: ignore[arg-type]  # a number: expect_number says so


@SPEC.check(2)
def ask_again_exact(answer: object, p: Params) -> Verdict:
    """floor(G/2)/G for G = EX_GAMES, the careful player first: the careless player wins exactly the games they start.

    (``simulate`` lets the careless player start game 1, so its ask-again rate is not this answer for an odd G.)
    """
    games = int(p["ex_games"])
    if isinstance(answer, str):
        return Verdict(
            "format",
            "Give a number, not text: no quotes (a fraction such as 3/5 works without them).",
            "",
            "",
            "format:text",
        )
    odd = games % 2 == 1
    return expect_number(
        float(answer) if isinstance(answer, Fraction) else answer,
        (games // 2) / games,
        tolerance=1e-9,
        misconceptions=[
            Misconception(
                "half",
                _near(0.5, odd),
                "Exactly half only when the number of games is even. Count the games the careless player starts.",
                "Write the games out: 1st, 2nd, 3rd, ... Who starts each one? Who wins each one?",
            ),
            Misconception(
                "careless-first",
                _near((games - games // 2) / games, odd),
                "That would be the careless player's share if they started game 1. Who starts game 1 here?",
                "The careful player starts game 1, then every other game. Which games does the careless "
                "player start? Count those.",
            ),
        ],
        hint="Under the ask-again rule the careless player wins exactly the games they start. How many is that?",
        stronger="The careful player starts games 1, 3, 5, ... Which games are left for the careless player, and how "
        "many of them are there among EX_GAMES games?",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """The exact fraction floor(G/2)/G."""
    games = int(p["ex_games"])
    exact = Fraction(games // 2, games)
    started = ", ".join(map(str, range(2, games + 1, 2)))
    return exact, (
        f"the careful player starts game 1; the careless player starts games {started} and wins exactly those: "
        f"{games // 2}/{games}" + (f" = {exact}" if exact.denominator != games else "")
    )
