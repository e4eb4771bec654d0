"""Exact-value tests of the number helpers, the closed-form type and random starts (written by hand).

duel_lessons/engine/numbers.py, engine/closed_form.py and engine/starts.py: every expected value
and message here is worked out by hand (or is a small brute force in the test), never computed by
the code under test.  Written to kill mutation-testing survivors (issue 23).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from duel_lessons.engine.closed_form import ClosedForm, factor_words, least_prime_factor, split_two_power
from duel_lessons.engine.errors import BadStartError, DuelError, NumberInputError, PositionError
from duel_lessons.engine.numbers import (
    MAX_NUMBER,
    divisors,
    factorint,
    is_power_of_two,
    is_prime,
    odd_part,
    omega,
    position,
    read_number,
    smallest_prime_factor,
    v2,
    whole_number,
)
from duel_lessons.engine.rules import get_rules
from duel_lessons.engine.starts import random_start

#: The end of read_number's message for a typing slip.
DIGITS = "with the digits 0-9 only, such as 60."

# -- read_number -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [(" 60 ", 60), ("\t-7\r\n", -7), ("+5", 5), ("007", 7), ("0", 0), ("1" * 1000, int("1" * 1000))],
)
def test_typed_whole_numbers_are_read(text: str, value: int) -> None:
    assert read_number(text) == value


@pytest.mark.parametrize(
    ("text", "what", "message"),
    [
        ("", "a whole number", "Nothing was typed: type a whole number, such as 60."),
        (" \t\r\n", "a divisor", "Nothing was typed: type a divisor, such as 60."),
        ("1" * 1001, "a whole number", "That is 1,001 characters long: too long to be a whole number."),
        ("9" * 1500, "the start", "That is 1,500 characters long: too long to be the start."),
        ("1.5", "a whole number", "'1.5' is not a whole number: type it with the digits 0-9 only, such as 60."),
        ("1.5", "a divisor", "'1.5' is not a whole number: type a divisor with the digits 0-9 only, such as 60."),
        ("１２", "a whole number", "'１２' is not a whole number: type it with the digits 0-9 only, such as 60."),
        ("2²", "a whole number", "'2²' is not a whole number: type it with the digits 0-9 only, such as 60."),
        ("١٢", "a whole number", "'١٢' is not a whole number: type it with the digits 0-9 only, such as 60."),
        ("\x0b5", "a whole number", "'\\x0b5' is not a whole number: type it with the digits 0-9 only, such as 60."),
        (
            "x" * 40,
            "a whole number",
            f"'{'x' * 40}' is not a whole number: type it with the digits 0-9 only, such as 60.",
        ),
        (
            "x" * 41,
            "a whole number",
            f"'{'x' * 40}…' is not a whole number: type it with the digits 0-9 only, such as 60.",
        ),
        ("12 3", "a whole number", "'12 3' is not a whole number: type it with the digits 0-9 only, such as 60."),
        ("--3", "a whole number", "'--3' is not a whole number: type it with the digits 0-9 only, such as 60."),
    ],
)
def test_typing_slips_are_named(text: str, what: str, message: str) -> None:
    with pytest.raises(NumberInputError) as caught:
        read_number(text, what)
    assert str(caught.value) == message


@pytest.mark.parametrize(("value", "name"), [(12, "int"), (None, "NoneType"), (b"12", "bytes")])
def test_read_number_wants_text(value: object, name: str) -> None:
    with pytest.raises(NumberInputError) as caught:
        read_number(value)  # type: ignore[arg-type]
    assert str(caught.value) == f"Expected typed text, not {name}."


# -- whole_number and position --------------------------------------------------------------------


class _Hostile:
    def __index__(self) -> int:
        raise RuntimeError("boom")


def test_whole_number_accepts_ints_and_numpy_integers() -> None:
    assert whole_number(12, "x") == 12
    value = whole_number(np.int64(5), "x")
    assert value == 5 and type(value) is int
    assert whole_number(-3, "x") == -3


@pytest.mark.parametrize(("bad", "shown"), [(True, "True"), (2.0, "2.0"), ("7", "'7'"), (None, "None")])
def test_whole_number_names_the_value_and_uses_the_given_error(bad: object, shown: str) -> None:
    with pytest.raises(DuelError) as caught:
        whole_number(bad, "The start")
    assert type(caught.value) is DuelError
    assert str(caught.value) == f"The start must be a whole number, not {shown}."
    with pytest.raises(BadStartError) as caught2:
        whole_number(bad, "The lowest start", BadStartError)
    assert str(caught2.value) == f"The lowest start must be a whole number, not {shown}."


def test_a_hostile_index_is_named_by_its_type() -> None:
    with pytest.raises(DuelError) as caught:
        whole_number(_Hostile(), "The number")
    assert type(caught.value) is DuelError
    assert str(caught.value) == "The number must be a whole number, not _Hostile."
    assert isinstance(caught.value.__cause__, RuntimeError)
    with pytest.raises(PositionError) as caught2:
        whole_number(_Hostile(), "A position", PositionError)
    assert str(caught2.value) == "A position must be a whole number, not _Hostile."


@pytest.mark.parametrize("good", [1, 2, 10**18, np.int64(7)])
def test_positions_from_1_to_10_to_the_18(good: object) -> None:
    value = position(good)
    assert value == int(good) and type(value) is int  # type: ignore[call-overload]


@pytest.mark.parametrize("bad", [0, -5, 10**18 + 1])
def test_positions_out_of_range_are_named(bad: int) -> None:
    with pytest.raises(PositionError) as caught:
        position(bad)
    assert str(caught.value) == f"The number must be a positive whole number from 1 to 10**18, not {bad}."
    with pytest.raises(PositionError) as caught:
        position(bad, "A position")
    assert str(caught.value).startswith("A position must be")


def test_position_refuses_non_numbers_with_position_error() -> None:
    with pytest.raises(PositionError) as caught:
        position(12.0)
    assert str(caught.value) == "The number must be a whole number, not 12.0."


# -- number theory: small cases by hand, large ones by a brute force in the test -------------------


def _brute_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, n))


def test_is_prime_by_hand() -> None:
    assert [n for n in range(0, 50) if is_prime(n)] == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47]
    assert all(is_prime(n) == _brute_prime(n) for n in range(-3, 400))
    assert is_prime(999_983) and not is_prime(999_981)  # the largest prime below 10**6; 999_981 = 3 × 333_327
    assert is_prime(1_000_003) and not is_prime(10**6) and not is_prime(1_000_001)  # 1_000_001 = 101 × 9901
    assert is_prime(2**61 - 1) and not is_prime((2**31 - 1) * (2**61 - 1))


def test_divisors_by_hand() -> None:
    assert divisors(1) == [1]
    assert divisors(2) == [1, 2]
    assert divisors(36) == [1, 2, 3, 4, 6, 9, 12, 18, 36]
    assert divisors(60) == [1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60]
    assert divisors(97) == [1, 97]
    assert all(divisors(n) == [d for d in range(1, n + 1) if n % d == 0] for n in range(1, 300))
    big = divisors(2 * 10**6)  # 2**7 × 5**6: 8 × 7 divisors, above the trial-division bound
    assert len(big) == 56 and big[:6] == [1, 2, 4, 5, 8, 10] and big[-2:] == [10**6, 2 * 10**6]
    assert all(type(d) is int for d in big)


def test_factorisations_by_hand() -> None:
    assert factorint(60) == {2: 2, 3: 1, 5: 1}
    assert factorint(1) == {}
    f = factorint(2**40 * 3)
    assert f == {2: 40, 3: 1} and all(type(k) is int and type(v) is int for k, v in f.items())
    assert (omega(1), omega(7), omega(60), omega(1024), omega(2 * 3 * 5 * 7 * 11)) == (0, 1, 4, 10, 5)


@pytest.mark.parametrize(
    ("n", "skip_two", "expected"),
    [
        (1, False, None),
        (1, True, None),
        (2, False, 2),
        (2, True, None),
        (8, True, None),
        (12, False, 2),
        (12, True, 3),
        (91, False, 7),
        (997, False, 997),
        (1009 * 1013, False, 1009),  # both prime factors above the trial primes (< 1000)
        (2 * 1009, True, 1009),
        (2**61 - 1, False, 2**61 - 1),
    ],
)
def test_smallest_prime_factor_by_hand(n: int, skip_two: bool, expected: int | None) -> None:
    assert smallest_prime_factor(n, skip_two=skip_two) == expected


def test_smallest_prime_factor_agrees_with_brute_force() -> None:
    for n in range(2, 2000):
        assert smallest_prime_factor(n) == next(p for p in range(2, n + 1) if n % p == 0), n
        odd = next((p for p in range(3, n + 1) if n % p == 0 and _brute_prime(p)), None)
        assert smallest_prime_factor(n, skip_two=True) == odd, n


def test_powers_of_two_by_hand() -> None:
    assert [v2(n) for n in (1, 2, 3, 12, 48, 2**60)] == [0, 1, 0, 2, 4, 60]
    assert [odd_part(n) for n in (1, 2, 60, 64, 96, 2**60 * 7)] == [1, 1, 15, 1, 3, 7]
    assert [n for n in range(0, 70) if is_power_of_two(n)] == [1, 2, 4, 8, 16, 32, 64]
    assert is_power_of_two(2**60) and not is_power_of_two(2**60 + 2**59) and not is_power_of_two(-4)


# -- closed_form helpers and the ClosedForm type ---------------------------------------------------


def test_closed_form_helpers_by_hand() -> None:
    assert [least_prime_factor(n) for n in (2, 9, 91, 1009 * 1013)] == [2, 3, 7, 1009]
    assert factor_words(60) == "2^2 × 3 × 5"
    assert factor_words(7) == "7"
    assert factor_words(2**10 * 9) == "2^10 × 3^2"
    assert factor_words(1) == ""
    assert split_two_power(60) == "60 = 2^2 × 15"
    assert split_two_power(30) == "30 = 2 × 15"
    assert split_two_power(24) == "24 = 2^3 × 3"


def _toy_form(grundy: bool) -> ClosedForm:
    """A hand-made closed form: odd numbers lose, and from an even one the move 1 wins (not a real book)."""
    return ClosedForm(
        name="Toy",
        rules=get_rules("factor-duel"),
        statement="Odd numbers lose.",
        proof="By hand.",
        p_rule=lambda n: n % 2 == 1,
        move_rule=lambda n: 1 if n % 2 == 0 else None,
        explain_rule=lambda n: f"{n} is {'odd' if n % 2 else 'even'}",
        grundy_rule=(lambda n: 0 if n % 2 else 1) if grundy else None,
        hint="Look at parity.",
    )


def test_a_closed_form_answers_through_its_rules() -> None:
    form = _toy_form(grundy=True)
    assert (form.is_p(9), form.is_p(10), form.is_n(9), form.is_n(10)) == (True, False, False, True)
    assert (form.winning_move(10), form.winning_move(9)) == (1, None)
    assert form.explain(np.int64(12)) == "12 is even"  # type: ignore[arg-type]
    assert form.has_grundy and (form.grundy(9), form.grundy(10)) == (0, 1)
    assert form.key == get_rules("factor-duel").game
    assert form._repr_markdown_() == "**Toy.** Odd numbers lose.\n\nBy hand."
    bare = _toy_form(grundy=False)
    assert not bare.has_grundy and bare.grundy(10) is None


@pytest.mark.parametrize("method", ["is_p", "is_n", "winning_move", "explain", "grundy"])
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (0, "A position must be a positive whole number from 1 to 10**18, not 0."),
        (10**18 + 1, f"A position must be a positive whole number from 1 to 10**18, not {10**18 + 1}."),
        (2.0, "A position must be a whole number, not 2.0."),
    ],
)
def test_a_closed_form_refuses_bad_positions(method: str, bad: object, message: str) -> None:
    for form in (_toy_form(grundy=True), _toy_form(grundy=False)):
        with pytest.raises(PositionError) as caught:
            getattr(form, method)(bad)
        assert str(caught.value) == message


# -- random_start --------------------------------------------------------------------------------


def test_random_start_is_a_uniform_choice_among_the_legal_starts() -> None:
    # Division Duel starts from a composite number: in 10..20 those are 10, 12, 14, 15, 16, 18, 20.
    legal = [10, 12, 14, 15, 16, 18, 20]
    for seed in range(20):
        assert random_start(get_rules("division-duel"), 10, 20, random.Random(seed)) == random.Random(seed).choice(
            legal
        )
    assert random_start(get_rules("division-duel"), np.int64(4), np.int64(4)) == 4  # type: ignore[arg-type]
    assert random_start(get_rules("divisor-duel"), 1, 1) == 1


def test_random_start_in_a_huge_range_samples_legal_starts() -> None:
    rules = get_rules("division-duel")
    lo, hi = 10**17, 10**17 + 10**6
    for seed in range(5):
        n = random_start(rules, lo, hi, random.Random(seed))
        assert lo <= n <= hi and not _brute_prime_big(n)
    assert random_start(get_rules("divisor-duel"), MAX_NUMBER - 10**5, MAX_NUMBER) <= MAX_NUMBER


def _brute_prime_big(n: int) -> bool:
    return n >= 2 and all(n % p for p in range(2, 1000))  # a composite in the test has a small factor


@pytest.mark.parametrize(
    ("lo", "hi", "message"),
    [
        (5, 4, "The start range 5..4 is empty: the first number must not exceed the second."),
        (0, 10, "The start range 0..10 must lie within 1..10**18."),
        (1, 10**18 + 1, f"The start range 1..{10**18 + 1} must lie within 1..10**18."),
        (2.5, 10, "The lowest start must be a whole number, not 2.5."),
        (1, "9", "The highest start must be a whole number, not '9'."),
        (True, 10, "The lowest start must be a whole number, not True."),
    ],
)
def test_bad_start_ranges_are_named(lo: object, hi: object, message: str) -> None:
    with pytest.raises(BadStartError) as caught:
        random_start(get_rules("divisor-duel"), lo, hi)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_a_range_with_no_legal_start_is_named() -> None:
    with pytest.raises(BadStartError) as caught:
        random_start(get_rules("division-duel"), 2, 3)
    assert str(caught.value) == (
        "No number from 2 to 3 can start Division Duel. Division Duel starts from a composite number (book 001)."
    )
    # A range of 10,001 numbers is sampled, not scanned: 2,000 tries, none legal (the book starts above it).
    far = get_rules("divisor-duel").variant(min_start=10**6)
    with pytest.raises(BadStartError) as caught:
        random_start(far, 1, 10_001, random.Random(0))
    assert str(caught.value) == f"Found no legal start for {far.title} in 2,000 random tries from 1 to 10001."
    # 10,000 numbers (hi - lo = 9,999) are still scanned.
    with pytest.raises(BadStartError) as caught:
        random_start(far, 1, 10_000, random.Random(0))
    assert str(caught.value).startswith("No number from 1 to 10000 can start")


def test_read_number_defaults_and_strips_only_blanks() -> None:
    with pytest.raises(NumberInputError) as caught:
        read_number("")
    assert str(caught.value) == "Nothing was typed: type a whole number, such as 60."
    with pytest.raises(NumberInputError) as caught:
        read_number("X5X")
    assert str(caught.value) == f"'X5X' is not a whole number: type it {DIGITS}"
