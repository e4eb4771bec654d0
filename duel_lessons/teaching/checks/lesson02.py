"""Lesson 02, "Can the first player always win?": checks and the reveal of the small starts.

Parameters: ``rules``, ``starts`` (the results table, the guess and exercise 3), ``reach_n`` (exercise 1),
``quick_win_n`` (exercise 2).
"""

from __future__ import annotations

from collections.abc import Callable

from duel_lessons.engine.game import new_game
from duel_lessons.engine.rules import Rules
from duel_lessons.solving.tables import Table
from duel_lessons.teaching.checks import LessonError, LessonSpec, Params, register
from duel_lessons.teaching.checks.common import compare_sets, listing, rules_of, stuck, table_of
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_whole,
    expect_list,
    expect_member,
    is_unanswered,
    plain,
    show,
    unanswered,
)
from duel_lessons.teaching.feedback import right as right_verdict
from duel_lessons.teaching.proofs import expect_counterexample

SPEC = register(LessonSpec("02", needs=("rules", "starts", "reach_n", "quick_win_n")))

# What the guess "first" discovers: the starts the first player loses from (8 and 9 among the defaults).
SPEC.discovers(
    "first",
    r"\b(8|9)\b[^.\n]{0,40}\b(lost|loses|losing)\b",
    r"\b(lost|loses|losing)\b[^.\n]{0,30}\bfrom\s+(8|9)\b",
    r"\bdoomed from (8|9)\b",
)

#: The counterexample hunt reads numbers up to this.
HUNT_LIMIT = 10**4


@SPEC.guess_form("first")
def first_form(value: object, p: Params) -> str | None:
    """The guess is a list of numbers from ``starts`` (an empty list says "none")."""
    starts = [int(n) for n in p["starts"]]
    value = plain(value)
    if isinstance(value, (list, tuple, set)) and all(type(n) is int and n in starts for n in value):
        return None
    return f"Guess a list of numbers from STARTS = {starts}, such as [{starts[0]}] (or [] for none)."


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
                "divisors",
                divisors,
                "Those are the divisors you may take away. Where does each move leave the number?",
                "A move from N to N − d. Work out N − d for each allowed divisor d: those are the"
                " numbers you can reach.",
            )
        ],
        hint=f"List the divisors you may use from {game.number}, then take each one away from {game.number}.",
        stronger="For each allowed divisor d, write down N − d. Check you used every allowed divisor once.",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """Exercise 1's model: every number one move away from ``reach_n``."""
    game = new_game(rules_of(p), int(p["reach_n"]))
    reached = [game.play(d).number for d in game.legal_moves]
    return reached, ", ".join(f"{game.number} − {d} = {game.play(d).number}" for d in game.legal_moves) + "."


def _quick_wins(p: Params) -> set[int]:
    rules = rules_of(p)
    n = int(p["quick_win_n"])
    return {
        d
        for d in rules.divisors_of(n)
        if stuck(rules, rules.result(n, d)) and rules.ends_on_reaching(rules.result(n, d)) != "loss"
    }


@SPEC.check(2)
def quick_win(answer: object, p: Params) -> Verdict:
    """A divisor from ``quick_win_n`` after which the opponent is stuck at once."""
    rules = rules_of(p)
    n = int(p["quick_win_n"])
    moves = rules.divisors_of(n)
    right = _quick_wins(p)
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
                "The answer is a divisor you take away, not the number left behind. Which divisor"
                " takes you to that number?",
            ),
            Misconception(
                "illegal",
                lambda a: isinstance(a, int) and a not in moves,
                f"That is not a move you may play from {n}. Which divisors are allowed?",
                "List the allowed divisors first (1 < d < N, d divides N). Your answer must be one of them.",
            ),
        ],
        hint="Which move leaves your opponent a number they cannot move from?",
        stronger="Try each allowed divisor: what number is left, and does that number have any allowed divisor?",
    )


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Exercise 2's model: a divisor that leaves the other player stuck at once."""
    rules, n = rules_of(p), int(p["quick_win_n"])
    d = min(_quick_wins(p))
    return d, f"{n} − {d} = {rules.result(n, d)}, and from {rules.result(n, d)} there is no allowed divisor."


def _starts_verdict(keys: object, p: Params) -> Verdict:
    """Whether ``keys`` are the starts in ``starts`` that the first player can always win."""
    starts = [int(n) for n in p["starts"]]
    right = first_player_wins(p)
    even = [n for n in starts if n % 2 == 0]
    lost = [n for n in starts if n not in right]
    return expect_list(
        keys,
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
                "Take each start with only one or two moves: list every move from it and every reply the other "
                "player has. Is there a start where every move of yours has a reply that leaves you stuck?",
            ),
            Misconception(
                "lost-starts",
                lost if lost else [-1],
                "Those are the starts where the first player LOSES. The question asks where the first player "
                "can always win.",
                "Read the question again: which starts can the first player always win? Not the ones they lose.",
            ),
        ],
        hint="Work up from small numbers. You win from a start if ONE of your moves leaves a number the other player "
        "loses from. You lose if EVERY move hands the other player a win.",
        stronger="Make a list from 2 upwards: next to each number write W (the player to move can win) or L. "
        "A number is W if some move reaches an L.",
    )


