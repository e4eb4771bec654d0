"""The notebook widgets, driven through their handlers (no browser).

Each test checks the resulting GameState and the text the student would see.
"""

from __future__ import annotations

import pytest

from duel_lessons import RULEBOOKS
from duel_lessons.engine.game import LostTurn, Moved, Passed, new_game
from duel_lessons.play import coach
from duel_lessons.views.widgets import (
    MAX_BUTTONS,
    FollowGame,
    GameBoard,
    PNExplorer,
    VariantBuilder,
    output_text,
    tabulate_with_progress,
)


def labels(board: GameBoard) -> list[str]:
    return [b.description for b in board.moves_box.children]


def win_with_coach(board: GameBoard) -> None:
    """Play the coach's first winning move until the game ends (the computer replies)."""
    while not board.state.is_over:
        if board.state.must_pass:
            board.pass_turn()
        else:
            board.choose(coach.winning_moves(board.state)[0])


# -- games against the computer ---------------------------------------------------


def test_student_beats_perfect_computer_by_following_the_coach() -> None:
    board = GameBoard("divisor-duel", 60, opponent="computer", level="perfect")
    assert "Your turn" in board.status_html.value
    assert labels(board)[:3] == ["2 → 58", "3 → 57", "4 → 56"]
    board.choose(coach.winning_moves(board.state)[0])
    # the computer replied at once, and the board says what it did
    assert board.state.to_move == 1 and len(board.state.history) == 2
    reply = board.state.history[1]
    assert isinstance(reply, Moved)
    assert f"The computer played {reply.divisor}: {reply.before} − {reply.divisor} = {reply.after}." in (
        board.message_text
    )
    assert f"Subtracting {reply.divisor} from {reply.before}" in board.history_html.value
    win_with_coach(board)
    assert board.state.winner == 1
    assert "Game over: You win!" in board.status_html.value
    assert "You 1 – 0 Computer" in board.score_html.value
    assert labels(board) == []  # no move buttons once the game is over
    board.choose(2)
    assert "The game is over" in board.message_text


def test_student_loses_from_a_p_position() -> None:
    board = GameBoard("divisor-duel", 45, opponent="computer", level="perfect")
    while not board.state.is_over:
        board.choose(board.state.legal_moves[0])
    assert board.state.winner == 2
    assert "Game over: Computer wins." in board.status_html.value
    assert "You 0 – 1 Computer" in board.score_html.value


def test_match_score_rematch_and_reset() -> None:
    board = GameBoard("divisor-duel", 60, opponent="computer")
    win_with_coach(board)
    board.rematch()  # same start, the computer moves first and wins from 60
    assert board.state.start == 60 and board.state.history[0].player == 2
    assert board.first_box.value == 2
    while not board.state.is_over:
        board.choose(board.state.legal_moves[0])
    assert "You 1 – 1 Computer" in board.score_html.value
    board.start_box.value = "12"  # Enter in the start box: a new game, the score stays
    assert board.state.start == 12 and board.state.history[0].player == 2
    assert "You 1 – 1 Computer" in board.score_html.value
    board.reset_score()
    assert board.score == {1: 0, 2: 0} and "You 0 – 0 Computer" in board.score_html.value
    assert board.state.start == 12 and board.state.history  # resetting the score does not touch the game


def test_friend_game_and_computer_first() -> None:
    board = GameBoard("division-duel", 60)
    board.choose(4)
    assert board.state.number == 15 and board.state.to_move == 2
    assert "Player 2's turn" in board.status_html.value
    board.opponent_box.value = "computer"
    assert board.state.number == 15  # the change waits for the next game
    board.first_box.value = 2
    board.new_button.click()
    assert board.vs_computer and board.state.history[0].player == 2
    assert board.state.is_over and board.state.winner == 2  # division games end in one move
    assert [name for name, _ in board.first_box.options] == ["You", "Computer"]


def test_random_and_coach_levels() -> None:
    board = GameBoard("factor-duel", 100, opponent="computer", level="random", seed=3)
    board.choose(1)
    assert board.state.to_move == 1 and "The computer played" in board.message_text
    board.level_box.value = "coach"
    board.choose(board.state.legal_moves[0])
    assert "Coach (computer): I play" in output_text(board.coach_out)


# -- Number Factor: passes and lost turns ----------------------------------------------


def test_number_factor_computer_passes_then_student_passes_and_wins() -> None:
    board = GameBoard("number-factor", 30, opponent="computer")
    board.choose(6)  # 30 ÷ 6 = 5, a prime
    passed = board.state.history[1]
    assert isinstance(passed, Passed) and passed.player == 2
    assert "The computer has no allowed divisor of 5, so it passed." in board.message_text
    assert "5 is a prime number. No proper divisors. Turn passed." in board.history_html.value
    assert board.state.must_pass and not board.pass_button.disabled and board.play_button.disabled
    assert "you must pass. Click <b>Pass</b>" in board.status_html.value
    board.pass_turn()
    assert board.state.ending == "passes" and board.state.winner == 1
    assert "You win!" in board.status_html.value
    assert "Congratulations, Player 1 wins the game!" in board.history_html.value


