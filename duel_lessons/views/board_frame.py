"""What the game board shows: frames for the play surface, the coach and history, and text for pages
without widgets.

A part of :class:`~duel_lessons.views.board.GameBoard` (the match is in board.py, the settings in
board_settings.py); its methods are the board's own (``board.status_text``).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as w

from duel_lessons.engine.game import GameState
from duel_lessons.engine.numbers import is_prime
from duel_lessons.play import coach
from duel_lessons.views.board_view import BoardView
from duel_lessons.views.common import (
    TextFallback,
    Turn,
    grouped,
    move_words,
    position_html,
    position_text,
    prose,
    prose_html,
    show_with_fallback,
)
from duel_lessons.views.rectangles import move_picture, rectangle_svg, strip_picture
from duel_lessons.views.tool_lock import locked
from duel_lessons.views.wording import BoardWording

__all__ = ["COACH_KEPT", "BoardFrame", "BoardNames"]

#: Coach messages kept on the board (newest first).
COACH_KEPT = 4


class BoardNames:
    """The players' names, shared by every part of GameBoard."""

    words: BoardWording
    _opponent: str

    @property
    def vs_computer(self) -> bool:
        """Whether the current game is against the computer (the computer is Player 2)."""
        return self._opponent == "computer"

    @property
    def names(self) -> tuple[str, str]:
        """The players' names in the history and the coach's words (the same as the headline's: "You" and
        "Computer" against the computer)."""
        return (self._who(1), self._who(2))

    def _who(self, player: int) -> str:
        return self.words.name(player, self.vs_computer)


