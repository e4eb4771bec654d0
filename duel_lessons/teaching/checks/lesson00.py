"""Lesson 00's unusual checks: games played by a fixed plan (exercise 3 and the biggest-divisor guess).

Exercises 1 and 2, the parameters and the discoveries are declared in ``notebooks/00-start-here.lesson.toml``.
"""

from __future__ import annotations

from itertools import pairwise

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
