"""The terminal game: `duel-lessons play` reads like each rule book's transcript.

Expectations come from the rule books' own text or from working the games out
by hand, never from the command line's own output.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from duel_lessons import DIVISOR_DUEL, new_game
from duel_lessons.books.divisor_duel import BOOK_002_WORDING
from duel_lessons.cli.app import main
from duel_lessons.cli.console import Console
from duel_lessons.cli.terminal import play_game
from duel_lessons.engine.game import GameState

from books import book_text

ROOT = Path(__file__).resolve().parents[1]


def code_blocks(book: str) -> list[str]:
    """The fenced code blocks of a book, each with one final newline."""
    found = re.findall(r"^( *)```[a-z]*\n(.*?)^\1```", book_text(book), re.S | re.M)
    return [textwrap.dedent(b).strip("\n") + "\n" for _, b in found]


def run(argv: list[str], typed: str = "", stdin: object = None) -> tuple[int, str, str]:
    """Run main() with scripted input; return (exit code, stdout, stderr). Never a traceback."""
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin if stdin is not None else io.StringIO(typed), out, err)  # type: ignore[arg-type]
    assert "Traceback" not in err.getvalue() + out.getvalue()
    return code, out.getvalue(), err.getvalue()


def lines_typed(*values: object) -> str:
    return "".join(f"{v}\n" for v in values)


class AutoStdin(io.StringIO):
    """Typed input that always answers with the smallest divisor shown so far (for random starts)."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.calls = 0

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        self.calls += 1
        assert self.calls < 500, "the game does not end"
        shown = re.findall(r"[Dd]ivisors[^:\n]*: (\d[\d, ]*)$", self.out.getvalue(), re.M)
        return str(shown[-1]).replace(",", " ").split()[0] + "\n"


def auto_run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, AutoStdin(out), out, err)
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue(), err.getvalue()


# -- the books' transcripts ------------------------------------------------------------


def test_book_000_transcript_exactly() -> None:
    (block,) = code_blocks("000")
    code, out, err = run(["play", "divisor-duel", "--start", "60"], lines_typed(15, 15, 15, 5, 5))
    assert (code, err) == (0, "")
    assert out == block


def test_book_000_is_the_default_game() -> None:
    (block,) = code_blocks("000")
    assert run(["play"], lines_typed(15, 15, 15, 5, 5))[1] == block


def test_book_002_game_moves_and_result() -> None:
    (block,) = code_blocks("002")
    typed = [int(v) for v in re.findall(r"Enter the divisor to subtract: (\d+)", block)]
    numbers = [int(v) for v in re.findall(r"New current number is (\d+)", block)]
    assert typed == [6, 2, 2]
    code, out, _ = run(["play", "divisor-duel", "--start", "12"], lines_typed(*typed))
    assert code == 0
    assert [int(v) for v in re.findall(r"New N is (\d+)", out)] == numbers
    assert out.rstrip().splitlines()[-1].endswith(block.rstrip().splitlines()[-1].split(". ")[-1])  # Player 1 wins!


def test_book_002_wording_through_play_game() -> None:
    (block,) = code_blocks("002")
    rules = dataclasses.replace(DIVISOR_DUEL, wording=BOOK_002_WORDING)
    out = io.StringIO()
    final = play_game(new_game(rules, 12), {1: None, 2: None}, io=Console(io.StringIO("6\n2\n2\n"), out))
    assert out.getvalue() == block
    assert final.winner == 1


def test_book_004_transcript_exactly_two_passes_last_mover_wins() -> None:
    (block,) = code_blocks("004")
    code, out, _ = run(["play", "number-factor", "--start", "30"], lines_typed(5, 2))
    assert code == 0
    assert out == block
    assert out.count("Turn passed.") == 2


def test_book_004_lost_turn() -> None:
    # 7 does not divide 30: Player 1 loses the turn; then 30/5 = 6 (P2), 6/2 = 3 (P1),
    # both pass at the prime 3, and Player 1 made the last successful move.
    code, out, _ = run(["play", "number-factor"], lines_typed(7, 5, 2))
    assert code == 0
    lines = out.splitlines()
    i = lines.index("Choose a proper divisor to divide N: 7")
    assert "Player 1 loses the turn" in lines[i + 1]
    assert "does not divide 30" in lines[i + 1]
    assert lines[i + 3] == "Player 2's turn."
    assert out.count("Turn passed.") == 2
    assert lines[-1] == "Congratulations, Player 1 wins the game!"


