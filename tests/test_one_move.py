"""One move per intention, checked in the kernel (no browser): views.board_view.OneMove and the boards using it.

The browser ignores a second click while a move is answered and for 400 ms after it; the kernel checks again, with
the number of the view the click was made on (``seq``) and the click's time on the browser's clock (``t``), since it
may receive both clicks all the same (the same board shown twice, a guard that gave up waiting).  Times here are
data in the messages, as the browser sends them: no clock is read.  The browser side is tests/browser/test_one_move.py.
"""

from __future__ import annotations

import re

import pytest

from duel_lessons.views.board import GameBoard
from duel_lessons.views.board_view import ONE_MOVE_MS, Guard, OneMove
from duel_lessons.views.explorers import FollowGame, VariantBuilder
from duel_lessons.views.sum_widgets import SumBoard


def test_the_gap_is_400_ms() -> None:
    assert ONE_MOVE_MS == 400


@pytest.mark.parametrize(
    ("gap_ms", "played"),
    [(0, False), (150, False), (300, False), (399, False), (400, True), (600, True)],
)
def test_a_second_action_within_400_ms_of_the_last_one_played_is_ignored(gap_ms: int, played: bool) -> None:
    gate = OneMove()
    assert gate.admits(seq=5, now=5, t=10_000)
    assert gate.admits(seq=5, now=5, t=10_000 + gap_ms) is played


def test_the_gap_counts_from_the_last_action_played_not_the_last_one_ignored() -> None:
    gate = OneMove()
    assert gate.admits(1, 1, 1000)
    assert not gate.admits(1, 1, 1300)  # ignored: 300 ms after the move
    assert gate.admits(1, 1, 1450)  # 450 ms after the move (150 ms after the ignored click)


def test_an_action_from_a_view_the_board_has_left_is_ignored_whatever_its_time() -> None:
    gate = OneMove()
    assert not gate.admits(seq=4, now=5, t=99_000)
    assert gate.admits(seq=5, now=5, t=99_000)  # the stale one did not count as played


@pytest.mark.parametrize("t", [None, "1000", True, float("nan")])
def test_an_action_without_a_usable_time_is_checked_by_its_view_only(t: object) -> None:
    gate = OneMove()
    assert gate.admits(1, 1, 1000)
    assert gate.admits(1, 1, t)
    assert not gate.admits(0, 1, t)


def test_a_clock_set_back_is_a_new_page_and_its_click_is_played() -> None:
    gate = OneMove()
    assert gate.admits(1, 1, 50_000)
    assert gate.admits(1, 1, 200)


def send(board: GameBoard, d: int, t: float) -> None:
    """A card click as board.js sends it: from the view shown now, at browser time ``t``."""
    board.view._received(board.view, {"kind": "card", "d": d, "seq": board.view.seq, "t": t}, [])


def history_numbers(board: GameBoard) -> list[int]:
    return [event.before for event in board.state.history]


@pytest.mark.parametrize("gap_ms", [150, 300])
def test_two_clicks_on_a_friends_board_play_one_move(gap_ms: int) -> None:
    """Both clicks reach the kernel, the second from the new view (the first was answered in between): hot seat,
    it would be Player 2's move from 58.  60 − 2 = 58, and only that."""
    board = GameBoard("divisor-duel", 60, opponent="human", delay=0)
    send(board, 2, 1000)
    seq = board.view.seq
    send(board, 2, 1000 + gap_ms)
    assert board.state.number == 58 and history_numbers(board) == [60]
    assert board.view.seq == seq + 1, "the ignored click is answered (the browser waits for an answer)"
    send(board, 2, 1000 + 400)  # a deliberate move, 400 ms after the first: 58 − 2 = 56
    assert board.state.number == 56 and history_numbers(board) == [60, 58]


@pytest.mark.parametrize("gap_ms", [150, 300])
def test_two_clicks_against_the_computer_play_one_move_of_mine(gap_ms: int) -> None:
    board = GameBoard("divisor-duel", 60, opponent="computer", level="perfect", delay=0)
    send(board, 15, 5000)  # 60 − 15 = 45, and the computer replies (45 − 5 = 40: the module's doctest)
    after = board.state
    assert [e.player for e in after.history] == [1, 2] and after.history[0].before == 60
    assert after.to_move == 1 and not after.is_over
    first_card = after.legal_moves[0]
    send(board, first_card, 5000 + gap_ms)
    assert board.state is after, "a second move of mine was played"


def test_a_click_made_while_the_computer_was_thinking_is_not_played() -> None:
    """The browser got the "Computer is thinking…" view (seq k) and clicked on it; the reply came as view k + 1."""
    board = GameBoard("divisor-duel", 60, opponent="computer", level="perfect", delay=0)
    sent: list[int] = []
    show = board.view.show

    def recording_show(frames: list[dict[str, object]]) -> None:
        show(frames)
        sent.append(board.view.seq)

    board.view.show = recording_show  # type: ignore[method-assign]
    send(board, 15, 1000)  # 60 − 15 = 45, then the computer's reply (to 40)
    thinking_seq = sent[0]
    assert board.view.frames and thinking_seq < board.view.seq
    after = board.state
    board.view._received(board.view, {"kind": "card", "d": after.legal_moves[0], "seq": thinking_seq, "t": 9000}, [])
    assert board.state is after


