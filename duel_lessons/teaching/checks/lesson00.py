"""Lesson 00, "What can you do with one number?": checks and the reveal of the biggest-divisor game.

Parameters: ``rules``, ``start`` (the first game), ``small`` (exercise 1), ``candidates`` (exercise 2).
"""

from __future__ import annotations

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import rules_of
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_whole,
    expect_list,
    expect_member,
    is_unanswered,
    plain,
    unanswered,
)

SPEC = register(
    LessonSpec(
        "00",
        needs=("rules", "start", "small", "candidates"),
        offers={"rules": ("division-duel", "factor-duel", "number-factor")},
    )
)

# What the biggest-divisor guess is about: who wins, and the game that shows it.
SPEC.discovers(
    "biggest",
    r"\bplayer\s*[12]\s*(wins|won|loses|lost)\b",
    r"no valid moves left",
    r"\b60\s*(→|->)\s*30\b",
    r"subtracting 30 from 60",
)


def biggest_game(p: Params, moves: int | None = None) -> GameState:
    """The game from ``start`` in which both players always take the biggest allowed divisor.

    A player with no move passes where the rules say so (Number Factor).

    >>> biggest_game({"rules": "divisor-duel", "start": 60}, 3).number
    10
    """
    game = new_game(rules_of(p), int(p["start"]))
    played = 0
    while not game.is_over and (moves is None or played < moves):
        game = game.pass_turn() if game.must_pass else game.play(game.legal_moves[-1])
        played += 1
    return game


