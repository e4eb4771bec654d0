"""The notebook widgets, driven through their handlers (no browser).

Each test checks the resulting GameState and the text the student would see (the frames the
board sends to the browser, and its plain-text status and message).
"""

from __future__ import annotations

from typing import Any

import pytest

from duel_lessons import RULEBOOKS
from duel_lessons.engine.game import LostTurn, Moved, Passed, new_game
from duel_lessons.play import coach
from duel_lessons.solving.tables import clear_cache
from duel_lessons.views.widgets import (
    MAX_BUTTONS,
    BoardWording,
    FollowGame,
    GameBoard,
    PNExplorer,
    VariantBuilder,
    output_text,
    tabulate_with_progress,
)


def board_of(*args: Any, **kwargs: Any) -> GameBoard:
    return GameBoard(*args, delay=0, **kwargs)


def shown(board: GameBoard) -> dict[str, Any]:
    """The last frame the board sent: what the student sees."""
    return board.view.frames[-1]


def win_with_coach(board: GameBoard) -> None:
    """Play the coach's first winning move until the game ends (the computer replies)."""
    while not board.state.is_over:
        if board.state.must_pass:
            board.pass_turn()
        else:
            board.choose(coach.winning_moves(board.state)[0])


# -- games against the computer ---------------------------------------------------


def test_student_beats_perfect_computer_by_following_the_coach() -> None:
    board = board_of("divisor-duel", 60, opponent="computer", level="perfect")
    assert board.status_text.startswith("Your turn.")
    assert board.card_labels[:3] == ["60 − 2 = 58", "60 − 3 = 57", "60 − 4 = 56"]
    board.choose(coach.winning_moves(board.state)[0])
    # the computer replied at once, and the board says what it did
    assert board.state.to_move == 1 and len(board.state.history) == 2
    reply = board.state.history[1]
    assert isinstance(reply, Moved)
    assert f"The computer played {reply.before} − {reply.divisor} = {reply.after}." in board.message_text
    assert f"Subtracting {reply.divisor} from {reply.before}" in board.history_html.value
    # the browser is sent the student's move first ("Computer is thinking…"), then the reply
    steps = board.view.frames
    assert len(steps) == 2 and steps[0]["turn"] == "Computer is thinking…" and steps[0]["cards"] == []
    assert steps[0]["message"]["text"].startswith("You played 60 − 3 = 57.")
    win_with_coach(board)
    assert board.state.winner == 1
    assert shown(board)["result"]["headline"] == "You win!" and shown(board)["result"]["kind"] == "win"
    assert shown(board)["score"] == "Score: You 1 – 0 Computer"
    assert board.card_labels == []  # no move cards once the game is over
    board.choose(2)
    assert "The game is over" in board.message_text


def test_student_loses_from_a_p_position_and_the_loss_looks_different() -> None:
    board = board_of("divisor-duel", 45, opponent="computer", level="perfect")
    while not board.state.is_over:
        board.choose(board.state.legal_moves[0])
    assert board.state.winner == 2
    result = shown(board)["result"]
    assert result["kind"] == "loss" and result["icon"] != "★" and "You lose" in result["headline"]
    assert shown(board)["score"] == "Score: You 0 – 1 Computer"


def test_match_score_rematch_and_reset() -> None:
    board = board_of("divisor-duel", 60, opponent="computer")
    win_with_coach(board)
    board.rematch()  # same start, the computer moves first and wins from 60
    assert board.state.start == 60 and board.state.history[0].player == 2
    assert board.settings.first_box.value == 2
    assert "Computer moves first" in board.message_text
    while not board.state.is_over:
        board.choose(board.state.legal_moves[0])
    assert shown(board)["score"] == "Score: You 1 – 1 Computer"
    board.settings.start_box.value = "12"  # Enter in the start box: a new game, the score stays
    assert board.state.start == 12 and board.state.history[0].player == 2
    board.reset_score()
    assert board.score == {1: 0, 2: 0} and shown(board)["score"] == "Score: You 0 – 0 Computer"
    assert board.state.start == 12 and board.state.history  # resetting the score does not touch the game