@pytest.mark.parametrize(
    ("value", "reason"),
    [("0", "not a positive"), ("-5", "not a positive"), ("30", "not less than 30"), (str(10**30), "not less than")],
)
def test_book_004_every_illegal_whole_number_loses_the_turn(value: str, reason: str) -> None:
    code, out, _ = run(["play", "number-factor"], lines_typed(value, 5, 2))
    assert code == 0
    assert reason in out
    assert "Player 1 loses the turn" in out
    assert out.splitlines()[-1] == "Congratulations, Player 1 wins the game!"


def test_book_001_games() -> None:
    blocks = code_blocks("001")
    out_1 = run(["play", "division-duel"], lines_typed(5, 6))[1]
    # Every display block of the book's command-line example appears, in order.
    position = 0
    for block in blocks:
        found = out_1.find(block, position)
        assert found >= 0, block
        position = found + len(block)
    prompts = re.findall(r"Input Prompt:\*\* `(.*?)`", book_text("001"))
    assert prompts == ["Player 1, enter your chosen divisor: ", "Player 2, enter your chosen divisor: "]
    assert prompts[0] + "5" in out_1.splitlines()
    assert prompts[1] + "6" in out_1.splitlines()
    assert out_1.splitlines()[-1] == "Player 1 has no valid moves. Player 2 wins!"
    # Example 2: 60 / 4 = 15, 15 / 5 = 3, Player 1 faces a prime and loses.
    out_2 = run(["play", "division-duel", "--start", "60"], lines_typed(4, 5))[1]
    assert "New Shared Number is 3." in out_2
    assert out_2.splitlines()[-1] == "Player 1 has no valid moves. Player 2 wins!"


def test_book_003_examples_follow_the_rule() -> None:
    # Example 2: 30 -15-> 15 -5-> 10 -5-> 5; Player 1 moved to the prime 5 and wins.
    code, out, _ = run(["play", "factor-duel", "--start", "30"], lines_typed(15, 5, 5))
    assert code == 0
    assert "Player 1 subtracts 5: 10 - 5 = 5" in out
    assert out.splitlines()[-1].endswith("Player 1 wins!")
    # Example 1: the sixth move, 10 -> 5, is Player 2's, so Player 2 wins (ruling 5).
    out = run(["play", "factor-duel"], lines_typed(25, 25, 25, 5, 10, 5))[1]
    assert out.startswith("Game Start! Starting Number: 100\n")
    assert "Player 2 subtracts 5: 10 - 5 = 5" in out
    assert out.splitlines()[-1].endswith("Player 2 wins!")


def test_moving_to_one_loses_in_a_custom_variant() -> None:
    # (In Factor Duel itself 1 is only reachable from the prime 2, where the game is already over.)
    # 3 -1-> 2 (P1), 2 -1-> 1 (P2): Player 2 moved to 1 and loses.
    argv = ["play", "divisor-duel", "--allow-one", "--lose-on-reaching", "one", "--start", "3"]
    out = run(argv, lines_typed(1, 1))[1]
    assert out.splitlines()[-1].endswith("Player 1 wins!")


# -- bad input during play -----------------------------------------------------------

NOT_NUMBERS = ["abc", "1.5", "", "   ", "1e3", "0x10", "1_000", "٣", "5 5", "x" * 5000, "9" * 5000]
BOOK_GAMES = {  # book -> (start, a line of play, the last line, the first prompt)
    "divisor-duel": (60, [15, 15, 15, 5, 5], "No valid moves left. Player 1 wins!", "Enter your chosen divisor: "),
    "division-duel": (
        60,
        [5, 6],
        "Player 1 has no valid moves. Player 2 wins!",
        "Player 1, enter your chosen divisor: ",
    ),
    "factor-duel": (
        30,
        [15, 5, 5],
        "Player 1 moved to 5, a prime number. Player 1 wins!",
        "Enter the divisor to subtract: ",
    ),
    "number-factor": (30, [5, 2], "Congratulations, Player 2 wins the game!", "Choose a proper divisor to divide N: "),
}


