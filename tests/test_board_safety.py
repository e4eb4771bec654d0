"""The boards are safe to click and say things once, in the headline's names; the rectangles of dots.

Handler-level tests (no browser): the browser side of the same guarantees is in tests/browser/test_board_access.py.
"""

from __future__ import annotations

import pytest

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import new_game, play_out
from duel_lessons.engine.rules import get_rules
from duel_lessons.play import coach
from duel_lessons.views.app import PlayApp
from duel_lessons.views.board import GameBoard
from duel_lessons.views.board_view import Fold, Guard
from duel_lessons.views.explorers import FollowGame, VariantBuilder
from duel_lessons.views.rectangles import Rectangles, dot_arrays, move_picture, rectangle_svg, strip_picture
from duel_lessons.views.sum_widgets import SumBoard

# -- one action at a time ------------------------------------------------------------


def test_an_action_sent_from_a_position_already_left_is_ignored() -> None:
    """A double-click sends the same card twice from the same view: the second is ignored (hot seat: it would
    otherwise be played by Player 2 from the next number)."""
    board = GameBoard("divisor-duel", 60, opponent="human", delay=0)
    seq = board.view.seq
    for _ in range(2):
        board.view._received(board.view, {"kind": "card", "d": 3, "seq": seq}, [])
    assert board.state.number == 57 and len(board.state.history) == 1
    board.view._received(board.view, {"kind": "card", "d": 3, "seq": board.view.seq}, [])  # from the new view
    assert board.state.number == 54


def test_a_click_on_an_older_drawing_of_the_same_position_is_played() -> None:
    """The board drawn again (here a message; in a lesson, a later cell touching it while the page loads)
    before the student's click arrives: the click names the position it was made on, which the board is
    still at, so it is played, not dropped as stale (a CI run lost lesson 02's first click so)."""
    board = GameBoard("divisor-duel", 60, opponent="human", delay=0)
    seq, position = board.view.seq, board.view.frames[-1]["position"]
    board._show_message("Hello")  # drawn again: a new view of the same position
    assert board.view.seq == seq + 1 and board.view.frames[-1]["position"] == position
    board.view._received(board.view, {"kind": "card", "d": 3, "seq": seq, "position": position}, [])
    assert board.state.number == 57 and len(board.state.history) == 1
    # the same click again, from that position (now left): not played, even with the current view's seq
    board.view._received(board.view, {"kind": "card", "d": 3, "seq": board.view.seq, "position": position}, [])
    assert board.state.number == 57 and len(board.state.history) == 1


def test_the_position_names_rules_start_and_moves() -> None:
    """Same game, same name; another rule book, start, or move count, another name."""
    from duel_lessons.views.board_frame import position_key

    game = new_game("divisor-duel", 12)
    assert position_key(game) == position_key(new_game("divisor-duel", 12))
    others = [new_game("division-duel", 12), new_game("divisor-duel", 14), game.play(3), game.play(2)]
    assert len({position_key(game), *map(position_key, others)}) == 5


def test_every_action_gets_an_answer_even_one_that_does_nothing() -> None:
    """The browser ignores clicks until the board answers, so even a message it cannot use is answered."""
    board = GameBoard("divisor-duel", 60, delay=0)
    seq = board.view.seq
    board.view._received(board.view, {"kind": "card", "d": "three", "seq": seq}, [])
    assert board.view.seq == seq + 1 and board.state.number == 60


def test_a_sum_board_button_of_an_old_position_does_nothing() -> None:
    board = SumBoard([12, 18])
    button = board.move_buttons[0][0]  # 12 - 2 = 10
    button.click()
    button.click()  # the second click of a double-click reaches the old button
    assert board.state.numbers == (10, 18) and len(board.state.history) == 1


def test_guarded_handlers_report_done_even_when_they_fail() -> None:
    guard = Guard()

    def fails() -> None:
        raise DuelError("no")

    with pytest.raises(DuelError):
        guard.guarded(fails)(None)
    assert guard.done == 1
    guard.say("Hint: look at 2")
    assert guard.announce == "Hint: look at 2"


def test_every_button_of_the_ipywidgets_views_is_guarded() -> None:
    """A button marked dg-guarded makes its view busy in the browser until its handler reports done."""
    board = GameBoard("divisor-duel", 60, delay=0)
    follow = FollowGame("divisor-duel", 12)
    builder = VariantBuilder()
    for button in (board.hint_button, board.settings.new_button, follow.next_button, follow.prev_button,
                   builder.build_button):  # fmt: skip
        assert "dg-guarded" in button._dom_classes
    before = follow.guard.done
    follow.next_button.click()
    assert follow.guard.done == before + 1 and follow.step_slider.value == 1


def test_settings_and_history_fold_open_with_a_button() -> None:
    board = GameBoard("divisor-duel", 60, delay=0)
    assert isinstance(board.settings.fold, Fold) and not board.settings.expanded
    board.settings.fold.toggle.expanded = True  # what the browser's button sets
    assert board.settings.fold.body.layout.display == "" and board.settings.expanded
    assert board.settings.fold.toggle.label == "Settings" and board.history.toggle.label == "Game so far"


# -- words -----------------------------------------------------------------------------


def test_the_loss_reason_uses_the_headline_names() -> None:
    board = GameBoard("divisor-duel", 45, opponent="computer", level="perfect", delay=0)
    while not board.state.is_over:
        board.choose(board.state.legal_moves[0])
    result = board.view.frames[-1]["result"]
    assert result["headline"].startswith("You lose")
    assert "Player 1" not in result["why"]
    assert "You have no allowed divisor" in result["why"]


