"""Lesson 03, "Which numbers would you like to hand your opponent?": P, N, backward induction, remoteness.

Parameters: ``rules``, ``hand_limit`` (the table by hand), ``upto`` (the computer's table and conjectures),
``candidates`` (the guess), ``move_from`` (exercise 1), ``count_upto`` (exercise 2), ``remote_n`` (exercise 3),
``even_below`` (exercise 4).
"""

from __future__ import annotations

from collections.abc import Callable

from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import compare_sets, listing, rules_of, table_of
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_choice,
    expect_list,
    expect_member,
    expect_number,
    expect_table,
)

SPEC = register(
    LessonSpec(
        "03",
        needs=("rules", "hand_limit", "upto", "candidates", "move_from", "count_upto", "remote_n", "even_below"),
    )
)


@SPEC.truth("loses", yes="loses (P)", no="wins (N)")
def loses(p: Params) -> Callable[[int], bool]:
    """Whether the player to move from n loses (the solver's table)."""
    table = table_of(p, max(int(p["upto"]), 10**4))
    return table.is_p


@SPEC.reveal("hand")
def hand_reveal(guess: object, p: Params) -> str:
    """Which candidates are P-positions, compared with the guess."""
    pool = [int(n) for n in p["candidates"]]
    table = table_of(p, max(pool))
    truth = [n for n in pool if table.is_p(n)]
    listed = [int(n) for n in guess] if isinstance(guess, (list, tuple, set)) else []
    return (
        f"You want to hand your opponent a P-position. Among {listing(pool)}, the P-positions are "
        f"**{listing(truth)}**.\n\n{compare_sets(listed, truth, pool)}\n\n"
        "Does that fit the pattern you see in the hundred square?"
    )


@SPEC.check("table", label="Your table")
def by_hand(answer: object, p: Params) -> Verdict:
    """The table {n: "P" or "N"} for n = 1 .. hand_limit."""
    limit = int(p["hand_limit"])
    table = table_of(p, limit)
    return expect_table(
        answer,
        {n: table.outcome_of(n) for n in range(1, limit + 1)},
        given=(1, 2),
        hint="For that number, list every move. N if SOME move reaches a P; P if EVERY move reaches an N "
        "(or there is no move at all).",
        stronger="Check the numbers it can move to first: are their letters right? Then use the two rules.",
    )


@SPEC.check(1)
def winning_moves(answer: object, p: Params) -> Verdict:
    """The winning moves from ``move_from``."""
    rules, n = rules_of(p), int(p["move_from"])
    table = table_of(p, n)
    right = list(table.winning_moves(n))
    reached = [rules.result(n, d) for d in right]
    return expect_list(
        answer,
        right,
        what="winning moves",
        misconceptions=[
            Misconception(
                "results",
                lambda a: isinstance(a, list) and bool(a) and set(a) <= set(reached) and not set(a) & set(right),
                "That is where a move leaves the number. Give the divisors you take away.",
            )
        ],
        hint=f"List {n} - d for every divisor d you may use, and keep the moves whose result is a P-position.",
    )


@SPEC.check(2)
def count_p(answer: object, p: Params) -> Verdict:
    """How many P-positions there are from 1 to ``count_upto``."""
    upto = int(p["count_upto"])
    table = table_of(p, upto)
    right = sum(table.is_p(n) for n in range(1, upto + 1))
    odd = (upto + 1) // 2
    return expect_number(
        answer,
        right,
        misconceptions=[Misconception("only-odd", odd, "Are all the P-positions odd? Look at the even numbers again.")],
        hint="Count in the hundred square: count whole columns first, then add the P-positions outside them.",
    )


@SPEC.check(3)
def remoteness(answer: object, p: Params) -> Verdict:
    """The remoteness of ``remote_n``."""
    rules, n = rules_of(p), int(p["remote_n"])
    table = table_of(p, n)
    right = int(table.remoteness[n])
    after = [int(table.remoteness[rules.result(n, d)]) for d in rules.divisors_of(n)]
    wrong_way = 1 + (min(after) if table.is_p(n) else max(after)) if after else right
    misconceptions = (
        [
            Misconception(
                "hurry-delay",
                wrong_way,
                "Who is to move at this number: the winner or the loser? The winner hurries, the loser delays.",
            )
        ]
        if wrong_way != right
        else []
    )
    return expect_number(
        answer,
        right,
        misconceptions=misconceptions,
        hint="Remoteness is 1 + the remoteness of the position the best move reaches.",
    )


@SPEC.check(4)
def even_p(answer: object, p: Params) -> Verdict:
    """Any even P-position from 3 to ``even_below``."""
    top = int(p["even_below"])
    table = table_of(p, top)
    right = {n for n in range(4, top + 1, 2) if table.is_p(n)}
    return expect_member(
        answer,
        right,
        what="number",
        misconceptions=[
            Misconception("two", 2, "2 is too small: look from 3 upwards."),
            Misconception("odd", lambda a: isinstance(a, int) and a % 2 == 1, "That number is odd."),
        ],
        hint="Look at the even numbers in the hundred square: which dark ones are even?",
    )


@SPEC.check("proof-1")
def parity(answer: object, p: Params) -> Verdict:
    """In Divisor Duel a P-position's remoteness is even ("even")."""
    return expect_choice(
        answer,
        "even",
        ("even", "odd"),
        hint="At a P-position the player to move loses, so the OTHER player makes the last move. "
        "Count the moves: who makes move 1, move 2, ...?",
    )
