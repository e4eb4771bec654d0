"""Lesson 02's unusual checks: a move that leaves the other player stuck (exercise 2: no declared formula keeps
the items of a list that pass a test), and a winning first move from each winning start (exercise 3, a dict).

Exercise 1, the guess, the proof questions, the parameters and the discoveries are declared in
``notebooks/02-play-divisor-duel.lesson.toml``.
"""

from __future__ import annotations

from duel_lessons.teaching.checks import LessonSpec, Params, register
from duel_lessons.teaching.checks.common import rules_of, stuck, table_of
from duel_lessons.teaching.declared.guesses import listing
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

SPEC = register(LessonSpec("02"))


def reached(p: Params, n: int) -> dict[int, int]:
    """Each allowed divisor from ``n``, with the number it leaves.

    >>> reached({"rules": "divisor-duel"}, 18)
    {2: 16, 3: 15, 6: 12, 9: 9}
    """
    rules = rules_of(p)
    return {d: rules.result(n, d) for d in rules.divisors_of(n)}


def sign(p: Params) -> str:
    """How the rule book writes a move: N − d, or N ÷ d (Division Duel, Number Factor).

    >>> sign({"rules": "divisor-duel"}), sign({"rules": "division-duel"})
    ('−', '÷')
    """
    return "÷" if rules_of(p).move == "divide" else "−"


def _quick_wins(p: Params) -> dict[int, int]:
    rules = rules_of(p)
    moves = reached(p, int(p["quick_win_n"]))
    return {d: m for d, m in moves.items() if stuck(rules, m) and rules.ends_on_reaching(m) != "loss"}


@SPEC.check(2)
def quick_win(answer: object, p: Params) -> Verdict:
    """A divisor from ``quick_win_n`` after which the opponent is stuck at once."""
    n, right = int(p["quick_win_n"]), _quick_wins(p)
    mistakes = [
        Misconception(
            "result",
            lambda a: a in right.values() and a not in right,
            "That is the number the move leaves. Which divisor do you use to get there?",
            "The answer is the divisor you use, not the number left behind. Which divisor takes you there?",
        ),
        Misconception(
            "illegal",
            lambda a: a not in reached(p, n),
            f"That is not a move you may play from {n}. Which divisors are allowed?",
            "List the allowed divisors first (1 < d < N, d divides N). Your answer must be one of them.",
        ),
    ]
    hint = "Which move leaves your opponent a number they cannot move from?"
    stronger = "Try each allowed divisor: what number is left, and does that number have any allowed divisor?"
    return expect_member(answer, right, what="divisor", misconceptions=mistakes, hint=hint, stronger=stronger)


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Exercise 2's model: a divisor that leaves the other player stuck at once."""
    n, (d, m) = int(p["quick_win_n"]), min(_quick_wins(p).items())
    return d, f"{n} {sign(p)} {d} = {m}, and from {m} there is no allowed divisor."


def _starts(keys: list[int], p: Params) -> Verdict:
    """Whether ``keys`` are the starts in ``starts`` that the first player can always win."""
    starts = [int(n) for n in p["starts"]]
    table = table_of(p, max(starts))
    right, lost = [n for n in starts if not table.is_p(n)], [n for n in starts if table.is_p(n)]
    mistakes = [
        Misconception(
            "even-wins",
            [n for n in starts if n % 2 == 0],
            "Every even start? Play one of them out carefully: list every move, and who wins after each.",
            "From an even start on your list, try every first move. Can the other player always answer "
            "so that you are stuck in the end?",
        ),
        Misconception(
            "all-win",
            starts,
            "Can the first player really win from every start? Try the ones with the fewest moves first, and "
            "check every move.",
            "Take each start with only one or two moves: list every move from it and every reply the other "
            "player has. Is there a start where every move of yours has a reply that leaves you stuck?",
        ),
        Misconception(
            "lost-starts",
            lost or [-1],
            "Those are the starts where the first player LOSES. The question asks where the first player "
            "can always win.",
            "Read the question again: which starts can the first player always win? Not the ones they lose.",
        ),
    ]
    hint = (
        "Work up from small numbers. You win from a start if ONE of your moves leaves a number the other player "
        "loses from. You lose if EVERY move hands the other player a win."
    )
    stronger = (
        "Make a list from 2 upwards: next to each number write W (the player to move can win) or L. "
        "A number is W if some move reaches an L."
    )
    return expect_list(keys, right, what="starts", misconceptions=mistakes, hint=hint, stronger=stronger)


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
    starts = _starts([int(n or 0) for n in keys], p)
    if not starts.right:
        return starts
    table = table_of(p, max(int(n) for n in p["starts"]))
    for n, said in zip(keys, answer.values(), strict=True):
        d, moves = as_whole(said), reached(p, int(n or 0))
        if is_unanswered(said) or d is None:
            told = "fill it in" if is_unanswered(said) else f"you gave {show(said)}"
            return Verdict("format", f"Give one divisor for each start; for {n}, {told}.", key="format:move")
        if d not in moves:
            return Verdict(
                "misconception",
                f"{d} is not a move you may make from {n}.",
                f"The moves from {n} are its allowed divisors. Which of them is a good first move?",
                f"List the allowed divisors of {n}, and what each one leaves.",
                key="not-a-move",
            )
        if not table.is_p(m := moves[d]):
            reply = table.winning_moves(m)[0]
            return Verdict(
                "partial",
                f"Right starts. But from {n}, taking {d} leaves {m}, and the other player answers {reply}, "
                f"leaving {reached(p, m)[reply]}: then you lose.",
                f"From {n}, look for a move that leaves a number the other player LOSES from.",
                f"Try each move from {n}. For each number it leaves, can the other player hand you a losing number?",
                key=f"move:{n}:{d}",
            )
    return right_verdict("Each of your moves leaves a number the other player loses from.")


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """Exercise 3's model: the starts the first player can always win, each with a winning first move."""
    starts = [int(n) for n in p["starts"]]
    table = table_of(p, max(starts))
    moves = {n: table.winning_moves(n)[0] for n in starts if not table.is_p(n)}
    lost = [n for n in starts if n not in moves]
    why = ", ".join(f"{n} {sign(p)} {d} = {reached(p, n)[d]}" for n, d in moves.items())
    why += " leave a number the other player loses from"
    if lost:
        why += f"; {listing(lost)} {'is' if len(lost) == 1 else 'are'} lost: every move from there hands over a win"
    return moves, why + "."
