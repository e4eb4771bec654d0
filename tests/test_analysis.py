"""analyse(rules, n): outcome, winning moves, remoteness and Grundy value against a brute force."""

from __future__ import annotations

import json

import pytest
import sympy

from duel_lessons import DIVISOR_DUEL, NUMBER_FACTOR, DuelError, Rules
from duel_lessons.engine.errors import TooBigError
from duel_lessons.engine.game import GameState
from duel_lessons.play import coach
from duel_lessons.play.analysis import ANALYSIS_TABLE_LIMIT, Analysis, analyse
from duel_lessons.solving import tables
from duel_lessons.solving.tables import TABLE_LIMIT

from books import closed_form_rules, generated_variants, shipped_books
from brute import Brute

#: Every shipped book (by name, as the CLI gives them), every closed form's rules and the generated variants.
VARIANTS: list[Rules | str] = [*(r.name for r in shipped_books()), *closed_form_rules(), *generated_variants()]
SMALL = 120


def _id(rules: Rules | str) -> str:
    return rules if isinstance(rules, str) else rules.name


@pytest.mark.parametrize("rules", VARIANTS, ids=_id)
def test_analyse_agrees_with_brute_force(rules: Rules | str) -> None:
    brute = Brute.of(rules)
    for n in range(1, SMALL + 1):
        a = analyse(rules, n)
        assert (a.n, a.outcome) == (n, brute.outcome(n)), n
        assert a.winning_moves == brute.winning_moves(n), n
        assert a.remoteness == brute.remoteness(n), n
        if brute.rules.last_mover_wins:
            assert a.grundy == brute.grundy(n), n
        else:
            assert a.grundy is None
        assert a.explanation and not a.explanation.startswith("Player 1")


def test_source_says_where_the_answer_came_from() -> None:
    # One meaning, the oracle's: within the table (10**6) the table answers, above it the proved closed form.
    assert analyse("divisor-duel", 60).source == "table"
    assert analyse("divisor-duel", 10**6 + 1).source == "closed form"
    assert analyse(DIVISOR_DUEL.variant(last_mover_wins=False), 60).source == "table"


def _dd_p(n: int) -> bool:
    """Divisor Duel's P-positions, from the rule books' README and a hand proof: odd, or 2^k with k odd."""
    return n % 2 == 1 or (n & (n - 1) == 0 and (n.bit_length() - 1) % 2 == 1)


BIG = [10**18, 10**18 - 1, 2**59, 2**58, 999_999_999_999_999_989, 999_999_866_000_004_473, 897_612_484_786_617_600]