def _factor_pairs(n: int, allowed: tuple[int, ...]) -> str:
    pairs = [f"{a} × {n // a}" for a in allowed if a * a <= n and (a > 1 or n // a in allowed)]
    return f"{n} = " + " = ".join(pairs) if pairs else f"{n} has no allowed divisor"


@SPEC.check(1)
def allowed_divisors(answer: object, p: Params) -> Verdict:
    """The divisors a player may use from ``small``."""
    rules, n = rules_of(p), int(p["small"])
    right = list(rules.divisors_of(n))
    every = [d for d in range(1, n + 1) if n % d == 0]
    low, high = ("1 ≤ d < N", "smaller than") if 1 in right else ("1 < d < N", "bigger than 1 and smaller than")
    return expect_list(
        answer,
        right,
        what="allowed divisors",
        misconceptions=[
            Misconception(
                "all-divisors",
                every,
                "The rules leave some divisors out. Read the rule: which d are allowed?",
                f"Allowed divisors d satisfy {low}: d must be {high} the number. Cross out the ones that break it.",
            ),
            Misconception(
                "with-n",
                sorted({*right, n}),
                "Can you take away the whole number? Read the rule again.",
                f"The rule is {low}: d must be smaller than the number. Cross the number itself off your list.",
            ),
            Misconception(
                "with-1",
                sorted({*right, 1}),
                "Is 1 allowed in this game? Read the rule again.",
                "The rule is 1 < d < N: d must be bigger than 1. Cross 1 off your list.",
            ),
        ],
        hint=f"Try each number from {'1' if 1 in right else '2'} upwards: does it go into {n} exactly? "
        f"Stop before {n} itself.",
        stronger=f"Write {n} = a × b in every way you can; each a and b that the rule allows is an allowed divisor.",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """Exercise 1's model answer: the allowed divisors of ``small``."""
    rules, n = rules_of(p), int(p["small"])
    right = rules.divisors_of(n)
    left_out = "1 and" if 1 not in right else ""
    return list(right), f"{_factor_pairs(n, right)}; {rules.title} leaves out {left_out} {n} itself.".replace("  ", " ")


def _prime(n: int) -> bool:
    import sympy

    return bool(sympy.isprime(n))


@SPEC.check(2)
def primes(answer: object, p: Params) -> Verdict:
    """The primes among ``candidates``."""
    pool = [int(n) for n in p["candidates"]]
    right = [n for n in pool if _prime(n)]
    odd = [n for n in pool if n % 2 == 1]
    return expect_list(
        answer,
        right,
        what="primes",
        misconceptions=[
            Misconception(
                "odd-means-prime",
                odd,
                "Is every odd number prime? Try dividing each of your numbers by 3 and by 5.",
                "A prime has exactly two divisors, 1 and itself. Find a third divisor of each number you listed.",
            ),
            Misconception(
                "one-is-prime",
                lambda a: isinstance(a, list) and 1 in a and 1 not in right,
                "1 has only one divisor (itself), so it is not a prime.",
                "A prime has exactly two different divisors. 1 has just one, so leave it out.",
            ),
            Misconception(
                "two-is-not-prime",
                lambda a: isinstance(a, list) and 2 in right and 2 not in a and set(a) == set(right) - {2},
                "Which divisors does 2 have? Count them.",
                "2 has exactly two divisors, 1 and 2: that is what a prime is. Is 2 on your list?",
            ),
        ],
        hint="A prime has exactly two divisors: 1 and itself.",
        stronger="For each number, try dividing by 2, 3, 5 and 7. If one goes in exactly, it is not prime.",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Exercise 2's model answer: the primes among ``candidates``, and why the others are not."""
    import sympy

    pool = [int(n) for n in p["candidates"]]
    right = [n for n in pool if _prime(n)]
    others = [
        f"{n} = {' × '.join(str(q) for q, e in sympy.factorint(n).items() for _ in range(e))}"
        for n in pool
        if n > 1 and n not in right
    ]
    ones = ["1 has only one divisor"] if 1 in pool else []
    why = "; ".join(others + ones)
    return right, (f"{why}: not prime." if why else "Every candidate has exactly two divisors.")


@SPEC.check(3)
def whose_turn(answer: object, p: Params) -> Verdict:
    """Whose turn it is after the first three biggest-divisor turns (1 or 2)."""
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    right = biggest_game(p, 3).to_move
    if isinstance(answer, str) and answer.strip().lower().removeprefix("player").strip() in ("1", "2"):
        return Verdict("format", "Give just the number 1 or 2, without quotes.", key="format:text")
    return expect_member(
        answer,
        {right},
        what="player",
        misconceptions=[
            Misconception(
                "other-player",
                3 - right,
                "Players take turns: 1, 2, 1, 2, ... Who made move 3?",
                "Write the moves down: move 1 by Player 1, move 2 by Player 2, move 3 by ...",
            )
        ],
        hint="Answer 1 or 2.",
        stronger="Write the moves in a column, with who made each one. Who moves next?",
    )


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """Exercise 3's model answer: whose turn it is after three turns of the biggest-divisor game."""
    game = biggest_game(p, 3)
    turns = len(game.history)
    if turns < 3:
        plural = "" if turns == 1 else "s"
        return game.to_move, f"The game is over after {turns} turn{plural}: Player {game.to_move} is left stuck."
    return game.to_move, "Player 1 makes turns 1 and 3 and Player 2 turn 2, so turn 4 is Player 2's."


@SPEC.guess_form("biggest")
def biggest_form(value: object, p: Params) -> str | None:
    """The guess is a player: 1 or 2."""
    return None if as_whole(value) in (1, 2) else "Guess a player: write 1 or 2 (a number, without quotes)."


@SPEC.reveal("biggest")
def biggest(guess: object, p: Params) -> str:
    """Who won the biggest-divisor game, compared with the guess."""
    game = biggest_game(p)
    numbers = [int(p["start"])]
    replay = new_game(rules_of(p), int(p["start"]))
    while not replay.is_over:
        replay = replay.pass_turn() if replay.must_pass else replay.play(replay.legal_moves[-1])
        numbers.append(replay.number)
    path = " → ".join(map(str, numbers))
    said = as_whole(guess)
    verdict = "Your guess was right!" if said == game.winner else "Not this time."
    turns = f"{len(game.history)} turn{'' if len(game.history) == 1 else 's'}"
    return (
        f"The game went {path}: {turns}, and **Player {game.winner} won**. "
        f"You guessed Player {said}. {verdict}\n\nDid the winner win because taking the biggest divisor is "
        "clever, or by luck? Keep that question: the next lessons answer it."
    )
