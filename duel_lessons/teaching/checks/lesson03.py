"""Lesson 03, "Which numbers would you like to hand your opponent?": the checks its declarations
(``03-winning-and-losing-positions.lesson.toml``) cannot express.

- exercise 2: a pair (d, r), the best move from ``remote_n`` (the winner hurries, the loser delays) and its
  remoteness, told apart from the move alone, the remoteness alone and the rule the other way round;
- exercise 3: a P-position n ≥ ``defend_from`` with two or more moves, defended by a reply to each: ``(n, {d: e})``.
"""

from __future__ import annotations

from collections.abc import Mapping

from duel_lessons.teaching.checks import LessonError, LessonSpec, Params, register
from duel_lessons.teaching.checks.common import rules_of, table_of
from duel_lessons.teaching.declared.guesses import listing
from duel_lessons.teaching.feedback import Verdict, as_whole, is_unanswered, plain, right, unanswered

SPEC = register(LessonSpec("03"))
#: The largest number exercise 3 reads.
LIMIT = 10**4


def _best(p: Params) -> tuple[int, list[int], int, int]:
    """From ``remote_n``: its remoteness, the best moves (the winner hurries, the loser delays), the
    remoteness the other rule (hurry for delay) would give, and the remoteness after the best move."""
    rules, n = rules_of(p), int(p["remote_n"])
    table = table_of(p, n)
    value = int(table.remoteness[n])
    moves = list(rules.divisors_of(n)) if rules.ends_on_reaching(n) is None else []
    after = {d: int(table.remoteness[rules.result(n, d)]) for d in moves}
    if not after:
        return value, [], value, 0
    if table.is_p(n):
        top = max(after.values())
        best = [d for d in moves if after[d] == top]
        wrong_way = 1 + min(after.values())
    else:
        good = {d: after[d] for d in table.winning_moves(n)}
        top = min(good.values())
        best = [d for d in good if good[d] == top]
        wrong_way = 1 + max(after.values())
    return value, best, wrong_way, top


@SPEC.check(2)
def remoteness(answer: object, p: Params) -> Verdict:
    """The best move from ``remote_n`` (the winner hurries, the loser delays) and its remoteness: ``(d, r)``."""
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    rules, n = rules_of(p), int(p["remote_n"])
    value, best, wrong_way, _ = _best(p)
    wanted = f"Give a pair (d, r): the divisor d you take from {n} and the remoteness r of {n}."
    if not isinstance(answer, (tuple, list)) or len(answer) != 2:
        return Verdict("format", wanted, key="format:pair")
    d, r = as_whole(answer[0]), as_whole(answer[1])
    if r is None or (d is None and answer[0] is not None):
        return Verdict("format", wanted, key="format:pair")
    hurry = "The winner hurries, the loser delays."
    if not best:
        if d is None and r == value:
            return right(f"{n} has no move: nothing is left to play.")
        return Verdict("miss", f"Which moves does {n} have?", "List the divisors you may take from it.", key="none")
    if d is None or d not in rules.divisors_of(n):
        message = f"{'That' if d is None else d} is not a move you may make from {n}."
        hint = f"The first number is the divisor you take away from {n}. Which divisors are allowed?"
        stronger = f"List the allowed divisors of {n}; your move is one of them."
        return Verdict("misconception", message, hint, stronger, key="not-a-move")
    if d in best and r == value:
        return right("The remoteness is 1 + the remoteness of the number your best move reaches.")
    if d in best:
        message = "That is the right move. Now the remoteness: how many moves are left, counting this one?"
        hint = "The remoteness is 1 + the remoteness of the number your move reaches."
        stronger = "Look up the remoteness of the number your move leaves, and add 1 for the move itself."
        return Verdict("partial", message, hint, stronger, key="move-only")
    if r == value:
        message = "The remoteness is right, but that move is not the one that gives it."
        stronger = "Find the move whose result has the remoteness you used."
        hint = f"Is the player to move winning or losing here? {hurry}"
        return Verdict("partial", message, hint, stronger, key="remoteness-only")
    if wrong_way != value and r == wrong_way:
        return Verdict(
            "misconception",
            f"Who is to move at this number: the winner or the loser? {hurry}",
            "Decide first whether the player to move wins or loses here; then take the smallest (winner) "
            "or the largest (loser) remoteness of the numbers reached, as the rules of section 8 say.",
            "Winner: among the moves to a P-position, the one with the smallest remoteness. Loser: the move "
            "with the largest remoteness.",
            key="hurry-delay",
        )
    stronger = (
        "Write the moves from this number, with the remoteness of each number reached. Is the player to "
        "move winning or losing? Then take the smallest or the largest, and add 1."
    )
    hint = f"Is the player to move winning or losing? {hurry}"
    return Verdict("miss", f"Your answer was ({d}, {r}).", hint, stronger, key=f"miss:{d}:{r}")


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Exercise 2's model: the best move from ``remote_n`` and its remoteness, by the hurry/delay rule."""
    rules, n = rules_of(p), int(p["remote_n"])
    value, best, _, top = _best(p)
    if not best:
        return (None, value), f"{n} has no move: remoteness {value}."
    d, m = best[0], rules.result(n, best[0])
    if table_of(p, n).is_p(n):
        why = f"{n} is P, so the loser delays: {n} − {d} = {m} has the largest remoteness, {top}"
    else:
        why = f"{n} is N, so the winner hurries: {n} − {d} = {m} is the P-position with the smallest remoteness, {top}"
    return (d, value), f"{why}; 1 + {top} = {value}."


