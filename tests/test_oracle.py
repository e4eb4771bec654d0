"""The oracle's answerers and its words at finished positions, with expected values worked by hand."""

from __future__ import annotations

import pytest

from duel_lessons import DIVISOR_DUEL
from duel_lessons.engine.rules import Rules
from duel_lessons.solving.closed_forms import closed_form
from duel_lessons.solving.grundy_formulas import formula_for
from duel_lessons.solving.oracle import FormulaAnswers, TableAnswers, grundy_form, oracle, table_length


def test_above_the_table_the_winning_move_is_the_closed_forms_not_the_smallest_divisor() -> None:
    # Divisor Duel: P iff n is odd or 2^k with k odd.  From 3 * 2^40 the moves to a P-position are
    # 3 (leaving an odd number) and 2^40 (leaving 2^41); the smallest divisor, 2, leaves an even non-power.
    n = 3 * 2**40
    ask = oracle("divisor-duel")
    assert ask.source(n) == "closed form"
    assert ask.winning_moves(n) == (3, 2**40)
    assert ask.best_move(n) in (3, 2**40) and ask.winning_move(n) in (3, 2**40)
    # From a P-position above the table (2^41) the documented heuristic: the smallest divisor, 2.
    assert ask.best_move(2**41) == 2 and ask.winning_move(2**41) is None


@pytest.mark.parametrize(
    ("rules", "n"),
    [
        (DIVISOR_DUEL, 1),  # stuck
        (DIVISOR_DUEL.variant(allow_one=True, win_on_reaching="prime"), 7),  # over, though 1 divides 7
        (DIVISOR_DUEL.variant(allow_one=True, lose_on_reaching="prime"), 7),
    ],
    ids=["stuck", "reached-win", "reached-loss"],
)
def test_there_is_no_best_move_once_the_game_is_over(rules: Rules, n: int) -> None:
    assert oracle(rules).best_move(n) is None and oracle(rules).winning_move(n) is None


def test_the_formula_answers_at_a_number_whose_reaching_loses() -> None:
    # No proved form has a losing number yet, so the answerer is asked directly: reaching 7 (a prime)
    # loses, which counts remoteness 1 and Grundy value 1 (the solver's convention); 1 is stuck: 0 and 0.
    rules = DIVISOR_DUEL.variant(lose_on_reaching="prime")
    form = closed_form(DIVISOR_DUEL)
    assert form is not None
    answers = FormulaAnswers(rules, form)
    assert (answers.remoteness(7), answers.grundy(7)) == (1, 1)
    assert (answers.remoteness(1), answers.grundy(1)) == (0, 0)
    assert answers.remoteness(12) is None  # not finished: no remoteness above the table
    assert answers.source == "closed form" and answers.proof is form


def test_the_table_answers_say_their_source_and_explain_from_the_proof() -> None:
    ask = oracle("divisor-duel")
    answers = ask.answers(60)
    assert isinstance(answers, TableAnswers) and answers.source == "table"
    assert answers.proof is closed_form(DIVISOR_DUEL)
    assert (answers.best_move(60), answers.remoteness(60), answers.grundy(60)) == (3, 9, 2)  # README's solve 60


WORDS = {
    "stuck, normal play": (
        DIVISOR_DUEL, 1,
        "Game over: 1 has no allowed divisors (proper divisors d with 1 < d < N), so the player to move cannot move, "
        "and the last player to move wins: the player to move loses.",
    ),
    "stuck, misère": (
        DIVISOR_DUEL.variant(last_mover_wins=False), 1,
        "Game over: 1 has no allowed divisors (proper divisors d with 1 < d < N), so the player to move cannot move, "
        "and the last player to move loses: the player to move wins.",
    ),
    "stuck, passing, misère": (  # no closed form: the oracle's own words
        DIVISOR_DUEL.variant(when_stuck="pass", last_mover_wins=False), 7,
        "7 has no allowed divisor (proper divisors d with 1 < d < N), so the player to move must pass, and so must "
        "the opponent; after two passes the game ends, the last player to move loses, so the player to move wins.",
    ),
    "reaching a prime wins": (
        "factor-duel", 7,
        "Game over: reaching a prime wins at once, so whoever moved to 7 (a prime) has won: the player to move has "
        "lost.",
    ),
    "reaching 1 loses": (
        DIVISOR_DUEL.variant(lose_on_reaching="one", allow_one=True), 1,
        "Game over: reaching 1 loses at once, so whoever moved to 1 has lost: the player to move has won.",
    ),
    "reaching 1 wins": (
        "number-factor", 1,
        "Game over: reaching 1 wins at once, so whoever moved to 1 has won: the player to move has lost.",
    ),
}