def test_you_move_first_reads_well() -> None:
    board = board_of("divisor-duel", 60, opponent="computer")
    board.start_game()
    assert "You move first." in board.message_text and "You moves" not in board.message_text


def test_browser_actions_play_through_the_same_handlers() -> None:
    board = board_of("divisor-duel", 60, opponent="computer")
    board._action({"kind": "typed", "text": "15"})
    assert board.state.history[0] == Moved(1, 60, 15, 45)
    board._action({"kind": "card", "d": board.state.legal_moves[0]})
    assert len(board.state.history) >= 3
    win_with_coach(board)
    board._action({"kind": "again"})
    assert board.state.history == () and board.state.number == 60


def test_friend_game_and_computer_first() -> None:
    board = board_of("division-duel", 60)
    board.choose(4)
    assert board.state.number == 15 and board.state.to_move == 2
    assert board.status_text.startswith("Player 2's turn")
    board.settings.opponent_box.value = "computer"
    assert board.state.number == 15  # the change waits for the next game
    board.settings.first_box.value = 2
    board.settings.new_button.click()
    assert board.vs_computer and board.state.history[0].player == 2
    assert board.state.is_over and board.state.winner == 2  # division games end in one move
    assert [name for name, _ in board.settings.first_box.options] == ["You", "Computer"]


def test_random_and_coach_levels() -> None:
    board = board_of("factor-duel", 100, opponent="computer", level="random", seed=3)
    board.choose(1)
    assert board.state.to_move == 1 and "The computer played" in board.message_text
    board.settings.level_box.value = "coach"
    board.choose(board.state.legal_moves[0])
    assert "Coach (computer): I play" in board.coach_text


def test_wording_is_changed_in_one_place() -> None:
    words = BoardWording(your_turn="Your go", you_win="Well played!")
    board = GameBoard("divisor-duel", 60, opponent="computer", delay=0, wording=words)
    assert board.status_text.startswith("Your go.")
    win_with_coach(board)
    assert shown(board)["result"]["headline"] == "Well played!"


# -- Number Factor: passes and lost turns ----------------------------------------------


def test_number_factor_computer_passes_then_student_passes_and_wins() -> None:
    board = board_of("number-factor", 30, opponent="computer")
    board.choose(6)  # 30 ÷ 6 = 5, a prime
    passed = board.state.history[1]
    assert isinstance(passed, Passed) and passed.player == 2
    assert "The computer has no allowed divisor of 5, so it passed." in board.message_text
    assert "5 is a prime number. No proper divisors. Turn passed." in board.history_html.value
    assert board.state.must_pass and shown(board)["can_pass"] and not shown(board)["can_type"]
    assert "you must pass: press Pass" in board.status_text
    board.pass_turn()
    assert board.state.ending == "passes" and board.state.winner == 1
    assert "You win!" in board.status_text
    assert "Congratulations, Player 1 wins the game!" in board.history_html.value


def test_pass_only_when_stuck() -> None:
    board = board_of("number-factor", 30)
    assert not shown(board)["can_pass"] and shown(board)["show_pass"]
    board.pass_turn()
    assert board.state.history == ()
    assert "passing is only allowed with no legal move" in board.message_text


def test_number_factor_invalid_typed_move_loses_the_turn() -> None:
    board = board_of("number-factor", 30)
    board.play_typed("7")
    event = board.state.history[-1]
    assert isinstance(event, LostTurn) and event.value == 7 and board.state.to_move == 2
    assert board.state.number == 30
    assert "7 does not divide 30" in board.message_text
    assert "an invalid move loses the turn" in board.message_text and "Player 2's turn" in board.message_text
    assert "Invalid move: Player 1 loses the turn." in board.history_html.value
    board.play_typed("5")
    assert board.state.number == 6
    player: int = board.state.to_move  # not narrowed by the assert above: the move changed it
    assert player == 1