def stamp_and_click(board: SumBoard, component: int, d: int, t: float) -> None:
    """A sum-board click as the browser sends it: guard.js's stamp, then the button's own click."""
    board.guard._stamped(board.guard, {"kind": "click", "t": t}, [])
    for button in board.move_buttons[component - 1]:
        if f"sum-move-{component}-{d}" in button._dom_classes:
            button.click()
            return
    raise AssertionError(f"no button {d} in number {component}")


@pytest.mark.parametrize("gap_ms", [150, 300])
def test_two_clicks_on_a_sum_board_play_one_move(gap_ms: int) -> None:
    """12 + 18 between friends: 12 − 2 = 10; the second click, on the new first button (10 − 2 = 8), is ignored."""
    board = SumBoard([12, 18])
    done = board.guard.done
    stamp_and_click(board, 1, 2, 1000)
    stamp_and_click(board, 1, 2, 1000 + gap_ms)
    assert [n for _, n in board.state.components] == [10, 18] and len(board.state.history) == 1
    assert board.guard.done == done + 2, "every click is answered, the ignored one too"
    stamp_and_click(board, 1, 2, 1400)
    assert [n for _, n in board.state.components] == [8, 18]


def test_two_clicks_on_a_sum_board_against_the_computer_play_one_move_of_mine() -> None:
    board = SumBoard([12, 18], opponent="computer", level="perfect")
    stamp_and_click(board, 1, 2, 1000)
    after = board.state
    assert [e.player for e in after.history] == [1, 2]
    index = next(i for i, (_, n) in enumerate(after.components) if after.game(i).legal_moves)
    d = after.game(index).legal_moves[0]
    stamp_and_click(board, index + 1, d, 1150)
    assert board.state is after


def test_a_guarded_button_without_a_stamp_runs() -> None:
    """A test or an old front end clicks without a stamp: the click is run (the view's own checks still apply)."""
    guard = Guard()
    calls: list[int] = []
    handler = guard.guarded(lambda: calls.append(1))
    handler(None)
    handler(None)
    assert calls == [1, 1]


def test_the_p_n_switch_is_answered_without_the_gate() -> None:
    """Show P/N has already changed in the browser when the kernel hears of it: the board always redraws."""
    board = GameBoard("divisor-duel", 60, delay=0)
    board.guard._stamped(board.guard, {"kind": "click", "t": 1000}, [])
    board.hint_button.click()
    board.guard._stamped(board.guard, {"kind": "click", "t": 1100}, [])
    done = board.guard.done
    board.pn_toggle.value = True
    assert board.guard.done == done + 1
    assert any(card["tag"] for card in board.view.frames[-1]["cards"])


# -- messages and names -----------------------------------------------------------------


@pytest.mark.parametrize("start", [30, 12, 6])
def test_the_empty_entry_names_the_number_and_gives_no_example(start: int) -> None:
    board = GameBoard("divisor-duel", start, delay=0)
    board.play_typed("   ")
    expected = f"Nothing was typed: type an allowed divisor of {start} in the box, or click a card."
    assert board.message_text == expected
    board.play_typed("six")
    # The number and "the digits 0-9": no example, which might be a move to play.
    assert re.findall(r"\d+", board.message_text) == [str(start), "0", "9"], board.message_text


def test_each_board_region_is_named_by_its_game_and_start() -> None:
    assert GameBoard("divisor-duel", 60).view.frames[-1]["region"] == "Divisor Duel from 60: game board"
    nf = GameBoard("number-factor", 30, opponent="computer", first=2, delay=0)
    assert nf.view.frames[-1]["region"] == "Number Factor from 30: game board"  # the computer moved first


def test_each_board_has_one_live_region() -> None:
    """The game board's play surface reads its messages out, so its Guard has none; the sum board's Guard reads
    out its messages, so its message line is not a live region too."""
    board = GameBoard("divisor-duel", 60, delay=0)
    assert board.guard.live is False
    board.play_typed("7")
    assert board.view.frames[-1]["announce"].startswith("Problem: Cannot play 7 from 60")
    sums = SumBoard([12, 18])
    assert sums.guard.live is True
    sums.choose(0, 5)
    assert "Problem:" in sums.message.value and "role=" not in sums.message.value
    # The explorers' message lines are live regions (role="status" / "alert"): their Guards have none.
    assert FollowGame().guard.live is False and VariantBuilder().guard.live is False


def test_sum_board_buttons_name_their_number() -> None:
    board = SumBoard([12, "division-duel:18"])
    assert [b.description for b in board.move_buttons[0]] == ["12 − 2 = 10", "12 − 3 = 9", "12 − 4 = 8", "12 − 6 = 6"]
    assert board.move_buttons[1][0].description == "18 ÷ 2 = 9"
    assert board.move_buttons[1][0].tooltip == "Number 2: 18 ÷ 2 = 9"


def test_the_thinking_frame_keeps_an_instruction_line() -> None:
    """While the computer thinks, the board's instruction line is not empty (nothing below it moves up)."""
    board = GameBoard("divisor-duel", 60, opponent="computer", delay=0)
    board.choose(2)
    thinking = board.view.frames[0]
    assert thinking["thinking"] and thinking["instruction"] == "The computer is choosing a divisor of 58."