def test_pass_button_only_when_stuck() -> None:
    board = GameBoard("number-factor", 30)
    assert board.pass_button.disabled
    board.pass_turn()
    assert board.state.history == ()
    assert "passing is only allowed with no legal move" in board.message_text


def test_number_factor_invalid_typed_move_loses_the_turn() -> None:
    board = GameBoard("number-factor", 30)
    board.divisor_box.value = "7"  # Enter in the box
    event = board.state.history[-1]
    assert isinstance(event, LostTurn) and event.value == 7 and board.state.to_move == 2
    assert board.state.number == 30
    assert "7 does not divide 30" in board.message_text
    assert "an invalid move loses the turn, so it is now Player 2's turn." in board.message_text
    assert "Invalid move: Player 1 loses the turn." in board.history_html.value
    assert board.divisor_box.value == ""
    board.divisor_box.value = "5"
    assert board.state.number == 6 and board.state.to_move == 1


def test_typed_moves_in_divisor_duel_are_retried() -> None:
    board = GameBoard("divisor-duel", 60)
    board.divisor_box.value = "7"
    assert board.state.history == () and "7 does not divide 60" in board.message_text
    board.divisor_box.value = "abc"
    assert board.state.history == () and "'abc' is not a whole number" in board.message_text
    board.play_typed()  # empty box
    assert board.state.history == () and "Type a divisor first" in board.message_text
    board.divisor_box.value = "15"
    assert board.state.number == 45 and "Player 1 played 15: 60 − 15 = 45." in board.message_text


# -- bad starts ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "typed", "words"),
    [
        ("divisor-duel", "", "Type a start number first"),
        ("divisor-duel", "abc", "'abc' is not a whole number"),
        ("divisor-duel", "-5", "must be a positive whole number, not -5"),
        ("divisor-duel", "0", "must be a positive whole number, not 0"),
        ("divisor-duel", str(10**19), "too big"),
        ("number-factor", "7", "7 is prime, so it cannot start Number Factor"),
        ("factor-duel", "2", "2 is too small to start Factor Duel"),
    ],
)
def test_bad_start_leaves_the_game_unchanged(rules: str, typed: str, words: str) -> None:
    board = GameBoard("divisor-duel", 60)
    board.choose(15)
    before = board.state
    board.rules_box.value = rules
    board.start_box.value = typed
    board.start_game()  # also the "New game" button
    assert board.state is before
    assert words in board.message_text
    assert "The current game is unchanged." in board.message_text
    assert "Problem:" in board.message_text
    assert board.number_html.value.count("45") == 1


def test_choosing_rules_offers_their_usual_start() -> None:
    board = GameBoard("divisor-duel", 60)
    board.rules_box.value = "factor-duel"
    assert board.start_box.value == "100" and board.state.rules.name == "divisor-duel"
    assert "Click New game to play it" in board.message_text
    board.new_button.click()
    assert board.state.rules.name == "factor-duel" and board.state.number == 100


def test_large_numbers_are_grouped_on_the_board() -> None:
    board = GameBoard("divisor-duel", 10**18)
    assert "1\u2009000\u2009000" in board.number_html.value
    assert labels(board)[0] == "2 → 999999999999999998"


def test_random_start_is_allowed_by_the_book() -> None:
    board = GameBoard("number-factor", seed=1)
    for _ in range(5):
        board.random_start()
        assert 10 <= board.state.number <= 99
        assert board.start_box.value == str(board.state.number)
        RULEBOOKS["number-factor"].check_start(board.state.number)


# -- help -------------------------------------------------------------------------


def test_hint_and_explain_write_the_coach_text() -> None:
    board = GameBoard("divisor-duel", 60)
    board.hint_button.click()
    board.explain_button.click()
    text = output_text(board.coach_out)
    assert "Hint: " + coach.hint(board.state, board.names) in text
    assert "Explain: " + coach.explain(board.state, board.names) in text
    assert "Player 1 to move from 60" in text


def test_show_pn_labels_colours_and_tooltips() -> None:
    board = GameBoard("divisor-duel", 60)
    assert all("(" not in label for label in labels(board))
    board.pn_toggle.value = True
    buttons = {b.description: b for b in board.moves_box.children}
    assert set(buttons) >= {"3 → 57 (P)", "5 → 55 (P)", "15 → 45 (P)", "2 → 58 (N)", "30 → 30 (N)"}
    assert buttons["3 → 57 (P)"].button_style == "success"
    assert buttons["2 → 58 (N)"].button_style == "danger"
    assert "57 is a P-position" in buttons["3 → 57 (P)"].tooltip
    assert "(P) = leaves a P-position" in board.moves_note.value
    board.pn_toggle.value = False
    assert "3 → 57" in labels(board)


def test_many_divisors_are_capped_and_can_be_typed() -> None:
    board = GameBoard("divisor-duel", 720720)
    moves = board.state.legal_moves
    assert len(moves) > MAX_BUTTONS and len(labels(board)) == MAX_BUTTONS
    assert f"Showing {MAX_BUTTONS} of {len(moves)} allowed divisors" in board.moves_note.value
    board.divisor_box.value = str(moves[-1])
    assert board.state.number == 720720 - moves[-1]