@pytest.mark.parametrize("book", list(BOOK_GAMES))
@pytest.mark.parametrize("junk", NOT_NUMBERS, ids=lambda junk: repr(junk[:12]) + f"_{len(junk)}")
def test_text_that_is_not_a_whole_number_is_asked_again_in_every_book(book: str, junk: str) -> None:
    start, moves, last, question = BOOK_GAMES[book]
    code, out, _ = run(["play", book, "--start", str(start)], lines_typed(junk, *moves))
    assert code == 0
    assert out.splitlines()[-1] == last
    assert "loses the turn" not in out
    lines = out.splitlines()
    first_prompt = next(i for i, line in enumerate(lines) if line.startswith(question))
    assert lines[first_prompt].startswith(question + junk[:40].rstrip())
    message = lines[first_prompt + 1]
    assert "whole number" in message or "too long" in message or "Nothing was typed" in message
    assert len(message) < 200
    assert lines[first_prompt + 2].endswith(f": {moves[0]}")  # asked again at once


def test_overlong_line_is_dropped_whole() -> None:
    code, out, _ = run(["play"], "1" * 100_000 + "\n" + lines_typed(15, 15, 15, 5, 5))
    assert code == 0
    assert "too long" in out
    assert out.count("Enter your chosen divisor: ") == 6
    assert out.splitlines()[-1] == "No valid moves left. Player 1 wins!"


@pytest.mark.parametrize("book", ["divisor-duel", "division-duel", "factor-duel"])
@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("7", "7 does not divide"),
        ("0", "0 is not a positive whole number"),
        ("-5", "-5 is not a positive whole number"),
        ("START", "is not less than"),
        (str(10**30), "is not less than"),
    ],
)
def test_illegal_whole_numbers_are_explained_and_asked_again(book: str, value: str, reason: str) -> None:
    start, moves, last, question = BOOK_GAMES[book]
    value = str(start) if value == "START" else value
    code, out, _ = run(["play", book, "--start", str(start)], lines_typed(value, *moves))
    assert code == 0
    lines = out.splitlines()
    i = lines.index(question + value)
    assert reason in lines[i + 1]
    assert lines[i + 2].endswith(f": {moves[0]}")
    assert lines[-1] == last


def test_retry_keeps_the_same_player() -> None:
    out = run(["play", "division-duel"], lines_typed(7, 8, 5, 6))[1]
    assert out.count("Player 1, enter your chosen divisor: ") == 3
    assert out.count("Player 2, enter your chosen divisor: ") == 1


def test_no_echo_at_a_terminal() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    code, out, _ = run(["play"], stdin=Tty(lines_typed(15, 15, 15, 5, 5)))
    assert code == 0
    assert "Enter your chosen divisor: Subtracting 15 from 60. New N is 45." in out.splitlines()


# -- passes ------------------------------------------------------------------------


def test_pass_is_automatic_and_needs_no_input() -> None:
    # Only two moves are typed; both passes happen without reading anything.
    code, out, _ = run(["play", "number-factor", "--start", "30"], lines_typed(5, 2))
    assert code == 0
    assert out.count("Choose a proper divisor") == 2


# -- end of input and Ctrl-C ---------------------------------------------------------


def test_end_of_input_abandons_the_game() -> None:
    code, out, err = run(["play"], lines_typed(15))
    assert code == 1
    assert "Input ended" in err and "abandoned" in err
    assert out.count("Enter your chosen divisor: ") == 2


def test_end_of_input_on_an_empty_stdin() -> None:
    assert run(["play", "number-factor"])[0] == 1


class Interrupting(io.StringIO):
    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        raise KeyboardInterrupt


def test_ctrl_c_exits_130() -> None:
    code, _, err = run(["play"], stdin=Interrupting())
    assert code == 130
    assert "Interrupted" in err


