"""The game board's settings: the rules, start, opponent, level and first player, and starting games.

A part of :class:`~duel_lessons.views.board.GameBoard` (the match is in board.py, what the board
shows in board_frame.py); its methods are the board's own (``board.start_game(45)``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from duel_lessons.engine.errors import DuelError
from duel_lessons.engine.game import GameState, new_game, other
from duel_lessons.engine.rules import Rules
from duel_lessons.engine.starts import random_start
from duel_lessons.play.players import LEVELS, Strategy, make_player
from duel_lessons.views.board_frame import BoardNames
from duel_lessons.views.board_view import Guard
from duel_lessons.views.common import WIDE, button, grouped, read_box, rules_for, rules_key, rules_options
from duel_lessons.views.wording import BoardWording

__all__ = ["BoardSettings"]


class BoardSettings(BoardNames):
    """The settings part of GameBoard (a mixin: the board's state lives on the board)."""

    # Set by GameBoard.__init__ (the match) and used here.
    words: BoardWording
    state: GameState
    score: dict[int, int]
    guard: Guard
    computer: Strategy
    _extra: dict[str, Rules]
    _rng: Any
    _seed: int | None
    _first: int
    _opponent: str
    _scored: bool
    _busy: bool
    _coach_lines: list[tuple[GameState, str]]
    _message: tuple[str, bool]
    _show_message: Callable[..., None]
    _advance: Callable[..., None]

    def _build_settings(self, book: Rules, opponent: str, level: str, first: int) -> None:
        self.rules_box = w.Dropdown(
            options=rules_options(self._extra), value=rules_key(book), description="Rules",
            tooltip="Which rule book to play (new game)", style=WIDE,
        ).add_class("duel-rules")  # fmt: skip
        self.start_box = w.Text(
            value=str(self.state.number), description="Start number", placeholder="e.g. 60",
            continuous_update=False, tooltip="Type a start number and press Enter for a new game", style=WIDE,
            layout=w.Layout(width="16em"),
        ).add_class("duel-start")  # fmt: skip
        self.random_button = button("Random start", "Pick a random start from 10 to 99", "duel-random")
        self.first_box = w.ToggleButtons(
            options=self._first_options(opponent), value=first, description="Who moves first",
            tooltips=["Player 1 moves first", "Player 2 moves first"], style=WIDE,
        ).add_class("duel-first")  # fmt: skip
        self.opponent_box = w.Dropdown(
            options=[("a friend (take turns)", "human"), ("the computer", "computer")], value=opponent,
            description="Opponent", tooltip="Play a friend on this screen, or the computer", style=WIDE,
        ).add_class("duel-opponent")  # fmt: skip
        self.level_box = w.Dropdown(
            options=list(LEVELS), value=level, description="Computer level", style=WIDE,
            tooltip="random: any move; greedy: one simple fixed rule; perfect: best play; coach: best play, explained",
            disabled=opponent != "computer",
        ).add_class("duel-level")  # fmt: skip
        self.new_button = button("New game", "Start a new game with these settings", "duel-new")
        self.rematch_button = button("Rematch", "Same start, the other player moves first", "duel-rematch")
        self.reset_button = button("Reset score", "Set the match score back to 0 – 0", "duel-reset")
        guarded = self.guard.guarded
        self.random_button.on_click(guarded(self.random_start))
        self.new_button.on_click(guarded(self.start_game))
        self.rematch_button.on_click(guarded(self.rematch))
        self.reset_button.on_click(guarded(self.reset_score))
        self.start_box.observe(lambda _: None if self._busy else self.start_game(), names="value")
        self.opponent_box.observe(self._opponent_changed, names="value")
        self.rules_box.observe(self._rules_changed, names="value")
        self.level_box.observe(lambda _: self._level_changed(), names="value")
        row = w.Layout(flex_flow="row wrap", align_items="center")
        self._settings_box = w.VBox([
            w.HBox([self.rules_box, self.start_box, self.random_button], layout=row),
            w.HBox([self.opponent_box, self.level_box], layout=row),
            self.first_box,
            w.HBox([self.new_button, self.rematch_button, self.reset_button], layout=row),
        ])  # fmt: skip

    def _first_options(self, opponent: str) -> list[tuple[str, int]]:
        vs = opponent == "computer"
        return [(self.words.name(1, vs), 1), (self.words.name(2, vs), 2)]

    # -- settings handlers ------------------------------------------------------

    def _opponent_changed(self, change: Any) -> None:
        first = self.first_box.value
        self.first_box.options = self._first_options(change["new"])
        self.first_box.value = first
        self.level_box.disabled = change["new"] != "computer"
        self._show_message("The new opponent plays from the next game: press New game.")

    def _rules_changed(self, change: Any) -> None:
        rules = self._chosen_rules()
        self._set_box(self.start_box, str(rules.default_start))
        self._show_message(
            f"{rules.title} chosen, from its usual start {rules.default_start}. "
            "Press New game to play it (the current game is unchanged)."
        )

    def _level_changed(self) -> None:
        self.computer = make_player(self.level_box.value, self._seed)
        if self.vs_computer:
            self._show_message(f"The computer now plays at level {self.level_box.value!r}.")

    def _set_box(self, box: w.Text, value: str) -> None:
        """Set a text box without triggering its Enter handler."""
        self._busy = True
        try:
            box.value = value
        finally:
            self._busy = False

    def add_rules(self, rules: Rules, select: bool = True) -> None:
        """Offer a Rules value (a variant) in the Rules list, and choose it."""
        key = rules_key(rules)
        if key != rules.name:
            self._extra[key] = rules
        self.rules_box.options = rules_options(self._extra)
        if select:
            self.rules_box.value = key

    def refresh_rules(self, select: str | None = None) -> None:
        """Re-read the Rules list (and select a key in it)."""
        current = select or self.rules_box.value
        self.rules_box.options = rules_options(self._extra)
        keys = [key for _, key in self.rules_box.options]
        self.rules_box.value = current if current in keys else rules_key(self.state.rules)

    def _chosen_rules(self) -> Rules:
        return rules_for(self.rules_box.value, self._extra)

    # -- starting games ---------------------------------------------------------

    def start_game(self, start: int | None = None, first: int | None = None, rules: Rules | None = None) -> None:
        """Start a new game from the settings (or from this start, first player or rules).

        A bad start leaves the current game as it was and says why.
        """
        try:
            rules = rules or self._chosen_rules()
            n = read_box(self.start_box.value, "the start number") if start is None else start
            state = new_game(rules, n, self.first_box.value if first is None else first)
        except DuelError as error:
            self._show_message(f"{error} {self.words.unchanged}", error=True)
            return
        if self.opponent_box.value != self._opponent:
            self.score = {1: 0, 2: 0}  # a different opponent is a different match
        self._opponent = self.opponent_box.value
        self._first = state.to_move
        self.first_box.options = self._first_options(self._opponent)
        self.first_box.value = self._first
        self._set_box(self.start_box, str(n))
        self.state = state
        self._scored = False
        self._coach_lines = []
        first_words = self.words.moves_first(self._first, self.vs_computer)
        self._message = (self.words.fill("new_game", title=rules.title, n=grouped(n), first=first_words), False)
        self._advance(None, keep_message=True)

    def random_start(self) -> None:
        """A new game from a random legal start between 10 and 99 (engine.starts.random_start)."""
        rules = self._chosen_rules()
        try:
            n = random_start(rules, 10, 99, self._rng)
        except DuelError as error:
            self._show_message(f"{error} Type a start instead.", error=True)
            return
        self._set_box(self.start_box, str(n))
        self.start_game()

    def rematch(self) -> None:
        """The same rules and start again, with the other player moving first."""
        rules = self.state.rules
        if rules_key(rules) in [key for _, key in self.rules_box.options]:
            self.rules_box.value = rules_key(rules)
        self.start_game(self.state.start, other(self._first), rules)

    def play_again(self) -> None:
        """The same rules, start and first player again (the board's New game card)."""
        self.start_game(self.state.start, self._first, self.state.rules)

    def reset_score(self) -> None:
        """Set the match score back to 0 – 0 (the game goes on)."""
        self.score = {1: 0, 2: 0}
        self._show_message("Score reset to 0 – 0.")