def test_every_control_has_a_label_and_a_tooltip() -> None:
    board = GameBoard()
    controls = [
        board.rules_box, board.start_box, board.random_button, board.first_box, board.opponent_box,
        board.level_box, board.new_button, board.rematch_button, board.reset_button, board.divisor_box,
        board.play_button, board.pass_button, board.hint_button, board.explain_button, board.pn_toggle,
        *board.moves_box.children,
    ]  # fmt: skip
    for control in controls:
        assert control.description.strip(), control
        assert (control.tooltip or "").strip() or control is board.first_box, control
    assert all(tip.strip() for tip in board.first_box.tooltips)
    assert not board.start_box.continuous_update and not board.divisor_box.continuous_update


# -- variant builder --------------------------------------------------------------------


def test_variant_builder_builds_and_offers_the_variant_to_the_board() -> None:
    board = GameBoard()
    builder = VariantBuilder(board)
    builder.family_box.value = "even"
    rules = builder.build()
    assert rules is not None and rules.divisors == "even" and rules.move == "subtract"
    assert "even divisors d with 1 &lt; d &lt; N" in builder.description.value
    text = output_text(builder.out)
    assert "n  outcome  grundy  remoteness" in text and "P-positions from 1 to 100" in text
    assert any("image/png" in item.get("data", {}) for item in builder.out.outputs)
    builder.play_it()
    assert RULEBOOKS[rules.name] == rules
    assert board.rules_box.value == rules.name
    board.start_box.value = "12"
    assert board.state.rules == rules and board.state.legal_moves == (2, 4, 6)
    del RULEBOOKS[rules.name]


def test_variant_builder_explains_an_impossible_variant() -> None:
    builder = VariantBuilder()
    builder.move_box.value = "divide"
    builder.one_box.value = True
    assert builder.build() is None and builder.rules is None
    assert "These choices do not make a game" in builder.message.value
    assert "Dividing by 1 leaves the number unchanged" in builder.message.value
    builder.play_it()
    assert not any(name.startswith("divisor-duel/") for name in RULEBOOKS)


def test_large_tables_show_progress() -> None:
    builder = VariantBuilder()
    seen: list[int] = []
    builder.progress.observe(lambda change: seen.append(change["new"]), names="value")
    rules = RULEBOOKS["divisor-duel"].variant(divisors="odd", last_mover_wins=False)
    table = tabulate_with_progress(rules, 300_000, builder.progress)
    assert table.upto == 300_000
    assert seen[-1] == 100 and len(seen) >= 3
    assert builder.progress.layout.display == "none"


# -- explorers ------------------------------------------------------------------------


def test_pn_explorer_redraws_on_every_change() -> None:
    explorer = PNExplorer()
    first = explorer.out.outputs[0]["data"]["image/png"]
    assert explorer.draws == 1
    explorer.range_slider.value = (1, 200)
    assert explorer.draws == 2 and explorer.out.outputs[0]["data"]["image/png"] != first
    assert "n = 1 to 200" in explorer.out.outputs[0]["data"]["text/plain"]
    for kind in ("hundred square", "Grundy values", "remoteness"):
        explorer.plot_box.value = kind
        assert kind in explorer.out.outputs[0]["data"]["text/plain"]
    explorer.rules_box.value = "factor-duel"
    assert explorer.draws == 6 and explorer.message.value == ""


def test_pn_explorer_shows_plot_errors() -> None:
    misere = RULEBOOKS["divisor-duel"].variant(last_mover_wins=False)
    explorer = PNExplorer(misere)
    explorer.plot_box.value = "Grundy values"
    assert "no Grundy values" in explorer.message.value
    assert explorer.draws == 1  # the last good picture stays


def test_follow_game_steps_to_the_end() -> None:
    follow = FollowGame("divisor-duel", 60)
    game = follow.states
    assert game[0].number == 60 and game[-1].is_over and game[-1].winner == 1
    assert "60 is an N-position" in follow.view.value and "Best play: 60 − 3 = 57." in follow.view.value
    assert follow.prev_button.disabled
    for _ in range(len(game) + 2):
        follow.next_button.click()
    assert follow.current is game[-1] and follow.next_button.disabled
    assert "Player 1 wins." in follow.view.value
    follow.step(-1)
    assert "remoteness 1" in follow.view.value
    follow.start_box.value = "abc"
    assert follow.states is game and "not a whole number" in follow.message.value
    follow.start_box.value = "12"
    assert follow.states[0].number == 12 and follow.step_slider.value == 0


def test_follow_game_number_factor_passes() -> None:
    follow = FollowGame("number-factor", 30)
    events = [s.history[-1] for s in follow.states[1:]]
    assert [type(e).__name__ for e in events] == ["Moved", "Passed", "Passed"]
    assert follow.states[-1].winner == new_game("number-factor", 30).to_move