def test_ctrl_c_via_monkeypatched_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    def ask(self: Console, question: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(Console, "ask", ask)
    assert run(["play", "factor-duel"])[0] == 130


def test_eof_via_monkeypatched_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    def ask(self: Console, question: str) -> str:
        raise EOFError

    monkeypatch.setattr(Console, "ask", ask)
    assert run(["play", "division-duel"])[0] == 1


# -- starts --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["play", "number-factor", "--start", "7"], ["7", "prime"]),
        (["play", "division-duel", "--start", "13"], ["13", "prime"]),
        (["play", "division-duel", "--start", "1"], ["1"]),
        (["play", "factor-duel", "--start", "2"], ["2", "greater than 2"]),
        (["play", "--start", "0"], ["0"]),
        (["play", "--start", "-5"], ["-5"]),
        (["play", "--start=-5"], ["-5"]),
        (["play", "--start", str(10**18 + 1)], [str(10**18 + 1), "too big"]),
        (["play", "--start", "abc"], ["abc", "whole number"]),
        (["play", "--start", "1.5"], ["1.5"]),
        (["play", "--start", "9" * 5000], ["whole number"]),
    ],
)
def test_bad_start_is_refused_with_a_reason(argv: list[str], words: list[str]) -> None:
    code, out, err = run(argv, lines_typed(2, 2, 2))
    assert code == 2
    assert out == ""
    for word in words:
        assert word in err
    assert len(err) < 500


def test_largest_start_is_accepted() -> None:
    code, out, _ = run(["play", "--start", str(10**18)], "")
    assert code == 1  # input ended, but the game began
    assert out.startswith(f"Game Start! Current Number (N): {10**18}\n")


def test_prime_start_in_divisor_duel_ends_at_once() -> None:
    code, out, _ = run(["play", "--start", "7"], "")
    assert code == 0
    assert out.splitlines()[-1] == "No valid moves left. Player 2 wins!"


def start_of(out: str) -> list[int]:
    return [int(v) for v in re.findall(r"(?:Current Number \(N\)|Shared Number|Starting number \(N\) is): (\d+)", out)]


@pytest.mark.parametrize("book", ["divisor-duel", "division-duel", "number-factor"])
def test_random_start_is_legal_and_reproducible(book: str) -> None:
    argv = ["play", book, "--random-start", "10", "50", "--seed", "3"]
    first, again = auto_run(argv), auto_run(argv)
    assert first == again
    assert first[0] == 0
    (start,) = re.findall(r"^(?:Game Start!|Starting number).*?(\d+)\.?$", first[1], re.M)
    n = int(start)
    assert 10 <= n <= 50
    if book != "divisor-duel":
        assert any(n % p == 0 for p in range(2, n))  # composite


def test_random_start_depends_on_the_seed() -> None:
    starts = set()
    for seed in range(8):
        out = auto_run(["play", "--random-start", "10", "1000", "--seed", str(seed)])[1]
        starts.add(out.splitlines()[0])
    assert len(starts) > 1


def test_random_start_single_legal_value() -> None:
    # 10..11 for Number Factor: 11 is prime, only 10 can start.
    out = auto_run(["play", "number-factor", "--random-start", "10", "11", "--seed", "1"])[1]
    assert out.startswith("Welcome to Number Factor!\nStarting number (N) is 10.\n")


@pytest.mark.parametrize(
    "bounds",
    [["50", "10"], ["0", "10"], ["1", str(10**19)], ["a", "10"], ["13", "13"], ["11", "11"]],
)
def test_bad_random_start_ranges(bounds: list[str]) -> None:
    code, out, err = run(["play", "number-factor", "--random-start", *bounds])
    assert code == 2
    assert out == ""
    assert "error" in err


def test_huge_random_range_is_sampled_quickly() -> None:
    code, out, _ = run(["play", "division-duel", "--random-start", "1", str(10**18), "--seed", "5"], "")
    assert code == 1
    assert out.startswith("Game Start! Shared Number: ")


def test_start_and_random_start_exclude_each_other() -> None:
    code, _, err = run(["play", "--start", "12", "--random-start", "10", "20"])
    assert code == 2
    assert "not allowed with" in err


# -- who moves first ---------------------------------------------------------------


def test_first_2() -> None:
    out = run(["play", "division-duel", "--first", "2"], lines_typed(5, 6))[1]
    assert out.splitlines()[-1] == "Player 2 has no valid moves. Player 1 wins!"
    assert out.index("Player 2, enter") < out.index("Player 1, enter")


