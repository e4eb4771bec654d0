"""A notebook board for sums of games: several numbers, one move per turn.

Each component has its own row of move buttons.  Like the other widgets, every
button calls a plain method (``board.choose(1, 6)``, ``board.hint()``,
``board.new_game()``) that a test can call directly, and results and errors are
written on the board.  Components are counted from 1 on the board and from 0 in
the methods, as in :mod:`duel_lessons.play.sums`.

>>> board = SumBoard([12, "division-duel:18", 30], opponent="computer")
>>> board.choose(0, 3)           # 12 - 3 = 9: XOR 0, then the computer replies
>>> len(board.state.history)
2
"""

from __future__ import annotations

import html
import re
from functools import partial
from html import escape
from typing import Any

import ipywidgets as w

from duel_lessons.engine.game import IllegalMoveError, play_out
from duel_lessons.engine.rules import DuelError, Rules
from duel_lessons.play.sum_players import SumStrategy, make_sum_player
from duel_lessons.play.sums import SumState, hint, new_sum, sum_grundy, sum_transcript
from duel_lessons.views.board import MAX_BUTTONS, Hand
from duel_lessons.views.board_view import Guard
from duel_lessons.views.common import grouped, html_message, move_words
from duel_lessons.views.wording import DEFAULT_WORDING, BoardWording


