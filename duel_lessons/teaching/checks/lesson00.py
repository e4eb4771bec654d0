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
    expect_list,
    expect_member,
    is_unanswered,
    unanswered,
)

SPEC = register(LessonSpec("00", needs=("rules", "start", "small", "candidates")))


def biggest_game(p: Params, moves: int | None = None) -> GameState:
    """The game from ``start`` in which both players always take the biggest allowed divisor.

    >>> biggest_game({"rules": "divisor-duel", "start": 60}, 3).number
    10
    """
    game = new_game(rules_of(p), int(p["start"]))
    played = 0
    while not game.is_over and (moves is None or played < moves):
        game = game.play(game.legal_moves[-1])
        played += 1
    return game


@SPEC.check(1)
def allowed_divisors(answer: object, p: Params) -> Verdict:
    """The divisors a player may use from ``small``."""
    rules, n = rules_of(p), int(p["small"])
    right = list(rules.divisors_of(n))
    every = [d for d in range(1, n + 1) if n % d == 0]
    return expect_list(
        answer,
        right,
        what="allowed divisors",
        misconceptions=[
            Misconception(
                "all-divisors", every, "The rules leave some divisors out. Read the rule: which d are allowed?"
            ),
            Misconception("with-n", sorted({*right, n}), "Can you take away the whole number? Read the rule again."),
            Misconception("with-1", sorted({*right, 1}), "Is 1 allowed in this game? Read the rule again."),
        ],
        hint=f"Try each number from 2 upwards: does it go into {n} exactly? Stop before {n} itself.",
        stronger=f"Write {n} = a × b in every way you can; each a and b (except 1 and {n}) is an allowed divisor.",
    )


@SPEC.check(2)
def primes(answer: object, p: Params) -> Verdict:
    """The primes among ``candidates``."""
    import sympy

    pool = [int(n) for n in p["candidates"]]
    right = [n for n in pool if sympy.isprime(n)]
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
            ),
            Misconception(
                "two-is-not-prime",
                lambda a: isinstance(a, list) and 2 in right and 2 not in a and set(a) == set(right) - {2},
                "Which divisors does 2 have? Count them.",
            ),
        ],
        hint="A prime has exactly two divisors: 1 and itself.",
        stronger="For each number, try dividing by 2, 3, 5 and 7. If one goes in exactly, it is not prime.",
    )


@SPEC.check(3)
def whose_turn(answer: object, p: Params) -> Verdict:
    """Whose turn it is after the first three biggest-divisor moves (1 or 2)."""
    if is_unanswered(answer):
        return unanswered()
    right = biggest_game(p, 3).to_move
    if isinstance(answer, str) and answer.strip().lower().removeprefix("player").strip() == str(right):
        return Verdict("format", "Right idea: give just the number 1 or 2, without quotes.", key="format:text")
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
    )


@SPEC.reveal("biggest")
def biggest(guess: object, p: Params) -> str:
    """Who won the biggest-divisor game, compared with the guess."""
    game = biggest_game(p)
    numbers = [int(p["start"])]
    replay = new_game(rules_of(p), int(p["start"]))
    while not replay.is_over:
        replay = replay.play(replay.legal_moves[-1])
        numbers.append(replay.number)
    path = " → ".join(map(str, numbers))
    said = f"You guessed Player {guess}." if guess in (1, 2) else f"You guessed {guess!r}."
    verdict = "Your guess was right!" if guess == game.winner else "Not this time."
    return (
        f"The game went {path}: {len(numbers) - 1} moves, and **Player {game.winner} won**. "
        f"{said} {verdict}\n\nDid the winner win because taking the biggest divisor is clever, or by luck? "
        "Keep that question: the next lessons answer it."
    )