def test_first_random_is_seeded() -> None:
    firsts = set()
    for seed in range(10):
        argv = ["play", "division-duel", "--first", "random", "--seed", str(seed)]
        out = run(argv, lines_typed(30))[1]
        assert out == run(argv, lines_typed(30))[1]
        firsts.add(re.search(r"(Player \d), enter", out).group(1))  # type: ignore[union-attr]
    assert firsts == {"Player 1", "Player 2"}


# -- match play ------------------------------------------------------------------------


def test_best_of_3_scores_and_alternation() -> None:
    # 60 / 30 = 2 ends a Division Duel game at once: whoever moves first wins.
    code, out, _ = run(["play", "division-duel", "--best-of", "3"], lines_typed(30, 30, 30, 30))
    assert code == 0
    games = re.split(r"^=== Game \d.*$", out, flags=re.M)[1:]
    assert len(games) == 3
    movers = [re.search(r"(Player \d), enter", g).group(1) for g in games]  # type: ignore[union-attr]
    assert movers == ["Player 1", "Player 2", "Player 1"]
    scores = re.findall(r"^Score: Player 1 (\d) . (\d) Player 2$", out, re.M)
    assert scores == [("1", "0"), ("1", "1"), ("2", "1")]
    assert out.rstrip().splitlines()[-1].startswith("Player 1 wins the match")


def test_best_of_5_stops_when_decided() -> None:
    # Game 1: P1 plays 30 and wins. Game 2: P2 plays 2 (60 -> 30), P1 plays 15 (-> 2) and wins.
    # Game 3: P1 plays 30 and wins: 3 - 0, no game 4.
    code, out, _ = run(["play", "division-duel", "--best-of", "5"], lines_typed(30, 2, 15, 30, 30))
    assert code == 0
    assert "=== Game 3" in out and "=== Game 4" not in out
    scores = re.findall(r"^Score: Player 1 (\d) . (\d) Player 2$", out, re.M)
    assert scores == [("1", "0"), ("2", "0"), ("3", "0")]
    assert "Player 1 wins the match" in out


def test_best_of_5_goes_the_distance() -> None:
    code, out, _ = run(["play", "division-duel", "--best-of", "5", "--first", "2"], lines_typed(*[30] * 5))
    assert code == 0
    scores = re.findall(r"^Score: Player 1 (\d) . (\d) Player 2$", out, re.M)
    assert scores == [("0", "1"), ("1", "1"), ("1", "2"), ("2", "2"), ("2", "3")]
    assert "Player 2 wins the match" in out


def test_match_with_random_starts_draws_each_game() -> None:
    seen = []
    for seed in range(5):
        argv = ["play", "division-duel", "--best-of", "3", "--random-start", "10", "500", "--seed", str(seed)]
        seen.append(start_of(auto_run(argv)[1]))
    assert all(len(s) >= 2 for s in seen)
    assert any(len(set(s)) > 1 for s in seen)


@pytest.mark.parametrize("k", ["0", "2", "-3", "4"])
def test_best_of_must_be_odd_and_positive(k: str) -> None:
    code, out, err = run(["play", "--best-of", k])
    assert code == 2 and out == ""
    assert "odd" in err


def test_eof_during_a_match() -> None:
    assert run(["play", "division-duel", "--best-of", "3"], lines_typed(30))[0] == 1


# -- rules by name and custom variants ------------------------------------------------


def test_unknown_rule_book_lists_known_names() -> None:
    code, out, err = run(["play", "divisor-dual"])
    assert code == 2 and out == ""
    for name in ("divisor-duel", "division-duel", "factor-duel", "number-factor"):
        assert name in err


def test_even_divisors_variant() -> None:
    # Even divisors of 24 below 24: 2, 4, 6, 8, 12.  3 is refused; 12 leaves 12, then 6, ...
    code, out, _ = run(["play", "divisor-duel", "--divisors", "even", "--start", "24"], lines_typed(3, 12, 6, 2, 2))
    assert code == 0
    assert "2, 4, 6, 8, 12" in out
    assert "3 is odd" in out
    # 24 -12-> 12 -6-> 6 -2-> 4 -2-> 2: Player 2 moved last; Player 1 has no even divisor of 2.
    assert out.rstrip().endswith("Player 2 wins!")


