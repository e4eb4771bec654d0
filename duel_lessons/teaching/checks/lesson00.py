"""Lesson 00, "What can you do with one number?": checks and the reveal of the biggest-divisor game.

Parameters: ``rules``, ``start`` (the first game), ``small`` (exercise 1), ``candidates`` (exercise 2).
"""

from __future__ import annotations

from itertools import pairwise

from duel_lessons.engine.game import GameState, new_game
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import rules_of
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_whole,
    expect_list,
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


def path(p: Params, start: int, choose: int) -> list[int]:
    """The numbers a game from ``start`` passes through when both players always take ``legal_moves[choose]``
    (0: the smallest allowed divisor, -1: the biggest); a pass leaves the number as it is and adds nothing.

    >>> path({"rules": "divisor-duel"}, 12, 0), path({"rules": "divisor-duel"}, 12, -1)
    ([12, 10, 8, 6, 4, 2], [12, 6, 3])
    """
    game = new_game(rules_of(p), start)
    numbers = [start]
    while not game.is_over:
        game = game.pass_turn() if game.must_pass else game.play(game.legal_moves[choose])
        if game.number != numbers[-1]:
            numbers.append(game.number)
    return numbers


@SPEC.check(3)
def smallest_path(answer: object, p: Params) -> Verdict:
    """The numbers of the game from ``small`` in which both players always take the smallest allowed divisor."""
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    n = int(p["small"])
    right_path = path(p, n, 0)
    numbers = list(answer) if isinstance(answer, (list, tuple)) else []
    if all(type(x) is int for x in numbers) and sorted(numbers) == sorted(right_path) and numbers != right_path:
        return Verdict(
            "format", f"The numbers in the order the game goes: from {n} down to the end.", key="format:order"
        )
    taken = [a - b for a, b in pairwise(right_path)]
    return expect_list(
        answer,
        right_path,
        what="numbers",
        misconceptions=[
            Misconception(
                "biggest",
                path(p, n, -1),
                "That is the game where both take the BIGGEST divisor. This time both take the smallest.",
                "Each turn, list the allowed divisors of the number and take the first (smallest) one.",
            ),
            Misconception(
                "no-start",
                right_path[1:],
                f"Start the list with {n} itself, the number the game starts from.",
                f"The game passes through {n} first: put it at the front of your list.",
            ),
            Misconception(
                "no-end",
                right_path[:-1],
                "Nearly: does the game stop there? Can the player at your last number still move?",
                "Keep going until the player to move has no allowed divisor (or the rules end the game): "
                "that last number belongs in the list too.",
            ),
            Misconception(
                "divisors",
                taken,
                "Those are the divisors taken. The question asks for the numbers the game passes through.",
                f"Write the number after each move: {n}, then {n} minus the divisor taken, and so on.",
            ),
        ],
        hint="Play it on paper: write the number, take away its smallest allowed divisor, write the new number.",
        stronger="Exercise 1 gave you the allowed divisors of the first number. Take the smallest, subtract it, "
        "and find the allowed divisors of what is left. Repeat until nobody can move.",
    )


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """Exercise 3's model: the game from ``small`` when both players take the smallest allowed divisor."""
    numbers = path(p, int(p["small"]), 0)
    end = numbers[-1]
    return numbers, f"{' → '.join(map(str, numbers))}: the game stops at {end}, where it is over."


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