@pytest.mark.parametrize("n", BIG)
def test_huge_numbers_are_right(n: int) -> None:
    """Answered from the closed forms (how fast: benchmarks/bench_players.py)."""
    dd = analyse("divisor-duel", n)
    div = analyse("division-duel", n)
    fd = analyse("factor-duel", n)
    assert dd.outcome == ("P" if _dd_p(n) else "N")
    expected = tuple(d for d in sympy.divisors(n)[1:-1] if _dd_p(n - d))
    assert dd.winning_moves == expected
    if sympy.isprime(n):  # game over: nothing left to play
        assert (dd.remoteness, dd.grundy) == (0, 0) and dd.explanation.startswith("Game over")
    else:
        assert dd.remoteness is None and dd.grundy is None
    assert dd.source == "closed form"
    composite = n > 1 and not sympy.isprime(n)
    assert div.outcome == ("N" if composite else "P")
    assert set(div.winning_moves) == ({n // p for p in sympy.primefactors(n)} if composite else set())
    assert div.grundy == max(sum(sympy.factorint(n).values()) - 1, 0)  # the proved Omega - 1
    assert fd.outcome == ("P" if n % 2 == 1 else "N")
    if sympy.isprime(n):
        assert "Game over" in fd.explanation and fd.remoteness == 0 and fd.winning_moves == ()
    elif n % 2 == 0:
        assert 1 in fd.winning_moves


def test_remoteness_above_the_table_is_not_computed() -> None:
    a = analyse("divisor-duel", ANALYSIS_TABLE_LIMIT + 2)
    assert a.remoteness is None
    assert "not computed above 10^6" in a.to_text()
    assert analyse("divisor-duel", ANALYSIS_TABLE_LIMIT).remoteness is not None


def test_game_over_positions_are_explained_as_such() -> None:
    assert analyse("factor-duel", 7).explanation.startswith("Game over")
    assert "has won" in analyse("factor-duel", 7).explanation
    one = analyse("factor-duel", 1)
    assert one.outcome == "N" and one.explanation.startswith("Game over") and "has lost" in one.explanation
    for rules in ("divisor-duel", "division-duel"):
        a = analyse(rules, 13)
        assert a.outcome == "P" and a.winning_moves == () and a.explanation.startswith("Game over")
        assert "the game is over" in a.to_text()
    nf = analyse("number-factor", 13)  # a prime: the player must pass, then the last mover wins
    assert nf.outcome == "P" and "pass" in nf.explanation


def test_number_factor_at_a_prime_speaks_of_passing_not_of_moves() -> None:
    """Issue 11: `solve number-factor 7` said "every move leaves a winning position" where there is no move."""
    from duel_lessons.engine.game import GameState

    misere = NUMBER_FACTOR.variant(last_mover_wins=False)
    for rules in (NUMBER_FACTOR, misere):
        assert GameState(rules, 7).legal_moves == () and GameState(rules, 7).must_pass  # brute fact: no move
        a = analyse(rules, 7)
        text = a.to_text()
        assert "every move" not in text.lower() and "must pass" in text
        wins = Brute.of(rules).wins(7)
        assert a.outcome == ("N" if wins else "P")
        # No contradiction: the words say the side the brute force says, and never the other.
        said = "the player to move wins" if wins else "the player to move loses"
        unsaid = "the player to move loses" if wins else "the player to move wins"
        assert said in text and unsaid not in text
        if wins:
            assert "losing position" not in text


def test_remoteness_parity_where_it_holds() -> None:
    """P even, N odd in normal play, including numbers whose reaching wins or loses (remoteness 1, Grundy 1)."""
    for rules in [*shipped_books(), *closed_form_rules(), *generated_variants()]:
        if not rules.last_mover_wins:
            continue
        for n in range(1, 200):
            a = analyse(rules, n)
            assert a.remoteness is not None and a.remoteness % 2 == (1 if a.outcome == "N" else 0), (rules.name, n)
    one = analyse("factor-duel", 1)
    assert (one.outcome, one.remoteness, one.grundy) == ("N", 1, 1)
    assert "counted as one move" in one.to_text()
    # Misère play: a stuck player wins with remoteness 0, so the parity rule does not hold there.
    misere = analyse(DIVISOR_DUEL.variant(last_mover_wins=False), 7)
    assert (misere.outcome, misere.remoteness) == ("N", 0)


def test_explanation_names_the_winning_move() -> None:
    a = analyse("divisor-duel", 60)
    assert "15" in a.explanation and a.outcome == "N"
    assert "losing position" in analyse("divisor-duel", 45).explanation


def test_a_variant_without_closed_form_above_the_table_limit() -> None:
    misere = DIVISOR_DUEL.variant(last_mover_wins=False)
    tables.clear_cache()
    with pytest.raises(TooBigError, match="no proved closed form"):
        analyse(misere, TABLE_LIMIT + 1)
    assert tables.cache_info().tables == 0  # refused before building anything


@pytest.mark.parametrize(
    ("n", "words"),
    [
        (0, "positive"),
        (-5, "-5"),
        (10**18 + 1, "from 1 to 10**18"),
        (1.5, "1.5"),
        ("12", "'12'"),
        (True, "True"),
        (None, "None"),
    ],
)
def test_bad_n(n: object, words: str) -> None:
    with pytest.raises(DuelError, match="n") as info:
        analyse("divisor-duel", n)  # type: ignore[arg-type]
    assert words in str(info.value)


def test_unknown_rules() -> None:
    with pytest.raises(DuelError, match="Unknown rule book"):
        analyse("divisor-dual-x", 5)


def test_to_dict_and_markdown() -> None:
    a = analyse("factor-duel", 100)
    d = json.loads(json.dumps(a.to_dict()))
    assert d["rules"] == "factor-duel" and d["n"] == 100 and d["outcome"] == "N"
    assert d["winning_moves"] == list(a.winning_moves) and d["source"] == "table"
    assert set(d) >= {"n", "outcome", "winning_moves", "remoteness", "grundy", "explanation", "source"}
    md = a._repr_markdown_()
    assert "N-position" in md and "Factor Duel" in md and "| Source | the solver's table (computed) |" in md
    assert isinstance(a, Analysis)
    with pytest.raises(AttributeError):
        a.n = 5  # type: ignore[misc]


#: Phrases that say the player to move at {n} wins ("N") or loses ("P").
SAYS = {
    "N": ("{n} is won for the player to move", "{n} is a winning position for the player to move",
          "so the player to move wins", "the player to move has won", "is the winning move", "is a winning move"),
    "P": ("{n} is lost for the player to move", "{n} is a losing position for the player to move",
          "so the player to move loses", "the player to move has lost", "every move loses", "Every move loses"),
}  # fmt: skip


@pytest.mark.parametrize("rules", VARIANTS, ids=_id)
def test_explanations_never_contradict_the_outcome(rules: Rules | str) -> None:
    """Issue 11: a misère explanation said both "the player to move wins" and "losing position"."""
    for n in range(1, 150):
        a = analyse(rules, n)
        text = a.explanation
        wrong = [phrase.format(n=n) for phrase in SAYS["P" if a.outcome == "N" else "N"]]
        assert not [phrase for phrase in wrong if phrase in text], (n, a.outcome, text)
        told = coach.explain(GameState(a.rules, n))  # the coach's longer text, with every move listed
        assert not [phrase for phrase in wrong if phrase in told], (n, a.outcome, told)
