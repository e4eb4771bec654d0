"""Lesson 02, "Can the first player always win?": checks and the reveal of the small starts.

Parameters: ``rules``, ``starts`` (the results table, the guess and exercise 3), ``reach_n`` (exercise 1),
``quick_win_n`` (exercise 2).
"""

from __future__ import annotations

from duel_lessons.engine.game import new_game
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import compare_sets, listing, rules_of, stuck, table_of
from duel_lessons.teaching.feedback import Misconception, Verdict, expect_list, expect_member

SPEC = register(LessonSpec("02", needs=("rules", "starts", "reach_n", "quick_win_n")))


def first_player_wins(p: Params) -> list[int]:
    """The starts from which the first player can always win."""
    starts = [int(n) for n in p["starts"]]
    table = table_of(p, max(starts))
    return [n for n in starts if not table.is_p(n)]


@SPEC.reveal("first")
def first_reveal(guess: object, p: Params) -> str:
    """Which starts the first player can always win, compared with the guess."""
    starts = [int(n) for n in p["starts"]]
    truth = first_player_wins(p)
    listed = [int(n) for n in guess] if isinstance(guess, (list, tuple, set)) else []
    losers = [n for n in starts if n not in truth]
    return (
        f"With best play, the first player can always win from {listing(truth)}, "
        f"and always loses from {listing(losers)}.\n\n{compare_sets(listed, truth, starts)}\n\n"
        "Look at the starts the first player loses from. What could they have in common? "
        "Write your idea in the next cell: lesson 3 tests it on many more numbers."
    )


@SPEC.check(1)
def reachable(answer: object, p: Params) -> Verdict:
    """The numbers reachable in one move from ``reach_n``."""
    game = new_game(rules_of(p), int(p["reach_n"]))
    divisors = list(game.legal_moves)
    right = [game.play(d).number for d in divisors]
    return expect_list(
        answer,
        right,
        what="numbers",
        misconceptions=[
            Misconception(
                "divisors", divisors, "Those are the divisors you may take away. Where does each move leave the number?"
            )
        ],
        hint=f"List the divisors you may use from {game.number}, then take each one away from {game.number}.",
    )


@SPEC.check(2)
def quick_win(answer: object, p: Params) -> Verdict:
    """A divisor from ``quick_win_n`` after which the opponent is stuck at once."""
    rules = rules_of(p)
    n = int(p["quick_win_n"])
    moves = rules.divisors_of(n)
    right = {
        d for d in moves if stuck(rules, rules.result(n, d)) and rules.ends_on_reaching(rules.result(n, d)) != "loss"
    }
    results = {rules.result(n, d) for d in right}
    return expect_member(
        answer,
        right,
        what="divisor",
        misconceptions=[
            Misconception(
                "result",
                lambda a: a in results and a not in right,
                "That is the number the move leaves. Which divisor do you take away to get there?",
            ),
            Misconception(
                "illegal",
                lambda a: isinstance(a, int) and a not in moves,
                f"That is not a move you may play from {n}. Which divisors are allowed?",
            ),
        ],
        hint="Which move leaves your opponent a number they cannot move from?",
        stronger="Try each allowed divisor: what number is left, and does that number have any allowed divisor?",
    )


@SPEC.check(3)
def always_wins(answer: object, p: Params) -> Verdict:
    """The starts in ``starts`` that the first player can always win."""
    starts = [int(n) for n in p["starts"]]
    right = first_player_wins(p)
    even = [n for n in starts if n % 2 == 0]
    return expect_list(
        answer,
        right,
        what="starts",
        misconceptions=[
            Misconception(
                "even-wins",
                even,
                "Every even start? Play one of them out carefully: list every move, and who wins after each.",
                "From an even start on your list, try every first move. Can the other player always answer "
                "so that you are stuck in the end?",
            ),
            Misconception(
                "all-win",
                starts,
                "Can the first player really win from every start? Try the ones with "
                "the fewest moves first, and check every move.",
            ),
        ],
        hint="Work up from small numbers. You win from a start if ONE of your moves leaves a number the other player "
        "loses from. You lose if EVERY move hands the other player a win.",
        stronger="Make a list from 2 upwards: next to each number write W (the player to move can win) or L. "
        "A number is W if some move reaches an L.",
    )


@SPEC.check("proof-1")
def answer_from_six(answer: object, p: Params) -> Verdict:
    """From 6, the move that leaves the other player stuck (the step of the proof that 8 loses)."""
    rules = rules_of(p)
    right = {d for d in rules.divisors_of(6) if table_of(p, 6).is_p(rules.result(6, d))}
    return expect_member(
        answer,
        right,
        what="divisor",
        misconceptions=[
            Misconception(
                "result",
                lambda a: a in {rules.result(6, d) for d in right} and a not in right,
                "That is where the move leaves the number. Which divisor do you take?",
            )
        ],
        hint="From 6 you may take 2 or 3. Which one leaves a number with no move?",
    )