def test_misere_flag() -> None:
    # 6 -3-> 3: Player 1 moved last and, in misere play, loses.
    out = run(["play", "--misere", "--start", "6"], lines_typed(3))[1]
    assert out.rstrip().endswith("Player 2 wins!")


def test_when_stuck_pass_flag() -> None:
    out = run(["play", "--when-stuck", "pass", "--start", "6"], lines_typed(3))[1]
    assert out.count("Turn passed.") == 2
    assert out.rstrip().endswith("Player 1 wins!")


def test_win_and_lose_on_reaching_flags() -> None:
    won = run(["play", "--win-on-reaching", "prime", "--start", "6"], lines_typed(3))[1]
    lost = run(["play", "--lose-on-reaching", "prime", "--start", "6"], lines_typed(3))[1]
    assert won.rstrip().endswith("Player 1 wins!")
    assert lost.rstrip().endswith("Player 2 wins!")


def test_move_divide_and_allow_one_flags() -> None:
    divided = run(["play", "--move", "divide"], lines_typed(30))[1]
    assert "60 ÷ 30 = 2" in divided
    one = run(["play", "--allow-one", "--start", "3"], lines_typed(1, 1))[1]
    assert "Allowed divisors of 3: 1" in one
    no_one = run(["play", "factor-duel", "--no-allow-one", "--start", "30"], "")[1]
    assert "Allowed divisors of 30: 2, 3, 5, 6, 10, 15" in no_one


def test_on_invalid_flag() -> None:
    out = run(["play", "--on-invalid", "lose-turn", "--start", "60"], lines_typed(7))[1]
    assert "Player 1 loses the turn" in out


@pytest.mark.parametrize(
    "flags",
    [
        ["--move", "divide", "--allow-one"],
        ["--win-on-reaching", "prime", "--lose-on-reaching", "prime"],
    ],
)
def test_inconsistent_variant_is_refused(flags: list[str]) -> None:
    code, out, err = run(["play", *flags])
    assert code == 2 and out == ""
    assert err.startswith("duel-lessons: error: ")


def test_unknown_flag_value() -> None:
    code, _, err = run(["play", "--divisors", "square"])
    assert code == 2
    assert "invalid choice" in err


def test_vs_choices() -> None:
    assert run(["play", "--vs", "human"], lines_typed(15, 15, 15, 5, 5))[0] == 0
    assert run(["play", "--vs", "computer"])[0] == 1  # a valid game; the input ends at once
    assert run(["play", "--vs", "robot"])[0] == 2  # (computer games: tests/test_cli_solver.py)


# -- the rules command and help --------------------------------------------------------------


def test_rules_command() -> None:
    code, out, _ = run(["rules"])
    assert code == 0
    for title in ("Divisor Duel", "Division Duel", "Factor Duel", "Number Factor"):
        assert title in out
    out = run(["rules", "number-factor"])[1]
    assert "pass" in out and "Divisor Duel" not in out
    assert "even divisors" in run(["rules", "--divisors", "even"])[1]
    assert run(["rules", "nope"])[0] == 2


def test_help_has_examples() -> None:
    code, out, _ = run(["--help"])
    assert code == 0 and "examples" in out
    code, out, _ = run(["play", "--help"])
    assert code == 0 and "--best-of" in out and "alternates" in out and "examples" in out


def test_no_command_is_a_usage_error() -> None:
    assert run([])[0] == 2


# -- strategies plug in -------------------------------------------------------------------


def test_strategies_play_and_print_like_a_human() -> None:
    def biggest(state: GameState) -> int:
        return state.legal_moves[-1]

    out = io.StringIO()
    final = play_game(new_game("number-factor", 30), {1: biggest, 2: biggest}, io=Console(io.StringIO(), out))
    assert out.getvalue() == final.transcript()
    assert final.history[0].divisor == 15  # type: ignore[union-attr]


# -- as a program --------------------------------------------------------------------------


