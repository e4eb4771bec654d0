"""Fuzzing the terminal game with scripted input (issue 13 §4).

Hypothesis types random lines at every book and a few variants: random text,
digits that are not ASCII (², ⑧, ١٢, １２), huge numbers, empty lines, control
characters, the coach's words, then end of input or Ctrl-C.  Each script is also
played by a reference model written here (a line is a move exactly when it is
ASCII digits with an optional sign and spaces; the engine decides the rest), so:

* there is never a traceback, and the exit status is the documented one
  (0 the game ended, 1 input ended, 130 Ctrl-C);
* no slip changes the game: the terminal's final state is the model's, move for move;
* when a game is abandoned, the message says where it stood, and that is where it stood.
"""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from duel_lessons.cli.app import main
from duel_lessons.cli.console import Console
from duel_lessons.cli.terminal import GameAbandoned, play_game
from duel_lessons.engine.game import GameState
from duel_lessons.engine.rules import RULEBOOKS, Rules, get_rules
from duel_lessons.play.sums import SumState, new_sum

#: Every shipped book and a few variants, as (command-line flags, Rules).
GAMES: list[tuple[list[str], Rules]] = [([name], rules) for name, rules in RULEBOOKS.items()] + [
    (["divisor-duel", "--divisors", "even"], get_rules("divisor-duel").variant(None, divisors="even")),
    (["divisor-duel", "--misere"], get_rules("divisor-duel").variant(None, last_mover_wins=False)),
    (["divisor-duel", "--allow-one"], get_rules("divisor-duel").variant(None, allow_one=True)),
    (["divisor-duel", "--on-invalid", "lose-turn"], get_rules("divisor-duel").variant(None, on_invalid="lose-turn")),
    (["division-duel", "--when-stuck", "pass"], get_rules("division-duel").variant(None, when_stuck="pass")),
]

WORDS = ["hint", "?", "explain", "HINT ", " Explain", "Hint?", "pass", "quit", "help", "exit"]
NOT_ASCII = ["²", "2²", "⑧", "١٢", "１２", "٣", "𝟙𝟚", "½", "Ⅻ", "12\u200b", "\u00a012", "1٢"]
CONTROL = ["\x00", "\x1b[2J", "\x07", "\r", "12\r", "\t", "1\x002", "\ufeff12", "\ud800"]


def lines() -> st.SearchStrategy[str]:
    """One typed line (never containing a newline)."""
    small = st.integers(-3, 70).map(str)
    spaced = st.tuples(st.sampled_from(["", " ", "\t", "  "]), small, st.sampled_from(["", " ", "\t"])).map("".join)
    return st.one_of(
        small,
        small,
        spaced,
        st.sampled_from(["+6", "-0", "007", "+0", "2.0", "1e3", "0x10", "6,", "3 4", "--5"]),
        st.integers(10**17, 10**400).map(str),
        st.just("9" * 1001),
        st.sampled_from(["", " ", "   "]),
        st.sampled_from(WORDS),
        st.sampled_from(NOT_ASCII),
        st.sampled_from(CONTROL),
        st.text(max_size=40),
        st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=8),
    ).map(lambda text: text.replace("\n", " "))


PLAIN = re.compile(r"[ \t\r]*[+-]?[0-9]+[ \t\r]*", re.ASCII)


def reference(state: GameState, typed: list[str]) -> tuple[GameState, bool]:
    """Play the script as the rule books say; return the last state and whether the input ran out."""
    queue = list(typed)
    while not state.is_over:
        if state.must_pass:
            state = state.pass_turn()
            continue
        if not queue:
            return state, True
        line = queue.pop(0)[:1001]
        if len(line) > 1000 or not PLAIN.fullmatch(line):
            continue  # a slip (or a word for the coach): asked again
        value = int(line)
        if state.check(value) is None or state.rules.on_invalid == "lose-turn":
            state = state.attempt(value)
    return state, False


def starts(rules: Rules) -> st.SearchStrategy[int]:
    return st.integers(2, 400).filter(lambda n: rules.start_problem(n) is None)


@st.composite
def sessions(draw: st.DrawFn) -> tuple[list[str], Rules, int, list[str]]:
    flags, rules = draw(st.sampled_from(GAMES))
    start = draw(starts(rules))
    state = GameState(rules, start)
    moves = [str(d) for d in (state.legal_moves or (2,))]
    good = st.sampled_from(moves)  # enough real moves that games often end
    typed = draw(st.lists(st.one_of(lines(), good, good), max_size=40))
    return flags, rules, start, typed


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(sessions())
def test_scripted_input_never_loses_the_game(session: tuple[list[str], Rules, int, list[str]]) -> None:
    flags, rules, start, typed = session
    script = "".join(line + "\n" for line in typed)
    expected, ran_out = reference(GameState(rules, start), typed)
    event("input ended mid-game" if ran_out else "game played to the end")

    out = io.StringIO()
    try:
        final = play_game(
            GameState(rules, start), {1: None, 2: None}, io=Console(io.StringIO(script), out), hints="hint"
        )
        abandoned = False
    except GameAbandoned as stop:
        final, abandoned = stop.state, True
    assert abandoned == ran_out
    assert final.history == expected.history and final.number == expected.number
    assert final.to_move == expected.to_move and final.is_over == expected.is_over

    out, err = io.StringIO(), io.StringIO()
    code = main(["play", *flags, "--start", str(start)], io.StringIO(script), out, err)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    if ran_out:
        assert code == 1
        message = err.getvalue().strip()
        assert message.count("\n") == 0 and "Input ended" in message
        assert f"to move from {expected.number})" in message
    else:
        assert code == 0 and err.getvalue() == "" and "wins" in out.getvalue().lower()


