"""Checks for lesson 07, "Which rules of Number Factor matter?" (book 004), and its seeded simulation.

>>> p = {"rules": "number-factor", "start": 30, "upto": 100, "ex_rate": 0.3, "ex_games": 7}
>>> SPEC.checks["1"](0.4, p).kind, SPEC.checks["1"]("40%", p).kind, SPEC.checks["1"](0.35, p).kind
('right', 'format', 'misconception')
>>> SPEC.checks["4"](0.5, p).kind
'misconception'
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from fractions import Fraction

import sympy

from duel_lessons.engine.game import GameState, new_game, play_out
from duel_lessons.engine.rules import Rules, get_rules
from duel_lessons.play.players import make_player
from duel_lessons.solving.tables import tabulate
from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_member,
    expect_number,
    is_unanswered,
    show,
)

SPEC = register(LessonSpec("07", needs=("rules", "start", "upto", "ex_rate", "ex_games")))


# -- the simulation of section 6 -------------------------------------------------------------------


def careless_wins(rules: Rules, start: int, careless_first: bool, q: float, rng: random.Random) -> bool:
    """Play one game, careless Player 1 against perfect Player 2; True if the careless player wins.

    The careless player names a wrong number (2 .. N-1, not a divisor) with probability q, else the perfect move.

    >>> careless_wins(get_rules("number-factor"), 30, True, 0.0, random.Random(1))
    True
    """
    perfect = make_player("perfect")
    retry = rules.on_invalid == "retry"

    def careless(state: GameState) -> int:
        n = state.number
        wrong = [k for k in range(2, n) if n % k]
        while wrong and rng.random() < q:  # a slip
            slip = rng.choice(wrong)
            if not retry:
                return slip  # book 004: a slip loses the turn (play_out applies the book's rule)
            # ask-again rules refuse the slip: the player tries again
        return perfect(state)

    state = play_out(new_game(rules, start, first=1 if careless_first else 2), {1: careless, 2: perfect})
    return state.winner == 1


def simulate(
    q_values: Sequence[float], games: int, start_range: tuple[int, int], seed: int, rules: Rules | str = "number-factor"
) -> tuple[list[float], list[float | None]]:
    """The careless player's win rate for each q: under the book's lose-the-turn rule, and with ask-again.

    ``None`` where the ask-again game could never end (q = 1).  Games alternate who starts, careless first.

    >>> simulate([0, 1], games=4, start_range=(10, 20), seed=1)
    ([0.5, 0.0], [0.5, None])
    """
    book = get_rules(rules)
    retry = book.variant(on_invalid="retry")
    lo, hi = start_range
    starts = [n for n in range(lo, hi + 1) if book.start_problem(n) is None] or [30]
    rng = random.Random(seed)

    def rate(game_rules: Rules, q: float) -> float:
        wins = sum(careless_wins(game_rules, rng.choice(starts), i % 2 == 0, q, rng) for i in range(games))
        return wins / games

    lose_turn = [rate(book, q) for q in q_values]
    ask_again: list[float | None] = [rate(retry, q) if q < 1 else None for q in q_values]
    return lose_turn, ask_again


# -- guesses ---------------------------------------------------------------------------------------

RULE_LETTERS = ("a", "b", "c")


@SPEC.reveal("rules")
def which_rules(guess: object, p: Params) -> str:
    """Which of the three rules change who wins between perfect players: none."""
    if is_unanswered(guess):
        return "Make your guess first."
    items = list(guess) if isinstance(guess, (list, tuple, set)) else [guess]
    chosen = sorted({str(x).strip().lower() for x in items})
    verdict = "You were right: " if chosen == [] else f"You picked {chosen}. In fact "
    return (
        verdict + "none of them changes who wins between perfect players. (a) can never fire (section 3); "
        "(b) hands the win to the same player as Division Duel (section 4); and (c) never fires for a perfect "
        "player, who never names a wrong number. Rule (c) matters only for careless players: section 5."
    )


@SPEC.reveal("careless")
def careless(guess: object, p: Params) -> str:
    """The prediction for q = 0.5 against the long-run rate (1 - q)/2 = 0.25."""
    if is_unanswered(guess):
        return "Make your prediction first."
    truth = 0.25
    try:
        value = float(str(guess).strip().rstrip("%")) / (100 if str(guess).strip().endswith("%") else 1)
    except (TypeError, ValueError):
        return f"Your prediction {show(guess)} is not a number. In the long run the rate is 0.25 for q = 0.5."
    gap = abs(value - truth)
    closeness = "spot on" if gap < 0.01 else "close" if gap < 0.06 else "some way off"
    return (
        f"You predicted {value:g}; in the long run the careless player wins 0.25 of the games when q = 0.5 "
        f"({closeness}). Look at the q = 0.5 row: the simulation wobbles around that value. The next cells "
        "explain why."
    )


# -- proof steps -----------------------------------------------------------------------------------


@SPEC.check("proof-1")
def smallest_result(answer: object, p: Params) -> Verdict:
    """A whole number bigger than 1 is at least 2."""
    return expect_number(
        answer,
        2,
        misconceptions=[
            Misconception(
                "one",
                1,
                "The result is bigger than 1, so it cannot be 1.",
                "List the whole numbers bigger than 1, in order. Which comes first?",
            )
        ],
        hint="Which is the smallest whole number that is bigger than 1?",
        stronger="Try N = 2 × 3: divide by 3. How small can the result of a move be?",
    )


@SPEC.check("proof-2")
def careful_first(answer: object, p: Params) -> Verdict:
    """If the careful player moves first, the careless player never gets a turn: 0."""
    return expect_number(
        answer,
        0,
        tolerance=1e-9,
        misconceptions=[
            Misconception(
                "half",
                0.5,
                "Who wins in one move from a composite start? Does the careless player ever get a turn?",
                "The careful player divides by N/p and leaves a prime p. Then both players pass. Who moved last?",
            )
        ],
        hint="The careful player faces a composite number first. What does lesson 5 say happens?",
        stronger="The careful player never slips, and wins from a composite start in one move. How often does "
        "the careless player win then?",
    )


@SPEC.check("proof-3")
def careless_first(answer: object, p: Params) -> Verdict:
    """If the careless player moves first, they win exactly when their first try is right: 1 - q = 0.75."""
    return expect_number(
        answer,
        0.75,
        tolerance=1e-9,
        misconceptions=[
            Misconception(
                "one",
                1,
                "That is the ask-again rule. Under book 004, what happens after a slip on the first turn?",
                "After a slip the careful player moves, from a composite number. Can the careless "
                "player still win then?",
            ),
            Misconception(
                "q",
                0.25,
                "0.25 is q, the chance of a slip. Does a slip on the first turn win or lose?",
                "A slip hands the careful player the turn, and the careful player never misses. "
                "So the careless player wins when the first try is NOT a slip.",
            ),
            Misconception(
                "average",
                0.375,
                "That is the average over all games. This question is only about the games the careless player starts.",
                "Only the careless player's first try matters in these games. What is the chance that it is right?",
            ),
        ],
        hint="They win only if their very first try is right. What is the chance of that when q = 0.25?",
        stronger="A slip happens with chance q = 0.25. What is the chance of NO slip?",
    )


# -- exercises -------------------------------------------------------------------------------------


@SPEC.check(1)
def long_run(answer: object, p: Params) -> Verdict:
    """The slip rate q with (1 - q)/2 = EX_RATE, so q = 1 - 2 * EX_RATE."""
    rate = float(p["ex_rate"])
    q = 1 - 2 * rate

    def near(x: float) -> Callable[[object], bool]:
        return lambda a: abs(float(a) - x) < 1e-9 and abs(x - q) > 1e-9  # type: ignore[arg-type]

    return expect_number(
        answer,
        q,
        tolerance=1e-9,
        misconceptions=[
            Misconception(
                "forward",
                near((1 - rate) / 2),
                "That puts EX_RATE into the formula (1 - q)/2 as if it were q. Here the win rate is "
                "given and q is unknown.",
                "Write (1 - q)/2 = EX_RATE and solve for q: first multiply both sides by 2.",
            ),
            Misconception(
                "no-halving",
                near(1 - rate),
                "That would be right if the careless player started every game. They start only half.",
                "The win rate is (1 - q)/2, not 1 - q. Solve (1 - q)/2 = EX_RATE.",
            ),
            Misconception(
                "no-slip",
                near(2 * rate),
                "That is 1 - q, the chance of NOT slipping. The question asks for q.",
                "You found 1 - q. Subtract it from 1.",
            ),
        ],
        hint="The long-run win rate is (1 - q)/2 (section 6). Which q makes it equal to EX_RATE?",
        stronger="Solve (1 - q)/2 = EX_RATE step by step: multiply both sides by 2, then find q.",
    )


@SPEC.check(2)
def count_p(answer: object, p: Params) -> Verdict:
    """The number of P-positions from 1 to UPTO."""
    upto = int(p["upto"])
    count = tabulate(get_rules(p["rules"]), upto).count_p()
    primes = int(sympy.primepi(upto))
    return expect_number(
        answer,
        count,
        misconceptions=[
            Misconception(
                "forgot-one",
                primes if primes != count else -1,
                "That counts the primes. Is there another number with no allowed divisor?",
                "Look at the smallest number of all: which divisors does it allow?",
            )
        ],
        hint="The P-positions are the numbers with no move. Which are they? Count them up to UPTO.",
        stronger="Every composite number wins in one move. So count the numbers up to UPTO that are not composite.",
    )


@SPEC.check(3)
def refused_start(answer: object, p: Params) -> Verdict:
    """The start Number Factor refuses among 28, 29, 30."""
    rules = get_rules(p["rules"])
    refused = []
    for n in (28, 29, 30):
        try:
            rules.check_start(n)
        except ValueError:
            refused.append(n)
    return expect_member(
        answer,
        refused,
        hint="Which of them has no allowed divisor? Then nobody could ever move, and nobody would be "
        "'the last player who moved'.",
        stronger="Write the divisors between 1 and N of 28, 29 and 30. One of the lists is empty.",
    )


@SPEC.check(4)
def ask_again_exact(answer: object, p: Params) -> Verdict:
    """ceil(G/2)/G for G = EX_GAMES: the careless player wins exactly the games they start."""
    games = int(p["ex_games"])
    exact = Fraction(math.ceil(games / 2), games)
    value: object = answer
    if isinstance(answer, Fraction):
        value = float(answer)
    if isinstance(answer, str) and "/" in answer:
        try:
            written = Fraction(answer.strip())
        except (ValueError, ZeroDivisionError):
            written = None
        if written == exact:
            return Verdict(
                "format",
                "Right idea to give a fraction: write it without quotes, like 3/5.",
                key="format:text-fraction",
            )
        value = float(written) if written is not None else answer
    return expect_number(
        value,
        float(exact),
        tolerance=1e-9,
        misconceptions=[
            Misconception(
                "half",
                0.5,
                "Exactly half only when the number of games is even. Count the games the careless player starts.",
                "Write the games out: 1st, 2nd, 3rd, ... Who starts each one? Who wins each one?",
            ),
            Misconception(
                "other-player",
                lambda a: abs(float(a) - (games // 2) / games) < 1e-9,
                "That is the share of the games the careful player starts.",
                "The careless player starts game 1, then every other game. Count those.",
            ),
        ],
        hint="Under the ask-again rule the careless player wins exactly the games they start. How many is that?",
        stronger="The careless player starts games 1, 3, 5, ... How many of those are there among EX_GAMES games?",
    )
