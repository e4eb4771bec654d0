"""Lesson 03: the parity proof (Parsons), the "every move" counterexample, defending a P-position, parameters."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from duel_lessons import get_rules
from duel_lessons.teaching.checks import spec
from duel_lessons.teaching.lesson import Lesson, forget
from duel_lessons.teaching.student_copies import gated_texts, student_notebook

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "03-winning-and-losing-positions.ipynb"

BASE = dict(
    rules="divisor-duel",
    hand_limit=12,
    upto=100,
    candidates=[15, 16, 21, 32],
    move_from=24,
    remote_n=15,
    defend_from=10,
)
RULES = ("divisor-duel", *spec("03").offers["rules"])


def lesson(**changes: object) -> Lesson:
    forget("03")
    return Lesson("03", **{**BASE, **changes})


@cache
def loses(n: int) -> bool:
    """Divisor Duel by hand: the player to move loses when every move (if any) reaches a win."""
    return all(not loses(n - d) for d in range(2, n) if n % d == 0)


@cache
def remoteness(n: int) -> int:
    """By the hurry/delay rule of section 8, by hand."""
    reached = [n - d for d in range(2, n) if n % d == 0]
    if not reached:
        return 0
    if loses(n):
        return 1 + max(remoteness(m) for m in reached)
    return 1 + min(remoteness(m) for m in reached if loses(m))


def test_parity_and_the_proofs_lines_by_brute_force() -> None:
    for n in range(1, 400):
        assert remoteness(n) % 2 == (0 if loses(n) else 1), n
    assert (remoteness(8), remoteness(10)) == (2, 1)  # line B is false
    assert (
        next(n for n in range(1, 100) if not loses(n) and any(not loses(n - d) for d in range(2, n) if n % d == 0)) == 6
    )


@pytest.mark.parametrize("rules", RULES)
def test_parity_holds_under_every_offered_rule_book(rules: str) -> None:
    from duel_lessons.solving.tables import tabulate

    table = tabulate(rules, 300)
    assert all(int(table.remoteness[n]) % 2 == (0 if table.is_p(n) else 1) for n in range(1, 301))


@pytest.mark.parametrize("rules", RULES)
def test_every_model_answer_passes_under_each_offered_rule_book(rules: str) -> None:
    one = lesson(rules=rules)
    for name in spec(one.number).models:
        model, why = one.model(name)
        assert one.verdict(name, model).right, (rules, name, model)
        assert why


def test_factor_duel_table_needs_1_as_n() -> None:
    one = lesson(rules="factor-duel")
    model, _ = one.model("table")
    assert model[1] == "N" and model[2] == "P"  # moving to 1 loses; reaching the prime 2 wins


def test_defending_a_p_position_right_wrong_and_malformed() -> None:
    one = lesson()
    rules = get_rules("divisor-duel")
    assert rules.divisors_of(15) == (3, 5) and loses(15)
    assert one.verdict(3, (15, {3: 3, 5: 5})).right  # 12 − 3 = 9 and 10 − 5 = 5, both lost
    assert one.verdict(3, (15, {3: 4, 5: 2})).right  # 12 − 4 = 8 and 10 − 2 = 8
    assert one.verdict(3, (15, {3: 3})).kind == "partial"
    wrong = one.verdict(3, (15, {3: 2, 5: 5}))
    assert wrong.kind == "misconception" and "10" in wrong.message  # 12 − 2 = 10 wins for the mover
    assert one.verdict(3, (16, {2: 2, 4: 4, 8: 2})).kind == "misconception"  # 16 is not lost
    assert one.verdict(3, (15, {3: 5, 5: 5})).kind == "misconception"  # 5 does not divide 12
    for malformed in (15, (15, [3, 5]), (9, {3: 3}), (10**5000, {}), ("15", {3: 3}), (15, {"3": 3}), (15, {7: 1})):
        assert one.verdict(3, malformed).kind == "format", malformed


def test_counterexample_right_wrong_and_malformed() -> None:
    one = lesson()
    assert one.verdict("proof-2", 6).right
    assert one.verdict("proof-2", 12).kind == "partial"
    for holds in (4, 8, 10):
        verdict = one.verdict("proof-2", holds)
        assert verdict.kind == "miss" and "6" not in verdict.hint + verdict.stronger
    for malformed in ("6", [6], 10**5000, 0):
        assert one.verdict("proof-2", malformed).kind == "format"


def test_parsons_right_wrong_and_malformed() -> None:
    one = lesson()
    assert one.verdict("proof-1", ["C", "F", "A", "G", "D"]).right
    assert one.verdict("proof-1", ["C", "F", "G", "A", "D"]).right
    assert one.verdict("proof-1", ["C", "A", "F", "G", "D"]).kind == "partial"
    assert one.verdict("proof-1", ["C", "F", "A", "E", "D"]).kind == "misconception"
    assert one.verdict("proof-1", ["C", "F", "A", "B", "D"]).kind == "misconception"
    assert not one.verdict("proof-1", ["A", "B", "C", "D", "E"]).right  # the labels in order are not the proof
    for malformed in ("ABCDE", ["a"], [1], ["A", "A"]):
        assert one.verdict("proof-1", malformed).kind == "format"


def test_the_table_has_nothing_filled_in_for_the_student() -> None:
    one = lesson()
    assert one.verdict("table", {n: ... for n in range(1, 13)}).kind == "unanswered"
    assert one.verdict("table", {1: "P", 2: "P"}).kind != "right"


def test_the_guess_must_be_a_list_of_candidates() -> None:
    one = lesson()
    assert one.guess_problem("hand", "dunno")
    assert one.guess_problem("hand", [17])
    assert one.guess_problem("hand", [15, 21]) is None


def test_exit_ticket_answers_by_hand() -> None:
    assert [loses(n) for n in (13, 14, 15, 16)] == [True, False, True, False]
    assert [d for d in range(2, 14) if 14 % d == 0 and loses(14 - d)] == [7]
    assert [d for d in range(2, 16) if 16 % d == 0 and loses(16 - d)] == [8]


def test_exercise_2_asks_for_the_best_move_and_the_remoteness() -> None:
    """A pair (move, remoteness): ``table.remoteness[REMOTE_N]`` alone does not answer it (review rev1)."""
    one = lesson()  # 15 is P (both moves, 3 and 5, reach N), so the loser delays
    assert loses(15) and not loses(12) and not loses(10)
    assert (remoteness(12), remoteness(10), remoteness(15)) == (3, 1, 4)  # 15 − 3 = 12 keeps it longest
    assert one.verdict(2, (3, 4)).right
    assert one.verdict(2, [3, 4]).right
    assert one.verdict(2, (3, 3)).kind == "partial"  # the move, not the remoteness
    assert one.verdict(2, (5, 4)).kind == "partial"  # the remoteness (looked up?), not the move
    hurried = one.verdict(2, (5, 2))  # 1 + the smallest: the winner's rule at a P-position
    assert hurried.kind == "misconception" and "delay" in hurried.message
    assert one.verdict(2, (7, 4)).kind == "misconception"  # 7 is no move from 15
    assert one.verdict(2, (5, 9)).kind == "miss"
    for malformed in (4, "3, 4", (3,), (3, 4, 5), ("3", 4), (3, "four"), 10**5000):
        assert one.verdict(2, malformed).kind == "format", malformed
    # at an N-position the winner hurries: from 18 the P-positions reached are 15 and 9 (remoteness 4 and 2)
    assert [d for d in range(2, 18) if 18 % d == 0 and loses(18 - d)] == [3, 9]
    assert (remoteness(15), remoteness(9), remoteness(18)) == (4, 2, 3)
    assert lesson(remote_n=18).verdict(2, (9, 3)).right
    assert lesson(remote_n=18).verdict(2, (3, 3)).kind == "partial"  # a winning move, but not the fastest
    assert lesson(remote_n=18).verdict(2, (3, 5)).kind == "misconception"  # 1 + the largest: the loser's rule
    assert lesson(remote_n=18).verdict(2, (2, 7)).kind == "miss"


def test_exercise_1_is_read_from_the_hand_table() -> None:
    """MOVE_FROM = 12 by default, inside the table by hand: 12 − 3 = 9 and 12 − 4 = 8 are P."""
    assert [d for d in range(2, 12) if 12 % d == 0 and loses(12 - d)] == [3, 4]
    assert lesson(move_from=12).verdict(1, [3, 4]).right
    assert lesson(move_from=12).verdict(1, [9, 8]).kind == "misconception"  # the numbers left, not the moves


# -- the examples give away nothing the student works out (issue 27) -----------------------------------------


def readable_texts(notebook: dict[str, Any]) -> list[str]:
    """Every markdown text a student can read while filling in the table by hand: the static markdown of the
    student copy, and the text gated by the guess, which is made before the table."""
    cells = student_notebook(notebook)["cells"]
    static = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells]
    return [text for c, text in zip(cells, static, strict=True) if c["cell_type"] == "markdown"] + [
        markdown for _, markdown in gated_texts(notebook).values()
    ]


def examples(text: str) -> list[str]:
    """The paragraphs of a text that work an example ("**Example.**", "**Worked example ...**")."""
    return [p for p in text.split("\n\n") if re.match(r"\*\*(Worked )?example", p.strip(), re.IGNORECASE)]


STATEMENT = re.compile(r"\b(\d+)\b(?:\s+(?:is|has)\s+(?:an?\s+)?\**(?:P|N|remoteness|no move)\b|\s*(?:→|−|-)\s*\d)")


def hand_table_spoilers(notebook: dict[str, Any], hand_limit: int, remote_n: int) -> list[str]:
    """Statements about a number of the table by hand that has a move (its letter, its remoteness, a move from
    it), and any number of the table or REMOTE_N named in an example."""
    found = []
    for text in readable_texts(notebook):
        for match in STATEMENT.finditer(text):
            n = int(match.group(1))
            if 4 <= n <= hand_limit:  # 1, 2, 3 have no move: rule 1 says so
                found.append(match.group(0))
        for paragraph in examples(text):
            plain = re.sub(r"remoteness \d+|1 \+ \d+ = \d+", "", paragraph)
            found += [x for x in re.findall(r"\d+", plain) if int(x) <= hand_limit or int(x) == remote_n]
    return found


def test_no_example_fills_in_the_hand_table_or_answers_exercises_1_and_2() -> None:
    """The remoteness example once worked 2, 3, 4, 5, 8, 10 and 12: 7 of the 12 entries, and exercise 1."""
    notebook = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    assert hand_table_spoilers(notebook, BASE["hand_limit"], BASE["remote_n"]) == []
    worked = [p for text in readable_texts(notebook) for p in examples(text)]
    assert len(worked) == 2  # section 2's and the remoteness example, both read
    # what they say, by hand: 13 has no move; 26 − 13 = 13 wins; 39 reaches only 36 and 26, both N
    assert [d for d in range(2, 13) if 13 % d == 0] == []
    assert [d for d in range(2, 26) if 26 % d == 0] == [2, 13] and loses(13) and not loses(26)
    assert [39 - d for d in range(2, 39) if 39 % d == 0] == [36, 26] and loses(39) and not loses(36)
    assert [remoteness(n) for n in (13, 26, 36, 39)] == [0, 1, 7, 8]


def test_the_spoiler_scan_finds_the_old_remoteness_example() -> None:
    old = (
        "**Worked example (Divisor Duel).** 2, 3 and 5 have no move: 0. 4 → 2, so 4 has 1 + 0 = 1. 8 is P and "
        "reaches 6 and 4, both 1: the loser delays, 1 + 1 = 2. 10 is N; its winning moves reach 8 (2) and 5 (0)."
    )
    notebook = {"cells": [{"cell_type": "markdown", "metadata": {"tags": ["after:hand"]}, "source": old}]}
    found = hand_table_spoilers(notebook, 12, 15)
    assert {"4 → 2", "8 is P", "10 is N"} <= set(found), found
    tiny = {"cells": [{"cell_type": "markdown", "metadata": {}, "source": "From 4 the only move is 4 − 2 = 2."}]}
    assert hand_table_spoilers(tiny, 12, 15) == ["4 − 2"]


# -- issue 27: the declared guess, truth and exercises (03-winning-and-losing-positions.lesson.toml), by hand ------


def test_the_guess_reveal_compares_with_the_candidates_worked_out_by_hand() -> None:
    one = lesson()
    assert [n for n in (15, 16, 21, 32) if loses(n)] == [15, 21, 32]
    text = spec("03").reveals["hand"]([15, 16], one.params)
    assert "Among 15, 16, 21 and 32, the P-positions are **15, 21 and 32**." in text
    assert "you chose 16, which is not one of them; you left out 21 and 32." in text


def test_the_conjecture_test_refutes_a_rule_wrong_only_beyond_the_data() -> None:
    one = lesson()
    truth = spec("03").truths["loses"](one.params)
    assert [n for n in range(1, 200) if loses(n)] == [n for n in range(1, 200) if truth(n)]
    assert not one.test(lambda n: loses(n) if n <= 100 else n % 2 == 1)  # 128 is even and loses (by hand: 2⁷)
    assert loses(128)


@pytest.mark.parametrize("rules", RULES)
def test_every_move_counterexample_is_6_under_each_offered_rule_book(rules: str) -> None:
    """The declared smallest counterexample, against a brute force of each rule book's table."""
    from duel_lessons.solving.tables import tabulate

    book, table = get_rules(rules), tabulate(rules, 200)

    def fails(n: int) -> bool:
        over = book.ends_on_reaching(n) is not None
        return not over and not table.is_p(n) and any(not table.is_p(book.result(n, d)) for d in book.divisors_of(n))

    found = [n for n in range(1, 200) if fails(n)]
    assert found[0] == 6
    one = lesson(rules=rules)
    assert one.verdict("proof-2", 6).right
    assert all(one.verdict("proof-2", n).kind == "partial" for n in found[1:5])
    assert all(one.verdict("proof-2", n).kind == "miss" for n in range(1, 40) if n not in found)


