"""Checks for lesson 07, "Which rules of Number Factor matter?" (book 004).

The seeded simulation the lesson runs lives in :mod:`duel_lessons.play.careless`.

>>> p = {"rules": "number-factor", "start": 30, "upto": 100, "ex_rate": 0.3, "ex_games": 7}
>>> SPEC.checks["1"](0.4, p).kind, SPEC.checks["1"]("40%", p).kind, SPEC.checks["1"](0.35, p).kind
('right', 'format', 'misconception')
>>> SPEC.checks["2"](0.5, p).kind
'misconception'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    expect_number,
    show,
)
from duel_lessons.teaching.proofs import expect_expression

SPEC = register(
    LessonSpec(
        "07",
        needs=("rules", "start", "upto", "ex_rate", "ex_games"),
        offers={"start": (60, 100), "upto": (10, 1000), "ex_rate": (0.1, 0.25, 0.45), "ex_games": (5, 11)},
    )
)

#: The slip rate of the prediction in section 5 (the prose asks about q = 0.5).
PREDICT_Q = Fraction(1, 2)

# -- what the students discover (nothing before its reveal may say it) ----------------------------------

SPEC.discovers(
    "rules",
    r"none of (them|the (three |four )?rules) (matters?|changes?)",
    r"\(a\) (can )?never (fires?|happens?)",
    r"\bnever fires\b",
    r"same (player|winner) as (in )?Division Duel",
)
SPEC.discovers(
    "careless",
    r"\(\s*1\s*[-−]\s*q\s*\)\s*/\s*2",
    r"\\t?frac\s*\{\s*1\s*[-−]\s*q\s*\}\s*\{\s*2\s*\}",
    r"half of 1\s*[-−]\s*q",
    r"wins? (about |exactly )?(0\.25|a quarter|25 ?%) of",
)


# -- guesses ---------------------------------------------------------------------------------------

RULE_LETTERS = ("a", "b", "c")


@SPEC.guess_form("rules")
def rules_form(value: object, p: Params) -> str | None:
    """A list of the letters a, b, c (or [] for none)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple, set)):
        return 'Give a list of letters, like ["a", "c"], or [] for none.'
    letters = [x.strip().lower() for x in value if isinstance(x, str)]
    if len(letters) != len(value) or any(x not in RULE_LETTERS for x in letters):
        return 'Each item is one of the letters "a", "b", "c", in quotes.'
    return None


@SPEC.guess_form("careless")
def careless_form(value: object, p: Params) -> str | None:
    """A number from 0 to 1."""
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
        return "Give a number from 0 to 1, like 0.3 (no quotes)."
    if not 0 <= value <= 1:
        return f"A fraction of the games is between 0 and 1, not {show(value)}."
    return None


@SPEC.reveal("rules")
def which_rules(guess: object, p: Params) -> str:
    """Which of the three rules change who wins between perfect players: none."""
    items = list(guess) if isinstance(guess, (list, tuple, set)) else [guess]
    chosen = sorted({str(x).strip().lower() for x in items})
    opening = "You were right: " if chosen == [] else f"You picked {chosen}. In fact "
    return (
        opening + "none of the three rules changes who wins between perfect players. (a) never fires: no move "
        "leaves 1 (section 3). (b) hands the win to the same player as Division Duel (section 4). (c) fires only "
        "when someone names a wrong number. A perfect player has no reason to do that on purpose in Number Factor "
        "(from a composite number they win at once; facing a prime they must pass anyway, which is all a lost turn "
        'does), and the book forbids it: *"if a player violates the rules intentionally, they forfeit the game"*. '
        "In a game where a lost turn could help a losing player, only that forfeit rule would keep (c) out of "
        "perfect play. Rule (c) matters for careless players: section 5."
    )


@SPEC.reveal("careless")
def careless(guess: object, p: Params) -> str:
    """The prediction for q = 1/2 against the long-run rate (1 - q)/2."""
    truth = float((1 - PREDICT_Q) / 2)
    value = float(guess)  # type: ignore[arg-type]  # the guess form admits numbers only
    gap = abs(value - truth)
    closeness = "spot on" if gap < 0.01 else "close" if gap < 0.06 else "some way off"
    return (
        f"You predicted {value:g}; in the long run the careless player wins {truth:g} of the games when "
        f"q = {float(PREDICT_Q):g} ({closeness}). The simulation above wobbles around that value. "
        "The next cells explain why."
    )


# -- proof steps -----------------------------------------------------------------------------------

Q_CASES = [{"q": 0}, {"q": 1}, {"q": 2}, {"q": 3}]


def _expression(
    answer: object, target: str, known: Sequence[tuple[str, str, str, str]], hint: str, stronger: str
) -> Verdict:
    """An expression in q checked by sympy; ``known`` holds (key, wrong expression, hint, stronger hint)."""
    return expect_expression(
        answer,
        target,
        names=["q"],
        cases=Q_CASES,
        hint=hint,
        stronger=stronger,
        misconceptions=[Misconception(key, wrong, h, st) for key, wrong, h, st in known],
    )


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
            ),
            Misconception(
                "from-15",
                3,
                "3 is the smallest result from 15. The question is about every start: could another start leave less?",
                "The proof says the result is a whole number bigger than 1. Which is the smallest such number?",
            ),
        ],
        hint="Which is the smallest whole number that is bigger than 1?",
        stronger="Try N = 2 × 3: divide by 3. How small can the result of a move be?",
    )