@SPEC.check(3)
def always_wins(answer: object, p: Params) -> Verdict:
    """The starts in ``starts`` that the first player can always win, each with a winning first move: ``{n: d}``.

    The reveal of the guess names the starts; the moves are the student's own work.
    """
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    wanted = "Give a dict: each start you can always win from, with a winning first move, like {start: divisor, ...}."
    if not isinstance(answer, dict):
        return Verdict("format", wanted, key="format:not-a-dict")
    keys = [as_whole(n) for n in answer]
    if any(n is None for n in keys):
        return Verdict("format", wanted, key="format:keys")
    starts = _starts_verdict(keys, p)
    if not starts.right:
        return starts
    rules = rules_of(p)
    table = table_of(p, max(int(n) for n in p["starts"]))
    for n, said in answer.items():
        d = as_whole(said)
        if is_unanswered(said):
            return Verdict("format", f"Fill in a first move for {n}.", key="format:move")
        if d is None:
            return Verdict(
                "format", f"Give one divisor for each start; for {n} you gave {show(said)}.", key="format:move"
            )
        if d not in rules.divisors_of(n):
            return Verdict(
                "misconception",
                f"{d} is not a move you may make from {n}.",
                f"The moves from {n} are its allowed divisors. Which of them is a good first move?",
                f"List the allowed divisors of {n}, and what each one leaves.",
                key="not-a-move",
            )
        m = rules.result(n, d)
        if not table.is_p(m):
            reply = table.winning_moves(m)[0]
            return Verdict(
                "partial",
                f"Right starts. But from {n}, taking {d} leaves {m}, and the other player answers {reply}, "
                f"leaving {rules.result(m, reply)}: then you lose.",
                f"From {n}, look for a move that leaves a number the other player LOSES from.",
                f"Try each move from {n}. For each number it leaves, can the other player hand you a losing number?",
                key=f"move:{n}:{d}",
            )
    return right_verdict("Each of your moves leaves a number the other player loses from.")


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """Exercise 3's model: the starts the first player can always win, each with a winning first move."""
    rules = rules_of(p)
    starts = [int(n) for n in p["starts"]]
    table = table_of(p, max(starts))
    right = first_player_wins(p)
    moves = {n: table.winning_moves(n)[0] for n in right}
    lost = [n for n in starts if n not in right]
    steps = ", ".join(f"{n} − {d} = {rules.result(n, d)}" for n, d in moves.items())
    why = f"{steps} leave a number the other player loses from"
    if lost:
        why += f"; {listing(lost)} {'is' if len(lost) == 1 else 'are'} lost: every move from there hands over a win"
    return moves, why + "."


# The proof that 8 is lost (Divisor Duel), put in order; B and E are the plausible wrong lines
# (labels shuffled: A..E in order is not the proof).


def _fails_at(table: Table, rules: Rules, n: int) -> bool:
    """Whether n is a win for the first player, but its biggest allowed divisor leaves a win for the other."""
    if stuck(rules, n):
        return False
    return not table.is_p(n) and not table.is_p(rules.result(n, rules.divisors_of(n)[-1]))


def _biggest_fails(p: Params) -> Callable[[int], bool]:
    """Whether the first player can win from n, but taking the biggest allowed divisor does not win."""
    rules = rules_of(p)
    return lambda n: 1 <= n <= HUNT_LIMIT and _fails_at(table_of(p, max(n, 64)), rules, n)


def _smallest_biggest_failure(p: Params) -> int:
    rules = rules_of(p)
    for top in (64, 1024, HUNT_LIMIT):
        table = table_of(p, top)
        found = next((n for n in range(1, top + 1) if _fails_at(table, rules, n)), None)
        if found is not None:
            return found
    raise LessonError(f"Taking the biggest divisor wins from every winning start up to {HUNT_LIMIT:,} here.")


@SPEC.check("proof-2")
def biggest_is_not_enough(answer: object, p: Params) -> Verdict:
    """The smallest start the first player can win, though taking the biggest divisor does not win there."""
    return expect_counterexample(
        answer,
        fails=_biggest_fails(p),
        smallest=_smallest_biggest_failure(p),
        claim="taking the biggest divisor wins there, or the first player cannot win from it at all",
        limit=HUNT_LIMIT,
        hint="Use what you know: for each start you can win from, where does the biggest divisor leave the "
        "other player, and can they win from there?",
        stronger="Go through the starts you can win from, smallest first. For each, take the biggest "
        "divisor, and ask whether the other player has a winning reply from the number left.",
    )


@SPEC.model("proof-2")
def model_proof_2(p: Params) -> tuple[object, str]:
    """The smallest counterexample to "the biggest divisor always wins", with a better move."""
    rules = rules_of(p)
    n = _smallest_biggest_failure(p)
    table = table_of(p, n)
    big = rules.divisors_of(n)[-1]
    good = table.winning_moves(n)[0]
    return n, (
        f"From {n} the biggest divisor {big} leaves {rules.result(n, big)}, which the other player can win from; "
        f"taking {good} instead leaves {rules.result(n, good)}, which they lose from."
    )