class InterruptAfter(io.StringIO):
    """Typed lines, then Ctrl-C."""

    def __init__(self, text: str, count: int) -> None:
        super().__init__(text)
        self.count = count

    def readline(self, size: int | None = -1, /) -> str:
        if self.count == 0:
            raise KeyboardInterrupt
        self.count -= 1
        return super().readline(-1 if size is None else size)


@settings(max_examples=100, deadline=None)
@given(sessions(), st.integers(0, 10))
def test_ctrl_c_keeps_the_game_where_it_stood(session: tuple[list[str], Rules, int, list[str]], after: int) -> None:
    flags, rules, start, typed = session
    script = "".join(line + "\n" for line in typed)
    expected, ran_out = reference(GameState(rules, start), typed[:after])
    out, err = io.StringIO(), io.StringIO()
    code = main(["play", *flags, "--start", str(start)], InterruptAfter(script, after), out, err)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    if not ran_out:  # the game ended before Ctrl-C
        assert code == 0
        return
    interrupted = len(typed) >= after  # else the input ends first
    assert code == (130 if interrupted else 1)
    assert ("Interrupted" if interrupted else "Input ended") in err.getvalue()
    assert f"to move from {expected.number})" in err.getvalue()


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(GAMES), st.lists(lines(), max_size=15), st.integers(0, 2**32))
def test_against_the_computer_any_typing_is_safe(game: tuple[list[str], Rules], typed: list[str], seed: int) -> None:
    flags, _ = game
    out, err = io.StringIO(), io.StringIO()
    argv = ["play", *flags, "--vs", "computer", "--level", "coach", "--random-start", "2", "300", "--seed", str(seed)]
    code = main(argv, io.StringIO("".join(line + "\n" for line in typed)), out, err)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    assert code in (0, 1)
    assert err.getvalue().count("\n") == (1 if code == 1 else 0)


def sum_reference(state: SumState, typed: list[str]) -> tuple[SumState, bool]:
    queue = list(typed)
    while not state.is_over:
        if not queue:
            return state, True
        parts = queue.pop(0)[:1001].replace(",", " ").split()
        if len(parts) != 2 or not all(PLAIN.fullmatch(p) for p in parts) or len(" ".join(parts)) > 1000:
            continue
        index, divisor = int(parts[0]) - 1, int(parts[1])
        if 0 <= index < len(state.components) and state.check(index, divisor) is None:
            state = state.play(index, divisor)
    return state, False


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(2, 60), min_size=1, max_size=3),
    st.lists(
        st.one_of(lines(), st.tuples(st.integers(0, 4), st.integers(-1, 12)).map(lambda m: f"{m[0]} {m[1]}")),
        max_size=40,
    ),
)
def test_sums_never_lose_the_game(numbers: list[int], typed: list[str]) -> None:
    script = "".join(line + "\n" for line in typed)
    expected, ran_out = sum_reference(new_sum(numbers), typed)
    event("input ended mid-game" if ran_out else "game played to the end")
    out, err = io.StringIO(), io.StringIO()
    code = main(["play", "--sum", *map(str, numbers)], io.StringIO(script), out, err)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    assert code == (1 if ran_out else 0)
    if not ran_out:
        assert out.getvalue().rstrip().endswith(f"Player {expected.winner} wins!")
        assert f"Now: {' + '.join(map(str, expected.numbers))}." in out.getvalue()


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["solve", "table", "play", "rules"]), st.lists(lines(), max_size=4))
def test_any_command_line_gives_a_result_or_one_clear_line(command: str, words: list[str]) -> None:
    argv = [command, *(w for w in words if w)]
    if command == "table":
        argv += ["--upto", "30"]
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, io.StringIO(""), out, err)  # play: no input, so any game is abandoned at once
    assert "Traceback" not in out.getvalue() + err.getvalue()
    assert code in (0, 1, 2)
    if code == 2:
        assert "error:" in err.getvalue()


@pytest.mark.parametrize("typed", ["²", "2²", "⑧", "١٢", "１２"])
def test_unicode_digits_are_refused_with_the_same_words_everywhere(typed: str) -> None:
    out = io.StringIO()
    main(["play", "--start", "12"], io.StringIO(typed + "\n"), out, io.StringIO())
    assert f"{typed!r} is not a whole number: type a divisor with the digits 0-9 only" in out.getvalue()


def test_bytes_that_are_not_text_in_the_terminals_encoding_are_a_slip() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    for extra in ({}, {"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "PYTHONUTF8": "0"}):
        done = subprocess.run(
            [sys.executable, "-m", "duel_lessons", "play", "division-duel", "--start", "12"],
            input=b"\xff\xfe\n\xed\xa0\x80\n6\n2\n",
            capture_output=True,
            env={**env, **extra},
            timeout=120,
            check=False,
        )
        assert done.returncode == 0 and done.stderr == b"", (extra, done.stderr)
        assert done.stdout.count(b"is not a whole number") == 2 and b"Player 1 wins" in done.stdout
