"""The game board's parts, each on its own: the settings without a board or a frame, the frame from a GameState
without settings or a board (views.board_settings, views.board_frame).  Expected values are worked out by hand."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import new_game
from duel_lessons.engine.rules import get_rules
from duel_lessons.views.board import GameBoard
from duel_lessons.views.board_frame import BoardFrame, Scene, game_strip
from duel_lessons.views.board_settings import BoardSettings
from duel_lessons.views.board_view import BOARD_CSS
from duel_lessons.views.wording import BoardWording


def settings_with_calls() -> tuple[BoardSettings, list[object]]:
    calls: list[object] = []
    settings = BoardSettings(
        get_rules("divisor-duel"), 60,
        on_new=lambda: calls.append("new"), on_random=lambda: calls.append("random"),
        on_rematch=lambda: calls.append("rematch"), on_reset=lambda: calls.append("reset"),
        on_level=lambda level: calls.append(("level", level)), on_say=lambda text: calls.append(("say", text)),
    )  # fmt: skip
    return settings, calls


def test_settings_alone_pass_each_button_on_to_its_callback() -> None:
    settings, calls = settings_with_calls()
    for button in (settings.new_button, settings.random_button, settings.rematch_button, settings.reset_button):
        button.click()
    assert calls == ["new", "random", "rematch", "reset"]
    settings.level_box.value = "greedy"
    assert calls[-1] == ("level", "greedy")


def test_settings_alone_read_their_boxes() -> None:
    settings, calls = settings_with_calls()
    read = (settings.rules().name, settings.start(), settings.first, settings.opponent)
    assert read == ("divisor-duel", 60, 1, "human")
    settings.start_box.value = "45"  # Enter in the box asks for a new game
    assert calls == ["new"] and settings.start() == 45
    settings.start_box.value = "abc"
    with pytest.raises(DuelError, match="abc"):
        settings.start()
    settings.set_start(30)  # set from the board: no new game asked
    assert calls == ["new", "new"] and settings.start_box.value == "30"


def test_settings_alone_follow_the_opponent_and_the_rules() -> None:
    settings, calls = settings_with_calls()
    assert [name for name, _ in settings.first_box.options] == ["Player 1", "Player 2"]
    assert settings.level_box.disabled
    settings.opponent_box.value = "computer"
    assert [name for name, _ in settings.first_box.options] == ["You", "Computer"] and not settings.level_box.disabled
    assert calls == [("say", "The new opponent plays from the next game: press New game.")]
    settings.rules_box.value = "factor-duel"  # its usual start goes in the box; no game is started
    assert settings.start_box.value == "100" and "new" not in calls
    assert calls[-1] == ("say", "Factor Duel chosen, from its usual start 100. "
                                "Press New game to play it (the current game is unchanged).")  # fmt: skip
    settings.show_game(12, 2, "human")
    assert (settings.start_box.value, settings.first, [n for n, _ in settings.first_box.options]) == (
        "12", 2, ["Player 1", "Player 2"])  # fmt: skip
    assert calls.count("new") == 0


def test_settings_alone_offer_a_variant_and_fold_away() -> None:
    settings, _ = settings_with_calls()
    variant = replace(get_rules("divisor-duel"), name="odd-only", title="Odd Only")
    settings.add_rules(variant)
    assert settings.rules() is variant and ("Odd Only", settings.rules_box.value) in settings.rules_box.options
    settings.refresh_rules("divisor-duel")
    assert settings.rules().name == "divisor-duel"
    assert not settings.expanded and settings.fold.body.layout.display == "none"
    settings.expanded = True
    assert settings.fold.body.layout.display == "" and settings.fold.toggle.expanded


def test_frame_alone_draws_a_position_for_friends() -> None:
    frame = BoardFrame().draw(new_game("divisor-duel", 12))
    assert [c["text"] for c in frame["cards"]] == ["12 − 2 = 10", "12 − 3 = 9", "12 − 4 = 8", "12 − 6 = 6"]
    assert (frame["turn"], frame["turn_kind"], frame["number"]) == ("Player 1's turn", "p1", "12")
    assert frame["instruction"] == "Choose a divisor of 12: click its card or type it."
    assert frame["moved"] is None and frame["result"] is None and frame["score"] == "Score: Player 1 0 – 0 Player 2"
    # 12 − 3: 12 dots in 3 rows of 4; the column of 3 leaves, 3 × (4 − 1) = 9 stay
    picture = frame["cards"][1]["picture"]
    assert picture["equation"] == "12 − 3 = 3 × (4 − 1) = 9"
    assert picture["svg"].count('class="dg-gone"') == 3 and picture["svg"].count('class="dg-kept"') == 9


def test_frame_alone_draws_the_computers_turn_and_the_move_that_led_there() -> None:
    state = new_game("divisor-duel", 60).play(12)
    frame = BoardFrame().draw(state, Scene(vs_computer=True, score=(2, 1)))
    assert frame["thinking"] and frame["cards"] == [] and frame["turn"] == "Computer is thinking…"
    assert frame["instruction"] == "The computer is choosing a divisor of 48."
    assert frame["score"] == "Score: You 2 – 1 Computer"
    moved = frame["moved"]  # 60 as 12 rows of 5: one column of 12 leaves, 12 rows of 4 = 48 stay
    assert moved["equation"] == "60 − 12 = 12 × (5 − 1) = 48" and moved["key"] == "60:1:60:12"
    assert moved["svg"].count('class="dg-gone"') == 12 and moved["svg"].count('class="dg-kept"') == 48


def test_frame_alone_ends_with_the_whole_game() -> None:
    state = new_game("divisor-duel", 12).play(6).play(3)  # Player 1 is stuck at the prime 3
    frame = BoardFrame().draw(state)
    assert frame["over"] and frame["result"]["headline"] == "Player 2 wins!"
    assert frame["result"]["strip"] == "12 −6→ 6 −3→ 3"
    assert frame["moved"]["equation"] == "6 − 3 = 3 × (2 − 1) = 3"


def test_frame_alone_labels_p_and_n_from_the_scene_and_cuts_long_rows() -> None:
    state = new_game("divisor-duel", 12)
    scene = Scene(pn=True, winning=frozenset({3}))  # the scene says which moves win; the frame only labels them
    assert BoardFrame().card_labels(state, scene) == ["12 − 2 = 10 N", "12 − 3 = 9 P", "12 − 4 = 8 N", "12 − 6 = 6 N"]
    unknown = BoardFrame(max_buttons=2).draw(state, Scene(pn=True))
    assert unknown["more"] == ("Showing 2 of 4 allowed divisors; type any other one in the box. "
                               "P/N unknown here: no table or formula covers this number.")  # fmt: skip
    plain = BoardFrame(BoardWording(your_turn="Your go"), pictures=False).draw(state, Scene(vs_computer=True))
    assert plain["turn"] == "Your go" and plain["cards"][0]["picture"] is None and plain["moved"] is None
    assert BoardFrame().text_summary(new_game("divisor-duel", 6)) == (
        "Divisor Duel: current number 6. Player 1's turn.\nMoves: 6 − 2 = 4, 6 − 3 = 3.\n"
        "(The board is a widget: open the notebook in JupyterLab or Voilà to play.)")  # fmt: skip


def test_game_strips_worked_by_hand() -> None:
    number_factor = new_game("number-factor", 30).play(2).play(3).pass_turn().pass_turn()
    assert game_strip(number_factor) == "30 ÷2→ 15 ÷3→ 5 pass→ 5 pass→ 5"
    lose_turn = replace(get_rules("divisor-duel"), on_invalid="lose-turn", name="lose-turn")
    assert game_strip(new_game(lose_turn, 12).attempt(5).play(4)) == "12 ✗5→ 12 −4→ 8"
    nine = new_game("divisor-duel", 40)
    for _ in range(9):  # 40 − 2 = 38, 36, …, 22: nine steps, so the middle one gives way to "…"
        nine = nine.play(2)
    assert game_strip(nine) == "40 −2→ 38 −2→ 36 −2→ 34 −2→ 32 … 30 −2→ 28 −2→ 26 −2→ 24 −2→ 22"
    eight = new_game("divisor-duel", 40)
    for _ in range(8):
        eight = eight.play(2)
    assert game_strip(eight) == "40 −2→ 38 −2→ 36 −2→ 34 −2→ 32 −2→ 30 −2→ 28 −2→ 26 −2→ 24"


def test_the_board_holds_its_parts_and_plays_through_them() -> None:
    board = GameBoard("divisor-duel", 12, delay=0)
    assert isinstance(board.settings, BoardSettings) and isinstance(board.frame, BoardFrame)
    assert not any(isinstance(board, part) for part in (BoardSettings, BoardFrame))  # held, not inherited
    board.settings.start_box.value = "20"
    assert board.state.number == 20 and board.message_text.startswith("New game of Divisor Duel from 20.")
    board.choose(10)
    board.choose(5)  # 20 − 10 = 10, 10 − 5 = 5: Player 1 is stuck at the prime 5
    assert board.view.frames[-1]["result"]["strip"] == "20 −10→ 10 −5→ 5"


def test_the_motion_is_short_and_stops_for_reduced_motion() -> None:
    """The CSS as written (the browser test reads the computed durations): the dots leave in under 400 ms, and a
    reduced-motion media query switches that animation off."""
    css = BOARD_CSS.replace("\n", " ")
    assert re.search(r"\.dg-moving \.dg-dots \.dg-gone \{ animation: dg-leave 0\.(\d+)s", css)
    assert float("0." + re.findall(r"animation: dg-leave 0\.(\d+)s", css)[0]) < 0.4
    reduced = css.split("@media (prefers-reduced-motion: reduce)", 1)[1]
    assert re.match(r" \{\s+\.dg-moving \.dg-dots \.dg-gone \{ animation: none; \}", reduced)
