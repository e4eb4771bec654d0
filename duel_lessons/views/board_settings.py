"""The game board's settings: the rules, start, opponent, level and first player, folded under "Settings".

A part :class:`~duel_lessons.views.board.GameBoard` holds (``board.settings``).  It keeps no game:
it reads its boxes (:meth:`BoardSettings.rules`, :meth:`~BoardSettings.start`, ``first``,
``opponent``) and passes each request on through the callbacks it is given (``on_new``,
``on_random``, ``on_rematch``, ``on_reset``, ``on_level``, ``on_say``); the board answers with
:meth:`~BoardSettings.show_game` when a game starts.

>>> from duel_lessons.engine.rules import get_rules
>>> asked = []
>>> settings = BoardSettings(get_rules("divisor-duel"), 60, on_new=lambda: asked.append("new"))
>>> settings.start_box.value = "45"      # Enter in the start box
>>> asked, settings.start(), settings.first, settings.opponent
(['new'], 45, 1, 'human')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from duel_lessons.engine.rules import Rules
from duel_lessons.play.players import LEVELS
from duel_lessons.views.board_view import Fold, Guard
from duel_lessons.views.common import WIDE, button, read_box, rules_for, rules_key, rules_options
from duel_lessons.views.wording import DEFAULT_WORDING, BoardWording

__all__ = ["BoardSettings"]


def _nothing(*_: object) -> None:
    """A callback nobody asked for."""


class BoardSettings:
    """The settings part of the game board: its boxes, folded under a "Settings" button (``fold``).

    ``rules``, ``start``, ``opponent``, ``level`` and ``first`` fill the boxes; ``extra`` maps keys to rule
    books that are not in the registry (a variant).  Buttons are ``guard``-ed (one action per click).
    """

    def __init__(
        self,
        rules: Rules,
        start: int,
        opponent: str = "human",
        level: str = "perfect",
        first: int = 1,
        *,
        words: BoardWording = DEFAULT_WORDING,
        extra: dict[str, Rules] | None = None,
        guard: Guard | None = None,
        on_new: Callable[[], None] = _nothing,
        on_random: Callable[[], None] = _nothing,
        on_rematch: Callable[[], None] = _nothing,
        on_reset: Callable[[], None] = _nothing,
        on_level: Callable[[str], None] = _nothing,
        on_say: Callable[[str], None] = _nothing,
    ) -> None:
        self.words = words
        self.extra: dict[str, Rules] = dict(extra or {})
        if rules_key(rules) != rules.name:
            self.extra[rules_key(rules)] = rules
        self.on_say = on_say
        self._on_level = on_level
        self._busy = False  # True while a box is set from here: no handler runs
        self.rules_box = w.Dropdown(
            options=rules_options(self.extra), value=rules_key(rules), description="Rules",
            tooltip="Which rule book to play (new game)", style=WIDE,
        ).add_class("duel-rules")  # fmt: skip
        self.start_box = w.Text(
            value=str(start), description="Start number", placeholder="e.g. 60",
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
        guarded = (guard or Guard(live=False)).guarded
        self.random_button.on_click(guarded(lambda: on_random()))
        self.new_button.on_click(guarded(lambda: on_new()))
        self.rematch_button.on_click(guarded(lambda: on_rematch()))
        self.reset_button.on_click(guarded(lambda: on_reset()))
        self.start_box.observe(lambda _: None if self._busy else on_new(), names="value")
        self.opponent_box.observe(self._opponent_changed, names="value")
        self.rules_box.observe(self._rules_changed, names="value")
        self.level_box.observe(lambda _: self._on_level(str(self.level_box.value)), names="value")
        row = w.Layout(flex_flow="row wrap", align_items="center")
        self.fold = Fold(words.settings, w.VBox([
            w.HBox([self.rules_box, self.start_box, self.random_button], layout=row),
            w.HBox([self.opponent_box, self.level_box], layout=row),
            self.first_box,
            w.HBox([self.new_button, self.rematch_button, self.reset_button], layout=row),
        ]), css="duel-settings")  # fmt: skip

    @property
    def expanded(self) -> bool:
        """Whether the settings are shown (folded away at first)."""
        return self.fold.expanded

    @expanded.setter
    def expanded(self, value: bool) -> None:
        self.fold.expanded = value

    # -- what the boxes say -------------------------------------------------------------

    def rules(self) -> Rules:
        """The rule book chosen in the Rules list."""
        return rules_for(self.rules_box.value, self.extra)

    def start(self) -> int:
        """The start number typed in the box (a DuelError says what is wrong with it)."""
        return read_box(self.start_box.value, "the start number")

    @property
    def first(self) -> int:
        """Who moves first: 1 or 2."""
        return int(self.first_box.value)

    @property
    def opponent(self) -> str:
        """'human' (a friend) or 'computer'."""
        return str(self.opponent_box.value)

    # -- what the board tells the settings ----------------------------------------------

    def show_game(self, start: int, first: int, opponent: str) -> None:
        """A game started: show its start, first player and opponent (no handler runs)."""
        self.first_box.options = self._first_options(opponent)
        self.first_box.value = first
        self.set_start(start)

    def set_start(self, n: int) -> None:
        """Put ``n`` in the start box without starting a game."""
        self._busy = True
        try:
            self.start_box.value = str(n)
        finally:
            self._busy = False

    def select(self, rules: Rules) -> None:
        """Choose ``rules`` in the Rules list, if it is offered."""
        if rules_key(rules) in [key for _, key in self.rules_box.options]:
            self.rules_box.value = rules_key(rules)

    def add_rules(self, rules: Rules, select: bool = True) -> None:
        """Offer a Rules value (a variant) in the Rules list, and choose it."""
        key = rules_key(rules)
        if key != rules.name:
            self.extra[key] = rules
        self.rules_box.options = rules_options(self.extra)
        if select:
            self.rules_box.value = key

    def refresh_rules(self, select: str | None = None, playing: Rules | None = None) -> None:
        """Re-read the Rules list (and select a key in it, else the one chosen, else the rules ``playing``)."""
        current = select or self.rules_box.value
        self.rules_box.options = rules_options(self.extra)
        keys = [key for _, key in self.rules_box.options]
        fallback = rules_key(playing) if playing is not None else keys[0]
        self.rules_box.value = current if current in keys else fallback

    # -- handlers -----------------------------------------------------------------------

    def _first_options(self, opponent: str) -> list[tuple[str, int]]:
        vs = opponent == "computer"
        return [(self.words.name(1, vs), 1), (self.words.name(2, vs), 2)]

    def _opponent_changed(self, change: Any) -> None:
        first = self.first_box.value
        self.first_box.options = self._first_options(change["new"])
        self.first_box.value = first
        self.level_box.disabled = change["new"] != "computer"
        self.on_say("The new opponent plays from the next game: press New game.")

    def _rules_changed(self, _change: Any) -> None:
        rules = self.rules()
        self.set_start(rules.default_start)
        self.on_say(
            f"{rules.title} chosen, from its usual start {rules.default_start}. "
            "Press New game to play it (the current game is unchanged)."
        )