@pytest.mark.parametrize("typed", ["7", "abc", "", "²", "2²", "⑧", "１２", "١٢", "1.5", "99999999999999999999"])
def test_typed_moves_in_divisor_duel_are_refused_visibly(typed: str) -> None:
    board = board_of("divisor-duel", 60)
    board.play_typed(typed)
    assert board.state.history == ()
    assert shown(board)["message"]["error"] and board.message_text.strip()


def test_typed_move_plays() -> None:
    board = board_of("divisor-duel", 60)
    board.play_typed("15")
    assert board.state.number == 45 and "Player 1 played 60 − 15 = 45." in board.message_text
    board.play_typed("abc")
    assert "'abc' is not a whole number" in board.message_text
    board.play_typed("3")
    assert board.message_text == "Player 2 played 45 − 3 = 42."  # the old problem line is gone


# -- bad starts ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "typed", "words"),
    [
        ("divisor-duel", "", "Nothing was typed"),
        ("divisor-duel", "abc", "'abc' is not a whole number"),
        ("divisor-duel", "１２", "is not a whole number"),
        ("divisor-duel", "-5", "must be a positive whole number, not -5"),
        ("divisor-duel", "0", "must be a positive whole number, not 0"),
        ("divisor-duel", str(10**19), "too big"),
        ("number-factor", "7", "7 is prime, so it cannot start Number Factor"),
        ("number-factor", "1", "1 is neither prime nor composite"),
        ("division-duel", "13", "13 is prime, so it cannot start Division Duel"),
        ("factor-duel", "2", "2 is too small to start Factor Duel"),
    ],
)
def test_bad_start_leaves_the_game_and_score_unchanged(rules: str, typed: str, words: str) -> None:
    board = board_of("divisor-duel", 60, opponent="computer")
    board.choose(15)
    before, score = board.state, dict(board.score)
    board.settings.rules_box.value = rules
    board.settings.start_box.value = typed
    board.start_game()  # also the "New game" button
    assert board.state is before and board.score == score
    assert words in board.message_text
    assert "The current game is unchanged." in board.message_text
    assert shown(board)["message"]["error"]


def test_choosing_rules_offers_their_usual_start() -> None:
    board = board_of("divisor-duel", 60)
    board.settings.rules_box.value = "factor-duel"
    assert board.settings.start_box.value == "100" and board.state.rules.name == "divisor-duel"
    assert "Press New game to play it" in board.message_text
    board.settings.new_button.click()
    assert board.state.rules.name == "factor-duel" and board.state.number == 100


def test_large_numbers_are_grouped_on_the_board() -> None:
    board = board_of("divisor-duel", 10**18)
    assert "1\u2009000\u2009000" in shown(board)["number"]
    assert board.card_labels[0].startswith("1\u2009000")


def test_random_start_is_allowed_by_the_book() -> None:
    board = board_of("number-factor", seed=1)
    for _ in range(5):
        board.random_start()
        assert 10 <= board.state.number <= 99
        assert board.settings.start_box.value == str(board.state.number)
        RULEBOOKS["number-factor"].check_start(board.state.number)


def test_text_fallback_where_widgets_do_not_render() -> None:
    board = board_of("divisor-duel", 60)
    bundle = board._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data
    assert "current number 60" in data["text/plain"] and "Player 1's turn" in data["text/plain"]
    assert "<b style='font-size:1.6em'>60</b>" in data["text/html"]


# -- help -------------------------------------------------------------------------


def test_hint_and_explain_write_the_coach_text_newest_first() -> None:
    board = board_of("divisor-duel", 60)
    board.hint_button.click()
    board.explain_button.click()
    text = board.coach_text
    assert text.startswith("Explain: ")
    assert "Player 1 to move from 60" in text
    assert "Hint: " in text
    assert "<p>" in board.coach_html.value and "2^" not in board.coach_html.value