@SPEC.model("proof-1")
def model_proof_1(p: Params) -> tuple[object, str]:
    """The smallest result of a move."""
    return 2, "N ÷ d is a whole number bigger than 1, so it is at least 2: no move reaches 1"


@SPEC.check("proof-2")
def careless_first(answer: object, p: Params) -> Verdict:
    """If the careless player moves first, they win exactly when their first try is right: 1 - q."""
    return _expression(
        answer,
        "1 - q",
        [
            (
                "q",
                "q",
                "q is the chance of a slip. Does a slip on the first turn win or lose?",
                "A slip hands the careful player the turn, and the careful player never misses. So the careless "
                "player wins when the first try is NOT a slip.",
            ),
            (
                "one",
                "1",
                "That is the ask-again rule. Under book 004, what happens after a slip on the first turn?",
                "After a slip the careful player moves from a composite number. Can the careless player still win?",
            ),
            (
                "average",
                "(1 - q)/2",
                "That is the average over all games. This question is only about the games the careless player starts.",
                "Only the careless player's first try matters in these games. What is the chance it is right?",
            ),
        ],
        hint="They win only if their very first try is right. Write the chance of that using q.",
        stronger="A slip happens with chance q. What is the chance of NO slip? (For q = 0 it is 1; for q = 1, 0.)",
    )


@SPEC.model("proof-2")
def model_proof_2(p: Params) -> tuple[object, str]:
    """The careless player's chance in the games they start."""
    return "1 - q", (
        "a right first try (chance 1 − q) leaves a prime and wins; a slip hands the careful player a "
        "composite number, from which they win at once"
    )


@SPEC.check("proof-3")
def long_run_formula(answer: object, p: Params) -> Verdict:
    """Half the games each way: (1/2)·0 + (1/2)·(1 - q)."""
    return _expression(
        answer,
        "(1 - q)/2",
        [
            (
                "no-halving",
                "1 - q",
                "That is the chance in the games the careless player starts. They start only half of the games.",
                "In the other half the careful player starts, and the careless player never wins those. Average the "
                "two halves.",
            ),
            (
                "half-q",
                "q/2",
                "q is the chance of a slip, not of a right move.",
                "Which is the careless player's chance in the games they start? Use that, not q.",
            ),
            (
                "subtract",
                "1/2 - q",
                "Check q = 1: the careless player always slips and wins no game. What does your expression give?",
                "Half the games give 0; the other half give the chance from the question before. Average them.",
            ),
        ],
        hint="Half of the games the careful player starts (the careless player wins none of them); in the other half "
        "the careless player's chance is your answer above. Average the two halves.",
        stronger="Average of 0 and (your answer above): add them and divide by 2.",
    )


@SPEC.model("proof-3")
def model_proof_3(p: Params) -> tuple[object, str]:
    """The long-run win rate."""
    return "(1 - q)/2", "half the games give 0 (the careful player starts), the other half 1 − q: (0 + (1 − q))/2"


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
        hint="Use the long-run win rate you found in section 6. Which q makes it equal to EX_RATE?",
        stronger="Set your long-run formula equal to EX_RATE and solve step by step: multiply both sides by 2, then "
        "find q.",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """q = 1 - 2 * EX_RATE."""
    rate = float(p["ex_rate"])
    q = round(1 - 2 * rate, 12)
    return q, f"(1 − q)/2 = {rate:g} gives 1 − q = {2 * rate:g}, so q = {q:g}"


def _exact(p: Params) -> Fraction:
    games = int(p["ex_games"])
    return Fraction(games // 2, games)


@SPEC.check(2)
def ask_again_exact(answer: object, p: Params) -> Verdict:
    """floor(G/2)/G for G = EX_GAMES, the careful player first: the careless player wins exactly the games they start.

    (``simulate`` lets the careless player start game 1, so its ask-again rate is not this answer for an odd G.)
    """
    games = int(p["ex_games"])
    exact = _exact(p)
    value: object = answer
    if isinstance(answer, Fraction):
        value = float(answer)
    if isinstance(answer, str):  # the same words whether or not the text is right: a slip confirms nothing
        return Verdict(
            "format",
            "Give a number, not text: no quotes (a fraction such as 3/5 works without them).",
            key="format:text",
        )
    return expect_number(
        value,
        float(exact),
        tolerance=1e-9,
        misconceptions=[
            Misconception(
                "half",
                lambda a: abs(float(a) - 0.5) < 1e-9 and games % 2 == 1,
                "Exactly half only when the number of games is even. Count the games the careless player starts.",
                "Write the games out: 1st, 2nd, 3rd, ... Who starts each one? Who wins each one?",
            ),
            Misconception(
                "careless-first",
                lambda a: abs(float(a) - (games - games // 2) / games) < 1e-9 and games % 2 == 1,
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
    exact = _exact(p)
    started = list(range(2, games + 1, 2))
    return exact, (
        f"the careful player starts game 1; the careless player starts games {', '.join(map(str, started))} "
        f"and wins exactly those: {len(started)}/{games}" + (f" = {exact}" if exact.denominator != games else "")
    )
