"""Number Factor (book 004): divide by a proper divisor; with no move you pass; the last mover wins.

Its "reach 1 wins" clause never fires (N / d >= 2), and passing decides nothing, so it is
Division Duel's game: the closed form reuses that book's arithmetic and proof, with its
own explanations (a stuck player passes) and the coach's hint.

>>> NUMBER_FACTOR_FORM.is_p(7), NUMBER_FACTOR_FORM.winning_move(30)
(True, 15)
"""

from __future__ import annotations

from duel_lessons.books.division_duel import (
    DIVISION_PROOF,
    division_explainer,
    division_grundy,
    division_is_p,
    division_move,
)
from duel_lessons.engine.closed_form import ClosedForm
from duel_lessons.engine.rules import Rules, Wording

__all__ = ["CLOSED_FORMS", "NUMBER_FACTOR", "NUMBER_FACTOR_FORM", "RULES"]

BOOK_NUMBERS = ("004",)

NUMBER_FACTOR = Rules(
    name="number-factor",
    title="Number Factor",
    move="divide",
    win_on_reaching="one",
    when_stuck="pass",
    on_invalid="lose-turn",
    source="book 004",
    default_start=30,
    composite_start=True,
    start_rule=(
        "Number Factor starts from a composite number: from a prime neither player could "
        "ever move, so there would be no last mover to win (ruling 6)."
    ),
    wording=Wording(
        opening="Welcome to Number Factor!\nStarting number (N) is {n}.",
        show="Current N: {n}\nProper divisors of {n} are: {divisors}",
        prompt="Choose a proper divisor to divide N: ",
        moved="{you} chose {d}. Calculating {n} ÷ {d}...\nNew N is {new}.",
        lost_turn="{why} Invalid move: {player} loses the turn.",
        show_stuck="Current N: {n}",
        passed="{why} Turn passed.",
        end_passes="No valid moves remaining.\nLast successful move was made by {winner}.\n"
        "Congratulations, {winner} wins the game!",
    ),
)
RULES = NUMBER_FACTOR

_NF_NOTE = r"""

**Number Factor is the same game.** Its "reach 1 wins" clause can never fire, because $N / d \ge 2$
for every allowed $d$. A player facing a prime must pass, the opponent must pass too (the number has
not changed), and then the last player who moved wins — exactly as if the game had ended when the
first player got stuck. So passing changes nothing about who wins.
"""

NUMBER_FACTOR_FORM = ClosedForm(
    name="Number Factor",
    rules=NUMBER_FACTOR,
    statement="$n$ is a P-position iff $n$ is 1 or prime; every composite $n$ wins in one move.",
    proof=(DIVISION_PROOF + _NF_NOTE).strip(),
    p_rule=division_is_p,
    move_rule=division_move,
    explain_rule=division_explainer(passing=True),
    grundy_rule=division_grundy,
    hint=("What can a player do when handed a prime? Can you hand one over from {n} right now?"),
)


CLOSED_FORMS = (NUMBER_FACTOR_FORM,)