def test_teacher_switches_turn_the_coach_off() -> None:
    board = board_of("divisor-duel", 60, hints=False, explain=False, show_pn=False)
    assert board.hint_button.layout.display == "none" and board.pn_toggle.layout.display == "none"
    board.hint()
    board.explain()
    assert board.coach_text == "" and "switched off" in board.message_text
    board.pn_toggle.value = True
    assert all(not card["tag"] for card in shown(board)["cards"])


def test_show_pn_tags_and_words() -> None:
    board = board_of("divisor-duel", 60)
    assert all(not card["tag"] for card in shown(board)["cards"])
    board.pn_toggle.value = True
    tags = {card["d"]: card for card in shown(board)["cards"]}
    assert {d for d, c in tags.items() if c["tag"] == "P"} == {3, 5, 15}
    assert tags[3]["tag_text"].startswith("P") and "leaves a losing number" in tags[3]["label"]
    assert tags[2]["tag"] == "N"
    board.pn_toggle.value = False
    assert "60 − 3 = 57" in board.card_labels


def test_many_divisors_are_capped_and_can_be_typed() -> None:
    board = board_of("divisor-duel", 720720)
    moves = board.state.legal_moves
    assert len(moves) > MAX_BUTTONS and len(board.card_labels) == MAX_BUTTONS
    assert f"Showing {MAX_BUTTONS} of {len(moves)} allowed divisors" in shown(board)["more"]
    board.play_typed(str(moves[-1]))
    assert board.state.number == 720720 - moves[-1]


def test_every_settings_control_has_a_label_and_a_tooltip() -> None:
    board = board_of()
    s = board.settings
    controls = [
        s.rules_box, s.start_box, s.random_button, s.first_box, s.opponent_box,
        s.level_box, s.new_button, s.rematch_button, s.reset_button,
        board.hint_button, board.explain_button, board.pn_toggle,
    ]  # fmt: skip
    for control in controls:
        assert control.description.strip(), control
        assert (control.tooltip or "").strip() or control is board.settings.first_box, control
        assert not getattr(control, "icon", ""), "icons come from a CDN"
    assert all(card["label"].startswith("Play ") for card in shown(board)["cards"])
    assert not board.settings.start_box.continuous_update
    assert not board.settings.expanded and board.settings.fold.body.layout.display == "none"  # folded away


# -- variant builder --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("base", "option", "title"),
    [
        ("divisor-duel", "misere_box", "Divisor Duel, misère"),
        ("divisor-duel", "one_box", "Divisor Duel, 1 allowed"),
        ("divisor-duel", "prime_box", "Divisor Duel, reaching a prime wins"),
        ("factor-duel", "misere_box", "Factor Duel, misère"),
        ("number-factor", "prime_box", "Number Factor, reaching a prime wins"),
    ],
)
def test_every_builder_option_plays_from_any_book(base: str, option: str, title: str) -> None:
    shipped = dict(RULEBOOKS)
    board = board_of("divisor-duel", 60, opponent="computer")
    builder = VariantBuilder(board, base=base)
    getattr(builder, option).value = not getattr(builder, option).value
    builder.play_it()
    rules = board.state.rules
    assert rules.title == title and board.state.start == rules.default_start
    assert f"Now playing {title}, starting at" in builder.message.value
    while not board.state.is_over:  # the variant plays to the end
        board.choose(board.state.legal_moves[0]) if not board.state.must_pass else board.pass_turn()
    assert board.state.winner in (1, 2)
    assert shipped == RULEBOOKS  # no variant replaces (or joins) the shipped books