# -- exercise 3: defend a P-position, move by move --------------------------------------------------------------


@SPEC.check(3)
def defend(answer: object, p: Params) -> Verdict:
    """A P-position n ≥ ``defend_from`` with two or more moves, and a reply to each move: ``(n, {d: e})``."""
    rules, start = rules_of(p), int(p["defend_from"])
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    if not isinstance(answer, (tuple, list)) or len(answer) != 2 or not isinstance(answer[1], Mapping):
        message = "Give a pair: the number and a dict of replies, like (n, {2: 3, 4: 7})."
        return Verdict("format", message, key="format:pair")
    n, replies = as_whole(answer[0]), answer[1]
    if n is None or not start <= n <= LIMIT:
        return Verdict("format", f"The number is a whole number from {start} to {LIMIT:,}.", key="format:range")
    table, moves = table_of(p, n), rules.divisors_of(n)
    if not table.is_p(n):
        message = f"{n} is an N-position: the player to move from {n} can win, so no defence of it works."
        hint = "You are defending the number you hand over: it must be one where the player to move loses."
        stronger = "Pick a number the hundred square shows as P (dark), not N."
        return Verdict("misconception", message, hint, stronger, key="not-p")
    if len(moves) < 2:
        message = f"{n} has {len(moves)} move{'' if len(moves) == 1 else 's'}: pick a P-position with at least two."
        return Verdict("format", message, key="format:few-moves")
    keys = [as_whole(d) for d in replies]
    if any(d is None for d in keys):
        return Verdict("format", "The keys of the dict are your opponent's divisors: whole numbers.", key="format:keys")
    strange = [d for d in keys if d not in moves]
    if strange:
        message = f"{strange[0]} is not a move from {n}: the keys are the divisors your opponent may take."
        return Verdict("format", message, key="format:not-a-move")
    for d in (d for d in moves if d in keys):
        m, e = rules.result(n, d), as_whole(replies[d])
        if e is None or e not in rules.divisors_of(m) or rules.ends_on_reaching(m) is not None:
            message = f"After {n} − {d} = {m}, your reply {plain(replies[d])!r} is not an allowed move from {m}."
            stronger = (
                f"From {m}, which allowed divisors are there? Try each, and look up where it leaves your opponent."
            )
            return Verdict(
                "misconception", message, f"List the divisors you may take from {m}.", stronger, key=f"illegal:{d}"
            )
        left = rules.result(m, e)
        if not table.is_p(left):
            message = (
                f"After {n} − {d} = {m} and your reply, {left} is left, and the player to move from {left} can win."
            )
            hint = f"Your reply must hand back a P-position. Which moves from {m} do that?"
            stronger = f"Go through the moves from {m}: for each, is the number left a P-position?"
            return Verdict("misconception", message, hint, stronger, key=f"reply:{d}:{left}")
    missing = [d for d in moves if d not in keys]
    if missing:
        message = f"Your replies work, but your opponent could also take {listing(missing)}: answer "
        message += f"{'that move' if len(missing) == 1 else 'those moves'} too."
        hint = f"List every allowed divisor of {n}: each is a move your opponent might make."
        return Verdict("partial", message, hint, key=f"missing:{missing}")
    return right(f"So {n} is a P-position: whatever your opponent does, you hand a P-position back.")


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """Exercise 3's model: the smallest P-position from ``defend_from`` up with two or more moves (so defending it
    takes some work), with a winning reply to each move."""
    rules, table = rules_of(p), table_of(p, LIMIT)
    fits = (n for n in range(int(p["defend_from"]), LIMIT + 1) if table.is_p(n) and len(rules.divisors_of(n)) >= 2)
    n = next((n for n in fits if rules.ends_on_reaching(n) is None), None)
    if n is None:
        raise LessonError(
            f"No P-position with two or more moves from {p['defend_from']} to {LIMIT:,} under these rules."
        )
    replies = {d: table.winning_moves(rules.result(n, d))[0] for d in rules.divisors_of(n)}
    steps = (
        f"{n} − {d} = {rules.result(n, d)}, then − {e} = {rules.result(rules.result(n, d), e)} (P)"
        for d, e in replies.items()
    )
    return (n, replies), "; ".join(steps) + "."
