"""Lesson 03, "Which numbers would you like to hand your opponent?": P, N, backward induction, remoteness.

Parameters: ``rules``, ``hand_limit`` (the table by hand), ``upto`` (the computer's table and conjectures),
``candidates`` (the guess), ``move_from`` (exercise 1), ``remote_n`` (exercise 2), ``defend_from`` (exercise 3:
a P-position from here up, defended move by move).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from duel_lessons.engine.rules import Rules
from duel_lessons.solving.tables import Table
from duel_lessons.teaching.checks import LessonError, LessonSpec, Params, register
from duel_lessons.teaching.checks.common import compare_sets, listing, rules_of, table_of
from duel_lessons.teaching.feedback import (
    Misconception,
    Verdict,
    as_whole,
    expect_list,
    expect_table,
    is_unanswered,
    plain,
    right,
    unanswered,
)
from duel_lessons.teaching.proofs import expect_counterexample

SPEC = register(
    LessonSpec(
        "03",
        needs=("rules", "hand_limit", "upto", "candidates", "move_from", "remote_n", "defend_from"),
        offers={"rules": ("factor-duel",)},
    )
)

# What the guess "hand" discovers: which candidates are P-positions, and the pattern behind them.
SPEC.discovers(
    "hand",
    r"\bodd\b",
    r"n\s*%\s*2\s*==\s*1",
    r"\b(15|21|32)\s+(is|are)\s+(an?\s+)?P\b",
    r"\b(15|21|32)\s*\(P\)",
    r"\b(15|21|32):\s*P\b",
)

#: The largest number exercise 4 and the counterexample hunt read.
LIMIT = 10**4


@SPEC.truth("loses", yes="loses (P)", no="wins (N)", reach=10**4)
def loses(p: Params) -> Callable[[int], bool]:
    """Whether the player to move from n loses (the solver's table)."""
    table = table_of(p, max(int(p["upto"]), 10**4))
    return table.is_p


@SPEC.guess_form("hand")
def hand_form(value: object, p: Params) -> str | None:
    """The guess is a list of numbers from ``candidates`` (an empty list says "none of them")."""
    pool = [int(n) for n in p["candidates"]]
    value = plain(value)
    if isinstance(value, (list, tuple, set)) and all(type(n) is int and n in pool for n in value):
        return None
    return f"Guess a list of numbers from CANDIDATES = {pool}, such as [{pool[0]}] (or [] for none)."


@SPEC.reveal("hand")
def hand_reveal(guess: object, p: Params) -> str:
    """Which candidates are P-positions, compared with the guess."""
    pool = [int(n) for n in p["candidates"]]
    table = table_of(p, max(pool))
    truth = [n for n in pool if table.is_p(n)]
    guess = plain(guess)
    listed = [n for n in guess if type(n) is int] if isinstance(guess, (list, tuple, set)) else []
    return (
        f"You want to hand your opponent a P-position. Among {listing(pool)}, the P-positions are "
        f"**{listing(truth)}**.\n\n{compare_sets(listed, truth, pool)}\n\n"
        "Does that fit the pattern you see in the hundred square?"
    )


def _hand_table(p: Params) -> dict[int, str]:
    limit = int(p["hand_limit"])
    table = table_of(p, limit)
    return {n: table.outcome_of(n) for n in range(1, limit + 1)}


@SPEC.check("table", label="Your table")
def by_hand(answer: object, p: Params) -> Verdict:
    """The table {n: "P" or "N"} for n = 1 .. hand_limit."""
    return expect_table(
        answer,
        _hand_table(p),
        hint="For that number, list every move. N if SOME move reaches a P; P if EVERY move reaches an N "
        "(or there is no move at all).",
        stronger="Check the numbers it can move to first: are their letters right? Then use the two rules.",
    )


@SPEC.model("table")
def model_table(p: Params) -> tuple[object, str]:
    """The by-hand table, with the first N-position's reason."""
    rules = rules_of(p)
    table = table_of(p, int(p["hand_limit"]))
    outcome = _hand_table(p)
    first_n = next((n for n, x in outcome.items() if x == "N" and table.winning_moves(n)), None)
    if first_n is None:
        return outcome, "Every number here is a P-position."
    d = table.winning_moves(first_n)[0]
    return outcome, f"For example {first_n} is N: {first_n} − {d} = {rules.result(first_n, d)} is P."


@SPEC.check(1)
def winning_moves(answer: object, p: Params) -> Verdict:
    """The winning moves from ``move_from``."""
    rules, n = rules_of(p), int(p["move_from"])
    table = table_of(p, n)
    right_moves = list(table.winning_moves(n))
    reached = [rules.result(n, d) for d in right_moves]
    return expect_list(
        answer,
        right_moves,
        what="winning moves",
        misconceptions=[
            Misconception(
                "results",
                lambda a: isinstance(a, list) and bool(a) and set(a) <= set(reached) and not set(a) & set(right_moves),
                "That is where a move leaves the number. Give the divisors you take away.",
                "The answer is the divisor d you subtract, not the number left. For each "
                "P-position you listed, which d gets you there?",
            )
        ],
        hint=f"List {n} - d for every divisor d you may use, and keep the moves whose result is a P-position.",
        stronger=f"Write a line for each allowed divisor d: d, then {n} − d, then P or N from your "
        f"table. Keep the d whose result is P.",
    )


@SPEC.model(1)
def model_1(p: Params) -> tuple[object, str]:
    """Exercise 1's model: the winning moves from ``move_from``, and where the others lead."""
    rules, n = rules_of(p), int(p["move_from"])
    table = table_of(p, n)
    good = list(table.winning_moves(n))
    others = [rules.result(n, d) for d in rules.divisors_of(n) if d not in good]
    wins = ", ".join(f"{n} − {d} = {rules.result(n, d)}" for d in good)
    return (
        good,
        f"{wins} {'is' if len(good) == 1 else 'are'} P; {listing(others)} {'is' if len(others) == 1 else 'are'} N.",
    )


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
    if not best:
        if d is None and r == value:
            return right(f"{n} has no move: nothing is left to play.")
        return Verdict("miss", f"Which moves does {n} have?", "List the divisors you may take from it.", key="none")
    if d is None or d not in rules.divisors_of(n):
        return Verdict(
            "misconception",
            f"{show_whole(answer[0])} is not a move you may make from {n}.",
            f"The first number is the divisor you take away from {n}. Which divisors are allowed?",
            f"List the allowed divisors of {n}; your move is one of them.",
            key="not-a-move",
        )
    if d in best and r == value:
        return right("The remoteness is 1 + the remoteness of the number your best move reaches.")
    if d in best:
        return Verdict(
            "partial",
            "That is the right move. Now the remoteness: how many moves are left, counting this one?",
            "The remoteness is 1 + the remoteness of the number your move reaches.",
            "Look up the remoteness of the number your move leaves, and add 1 for the move itself.",
            key="move-only",
        )
    if r == value:
        return Verdict(
            "partial",
            "The remoteness is right, but that move is not the one that gives it.",
            "Is the player to move winning or losing here? The winner hurries, the loser delays.",
            "Find the move whose result has the remoteness you used.",
            key="remoteness-only",
        )
    if wrong_way != value and r == wrong_way:
        return Verdict(
            "misconception",
            "Who is to move at this number: the winner or the loser? The winner hurries, the loser delays.",
            "Decide first whether the player to move wins or loses here; then take the smallest (winner) "
            "or the largest (loser) remoteness of the numbers reached, as the rules of section 8 say.",
            "Winner: among the moves to a P-position, the one with the smallest remoteness. Loser: the move "
            "with the largest remoteness.",
            key="hurry-delay",
        )
    return Verdict(
        "miss",
        f"Your answer was ({d}, {r}).",
        "Is the player to move winning or losing? The winner hurries, the loser delays.",
        "Write the moves from this number, with the remoteness of each number reached. Is the player to "
        "move winning or losing? Then take the smallest or the largest, and add 1.",
        key=f"miss:{d}:{r}",
    )


def show_whole(value: object) -> str:
    """A short way to name an answer part in a message."""
    number = as_whole(value)
    return str(number) if number is not None else "That"


@SPEC.model(2)
def model_2(p: Params) -> tuple[object, str]:
    """Exercise 2's model: the best move from ``remote_n`` and its remoteness, by the hurry/delay rule."""
    rules, n = rules_of(p), int(p["remote_n"])
    value, best, _, top = _best(p)
    table = table_of(p, n)
    if not best:
        return (None, value), f"{n} has no move: remoteness {value}."
    d = best[0]
    m = rules.result(n, d)
    if table.is_p(n):
        why = f"{n} is P, so the loser delays: {n} − {d} = {m} has the largest remoteness, {top}"
    else:
        why = f"{n} is N, so the winner hurries: {n} − {d} = {m} is the P-position with the smallest remoteness, {top}"
    return (d, value), f"{why}; 1 + {top} = {value}."


# -- exercise 3: defend a P-position, move by move --------------------------------------------------------------


def _defensible(table: Table, rules: Rules, n: int) -> bool:
    """Whether n is a P-position with at least two moves (so defending it takes some work)."""
    return table.is_p(n) and len(rules.divisors_of(n)) >= 2 and rules.ends_on_reaching(n) is None


def _reply(table: Table, rules: Rules, m: int, e: object) -> int | None:
    """The number left after the reply e from m, or None if e is not an allowed divisor there."""
    e = as_whole(e)
    if e is None or e not in rules.divisors_of(m) or rules.ends_on_reaching(m) is not None:
        return None
    return rules.result(m, e)


@SPEC.check(3)
def defend(answer: object, p: Params) -> Verdict:
    """A P-position n ≥ ``defend_from`` with two or more moves, and a reply to each move: ``(n, {d: e})``."""
    rules, start = rules_of(p), int(p["defend_from"])
    answer = plain(answer)
    if is_unanswered(answer):
        return unanswered()
    example = "(n, {2: 3, 4: 7})"
    if not isinstance(answer, (tuple, list)) or len(answer) != 2 or not isinstance(answer[1], Mapping):
        return Verdict("format", f"Give a pair: the number and a dict of replies, like {example}.", key="format:pair")
    n = as_whole(answer[0])
    replies = answer[1]
    if n is None or not start <= n <= LIMIT:
        return Verdict("format", f"The number is a whole number from {start} to {LIMIT:,}.", key="format:range")
    table = table_of(p, n)
    moves = rules.divisors_of(n)
    if not table.is_p(n):
        return Verdict(
            "misconception",
            f"{n} is an N-position: the player to move from {n} can win, so no defence of it works.",
            "You are defending the number you hand over: it must be one where the player to move loses.",
            "Pick a number the hundred square shows as P (dark), not N.",
            key="not-p",
        )
    if len(moves) < 2:
        return Verdict(
            "format",
            f"{n} has {len(moves)} move{'' if len(moves) == 1 else 's'}: pick a P-position with at least two.",
            key="format:few-moves",
        )
    keys = [as_whole(d) for d in replies]
    if any(d is None for d in keys):
        return Verdict("format", "The keys of the dict are your opponent's divisors: whole numbers.", key="format:keys")
    strange = [d for d in keys if d not in moves]
    if strange:
        return Verdict(
            "format",
            f"{strange[0]} is not a move from {n}: the keys are the divisors your opponent may take.",
            key="format:not-a-move",
        )
    for d in moves:
        if d not in keys:
            continue
        m = rules.result(n, d)
        left = _reply(table, rules, m, replies[d])
        if left is None:
            return Verdict(
                "misconception",
                f"After {n} − {d} = {m}, your reply {plain(replies[d])!r} is not an allowed move from {m}.",
                f"List the divisors you may take from {m}.",
                f"From {m}, which allowed divisors are there? Try each, and look up where it leaves your opponent.",
                key=f"illegal:{d}",
            )
        if not table.is_p(left):
            return Verdict(
                "misconception",
                f"After {n} − {d} = {m} and your reply, {left} is left, and the player to move from {left} can win.",
                f"Your reply must hand back a P-position. Which moves from {m} do that?",
                f"Go through the moves from {m}: for each, is the number left a P-position?",
                key=f"reply:{d}:{left}",
            )
    missing = [d for d in moves if d not in keys]
    if missing:
        return Verdict(
            "partial",
            f"Your replies work, but your opponent could also take {listing(missing)}: answer "
            f"{'that move' if len(missing) == 1 else 'those moves'} too.",
            f"List every allowed divisor of {n}: each is a move your opponent might make.",
            key=f"missing:{missing}",
        )
    return right(f"So {n} is a P-position: whatever your opponent does, you hand a P-position back.")


def _smallest_defence(p: Params) -> int:
    rules, start = rules_of(p), int(p["defend_from"])
    for top in (max(start, 2) * 4, LIMIT):
        table = table_of(p, top)
        found = next((n for n in range(start, top + 1) if _defensible(table, rules, n)), None)
        if found is not None:
            return found
    raise LessonError(f"No P-position with two or more moves from {start} to {LIMIT:,} under these rules.")


@SPEC.model(3)
def model_3(p: Params) -> tuple[object, str]:
    """Exercise 3's model: the smallest defensible P-position, with a winning reply to each move."""
    rules = rules_of(p)
    n = _smallest_defence(p)
    table = table_of(p, n)
    replies = {d: table.winning_moves(rules.result(n, d))[0] for d in rules.divisors_of(n)}
    steps = "; ".join(
        f"{n} − {d} = {rules.result(n, d)}, then − {e} = {rules.result(rules.result(n, d), e)} (P)"
        for d, e in replies.items()
    )
    return (n, replies), steps + "."


# -- the proof: P-positions have even remoteness ----------------------------------------------------------------


def _every_move_to_p_fails(p: Params) -> Callable[[int], bool]:
    """Whether n is an N-position with a move to another N-position (so not EVERY move reaches P)."""
    rules = rules_of(p)

    def fails(n: int) -> bool:
        if not 1 <= n <= LIMIT or rules.ends_on_reaching(n) is not None:
            return False
        table = table_of(p, max(n, 64))
        return not table.is_p(n) and any(not table.is_p(rules.result(n, d)) for d in rules.divisors_of(n))

    return fails


def _smallest_every_move(p: Params) -> int:
    fails = _every_move_to_p_fails(p)
    return next(n for n in range(1, LIMIT + 1) if fails(n))


@SPEC.check("proof-2")
def every_move(answer: object, p: Params) -> Verdict:
    """The smallest N-position with a move to an N-position: the false lemma "every move from N reaches P"."""
    return expect_counterexample(
        answer,
        fails=_every_move_to_p_fails(p),
        smallest=_smallest_every_move(p),
        claim="it is a P-position, or every move from it reaches a P-position",
        limit=LIMIT,
        hint="Go through the N-positions in your table, smallest first. Where does each of their moves lead?",
        stronger="For each N-position, write every move and the letter of the number it reaches. "
        "Stop at the first one with an N among them.",
    )


@SPEC.model("proof-2")
def model_proof_2(p: Params) -> tuple[object, str]:
    """The smallest N-position with a move to an N-position."""
    rules = rules_of(p)
    n = _smallest_every_move(p)
    table = table_of(p, n)
    d = next(d for d in rules.divisors_of(n) if not table.is_p(rules.result(n, d)))
    return n, f"{n} is N, but {n} − {d} = {rules.result(n, d)} is N too: only SOME move from an N-position reaches P."