def test_variant_builder_builds_and_offers_the_variant_to_the_board() -> None:
    board = board_of()
    builder = VariantBuilder(board)
    builder.family_box.value = "even"
    rules = builder.build()
    assert rules is not None and rules.divisors == "even" and rules.title == "Divisor Duel, even divisors"
    assert "even divisors d with 1 &lt; d &lt; N" in builder.description.value
    text = output_text(builder.out)
    assert "n  outcome  grundy  remoteness" in text and "P-positions from 1 to 100" in text
    builder.play_it()
    board.settings.start_box.value = "12"
    assert board.state.rules == rules and board.state.legal_moves == (2, 4, 6)


def test_variant_builder_without_a_board_shows_its_own() -> None:
    builder = VariantBuilder()
    builder.misere_box.value = True
    board = builder.play_it()
    assert board is not None and builder.board_box.children == (board.widget,)
    assert not board.state.rules.last_mover_wins


def test_variant_builder_explains_an_impossible_variant() -> None:
    builder = VariantBuilder()
    builder.move_box.value = "divide"
    builder.one_box.value = True
    assert builder.build() is None and builder.rules is None
    assert "These choices do not make a game" in builder.message.value
    assert "Dividing by 1 leaves the number unchanged" in builder.message.value
    assert builder.play_it() is None


def test_large_tables_show_progress() -> None:
    builder = VariantBuilder()
    seen: list[int] = []
    builder.progress.observe(lambda change: seen.append(change["new"]), names="value")
    rules = RULEBOOKS["divisor-duel"].variant(divisors="odd", last_mover_wins=False)
    clear_cache()  # a table of these rules left by another test would leave less to do, and fewer steps
    table = tabulate_with_progress(rules, 300_000, builder.progress)
    assert table.upto == 300_000
    assert seen[-1] == 100 and len(seen) >= 3
    assert builder.progress.layout.display == "none"


# -- explorers ------------------------------------------------------------------------


def test_pn_explorer_redraws_on_every_change_and_the_range_fills_the_slider() -> None:
    explorer = PNExplorer()
    lo, hi = explorer.range_slider.value
    assert (hi - lo) / (explorer.range_slider.max - explorer.range_slider.min) >= 0.4
    first = explorer.out.outputs[0]["data"]["image/png"]
    assert explorer.draws == 1
    explorer.range_slider.value = (1, 100)
    assert explorer.draws == 2 and explorer.out.outputs[0]["data"]["image/png"] != first
    assert "n = 1 to 100" in explorer.out.outputs[0]["data"]["text/plain"]
    for kind in ("hundred square", "Grundy values", "remoteness"):
        explorer.plot_box.value = kind
        assert kind in explorer.out.outputs[0]["data"]["text/plain"]
    explorer.rules_box.value = "factor-duel"
    assert explorer.draws == 6 and explorer.message.value == ""
    explorer.largest_box.value = 2000
    assert explorer.range_slider.max == 2000


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


# -- where widgets do not run (nbconvert HTML, GitHub): a text and HTML fallback ---------------------------