class SumBoard:
    """Play a sum of games against a friend or the computer (the computer is Player 2).

    ``parts`` are numbers (played by ``rules``), ``(rules, number)`` pairs or
    texts like ``"division-duel:18"``.  ``board.state`` is the current
    :class:`~duel_lessons.play.sums.SumState`.
    """

    def __init__(
        self,
        parts: list[int | str | tuple[Rules, int]] | tuple[int | str | tuple[Rules, int], ...] = (12, 18, 30),
        rules: Rules | str = "divisor-duel",
        opponent: str = "human",
        level: str = "perfect",
        first: int = 1,
        seed: int | None = None,
        max_buttons: int = MAX_BUTTONS,
        *,
        hints: bool = True,
        large: bool = False,
        wording: BoardWording = DEFAULT_WORDING,
    ) -> None:
        if opponent not in ("human", "computer"):
            raise DuelError(f"opponent must be 'human' or 'computer', not {opponent!r}.")
        self.start_state: SumState = new_sum(list(parts), rules, first)
        self.state: SumState = self.start_state
        if opponent == "computer":
            sum_grundy(self.state)  # the computer needs every Grundy value: DuelError now, with the reason
        self.opponent = opponent
        self.words = wording
        self.computer: SumStrategy = make_sum_player(level, seed)
        self.max_buttons = max_buttons
        self.hand = Hand()

        self.title_html = w.HTML().add_class("sum-title")
        self.rows_box = w.VBox().add_class("sum-rows")
        self.status_html = w.HTML().add_class("sum-status")
        self.message = w.HTML().add_class("sum-message")
        self.guard = Guard()
        self.hint_button = w.Button(description="Hint", tooltip="A hint for this position, in words")
        self.hint_button.add_class("sum-hint").add_class("dg-guarded")
        self.hints = hints
        self.hint_button.layout.display = None if hints else "none"  # a teacher's switch: lessons 10-11 hide it
        self.new_button = w.Button(description="New game", tooltip="Start again from the same numbers")
        self.new_button.add_class("sum-new").add_class("dg-guarded")
        self.history_html = w.HTML().add_class("sum-history")
        self.hint_button.on_click(self.guard.guarded(self.hint))
        self.new_button.on_click(self.guard.guarded(self.new_game))
        self.move_buttons: list[list[w.Button]] = []
        self.widget = w.VBox(
            [
                self.guard,
                self.title_html,
                self.status_html,
                self.message,
                self.rows_box,
                w.HBox([self.hint_button, self.new_button]),
                w.HTML("<b>Game so far</b>"),
                self.history_html,
            ],
            layout=w.Layout(max_width="60em"),
        ).add_class("sum-board")
        self.large = large
        self._advance(None)

    @property
    def large(self) -> bool:
        """Large type for a projector (every text bigger, none smaller)."""
        return "duel-large-type" in self.widget._dom_classes

    @large.setter
    def large(self, value: bool) -> None:
        if value:
            self.widget.add_class("duel-large-type")
        else:
            self.widget.remove_class("duel-large-type")

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # -- names ------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, str]:
        """The players' names: "Player 1" and "Player 2" or "Computer"."""
        return ("Player 1", "Computer") if self.opponent == "computer" else ("Player 1", "Player 2")

    def _human_turn(self) -> bool:
        return not self.state.is_over and not (self.opponent == "computer" and self.state.to_move == 2)

    # -- actions ----------------------------------------------------------------

    def choose(self, index: int, divisor: int) -> None:
        """Play ``divisor`` in component ``index`` (from 0) for the player to move; errors go on the board."""
        if not self._human_turn():
            self._show(self.words.not_your_turn if not self.state.is_over else self.words.over_already, error=True)
            return
        self._advance((index, divisor))

    def _clicked(self, seen: SumState, index: int, divisor: int) -> None:
        """A move button of the position ``seen``: played only if that is still the position (never twice)."""
        if self.state is seen:
            self.choose(index, divisor)

    def _advance(self, move: tuple[int, int] | None) -> None:
        """Play the student's move (None: none) and the computer's replies through engine.game.play_out."""
        self.hand.pending = move
        said: list[str] = []

        def seen(state: SumState) -> None:
            event = state.history[-1]
            if self.opponent == "computer" and event.player == 2:
                rules = state.components[event.index][0]
                where = f"{move_words(rules, event.before, event.divisor)} in number {event.index + 1}"
                said.append(self.words.fill("computer_played", move=where))

        computer = self.computer if self.opponent == "computer" else self.hand
        try:
            self.state = play_out(self.state, {1: self.hand, 2: computer}, on_event=seen)
        except IllegalMoveError as error:
            self._show(str(error), error=True)
            return
        finally:
            self.hand.pending = None
        self._show(" ".join(said))
        self._refresh()

    def hint(self) -> None:
        """Write the XOR explanation of this position on the board (unless the teacher switched hints off)."""
        if not self.hints:
            self._show("Hints are switched off for this board.", error=True)
            return
        try:
            self._show(hint(self.state))
        except DuelError as error:
            self._show(f"No hint here: {error}", error=True)

    def new_game(self) -> None:
        """Start again from the same numbers, with the same player first."""
        self.state = self.start_state
        self._advance(None)

    # -- display ----------------------------------------------------------------

    def _show(self, text: str, error: bool = False) -> None:
        self.message.value = html_message(text, error, live=False)  # the guard's live region reads it out
        self.guard.say(" ".join(part for part in (("Problem: " if error else "") + text, self.status_text) if part))

    @property
    def message_text(self) -> str:
        """The message line as plain text (for tests)."""
        return html.unescape(re.sub(r"<[^>]+>", "", self.message.value.replace("</div>", "\n"))).strip()

    @property
    def status_text(self) -> str:
        """Whose turn it is, or who won, in plain words."""
        state, words, vs = self.state, self.words, self.opponent == "computer"
        if state.winner is not None:
            stuck = "you have no move" if vs and state.to_move == 1 else f"{self.names[state.to_move - 1]} has no move"
            return f"{words.game_over}: {stuck} in any component. {words.result(state.winner, vs)}"
        return f"{words.turn(state.to_move, vs)}: {words.choose_component}"

    def _refresh(self) -> None:
        state = self.state
        self.title_html.value = (
            "<b>Sum of games:</b> "
            + " + ".join(f"{grouped(n)} ({escape(r.title)})" for r, n in state.components)
            + "<br>On your turn, move in one component. The player with no move in any component loses."
        )
        over = ' class="sum-over"' if state.is_over else ""
        self.status_html.value = f'<div{over} style="font-size:1.15em"><b>{escape(self.status_text)}</b></div>'
        human = self._human_turn()
        rows = []
        self.move_buttons = []
        for i, (rules, n) in enumerate(state.components):
            moves = state.game(i).legal_moves
            label = w.HTML(f"<b>{i + 1}.</b> {escape(rules.title)}: <b>{grouped(n)}</b>").add_class("sum-row-label")
            buttons = []
            for d in moves[: self.max_buttons]:
                button = (
                    w.Button(
                        # The move names its number ("12 − 2 = 10"), as the game board's cards do.
                        description=move_words(rules, n, d),
                        tooltip=f"Number {i + 1}: {move_words(rules, n, d)}",
                        disabled=not human,
                        layout=w.Layout(width="auto"),
                    )
                    .add_class("sum-move")
                    .add_class(f"sum-move-{i + 1}-{d}")
                    .add_class("dg-guarded")
                )
                button.on_click(self.guard.guarded(partial(self._clicked, state, i, d)))
                buttons.append(button)
            self.move_buttons.append(buttons)
            note = [] if moves else [w.HTML("<i>finished: no moves left</i>")]
            if len(moves) > len(buttons):
                note = [w.HTML(f"<small>first {len(buttons)} of {len(moves)} divisors</small>")]
            row = w.HBox([label, *buttons, *note], layout=w.Layout(flex_flow="row wrap", align_items="center"))
            rows.append(row.add_class("sum-row").add_class(f"sum-row-{i + 1}"))
        self.rows_box.children = tuple(rows)
        text = escape(sum_transcript(state, self.names))
        self.history_html.value = f'<pre style="margin:0;white-space:pre-wrap">{text}</pre>'