class BoardFrame(BoardNames):
    """The display part of GameBoard (a mixin: the board's state lives on the board)."""

    # Set by GameBoard.__init__ (the match) and used here.
    words: BoardWording
    state: GameState
    score: dict[int, int]
    switches: dict[str, bool]
    max_buttons: int
    view: BoardView
    widget: w.VBox
    pn_toggle: w.ToggleButton
    coach_html: w.HTML
    history_html: w.HTML
    _message: tuple[str, bool]
    _turn: Turn
    _coach_lines: list[tuple[GameState, str]]
    _winning_results: Callable[[], set[int] | None]

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, with the position as text and HTML where widgets do not render (nbconvert, GitHub)."""
        return TextFallback(self.widget, self.text_summary(), self.html_summary())._repr_mimebundle_(**kwargs)

    def _ipython_display_(self) -> None:
        """The board, then the position as text/HTML (shown only where the board cannot run)."""
        show_with_fallback(self.widget, self.text_summary(), self.html_summary())

    def _summary(self) -> tuple[str, list[str]]:
        """Whose turn it is (or the result) and the moves, for pages without widgets (no "click a card")."""
        frame = self._frame(self.state)
        if frame["result"]:
            return f"{frame['result']['headline']} {frame['result']['why']}", []
        return f"{frame['turn']}.", self.card_labels

    def text_summary(self) -> str:
        """The position in plain text.

        >>> from duel_lessons.views.board import GameBoard
        >>> print(GameBoard("divisor-duel", 6, opponent="computer").text_summary())
        Divisor Duel: current number 6. Your turn.
        Moves: 6 − 2 = 4, 6 − 3 = 3.
        (The board is a widget: open the notebook in JupyterLab or Voilà to play.)
        """
        return position_text(self.state.rules.title, self.state.number, *self._summary())

    def html_summary(self) -> str:
        """The position in HTML, for pages that cannot show widgets."""
        return position_html(self.state.rules.title, self.state.number, *self._summary())

    @property
    def coach_text(self) -> str:
        """The coach's messages as plain text, newest first."""
        return "\n\n".join(prose(text) for _, text in self._coach_lines)

    # -- display ------------------------------------------------------------------

    def _show_message(self, text: str, error: bool = False) -> None:
        self._message = (text, error)
        self._refresh()

    @property
    def message_text(self) -> str:
        """The message line as plain text (for tests)."""
        return prose(self._message[0])

    @property
    def status_text(self) -> str:
        """Whose turn it is and what to do, or who won and why, in plain words."""
        frame = self._frame(self.state)
        if frame["result"]:
            return f"{frame['result']['headline']} {frame['result']['why']}"
        return f"{frame['turn']}. {frame['instruction']}"

    @property
    def card_labels(self) -> list[str]:
        """The move cards shown now ('60 − 15 = 45', with ' P' / ' N' when P/N is shown)."""
        return [(c["text"] + (f" {c['tag']}" if c["tag"] else "")) for c in self._frame(self.state)["cards"]]

    def _frame(self, state: GameState, last: bool = True) -> dict[str, Any]:
        """What the board shows for ``state`` (``last``: the final frame of a turn, with the message)."""
        words, rules, vs = self.words, state.rules, self.vs_computer
        thinking = vs and not state.is_over and state.to_move == 2
        human = not state.is_over and not thinking
        result = None
        if state.winner is not None:
            why = coach.game_over_explanation(state, self.names, say_winner=False)  # the banner says who won
            kind = ("win" if state.winner == 1 else "loss") if vs else "neutral"
            icon = {"win": "★", "loss": "✗", "neutral": "⚑"}[kind]
            result = {"kind": kind, "icon": icon, "headline": words.result(state.winner, vs), "why": prose(why)}
        moves = state.legal_moves if human else ()
        show_pn = self.switches["show_pn"] and self.pn_toggle.value and locked("show_pn") is None
        winning = self._winning_results() if show_pn and moves and state is self.state else None
        cards = []
        pictures = self.switches["rectangles"] and last
        for d in moves[: self.max_buttons]:
            text = move_words(rules, state.number, d)
            tag = "" if winning is None else ("P" if d in winning else "N")
            tag_text = {"P": "P – leaves a losing number", "N": "N – leaves a winning number", "": ""}[tag]
            cards.append({"d": d, "text": text, "tag": tag, "tag_text": tag_text,
                          "label": f"Play {d}: {text}" + (f". {tag_text}" if tag else ""),
                          "tip": f"Play {d}: {text}",
                          "picture": self._picture(state, d) if pictures else None})  # fmt: skip
        more = ""
        if len(moves) > len(cards):
            more = f"Showing {len(cards)} of {len(moves)} allowed divisors; type any other one in the box."
        if show_pn and moves and winning is None:
            more += " P/N unknown here: no table or formula covers this number."
        if state.is_over:
            turn, turn_kind, instruction = words.game_over, "over", ""
        elif thinking:  # an instruction line still, so nothing below it moves up while the computer thinks
            waiting = words.fill("computer_choosing", n=grouped(state.number))
            turn, turn_kind, instruction = words.thinking, "thinking", waiting
        else:
            turn = words.turn(state.to_move, vs)
            turn_kind = "you" if vs else f"p{state.to_move}"
            who = self._who(state.to_move) if not vs else "you"
            instruction = (words.fill("must_pass", n=grouped(state.number), player=who) if state.must_pass
                           else words.fill("choose_divisor", n=grouped(state.number)))  # fmt: skip
        text, error = self._message if last else (self._turn.words_until(state), False)
        score = words.fill("score", you=self._who(1), a=self.score[1], b=self.score[2], them=self._who(2))
        spoken = result["headline"] + " " + result["why"] if result else f"{turn}. {instruction}"
        said = f"{words.problem} {prose(text)}" if error and text else prose(text)
        return {
            "title": rules.title, "number": grouped(state.number), "turn": turn, "turn_kind": turn_kind,
            "instruction": instruction, "result": result, "cards": cards, "more": more.strip(),
            "can_type": human and not state.must_pass, "can_pass": human and state.must_pass,
            "show_pass": rules.when_stuck == "pass" and not state.is_over, "thinking": thinking,
            "over": state.is_over, "message": {"text": prose(text), "error": error},
            "pictures": bool(pictures), "picture": self._picture(state) if pictures and not cards else None,
            "announce": f"{said} {spoken}".strip(), "score": score,
            "region": words.fill("region", title=rules.title, start=grouped(state.start)),
            "words": {"entry_label": words.entry_label, "play": words.play_label, "pass": words.pass_label,
                      "play_again": words.play_again, "rematch": words.rematch, "problem": words.problem,
                      "kernel_lost": words.kernel_lost, "no_answer": words.no_answer},
        }  # fmt: skip

    @staticmethod
    def _picture(state: GameState, d: int | None = None) -> dict[str, str] | None:
        """The rectangle of dots for the move ``d`` (views.rectangles), or a prime's only strip when ``d`` is None."""
        n, move = state.number, state.rules.move
        if move not in ("subtract", "divide") or n < 2:
            return None
        if d is None:
            if n > 10**12 or not is_prime(n):
                return None
            picture = strip_picture(n)
        elif d < 1 or n % d:
            return None
        else:
            picture = move_picture(n, d, move)
        return {"svg": rectangle_svg(picture), "alt": picture.alt}

    def _refresh(self, steps: list[GameState] | None = None, announce: str = "") -> None:
        """Redraw everything from ``self.state`` (``steps``: the positions to show on the way there;
        ``announce``: what a screen reader says instead of the position, such as a hint)."""
        shown = [s for s in (steps or []) if s is not self.state] + [self.state]
        frames = [self._frame(s, last=s is self.state) for s in shown]
        if announce:
            frames[-1]["announce"] = announce
        self.view.show(frames)
        self.pn_toggle.description = "Hide P/N" if self.pn_toggle.value else "Show P/N"  # no symbol font needed
        parts = []
        for i, (state, text) in enumerate(self._coach_lines):
            old = "" if state == self.state else " duel-old"
            label = "" if not old else "<small>(earlier position)</small> "
            parts.append(f'<div class="duel-coach-msg{old}">{label}{prose_html(text)}</div>' if i < COACH_KEPT else "")
        self.coach_html.value = "".join(parts)
        # The book's record of the game, in its own words ("Player 1's turn"), with what each side said.
        book_names = (self.words.name(1, False), self.names[1])
        voices = (self.words.you, self.names[1]) if self.vs_computer else (self.words.you, self.words.you)
        history = escape(prose(self.state.transcript(book_names, voices)))
        self.history_html.value = f'<div style="white-space:pre-wrap;margin:0">{history}</div>'