def displayed(obj: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What ``obj._ipython_display_()`` passes to IPython's display, in order."""
    import IPython.display

    seen: list[Any] = []
    monkeypatch.setattr(IPython.display, "display", lambda item, **_: seen.append(item))
    obj._ipython_display_()
    return seen


@pytest.mark.parametrize("make", [
    lambda: board_of("divisor-duel", 30, opponent="computer"),
    lambda: PNExplorer("divisor-duel", 1, 30),
    lambda: FollowGame("divisor-duel", 12),
    lambda: VariantBuilder(),
])  # fmt: skip
def test_views_carry_text_and_html_for_pages_without_widgets(make: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    view = make()
    data = view._repr_mimebundle_()[0]
    assert {"text/plain", "text/html", "application/vnd.jupyter.widget-view+json"} <= set(data)
    assert "JupyterLab or Voilà" in data["text/plain"]
    # Displayed in a notebook: the widget, then a separate text/HTML output (hidden by CSS where widgets run).
    widget, fallback = displayed(view, monkeypatch)
    assert widget is view.widget
    assert fallback["text/plain"] == data["text/plain"]
    assert 'class="duel-fallback"' in fallback["text/html"]
    from duel_lessons.views.board_view import BOARD_CSS

    assert ".duel-fallback { display: none" in BOARD_CSS


def test_board_fallback_shows_the_position_and_the_moves() -> None:
    board = board_of("divisor-duel", 12, opponent="computer")
    text = board._repr_mimebundle_()[0]["text/plain"]
    assert "current number 12" in text and "Your turn" in text
    for d in (2, 3, 4, 6):  # the proper divisors of 12, as cards
        assert f"12 − {d} = {12 - d}" in text
    board.choose(2)  # 12 − 2 = 10, the computer answers
    assert f"current number {board.state.number}" in board._repr_mimebundle_()[0]["text/plain"]


def test_nbconvert_html_shows_the_board_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """The outputs a board cell stores, exported by nbconvert: the position is readable without widgets."""
    import nbformat

    nbconvert = pytest.importorskip(
        "nbconvert", reason="nbconvert comes with JupyterLab (lab and test extras); the lowest-versions run has neither"
    )
    HTMLExporter = nbconvert.HTMLExporter

    new_output: Any = nbformat.v4.new_output
    new_cell: Any = nbformat.v4.new_code_cell
    new_notebook: Any = nbformat.v4.new_notebook
    exporter: Any = HTMLExporter
    board = board_of("divisor-duel", 30, opponent="computer")
    outputs = []
    for item in displayed(board, monkeypatch):
        data = item._repr_mimebundle_() if hasattr(item, "_repr_mimebundle_") else item
        outputs.append(new_output("display_data", data=data))
    cell = new_cell("GameBoard('divisor-duel', 30)", outputs=outputs)
    html, _ = exporter().from_notebook_node(new_notebook(cells=[cell]))
    assert "Divisor Duel</b>: current number" in html
    assert "30 − 15 = 15" in html


def test_explorer_shows_the_plot_at_natural_size_and_shrinks_only_to_10_px_text() -> None:
    import base64
    import re
    import struct

    from duel_lessons.views.plot_style import DPI, NORMAL

    explorer = PNExplorer("divisor-duel", 1, 60)
    data = explorer.out.outputs[0]["data"]
    width = struct.unpack(">I", base64.b64decode(data["image/png"])[16:20])[0]
    style = re.search(r'style="([^"]+)"', data["text/html"])
    assert style is not None
    assert f"max-width:{width}px" in style.group(1) and "width:100%" in style.group(1)
    floor = int(re.search(r"min-width:(\d+)px", style.group(1)).group(1))  # type: ignore[union-attr]
    smallest = NORMAL.small * DPI / 72  # the plots' smallest text, in px at natural size
    assert smallest * floor / width >= 10 > smallest * (floor - 2) / width


def test_explorer_offers_every_single_rules_plot_of_the_registry() -> None:
    from duel_lessons.views.explorers import _plot_kinds
    from duel_lessons.views.plots import PLOTS
    from duel_lessons.views.widgets import PLOT_KINDS

    assert PLOT_KINDS == _plot_kinds() == tuple(n for n, spec in PLOTS.items() if not spec.many_rules)
    explorer = PNExplorer("divisor-duel", 1, 30)
    for kind in PLOT_KINDS:
        explorer.plot_box.value = kind
        assert explorer.message.value == "", explorer.message.value
        assert kind in explorer.out.outputs[0]["data"]["text/plain"]


def test_the_win_banner_is_not_repeated_by_the_coach() -> None:
    """The board announces the winner itself; its explanation of the end does not say "Player 1 wins" again."""
    from duel_lessons.engine.game import new_game

    over = new_game("divisor-duel", 6).play(3)  # 6 - 3 = 3: player 2 has no move
    full = coach.game_over_explanation(over, ("Player 1", "Computer"))
    short = coach.game_over_explanation(over, ("Player 1", "Computer"), say_winner=False)
    assert full == short + " Player 1 wins."
    assert "Player 1 wins" not in short