def test_reaching_one_is_not_called_one_twice() -> None:
    book = get_rules("factor-duel")
    rules = book.variant(title="Factor Duel, no prime win", win_on_reaching="none")
    state = play_out(new_game(rules, 3), {1: lambda s: 1, 2: lambda s: 1})  # 3 -> 2 -> 1: reaching 1 loses
    text = coach.game_over_explanation(state)
    assert state.number == 1 and "Player 2 moved to 1 and reaching 1 loses at once" in text
    assert "which is 1" not in text
    won = play_out(new_game(book, 4), {1: lambda s: 1, 2: lambda s: 1})  # 4 -> 3, a prime
    assert "moved to 3, which is a prime, and reaching a prime wins" in coach.game_over_explanation(won)


def test_hints_after_the_game_are_not_stacked() -> None:
    board = GameBoard("divisor-duel", 7, opponent="human", delay=0)
    for _ in range(3):
        board.hint()
    assert board.coach_text.count("Hint:") == 1


def test_hint_and_explain_are_announced() -> None:
    board = GameBoard("divisor-duel", 60, opponent="computer", delay=0)
    board.hint()
    assert board.view.frames[-1]["announce"].startswith("Hint: ")
    board.explain()
    assert board.view.frames[-1]["announce"].startswith("Explain: ")


def test_sum_board_announces_each_move() -> None:
    board = SumBoard([12, 18], opponent="computer")
    board.choose(0, 3)
    assert "The computer played" in board.guard.announce and "Your turn" in board.guard.announce


# -- the builder -------------------------------------------------------------------


def test_a_failed_build_clears_the_old_variant_and_play_it_shows_the_board() -> None:
    builder = VariantBuilder()
    builder.misere_box.value = True
    assert builder.build() is not None and builder.out.outputs
    builder.move_box.value = "divide"
    builder.one_box.value = True  # dividing by 1: not a game
    assert builder.build() is None
    assert builder.out.outputs == () and builder.description.value == "" and builder.rules is None
    builder.one_box.value = False
    shown: list[object] = []
    builder.on_play = shown.append
    board = builder.play_it()
    assert board is not None and shown == [board] and board.view.focus_request == 1


# -- projector mode ---------------------------------------------------------------------


def test_the_app_switches_every_view_to_large_type() -> None:
    app = PlayApp(delay=0)
    assert not app.board.large
    app.projector.value = True
    assert app.board.large and app.board.view.large
    for widget in (app.board.widget, app.explorer.widget, app.follow.widget, app.builder.widget, app.tabs):
        assert "duel-large-type" in widget._dom_classes
    assert app.explorer.large  # its plot is redrawn with large text
    app.large = False
    assert not app.projector.value and "duel-large-type" not in app.follow.widget._dom_classes


# -- rectangles of dots -----------------------------------------------------------------


def test_dot_arrays_are_the_divisor_pairs() -> None:
    arrays = dot_arrays(60)
    assert len(arrays) == 12
    assert all(a.rows * a.cols == 60 for a in arrays)
    assert [a.rows for a in arrays] == sorted({d for d in range(1, 61) if 60 % d == 0})
    assert [(a.rows, a.cols) for a in dot_arrays(13)] == [(1, 13), (13, 1)]  # a prime: only the strip
    with pytest.raises(DuelError):
        dot_arrays(0)


@pytest.mark.parametrize("n", [6, 12, 30, 60, 64, 97 * 2])
def test_subtracting_d_leaves_d_rows_dividing_keeps_one_row(n: int) -> None:
    for a in dot_arrays(n)[:-1]:  # every d < n
        d = a.rows
        sub = move_picture(n, d)
        assert (sub.kept_rows, sub.kept_cols) == (d, n // d - 1) and sub.result == n - d
        assert sub.kept_rows * sub.kept_cols == n - d  # so d divides n - d
        div = move_picture(n, d, "divide")
        assert (div.kept_rows, div.kept_cols) == (1, n // d) and div.result == n // d


def test_the_svg_draws_every_dot_and_hollows_the_ones_taken_away() -> None:
    svg = rectangle_svg(move_picture(12, 3))
    assert svg.count('class="dg-kept"') == 9 and svg.count('class="dg-gone"') == 3
    assert 'aria-label="12 dots in 3 rows of 4.' in svg
    big = rectangle_svg(move_picture(10**12, 2))  # too many dots: a block, still labelled
    assert "<circle" not in big and big.count("<rect") == 2
    with pytest.raises(DuelError, match="does not divide"):
        move_picture(12, 5)


def test_a_prime_has_only_the_strip() -> None:
    assert strip_picture(13).alt.startswith("13 dots make only one row of 13")
    assert Rectangles(13).text.splitlines() == ["1 row of 13", "13 rows of 1"]
    assert "<svg" in Rectangles(12, 4)._repr_html_() and "figcaption" in Rectangles(12)._repr_html_()


def test_the_board_sends_each_card_its_picture_and_a_prime_its_strip() -> None:
    board = GameBoard("divisor-duel", 12, opponent="human", delay=0)
    cards = board.view.frames[-1]["cards"]
    assert [c["picture"]["alt"].split(".")[0] for c in cards] == [
        "12 dots in 2 rows of 6", "12 dots in 3 rows of 4", "12 dots in 4 rows of 3", "12 dots in 6 rows of 2"]
    board.start_game(13)  # a prime start: no card, the strip
    assert board.view.frames[-1]["picture"]["alt"].startswith("13 dots make only one row")
    off = GameBoard("divisor-duel", 12, delay=0, rectangles=False)
    assert not off.view.frames[-1]["pictures"] and off.view.frames[-1]["cards"][0]["picture"] is None
