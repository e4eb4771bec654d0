"""`duel-lessons play --sum`: scripted games on several numbers at once (expectations worked out by hand)."""

from __future__ import annotations

import io
import itertools

from duel_lessons.cli.app import main


def run(argv: list[str], typed: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, io.StringIO(typed), out, err)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code, out.getvalue(), err.getvalue()


def lines(*values: str) -> str:
    return "".join(v + "\n" for v in values)


def test_hot_seat_game_to_the_end() -> None:
    # 4 + 6: Player 1 plays 4 - 2 = 2, Player 2 plays 6 - 3 = 3; nothing is left for Player 1.
    code, out, _ = run(["play", "--sum", "4", "6"], lines("1 2", "2 3"))
    assert code == 0
    assert "Sum of games: 4 (Divisor Duel) + 6 (Divisor Duel)" in out
    assert "Player 1 plays 2 in component 1: 4 - 2 = 2." in out
    assert "Player 2 plays 3 in component 2: 6 - 3 = 3." in out
    assert out.rstrip().endswith("Player 1 has no move in any component. Player 2 wins!")


def test_typing_mistakes_are_explained_and_asked_again() -> None:
    typed = lines("2", "abc", "3 2", "1 3", "0 2", "", "1 2", "2 3")
    code, out, _ = run(["play", "--sum", "4", "6"], typed)
    assert code == 0
    assert "'2' is not a move. Type two whole numbers: the component (1 to 2) and a divisor" in out
    assert "'abc' is not a move" in out
    assert "There is no component 3: choose a component from 1 to 2." in out
    assert "There is no component 0" in out
    assert "Cannot play 3 in component 1 (Divisor Duel at 4): 3 does not divide 4. Try again." in out
    assert "Player 2 wins!" in out


def test_components_name_their_own_books() -> None:
    code, out, _ = run(["play", "--sum", "12", "division-duel:18", "factor-duel:5"], lines("2 6"))
    assert code == 1  # input ended after one move
    assert "12 (Divisor Duel) + 18 (Division Duel) + 5 (Factor Duel)" in out
    assert "Player 1 plays 6 in component 2: 18 ÷ 6 = 3." in out
    assert "3. Factor Duel" in out and "no moves left" in out


def test_hint_in_hot_seat_explains_the_xor() -> None:
    code, out, _ = run(["play", "--sum", "12", "18", "30"], lines("hint"))
    assert code == 1  # input ended
    assert "Coach: 12 (Divisor Duel) has Grundy value 3" in out
    assert "3 XOR 1 XOR 1 = 3" in out and "component 1" in out


def test_perfect_computer_wins_from_an_n_position() -> None:
    # 12 + 18 + 30 has XOR 3: the computer moves first and must win whatever is typed.
    attempts = [f"{c} {d}" for c, d in itertools.product(range(1, 4), range(2, 16))]
    code, out, _ = run(
        ["play", "--sum", "12", "18", "30", "--vs", "computer", "--computer-first"], lines(*attempts * 40)
    )
    assert code == 0
    assert "Computer chooses 1 3." in out  # the first winning move: 12 - 3 = 9
    assert out.rstrip().endswith("Computer wins!")
    assert "The coach is not in this game" not in out


def test_computer_levels_and_hints() -> None:
    code, out, _ = run(["play", "--sum", "4", "6", "--vs", "computer", "--level", "greedy"], lines("?", "1 2"))
    assert code == 0 and "The coach is not in this game" in out
    assert "Computer chooses 2 3." in out and "Computer wins!" in out
    code, out, _ = run(["play", "--sum", "4", "6", "--vs", "computer", "--level", "coach"], lines("?", "1 2"))
    assert "Coach:" in out


def test_bad_sums_are_usage_errors() -> None:
    for argv, words in (
        (["play", "--sum", "12", "division-duel:7"], "7 is prime"),
        (["play", "--sum", "12", "--start", "5"], "cannot go with --start"),
        (["play", "--sum", "12", "--misere"], "misère"),
        (["play", "--sum", "12", "foo:12"], "Unknown rule book"),
        (["play", "--sum", "12", "x"], "not a component"),
        (["play", "--sum", "12", "--level", "random"], "need --vs computer"),
    ):
        code, _, err = run(argv)
        assert code == 2 and words in err, (argv, err)


def test_numbers_beyond_every_table() -> None:
    code, out, _ = run(["play", "--sum", "99999999", "12"], lines("hint"))
    assert code == 1 and "The coach cannot help here" in out and "99,999,999" in out and "Grundy value" in out
    code, out, err = run(["play", "--sum", "99999999", "12", "--vs", "computer"])
    assert code == 2 and "Grundy value" in err and "99,999,999" in err and "Sum of games" not in out