@pytest.mark.parametrize("case", WORDS)
def test_the_words_at_a_finished_position(case: str) -> None:
    rules, n, words = WORDS[case]
    assert oracle(rules).explain(n) == words  # type: ignore[arg-type]


def test_the_grundy_forms_name_statement_and_explanation() -> None:
    form = grundy_form(DIVISOR_DUEL.variant(allow_one=True))
    assert form is not None and form.name == "Subtract any divisor, 1 allowed"
    assert form.statement.startswith("$n$ is a P-position iff its Grundy value is 0: g(n) = ")
    text = form.explain(12)  # 12 = 2^2 * 3: g = v2(12) = 2, and subtracting 1 leaves 11, of value 0
    assert text.startswith("By the proved Grundy formula (") and "), 12 has Grundy value 2, so it is won" in text
    assert text.endswith("subtract 1: 12 − 1 = 11, of Grundy value 0.")
    assert ".)" not in text
    assert form.proof and form.proof is formula_for(DIVISOR_DUEL.variant(allow_one=True)).proof  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("n", "cap", "length"),
    [(1, 10**6, 1024), (1024, 10**6, 1024), (1025, 10**6, 2048), (999_999, 10**6, 10**6), (10**6, 10**6, 10**6),
     (5000, 4096, 5000)],
)
def test_table_lengths_are_powers_of_two_from_1024_up_to_the_cap(n: int, cap: int, length: int) -> None:
    assert table_length(n, cap) == length


def test_passing_at_a_prime_is_explained_by_the_books_proof() -> None:
    # Number Factor (book 004): a player facing a prime must pass; the closed form's words say why.
    assert oracle("number-factor").explain(7) == (
        "7 is prime, so it has no divisor d with 1 < d < 7: the player to move must pass; then nobody can move, "
        "and after two passes the last player who moved wins, so the player to move loses."
    )


MISERE = DIVISOR_DUEL.variant(last_mover_wins=False)  # no proved formula: explained from the table


@pytest.mark.parametrize("n", [9, 12, 15, 24, 45, 60])
def test_without_a_formula_the_table_explains_with_brute_force_values(n: int) -> None:
    from brute import Brute

    brute = Brute.of(MISERE)
    moves, rem = brute.winning_moves(n), brute.remoteness(n)
    start = "Computed with the solver's table (there is no proved formula for Divisor Duel variant): "
    if len(moves) == 1:
        expected = f"{moves[0]} leaves a losing position, so {n} is won for the player to move, in {rem} more moves"
    elif moves:
        listed = ", ".join(map(str, moves))
        expected = f"{listed} leave a losing position, so {n} is won for the player to move, in {rem} more moves"
    else:
        expected = (
            f"every move from {n} leaves a winning position for the opponent, so {n} is lost for the player to move "
            f"(best resistance lasts {rem} moves)."
        )
    assert oracle(MISERE).explain(n).startswith(start + expected)


def test_the_examples_cover_one_several_and_no_winning_moves() -> None:
    from brute import Brute

    brute = Brute.of(MISERE)
    counts = {len(brute.winning_moves(n)) for n in (9, 12, 15, 24, 45, 60)}
    assert 0 in counts and 1 in counts and max(counts) > 1


@pytest.mark.parametrize("size", [-1, True, "5", 2.0])
def test_a_bad_table_size_is_refused_with_its_reason(size: object) -> None:
    from duel_lessons.engine.errors import RulesError

    with pytest.raises(RulesError, match="table_size must be a whole number of at least 0"):
        oracle("divisor-duel", table_size=size)  # type: ignore[arg-type]


def test_a_book_module_without_closed_forms_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    from duel_lessons.books import divisor_duel
    from duel_lessons.solving import closed_forms

    monkeypatch.setattr(closed_forms, "book_modules", lambda: (types.ModuleType("a_book_without_forms"), divisor_duel))
    monkeypatch.setattr(closed_forms, "_cache", ((), {}))
    assert closed_forms.closed_form(DIVISOR_DUEL) is divisor_duel.CLOSED_FORMS[0]
    assert closed_forms.closed_form("factor-duel") is None  # only Divisor Duel's module was scanned


def test_without_a_formula_the_table_grows_to_the_solvers_limit_and_no_further(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Above its table size, an oracle with no closed form builds a table up to TABLE_LIMIT itself, then refuses."""
    import duel_lessons.solving.oracle as oracle_module
    from duel_lessons.engine.errors import TooBigError

    monkeypatch.setattr(oracle_module, "TABLE_LIMIT", 3000)  # the real one (10**7) builds for a minute
    misere = oracle(DIVISOR_DUEL.variant(last_mover_wins=False), 1000)
    table = misere.table(3000)
    assert table is not None and table.upto == 3000
    with pytest.raises(TooBigError, match="above the largest table the solver builds"):
        misere.table(3001)
