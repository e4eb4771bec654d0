"""Lesson 00's unusual checks: games played by a fixed plan (exercise 3 and the biggest-divisor guess), and the
primes among ``candidates`` (exercise 2: no declared formula picks items out of a list).

Exercise 1, the parameters and the discoveries are declared in ``notebooks/00-start-here.lesson.toml``.
"""

from __future__ import annotations

from itertools import pairwise

import sympy

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import rules_of
from duel_lessons.teaching.feedback import Misconception, Verdict, as_whole, expect_list, plain

SPEC = register(LessonSpec("00"))


def played(p: Params, start: int, choose: int) -> list[GameState]:
    """Every state of the game from ``start`` in which both players take ``legal_moves[choose]`` (0: the
    smallest allowed divisor, -1: the biggest); a player with no move passes where the rules say so.

    >>> [state.number for state in played({"rules": "divisor-duel"}, 60, -1)]
    [60, 30, 15, 10, 5]
    """
    states = [new_game(rules_of(p), start)]
    while not (game := states[-1]).is_over:
        states.append(game.pass_turn() if game.must_pass else game.play(game.legal_moves[choose]))
    return states


def path(p: Params, start: int, choose: int) -> list[int]:
    """The numbers that game passes through (a pass adds nothing).

    >>> path({"rules": "divisor-duel"}, 12, 0), path({"rules": "divisor-duel"}, 12, -1)
    ([12, 10, 8, 6, 4, 2], [12, 6, 3])
    """
    numbers = [state.number for state in played(p, start, choose)]
    return numbers[:1] + [b for a, b in pairwise(numbers) if b != a]


def _primes(p: Params) -> tuple[list[int], list[int]]:
    pool = [int(n) for n in p["candidates"]]
    return pool, [n for n in pool if sympy.isprime(n)]


@SPEC.check(2)
def primes(answer: object, p: Params) -> Verdict:
    """The primes among ``candidates``."""
    pool, right = _primes(p)
    mistakes = [
        Misconception(
            "odd-means-prime",
            [n for n in pool if n % 2],
            "Is every odd number prime? Try dividing each of your numbers by 3 and by 5.",
            "A prime has exactly two divisors, 1 and itself. Find a third divisor of each number you listed.",
        ),
        Misconception(
            "one-is-prime",
            lambda a: 1 in a and 1 not in right,
            "1 has only one divisor (itself), so it is not a prime.",
            "A prime has exactly two different divisors. 1 has just one, so leave it out.",
        ),
        Misconception(
            "two-is-not-prime",
            lambda a: 2 in right and set(a) == set(right) - {2},
            "Which divisors does 2 have? Count them.",
            "2 has exactly two divisors, 1 and 2: that is what a prime is. Is 2 on your list?",
        ),
    ]
    hint = "A prime has exactly two divisors: 1 and itself."
    stronger = "For each number, try dividing by 2, 3, 5 and 7. If one goes in exactly, it is not prime."
    return expect_list(answer, right, what="primes", misconceptions=mistakes, hint=hint, stronger=stronger)


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Exercise 2's model answer: the primes among ``candidates``, and why the others are not."""
    pool, right = _primes(p)
    factors = {n: " × ".join(map(str, sympy.factorint(n, multiple=True))) for n in pool if n > 1 and n not in right}
    why = "; ".join([f"{n} = {product}" for n, product in factors.items()] + ["1 has only one divisor"] * (1 in pool))
    return right, (f"{why}: not prime." if why else "Every candidate has exactly two divisors.")


@SPEC.check(3)
def smallest_path(answer: object, p: Params) -> Verdict:
    """The numbers of the game from ``small`` in which both players always take the smallest allowed divisor."""
    n, answer = int(p["small"]), plain(answer)
    right = path(p, n, 0)
    numbers = list(answer) if isinstance(answer, (list, tuple)) else []
    if all(type(x) is int for x in numbers) and sorted(numbers) == sorted(right) and numbers != right:
        return Verdict(
            "format", f"The numbers in the order the game goes: from {n} down to the end.", key="format:order"
        )
    mistakes = [
        Misconception(
            "biggest",
            path(p, n, -1),
            "That is the game where both take the BIGGEST divisor. This time both take the smallest.",
            "Each turn, list the allowed divisors of the number and take the first (smallest) one.",
        ),
        Misconception(
            "no-start",
            right[1:],
            f"Start the list with {n} itself, the number the game starts from.",
            f"The game passes through {n} first: put it at the front of your list.",
        ),
        Misconception(
            "no-end",
            right[:-1],
            "Nearly: does the game stop there? Can the player at your last number still move?",
            "Keep going until the player to move has no allowed divisor (or the rules end the game): "
            "that last number belongs in the list too.",
        ),
        Misconception(
            "divisors",
            [a - b for a, b in pairwise(right)],
            "Those are the divisors taken. The question asks for the numbers the game passes through.",
            f"Write the number after each move: {n}, then {n} minus the divisor taken, and so on.",
        ),
    ]
    hint = "Play it on paper: write the number, take away its smallest allowed divisor, write the new number."
    stronger = (
        "Exercise 1 gave you the allowed divisors of the first number. Take the smallest, subtract it, "
        "and find the allowed divisors of what is left. Repeat until nobody can move."
    )
    return expect_list(answer, right, what="numbers", misconceptions=mistakes, hint=hint, stronger=stronger)


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """Exercise 3's model: the game from ``small`` when both players take the smallest allowed divisor."""
    numbers = path(p, int(p["small"]), 0)
    return numbers, f"{' → '.join(map(str, numbers))}: the game stops at {numbers[-1]}, where it is over."


@SPEC.guess_form("biggest")
def biggest_form(value: object, p: Params) -> str | None:
    """The guess is a player: 1 or 2."""
    return None if as_whole(value) in (1, 2) else "Guess a player: write 1 or 2 (a number, without quotes)."


@SPEC.reveal("biggest")
def biggest(guess: object, p: Params) -> str:
    """Who won the biggest-divisor game, compared with the guess."""
    states = played(p, int(p["start"]), -1)
    turns, winner, said = len(states) - 1, states[-1].winner, as_whole(guess)
    return (
        f"The game went {' → '.join(str(s.number) for s in states)}: {turns} turn{'' if turns == 1 else 's'}, "
        f"and **Player {winner} won**. You guessed Player {said}. "
        f"{'Your guess was right!' if said == winner else 'Not this time.'}\n\nDid the winner win because taking "
        "the biggest divisor is clever, or by luck? Keep that question: the next lessons answer it."
    )