def test_exercise_1_results_misconception_only_for_the_numbers_left() -> None:
    one = lesson(move_from=12)  # winning moves 3 and 4 leave 9 and 8 (P)
    assert one.verdict(1, [8, 9]).key == "results"
    assert one.verdict(1, [9]).key == "results"
    assert one.verdict(1, [3, 9]).kind == "partial"  # 3 is a winning move: not only numbers left
    assert one.verdict(1, [10, 6]).kind == "miss"  # the numbers left by the losing moves 2 and 6 (N)


# -- round 2: the table by hand is declared (kind "table" in the .lesson.toml) ---------------------------------


@pytest.mark.parametrize(
    ("rules", "letters", "why"),
    [
        # Divisor Duel: 1, 2, 3, 5, 7, 11 have no move (P); 4 -> 2, 6 -> 3, 10 -> 8, 12 -> 9 reach a P; 8 -> 6, 4 and
        # 9 -> 6 reach only N
        ("divisor-duel", "PPPNPNPPPNPN", "For example 4 is N: 4 − 2 = 2 is P."),
        # Factor Duel (d = 1 allowed, reaching a prime wins, reaching 1 loses): 1 is N, the primes P; 9 -> 8 or 6
        # (both N) is P; every other even number moves by 1 to a prime
        ("factor-duel", "NPPNPNPNPNPN", "For example 4 is N: 4 − 1 = 3 is P."),
    ],
)
def test_the_declared_table_by_hand(rules: str, letters: str, why: str) -> None:
    table = dict(zip(range(1, 13), letters, strict=True))
    one = lesson(rules=rules)
    assert one.verdict("table", table).right
    assert spec("03").models["table"]({**BASE, "rules": rules}) == (table, why)
    wrong = one.verdict("table", {**table, 9: "N" if table[9] == "P" else "P"})
    assert wrong.kind != "right" and "9" in wrong.message
    assert one.verdict("table", {n: x.lower() for n, x in table.items()}).key == "format:case"  # as before
    assert one.verdict("table", {n: x for n, x in table.items() if n < 12}).kind != "right"
    assert spec("03").labels["table"] == "Your table"
    from duel_lessons.teaching import declared

    path = declared.find("03")
    assert path is not None
    student = declared.parse(declared.load(path).student_text(), "student edition")  # its values come sorted by name
    assert student.check("table", table, {**BASE, "rules": rules}).right
    assert student.check("table", {**table, 9: "N" if table[9] == "P" else "P"}, {**BASE, "rules": rules}) == wrong