def test_python_dash_m() -> None:
    (block,) = code_blocks("000")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    result = subprocess.run(
        [sys.executable, "-m", "duel_lessons", "play", "divisor-duel", "--start", "60"],
        input=lines_typed(15, 15, 15, 5, 5),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env=env,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == block
    eof = subprocess.run(
        [sys.executable, "-m", "duel_lessons", "play", "number-factor", "--start", "7"],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert eof.returncode == 2
    assert "Traceback" not in eof.stderr and "prime" in eof.stderr


def test_variant_helpers_are_reusable_by_other_subcommands() -> None:
    import argparse

    from duel_lessons.cli.options import add_variant_arguments, rules_from_args

    parser = argparse.ArgumentParser()
    add_variant_arguments(parser)
    plain = rules_from_args(parser.parse_args([]))
    assert plain is DIVISOR_DUEL
    even = rules_from_args(parser.parse_args(["number-factor", "--divisors", "even", "--misere"]))
    assert (even.move, even.divisors, even.last_mover_wins, even.when_stuck) == ("divide", "even", False, "pass")
    assert even.divisors_of(24) == (2, 4, 6, 8, 12)


# -- the game is never lost: where an abandoned game stood, and going on from there -------------


def test_an_abandoned_game_says_where_it_stood_and_how_to_go_on() -> None:
    # Divisor Duel from 60: 60 - 15 = 45, 45 - 5 = 40, then input ends with Player 1 to move from 40.
    code, _, err = run(["play", "--start", "60"], lines_typed(15, 5))
    assert code == 1
    assert "Player 1 to move from 40" in err and "--start 40 --first 1" in err
    # Going on as told: P1 40 - 8 = 32, P2 32 - 16 = 16, P1 16 - 8 = 8, P2 8 - 4 = 4, P1 4 - 2 = 2,
    # and Player 2 has no move from the prime 2.
    code, out, _ = run(["play", "--start", "40", "--first", "1"], lines_typed(8, 16, 8, 4, 2))
    assert code == 0 and out.rstrip().endswith("Player 1 wins!")


def test_ctrl_c_in_a_game_against_the_computer_names_the_position() -> None:
    class TwoLinesThenCtrlC(io.StringIO):
        def readline(self, size: int | None = -1, /) -> str:
            line = super().readline()
            if not line:
                raise KeyboardInterrupt
            return line

    code, _, err = run(
        ["play", "--vs", "computer", "--level", "greedy", "--start", "60"], stdin=TwoLinesThenCtrlC("15\n")
    )
    # 60 - 15 = 45; greedy plays 15: 45 - 15 = 30; Ctrl-C with Player 1 to move from 30.
    assert code == 130 and "Interrupted" in err and "Player 1 to move from 30" in err


def test_the_computer_says_when_it_builds_a_large_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from duel_lessons.cli import terminal

    monkeypatch.setattr(terminal, "QUICK_TABLE", 100)
    code, out, err = run(["play", "--misere", "--vs", "computer", "--start", "5000"], "")
    assert code == 1 and "Building the computer's table up to 5,000" in err and "Game start" in out


def test_hints_say_more_each_time_they_are_asked_at_one_position() -> None:
    from duel_lessons.play import coach

    state = new_game("divisor-duel", 60)
    names = ("Player 1", "Computer")
    stages = [coach.hint(state, names, stage) for stage in (1, 2, 3)]
    assert len(set(stages)) == 3
    code, out, _ = run(["play", "--vs", "computer", "--level", "coach"], lines_typed("hint", "?", "hint", "hint"))
    replies = [line.removeprefix("Coach: ") for line in out.splitlines() if line.startswith("Coach: ")]
    assert code == 1 and replies == [stages[0], stages[1], stages[2], stages[2]]
    # Two people at one keyboard: hints stop at the nudge (stage 2), and never give the move away.
    hot = [coach.hint(state, ("Player 1", "Player 2"), stage) for stage in (1, 2)]
    code, out, _ = run(["play"], lines_typed("hint", "hint", "hint"))
    replies = [line.removeprefix("Coach: ") for line in out.splitlines() if line.startswith("Coach: ")]
    assert code == 1 and replies == [hot[0], hot[1], hot[1]]
